"""`qwirkle serve` as a process: what it prints, and a SIGKILL that loses nothing confirmed."""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import threading
import time
import urllib.error
from functools import partial

import numpy as np
import pytest
from live_support import ScriptedCamera
from webui_support import REPO, ROW, Servers, Table, free_port, make_app

from engine.tiles import SHAPES, Tile
from vision.tracker import MoveTracker
from webui.app import attach_live
from webui.commands.serve import DEMO_PLAYERS, demo_idle, demo_opener, demo_waiting


@pytest.fixture
def servers(tmp_path):
    pool = Servers(tmp_path / "games.sqlite3")
    yield pool.start
    pool.close()


def test_prints_address_pin_and_qr(servers):
    server = servers("none")
    assert f"{server.base}/table" in server.output
    assert "PIN" in server.output
    assert "▀" in server.output or "█" in server.output  # the QR code, drawn in the terminal


def _serve_again(port: int, db) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "webui.cli", "serve", "--camera", "none", "--host", "127.0.0.1",
         "--port", str(port), "--db", str(db)], capture_output=True, text=True, timeout=60,
        cwd=REPO)


def test_a_second_server_on_the_same_file_is_refused_and_the_first_keeps_its_game(servers):
    """Two servers on one file each kept their own game and both wrote turns: after a
    restart a turn belonged to the wrong player."""
    server = servers("none")
    game = server.api("POST", "/api/games", {"players": ["Ann", "Bob"]})["id"]
    second = _serve_again(free_port(), server.db)
    assert second.returncode == 2
    assert "another qwirkle serve is already using" in second.stderr
    assert "Traceback" not in second.stderr + second.stdout and "PIN" not in second.stdout
    server.api("POST", f"/api/games/{game}/pending", {"tiles": ROW})
    assert server.api("POST", f"/api/games/{game}/pending/confirm")["turns"]


def test_a_port_in_use_is_said_in_one_line_before_any_pin(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        run = _serve_again(taken.getsockname()[1], tmp_path / "games.sqlite3")
    assert run.returncode == 2
    assert "cannot listen on 127.0.0.1 port" in run.stderr and "--port" in run.stderr
    assert "Traceback" not in run.stderr + run.stdout and "PIN" not in run.stdout


def test_sigkill_loses_no_confirmed_action(servers):
    server = servers("none")
    game = server.api("POST", "/api/games", {"players": ["Ann", "Bob"]})["id"]
    server.api("POST", f"/api/games/{game}/pending", {"tiles": ROW})
    server.api("POST", f"/api/games/{game}/pending/confirm")
    before = server.api("POST", f"/api/games/{game}/turns", {"kind": "exchange", "count": 4})
    server.kill()
    again = servers("none", server.db)
    after = again.api("GET", "/api/state")
    assert after["turns"] == before["turns"]
    assert after["players"] == before["players"]


def test_sigkill_in_the_middle_of_writes_keeps_every_answered_one(servers):
    server = servers("none")
    game = server.api("POST", "/api/games", {"players": ["Ann", "Bob"]})["id"]
    answered = 0
    killer = threading.Timer(0.5, server.kill)
    killer.start()
    try:
        while True:
            server.api("POST", f"/api/games/{game}/turns", {"kind": "exchange", "count": 1})
            answered += 1
    except (urllib.error.URLError, ConnectionError, http.client.HTTPException):
        pass  # the server died under us
    killer.join()
    turns = servers("none", server.db).api("GET", "/api/state")["turns"]
    # Every answered exchange is there; at most the one in flight may be there too.
    assert answered > 0 and answered <= len(turns) <= answered + 1, (answered, len(turns))


def test_a_camera_that_cannot_open_is_reported_not_fatal(servers, tmp_path):
    server = servers(str(tmp_path / "no-such-camera.mp4"))
    deadline = time.monotonic() + 10
    while (camera := server.api("GET", "/api/camera"))["state"] != "lost":
        assert time.monotonic() < deadline, camera
        time.sleep(0.1)
    assert "no-such-camera.mp4" in camera["message"]
    # and the console said so as it started, beside the PIN
    assert "Not found: no such camera, file or folder" in server.output
    assert "no-such-camera.mp4" in server.output and "PIN" in server.output
    # The server still serves and answers bad requests with a message.
    with pytest.raises(urllib.error.HTTPError) as error:
        server.api("POST", "/api/games", {"players": ["Solo"]})
    assert error.value.code == 400


def test_the_demo_opens_on_a_fresh_game(tmp_path):


    table = Table(make_app(tmp_path / "games.sqlite3"))
    games = table.app.extensions["qwirkle_games"]
    open_demo = demo_opener(games, games.default_colours)
    open_demo().close()
    first = games.current_id()
    assert games.get(first).table.players == DEMO_PLAYERS
    open_demo().close()  # nothing played yet: the same game
    assert games.current_id() == first
    table.place(first, ROW)
    # A game in progress: the demo waits; it never opens a game over it.
    assert not demo_idle(games)
    table.post(f"/api/games/{first}/finish", {"went_out": None})
    assert not demo_idle(games)  # the finished game keeps the table: its winner moment
    second = table.new_game()
    assert demo_idle(games)
    open_demo().close()  # the demo plays for the players' new game
    assert games.current_id() == second


def test_the_demo_starts_again_from_an_empty_table_for_the_players_new_game(tmp_path):
    """Players who start a game while the demo plays get the demo's game from its start, as
    they would clear a real table, not its tiles so far as their first move."""
    games = Table(make_app(tmp_path / "games.sqlite3")).app.extensions["qwirkle_games"]
    demo = demo_opener(games, games.default_colours)()
    demo.realtime = False
    frames = iter(demo)
    start = [next(frames) for _ in range(2)]
    later = [next(frames) for _ in range(200)][-1]
    games.create(("Cy", "Di"), games.default_colours)
    again = [next(frames) for _ in range(2)]  # started again once, not on every frame
    assert all(np.array_equal(a.image, b.image) for a, b in zip(again, start, strict=True))
    assert not np.array_equal(later.image, start[0].image)  # the demo's moves lay there
    assert again[0].t > later.t  # the clock runs on


def test_the_demos_next_move_waits_for_the_players_answer(tmp_path):
    """A new user confirming the demo's moves one by one is not outrun by the recording."""
    table = Table(make_app(tmp_path / "games.sqlite3"))
    games = table.app.extensions["qwirkle_games"]
    demo = demo_opener(games, games.default_colours)()
    game = games.current_id()
    assert demo.wait is not None and not demo.wait()
    games.detected([(0, 0, Tile("red", "circle")), (1, 0, Tile("red", "square"))],
                   False, (), [])
    assert demo.wait()  # the camera offered a move: the recording holds the table still
    table.post(f"/api/games/{game}/pending/confirm", {})
    assert not demo.wait()


def play_the_demos_moves(table: Table, game: int, moves) -> None:
    """The demo's moves confirmed in ``game``, turned and shifted as a camera names cells."""
    for tiles, _ in moves:
        table.place(game, [dict(x=3 - y, y=x - 2, colour=t.colour, shape=t.shape)
                           for x, y, t in tiles])


def tiles_in(frame) -> int:
    from vision.scan import scan_image

    return len(scan_image(frame.image).tiles)


def test_a_restart_picks_the_demo_up_where_its_game_stood(tmp_path):
    """Restarted over the demo's unfinished game, the demo goes on from the position its
    tiles show, not from an empty table, though players fixed a tile the camera misread."""
    from vision.demo import demo_script

    table = Table(make_app(tmp_path / "games.sqlite3"))
    games = table.app.extensions["qwirkle_games"]
    game = table.new_game(DEMO_PLAYERS)
    script = demo_script()
    (first, score), *later = script.moves[:3]
    (x, y, tile), *rest = first
    fixed = Tile(tile.colour, next(s for s in SHAPES if s not in {t.shape for *_, t in first}))
    play_the_demos_moves(table, game, [(((x, y, fixed), *rest), score), *later])
    assert demo_idle(games)
    demo = demo_opener(games, games.default_colours)()
    assert demo.start == 3 and games.current_id() == game
    demo.realtime = False
    assert tiles_in(next(iter(demo))) == len(script.positions[3])
    # Played to the recording's last position, there is nothing left to pick up.
    play_the_demos_moves(table, table.new_game(DEMO_PLAYERS), script.moves)
    assert not demo_idle(games)


def test_the_demo_follows_the_game_players_bring_back(tmp_path):
    """Brought back to the table, an older game of the demo's has the recording go on from
    where it stood; a game of the players' own stops it, rather than have the demo lay its
    tiles into that game."""
    from vision.demo import demo_script

    table = Table(make_app(tmp_path / "games.sqlite3"))
    games = table.app.extensions["qwirkle_games"]
    demo = demo_opener(games, games.default_colours)()
    demo.realtime = False
    frames = iter(demo)
    assert tiles_in(next(frames)) == 0  # the demo's new game, from an empty table
    older = table.new_game(DEMO_PLAYERS)
    script = demo_script()
    play_the_demos_moves(table, older, script.moves[:3])
    assert tiles_in(next(frames)) == len(script.positions[3])
    table.place(table.new_game(), ROW)
    with pytest.raises(StopIteration):
        next(frames)


def test_the_demo_that_laid_all_its_moves_says_so(tmp_path):
    """At the recording's end the game is the players' to end: the camera says the demo
    laid all its moves, not only that it plays again for a new game."""
    from vision.demo import demo_script

    app = make_app(tmp_path / "games.sqlite3", CAMERA_RETRY_S=0.05)
    table = Table(app)
    games = app.extensions["qwirkle_games"]
    game = table.new_game(DEMO_PLAYERS)
    play_the_demos_moves(table, game, demo_script().moves)
    loop = attach_live(app, ScriptedCamera(), lambda colours: MoveTracker(colours=colours),
                       may_open=lambda: demo_idle(games), waiting=partial(demo_waiting, games))
    try:
        until(lambda: games.camera["state"] == "played", 10, games.camera)
        page = table.client.get(f"/games/{game}/tablet").data.decode()
        assert "the demo has laid all its moves" in page
        table.post(f"/api/games/{game}/finish", {"went_out": 0})  # ended: no more to say
        until(lambda: games.camera["state"] == "waiting", 10, games.camera)
    finally:
        loop.stop(timeout=1.0)


@pytest.fixture
def demo_over_a_game(tmp_path):
    """A demo camera restarted over a game with a turn, whose retry is ``retry_s``: the
    table, the game and the games, once the camera says it waits for a new game."""
    loops = []

    def start(retry_s: float):
        app = make_app(tmp_path / "games.sqlite3", CAMERA_RETRY_S=retry_s)
        table = Table(app)
        game = table.new_game()
        table.place(game, ROW)
        games = app.extensions["qwirkle_games"]
        loops.append(attach_live(app, ScriptedCamera(),
                                 lambda colours: MoveTracker(colours=colours),
                                 may_open=lambda: demo_idle(games)))
        until(lambda: games.camera["state"] == "waiting", 10, games.camera)
        return table, game, games

    yield start
    for loop in loops:
        loop.stop(timeout=1.0)


def until(condition, seconds: float, what: object) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_the_demo_waiting_for_a_new_game_starts_as_soon_as_one_begins(demo_over_a_game):
    """The camera looks again the moment players start a game, not at its next retry: the
    set-up page led to a tablet saying "the demo plays again when a new game starts" for
    seconds after it had."""
    table, _, games = demo_over_a_game(retry_s=60)
    table.new_game(["Cy", "Di"])
    until(lambda: games.camera["state"] != "waiting", 5, "still waiting after the new game")


def test_the_demo_waiting_for_a_new_game_says_so(demo_over_a_game):
    """Restarted over a game with turns, the demo does not play into it: every page says it
    waits for a new game, rather than "Camera: off"."""
    table, game, _ = demo_over_a_game(retry_s=0.05)
    page = table.client.get(f"/games/{game}/tablet").data.decode()
    assert "the demo plays again when a new game starts" in page


def test_a_game_started_while_the_demo_plays_is_not_offered_its_tiles(tmp_path):
    """The demo lays a new game out from an empty table: the tiles it had laid before are
    never the players' first move. They were offered as one, withdrawn once the empty
    table came through the stillness gate; a Fix opened meanwhile was refused."""
    from vision.demo import demo_script

    app = make_app(tmp_path / "games.sqlite3", CAMERA_RETRY_S=0.05)
    table = Table(app)
    games = app.extensions["qwirkle_games"]
    open_demo = demo_opener(games, games.default_colours)

    def fast_demo():
        demo = open_demo()
        demo.realtime = False
        return demo

    loop = attach_live(app, fast_demo, lambda colours: MoveTracker(colours=colours),
                       may_open=lambda: demo_idle(games), clears=True)
    try:
        until(lambda: games.current_id() is not None
              and games.get(games.current_id()).queue, 60, "the demo's first move")
        assert games.view is not None and games.view[0]  # its tiles lie on the table
        game = table.new_game(["Cy", "Di"])
        assert not games.get(game).queue
        until(lambda: games.get(game).queue, 60, "the demo's first move in the new game")
        first, _ = demo_script().moves[0]
        assert len(games.get(game).queue[0].tiles) == len(first)
    finally:
        loop.stop(timeout=1.0)
