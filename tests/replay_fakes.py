"""Stand-ins for the scanner's readings, so decoding and registration can be tested exactly.

They carry the same fields as ``vision.classifier.TileGuess`` and ``vision.scan.TileReading``;
the tracker and decoder only read those fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.tiles import Tile


@dataclass(frozen=True)
class FakeGuess:
    tile: Tile
    confidence: float
    alternatives: list[tuple[Tile, float]] = field(default_factory=list)
    shape_probs: dict[str, float] = field(default_factory=dict)
    colour_probs: dict[str, float] = field(default_factory=dict)
    tile_prob: float = 1.0


@dataclass(frozen=True)
class FakeReading:
    x: int
    y: int
    guess: FakeGuess
    center: tuple[float, float]
    cut: bool = False


def guess(colour: str, shape: str, p: float = 0.99,
          *alternatives: tuple[str, str, float]) -> FakeGuess:
    """A reading of ``colour shape`` with probability ``p`` and the given runner-ups.

    The shape and colour marginals are summed from those joint labels, as a classifier's are.
    """
    options = [(colour, shape, p), *alternatives]
    shapes: dict[str, float] = {}
    colours: dict[str, float] = {}
    for c, s, q in options:
        shapes[s] = shapes.get(s, 0.0) + q
        colours[c] = colours.get(c, 0.0) + q
    return FakeGuess(Tile(colour, shape), p, [(Tile(c, s), q) for c, s, q in alternatives],
                     shapes, colours)


def reading(x: int, y: int, g: FakeGuess, pitch: float = 40.0,
            origin: tuple[float, float] = (100.0, 100.0), cut: bool = False) -> FakeReading:
    """A reading at scan cell (x, y) whose pixel centre lies on a square lattice (``cut``: the
    tile lies partly outside the picture)."""
    return FakeReading(x, y, g, (origin[0] + pitch * x, origin[1] + pitch * y), cut)
