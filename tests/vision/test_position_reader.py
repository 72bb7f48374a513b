"""The position reader: a still picture that shows too little of the board is no position."""

from __future__ import annotations

import numpy as np
import pytest
from replay_fakes import guess, reading

from engine.board import Board
from engine.tiles import COLOURS, SHAPES, Tile
from vision import reader
from vision.reader import PositionReader
from vision.scan import Lattice, ScanResult

PITCH, ORIGIN = 60.0, (100.0, 100.0)
ROW = [(x, 0, Tile(COLOURS[x % 6], SHAPES[0])) for x in range(10)]
"""Ten circles in a row (the reader checks no rule), 60 px apart from x = 100 px."""


def _scanning(monkeypatch, cells: list[tuple[int, int]]) -> None:
    """Make the scan read ROW's tiles on ``cells`` only, on the row's own lattice."""
    tiles = {(x, y): tile for x, y, tile in ROW}
    readings = [reading(x, y, guess(tiles[x, y].colour, tiles[x, y].shape), PITCH, ORIGIN)
                for x, y in cells]
    homography = np.array([[PITCH, 0, ORIGIN[0]], [0, PITCH, ORIGIN[1]], [0, 0, 1]])
    result = ScanResult(readings, Lattice(homography, PITCH), 1.0)
    monkeypatch.setattr(reader, "scan_image", lambda image, colours, **_: result)


def _read(width: int):
    board = Board.from_placed(ROW)
    return PositionReader(COLOURS).read(np.zeros((480, width, 3), np.uint8), board, set(board))


def test_a_picture_that_shows_under_three_quarters_of_the_board_is_no_position(monkeypatch):
    """An arm lying across a board that meets the picture's edge is no arm to the gate, and
    it hid half the tiles at the end of game 116 of the hardest footage; read as a
    position, the tile its hand had just laid was later taken for one laid earlier."""
    _scanning(monkeypatch, [(x, 0) for x in range(7)])  # 7 of the 10, all in the picture
    assert _read(800) is None


@pytest.mark.parametrize("seen", [8, 10])
def test_enough_of_the_board_read_is_a_position(monkeypatch, seen):
    _scanning(monkeypatch, [(x, 0) for x in range(seen)][::-1])
    position = _read(800)
    assert position is not None and len(position.registration.seen) == seen


def test_tiles_off_the_picture_are_not_counted_missing(monkeypatch):
    """A camera knocked aside leaves half the row out of the picture (x = 5 lies at 400 px
    in a picture 400 px wide): the five tiles in view, all read, are the board seen."""
    _scanning(monkeypatch, [(x, 0) for x in range(5)])
    position = _read(400)
    assert position is not None and len(position.registration.seen) == 5
    assert len(position.registration.missing) == 5


@pytest.mark.parametrize(("unchanged", "read"), [(0, False), (1, True)])
def test_missed_tiles_whose_cells_look_as_before_count_as_found(monkeypatch, unchanged, read):
    """7 of the 10 read is too few, but a missed tile whose cell looks as it did is only
    missed: with one such, 8 of 10 make a position. The reader asks about the missed ones."""
    _scanning(monkeypatch, [(x, 0) for x in range(7)])
    asked = []

    def look(reg, cells):
        asked.append(list(cells))
        return set(cells[:unchanged])

    board = Board.from_placed(ROW)
    position = PositionReader(COLOURS).read(np.zeros((480, 800, 3), np.uint8), board,
                                            set(board), unchanged=look)
    assert asked == [[(7, 0), (8, 0), (9, 0)]]
    assert (position is not None) == read
