"""A careless or hostile guest at a game night: taps on the tablet in an odd order, and
requests from the LAN that no page sends. Nothing they do may lose or split a turn."""

from __future__ import annotations

from webui_support import ROW

from engine.tiles import Tile


def test_a_move_taken_back_a_tile_at_a_time_comes_back_as_one_move(table):
    """A two-tile move called "not a move", then taken back tile by tile (one tapped and
    taken back, then the other): it comes back as the one move it was, one turn of the
    player to play, scored as one. It came back as two moves, each legal, and confirming
    both gave the second tile to the next player as a turn of its own."""
    game = table.new_game()
    games = table.app.extensions["qwirkle_games"]
    table.place(game, ROW)  # Ann: a red line at y = 0
    column = [(1, 1, Tile("blue", "circle")), (1, 2, Tile("green", "circle"))]
    games.detected(column, False, (), [])
    assert table.post(f"/api/games/{game}/pending/dismiss").status_code == 200
    one = table.post(f"/api/games/{game}/ignored/restore", {"cells": [[1, 2]]}).json
    assert [(t["x"], t["y"]) for t in one["pending"]["tiles"]] == [(1, 2)]
    state = table.post(f"/api/games/{game}/ignored/restore", {}).json
    back = state["pending"]
    assert {(t["x"], t["y"]) for t in back["tiles"]} == {(1, 1), (1, 2)}
    assert back["legal"] and back["score"] == 3 and back["split"] is None
    assert back["doubt_codes"] == ["taken_back"]
    assert state["more_pending"] == 0 and not state["ignored"]
    done = table.post(f"/api/games/{game}/pending/confirm").json
    assert [(t["player"], t["score"]) for t in done["turns"]] == [(0, 3), (1, 3)]
    assert done["pending"] is None


def test_tiles_taken_back_that_are_no_move_with_those_waiting_stay_apart(table):
    """Tiles taken back that make no legal move with the taken-back tiles still waiting
    (another turn's tiles, elsewhere) are offered apart, first, as before."""
    game = table.new_game()
    games = table.app.extensions["qwirkle_games"]
    table.place(game, ROW)
    below = [(0, 1, Tile("red", "square"))]
    far_end = [(3, 0, Tile("red", "diamond"))]
    for move in (below, far_end):
        games.detected(move, False, (), [])
        table.post(f"/api/games/{game}/pending/dismiss")
    table.post(f"/api/games/{game}/ignored/restore", {"cells": [[0, 1]]})
    state = table.post(f"/api/games/{game}/ignored/restore", {}).json
    assert [(t["x"], t["y"]) for t in state["pending"]["tiles"]] == [(3, 0)]
    assert state["more_pending"] == 1
