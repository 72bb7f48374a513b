"""The board game's start and bonus squares, recognised from the tiles alone."""

from __future__ import annotations

from engine.boardgame import bonus_squares, move_bonus, start_diagonals

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
    assert start_diagonals(CONNECT_1[1:]) is None  # a tile of one diagonal missing
    assert start_diagonals([*CONNECT_1, (7, 1)]) is None  # a tile beside the start
    bent = [*CONNECT_1[:5], (3, 6), *CONNECT_1[6:]]  # a diagonal that turns a corner
    assert start_diagonals(bent) is None
    assert start_diagonals([(x, 0) for x in range(6)] * 2) is None  # a line is a first move
    assert bonus_squares(CONNECT_1[:6]) == {}


def test_only_new_tiles_on_bonus_squares_add_points():
    bonus = bonus_squares(CONNECT_1)
    assert move_bonus(bonus, [(7, 1), (8, 1), (9, 1)]) == 2
    assert move_bonus(bonus, [(5, 1), (1, 1)]) == 3
    assert move_bonus(bonus, []) == 0
