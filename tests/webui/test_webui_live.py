"""The live loop with a stand-in camera and tracker: detected moves become the pending move,
a camera that vanishes is reported and reopened, and nothing recorded is lost."""

from __future__ import annotations

import time

import numpy as np
import pytest
from webui_support import ROW, Table, make_app

from engine.tiles import Tile
from vision.classifier import TileGuess
from vision.decode import DetectedMove
from vision.doubts import Doubt, DoubtKind
from vision.source import Frame, Problem, SourceError
from vision.tracker import TableView
from webui.app import attach_live

NOTE = Doubt(DoubtKind.MAYBE_TILE, cell=(5, 5), tile=Tile("red", "star"), elsewhere=True)
DOUBT = Doubt(DoubtKind.UNREAD_EARLIER, cell=(3, 0))
MOVE = tuple((t["x"], t["y"], Tile(t["colour"], t["shape"])) for t in ROW)


def guess(tile: Tile, runner_up: Tile) -> TileGuess:
    return TileGuess(tile, 0.6, {}, {}, alternatives=[(runner_up, 0.3)])


class FakeTracker:
    """Reports MOVE on a frame named "move"; records the boards it is told."""

    def __init__(self) -> None:
        self.accepted = []
        self.adapter = None

    def feed(self, frame: Frame) -> list[DetectedMove]:
        if frame.name == "still":  # a note about the table, no move: not for the tablets
            return [DetectedMove((), None, True, (NOTE,))]
        if frame.name != "move":
            return []
        guesses = tuple(guess(t, Tile("orange", t.shape)) for _, _, t in MOVE)
        return [DetectedMove(MOVE, 3, True, (DOUBT,), guesses=guesses)]

    def accept(self, board, pending=(), ignored=(), overruled=None,
               start=None) -> list[DetectedMove]:
        self.accepted.append(len(board) + len(list(pending)))
        return []

    def rescan(self) -> None:
        self.accepted.append("rescan")

    def view(self) -> TableView:
        return TableView(MOVE)

    def last_overlay(self) -> np.ndarray:
        return np.full((24, 32, 3), 120, np.uint8)


class VanishingCamera:
    """Opens once, delivers a move, then is unplugged; it never opens again."""

    def __init__(self) -> None:
        self.opened = 0

    def __call__(self):
        self.opened += 1
        if self.opened > 1:
            raise SourceError(Problem.CANNOT_OPEN_CAMERA, "0")
        return self.frames()

    def frames(self):
        yield Frame(np.zeros((24, 32, 3), np.uint8), 0.0, "still")
        yield Frame(np.zeros((24, 32, 3), np.uint8), 1.0, "move")
        raise SourceError(Problem.STALLED, "0", 3)


def wait_for(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.fixture
def live_table(tmp_path):
    app = make_app(tmp_path / "games.sqlite3", CAMERA_RETRY_S=0.05, PREVIEW_FPS=100.0)
    table = Table(app)
    game = table.new_game()
    table.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 2})
    camera, tracker = VanishingCamera(), FakeTracker()
    loop = attach_live(app, camera, lambda colours: tracker)
    yield table, game, camera, tracker, loop
    loop.stop()


def test_detected_move_becomes_pending_and_survives_a_lost_camera(live_table):
    table, game, camera, tracker, loop = live_table
    games = table.app.extensions["qwirkle_games"]
    wait_for(lambda: camera.opened >= 3)  # it keeps trying to reconnect
    loop.stop()  # so the status stays as the last attempt left it
    state = table.client.get("/api/state").json
    assert state["camera"]["state"] == "lost"
    assert "plugged in" in state["camera"]["message"]
    assert state["camera"]["code"] == "cannot_open_camera"
    assert len(state["turns"]) == 1  # the confirmed turn is untouched
    pending = state["pending"]
    assert state["more_pending"] == 0
    assert [(t["x"], t["y"]) for t in pending["tiles"]] == [(0, 0), (1, 0), (2, 0)]
    assert pending["doubt_codes"] == ["unread_earlier"]
    assert pending["doubt"].startswith("A tile may lie unread in the line of this move")
    assert pending["tiles"][0]["alternatives"] == [{"colour": "orange", "shape": "star"}]
    # The pending move can still be confirmed while the camera is away.
    state = table.post(f"/api/games/{game}/pending/confirm").json
    assert state["players"][1]["score"] == 3
    assert tracker.accepted[-1] == 3  # the tracker now reads moves against the new board
    assert games.camera["state"] == "lost"


def test_the_page_shows_the_lost_camera(live_table):
    table, game, camera, _, loop = live_table
    wait_for(lambda: camera.opened >= 2)
    loop.stop()
    html = table.client.get(f"/games/{game}/part/status").data.decode()
    assert 'data-camera="lost"' in html and "unplugged, or in use by another program" in html


def test_preview_is_mjpeg_of_the_overlay(live_table):
    table, _, camera, _, loop = live_table
    wait_for(lambda: loop.jpeg() is not None)
    response = table.client.get("/camera.mjpeg", buffered=False)
    assert response.mimetype == "multipart/x-mixed-replace"
    chunk = next(iter(response.response))
    assert chunk.startswith(b"--frame\r\nContent-Type: image/jpeg")
    assert b"\xff\xd8" in chunk  # a JPEG starts here
    response.close()


def test_new_game_tells_the_tracker_an_empty_board(live_table):
    table, _, _, tracker, _ = live_table
    table.new_game(["Cy", "Di"])
    assert tracker.accepted[-1] == 0


def tries_of_a_failing_camera(app, problem: SourceError, seconds: float = 0.6) -> int:
    """How often the live loop tries to open a camera that never opens, in ``seconds``."""
    opened = []

    def never_opens():
        opened.append(1)
        raise problem

    loop = attach_live(app, never_opens, lambda colours: FakeTracker())
    time.sleep(seconds)
    loop.stop()
    return len(opened)


def test_a_camera_that_keeps_failing_is_retried_less_often(tmp_path):
    app = make_app(tmp_path / "games.sqlite3", CAMERA_RETRY_S=0.01)
    tries = tries_of_a_failing_camera(app, SourceError(Problem.NO_SUCH_SOURCE, "'0'"))
    # Without backoff that would be about 60 attempts; doubling waits leave a handful.
    assert 3 <= tries <= 8


def test_moves_wait_in_order_and_the_tracker_expects_them(tmp_path):
    app = make_app(tmp_path / "games.sqlite3")
    table = Table(app)
    game = table.new_game()
    games = app.extensions["qwirkle_games"]
    told = []

    def on_board(game):
        told.append(sorted((x, y) for x, y, _ in [*game.table.board.placed(),
                                                   *game.waiting_tiles()]))
        return []

    games.on_board = on_board
    second = ((3, 0, Tile("red", "square")),)
    games.detected(MOVE, False, "", [])
    games.detected(second, False, "", [])  # the next player moved before anyone confirmed
    # ...in the same line: taken for one turn laid in two spells until players part it
    state = table.post(f"/api/games/{game}/pending/part").json
    assert len(state["pending"]["tiles"]) == 3 and state["more_pending"] == 1
    state = table.post(f"/api/games/{game}/pending/confirm").json
    assert state["players"][0]["score"] == 3
    assert state["pending"]["tiles"][0]["x"] == 3 and state["pending"]["score"] == 4
    assert told[-1] == [(0, 0), (1, 0), (2, 0), (3, 0)]  # confirmed and waiting tiles
    # Not a move: the game no longer holds that tile; it is set aside.
    state = table.post(f"/api/games/{game}/pending/dismiss").json
    assert state["pending"] is None and state["more_pending"] == 0
    assert told[-1] == [(0, 0), (1, 0), (2, 0)]
    assert [(t["x"], t["y"]) for t in state["ignored"]] == [(3, 0)]


def _spells(tmp_path, *spells):
    """A game whose camera saw ``spells`` of tiles, each in a still picture of its own."""
    app = make_app(tmp_path / "games.sqlite3")
    table = Table(app)
    game = table.new_game()
    for spell in spells:
        app.extensions["qwirkle_games"].detected(spell, False, "", [])
    return table, game


def test_a_turn_laid_in_two_spells_waits_as_one_move(tmp_path):
    """A player lays a tile, reaches back to the rack for a second, and lays two more: the
    camera saw the table still between them, and the later tiles join the move waiting, as
    one turn, flagged, instead of queuing as the next player's turn. The camera's word that
    they were scored with a tile of a move not yet confirmed goes: it is this move."""
    app = make_app(tmp_path / "games.sqlite3")
    table = Table(app)
    game = table.new_game()
    games = app.extensions["qwirkle_games"]
    games.detected(MOVE[:1], False, "", [])
    games.detected(MOVE[1:], True, [Doubt(DoubtKind.UNCONFIRMED, cell=(0, 0), tile=MOVE[0][2])],
                   [])
    state = table.client.get("/api/state").json
    pending = state["pending"]
    assert len(pending["tiles"]) == 3 and state["more_pending"] == 0
    assert pending["score"] == 3 and pending["needs_confirmation"]
    assert pending["doubt_codes"] == ["laid_after_pause"] and "2 of these tiles" in pending["doubt"]
    assert "Two turns" in table.client.get(f"/games/{game}/tablet").text
    state = table.post(f"/api/games/{game}/pending/confirm").json
    assert [p["score"] for p in state["players"]] == [3, 0] and state["pending"] is None


def test_two_turns_parts_a_move_laid_in_two_spells(tmp_path):
    """Where the next player laid the later tiles before anyone confirmed, "Two turns" gives
    back the two moves the camera saw, in the order they were laid, each scored as its own
    turn; a move laid in one spell cannot be parted."""
    table, game = _spells(tmp_path, MOVE[:1], MOVE[1:])
    state = table.post(f"/api/games/{game}/pending/part").json
    assert [t["x"] for t in state["pending"]["tiles"]] == [0] and state["more_pending"] == 1
    assert "laid_after_pause" not in state["pending"]["doubt_codes"]
    assert state["joins_next"]  # "One turn" would join them again
    state = table.post(f"/api/games/{game}/pending/confirm").json
    assert not state["joins_next"]
    refused = table.post(f"/api/games/{game}/pending/join")
    assert refused.status_code == 409 and refused.json["reason_code"] == "not_one_turn"
    assert [t["x"] for t in state["pending"]["tiles"]] == [1, 2]
    refused = table.post(f"/api/games/{game}/pending/part")
    assert refused.status_code == 409 and refused.json["reason_code"] == "not_two_spells"
    state = table.post(f"/api/games/{game}/pending/confirm").json
    assert [p["score"] for p in state["players"]] == [1, 3] and len(state["turns"]) == 2


def test_tiles_that_make_no_move_with_the_one_waiting_queue_behind_it(tmp_path):
    """Tiles that make no legal move with the move waiting are another move; and behind two
    moves waiting (players are not confirming as they go) a third joins neither."""
    far = ((0, 2, Tile("blue", "star")),)
    table, game = _spells(tmp_path, MOVE, far, ((3, 0, Tile("red", "square")),))
    state = table.client.get("/api/state").json
    assert len(state["pending"]["tiles"]) == 3 and state["more_pending"] == 2
    assert "laid_after_pause" not in state["pending"]["doubt_codes"]
    # nor do tiles the camera did not see being laid (an outage: turns may have passed)
    (tmp_path / "outage").mkdir()
    table, game = _spells(tmp_path / "outage", MOVE[:1])
    unseen = Doubt(DoubtKind.UNSEEN_LAYING)
    table.app.extensions["qwirkle_games"].detected(MOVE[1:], True, [unseen], [])
    assert table.client.get("/api/state").json["more_pending"] == 1


def test_a_spell_taken_off_the_table_leaves_one_move_unflagged(tmp_path):
    """The tiles laid after the pause are picked up again: the move waiting is the first
    spell's, with no word of a pause."""
    table, game = _spells(tmp_path, MOVE[:1], MOVE[1:])
    table.app.extensions["qwirkle_games"].withdrawn([(1, 0), (2, 0)])
    pending = table.client.get("/api/state").json["pending"]
    assert [t["x"] for t in pending["tiles"]] == [0] and pending["doubt_codes"] == []


def test_a_camera_lost_for_long_is_retried_often_enough_and_stays_lost_meanwhile(tmp_path,
                                                                              monkeypatch):
    """A phone on the Wi-Fi that stalls for 40 s: its page says "lost" until it is back,
    not "connecting" and "lost" in turn at every try (session 39's play-through), and the
    waits between tries stop growing at MAX_RETRY_S (they reached 30 s: the camera came back
    25 s after its frames did)."""
    import webui.live as live_module

    monkeypatch.setattr(live_module, "MAX_RETRY_S", 0.04)
    app = make_app(tmp_path / "games.sqlite3", CAMERA_RETRY_S=0.01)
    games = app.extensions["qwirkle_games"]
    states = []
    record = games.set_camera

    def set_camera(state, *args, **kwargs):
        if not states or states[-1] != state:
            states.append(state)
        record(state, *args, **kwargs)

    monkeypatch.setattr(games, "set_camera", set_camera)
    tries = tries_of_a_failing_camera(
        app, SourceError(Problem.CANNOT_REACH_CAMERA, "http://phone/video"))
    assert states == ["connecting", "lost"]
    # waits of 0.01, 0.02, 0.04, then 0.04 each: without the cap about 6 tries
    assert tries >= 10
