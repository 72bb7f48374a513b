"""Every placement rule with its reason, scoring, and a worked sample game."""

from __future__ import annotations

import pytest

from engine.board import Board, Placed
from engine.rules import IllegalMove, apply_move, check_move
from engine.tiles import Tile


def tiles(spec: str) -> list[Placed]:
    """``"0,0,RCi 1,0,RSq"`` -> placed tiles, to keep positions readable in tests."""
    out = []
    for item in spec.split():
        x, y, code = item.split(",")
        out.append((int(x), int(y), Tile.from_code(code)))
    return out


def board(spec: str = "") -> Board:
    return Board.from_placed(tiles(spec))


def reason(b: Board, move: str) -> str:
    check = check_move(b, tiles(move))
    assert not check.legal and check.score is None
    return check.reason


def score(b: Board, move: str) -> int:
    check = check_move(b, tiles(move))
    assert check.legal, check.reason
    assert check.reason == "" and check.score is not None
    return check.score


ROW = "0,0,RCi 1,0,RSq 2,0,RDi"


# --- validation -------------------------------------------------------------------------

def test_a_move_places_at_least_one_tile() -> None:
    assert reason(board(ROW), "") == "the move places no tiles"


def test_no_cell_is_used_twice() -> None:
    assert reason(board(ROW), "3,0,RCl 3,0,RSt") == "cell (3, 0) is used twice in the move"


def test_no_occupied_cell() -> None:
    assert reason(board(ROW), "2,0,RSt") == "cell (2, 0) already holds red diamond"


def test_placed_tiles_lie_in_one_row_or_column() -> None:
    assert reason(board(ROW), "3,0,RCl 3,1,RSt 4,1,RCr") == (
        "the placed tiles are not all in one row or one column"
    )
    assert reason(board(), "0,0,RCi 1,1,RSq") == (
        "the placed tiles are not all in one row or one column"
    )


def test_the_span_of_the_placed_tiles_has_no_gap() -> None:
    assert reason(board(ROW), "3,0,RCl 5,0,RSt") == "the placed tiles leave a gap at (4, 0)"
    assert reason(board(), "0,0,RCi 0,2,RSq") == "the placed tiles leave a gap at (0, 1)"


def test_existing_tiles_may_fill_the_gap_so_placed_tiles_need_not_touch() -> None:
    assert score(board(ROW), "-1,0,RCl 3,0,RSt") == 5


def test_after_the_opening_a_placed_tile_touches_the_board() -> None:
    assert reason(board(ROW), "0,2,BCi") == "no placed tile touches a tile already on the board"
    # A diagonal neighbour is not a touch.
    assert reason(board(ROW), "3,1,RCl") == "no placed tile touches a tile already on the board"


def test_the_opening_move_touches_nothing() -> None:
    assert score(board(), "5,5,RCi 6,5,RSq") == 2


def test_a_line_shares_one_colour_or_one_shape() -> None:
    assert reason(board(ROW), "3,0,BCi") == (
        "row y=0 from x=0 to x=3 would mix colours and shapes: "
        "red circle, red square, red diamond, blue circle"
    )
    assert reason(board(), "0,0,RCi 1,0,BSq") == (
        "row y=0 from x=0 to x=1 would mix colours and shapes: red circle, blue square"
    )


def test_a_line_holds_no_duplicate_tile() -> None:
    assert reason(board(ROW), "3,0,RCi") == "row y=0 from x=0 to x=3 would hold red circle twice"
    assert reason(board(), "0,0,GSt 0,1,GSt") == (
        "column x=0 from y=0 to y=1 would hold green star twice"
    )


def test_a_line_is_at_most_six_long() -> None:
    # Seven distinct colours exist only when white and purple meet: length is its own rule.
    six = "0,0,RCi 1,0,OCi 2,0,YCi 3,0,GCi 4,0,BCi 5,0,PCi"
    assert reason(board(six), "6,0,WCi") == (
        "row y=0 from x=0 to x=6 would be 7 tiles long; a line holds at most 6"
    )


def test_every_crossing_line_is_checked_too() -> None:
    b = board("0,0,RCi 1,0,RSq")
    # The new row y=1 is fine (blue) but the column x=1 would hold red square, blue circle.
    assert reason(b, "0,1,BSq 1,1,BCi") == (
        "column x=0 from y=0 to y=1 would mix colours and shapes: red circle, blue square"
    )


def test_white_is_accepted_as_a_colour() -> None:
    assert score(board("0,0,WCi"), "1,0,WSq 2,0,WSt") == 3


# --- scoring ----------------------------------------------------------------------------

def test_a_lone_opening_tile_scores_one() -> None:
    assert score(board(), "0,0,RCi") == 1


def test_a_line_scores_its_length_including_tiles_already_there() -> None:
    assert score(board(), ROW) == 3
    assert score(board(ROW), "3,0,RCl") == 4


def test_a_tile_in_two_lines_scores_both() -> None:
    b = board("0,0,RCi 1,0,RSq 0,1,BCi")
    assert score(b, "1,1,BSq") == 4


def test_a_new_line_crossing_existing_lines_scores_each_crossing() -> None:
    b = board("0,0,RCi 1,0,RSq 2,0,RDi")
    check = check_move(b, tiles("0,1,BCi 1,1,BSq 2,1,BDi"))
    assert check.score == 3 + 2 + 2 + 2
    assert len(check.lines) == 4


def test_a_qwirkle_scores_six_more_and_is_counted() -> None:
    b = board("0,0,RCi 1,0,RSq 2,0,RDi 3,0,RCl")
    check = check_move(b, tiles("4,0,RCr 5,0,RSt"))
    assert (check.score, check.qwirkles) == (12, 1)
    assert check_move(b, tiles("4,0,RCr")).qwirkles == 0


def test_two_qwirkles_in_one_move() -> None:
    # Column x=0 and row y=5 both become complete with the tile at (0, 5).
    b = board(
        "0,0,RSt 0,1,RCi 0,2,RSq 0,3,RDi 0,4,RCl "
        "1,5,OCr 2,5,YCr 3,5,GCr 4,5,BCr"
    )
    b = b.with_tiles(tiles("5,5,PCr"))
    check = check_move(b, tiles("0,5,RCr"))
    assert (check.score, check.qwirkles) == (24, 2)


def test_lines_are_reported_with_their_cells() -> None:
    check = check_move(board(ROW), tiles("3,0,RCl"))
    (line,) = check.lines
    assert line.cells == ((0, 0), (1, 0), (2, 0), (3, 0))
    assert line.describe() == "row y=0 from x=0 to x=3"
    assert line.points == 4


def test_apply_move_returns_the_new_board_or_raises_the_reason() -> None:
    b, check = apply_move(board(ROW), tiles("3,0,RCl"))
    assert b.get((3, 0)) == Tile("red", "clover") and check.score == 4
    with pytest.raises(IllegalMove, match="no placed tile touches"):
        apply_move(board(ROW), tiles("9,9,RCl"))


# --- bad calls --------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("b", "move", "message"),
    [
        ("not a board", [], "board must be a Board"),
        (Board(), "0,0,RCi", "move must be a sequence"),
        (Board(), 42, "move must be a sequence"),
        (Board(), [(0, 0, "red circle")], "move tile 1 must hold a Tile"),
        (Board(), [(0, 0, Tile("red", "circle")), (1, 0)], r"move tile 2 must be \(x, y, Tile\)"),
        (Board(), [(0, "1", Tile("red", "circle"))], "move tile 1 must have integer x and y"),
    ],
)
def test_malformed_calls_raise_type_error(b: object, move: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        check_move(b, move)  # type: ignore[arg-type]


# --- a worked sample game ---------------------------------------------------------------

# Modelled on the rulebook's scoring example (steps a-l): an opening line, extensions, a
# tile scoring two lines, both-end extension to a Qwirkle, a gap filled to join two lines,
# new lines crossing old ones, and a second and third Qwirkle. Scores worked out by hand.
SAMPLE_GAME = [
    ("a", "0,0,RCi 1,0,RSq 2,0,RDi", 3),  # opening row of three
    ("b", "3,0,RCl", 4),  # extend the row
    ("c", "0,1,BCi 0,2,GCi", 3),  # a column of circles down from the red circle
    ("d", "1,1,BSq", 4),  # one tile, two lines: row of blues, column of squares
    ("e", "-1,0,RCr 4,0,RSt", 12),  # both ends at once, completing six reds: Qwirkle
    ("f", "2,1,BDi 2,2,GDi", 6),  # column of diamonds (3) + row of blues (3)
    ("g", "1,2,GSq", 6),  # fills the gap joining green circle and green diamond, + squares
    ("h", "0,3,OCi 1,3,OSq", 10),  # new row (2) crossing circles (4) and squares (4)
    ("i", "0,4,YCi 0,5,PCi", 12),  # six circles: Qwirkle
    ("j", "1,4,YSq", 7),  # row (2) + column of five squares
    ("k", "1,5,PSq", 14),  # row (2) + six squares: Qwirkle
    ("l", "3,1,BCl 3,2,GCl", 11),  # column of clovers (3) + blue row (4) + green row (4)
]


def test_sample_game_step_by_step() -> None:
    b = Board()
    for step, move, expected in SAMPLE_GAME:
        check = check_move(b, tiles(move))
        assert check.legal, f"step {step}: {check.reason}"
        assert check.score == expected, f"step {step}"
        b = b.with_tiles(tiles(move))
    assert len(b) == 20


def test_sample_game_illegal_alternatives_along_the_way() -> None:
    b = Board()
    for _, move, _ in SAMPLE_GAME[:9]:  # through step i
        b = b.with_tiles(tiles(move))
    assert reason(b, "0,6,RCi") == (
        "column x=0 from y=0 to y=6 would be 7 tiles long; a line holds at most 6"
    )
    assert reason(b, "1,4,YDi") == (
        "column x=1 from y=0 to y=4 would mix colours and shapes: "
        "red square, blue square, green square, orange square, yellow diamond"
    )
    assert reason(b, "2,3,OCl") == (
        "column x=2 from y=0 to y=3 would mix colours and shapes: "
        "red diamond, blue diamond, green diamond, orange clover"
    )
