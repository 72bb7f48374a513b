"""The event log: a restarted server rebuilds every game exactly, and the log only grows."""

from __future__ import annotations

import json
import sqlite3

from webui_support import ROW, Table, make_app

from engine.tiles import Tile


def game_without_version(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in ("version", "camera")}


def test_restart_replays_every_action(tmp_path):
    db = tmp_path / "games.sqlite3"
    table = Table(make_app(db))
    first = table.new_game(["Ann", "Bob"])
    table.place(first, ROW)
    table.post(f"/api/games/{first}/turns", {"kind": "exchange", "count": 2})
    four = [{"x": -1, "y": 0, "colour": "red", "shape": "diamond"}] + ROW
    table.put(f"/api/games/{first}/turns/0", {"kind": "place", "tiles": four})
    table.post(f"/api/games/{first}/turns", {"kind": "exchange", "count": 1})
    table.post(f"/api/games/{first}/undo")
    table.post(f"/api/games/{first}/finish", {"went_out": None})
    second = table.new_game(["Cy", "Di", "Ed"])
    table.place(second, ROW)
    before = {g: table.client.get(f"/api/games/{g}/state").json for g in (first, second)}
    assert before[first]["ended"] and before[first]["players"][0]["score"] == 4

    again = make_app(db).test_client()
    for game_id, state in before.items():
        after = again.get(f"/api/games/{game_id}/state").json
        assert game_without_version(after) == game_without_version(state)
    assert [g["id"] for g in again.get("/api/games").json] == [second, first]
    # The table token survives the restart, so tablets stay joined.
    assert again.get(f"/join?t={table.app.extensions['qwirkle_keys'].token}").status_code == 200


def test_the_log_is_append_only_and_durable(tmp_path):
    db = tmp_path / "games.sqlite3"
    table = Table(make_app(db))
    game = table.new_game()
    table.place(game, ROW)
    table.post(f"/api/games/{game}/undo")
    with sqlite3.connect(db) as raw:
        kinds = [k for (k,) in raw.execute("SELECT kind FROM events ORDER BY seq")]
        mode = raw.execute("PRAGMA journal_mode").fetchone()[0]
    assert kinds == ["play", "void"]  # the undo is an event; the placement is still there
    assert mode == "wal"
    log = table.app.extensions["qwirkle_games"].log
    assert log._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_an_event_that_no_longer_replays_is_skipped_not_fatal(tmp_path):
    db = tmp_path / "games.sqlite3"
    table = Table(make_app(db))
    game = table.new_game()
    table.place(game, ROW)
    with sqlite3.connect(db) as raw:
        raw.execute("INSERT INTO events VALUES (?, 2, '2026-01-01T00:00:00+00:00', 'play', ?)",
                    (game, '{"turn": {"kind": "teleport"}}'))
    state = make_app(db).test_client().get("/api/state").json
    assert state["players"][0]["score"] == 3 and len(state["turns"]) == 1


def test_a_resumed_game_is_still_at_the_table_after_a_restart(tmp_path):
    """An older game resumed (or played on) stays the game at the table when the server
    restarts, not the newer one started before it, which may hold no turn at all."""
    db = tmp_path / "games.sqlite3"
    table = Table(make_app(db))
    old = table.new_game(["Ann", "Bob"])
    table.place(old, ROW)
    table.new_game(["Cy", "Di"])
    table.post(f"/api/games/{old}/resume")
    assert make_app(db).test_client().get("/api/state").json["id"] == old
    finished = table.new_game(["Ed", "Flo"])
    table.place(finished, ROW)
    table.post(f"/api/games/{finished}/finish", {"went_out": None})
    table.post(f"/api/games/{old}/resume")
    table.post(f"/api/games/{finished}/play-on")
    assert make_app(db).test_client().get("/api/state").json["id"] == finished
    # A game kept there that no longer reads back: the newest that does is at the table.
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE settings SET value = '99' WHERE key = 'game_at_table'")
    assert make_app(db).test_client().get("/api/state").json["id"] == finished


def test_a_move_taken_back_after_a_restart_offers_the_cameras_likely_readings(tmp_path):
    """"Not a move" on a move the camera read, the server restarted, the move taken back:
    the fix dialog's "Likely" row offers the camera's runner-up readings as it did before
    the move was set aside (they were lost with it). So does a tile removed from a move by
    a fix and taken back into it."""
    db = tmp_path / "games.sqlite3"
    table = Table(make_app(db))
    game = table.new_game()
    move = [(t["x"], t["y"], Tile(t["colour"], t["shape"])) for t in ROW]
    runners_up = [(Tile("orange", "star"),), (),
                  (Tile("orange", "clover"), Tile("red", "cross"))]
    table.app.extensions["qwirkle_games"].detected(move, True, (), runners_up)
    shown = table.client.get(f"/api/games/{game}/state").json["pending"]["tiles"]
    assert [len(tile["alternatives"]) for tile in shown] == [1, 0, 2]
    table.post(f"/api/games/{game}/pending/dismiss")

    again = Table(make_app(db))
    back = again.post(f"/api/games/{game}/ignored/restore").json["pending"]
    assert back["tiles"] == shown
    fixed = again.post(f"/api/games/{game}/pending", {"tiles": ROW[:2]}).json
    assert [tile["code"] for tile in fixed["ignored"]] == ["RCl"]
    rejoined = again.post(f"/api/games/{game}/ignored/restore").json["pending"]
    assert rejoined["tiles"] == shown


def test_tiles_set_aside_without_their_readings_still_read_back(tmp_path):
    """Tiles set aside by an older version were stored without the camera's runner-up
    readings: they read back, and taken back they offer none."""
    db = tmp_path / "games.sqlite3"
    game = Table(make_app(db)).new_game()
    with sqlite3.connect(db) as raw:
        raw.execute("INSERT INTO events VALUES (?, 1, '2026-01-01T00:00:00+00:00', 'ignore', ?)",
                    (game, json.dumps({"tiles": ROW})))
    table = Table(make_app(db))
    assert [t["code"] for t in table.client.get("/api/state").json["ignored"]] == [
        "RSt", "RCi", "RCl"]
    back = table.post(f"/api/games/{game}/ignored/restore").json["pending"]
    assert [t["code"] for t in back["tiles"]] == ["RSt", "RCi", "RCl"]
    assert all(tile["alternatives"] == [] for tile in back["tiles"])
