"""The JSON API through Flask's test client: every action and every error code."""

from __future__ import annotations

import pytest
from webui_support import ROW

from engine.tiles import Tile


@pytest.fixture
def game(table):
    return table.new_game()


def test_new_game_state(table):
    game_id = table.new_game(["Ann", "Bob", "Cy"])
    state = table.client.get("/api/state").json
    assert state["id"] == game_id
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cy"]
    assert state["current_player"] == 0
    assert state["bag_size"] == 108 - 3 * 6
    assert sum(u["count"] for u in state["unseen"]) == 108
    assert state["turns"] == [] and state["pending"] is None


def test_confirm_a_fixed_move_scores_it(table, game):
    # The camera misread the third tile as a blue clover: the line is illegal until fixed.
    misread = ROW[:2] + [dict(ROW[2], colour="blue")]
    pending = table.post(f"/api/games/{game}/pending", {"tiles": misread}).json["pending"]
    assert pending["legal"] is False and pending["reason"]
    assert table.post(f"/api/games/{game}/pending/confirm").status_code == 409
    pending = table.post(f"/api/games/{game}/pending", {"tiles": ROW}).json["pending"]
    assert pending["legal"] and pending["score"] == 3
    assert [line["points"] for line in pending["lines"]] == [3]
    state = table.post(f"/api/games/{game}/pending/confirm").json
    assert state["players"][0]["score"] == 3
    assert state["pending"] is None
    assert state["current_player"] == 1
    assert state["turns"][0]["tiles"][2]["colour"] == "red"


def test_remove_a_phantom_tile(table, game):
    phantom = ROW + [{"x": 5, "y": 5, "colour": "red", "shape": "square"}]
    assert not table.post(f"/api/games/{game}/pending", {"tiles": phantom}).json["pending"]["legal"]
    state = table.place(game, ROW)
    assert len(state["board"]) == 3



def test_a_tile_typed_far_from_the_board_is_refused_and_the_move_kept(table, game):
    table.place(game, ROW)
    below = {"x": 0, "y": 1, "colour": "blue", "shape": "star"}
    pending = table.post(f"/api/games/{game}/pending", {"tiles": [below]}).json["pending"]
    stray = {"x": 1000, "y": 1000, "colour": "red", "shape": "star"}
    refused = table.post(f"/api/games/{game}/pending", {"tiles": [below, stray]})
    assert refused.status_code == 400
    assert "(1000, 1000) is too far from the other tiles" in refused.json["error"]
    assert table.client.get("/api/state").json["pending"]["key"] == pending["key"]
    # a gap of a missed tile or two is within reach: such a fix is judged by the rules
    gap = {"x": 0, "y": 4, "colour": "red", "shape": "star"}
    assert table.post(f"/api/games/{game}/pending", {"tiles": [below, gap]}).status_code == 200


def test_a_tile_typed_on_a_square_the_board_holds_is_refused_and_the_move_kept(table, game):
    """Kept, the tile would leave the move (the board holds its square) and the camera's
    other tiles be set aside, as by "Not a move"."""
    table.place(game, ROW)
    below = {"x": 0, "y": 1, "colour": "blue", "shape": "star"}
    pending = table.post(f"/api/games/{game}/pending", {"tiles": [below]}).json["pending"]
    on_row = dict(ROW[1], shape="square")
    refused = table.post(f"/api/games/{game}/pending", {"tiles": [below, on_row]})
    assert refused.status_code == 409 and refused.json["reason_code"] == "cell_occupied"
    assert "already holds a red circle" in refused.json["error"]
    state = table.client.get("/api/state").json
    assert state["pending"]["key"] == pending["key"] and state["ignored"] == []

def test_not_a_move(table, game):
    table.post(f"/api/games/{game}/pending", {"tiles": ROW})
    state = table.post(f"/api/games/{game}/pending/dismiss").json
    assert state["pending"] is None and state["turns"] == []
    assert table.post(f"/api/games/{game}/pending/dismiss").status_code == 409


def test_exchange_pass_undo(table, game):
    state = table.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 3}).json
    assert state["turns"][0]["kind"] == "exchange" and state["current_player"] == 1
    # Passing is only for an empty bag.
    response = table.post(f"/api/games/{game}/turns", {"kind": "pass"})
    assert response.status_code == 409 and "bag" in response.json["error"]
    state = table.post(f"/api/games/{game}/undo").json
    assert state["turns"] == [] and state["current_player"] == 0
    assert table.post(f"/api/games/{game}/undo").status_code == 409


def test_edit_and_void_past_turns_rescore_later_ones(table, game):
    table.place(game, ROW)
    state = table.place(game, [{"x": 3, "y": 0, "colour": "red", "shape": "square"}])
    assert [p["score"] for p in state["players"]] == [3, 4]
    # Ann really laid four tiles: her line is 4, and Bob's tile now makes a line of 5.
    four = [{"x": -1, "y": 0, "colour": "red", "shape": "diamond"}] + ROW
    state = table.put(f"/api/games/{game}/turns/0", {"kind": "place", "tiles": four}).json
    assert [p["score"] for p in state["players"]] == [4, 5]
    # A correction that would make a later turn illegal is refused and changes nothing.
    response = table.put(f"/api/games/{game}/turns/0", {"kind": "place", "tiles": ROW[:2]})
    assert response.status_code == 409 and "turn 2" in response.json["error"]
    assert table.client.get("/api/state").json["players"][1]["score"] == 5
    # Voiding turn 0: Bob's tile becomes the opening move, played from Ann's seat.
    state = table.delete(f"/api/games/{game}/turns/0").json
    assert len(state["turns"]) == 1 and state["turns"][0]["player"] == 0
    assert [p["score"] for p in state["players"]] == [1, 0]


def test_finish_went_out_and_no_more_turns(table, game):
    state = table.post(f"/api/games/{game}/finish", {"went_out": None}).json
    assert state["ended"] is True and state["current_player"] is None
    response = table.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 1})
    assert response.status_code == 409
    # Going out needs an empty bag.
    assert table.post(f"/api/games/{game}/finish", {"went_out": 0}).status_code == 409


def test_an_ended_game_takes_no_change_but_play_on(table):
    """Two tablets ending a game at once, each naming another player who went out: the second
    tap (or a replayed request) used to replace the ending and silently change who won. An
    ended game's sheet changes only after Play on, as the tablets offer it."""
    from engine.selfplay import simulate
    from engine.table import Exchange, Place, TableGame
    from webui.codec import turn_json

    record = next(r for r in (simulate(2, seed) for seed in range(50)) if r.end == "went_out")
    games = table.app.extensions["qwirkle_games"]
    game = games.create(("Ann", "Bob"), games.default_colours).row.id
    after = TableGame.new(("Ann", "Bob"))
    for move in record.moves:
        turn = Place(move.tiles) if move.kind == "place" else Exchange(min(6, after.bag_size))
        after = after.play(turn)
        games.play(game, turn_json(turn))
        if after.bag_size == 0:
            break
    last = after.turns[-1].player  # who laid the tiles that emptied the bag, and their hand
    ended = table.post(f"/api/games/{game}/finish", {"went_out": last}).json
    totals = [p["total"] for p in ended["players"]]
    for method, path, payload in [
            ("post", "finish", {"went_out": last}), ("post", "finish", {"went_out": None}),
            ("post", "undo", {}), ("delete", "turns/0", None),
            ("put", "turns/0", {"kind": "exchange", "count": 1}),
            ("post", "turns", {"kind": "pass"})]:
        refused = getattr(table, method)(f"/api/games/{game}/{path}", payload)
        assert refused.status_code == 409, (path, refused.json)
        assert refused.json["reason_code"] in ("game_over", "game_ended"), refused.json
    now = table.client.get(f"/api/games/{game}/state").json
    assert [p["total"] for p in now["players"]] == totals and now["ended"]
    assert table.post(f"/api/games/{game}/play-on").status_code == 200
    # the other seat laid no tiles last: refused, with the reason, and the game plays on
    other = table.post(f"/api/games/{game}/finish", {"went_out": 1 - last})
    assert other.status_code == 409 and other.json["reason_code"] == "go_out_not_last"
    assert not table.client.get(f"/api/games/{game}/state").json["ended"]
    again = table.post(f"/api/games/{game}/finish", {"went_out": None}).json
    assert again["ended"] and [p["total"] for p in again["players"]] != totals


def test_not_a_move_on_an_ended_game_is_refused_like_confirm(table, game):
    """A tablet still showing the move card as another one ends the game (its page not yet
    redrawn) sent "Not a move" and was answered 200: the camera's tiles were set aside in the
    finished game, and after Play on the move was missing from the card, listed as "not part
    of the game". An ended game takes no change but Play on: refused as Confirm is."""
    games = table.app.extensions["qwirkle_games"]
    games.detected([(t["x"], t["y"], Tile(t["colour"], t["shape"])) for t in ROW], False, (), [])
    key = table.client.get("/api/state").json["pending"]["key"]
    table.post(f"/api/games/{game}/finish", {"went_out": None})
    for path in ("pending/dismiss", "pending/swap"):
        refused = table.post(f"/api/games/{game}/{path}", {"shown": key})
        assert refused.status_code == 409, (path, refused.json)
        assert refused.json["reason_code"] == "game_over", refused.json
    played_on = table.post(f"/api/games/{game}/play-on").json
    assert played_on["ignored"] == [] and played_on["pending"]["key"] == key


def test_games_list_and_exports(table, game):
    table.place(game, ROW)
    games = table.client.get("/api/games").json
    assert games[0]["id"] == game and games[0]["totals"] == [3, 0]
    csv_text = table.client.get(f"/api/games/{game}/export.csv").data.decode("utf-8-sig")
    assert csv_text.splitlines()[:2] == ["round,Ann,Bob", "1,3,"]
    exported = table.client.get(f"/api/games/{game}/export.json").json
    assert exported["turns"][0]["tiles"] == table.client.get("/api/state").json["turns"][0]["tiles"]
    assert "pending" not in exported


# --- access -------------------------------------------------------------------------------

def test_reading_needs_no_token(app, table, game):
    stranger = app.test_client()
    assert stranger.get("/api/state").status_code == 200
    assert stranger.get(f"/games/{game}/tablet").status_code == 200


@pytest.mark.parametrize("how", ["no cookie", "no csrf", "wrong csrf", "other origin",
                                 "wrong bearer"])
def test_changes_without_the_token_are_403(app, table, game, how):
    client, headers = table.client, dict(table.headers)
    if how == "no cookie":
        client = app.test_client()
    elif how == "no csrf":
        headers = {}
    elif how == "wrong csrf":
        headers = {"X-CSRF-Token": "0" * 32}
    elif how == "other origin":
        headers["Origin"] = "http://evil.example"
    else:
        client, headers = app.test_client(), {"Authorization": "Bearer nope"}
    response = client.post(f"/api/games/{game}/turns", json={"kind": "exchange", "count": 2},
                           headers=headers)
    assert response.status_code == 403 and response.json["error"]
    assert table.client.get("/api/state").json["turns"] == []


def test_bearer_token_for_programs(app, game):
    token = app.extensions["qwirkle_keys"].token
    response = app.test_client().post(f"/api/games/{game}/turns",
                                      json={"kind": "exchange", "count": 2},
                                      headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200 and len(response.json["turns"]) == 1


def test_pin_join_sets_a_strict_httponly_cookie(app):
    client = app.test_client()
    pin = app.extensions["qwirkle_keys"].pin
    response = client.post("/api/join", json={"pin": pin})
    assert response.status_code == 200 and response.json["csrf"]
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    game = client.post("/api/games", json={"players": ["A", "B"]},
                       headers={"X-CSRF-Token": response.json["csrf"]})
    assert game.status_code == 201


def test_wrong_pins_are_403_then_locked(app):
    client = app.test_client()
    pin = app.extensions["qwirkle_keys"].pin
    wrong = f"{(int(pin) + 1) % 10**6:06d}"
    answers = [client.post("/api/join", json={"pin": wrong}) for _ in range(5)]
    assert [a.status_code for a in answers] == [403] * 5
    assert answers[3].json["error"] == "Wrong PIN."
    # the wrong PIN that locks the device says so at once, not on the next try
    assert "try again in 30 seconds" in answers[4].json["error"]
    # Locked out: even the right PIN waits, and the answer says how long.
    locked = client.post("/api/join", json={"pin": pin})
    assert locked.status_code == 429
    wait = int(locked.headers["Retry-After"])
    assert 1 <= wait <= 30
    # and says so in words, not "wait a while"
    assert f"try again in {wait} second" in locked.json["error"]



def test_a_long_lockout_is_told_in_minutes(app):
    from webui.api import _wait_words

    with app.test_request_context():
        assert _wait_words(1) == "1 second"
        assert _wait_words(119) == "119 seconds"
        assert _wait_words(121) == "3 minutes"  # rounded up: never sooner than said
        assert _wait_words(15 * 60) == "15 minutes"

def test_join_link_with_a_wrong_token_is_403(app):
    assert app.test_client().get("/join?t=wrong").status_code == 403


# --- malformed payloads and unknown games ---------------------------------------------------

BAD_TURNS = [
    "not json",
    [1, 2],
    {"kind": "fly"},
    {"kind": "exchange", "count": "3"},
    {"kind": "exchange", "count": 9},
    {"kind": "exchange", "count": True},
    {"kind": "place"},
    {"kind": "place", "tiles": []},
    {"kind": "place", "tiles": [{"x": 0, "y": 0, "colour": "pink", "shape": "star"}]},
    {"kind": "place", "tiles": [{"x": "0", "y": 0, "colour": "red", "shape": "star"}]},
    {"kind": "place", "tiles": [{"x": 0, "y": 0, "colour": "red", "shape": "star"},
                                {"x": 0, "y": 0, "colour": "red", "shape": "circle"}]},
    {"kind": "place", "tiles": ["red star"]},
    {"kind": "place", "tiles": [{"x": 10**9, "y": 0, "colour": "red", "shape": "star"}]},
]


@pytest.mark.parametrize("payload", BAD_TURNS)
def test_malformed_turns_are_400_with_a_message(table, game, payload):
    if payload == "not json":
        response = table.client.post(f"/api/games/{game}/turns", data="{oops",
                                     headers=dict(table.headers, **{"Content-Type":
                                                                    "application/json"}))
    else:
        response = table.post(f"/api/games/{game}/turns", payload)
    assert response.status_code == 400
    assert response.json["error"]
    assert table.client.get("/api/state").json["turns"] == []


@pytest.mark.parametrize(("path", "payload"), [
    ("/api/games", {"players": ["Solo"]}),
    ("/api/games", {"players": "Ann, Bob"}),
    ("/api/games", {"players": ["A", "B"], "colours": ["red"]}),
    ("/api/games", {"players": ["A", "B" * 41]}),
    ("/api/games/{g}/finish", {}),
    ("/api/games/{g}/finish", {"went_out": 7}),
    ("/api/games/{g}/pending", {"tiles": "RSt"}),
    ("/api/join", {"pin": 123456}),
])
def test_other_malformed_payloads_are_400(table, game, path, payload):
    response = table.post(path.format(g=game), payload)
    assert response.status_code == 400 and response.json["error"]


def test_an_oversized_body_is_refused_with_a_message(table, game):
    response = table.post(f"/api/games/{game}/pending", {"tiles": ROW, "pad": "x" * 70_000})
    assert response.status_code == 413 and response.json["error"]


def test_bad_turn_index_is_400(table, game):
    assert table.delete(f"/api/games/{game}/turns/0").status_code == 400
    assert table.put(f"/api/games/{game}/turns/3", {"kind": "pass"}).status_code == 400


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/api/games/99/state"),
    ("get", "/api/games/99/export.csv"),
    ("get", "/api/games/99/events"),
    ("post", "/api/games/99/pending/confirm"),
    ("post", "/api/games/99/undo"),
    ("delete", "/api/games/99/turns/0"),
    ("get", "/api/no-such-thing"),
])
def test_unknown_game_is_404_json(table, game, method, path):
    response = getattr(table.client, method)(path, headers=table.headers)
    assert response.status_code == 404 and response.json["error"]


def test_no_game_yet_is_404(table):
    assert table.client.get("/api/state").status_code == 404
    assert table.client.get("/table").headers["Location"].endswith("/setup")


def test_the_camera_actions_refuse_bad_calls_and_lose_nothing(table):
    game = table.new_game()
    table.place(game, ROW)
    before = table.client.get(f"/api/games/{game}/state").json
    for body in ({"cells": "all"}, {"cells": [[1]]}, {"cells": [[1, True]]}, [1, 2]):
        for path in ("ignored/restore", "table/accept", "table/keep"):
            answer = table.post(f"/api/games/{game}/{path}", body)
            assert answer.status_code == 400, (path, body, answer.json)
    for shown in (5, ["a"], {"key": "a"}, True):
        for path in ("table/accept", "table/keep"):
            answer = table.post(f"/api/games/{game}/{path}", {"shown": shown})
            assert answer.status_code == 400 and "shown" in answer.json["error"], shown
    nothing = table.post(f"/api/games/{game}/ignored/restore", {})
    assert nothing.status_code == 409 and nothing.json["reason_code"] == "nothing_set_aside"
    for path in ("table/accept", "table/keep"):
        no_camera = table.post(f"/api/games/{game}/{path}")
        assert no_camera.status_code == 409 and no_camera.json["reason_code"] == "camera_not_ready"
    after = table.client.get(f"/api/games/{game}/state").json
    assert after["turns"] == before["turns"] and after["players"] == before["players"]


def test_a_tap_meant_for_one_move_never_acts_on_the_move_behind_it(table, game):
    """A double tap on Confirm, or two tablets tapping at once, while the camera has a second
    move queued: each tap names the move it was drawn for (``pending.key``), so the second
    is refused and the move behind is never confirmed, set aside or fixed unseen."""
    games = table.app.extensions["qwirkle_games"]
    first = [(t["x"], t["y"], Tile(t["colour"], t["shape"])) for t in ROW]
    games.detected(first, False, (), [])
    games.detected([(0, 1, Tile("blue", "star"))], False, (), [])
    key = table.client.get("/api/state").json["pending"]["key"]
    assert key == "0,0,RSt;1,0,RCi;2,0,RCl"
    confirmed = table.post(f"/api/games/{game}/pending/confirm", {"shown": key})
    assert confirmed.status_code == 200 and len(confirmed.json["turns"]) == 1
    for path, extra in (("pending/confirm", {}), ("pending/dismiss", {}), ("pending/swap", {}),
                        ("pending", {"tiles": ROW})):
        again = table.post(f"/api/games/{game}/{path}", {"shown": key, **extra})
        assert again.status_code == 409, path
        assert again.json["reason_code"] == "pending_changed" and again.json["error"]
    now = table.client.get("/api/state").json
    assert len(now["turns"]) == 1 and now["pending"]["key"] == "0,1,BSt"
    assert now["ignored"] == []
    bad = table.post(f"/api/games/{game}/pending/confirm", {"shown": 7})
    assert bad.status_code == 400 and bad.json["error"]
    # Without "shown" (a program's call), the move shown is the one acted on.
    assert len(table.post(f"/api/games/{game}/pending/confirm").json["turns"]) == 2


def exchanges(table, game, n):
    for _ in range(n):
        table.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 3})
    return table.client.get(f"/api/games/{game}/state").json["turns"]


def test_two_tablets_undoing_at_once_take_back_one_turn_and_redo_still_works(table, game):
    """Both tablets asked "Undo turn 4?" and both said Yes: each names the turn it asked
    about, so turn 4 is taken back once, turn 3 stays, and the first tablet's Redo works."""
    turns = exchanges(table, game, 4)
    first = table.post(f"/api/games/{game}/undo", {"index": 3})
    assert len(first.json["turns"]) == 3
    second = table.post(f"/api/games/{game}/undo", {"index": 3})
    assert second.status_code == 409 and second.json["reason_code"] == "turns_changed"
    assert "look at them again" in second.json["error"]
    assert len(table.client.get(f"/api/games/{game}/state").json["turns"]) == 3
    redo = table.post(f"/api/games/{game}/redo", {"index": 3, "turn": turns[3], "turns": 3})
    assert redo.status_code == 200 and len(redo.json["turns"]) == 4


def test_two_tablets_entering_one_exchange_record_it_once(table, game):
    """Both tablets showed two turns when their players entered the same exchange: the
    second is refused, not recorded as the next player's exchange; a program's turn without
    "turns" is taken as before."""
    exchanges(table, game, 2)
    exchange = {"kind": "exchange", "count": 3, "turns": 2}
    assert table.post(f"/api/games/{game}/turns", exchange).status_code == 200
    refused = table.post(f"/api/games/{game}/turns", exchange)
    assert refused.status_code == 409 and refused.json["reason_code"] == "turns_changed"
    assert len(table.client.get(f"/api/games/{game}/state").json["turns"]) == 3
    bad = table.post(f"/api/games/{game}/turns", {"kind": "pass", "turns": [3]})
    assert bad.status_code == 400 and "whole number" in bad.json["error"]
    assert len(exchanges(table, game, 1)) == 4


def test_undo_asked_before_another_tablet_confirmed_a_move_takes_back_nothing(table, game):
    exchanges(table, game, 2)
    table.place(game, ROW)  # confirmed on another tablet while the question was open
    refused = table.post(f"/api/games/{game}/undo", {"index": 1})
    assert refused.status_code == 409 and refused.json["reason_code"] == "turns_changed"
    assert len(table.client.get(f"/api/games/{game}/state").json["turns"]) == 3


def test_two_tablets_removing_one_turn_at_once_remove_it_once(table, game):
    """Both tablets asked "Remove turn 2?" with four turns shown, and both said Yes: the
    second is refused, and turn 3 (now the second) stays."""
    exchanges(table, game, 4)
    first = table.delete(f"/api/games/{game}/turns/1", {"turns": 4})
    assert len(first.json["turns"]) == 3
    second = table.delete(f"/api/games/{game}/turns/1", {"turns": 4})
    assert second.status_code == 409 and second.json["reason_code"] == "turns_changed"
    assert len(table.client.get(f"/api/games/{game}/state").json["turns"]) == 3


def test_remove_asked_before_another_tablet_confirmed_a_move_removes_nothing(table, game):
    exchanges(table, game, 2)
    table.place(game, ROW)
    refused = table.delete(f"/api/games/{game}/turns/0", {"turns": 2})
    assert refused.status_code == 409
    assert len(table.client.get(f"/api/games/{game}/state").json["turns"]) == 3


def test_an_edit_begun_before_another_tablet_removed_a_turn_changes_nothing(table, game):
    """Tablet A opened "Edit turn 3" (three exchanges shown); tablet B removed turn 2, so the
    third is now at index 1 and index 2 is gone. A's save names the three turns it saw and is
    refused, instead of rewriting whichever turn moved into place."""
    exchanges(table, game, 3)
    table.delete(f"/api/games/{game}/turns/1", {"turns": 3})
    stale = table.put(f"/api/games/{game}/turns/1", {"kind": "exchange", "count": 5, "turns": 3})
    assert stale.status_code == 409 and stale.json["reason_code"] == "turns_changed"
    turns = table.client.get(f"/api/games/{game}/state").json["turns"]
    assert [t["count"] for t in turns] == [3, 3]
    fresh = table.put(f"/api/games/{game}/turns/1", {"kind": "exchange", "count": 5, "turns": 2})
    assert fresh.status_code == 200 and fresh.json["turns"][1]["count"] == 5


FOUR = [{"x": -1, "y": 0, "colour": "red", "shape": "diamond"}] + ROW
"""Turn 0 as Ann really laid it: the red row with a diamond before it, worth 4."""


def test_an_edit_naming_its_turn_is_saved_though_turns_came_meanwhile(table, game):
    """At a busy table a turn is confirmed every minute: an edit that names the turn it
    began from ("was") is saved while that turn is unchanged, and every later turn, those
    confirmed meanwhile too, is scored again. Naming only the count of turns, it is refused
    as before."""
    began = table.place(game, ROW)["turns"][0]
    table.place(game, [{"x": 3, "y": 0, "colour": "red", "shape": "square"}])
    exchanges(table, game, 1)
    counted = table.put(f"/api/games/{game}/turns/0", {"kind": "place", "tiles": FOUR,
                                                      "turns": 1})
    assert counted.status_code == 409 and counted.json["reason_code"] == "turns_changed"
    # the tiles in another order than the state lists them: the same turn
    was = dict(began, tiles=began["tiles"][::-1])
    saved = table.put(f"/api/games/{game}/turns/0", {"kind": "place", "tiles": FOUR,
                                                    "was": was, "turns": 1})
    assert saved.status_code == 200
    assert [t["score"] for t in saved.json["turns"]] == [4, 5, 0]
    # an edit that would break a later turn is refused as ever
    broken = table.put(f"/api/games/{game}/turns/0", {"kind": "place", "tiles": ROW[:2],
                                                     "was": saved.json["turns"][0]})
    assert broken.status_code == 409 and broken.json["reason_code"] == "breaks_later_turn"


def test_of_two_tablets_editing_one_turn_the_later_save_is_refused(table, game):
    """Both tablets opened "Edit turn 1" before either saved (within the live stream's
    delay): the second save named the turn as it was before the first, and silently undid
    it. Now it is refused, and says why."""
    began = table.place(game, ROW)["turns"][0]
    table.place(game, [{"x": 3, "y": 0, "colour": "red", "shape": "square"}])
    first = table.put(f"/api/games/{game}/turns/0", {"kind": "place", "tiles": FOUR,
                                                    "was": began})
    assert first.status_code == 200
    fix = [dict(ROW[0], shape="square"), *ROW[1:]]
    second = table.put(f"/api/games/{game}/turns/0", {"kind": "place", "tiles": fix,
                                                     "was": began})
    assert second.status_code == 409 and second.json["reason_code"] == "turn_changed"
    assert second.json["error"].startswith("Turn 1 is no longer as it was when the edit began")
    state = table.client.get(f"/api/games/{game}/state").json
    assert len(state["turns"][0]["tiles"]) == 4 and state["players"][0]["score"] == 4


@pytest.mark.parametrize("index", [2, 3])
def test_an_edit_whose_turn_another_removal_moved_is_refused(table, game, index):
    """Tablet A opened "Edit turn 3" or "Edit turn 4"; tablet B removed turn 2, so the turn
    A began from is now at another number, and another turn (or none) at A's: the edit is
    refused rather than rewrite that one."""
    table.place(game, ROW)
    exchanges(table, game, 1)
    table.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 2})
    turns = table.place(game, [{"x": 3, "y": 0, "colour": "red", "shape": "square"}])["turns"]
    table.delete(f"/api/games/{game}/turns/1")
    edit = {"kind": "exchange", "count": 1} if index == 2 else {"kind": "pass"}
    moved = table.put(f"/api/games/{game}/turns/{index}", {**edit, "was": turns[index]})
    assert moved.status_code == 409 and moved.json["reason_code"] == "turn_changed"
    after = table.client.get(f"/api/games/{game}/state").json["turns"]
    assert [t["kind"] for t in after] == ["place", "exchange", "place"]


@pytest.mark.parametrize("was", ["place", 3, [], {"kind": "jump"}])
def test_an_edit_with_a_malformed_was_is_400_and_changes_nothing(table, game, was):
    table.place(game, ROW)
    answer = table.put(f"/api/games/{game}/turns/0", {"kind": "place", "tiles": FOUR,
                                                     "was": was})
    assert answer.status_code == 400 and answer.json["error"]
    assert table.client.get(f"/api/games/{game}/state").json["players"][0]["score"] == 3


@pytest.mark.parametrize("index", ["3", True, 1.5, [3]])
def test_undo_with_a_malformed_index_is_400_and_takes_back_nothing(table, game, index):
    exchanges(table, game, 1)
    response = table.post(f"/api/games/{game}/undo", {"index": index})
    assert response.status_code == 400 and response.json["error"]
    response = table.delete(f"/api/games/{game}/turns/0", {"turns": index})
    assert response.status_code == 400 and response.json["error"]
    response = table.put(f"/api/games/{game}/turns/0", {"kind": "pass", "turns": index})
    assert response.status_code == 400 and response.json["error"]
    assert len(table.client.get(f"/api/games/{game}/state").json["turns"]) == 1


def test_a_waiting_move_holds_at_most_a_set_of_tiles(table, game):
    """Moves made while the camera was away can wait as one move of more than 6 tiles (and
    the tablet's Fix sends it back whole), but never more than the set's 108."""
    grid = [{"x": i % 20, "y": i // 20, "colour": "red", "shape": "star"} for i in range(300)]
    response = table.post(f"/api/games/{game}/pending", {"tiles": grid})
    assert response.status_code == 400 and "108" in response.json["error"]
    assert table.client.get(f"/api/games/{game}/state").json["pending"] is None
    fixed = table.post(f"/api/games/{game}/pending", {"tiles": grid[:108]})
    assert fixed.status_code == 200 and len(fixed.json["pending"]["tiles"]) == 108


def test_a_fixed_tile_offers_the_cameras_reading_back(table, game):
    """The camera read a red clover (runner-up: orange clover); a player fixed it to blue by
    mistake. The fix dialog's likely readings are then what the camera read and its
    runner-up, not the blue clover the tile now holds: one tap undoes the wrong fix."""
    games = table.app.extensions["qwirkle_games"]
    move = tuple((t["x"], t["y"], Tile(t["colour"], t["shape"])) for t in ROW)
    games.detected(move, True, (), [(), (), (Tile("orange", "clover"),)])
    wrong = ROW[:2] + [dict(ROW[2], colour="blue")]
    state = table.post(f"/api/games/{game}/pending", {"tiles": wrong}).json
    assert state["pending"]["tiles"][2]["alternatives"] == [
        {"colour": "red", "shape": "clover"}, {"colour": "orange", "shape": "clover"}]
    state = table.post(f"/api/games/{game}/pending", {"tiles": ROW}).json
    assert state["pending"]["tiles"][2]["alternatives"] == [
        {"colour": "blue", "shape": "clover"}, {"colour": "orange", "shape": "clover"}]
    assert state["pending"]["tiles"][0]["alternatives"] == []


PURPLE_SET = ["red", "orange", "yellow", "green", "blue", "purple"]
WHITE_SET = PURPLE_SET[:5] + ["white"]


@pytest.mark.parametrize(("colours", "odd"), [(PURPLE_SET, "white"), (WHITE_SET, "purple")])
@pytest.mark.parametrize("how", ["fix", "enter", "edit", "redo"])
def test_a_tile_of_a_colour_the_set_lacks_is_refused_and_changes_nothing(table, colours, odd,
                                                                           how):
    """A white tile typed into a game whose set has purple (or the other way round) is no
    tile of the table: refused (400 not_in_set) with its colour and the set's own named, the
    game and the move waiting as they were. Let in, it waited as a move nobody could
    confirm."""
    response = table.post("/api/games", {"players": ["Ann", "Bob"], "colours": colours})
    game = response.json["id"]
    table.place(game, ROW)
    below = {"x": 0, "y": 1, "colour": "blue", "shape": "star"}
    table.post(f"/api/games/{game}/pending", {"tiles": [below]})
    before = table.client.get(f"/api/games/{game}/state").json
    tile = {"x": 0, "y": 1, "colour": odd, "shape": "star"}
    place = {"kind": "place", "tiles": [tile]}
    answer = {
        "fix": lambda: table.post(f"/api/games/{game}/pending", {"tiles": [below, dict(
            tile, x=1, y=1)]}),
        "enter": lambda: table.post(f"/api/games/{game}/turns", place),
        "edit": lambda: table.put(f"/api/games/{game}/turns/0",
                                  {"kind": "place", "tiles": [*ROW, dict(tile, x=3, y=0)]}),
        "redo": lambda: table.post(f"/api/games/{game}/redo", {"index": 1, "turn": place,
                                                               "turns": 1}),
    }[how]()
    assert answer.status_code == 400 and answer.json["reason_code"] == "not_in_set"
    assert answer.json["error"] == (f"This set has no {odd} tiles; its colours are "
                                    f"{', '.join(colours[:5])}, and {colours[5]}.")
    assert table.client.get(f"/api/games/{game}/state").json == before


def test_an_edit_is_checked_before_it_is_saved(table, game):
    """The edit dialog asks what a fixed turn would be after each fix: its score, or why the
    game would refuse it; nothing changes until Save, and a guest without the token may not
    ask."""
    table.place(game, ROW)
    table.place(game, [{"x": 3, "y": 0, "colour": "red", "shape": "square"}])
    check = f"/api/games/{game}/turns/0/check"
    four = [{"x": -1, "y": 0, "colour": "red", "shape": "diamond"}] + ROW
    answer = table.post(check, {"kind": "place", "tiles": four}).json
    assert answer == {"legal": True, "score": 4, "said": "Once saved: 4 tiles for 4 points."}
    mixed = [{**ROW[0], "colour": "blue", "shape": "circle"}, *ROW[1:]]
    answer = table.post(check, {"kind": "place", "tiles": mixed}).json
    assert answer["legal"] is False and answer["said"].startswith("Not a legal move:")
    # A fix that breaks a later turn says which.
    answer = table.post(check, {"kind": "place", "tiles": ROW[:2]}).json
    assert answer["legal"] is False and "turn 2" in answer["said"]
    assert [p["score"] for p in table.client.get("/api/state").json["players"]] == [3, 4]
    assert table.client.post(check, json={"kind": "place", "tiles": four}).status_code == 403
    assert table.post(f"/api/games/{game}/turns/9/check",
                      {"kind": "place", "tiles": four}).status_code == 400
    table.post(f"/api/games/{game}/finish", {"went_out": None})
    assert table.post(check, {"kind": "place", "tiles": four}).json["legal"] is False


def test_a_game_started_over_one_another_device_just_started_is_refused_first(table):
    """The set-up page names the game it saw at the table: when another device has started
    one since, the start is refused (409 table_changed) and nothing is made; naming the
    game now at the table takes it."""
    first = table.post("/api/games", {"players": ["Gil", "Hal"], "replaces": None})
    assert first.status_code == 201
    late = table.post("/api/games", {"players": ["Ivy", "Jo"], "replaces": None})
    assert late.status_code == 409 and late.json["reason_code"] == "table_changed"
    assert "A game was started at this table since" in late.json["error"]
    assert [row["id"] for row in table.client.get("/api/games").json] == [first.json["id"]]
    again = table.post("/api/games", {"players": ["Ivy", "Jo"], "replaces": first.json["id"]})
    assert again.status_code == 201
    for odd in ("1", True, 0, -1, -3, 1.5, [1]):
        answer = table.post("/api/games", {"players": ["Ivy", "Jo"], "replaces": odd})
        assert answer.status_code == 400 and "replaces" in answer.json["error"], odd
