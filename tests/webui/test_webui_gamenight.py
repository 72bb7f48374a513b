"""Game-night features on the server side: Redo, resuming a game, the Qwirkle watch switch,
the winner moment, the archive and player history; and what each refuses, with a message."""

from __future__ import annotations

import pytest
from webui_support import ROW, Table, make_app

from engine.board import Board
from engine.rules import check_move
from engine.table import Exchange, Place, TableGame
from engine.tiles import Tile
from vision.doubts import Doubt, DoubtKind

LINE_OF_FIVE = [{"x": x, "y": 0, "colour": "red", "shape": s}
                for x, s in enumerate(("circle", "square", "diamond", "clover", "cross"))]


def test_engine_insert_puts_a_voided_turn_back():
    game = TableGame.new(("Ann", "Bob"))
    game = game.play(Place(((0, 0, Tile("red", "star")), (1, 0, Tile("red", "circle")))))
    game = game.play(Exchange(2)).play(Place(((2, 0, Tile("red", "clover")),)))
    voided = game.void(1)
    assert voided.insert(1, Exchange(2)) == game
    with pytest.raises(IndexError):
        voided.insert(5, Exchange(2))


def test_redo_puts_back_a_removed_turn_where_it_was(table):
    game = table.new_game()
    table.place(game, ROW)
    table.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 3})
    table.place(game, [{"x": 3, "y": 0, "colour": "red", "shape": "square"}])
    before = table.client.get(f"/api/games/{game}/state").json
    removed = before["turns"][1]
    assert table.delete(f"/api/games/{game}/turns/1").status_code == 200
    response = table.post(f"/api/games/{game}/redo", {"index": 1, "turn": removed, "turns": 2})
    assert response.status_code == 200
    assert response.json["turns"] == before["turns"]
    assert response.json["players"] == before["players"]


def test_redo_after_another_tablet_changed_the_turns_puts_nothing_back(table):
    """An exchange undone on one tablet and entered again on another: the first tablet's
    Redo, which names the turns it left, is refused rather than record the exchange twice
    (the second time as the next player's)."""
    game = table.new_game(["Ann", "Bob", "Cy"])
    table.place(game, ROW)
    exchange = table.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 3})
    undone = table.post(f"/api/games/{game}/undo", {"index": 1}).json
    table.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 3})
    redo = {"index": 1, "turn": exchange.json["turns"][1], "turns": len(undone["turns"])}
    refused = table.post(f"/api/games/{game}/redo", redo)
    assert refused.status_code == 409 and refused.json["reason_code"] == "turns_changed"
    turns = table.client.get(f"/api/games/{game}/state").json["turns"]
    assert [t["kind"] for t in turns] == ["place", "exchange"]
    # As the undo left them, the same Redo puts the turn back.
    table.post(f"/api/games/{game}/undo", {"index": 1})
    assert len(table.post(f"/api/games/{game}/redo", redo).json["turns"]) == 2


@pytest.mark.parametrize("payload, status, words", [
    ({"index": 9, "turn": {"kind": "pass"}, "turns": 1}, 400, "from 0 to 1"),
    ({"index": True, "turn": {"kind": "pass"}, "turns": 1}, 400, "from 0 to 1"),
    ({"index": 0, "turn": {"kind": "dance"}, "turns": 1}, 400, "kind must be"),
    ({"index": 0, "turn": {"kind": "pass"}, "turns": 1}, 409, "pass"),  # the bag is full
    ({"index": 1, "turn": {"kind": "place", "tiles": ROW}, "turns": 1}, 409, ""),  # cells taken
    ({"index": 1, "turn": {"kind": "exchange", "count": 2}, "turns": "1"}, 400, "whole number"),
    # a redo that names no turns could be a retry of one already put back
    ({"index": 1, "turn": {"kind": "exchange", "count": 2}}, 400, "turns must say"),
])
def test_redo_refuses_what_cannot_be_put_back(table, payload, status, words):
    game = table.new_game()
    table.place(game, ROW)
    response = table.post(f"/api/games/{game}/redo", payload)
    assert response.status_code == status
    assert words in response.json["error"]
    assert len(table.client.get(f"/api/games/{game}/state").json["turns"]) == 1


def test_resume_brings_an_older_game_back_and_refuses_a_finished_one(table):
    old = table.new_game(["Ann", "Bob"])
    table.place(old, ROW)
    newer = table.new_game(["Cy", "Di"])
    assert table.client.get("/api/state").json["id"] == newer
    response = table.post(f"/api/games/{old}/resume")
    assert response.status_code == 200 and response.json["current_game"] == old
    assert table.client.get("/api/state").json["id"] == old
    table.post(f"/api/games/{old}/finish", {"went_out": None})
    response = table.post(f"/api/games/{old}/resume")
    assert response.status_code == 409 and response.json["error"]
    assert table.post("/api/games/99/resume").status_code == 404
    assert table.client.post(f"/api/games/{old}/resume").status_code == 403  # no CSRF header


def test_the_qwirkle_watch_switch(table):
    game = table.new_game()
    table.place(game, LINE_OF_FIVE)
    board = table.client.get(f"/games/{game}/part/board?view=table").data.decode()
    assert 'data-watch="red-star" data-unseen="3"' in board
    for bad in ({}, {"qwirkle_watch": "no"}, {"qwirkle_watch": 0}):
        response = table.post("/api/options", bad)
        assert response.status_code == 400 and "qwirkle_watch" in response.json["error"]
    assert table.client.post("/api/options", json={"qwirkle_watch": False}).status_code == 403
    assert table.post("/api/options", {"qwirkle_watch": False}).json == {"qwirkle_watch": False}
    assert table.client.get("/api/options").json == {"qwirkle_watch": False}
    board = table.client.get(f"/games/{game}/part/board?view=table").data.decode()
    assert "data-watch" not in board
    # The choice outlives the server.
    again = Table(make_app(table.app.config["DB_PATH"]))
    assert again.client.get("/api/options").json == {"qwirkle_watch": False}


def test_winner_moment_and_nothing_after_it(table):
    game = table.new_game(["Ann", "Bob"])
    table.place(game, ROW)
    table.post(f"/api/games/{game}/pending", {"tiles": [{"x": 3, "y": 0, "colour": "red",
                                                         "shape": "square"}]})
    table.post(f"/api/games/{game}/finish", {"went_out": None})
    for view in ("table", "tablet", "sheet"):
        html = table.client.get(f"/games/{game}/{view}").data.decode()
        assert "data-winner" in html and "<bdi class=\"name\">Ann</bdi> wins!" in html
        assert "Best turn: <bdi class=\"name\">Ann</bdi>, 3 points (turn 1)." in html
        assert 'data-action="confirm"' not in html and 'data-action="undo"' not in html
        assert "Camera:" not in html


def test_a_best_turn_of_one_point_says_point(table):
    """One tile alone scores 1: the winner card says "1 point", in English and in Arabic,
    whose plural rule has a form of its own for one."""
    game = table.new_game(["Ann", "Bob"])
    table.post(f"/api/games/{game}/turns", {"kind": "place", "tiles": [
        {"x": 0, "y": 0, "colour": "red", "shape": "star"}]})
    table.post(f"/api/games/{game}/finish", {"went_out": None})
    html = table.client.get(f"/games/{game}/tablet").data.decode()
    assert "Best turn: <bdi class=\"name\">Ann</bdi>, 1 point (turn 1)." in html
    arabic = table.client.get(f"/games/{game}/tablet",
                              headers={"Accept-Language": "ar"}).data.decode()
    assert "نقطة واحدة" in arabic


def test_only_legal_actions_are_offered(table):
    game = table.new_game()
    actions = table.client.get(f"/games/{game}/part/actions").data.decode()
    assert 'data-open="exchange-dialog"' in actions
    assert 'data-action="pass"' not in actions and 'data-action="undo"' not in actions


def test_pending_card_says_its_reason_once_and_shows_a_split(table):
    game = table.new_game()
    games = table.app.extensions["qwirkle_games"]
    apart = (Tile("red", "star"), Tile("blue", "circle"))
    tiles = [(0, 0, apart[0]), (5, 5, apart[1])]
    reason_doubt = Doubt(DoubtKind.NO_LEGAL_READING, refusal=check_move(Board(), tiles).refusal)
    games.detected(tiles, True, (reason_doubt,), [])
    card = table.client.get(f"/games/{game}/part/pending?view=tablet").data.decode()
    state = table.client.get(f"/api/games/{game}/state").json
    assert not state["pending"]["legal"]
    assert card.count("Not a legal move:") == 1
    reason = state["pending"]["reason"]
    assert reason and card.count(reason[:20]) <= 1
    # A camera reading split into moves (issue 10's field): the card says which part.
    state["pending"]["split"] = {"part": 1, "of": 2}
    with table.app.test_request_context():
        from flask import render_template

        html = render_template("part_pending.html", state=state, view="tablet",
                               authorized=True)
    assert "Move 1 of 2, split from one camera reading." in html


def test_tiles_taken_back_say_so_not_that_the_camera_is_unsure(table):
    """Tiles set aside by "Not a move" and taken back come as a move that says where it
    came from; the camera's words for tiles it still sees after an undo ("still on the
    table... after an undo...") read oddly right after players chose to take them back."""
    game = table.new_game()
    games = table.app.extensions["qwirkle_games"]
    games.detected([(0, 0, Tile("red", "star")), (1, 0, Tile("red", "circle"))], True, (), [])
    table.post(f"/api/games/{game}/pending/dismiss")
    back = table.post(f"/api/games/{game}/ignored/restore", {}).json["pending"]
    assert back["doubt_codes"] == ["taken_back"] and back["reoffered"]
    assert back["doubt"] == "Taken back from the tiles set aside."
    card = table.client.get(f"/games/{game}/part/pending?view=tablet").data.decode()
    assert "Taken back from the tiles set aside." in card
    assert "still on the table" not in card and "The camera is unsure" not in card


def test_two_moves_set_aside_and_taken_back_together_come_back_as_two_turns(table):
    """Players called two camera moves "not a move" and then took all back: they come back
    as the two turns, in the order they were set aside, each confirmable and scored as
    played (they came back as one heap of five tiles, no legal turn, and only tile by tile
    could players take back one turn at a time). Which tiles were set aside together is
    kept with the game: they are taken back after a restart."""
    game = table.new_game()
    games = table.app.extensions["qwirkle_games"]
    table.place(game, ROW)
    row_end = [(3, 0, Tile("red", "square")), (4, 0, Tile("red", "diamond"))]
    column = [(4, y, Tile(colour, "diamond")) for y, colour in ((1, "blue"), (2, "green"),
                                                                (3, "yellow"))]
    for move in (row_end, column):
        games.detected(move, False, (), [])
    table.post(f"/api/games/{game}/pending/dismiss")
    table.post(f"/api/games/{game}/pending/dismiss")
    table = Table(make_app(table.app.config["DB_PATH"]))  # the server restarted
    state = table.post(f"/api/games/{game}/ignored/restore", {}).json
    first = state["pending"]
    assert {(t["x"], t["y"]) for t in first["tiles"]} == {(3, 0), (4, 0)}
    assert first["legal"] and first["score"] == 5 and first["split"] == {"part": 1, "of": 2}
    assert first["doubt_codes"] == ["taken_back"]
    card = table.client.get(f"/games/{game}/part/pending?view=tablet").data.decode()
    assert "Move 1 of 2 of the tiles taken back, each set aside as a move of its own." in card
    assert "split from one camera reading" not in card
    assert card.count("taken back") + card.count("Taken back") == 1  # said once
    second = table.post(f"/api/games/{game}/pending/confirm").json["pending"]
    assert {(t["x"], t["y"]) for t in second["tiles"]} == {(4, 1), (4, 2), (4, 3)}
    assert second["legal"] and second["score"] == 4 and second["split"] == {"part": 2, "of": 2}
    done = table.post(f"/api/games/{game}/pending/confirm").json
    assert [turn["score"] for turn in done["turns"]] == [3, 5, 4]
    assert done["pending"] is None and not done["ignored"]


def test_tiles_taken_back_come_as_the_camera_reads_them_now(table):
    """A move the camera misread (two circles read as diamonds) is called "not a move"; the
    camera, reading the table picture after picture, since reads the circles right. Taken
    back, the tiles come as circles, with the diamonds first among the fix dialog's
    choices (they came back as diamonds, and the camera's card then disputed them)."""
    game = table.new_game()
    games = table.app.extensions["qwirkle_games"]
    table.place(game, ROW)
    misread = [(1, y, Tile(colour, "diamond")) for y, colour in ((1, "blue"), (2, "green"))]
    games.detected(misread, False, (), [[Tile("blue", "star")], []])
    table.post(f"/api/games/{game}/pending/dismiss")
    board = [(t["x"], t["y"], Tile(t["colour"], t["shape"])) for t in ROW]
    games.set_view([*board, (1, 1, Tile("blue", "circle")), (1, 2, Tile("green", "circle"))],
                   [])
    back = table.post(f"/api/games/{game}/ignored/restore", {}).json["pending"]
    assert {(t["y"], t["colour"], t["shape"]) for t in back["tiles"]} == {
        (1, "blue", "circle"), (2, "green", "circle")}
    first = next(t for t in back["tiles"] if t["y"] == 1)
    assert [(a["colour"], a["shape"]) for a in first["alternatives"]] == [
        ("blue", "diamond"), ("blue", "star")]
    assert back["legal"] and back["score"] == 3


def test_archive_shows_winners_and_resume_and_hides_empty_games(table):
    empty = table.new_game(["Cy", "Di"])
    done = table.new_game(["Ann", "Bob"])
    table.place(done, ROW)
    table.post(f"/api/games/{done}/finish", {"went_out": None})
    open_game = table.new_game(["Ed", "Flo"])
    table.place(open_game, ROW)
    html = table.client.get("/games").data.decode()
    assert f'data-game-row="{empty}"' not in html
    assert "<bdi class=\"name\">Ann</bdi> won." in html
    # the unfinished game is the one at the table: nothing to resume, a way to its tablet
    assert f'/games/{open_game}/tablet">Tablet' in html and "At the table now." in html


def test_players_who_sat_at_one_game_cannot_be_merged(table):
    """A merge is for one person who typed their name two ways; two players of one game are
    two people. Merging them counted that game twice for one player, with no way back."""
    for players in (["Mia", "Moe"], ["Max", "Moe"]):
        game = table.new_game(players)
        table.place(game, ROW)
        table.post(f"/api/games/{game}/finish", {"went_out": None})
    refused = table.post("/api/players/merge", {"name": "Moe", "into": "Max"})
    assert refused.status_code == 400 and "played in the same game" in refused.json["error"]
    assert table.post("/api/players/merge", {"name": "Mia", "into": "Max"}).status_code == 200
    # Moe sat with Mia, who now counts as Max: merging Moe into Max is refused too.
    assert table.post("/api/players/merge", {"name": "Moe", "into": "Max"}).status_code == 400
    html = table.client.get("/players").data.decode()
    for who in ("Max", "Moe"):
        assert f'{player_row(who)}<td>2</td>' in html


def player_row(name: str) -> str:
    """The start of a player's row on the players page, up to their name."""
    return (f'<tr data-player="{name}"><th scope="row">'
            f'<bdi class="name cut" title="{name}">{name}</bdi></th>')


def test_player_history_by_name_and_merge(table):
    for players, rows in ((["Ann", "Bob"], ROW), (["ann", "Cy"], ROW), (["Annie", "Bob"], [])):
        game = table.new_game(players)
        if rows:
            table.place(game, rows)
        table.post(f"/api/games/{game}/finish", {"went_out": None})
    table.new_game(["Ann", "Bob"])  # unfinished: not counted
    html = table.client.get("/players").data.decode()
    assert f'{player_row("ann")}<td>2</td><td>2</td>' in html
    assert table.post("/api/players/merge", {"name": "Annie", "into": "ANN"}).status_code == 200
    html = table.client.get("/players").data.decode()
    assert 'data-player="Annie"' not in html
    assert f'{player_row("ann")}<td>3</td>' in html
    for bad in ({"name": "Bob", "into": "bob"}, {"name": "Bob"}, {"name": 1, "into": "Cy"}):
        response = table.post("/api/players/merge", bad)
        assert response.status_code == 400 and response.json["error"]


@pytest.mark.parametrize(("confirmed", "noted"), [("square", False), ("star", True)])
def test_a_tile_read_against_a_fix_players_undid_is_no_longer_noted(table, confirmed, noted):
    """Players fixed the camera's red square to a star, the camera read its next move
    meanwhile ("a tile that was red star now reads red square"), and they put the square
    back: once the square is confirmed, the next move does not carry the note. Confirmed as
    the star, the camera still disagrees, and says so."""
    game = table.new_game()
    games = table.app.extensions["qwirkle_games"]
    read = [(0, 0, Tile("red", "square")), (1, 0, Tile("red", "circle"))]
    games.detected(read, False, (), [])
    fixed = [{"x": 0, "y": 0, "colour": "red", "shape": "star"},
             {"x": 1, "y": 0, "colour": "red", "shape": "circle"}]
    table.post(f"/api/games/{game}/pending", {"tiles": fixed})
    note = Doubt(DoubtKind.RELABELLED, cell=(0, 0), tile=Tile("red", "star"),
                 other=Tile("red", "square"), elsewhere=True)
    games.detected([(0, 1, Tile("blue", "square"))], False, (note,), [])
    fixed[0]["shape"] = confirmed
    table.post(f"/api/games/{game}/pending", {"tiles": fixed})
    after = table.post(f"/api/games/{game}/pending/confirm").json["pending"]
    assert ("relabelled" in after["doubt_codes"]) == noted


def test_a_move_legal_once_players_set_one_aside_does_not_say_none_is(table):
    """The camera read the second move against the first, which players then called not a
    move: alone, it is a legal first move, and its card no longer says no reading of it is
    legal (it said so beside "1 point" and a live Confirm)."""
    game = table.new_game()
    games = table.app.extensions["qwirkle_games"]
    first, second = [(0, 0, Tile("red", "star"))], [(1, 0, Tile("blue", "circle"))]
    games.detected(first, False, (), [])
    refusal = check_move(Board.from_placed(first), second).refusal
    games.detected(second, True, (Doubt(DoubtKind.NO_LEGAL_READING, refusal=refusal),), [])
    shown = table.post(f"/api/games/{game}/pending/dismiss").json["pending"]
    assert shown["legal"] and shown["score"] == 1
    assert "no_legal_reading" not in shown["doubt_codes"]


def test_turns_that_tie_for_best_are_all_named(table):
    """Two turns of 3 points, by Ann then by Bob: the winner card names both (it credited
    Ann alone, the earlier); a game whose turns scored nothing praises no "best turn" of 0
    points (an exchange)."""
    game = table.new_game(["Ann", "Bob"])
    table.place(game, ROW)
    table.place(game, [{"x": 0, "y": 1, "colour": "blue", "shape": "star"},
                       {"x": 0, "y": 2, "colour": "green", "shape": "star"}])
    table.post(f"/api/games/{game}/finish", {"went_out": None})
    html = table.client.get(f"/games/{game}/tablet").data.decode()
    assert ("Best turns, 3 points each: <bdi class=\"name\">Ann</bdi> (turn 1), "
            "<bdi class=\"name\">Bob</bdi> (turn 2).") in html
    assert "Best turn:" not in html

    game = table.new_game(["Ann", "Bob"])
    table.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 2})
    table.post(f"/api/games/{game}/finish", {"went_out": None})
    html = table.client.get(f"/games/{game}/tablet").data.decode()
    assert "data-winner" in html and "Best turn" not in html


def test_a_redo_sent_twice_puts_the_turn_back_once(table):
    """A program retries its Redo (the answer was lost on the way): the second finds the
    turn already back and is refused, not recorded as a second exchange."""
    game = table.new_game()
    table.place(game, ROW)
    exchange = table.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 2})
    undone = table.post(f"/api/games/{game}/undo", {"index": 1}).json
    redo = {"index": 1, "turn": exchange.json["turns"][1], "turns": len(undone["turns"])}
    assert table.post(f"/api/games/{game}/redo", redo).status_code == 200
    again = table.post(f"/api/games/{game}/redo", redo)
    assert again.status_code == 409 and again.json["reason_code"] == "turns_changed"
    turns = table.client.get(f"/api/games/{game}/state").json["turns"]
    assert [t["kind"] for t in turns] == ["place", "exchange"]


def test_a_turn_put_back_by_redo_is_no_longer_set_aside(table):
    """Undo, the camera offering the tiles again, "Not a move" on another tablet, then the
    first tablet's Redo: the turn was back and scored, and its tiles were still listed as
    set aside, "not part of the game" (after a restart too)."""
    game = table.new_game()
    table.place(game, ROW)
    table.post(f"/api/games/{game}/undo", {"index": 0})
    games = table.app.extensions["qwirkle_games"]
    games.detected([(t["x"], t["y"], Tile(t["colour"], t["shape"])) for t in ROW], True, (), [])
    aside = table.post(f"/api/games/{game}/pending/dismiss").json
    assert len(aside["ignored"]) == 3
    redo = {"index": 0, "turn": {"kind": "place", "tiles": ROW}, "turns": 0}
    state = table.post(f"/api/games/{game}/redo", redo).json
    assert len(state["turns"]) == 1 and state["ignored"] == []
    again = Table(make_app(table.app.config["DB_PATH"]))  # the server restarted
    assert again.client.get(f"/api/games/{game}/state").json["ignored"] == []


def test_the_table_is_right_refused_for_a_turn_it_would_break_says_what_to_do(table):
    """The camera misses the middle of the first turn's row, which the second turn was laid
    on: taking it off the game would leave that turn unjoined, so "the table is right" is
    refused, saying why and what players can do instead; nothing changes."""
    game = table.new_game()
    table.place(game, ROW)
    below = [{"x": 1, "y": 1, "colour": "blue", "shape": "circle"}]
    table.place(game, below)
    before = table.client.get(f"/api/games/{game}/state").json
    seen = [(t["x"], t["y"], Tile(t["colour"], t["shape"])) for t in [ROW[0], ROW[2], *below]]
    table.app.extensions["qwirkle_games"].set_view(seen, [])
    refused = table.post(f"/api/games/{game}/table/accept")
    assert refused.status_code == 409 and refused.json["reason_code"]
    assert refused.json["error"].startswith("Turn ")
    assert refused.json["error"].endswith("Fix that turn with its Edit button, or keep the "
                                          "game's tiles.")
    assert table.client.get(f"/api/games/{game}/state").json["turns"] == before["turns"]
