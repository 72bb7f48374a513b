"""Small rendered tables and clips for the replay tests: a few tiles, low resolution, fast."""

from __future__ import annotations

from dataclasses import replace

from engine.tiles import Tile
from vision.evaluate.replay import align_labelled, in_truth_frame
from vision.source import Frame
from vision.synth.footage import CLIP_STYLE, FootageStyle, GameRenders, GameScript, video_frames

SIZE = (640, 480)


def tiles(*items: tuple[int, int, str, str]) -> list:
    return [(x, y, Tile(c, s)) for x, y, c, s in items]


MOVE_1 = tiles((0, 0, "red", "circle"), (1, 0, "red", "square"), (2, 0, "red", "star"))
MOVE_2 = tiles((0, 1, "orange", "circle"), (0, 2, "yellow", "circle"))
MOVE_3 = tiles((3, 0, "red", "diamond"))
SCRIPT = GameScript([[], MOVE_1, MOVE_1 + MOVE_2, MOVE_1 + MOVE_2 + MOVE_3],
                    [(tuple(MOVE_1), 3), (tuple(MOVE_2), 3), (tuple(MOVE_3), 4)])

QUIET = replace(CLIP_STYLE, empty_reach_every=0, light_change_at=None, hold=1.5)
"""A clip with nothing but the reaches that place tiles."""


def renders(seed: int = 7, script: GameScript = SCRIPT) -> GameRenders:
    return GameRenders(script, seed, size=SIZE)


def clip(stills, style: FootageStyle = QUIET, seed: int = 7, target=None) -> list[Frame]:
    """The frames of a clip through ``stills`` (one reach between consecutive stills)."""
    return [Frame(image, t, f"{t:.2f}s") for image, t in video_frames(stills, style, seed, target)]


def photos(stills) -> list[Frame]:
    """Stills as a folder of photos would deliver them."""
    return [Frame(image, float(i), f"{i:02d}.jpg", still=True) for i, image in enumerate(stills)]


def run(tracker, frames) -> list:
    return [move for frame in frames for move in tracker.feed(frame)]


def as_truth(moves, truth: list) -> list[tuple[frozenset, int | None]]:
    """The moves' tiles carried onto the truth's cells (the scan picks its own origin), scored."""
    mapping = align_labelled([p for m in moves for p in m.tiles], truth)
    return list(zip(in_truth_frame(moves, mapping), [m.score for m in moves], strict=True))


def expected(*moves: tuple[list, int]) -> list[tuple[frozenset, int]]:
    return [(frozenset(tiles), score) for tiles, score in moves]
