"""The table game: turns in seat order, totals, unseen tiles, bag, ending and corrections."""

from __future__ import annotations

from collections import Counter

import pytest
from test_engine_rules import SAMPLE_GAME, tiles

from engine.refusals import Illegal
from engine.rules import IllegalMove
from engine.selfplay import simulate, table_game
from engine.sheet import render_sheet, score_sheet
from engine.table import Exchange, Pass, Place, TableGame
from engine.tiles import Tile, full_set

NAMES = ["Ann", "Bob"]


def place(spec: str) -> Place:
    return Place(tiles(spec))


def sample_game() -> TableGame:
    game = TableGame.new(NAMES)
    for _, move, _ in SAMPLE_GAME:
        game = game.play(place(move))
    return game


def test_the_sample_game_totals_qwirkles_and_seats() -> None:
    game = sample_game()
    expected = [0, 0]
    for i, (_, _, points) in enumerate(SAMPLE_GAME):
        expected[i % 2] += points
    assert game.scores == tuple(expected) == (50, 42)
    assert game.qwirkles == (3, 0)
    assert [t.player for t in game.turns] == [0, 1] * 6
    assert [t.score for t in game.turns] == [p for _, _, p in SAMPLE_GAME]
    assert game.current_player == 0


def test_unseen_tiles_and_bag_size_follow_the_table() -> None:
    game = sample_game()
    on_table = Counter(t for _, _, t in game.board.placed())
    assert game.unseen == Counter(full_set()) - on_table
    assert sum(game.unseen.values()) == 108 - 20
    assert game.bag_size == 108 - 20 - 6 * 2


def test_first_seat_and_rotation() -> None:
    game = TableGame.new(["A", "B", "C"], first=2).play(place("0,0,RCi")).play(Exchange(2))
    assert [t.player for t in game.turns] == [2, 0]
    assert game.current_player == 1


def test_exchange_and_pass_rules() -> None:
    game = TableGame.new(NAMES)
    with pytest.raises(IllegalMove, match="an exchange swaps 1 to 6 tiles, not 7"):
        game.play(Exchange(7))
    with pytest.raises(IllegalMove, match="an exchange swaps 1 to 6 tiles, not 0"):
        game.play(Exchange(0))
    with pytest.raises(IllegalMove, match=r"may pass only once the bag is empty \(96 tiles left\)"):
        game.play(Pass())
    assert game.play(Exchange(6)).scores == (0, 0)


def test_an_exchange_cannot_take_more_than_the_bag_holds() -> None:
    game = _near_end_game(bag=2)
    assert game.bag_size == 2
    with pytest.raises(IllegalMove, match="cannot exchange 3 tiles: the bag holds only 2"):
        game.play(Exchange(3))
    game = game.play(Exchange(2))
    assert game.turns[-1].score == 0


def test_placement_rules_come_back_as_illegal_move() -> None:
    game = TableGame.new(NAMES).play(place("0,0,RCi"))
    with pytest.raises(IllegalMove, match="no placed tile touches"):
        game.play(place("5,5,RSq"))
    with pytest.raises(IllegalMove, match="a turn places at most 6 tiles, not 7"):
        game.play(Place([(x, 1, Tile("red", "circle")) for x in range(7)]))


def test_a_fourth_copy_or_a_foreign_colour_is_refused() -> None:
    game = TableGame.new(NAMES)
    for move in ("0,0,RCi 1,0,RSq", "1,1,RCi", "2,1,BCi", "2,2,BSq", "3,2,RSq", "3,3,RCi"):
        game = game.play(place(move))
    assert game.unseen[Tile("red", "circle")] == 0
    with pytest.raises(IllegalMove, match="^all 3 red circle tiles are already on the table$"):
        game.play(place("4,3,RCi"))
    with pytest.raises(IllegalMove, match=r"white circle is not in this set \(colours: red, "):
        game.play(place("4,3,WCi"))
    white = TableGame.new(NAMES, colours=("red", "orange", "yellow", "green", "blue", "white"))
    assert white.play(place("0,0,WCi")).scores == (1, 0)


def test_finish_adds_the_bonus_apart_from_turn_scores() -> None:
    game = _near_end_game(bag=0)
    with pytest.raises(IllegalMove, match="cannot go out while the bag holds 2 tiles"):
        _near_end_game(bag=2).finish(0)
    last = game.turns[-1].player
    ended = game.finish(last)
    assert ended.ended and ended.went_out == last
    assert ended.bonus[last] == 6 and sum(ended.bonus) == 6
    assert ended.totals[last] == ended.scores[last] + 6
    with pytest.raises(IllegalMove, match="the game has ended"):
        ended.play(Pass())
    assert ended.finish(None).bonus == (0, 0)  # an ending can be corrected


def test_pass_is_allowed_once_the_bag_is_empty() -> None:
    game = _near_end_game(bag=0)
    assert game.play(Pass()).turns[-1].score == 0


def test_replace_rescores_later_turns() -> None:
    game = sample_game()
    # Step c really placed only the blue circle: the green circle's lines vanish, and later
    # turns that counted them score less (worked out by hand).
    fixed = game.replace(2, place("0,1,BCi"))
    assert [t.score for t in fixed.turns] == [3, 4, 2, 4, 12, 6, 5, 6, 3, 7, 14, 10]
    assert fixed.scores == (39, 37)
    assert fixed.qwirkles == (2, 0)
    assert (0, 2) not in fixed.board
    assert game.scores == (50, 42) and (0, 2) in game.board  # the original is untouched


def test_a_correction_that_breaks_a_later_turn_is_refused_naming_it() -> None:
    game = sample_game()
    with pytest.raises(IllegalMove) as err:
        game.replace(1, place("3,0,RSt"))  # then step e's red star would be a duplicate
    assert str(err.value) == (
        "this correction would make turn 5 (Ann) illegal: "
        "row y=0 from x=-1 to x=4 would hold red star twice"
    )
    with pytest.raises(IllegalMove, match=r"^turn 2 \(Bob\): no placed tile touches"):
        game.replace(1, place("9,9,RSt"))


def test_void_removes_a_turn_and_later_seats_shift() -> None:
    game = TableGame.new(NAMES).play(place("0,0,RCi")).play(Exchange(3)).play(place("1,0,RSq"))
    voided = game.void(1)
    assert [(t.player, t.score) for t in voided.turns] == [(0, 1), (1, 2)]
    assert voided.scores == (1, 2)
    # Voiding the opening makes step b the opening; step c, Ann's turn 3, then touches
    # nothing. It is named as the list shows it before the removal.
    with pytest.raises(IllegalMove) as err:
        sample_game().void(0)
    assert str(err.value) == (
        "this correction would make turn 3 (Ann) illegal: "
        "no placed tile touches a tile already on the board"
    )


def test_removing_a_turn_blames_the_later_turn_it_breaks_not_itself() -> None:
    """Removing Bob's turn 2 leaves Ann's turn 3 touching nothing: the refusal names turn 3
    and Ann, as a later turn broken, not the removed turn's place as a bad turn."""
    game = (TableGame.new(NAMES).play(place("0,0,RSt 1,0,RCi")).play(place("2,0,RCl"))
            .play(place("3,0,RSq")))
    with pytest.raises(IllegalMove) as err:
        game.void(1)
    assert err.value.refusal.code is Illegal.BREAKS_LATER_TURN
    assert (err.value.refusal.turn, err.value.refusal.player) == (2, "Ann")
    assert str(err.value).startswith("this correction would make turn 3 (Ann) illegal")


def test_only_the_player_who_laid_the_last_tiles_can_have_gone_out() -> None:
    """A hand is emptied by laying its last tiles, and that ends the game: any other seat
    named as gone out (a wrong tap on the end dialog gave another player the +6) is refused,
    and so is anyone after a turn that laid nothing."""
    game = _near_end_game(bag=0)
    last = game.turns[-1].player
    assert isinstance(game.turns[-1].turn, Place) and game.went_out_seat == last
    with pytest.raises(IllegalMove) as err:
        game.finish(1 - last)
    assert err.value.refusal.code is Illegal.GO_OUT_NOT_LAST
    assert str(err.value).startswith(f"{NAMES[1 - last]} did not lay the last turn's tiles")
    passed = game.play(Pass())
    assert passed.went_out_seat is None
    for seat in (0, 1):
        with pytest.raises(IllegalMove, match="did not lay the last turn's tiles"):
            passed.finish(seat)
    assert passed.finish(None).ended


def test_corrections_keep_the_ending_valid() -> None:
    game = _near_end_game(bag=0)
    game = game.finish(game.turns[-1].player)
    with pytest.raises(IllegalMove, match="this correction would make the ending invalid"):
        game.void(len(game.turns) - 1)
    assert game.replace(0, game.turns[0].turn).totals == game.totals


def test_bad_calls() -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        TableGame.new(["solo"])
    with pytest.raises(ValueError, match="non-empty strings"):
        TableGame.new(["A", ""])
    with pytest.raises(ValueError, match="first must be a seat"):
        TableGame.new(NAMES, first=2)
    with pytest.raises(ValueError, match="six distinct colours"):
        TableGame.new(NAMES, colours=("red",))
    game = sample_game()
    with pytest.raises(IndexError, match="no turn at index 12: the game has 12 turns"):
        game.replace(12, Pass())
    with pytest.raises(IndexError, match="no turn at index -1"):
        game.void(-1)
    with pytest.raises(TypeError, match="a turn is Place, Exchange or Pass"):
        game.play("pass")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="placed tile 1 must hold a Tile"):
        Place([(0, 0, "red circle")])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="went_out must be a seat"):
        game.finish(5)


def test_from_turns_names_the_bad_turn() -> None:
    turns = [place("0,0,RCi"), place("1,0,BSq")]
    with pytest.raises(IllegalMove, match=r"^turn 2 \(Bob\): row y=0 .* would mix"):
        TableGame.from_turns(NAMES, turns)
    assert TableGame.from_turns(NAMES, turns[:1]).scores == (1, 0)


def test_score_sheet_rows_columns_and_totals() -> None:
    game = TableGame.new(["Ann", "Bob", "Cy"], first=1)
    game = game.play(place("0,0,RCi 1,0,RSq")).play(Exchange(4)).play(place("2,0,RDi"))
    game = game.play(place("0,1,BCi"))
    sheet = score_sheet(game)
    assert [r.round for r in sheet.rows] == [1, 2]
    first, second = sheet.rows
    assert first.cells[1] is not None and first.cells[1].score == 2  # Bob opened
    assert first.cells[2] is not None and first.cells[2].kind == "exchange"
    assert first.cells[2].tiles == 4
    assert first.cells[0] is not None and first.cells[0].score == 3
    assert second.cells[1] is not None and second.cells[1].score == 2
    assert second.cells[0] is None and second.cells[2] is None
    assert sheet.totals == (3, 4, 0)
    text = render_sheet(sheet)
    assert text.splitlines()[0].split() == ["round", "Ann", "Bob", "Cy"]
    assert text.splitlines()[1].split() == ["1", "3", "2", "x4"]
    assert text.splitlines()[-2].split() == ["total", "3", "4", "0"]


def test_sheet_follows_corrections_and_counts_qwirkles() -> None:
    game = sample_game()
    sheet = score_sheet(game)
    assert sheet.totals == game.totals == (50, 42)
    assert sheet.qwirkles == (3, 0)
    assert "12*" in render_sheet(sheet)
    assert score_sheet(game.void(11)).totals == (50, 31)
    assert score_sheet(game.replace(11, Exchange(2))).totals == (50, 31)
    with pytest.raises(TypeError, match="score_sheet needs a TableGame"):
        score_sheet("game")  # type: ignore[arg-type]


def _near_end_game(bag: int) -> TableGame:
    """A legal game, cut at the first turn after which the bag holds ``bag`` tiles.

    Simulated games are legal and run the bag dry, so one of the first few has such a turn.
    """
    for seed in range(20):
        full = table_game(simulate(2, seed), NAMES)
        game = TableGame.new(NAMES, first=full.first)
        for record in full.turns:
            game = game.play(record.turn)
            if game.bag_size == bag:
                return game
    raise AssertionError(f"no simulated game passes through a bag of {bag}")
