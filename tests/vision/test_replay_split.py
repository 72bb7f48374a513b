"""Merged moves split into consecutive legal moves: the pure search on exact readings."""

from __future__ import annotations

from replay_fakes import guess

from engine.board import Board
from engine.rules import check_move
from engine.tiles import Tile
from vision.decode import decode_move, split_moves

R, OR, Y, G, B = "red", "orange", "yellow", "green", "blue"


def board_of(*items: tuple[int, int, str, str]) -> Board:
    return Board.from_placed((x, y, Tile(c, s)) for x, y, c, s in items)


def new_tiles(*items: tuple[int, int, str, str]) -> list:
    return [((x, y), guess(c, s)) for x, y, c, s in items]


BOARD = board_of((0, 0, R, "star"), (1, 0, R, "circle"))
# turn 1: a column of circles down from the red circle; turn 2: a row of yellow from its
# middle (had turn 2 built on the column's end, that tile could as well have been turn 2's:
# turn 1 a single tile, turn 2 a row crossing the column, for more points in all)
TURN_1 = ((1, 1, OR, "circle"), (1, 2, Y, "circle"), (1, 3, G, "circle"))
TURN_2 = ((2, 2, Y, "square"), (3, 2, Y, "cross"))


def _as_sets(moves) -> list[frozenset]:
    return [frozenset(m.tiles) for m in moves]


def _placed(*items) -> frozenset:
    return frozenset((x, y, Tile(c, s)) for x, y, c, s in items)


def test_two_turns_in_one_picture_are_split_in_the_only_legal_order():
    new = new_tiles(*TURN_2, *TURN_1)  # listed the wrong way round
    assert decode_move(BOARD, new).score is None  # not one move: two lines
    moves = split_moves(BOARD, new)
    assert _as_sets(moves) == [_placed(*TURN_1), _placed(*TURN_2)]
    assert [m.split for m in moves] == [(1, 2), (2, 2)]
    assert all(m.needs_confirmation for m in moves)
    assert "move 1 of 2" in moves[0].reason and "not known" in moves[0].reason
    assert "other order" not in moves[0].reason  # turn 2 needs turn 1's yellow circle
    # each part scored on the board the part before it left
    first = check_move(BOARD, list(moves[0].tiles))
    assert moves[0].score == first.score
    assert moves[1].score == check_move(BOARD.with_tiles(moves[0].tiles),
                                        list(moves[1].tiles)).score


def test_the_order_tiles_appeared_in_decides_between_legal_splits():
    # two single tiles that each fit on their own: either could have come first
    new = new_tiles((2, 0, R, "square"), (0, 1, OR, "star"))
    # no legal single move: not in one line
    assert decode_move(BOARD, new).score is None
    late_square = split_moves(BOARD, new, appeared=[5.0, 2.0])
    assert _as_sets(late_square) == [_placed((0, 1, OR, "star")), _placed((2, 0, R, "square"))]
    early_square = split_moves(BOARD, new, appeared=[2.0, 5.0])
    assert _as_sets(early_square) == [_placed((2, 0, R, "square")), _placed((0, 1, OR, "star"))]
    assert "in the order the tiles appeared" in early_square[0].reason


def test_fewest_parts_win_when_the_order_allows_several():
    # a run of three along the red row plus one tile below the star: two turns will do,
    # although four single tiles would be legal too
    new = new_tiles((2, 0, R, "square"), (3, 0, R, "cross"), (4, 0, R, "diamond"),
                    (0, 1, OR, "star"))
    moves = split_moves(BOARD, new)
    assert len(moves) == 2
    assert {len(m.tiles) for m in moves} == {1, 3}
    assert "other order is legal too" in moves[0].reason  # nothing tells which came first


def test_tiles_laid_side_by_side_stay_one_turn_when_nothing_else_decides():
    # a red row of three; during an outage one turn put a red cross at its right end and
    # another a column of diamonds down from its left end. A red diamond at the left end
    # with the cross is a legal turn too (the row runs on unbroken between them), leaving
    # the orange diamond alone: as few parts, labels as sure, but it parts two tiles laid
    # side by side, which players lay in one turn
    board = board_of((0, 0, R, "star"), (1, 0, R, "circle"), (2, 0, R, "square"))
    cross, diamonds = (3, 0, R, "cross"), ((-1, 0, R, "diamond"), (-1, 1, OR, "diamond"))
    for new in (new_tiles(cross, *diamonds), new_tiles(*reversed(diamonds), cross)):
        moves = split_moves(board, new)
        assert set(_as_sets(moves)) == {_placed(cross), _placed(*diamonds)}
        assert "other order is legal too" in moves[0].reason


def test_two_turns_the_camera_saw_neither_way_come_in_the_order_that_scores_more():
    # the simulation's game 158, its fifth and sixth turns made during an outage: a red
    # column down from the end of a row of diamonds (6 points), then a red row across the
    # column's top (9). Either order is legal; laid first the row scores 5, the column after
    # it 7: the turn laid against the other's tiles came second, 15 points against 12
    board = board_of((0, 0, B, "star"), (1, 0, Y, "star"), (-1, 1, "purple", "clover"),
                     (0, 1, B, "clover"), (-2, 1, OR, "clover"), (1, -1, Y, "diamond"),
                     (2, -1, "purple", "diamond"))
    column = ((3, -1, R, "diamond"), (3, 0, R, "cross"), (3, 1, R, "square"))
    row = ((2, -2, R, "diamond"), (3, -2, R, "circle"), (4, -2, R, "cross"))
    for new in (new_tiles(*row, *column), new_tiles(*column, *row)):
        moves = split_moves(board, new)
        assert _as_sets(moves) == [_placed(*column), _placed(*row)]
        assert [m.score for m in moves] == [6, 9]
        assert "other order is legal too" in moves[0].reason


def test_of_two_ways_to_part_the_same_tiles_into_turns_the_one_that_scores_more_is_taken():
    # as in the simulation's game 123: during an outage one turn put a red clover on top of
    # a red column, the next a red circle above it and a green circle beside that. The red
    # clover and red circle as one turn and the green circle alone is legal too, parting one
    # pair of neighbours as well, but scores 5 and 2 where the turns played scored 4 and 7:
    # a player takes the points the board offers
    board = board_of((-2, 0, R, "star"), (-2, 1, R, "cross"), (-2, 2, R, "square"))
    clover, circles = (-2, -1, R, "clover"), ((-2, -2, R, "circle"), (-1, -2, G, "circle"))
    for new in (new_tiles(clover, *circles), new_tiles(*reversed(circles), clover)):
        moves = split_moves(board, new)
        assert _as_sets(moves) == [_placed(clover), _placed(*circles)]
        assert [m.score for m in moves] == [4, 7]


def test_times_known_for_one_part_alone_do_not_order_the_parts():
    # the run's tiles appeared a second apart, the star's time is not known: nothing says
    # which turn came first
    new = new_tiles((2, 0, R, "square"), (3, 0, R, "cross"), (4, 0, R, "diamond"),
                    (0, 1, OR, "star"))
    moves = split_moves(BOARD, new, appeared=[2.0, 3.0, 2.0, None])
    assert len(moves) == 2
    assert "in the order the tiles appeared" not in moves[0].reason
    assert "other order is legal too" in moves[0].reason


def test_no_legal_split_is_said_plainly_by_returning_none():
    new = new_tiles((1, 1, G, "square"), (5, 5, B, "cross"))  # one fits nowhere, one floats
    assert split_moves(BOARD, new) is None
    assert split_moves(BOARD, new_tiles((2, 0, R, "square"))) is None  # one tile: no split
