"""Set profiles: one photo of all 36 kinds teaches the recognition an odd set.

The photo shows the 36 kinds in a 6 x 6 block: one row per colour, in the order of the set's
colours (red, orange, yellow, green, blue, purple by default), one column per shape in the
documented order (circle, square, diamond, clover, cross, star). Every tile's label is then
known from its place, so the block gives a :class:`vision.adapt.SetAdapter` one example of
each kind, under the light of the photo. The block may lie turned or mirrored in the photo:
of the eight ways to lay the 6 x 6 labels over it, the one the network agrees with most wins.

A profile is a JSON file: the set's colours and the adapter.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import numpy as np

from engine.tiles import SHAPES, Tile, is_colour_set
from vision.adapt import SetAdapter
from vision.scan import TileReading, scan_image

KIND = "qwirkle-set-profile"
SIDE = len(SHAPES)


class ProfileError(ValueError):
    """A calibration photo or a profile file that cannot be used, with the reason."""


class BlockProblem(StrEnum):
    """Why a picture does not give the 36 kinds: the tablet says it in its reader's language."""

    TILE_COUNT = "block_tile_count"  # not 36 tiles in view
    NOT_A_BLOCK = "block_not_square"  # 36 tiles, but not laid out as one 6 x 6 block


class BlockError(ProfileError):
    """The picture does not show the 36 kinds in one block; ``found`` tiles were seen."""

    def __init__(self, problem: BlockProblem, found: int) -> None:
        self.problem, self.found = problem, found
        super().__init__(english(problem, found))


def english(problem: BlockProblem, found: int) -> str:
    """The command line's sentence for a :class:`BlockProblem`."""
    if problem is BlockProblem.TILE_COUNT:
        return (f"found {found} tiles; the photo must show the {SIDE * SIDE} kinds in a "
                f"{SIDE} x {SIDE} block (rows: colours, columns: shapes)")
    return f"the {SIDE * SIDE} tiles do not form one {SIDE} x {SIDE} block"


@dataclass
class SetProfile:
    """What ``qwirkle calibrate`` learned: the set's colours and its adapter."""

    colours: tuple[str, ...]
    adapter: SetAdapter

    def to_json(self) -> dict:
        return {"kind": KIND, "colours": list(self.colours), "adapter": self.adapter.to_json()}


@dataclass(frozen=True)
class Calibration:
    """A calibration's outcome: the profile, and how the network alone read the block."""

    profile: SetProfile
    block: dict[tuple[int, int], Tile]  # (column, row) in the block -> its kind
    misread: list[tuple[Tile, Tile]]  # (kind, the network's reading) where they differ


def calibrate(image: np.ndarray, colours: Sequence[str]) -> Calibration:
    """Learn the set from a photo of its 36 kinds laid out as documented above.

    Raises :class:`BlockError` when the photo does not show one 6 x 6 block of tiles.
    """
    colours = tuple(colours)
    tiles = scan_image(image, colours, patterns=False).tiles
    if len(tiles) != SIDE * SIDE:
        raise BlockError(BlockProblem.TILE_COUNT, len(tiles))
    cells = np.array([(t.x, t.y) for t in tiles])
    place = cells - cells.min(axis=0)
    if place.max() != SIDE - 1 or len({tuple(p) for p in place.tolist()}) != SIDE * SIDE:
        raise BlockError(BlockProblem.NOT_A_BLOCK, len(tiles))
    kinds = max((_laid(place, turn, colours) for turn in range(8)),
                key=lambda labels: _agreement(tiles, labels))
    adapter = SetAdapter()
    adapter.learn([t.guess for t in tiles], kinds)
    block = {(int(c), int(r)): k for (c, r), k in zip(place.tolist(), kinds, strict=True)}
    misread = [(k, t.guess.tile) for t, k in zip(tiles, kinds, strict=True) if t.guess.tile != k]
    return Calibration(SetProfile(colours, adapter), block, misread)


def _laid(place: np.ndarray, turn: int, colours: tuple[str, ...]) -> list[Tile]:
    """The kinds of the block's places under one of its eight turns and mirror images."""
    column, row = place[:, 0], place[:, 1]
    if turn & 4:
        column, row = row, column
    if turn & 1:
        column = SIDE - 1 - column
    if turn & 2:
        row = SIDE - 1 - row
    return [Tile(colours[r], SHAPES[c]) for c, r in zip(column, row, strict=True)]


def _agreement(tiles: list[TileReading], kinds: list[Tile]) -> float:
    """How well the network's probabilities agree with a labelling (summed log-probability)."""
    return sum(np.log(max(t.guess.colour_probs[k.colour] * t.guess.shape_probs[k.shape], 1e-9))
               for t, k in zip(tiles, kinds, strict=True))


def save_profile(profile: SetProfile, path: str | Path) -> None:
    Path(path).write_text(json.dumps(profile.to_json()) + "\n", encoding="utf-8")


def load_profile(path: str | Path) -> SetProfile:
    """The profile in ``path``; :class:`ProfileError` saying what is wrong otherwise."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProfileError(f"{path}: no such set profile") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ProfileError(f"{path}: not a set profile ({error})") from None
    return profile_from_json(data, str(path))


def profile_from_json(data: object, source: str) -> SetProfile:
    """A profile from its JSON (a file's, or one kept by the table app); ``source`` names
    where it came from in the :class:`ProfileError`."""
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise ProfileError(f"{source}: not a set profile (make one with qwirkle calibrate)")
    colours = data.get("colours")
    if not isinstance(colours, list) or not is_colour_set(colours):
        raise ProfileError(f"{source}: the set profile's colours are not six known colours")
    try:
        adapter = SetAdapter.from_json(data.get("adapter") or {})
    except ValueError as error:
        raise ProfileError(f"{source}: {error}") from None
    return SetProfile(tuple(colours), adapter)
