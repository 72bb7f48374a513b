"""The board: sparse, immutable, refusing overwrites and malformed tiles."""

from __future__ import annotations

import pytest

from engine.board import Board
from engine.tiles import Tile, TileError

RCI, RSQ, BCI = Tile("red", "circle"), Tile("red", "square"), Tile("blue", "circle")


def test_lookup_membership_and_size() -> None:
    board = Board.from_placed([(0, 0, RCI), (-3, 5, RSQ)])
    assert board.get((0, 0)) == RCI
    assert board.get((-3, 5)) == RSQ
    assert board.get((1, 0)) is None
    assert (-3, 5) in board and (5, -3) not in board
    assert len(board) == 2
    assert len(Board()) == 0


def test_placed_is_sorted_by_x_then_y() -> None:
    board = Board.from_placed([(2, 0, RCI), (0, 1, RSQ), (0, -1, BCI)])
    assert board.placed() == [(0, -1, BCI), (0, 1, RSQ), (2, 0, RCI)]


def test_with_tiles_returns_a_new_board_and_leaves_the_old_one() -> None:
    board = Board.from_placed([(0, 0, RCI)])
    bigger = board.with_tiles([(1, 0, RSQ)])
    assert len(board) == 1 and (1, 0) not in board
    assert bigger.placed() == [(0, 0, RCI), (1, 0, RSQ)]
    assert bigger == Board.from_placed([(1, 0, RSQ), (0, 0, RCI)])
    assert bigger != board


def test_a_board_never_overwrites_a_tile() -> None:
    board = Board.from_placed([(0, 0, RCI)])
    with pytest.raises(ValueError, match=r"cell \(0, 0\) already holds red circle"):
        board.with_tiles([(0, 0, RSQ)])
    with pytest.raises(ValueError, match=r"cell \(4, 4\) already holds"):
        Board.from_placed([(4, 4, RCI), (4, 4, RSQ)])


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ((0, 0), "must be \\(x, y, Tile\\)"),
        ((0.5, 0, RCI), "integer x and y"),
        ((True, 0, RCI), "integer x and y"),
        ((0, 0, "red circle"), "must hold a Tile"),
        ("RCi", "must be \\(x, y, Tile\\)"),
    ],
)
def test_malformed_tiles_are_refused_with_a_message(item: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        Board.from_placed([item])  # type: ignore[list-item]


def test_bounds_and_text() -> None:
    assert Board().bounds() is None
    assert Board().to_text() == "(empty board)"
    board = Board.from_placed([(0, 0, RCI), (1, 1, BCI)])
    assert board.bounds() == (0, 0, 1, 1)
    assert board.to_text() == "RCi  . \n .  BCi"


def test_tile_codes_round_trip_and_white_is_a_colour() -> None:
    for tile in (RCI, Tile("white", "star"), Tile("purple", "cross")):
        assert Tile.from_code(tile.code) == tile
    with pytest.raises(TileError, match="unknown tile code 'XCi'"):
        Tile.from_code("XCi")
    with pytest.raises(TileError, match="unknown shape 'hexagon'"):
        Tile.parse("red", "hexagon")
