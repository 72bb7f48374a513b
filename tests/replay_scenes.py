"""Small rendered tables and clips for the replay tests: a few tiles, low resolution, fast."""

from __future__ import annotations

from dataclasses import replace

from engine.tiles import COLOURS, SHAPES, Tile
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


# The board game (engine.boardgame): four quarters of a printed board, each with a diagonal of
# six from top right to bottom left; the first two tiles of the first diagonal, at (6, 1) and
# (5, 2), are a blue diamond and a red circle, the others any kinds.
START_CELLS = [(qx + 6 - i, qy + 1 + i) for qx in (0, 8) for qy in (0, 8) for i in range(6)]
START = [(x, y, tile) for (x, y), tile in zip(START_CELLS, [
    Tile("blue", "diamond"), Tile("red", "circle"),
    *(Tile(COLOURS[i % 6], SHAPES[(i // 6 + i) % 6]) for i in range(2, 24))], strict=True)]
# blue beside the blue diamond, the last on (9, 1): a "2", the next quarter's corner: 4 + 2
BOARD_MOVE_1 = tiles((7, 1, "blue", "square"), (8, 1, "blue", "star"), (9, 1, "blue", "clover"))
# on (5, 1), a "1" between the diagonal's first two tiles: a row of five, a column of two: 8
BOARD_MOVE_2 = tiles((5, 1, "blue", "circle"))


def board_game(seed: int = 3, aside: list | None = None) -> GameRenders:
    """The board game's start, then its two moves, on a printed board under the tiles (its
    bonus squares drawn at random, afresh in each position); ``aside``: tiles lying apart
    from the board throughout (a rack)."""
    aside = aside or []
    script = GameScript([START + aside, START + BOARD_MOVE_1 + aside,
                         START + BOARD_MOVE_1 + BOARD_MOVE_2 + aside],
                        [(tuple(BOARD_MOVE_1), 6), (tuple(BOARD_MOVE_2), 8)])
    game = GameRenders(script, seed)
    game.style = replace(game.style, table="board", board_origin=(0, 0))
    return game


def scan_changed(monkeypatch, calls: range, change) -> None:
    """Make the scan's result pass through ``change`` in the pictures numbered ``calls``
    (counted from 1)."""
    from vision import reader
    from vision.scan import scan_image

    seen = []

    def changed_scan(image, colours, adapter=None, known=None):
        result = scan_image(image, colours=colours)
        seen.append(image)
        return change(result) if len(seen) in calls else result

    monkeypatch.setattr(reader, "scan_image", changed_scan)


def scan_missing(monkeypatch, pixel, calls: range) -> None:
    """Make the scan miss the tile at the photo pixel ``pixel`` in the pictures numbered
    ``calls`` (counted from 1), as glare or a low score can."""
    def missing(result):
        return replace(result, tiles=[
            r for r in result.tiles
            if (r.center[0] - pixel[0]) ** 2 + (r.center[1] - pixel[1]) ** 2 > 100])

    scan_changed(monkeypatch, calls, missing)


def pixel(game: GameRenders, position: int, cell: tuple[float, float]):
    """Where a (truth) cell lies in the picture of a rendered position."""
    import cv2
    import numpy as np

    return cv2.perspectiveTransform(np.array([[cell]], np.float64),
                                    game[position].homography)[0, 0]


def scan_adding(monkeypatch, spot, calls: range, tile=None, tile_prob: float | None = None
                ) -> None:
    """Make the scan also read a tile (``tile``, or the first tile's reading; as sure as that
    one, or ``tile_prob``) at the photo pixel ``spot`` in the pictures numbered ``calls``
    (counted from 1)."""
    import cv2
    import numpy as np

    def adding(result):
        to_cell = np.linalg.inv(result.lattice.homography)
        x, y = np.rint(cv2.perspectiveTransform(spot[None, None], to_cell)[0, 0]).astype(int)
        some = result.tiles[0]
        guess = replace(some.guess, tile=tile or some.guess.tile,
                        tile_prob=some.guess.tile_prob if tile_prob is None else tile_prob)
        fake = replace(some, x=int(x), y=int(y), center=(float(spot[0]), float(spot[1])),
                       guess=guess)
        return replace(result, tiles=[*result.tiles, fake])

    scan_changed(monkeypatch, calls, adding)


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
