"""The board game at the table: its start is confirmed as the start, no one's turn, and the
moves after it score the bonus squares; through the real tracker and the real app."""

from __future__ import annotations

import pytest
from live_support import confirm, served
from replay_scenes import BOARD_MOVE_1, START, board_game, pixel, scan_adding, scan_missing

from engine.tiles import Tile

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


@pytest.fixture(scope="module")
def scene():
    return board_game()


@pytest.fixture(scope="module")
def stills(scene):
    """The start, after move 1 (6 points with its "2") and after move 2 (8 with its "1")."""
    return scene.stills()




def codes(tiles) -> set[str]:
    return {t["code"] for t in tiles}


def test_the_start_is_confirmed_as_the_start_and_the_bonus_squares_score(tmp_path, stills):
    with served(tmp_path / "games.sqlite3") as (t, camera):
        game = t.new_game()
        camera.show(stills[0])
        start = t.client.get("/api/state").json["pending"]
        assert start["start"] and start["legal"] and len(start["tiles"]) == len(START)
        page = t.client.get(f"/games/{game}/tablet").data.decode()
        assert "laid out on the printed board" in page and "Confirm the start" in page
        after = confirm(t, game)
        assert len(after["start"]) == len(START) and after["turns"] == []
        assert after["current_player"] == 0 and len(after["bonus_squares"]) == 48
        assert after["bag_size"] == 108 - 24 - 2 * 6
        camera.show(stills[1])
        move = t.client.get("/api/state").json["pending"]
        assert not move["start"] and codes(move["tiles"]) == {t.code for *_, t in BOARD_MOVE_1}
        assert (move["score"], move["bonus"]) == (6, 2)
        assert confirm(t, game)["players"][0]["score"] == 6
    # a restart reads the start back from the event log, and the next move scores its "1"
    with served(tmp_path / "games.sqlite3") as (t, camera):
        again = t.client.get(f"/api/games/{game}/state").json
        assert len(again["start"]) == len(START)
        assert [p["score"] for p in again["players"]] == [6, 0]
        camera.show(stills[1])
        camera.show(stills[2])
        assert confirm(t, game)["players"][1]["score"] == 8


def test_a_start_tile_the_camera_missed_is_offered_later_as_the_starts(tmp_path, scene, stills,
                                                                    monkeypatch):
    missed = START[8]
    scan_missing(monkeypatch, scene[0].centers[missed[:2]], range(1, 2))
    with served(tmp_path / "games.sqlite3") as (t, camera):
        game = t.new_game()
        camera.show(stills[0])
        start = t.client.get("/api/state").json["pending"]
        assert start["start"] and not start["start_lacking"] and len(start["tiles"]) == 23
        after = confirm(t, game)
        assert len(after["start"]) == 23 and len(after["bonus_squares"]) == 48
        camera.show(stills[1])  # the missed tile is read now, beside move 1
        lacking = t.client.get("/api/state").json["pending"]
        assert lacking["start_lacking"] and codes(lacking["tiles"]) == {missed[2].code}
        page = t.client.get(f"/games/{game}/tablet").data.decode()
        assert "1 more tile of the start" in page and "Confirm the start" in page
        after = confirm(t, game)
        assert len(after["start"]) == len(START) and after["turns"] == []
        assert after["bag_size"] == 108 - 24 - 2 * 6
        move = t.client.get("/api/state").json["pending"]
        assert codes(move["tiles"]) == {t.code for *_, t in BOARD_MOVE_1}
        assert (move["score"], move["bonus"]) == (6, 2)
        assert confirm(t, game)["players"][0]["score"] == 6


def test_a_game_started_over_the_start_offers_it_as_the_start(tmp_path, stills):
    with served(tmp_path / "games.sqlite3") as (t, camera):
        camera.show(stills[0])  # the start is laid out before anyone opens a game
        setup = t.client.get("/setup").data.decode()
        assert "the game you open offers it as its start" in setup
        assert "offered as the first move" not in setup
        game = t.new_game()
        offered = t.client.get("/api/state").json["pending"]
        assert offered["start"] and offered["reoffered"] and len(offered["tiles"]) == len(START)
        # the start of every board game with a camera: no "still on the table" doubt
        assert offered["doubt_codes"] == [] and not offered["needs_confirmation"]
        card = t.client.get(f"/games/{game}/tablet").data.decode()
        assert "still on the table" not in card
        assert "tap + to add" not in card  # no "+" on the start: nothing to tap
        assert confirm(t, game)["turns"] == []
        camera.show(stills[1])
        assert confirm(t, game)["players"][0]["score"] == 6


def test_a_game_opened_over_a_start_and_a_tile_beside_it_offers_both(tmp_path, scene, stills,
                                                                   monkeypatch):
    """A tile lies beside the start as a game is opened (laid early): the start is offered
    as the start, then the tile as a move, judged on the start's board."""
    scan_adding(monkeypatch, pixel(scene, 0, (5.0, 1.0)), range(1, 99), Tile("blue", "circle"))
    with served(tmp_path / "games.sqlite3") as (t, camera):
        camera.show(stills[0])
        assert "the game you open offers it as its start" in t.client.get("/setup").data.decode()
        game = t.new_game()
        offered = t.client.get("/api/state").json["pending"]
        assert offered["start"] and len(offered["tiles"]) == len(START)
        assert confirm(t, game)["turns"] == []
        move = t.client.get("/api/state").json["pending"]
        assert codes(move["tiles"]) == {"BCi"} and not move["start"]
        assert (move["score"], move["bonus"]) == (5, 1)  # a row and a column of two, on a "1"


def test_a_game_opened_over_a_real_board_game_in_progress_offers_its_start_and_turns(
        tmp_path, real_data):
    """The real photo after connect-1's fourth move lies before the camera as a game is
    opened (the laptop restarted mid-game): the set-up page says so, and the game offers the
    start, then the four turns laid on it, each legal and flagged, scored with their bonus
    squares as played (in an order the camera cannot know). The next photo's move scores as
    played. Two of the start's diagonals were set aside as off the board, and the other two
    offered as a start of two diagonals."""
    import json

    from vision.imagefile import load_image

    folder = real_data / "connect-1"
    truth = [move["score"] for move in json.loads((folder / "game.json").read_text())["moves"]]
    with served(tmp_path / "games.sqlite3") as (t, camera):
        camera.show(load_image(folder / "04.jpg"))
        assert "a board game in progress (36 tiles)" in t.client.get("/setup").data.decode()
        game = t.new_game()
        offered = t.client.get("/api/state").json
        assert offered["pending"]["start"] and len(offered["pending"]["tiles"]) == 24
        assert offered["more_pending"] == 4 and confirm(t, game)["turns"] == []
        for _ in range(4):
            turn = t.client.get("/api/state").json["pending"]
            assert turn["legal"] and turn["needs_confirmation"] and not turn["start"]
            confirm(t, game)
        camera.show(load_image(folder / "05.jpg"))
        turns = [turn["score"] for turn in confirm(t, game)["turns"]]
    assert sorted(turns[:4]) == sorted(truth[:4]) and turns[4] == truth[4]


def test_a_board_game_on_video_is_played_through_qwirkle_serve_with_an_undo(tmp_path, stills):
    """`qwirkle serve` with a video of the board game as its camera, and players (the
    game-night check's) who confirm what it offers and undo turn 1 with its tiles left on
    the table: the start, then both turns, scored with their bonus squares."""
    from replay_scenes import QUIET

    from vision.synth.footage import video_frames, write_video
    from webui.checks.gamenight import play
    from webui.checks.server import start_server

    video = tmp_path / "board.mp4"
    length = write_video(video_frames(stills, QUIET, 7), video, QUIET.fps)
    process, port, token = start_server(tmp_path, str(video))
    try:
        state, said = play(port, token, undo_at=1, seconds=length + 30)
    finally:
        process.terminate()
        process.wait(10)
    # (flags may come: the renderer draws each position's bonus squares afresh)
    assert [line.removesuffix(", flagged") for line in said[:3]] == [
        "the start: 200, 0 points", "turn 1: 200, 6 points", "undo turn 1: 200"]
    assert len(state["start"]) == len(START) and [t["score"] for t in state["turns"]] == [6, 8]
    assert "Traceback" not in (tmp_path / "serve.log").read_text()
