"""Tiles: a colour and a shape, as immutable values.

A physical set has six colours; most sets use purple as the sixth, some use white, so both
names are accepted. The shapes are named as players name them: the 4-point star is a
"cross", the 8-point starburst a "star".

>>> Tile("red", "star")
Tile(colour='red', shape='star')
>>> Tile.parse("Blue", "CLOVER").code
'BCl'
>>> Tile.from_code("WSq")
Tile(colour='white', shape='square')
>>> len(full_set())
108
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple")
"""The default six colours, in a fixed order used for indices and displays."""

ALL_COLOURS: tuple[str, ...] = COLOURS + ("white",)
"""Every colour name accepted: white stands in for purple in some sets."""

SHAPES: tuple[str, ...] = ("circle", "square", "diamond", "clover", "cross", "star")

COPIES = 3
"""Each of the 36 kinds of tile appears three times in a set."""

HAND = 6
"""Tiles in a full hand: the most a turn can place or exchange."""

_COLOUR_CODES = {
    "red": "R", "orange": "O", "yellow": "Y", "green": "G", "blue": "B", "purple": "P",
    "white": "W",
}
_SHAPE_CODES = {
    "circle": "Ci", "square": "Sq", "diamond": "Di", "clover": "Cl", "cross": "Cr", "star": "St",
}
_CODE_COLOURS = {code: colour for colour, code in _COLOUR_CODES.items()}
_CODE_SHAPES = {code: shape for shape, code in _SHAPE_CODES.items()}


class TileError(ValueError):
    """An unknown colour or shape name."""


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One tile kind. Equal tiles are interchangeable: the three copies are not told apart."""

    colour: str
    shape: str

    def __post_init__(self) -> None:
        if self.colour not in ALL_COLOURS:
            raise TileError(f"unknown colour {self.colour!r}")
        if self.shape not in SHAPES:
            raise TileError(f"unknown shape {self.shape!r}")

    @classmethod
    def parse(cls, colour: object, shape: object) -> Tile:
        """Build a tile from loosely written names (any case, surrounding spaces)."""
        if not isinstance(colour, str):
            raise TileError(f"colour must be a string, not {colour!r}")
        if not isinstance(shape, str):
            raise TileError(f"shape must be a string, not {shape!r}")
        return cls(colour.strip().lower(), shape.strip().lower())

    @classmethod
    def from_code(cls, code: str) -> Tile:
        """The tile with this short code (``RSt``), the inverse of :attr:`code`."""
        colour = _CODE_COLOURS.get(code[:1])
        shape = _CODE_SHAPES.get(code[1:])
        if colour is None or shape is None:
            raise TileError(f"unknown tile code {code!r}")
        return cls(colour, shape)

    @property
    def code(self) -> str:
        """A short code for grids and logs: colour letter plus two shape letters, e.g. ``RSt``."""
        return _COLOUR_CODES[self.colour] + _SHAPE_CODES[self.shape]

    def __str__(self) -> str:
        return f"{self.colour} {self.shape}"


def is_colour_set(colours: Sequence[object]) -> bool:
    """Whether ``colours`` name a set's colours: six different names of :data:`ALL_COLOURS`.

    >>> is_colour_set(COLOURS[:5] + ("white",))
    True
    >>> is_colour_set(("red", "red", "yellow", "green", "blue", "purple"))
    False
    >>> is_colour_set(["red", "orange", "yellow", "green", "blue", {"purple": 1}])
    False
    """
    names = [c for c in colours if isinstance(c, str)]  # JSON may hold anything
    return len(colours) == 6 and len(set(names)) == 6 and set(names) <= set(ALL_COLOURS)


def tile_kinds(colours: tuple[str, ...] = COLOURS) -> list[Tile]:
    """The 36 kinds of tile of a set with these six colours."""
    return [Tile(c, s) for c in colours for s in SHAPES]


def full_set(colours: tuple[str, ...] = COLOURS) -> list[Tile]:
    """All 108 tiles of a set, three copies of each kind."""
    return [t for t in tile_kinds(colours) for _ in range(COPIES)]
