"""The board game's start and bonus squares, recognised from the tiles alone."""

from __future__ import annotations

import pytest

from engine.boardgame import bonus_squares, move_bonus, start_diagonals
from engine.refusals import IllegalMove
from engine.table import Place, TableGame
from engine.tiles import COLOURS, SHAPES, Tile

# connect-1's start in ../shared/data/real: four quarters, each diagonal rising to the right
CONNECT_1 = [(6 - i + qx, 1 + i + qy) for qx in (0, 8) for qy in (0, 8) for i in range(6)]


def test_a_quarter_of_the_printed_board_is_derived_from_its_diagonal():
    bonus = bonus_squares(CONNECT_1)
    quarter = {cell: n for cell, n in bonus.items() if cell[0] < 8 and cell[1] < 8}
    # the printed quarter: "1" on both sides of each step of the diagonal, "2" at the corners
    assert quarter == {(5, 1): 1, (6, 2): 1, (4, 2): 1, (5, 3): 1, (3, 3): 1, (4, 4): 1,
                       (2, 4): 1, (3, 5): 1, (1, 5): 1, (2, 6): 1, (1, 1): 2, (6, 6): 2}
    assert len(bonus) == 48 and sorted(bonus.values()).count(2) == 8


def test_a_turned_quarter_turns_its_bonus_squares():
    falling = [(1 + i, 1 + i) for i in range(6)] + [(9 + i, 1 + i) for i in range(6)]
    bonus = bonus_squares(falling)
    assert bonus[(6, 1)] == bonus[(1, 6)] == 2 and bonus[(2, 1)] == bonus[(1, 2)] == 1
    assert (1, 1) not in bonus  # a start tile's own square


def test_no_other_layout_is_a_start():
    assert start_diagonals([]) is None
    assert start_diagonals(CONNECT_1[:6]) is None  # one diagonal: a lone group of tiles
    assert start_diagonals([*CONNECT_1, (7, 1)]) is None  # a tile beside the start
    bent = [*CONNECT_1[:5], (3, 6), *CONNECT_1[6:]]  # a diagonal that turns a corner
    assert start_diagonals(bent) is None
    assert start_diagonals([(x, 0) for x in range(6)] * 2) is None  # a line is a first move
    assert bonus_squares(CONNECT_1[:6]) == {}


def test_a_start_short_of_a_tile_or_two_is_completed_on_the_printed_board():
    whole = start_diagonals(CONNECT_1)
    # the scan missed a diagonal's end, a tile inside one, or one tile of each of two
    for short in (CONNECT_1[1:], CONNECT_1[:8] + CONNECT_1[9:], CONNECT_1[:3] + CONNECT_1[4:20]
                  + CONNECT_1[21:], CONNECT_1[:23]):
        assert start_diagonals(short) == whole
        assert bonus_squares(short) == bonus_squares(CONNECT_1)
    # three tiles missing, two diagonals of six and a lone tile, or a tile off the diagonals
    assert start_diagonals(CONNECT_1[3:]) is None
    assert start_diagonals(CONNECT_1[:12] + CONNECT_1[13:14]) is None
    assert start_diagonals([*CONNECT_1[:23], (11, 9)]) is None  # in a quarter, off its diagonal
    assert start_diagonals(CONNECT_1[:12] + [(x + 16, y) for x, y in CONNECT_1[18:23]]) is None


def test_only_new_tiles_on_bonus_squares_add_points():
    bonus = bonus_squares(CONNECT_1)
    assert move_bonus(bonus, [(7, 1), (8, 1), (9, 1)]) == 2
    assert move_bonus(bonus, [(5, 1), (1, 1)]) == 3
    assert move_bonus(bonus, []) == 0


def _start_tiles() -> list:
    return [(x, y, Tile(COLOURS[i % 6], SHAPES[(i // 6 + i) % 6]))
            for i, (x, y) in enumerate(CONNECT_1)]


def test_a_game_with_a_start_scores_bonus_squares_and_keeps_its_start_through_corrections():
    start = _start_tiles()
    at = {(x, y): tile for x, y, tile in start}
    top = at[(6, 1)]  # red circle: a red row to its right, the last tile on a "2"
    row = [(x, 1, Tile("red", shape)) for x, shape in zip((7, 8, 9), ("square", "star", "cross"),
                                                          strict=True)]
    assert top == Tile("red", "circle")
    game = TableGame.new(["Ann", "Bob"]).with_start(start).play(Place(tuple(row)))
    assert game.scores == (4 + 2, 0) and game.bag_before(1) == 108 - 24 - 3 - 12
    # a correction rebuilds the game from its start: the bonus still counts
    assert game.replace(0, Place(tuple(row[:2]))).scores == (3, 0)
    assert TableGame.from_turns(["Ann", "Bob"], [Place(tuple(row))], start=start).scores == (6, 0)
    # without the start, standard Qwirkle: the row alone, no bonus
    assert game.with_start([]).scores == (3, 0) and not game.with_start([]).squares
    # a start of another set, or no start at all
    purple = [(x, y, Tile("purple", t.shape)) if (x, y) == (6, 1) else (x, y, t)
              for x, y, t in start]
    with pytest.raises(IllegalMove):
        TableGame.new(["Ann", "Bob"], colours=("red", "orange", "yellow", "green", "blue",
                                               "white")).with_start(purple)
    with pytest.raises(ValueError, match="diagonals of six"):
        TableGame.new(["Ann", "Bob"]).with_start(start[:6])
