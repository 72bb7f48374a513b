"""The board game's start through the JSON API: entered, edited, corrected by the camera;
and every way of getting it wrong answered plainly, the game kept."""

from __future__ import annotations

import pytest
from replay_scenes import BOARD_MOVE_1, START, START_CELLS
from webui_support import Table, make_app

from engine.tiles import Tile
from webui.codec import placed_json
from webui.games import Conflict, Event, Games


@pytest.fixture
def t(tmp_path) -> Table:
    return Table(make_app(tmp_path / "games.sqlite3"))


def started(t: Table) -> int:
    """A game whose start players entered by hand (no camera) and whose move 1 scores 6."""
    game = t.new_game()
    t.place(game, placed_json(START))
    assert t.place(game, placed_json(BOARD_MOVE_1))["players"][0]["score"] == 6
    return game


def relabelled(cell, tile: Tile) -> list[dict]:
    return placed_json([(x, y, tile if (x, y) == cell else old) for x, y, old in START])


def test_a_start_entered_by_hand_is_the_start_and_a_move_scores_its_bonus(t):
    game = started(t)
    state = t.client.get(f"/api/games/{game}/state").json
    assert len(state["start"]) == 24 and len(state["turns"]) == 1
    assert [n for x, y, n in state["bonus_squares"] if (x, y) == (9, 1)] == [2]


def test_editing_the_start_rescores_every_turn_or_is_refused(t):
    game = started(t)
    # the blue diamond at (6, 1) read as a blue cross: the blue row of move 1 still stands
    cross = relabelled((6, 1), Tile("blue", "cross"))
    edited = t.put(f"/api/games/{game}/start", {"tiles": cross, "turns": 1})
    assert edited.status_code == 200, edited.json
    assert {"x": 6, "y": 1, "colour": "blue", "shape": "cross", "code": "BCr"} in \
        edited.json["start"]
    # a red diamond there would break move 1's blue row: refused, nothing changed
    red = relabelled((6, 1), Tile("red", "diamond"))
    refused = t.put(f"/api/games/{game}/start", {"tiles": red})
    assert refused.status_code == 409 and "turn 1" in refused.json["error"].lower()
    after = t.client.get(f"/api/games/{game}/state").json
    assert after["start"] == edited.json["start"] and after["players"][0]["score"] == 6


@pytest.mark.parametrize("payload, status", [
    ({"tiles": placed_json(START[1:])}, 409),  # a tile left out: cells must stay
    ({"tiles": [*placed_json(START[1:]), {"x": 7, "y": 1, "colour": "red", "shape": "star"}]},
     409),  # a tile moved
    ({"tiles": "everything"}, 400),
    ({}, 400),
    ({"tiles": placed_json(START), "turns": 5}, 409),  # another device changed the turns
])
def test_a_wrong_start_edit_is_answered_and_changes_nothing(t, payload, status):
    game = started(t)
    before = t.client.get(f"/api/games/{game}/state").json
    answer = t.put(f"/api/games/{game}/start", payload)
    assert answer.status_code == status and answer.json["error"]
    assert t.client.get(f"/api/games/{game}/state").json["start"] == before["start"]


def test_a_start_edit_naming_the_start_it_began_from_stands_while_turns_come_and_go(t):
    """At a busy table a turn is confirmed while the start's edit is open: counting the
    turns refused its fixes. Naming the start as it was (its tiles in any order), the edit
    is refused only once another device changed the start, and a relabel that breaks a turn
    stays refused."""
    game = started(t)
    began = {"tiles": placed_json(START[::-1])}
    t.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 2})  # another tablet
    cross = relabelled((6, 1), Tile("blue", "cross"))
    edited = t.put(f"/api/games/{game}/start", {"tiles": cross, "was": began, "turns": 1})
    assert edited.status_code == 200, edited.json
    assert [turn["score"] for turn in edited.json["turns"]] == [6, 0]
    # a second tablet's edit, begun before the first was saved, would silently undo it
    square = relabelled((6, 1), Tile("blue", "square"))
    second = t.put(f"/api/games/{game}/start", {"tiles": square, "was": began})
    assert second.status_code == 409 and second.json["reason_code"] == "start_changed"
    assert second.json["error"].startswith("The board game's start is no longer as it was")
    assert t.client.get(f"/api/games/{game}/state").json["start"] == edited.json["start"]
    broken = t.put(f"/api/games/{game}/start", {
        "tiles": relabelled((6, 1), Tile("red", "diamond")), "was": {"tiles": cross}})
    assert broken.status_code == 409 and broken.json["reason_code"] == "breaks_later_turn"


@pytest.mark.parametrize("was", ["start", [], {}, {"tiles": []}, {"tiles": [{"x": 0}]}])
def test_a_start_edit_with_a_malformed_was_is_400_and_changes_nothing(t, was):
    game = started(t)
    before = t.client.get(f"/api/games/{game}/state").json
    answer = t.put(f"/api/games/{game}/start",
                   {"tiles": relabelled((6, 1), Tile("blue", "cross")), "was": was})
    assert answer.status_code == 400 and answer.json["error"]
    assert t.client.get(f"/api/games/{game}/state").json["start"] == before["start"]


def test_a_game_without_a_start_has_none_to_edit(t):
    game = t.new_game()
    answer = t.put(f"/api/games/{game}/start", {"tiles": placed_json(START)})
    assert answer.status_code == 409, answer.json
    assert answer.json["error"] == "this game has no board game's start"


def test_the_table_is_right_relabels_a_tile_of_the_start(t):
    game = started(t)
    table = t.app.extensions["qwirkle_games"].get(game).table
    actions = Games._corrections(table, set(), {(6, 1): Tile("blue", "cross")})
    assert [kind for kind, _ in actions] == [Event.START]
    assert {"x": 6, "y": 1, "colour": "blue", "shape": "cross", "code": "BCr"} in \
        actions[0][1]["tiles"]


def test_the_table_is_right_takes_out_a_start_tile_the_camera_does_not_see(t):
    """A start tile the camera no longer sees (a bonus square once read as a tile) leaves the
    start, which is a start still, short of it; where the rest would be no start, or a turn
    needs the tile, the start keeps it."""
    game = started(t)
    table = t.app.extensions["qwirkle_games"].get(game).table
    far = START[10][:2]  # in the second diagonal, in line with no turn
    actions = Games._corrections(table, {far}, {})
    assert [kind for kind, _ in actions] == [Event.START]
    assert len(actions[0][1]["tiles"]) == 23 and far not in {
        (p["x"], p["y"]) for p in actions[0][1]["tiles"]}
    assert Games._corrections(table, {cell for cell in START_CELLS[6:12]}, {}) == []
    with pytest.raises(Conflict):  # move 1's blue row runs from the blue diamond at (6, 1)
        Games._corrections(table, {(6, 1)}, {})


def test_a_logged_start_that_is_no_start_is_skipped_and_the_game_kept(tmp_path):
    """A log written by hand, or by a version with other rules: the event that no longer
    replays is left out, every other one kept."""
    db = tmp_path / "games.sqlite3"
    t = Table(make_app(db))
    game = t.new_game()
    t.place(game, placed_json(BOARD_MOVE_1))  # standard Qwirkle: a first move anywhere
    t.app.extensions["qwirkle_games"].log.append(game, "start", {"tiles": placed_json(START[:6])})
    again = Table(make_app(db)).client.get(f"/api/games/{game}/state")
    assert again.status_code == 200
    assert again.json["start"] == [] and [turn["score"] for turn in again.json["turns"]] == [3]


def test_a_start_short_of_a_tile_takes_it_later_in_no_ones_turn(t):
    """A start the camera read without one tile is the start (its bonus squares whole); the
    tile, read later, is the start's: confirmed, it joins it in no one's turn."""
    game = t.new_game()
    missed = START[8]
    after = t.place(game, placed_json([p for p in START if p != missed]))
    assert len(after["start"]) == 23 and len(after["bonus_squares"]) == 48
    assert t.place(game, placed_json(BOARD_MOVE_1))["players"][0]["score"] == 6
    assert t.post(f"/api/games/{game}/pending", {"tiles": placed_json([missed])}).status_code \
        == 200
    offered = t.client.get(f"/api/games/{game}/state").json["pending"]
    assert offered["start"] and offered["start_lacking"] and offered["legal"]
    response = t.post(f"/api/games/{game}/pending/confirm")
    assert response.status_code == 200, response.json
    state = response.json
    assert len(state["start"]) == 24 and len(state["turns"]) == 1
    assert [p["score"] for p in state["players"]] == [6, 0] and state["current_player"] == 1


def test_the_board_pictures_show_the_printed_bonus_squares_around_the_tiles(t):
    """The TV's board and the move card draw the bonus squares, "1" or "2", as the printed
    board shows them: players see which cells a move's bonus came from (session 39's
    play-through: the card said "printed bonus squares: 1 point" over a board without
    them). A game without the printed board draws none."""
    import re

    game = started(t)
    state = t.client.get(f"/api/games/{game}/state").json
    xs, ys = ([c[i] for c in state["board"] + [placed_json(BOARD_MOVE_1)[0]]] for i in "xy")
    shown = {(x, y): n for x, y, n in state["bonus_squares"]
             if min(xs) - 1 <= x <= max(xs) + 1 and min(ys) - 1 <= y <= max(ys) + 1}
    assert len(shown) >= 10
    table = t.client.get(f"/games/{game}/table").data.decode()
    drawn = dict(((int(x), int(y)), int(n)) for x, y, n in re.findall(
        r'data-bonus="(-?\d+),(-?\d+)"[^>]*><rect[^>]*/><text[^>]*>(\d)</text>', table))
    assert drawn == shown
    assert t.post(f"/api/games/{game}/pending", {"tiles": placed_json(
        [(6, 2, Tile("green", "square"))])}).status_code == 200
    card = t.client.get(f"/games/{game}/part/pending?view=tablet").data.decode()
    assert 'data-bonus="' in card
    # a new tile on a bonus square covers it: the square's number shows at its corner
    game = t.new_game()
    t.place(game, placed_json(START))
    assert t.post(f"/api/games/{game}/pending", {"tiles": placed_json(BOARD_MOVE_1)}
                  ).status_code == 200
    for page in (f"/games/{game}/part/pending?view=tablet", f"/games/{game}/table"):
        html = t.client.get(page).data.decode()
        assert re.search(r'data-bonus-under="9,1"><rect[^>]*/><text[^>]*>2</text>', html), page
        assert html.count("data-bonus-under=") == 1, page
    classic = t.new_game()
    t.place(classic, placed_json(BOARD_MOVE_1))
    assert 'data-bonus="' not in t.client.get(f"/games/{classic}/table").data.decode()
