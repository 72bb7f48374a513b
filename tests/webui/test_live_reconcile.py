"""The game and the table kept in step, through the real tracker and the real app.

A scripted camera shows rendered positions of a short game one by one; the players act
through the JSON API, as the tablets do. After each trap (an undo with the tiles left on the
table, "Not a move" on a real move, a game started over tiles, "the table is right", the end
of the game, a recording that ends) play goes on, and every later move is confirmable and
scored as in the real game.
"""

from __future__ import annotations

import time
import urllib.request

import pytest
from live_support import ScriptedCamera, confirm, confirm_a_phantom, served
from replay_scenes import MOVE_1, MOVE_2, MOVE_3, SCRIPT, renders
from webui_support import Table, make_app

from engine.tiles import Tile
from vision.source import SMALL_PICTURE
from vision.synth.footage import GameScript
from vision.tracker import MoveTracker
from webui.app import attach_live

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


@pytest.fixture(scope="module")
def stills():
    """The table empty, after move 1 (3 points), move 2 (3) and move 3 (4)."""
    return renders().stills()


@pytest.fixture(scope="module")
def stills_3_before_2():
    """As :func:`stills`, with moves 2 and 3 laid the other way round (both are legal)."""
    return renders(script=GameScript([[], MOVE_1, MOVE_1 + MOVE_3, MOVE_1 + MOVE_3 + MOVE_2],
                                     [(tuple(MOVE_1), 3), (tuple(MOVE_3), 4),
                                      (tuple(MOVE_2), 3)])).stills()


@pytest.fixture
def table(tmp_path):
    with served(tmp_path / "games.sqlite3") as app_and_camera:
        yield app_and_camera



def cells(tiles) -> set[str]:
    """The tiles of a move by their codes (each rendered move's tiles are all different;
    the scan picks its own origin and orientation for the cells)."""
    return {t["code"] for t in tiles}


def shape(moves) -> set[str]:
    return {tile.code for _, _, tile in moves}


def state(t: Table) -> dict:
    return t.client.get("/api/state").json



def play_move_one(t: Table, camera: ScriptedCamera, stills) -> int:
    """A new game whose first move the camera sees and the players confirm."""
    game = t.new_game()
    camera.show(stills[0])
    camera.show(stills[1])
    confirm(t, game)
    return game


def play_to_move_two(t: Table, camera: ScriptedCamera, stills) -> int:
    game = t.new_game()
    camera.show(stills[0])
    camera.show(stills[1])
    assert cells(state(t)["pending"]["tiles"]) == shape(MOVE_1)
    confirm(t, game)
    camera.show(stills[2])
    assert cells(state(t)["pending"]["tiles"]) == shape(MOVE_2)
    done = confirm(t, game)
    assert [p["score"] for p in done["players"]] == [3, 3]
    return game


def test_undo_with_the_tiles_left_on_the_table_offers_them_again_first(table, stills):
    t, camera = table
    game = play_to_move_two(t, camera, stills)
    after = t.post(f"/api/games/{game}/undo").json
    # No new picture needed: the tiles still lie there, offered again as a move of their own.
    assert cells(after["pending"]["tiles"]) == shape(MOVE_2)
    assert after["pending"]["reoffered"] and after["more_pending"] == 0
    assert after["camera_board"]["agrees"]
    camera.show(stills[3])  # the next player's move queues behind it
    now = state(t)
    assert cells(now["pending"]["tiles"]) == shape(MOVE_2) and now["more_pending"] == 1
    confirm(t, game)
    done = confirm(t, game)
    assert [turn["score"] for turn in done["turns"]] == [3, 3, 4]
    assert done["pending"] is None


def test_undo_then_tiles_taken_back_simply_disappear(table, stills):
    t, camera = table
    game = play_to_move_two(t, camera, stills)
    t.post(f"/api/games/{game}/undo")
    camera.show(stills[1])  # the player took move 2 back off the table
    now = state(t)
    assert now["pending"] is None and now["camera_board"]["agrees"]
    camera.show(stills[2])  # and lays it again: a move like any other
    assert cells(state(t)["pending"]["tiles"]) == shape(MOVE_2)
    assert confirm(t, game)["players"][1]["score"] == 3


def test_not_a_move_sets_tiles_aside_and_they_can_be_taken_back(table, stills):
    t, camera = table
    game = play_move_one(t, camera, stills)
    camera.show(stills[2])
    dismissed = t.post(f"/api/games/{game}/pending/dismiss").json  # a real move, wrongly
    assert cells(dismissed["ignored"]) == shape(MOVE_2) and dismissed["pending"] is None
    camera.show(stills[3])  # the next move is read without the tiles set aside
    now = state(t)
    assert cells(now["pending"]["tiles"]) == shape(MOVE_3)
    assert now["pending"]["legal"] and now["pending"]["score"] == 4
    # The players see their mistake: move 2 comes back, ahead of move 3.
    back = t.post(f"/api/games/{game}/ignored/restore").json
    assert cells(back["pending"]["tiles"]) == shape(MOVE_2) and back["ignored"] == []
    confirm(t, game)
    done = confirm(t, game)
    assert [turn["score"] for turn in done["turns"]] == [3, 3, 4]


def test_two_real_moves_called_not_a_move_come_back_as_two_turns(table, stills):
    """A careless player calls moves 2 and 3 "not a move", one after the other, then takes
    all back: they come back as moves 2 and 3, each confirmable and scored as played, and
    the camera goes on agreeing with the game."""
    t, camera = table
    game = play_move_one(t, camera, stills)
    camera.show(stills[2])
    t.post(f"/api/games/{game}/pending/dismiss")
    camera.show(stills[3])
    t.post(f"/api/games/{game}/pending/dismiss")
    back = t.post(f"/api/games/{game}/ignored/restore").json
    assert back["ignored"] == [] and back["more_pending"] == 1
    assert cells(back["pending"]["tiles"]) == shape(MOVE_2)
    assert back["pending"]["split"] == {"part": 1, "of": 2} and back["pending"]["score"] == 3
    after = confirm(t, game)
    assert cells(after["pending"]["tiles"]) == shape(MOVE_3) and after["pending"]["score"] == 4
    done = confirm(t, game)
    assert [turn["score"] for turn in done["turns"]] == [3, 3, 4] and done["pending"] is None
    camera.show(stills[3])
    assert state(t)["camera_board"]["agrees"]


def test_a_tile_removed_from_a_move_is_set_aside_and_taken_back_into_it(table, stills):
    """A careless fix: the tile that joins move 2 to the board is removed ("nothing there").
    It is set aside, not offered straight back; taking it back puts it in the move again."""
    t, camera = table
    game = play_move_one(t, camera, stills)
    camera.show(stills[2])
    shown = state(t)["pending"]["tiles"]
    joining = next(tile for tile in shown if tile["code"] == "OCi")
    rest = [tile for tile in shown if tile is not joining]
    fixed = t.post(f"/api/games/{game}/pending", {"tiles": rest}).json
    assert cells(fixed["ignored"]) == {"OCi"}
    assert cells(fixed["pending"]["tiles"]) == {"YCi"} and fixed["more_pending"] == 0
    assert not fixed["pending"]["legal"] and not fixed["pending"]["reoffered"]
    back = t.post(f"/api/games/{game}/ignored/restore").json
    assert back["ignored"] == [] and back["more_pending"] == 0
    assert cells(back["pending"]["tiles"]) == shape(MOVE_2) and back["pending"]["score"] == 3
    assert [turn["score"] for turn in confirm(t, game)["turns"]] == [3, 3]
    camera.show(stills[3])
    assert [turn["score"] for turn in confirm(t, game)["turns"]] == [3, 3, 4]


def test_a_game_started_over_tiles_offers_them_as_the_first_move(table, stills):
    t, camera = table
    camera.show(stills[1])  # tiles lie on the table before any game
    assert t.client.get("/api/camera").json["tiles"] == len(MOVE_1)
    setup = t.client.get("/setup").data.decode()
    assert f"The camera sees {len(MOVE_1)} tiles on the table" in setup
    game = t.new_game()
    first = state(t)["pending"]
    assert cells(first["tiles"]) == shape(MOVE_1) and first["reoffered"]
    confirm(t, game)
    camera.show(stills[2])
    assert confirm(t, game)["players"][1]["score"] == 3


def test_the_table_is_right_removes_a_tile_the_camera_does_not_see(table, stills):
    t, camera = table
    game, phantom = confirm_a_phantom(t, camera, stills)
    board = state(t)["camera_board"]
    assert not board["agrees"] and cells(board["missing"]) == {phantom["code"]}
    assert t.post(f"/api/games/{game}/table/check").status_code == 200
    fixed = t.post(f"/api/games/{game}/table/accept").json
    assert fixed["players"][0]["score"] == 3 and fixed["camera_board"]["agrees"]
    camera.show(stills[2])
    assert confirm(t, game)["players"][1]["score"] == 3


def test_the_table_is_right_refuses_a_view_that_changed_since_it_was_shown(table, stills):
    """Players look at the two boards and tap "the table is right" while the camera has
    seen a new move meanwhile: nothing is applied that nobody saw, and the view shown
    now is accepted at the next tap."""
    t, camera = table
    game, phantom = confirm_a_phantom(t, camera, stills)
    seen = state(t)["camera_board"]["key"]
    camera.show(stills[2])  # the next move, read while the question was open
    now = state(t)["camera_board"]
    assert now["key"] != seen and cells(now["missing"]) == {phantom["code"]}
    stale = t.post(f"/api/games/{game}/table/accept", {"shown": seen})
    assert stale.status_code == 409 and stale.json["reason_code"] == "view_changed"
    assert stale.json["error"] and state(t)["players"][0]["score"] == 4
    fixed = t.post(f"/api/games/{game}/table/accept", {"shown": now["key"]}).json
    assert fixed["players"][0]["score"] == 3 and fixed["camera_board"]["agrees"]
    assert cells(fixed["pending"]["tiles"]) == shape(MOVE_2)
    assert confirm(t, game)["players"][1]["score"] == 3


def test_an_ended_game_takes_no_more_moves(table, stills):
    t, camera = table
    game = play_move_one(t, camera, stills)
    t.post(f"/api/games/{game}/finish", {"went_out": None})
    assert state(t)["camera_board"]["agrees"]
    tablet = t.client.get(f"/games/{game}/tablet").data.decode()
    assert "data-reconcile" not in tablet  # no empty card where "the table is right" was
    camera.show(stills[2])
    now = state(t)
    assert now["ended"] and now["pending"] is None and len(now["turns"]) == 1
    # The camera sees a move the ended game does not hold: no card about it on the tablet.
    assert not now["camera_board"]["agrees"]
    assert "data-reconcile" not in t.client.get(f"/games/{game}/tablet").data.decode()


def test_a_game_ended_by_mistake_plays_on_with_every_turn_kept(table, stills):
    t, camera = table
    game = play_move_one(t, camera, stills)
    refused = t.post(f"/api/games/{game}/play-on")
    assert refused.status_code == 409 and refused.json["reason_code"] == "game_not_over"
    t.post(f"/api/games/{game}/finish", {"went_out": None})
    camera.show(stills[2])  # move 2 is laid while the game stands ended
    assert state(t)["pending"] is None
    t.new_game(("Cy", "Di"))  # a careless guest even starts another game
    back = t.post(f"/api/games/{game}/play-on").json
    assert not back["ended"] and back["current_game"] == game and len(back["turns"]) == 1
    assert cells(back["pending"]["tiles"]) == shape(MOVE_2)  # offered once play goes on
    confirm(t, game)
    camera.show(stills[3])
    assert [turn["score"] for turn in confirm(t, game)["turns"]] == [3, 3, 4]


def test_moves_laid_while_a_game_stood_ended_come_after_those_waiting(table, stills):
    """A move waits when the game is ended by mistake; the next is laid meanwhile. Once it
    plays on, the move laid meanwhile comes after the one waiting (offered first, it was
    read against a board without it)."""
    t, camera = table
    game = play_move_one(t, camera, stills)
    camera.show(stills[2])
    assert cells(state(t)["pending"]["tiles"]) == shape(MOVE_2)
    t.post(f"/api/games/{game}/finish", {"went_out": None})
    camera.show(stills[3])
    back = t.post(f"/api/games/{game}/play-on").json
    assert cells(back["pending"]["tiles"]) == shape(MOVE_2)
    after = confirm(t, game)
    assert cells(after["pending"]["tiles"]) == shape(MOVE_3)
    assert [turn["score"] for turn in confirm(t, game)["turns"]] == [3, 3, 4]


def two_turns_laid_while_ended(table, stills) -> tuple[int, dict]:
    """Move 1 confirmed, the game ended by mistake, the next two turns laid, then Play on:
    the game and the state it answers."""
    t, camera = table
    game = play_move_one(t, camera, stills)
    t.post(f"/api/games/{game}/finish", {"went_out": None})
    camera.show(stills[2])
    camera.show(stills[3])
    return game, t.post(f"/api/games/{game}/play-on").json


def test_turns_laid_while_a_game_stood_ended_are_offered_one_by_one(table, stills):
    """Two turns laid while the game stood ended come back, once it plays on, as two moves
    to confirm, not as one heap that no rule allows (which blocked every later move), in the
    order the camera saw them laid (either is legal), as the parts of one reading that may
    change places."""
    t, _ = table
    game, back = two_turns_laid_while_ended(table, stills)
    first = back["pending"]
    assert first["legal"] and back["more_pending"]
    assert cells(first["tiles"]) == shape(MOVE_2)
    assert first["split"] == {"part": 1, "of": 2}
    swapped = t.post(f"/api/games/{game}/pending/swap").json["pending"]
    assert cells(swapped["tiles"]) == shape(MOVE_3)
    first = t.post(f"/api/games/{game}/pending/swap").json["pending"]
    done = confirm(t, game)
    assert done["pending"]["legal"]
    assert cells(first["tiles"]) | cells(done["pending"]["tiles"]) == shape(MOVE_2 + MOVE_3)
    assert sum(turn["score"] for turn in confirm(t, game)["turns"]) == 3 + 3 + 4


def test_turns_laid_while_a_game_stood_ended_come_in_the_order_they_were_laid(
        table, stills_3_before_2):
    """Laid the other way round, the same two turns come back the other way round: the
    camera saw them laid, and split by the rules alone they came as moves 2 then 3 either
    way."""
    t, _ = table
    game, back = two_turns_laid_while_ended(table, stills_3_before_2)
    assert cells(back["pending"]["tiles"]) == shape(MOVE_3)
    assert cells(confirm(t, game)["pending"]["tiles"]) == shape(MOVE_2)
    assert [turn["score"] for turn in confirm(t, game)["turns"]] == [3, 4, 3]


@pytest.fixture(scope="module")
def two_spells():
    """The table empty, with move 1's red circle, then with its square and star too: a turn
    laid in two spells, the table still between them."""
    script = GameScript([[], MOVE_1[:1], MOVE_1],
                        [(tuple(MOVE_1[:1]), 1), (tuple(MOVE_1[1:]), 3)])
    return renders(script=script).stills()


def test_a_turn_laid_in_two_spells_is_offered_as_one_move(table, two_spells):
    """Through the real tracker: the tiles the camera reads while the first spell waits join
    it, flagged; "Two turns" gives back the two moves, scored as two turns."""
    t, camera = table
    game = t.new_game()
    for still in two_spells:
        camera.show(still)
    pending = state(t)["pending"]
    assert cells(pending["tiles"]) == shape(MOVE_1) and state(t)["more_pending"] == 0
    assert "laid_after_pause" in pending["doubt_codes"]
    parted = t.post(f"/api/games/{game}/pending/part").json
    assert cells(parted["pending"]["tiles"]) == shape(MOVE_1[:1]) and parted["more_pending"] == 1
    assert [p["score"] for p in confirm(t, game)["players"]] == [1, 0]
    assert [p["score"] for p in confirm(t, game)["players"]] == [1, 3]


def test_a_recordings_turns_never_join_the_move_waiting(tmp_path, two_spells):
    """A video file is read as fast as it decodes, its turns queuing while the ones before
    wait: the two spells, which could be two players' turns, stay two moves."""
    with served(tmp_path / "games.sqlite3", finite=True) as (t, camera):
        t.new_game()
        for still in two_spells:
            camera.show(still)
        now = state(t)
        assert cells(now["pending"]["tiles"]) == shape(MOVE_1[:1]) and now["more_pending"] == 1
        assert "laid_after_pause" not in now["pending"]["doubt_codes"] and now["joins_next"]


def test_a_tile_confirmed_before_its_player_laid_the_rest_joins_them_after_an_undo(
        table, two_spells):
    """Players in a hurry confirm the first tile while its player reaches for the rest; the
    rest comes as the next player's move. Undo offers the tile again ahead of it, and "One
    turn" makes the two one move: confirmed, it is one turn of 3 points."""
    t, camera = table
    game = t.new_game()
    camera.show(two_spells[0])
    camera.show(two_spells[1])
    confirm(t, game)
    camera.show(two_spells[2])
    assert cells(state(t)["pending"]["tiles"]) == shape(MOVE_1[1:])
    after = t.post(f"/api/games/{game}/undo").json
    assert after["pending"]["reoffered"] and after["joins_next"]
    joined = t.post(f"/api/games/{game}/pending/join").json
    assert cells(joined["pending"]["tiles"]) == shape(MOVE_1) and joined["more_pending"] == 0
    done = confirm(t, game)
    assert [p["score"] for p in done["players"]] == [3, 0] and len(done["turns"]) == 1


def test_a_recording_that_ends_is_not_read_again(tmp_path, stills):
    app = make_app(tmp_path / "games.sqlite3", CAMERA_RETRY_S=0.01)
    t, camera = Table(app), ScriptedCamera()
    loop = attach_live(app, camera, lambda colours: MoveTracker(colours=colours), finite=True)
    t.new_game()
    camera.show(stills[1])
    camera.end()
    deadline = time.monotonic() + 10
    while app.extensions["qwirkle_games"].camera["state"] != "ended":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    time.sleep(0.3)
    loop.stop(timeout=1.0)
    assert camera.opened == 1
    assert cells(state(t)["pending"]["tiles"]) == shape(MOVE_1)


def test_a_camera_outage_keeps_the_waiting_move(table, stills):
    t, camera = table
    game = t.new_game()
    camera.show(stills[0])
    camera.show(stills[1])
    camera.unplug()
    deadline = time.monotonic() + 10
    while camera.opened < 2:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    camera.show(stills[1])  # back, the same table: nothing new
    now = state(t)
    assert cells(now["pending"]["tiles"]) == shape(MOVE_1) and now["more_pending"] == 0
    confirm(t, game)
    camera.show(stills[2])
    assert confirm(t, game)["players"][1]["score"] == 3


@pytest.fixture
def video(tmp_path, stills):
    """The three moves as a short clip with hands."""
    from replay_scenes import QUIET

    from vision.synth.footage import video_frames, write_video

    path = tmp_path / "clip.mp4"
    write_video(video_frames(stills, QUIET, 7), path, QUIET.fps)
    return path


@pytest.fixture
def servers(tmp_path):
    from webui_support import Servers

    started = Servers(tmp_path / "games.sqlite3")
    yield started
    started.close()


def watch_to_the_end(server) -> dict:
    deadline = time.monotonic() + 120
    while server.api("GET", "/api/camera")["state"] != "ended":
        assert time.monotonic() < deadline, server.log.read_text()
        time.sleep(0.2)
    return server.api("GET", "/api/state")


def test_serve_with_a_video_undo_keeps_every_move(servers, video):
    """`qwirkle serve --camera clip.mp4`: three moves seen, two confirmed, the second undone
    while its tiles stay on the table; it comes back first and the game ends as played."""
    server = servers.start(str(video))
    game = server.api("POST", "/api/games", {"players": ["Ann", "Bob"]})["id"]
    now = watch_to_the_end(server)
    assert now["more_pending"] == 2, now
    for _ in range(2):
        server.api("POST", f"/api/games/{game}/pending/confirm")
    undone = server.api("POST", f"/api/games/{game}/undo")
    assert cells(undone["pending"]["tiles"]) == shape(MOVE_2)
    assert undone["more_pending"] == 1
    for _ in range(2):
        done = server.api("POST", f"/api/games/{game}/pending/confirm")
    assert [turn["score"] for turn in done["turns"]] == [3, 3, 4]
    assert done["pending"] is None
    assert server.api("GET", "/api/camera")["state"] == "ended"  # read once, not again


def test_a_video_waits_for_the_players_game_before_it_is_read(servers, video):
    """Players take a while to set up their game; the clip must not be read meanwhile, or
    all its moves lie on the table when the game begins and come as one illegal first
    move. Until a game is in play the camera says it is ready, on every page."""
    server = servers.start(str(video))
    deadline = time.monotonic() + 60
    while server.api("GET", "/api/camera")["state"] != "ready":
        assert time.monotonic() < deadline, server.log.read_text()
        time.sleep(0.1)
    time.sleep(3.0)  # far longer than reading the clip takes
    assert server.api("GET", "/api/camera")["state"] == "ready"
    with urllib.request.urlopen(f"{server.base}/setup", timeout=10) as page:
        assert "the recording plays once a game starts" in page.read().decode()
    game = server.api("POST", "/api/games", {"players": ["Ann", "Bob"]})["id"]
    now = watch_to_the_end(server)
    assert cells(now["pending"]["tiles"]) == shape(MOVE_1) and now["more_pending"] == 2
    scores = [server.api("POST", f"/api/games/{game}/pending/confirm")["turns"][-1]["score"]
              for _ in range(3)]
    assert scores == [3, 3, 4]


def test_pending_moves_are_rebuilt_from_the_camera_after_kill_9(servers, video):
    """Moves waiting for confirmation are not logged: after a crash the camera reads them
    again from the table against the confirmed board. Tiles set aside are logged, and stay
    aside though the video, read again from its start, shows them missing at first."""
    server = servers.start(str(video))
    game = server.api("POST", "/api/games", {"players": ["Ann", "Bob"]})["id"]
    assert watch_to_the_end(server)["more_pending"] == 2
    server.api("POST", f"/api/games/{game}/pending/confirm")
    server.kill()
    again = watch_to_the_end(servers.start(str(video)))
    assert len(again["turns"]) == 1
    assert cells(again["pending"]["tiles"]) == shape(MOVE_2) and again["more_pending"] == 1
    servers.started[-1].api("POST", f"/api/games/{game}/pending/dismiss")
    servers.started[-1].kill()
    third = watch_to_the_end(servers.start(str(video)))
    assert cells(third["ignored"]) == shape(MOVE_2)
    assert cells(third["pending"]["tiles"]) == shape(MOVE_3) and third["more_pending"] == 0


@pytest.mark.parametrize(("laid", "legal"), [((1, 1, "blue", "circle"), True),
                                             ((0, 2, "green", "star"), False)])
def test_a_move_against_tiles_set_aside_says_to_take_them_back(tmp_path, laid, legal):
    """A real move called "Not a move" (a blue star under the red one), then the next laid
    against it. Read without the star, a blue circle scores 2, not 4, and a green star
    under it touches nothing the game holds: each card says the move lies against tiles set aside
    and that taking them back is the way on. Taken back, the star comes first."""
    t, game = _blue_star_set_aside(tmp_path, laid)
    shown = state(t)["pending"]
    assert shown["legal"] is legal and shown["beside_aside"] == [[0, 1]]
    card = t.client.get(f"/games/{game}/part/pending?view=tablet").data.decode()
    assert "data-beside-aside" in card and "take them back" in card
    tv = t.client.get(f"/games/{game}/part/pending?view=table").data.decode()
    assert "data-beside-aside" not in tv  # the TV shows neither the tiles set aside nor the way
    back = t.post(f"/api/games/{game}/ignored/restore").json
    assert cells(back["pending"]["tiles"]) == {"BSt"} and back["pending"]["beside_aside"] == []
    assert [turn["score"] for turn in confirm(t, game)["turns"]] == [2, 2]
    assert confirm(t, game)["turns"][-1]["score"] == (4 if legal else 3)


def test_a_move_clear_of_the_tiles_set_aside_says_nothing_of_them(tmp_path):
    t, game = _blue_star_set_aside(tmp_path, (2, 0, "red", "square"))
    assert state(t)["pending"]["beside_aside"] == []
    card = t.client.get(f"/games/{game}/part/pending?view=tablet").data.decode()
    assert "data-beside-aside" not in card


def _blue_star_set_aside(tmp_path, laid: tuple[int, int, str, str]) -> tuple[Table, int]:
    """A red star and a red circle confirmed, a blue star under the star called "Not a
    move", and the tile ``laid`` (x, y, colour, shape) seen next."""
    app = make_app(tmp_path / "games.sqlite3")
    t = Table(app)
    game = t.new_game()
    games = app.extensions["qwirkle_games"]
    games.detected([(0, 0, Tile("red", "star")), (1, 0, Tile("red", "circle"))], False, [], [])
    confirm(t, game)
    games.detected([(0, 1, Tile("blue", "star"))], False, [], [])
    t.post(f"/api/games/{game}/pending/dismiss")
    x, y, colour, kind = laid
    games.detected([(x, y, Tile(colour, kind))], False, [], [])
    return t, game


def test_a_waiting_move_is_read_again_against_the_fixed_board(tmp_path):
    """The camera read move 2 against move 1 as it saw it; players fix move 1's colour, and
    move 2 is read again with the classifier's runner-up label, flagged."""
    from engine.tiles import Tile

    app = make_app(tmp_path / "games.sqlite3")
    t = Table(app)
    game = t.new_game()
    games = app.extensions["qwirkle_games"]
    red, orange = "red", "orange"
    first = [(0, 0, Tile(red, "circle")), (1, 0, Tile(red, "square"))]
    games.detected(first, False, "", [[Tile(orange, "circle")], [Tile(orange, "square")]])
    games.detected([(2, 0, Tile(red, "star"))], False, "", [[Tile(orange, "star")]])
    # one line, one colour: taken for a turn laid in two spells until players part it
    assert t.post(f"/api/games/{game}/pending/part").status_code == 200
    fixed = [{"x": x, "y": 0, "colour": orange, "shape": tile.shape} for x, _, tile in first]
    t.post(f"/api/games/{game}/pending", {"tiles": fixed})
    shown = confirm(t, game)["pending"]
    assert shown["legal"] and shown["needs_confirmation"]
    assert [(p["colour"], p["shape"]) for p in shown["tiles"]] == [(orange, "star")]
    assert confirm(t, game)["players"][1]["score"] == 3


def test_a_waiting_moves_legal_only_as_follows_the_labels_it_is_read_again_with(tmp_path):
    """The camera read move 2's tile as a red circle, legal only as a red star; players fix
    move 1's colour, and move 2 is read again as an orange star. The card says "read as red
    circle, legal only as orange star", not "red star" beside an orange star (a helper's
    edit of a confirmed turn left such a word on the card)."""
    from engine.tiles import Tile
    from vision.doubts import Doubt, DoubtKind

    app = make_app(tmp_path / "games.sqlite3")
    t = Table(app)
    game = t.new_game()
    games = app.extensions["qwirkle_games"]
    first = [(0, 0, Tile("red", "circle")), (1, 0, Tile("red", "square"))]
    games.detected(first, False, [], [[Tile("orange", "circle")], [Tile("orange", "square")]])
    read_as = Doubt(DoubtKind.ONLY_LEGAL_AS, cell=(2, 0), tile=Tile("red", "circle"),
                    other=Tile("red", "star"))
    games.detected([(2, 0, Tile("red", "star"))], True, [read_as], [[Tile("orange", "star")]])
    assert t.post(f"/api/games/{game}/pending/part").status_code == 200  # the next player's
    fixed = [{"x": x, "y": 0, "colour": "orange", "shape": tile.shape} for x, _, tile in first]
    t.post(f"/api/games/{game}/pending", {"tiles": fixed})
    shown = confirm(t, game)["pending"]
    assert [(p["colour"], p["shape"]) for p in shown["tiles"]] == [("orange", "star")]
    assert shown["doubt_codes"] == ["only_legal_as"]
    assert "orange star" in shown["doubt"] and "red star" not in shown["doubt"]


def _scans_missing(monkeypatch) -> set[str]:
    """Tile codes the scan is made to miss from now on (the set returned; empty at first): a
    dark purple tile on a dark table drops out of one scan in a few."""
    from dataclasses import replace

    import vision.reader

    scan = vision.reader.scan_image
    missed: set[str] = set()

    def missing(image, **kw):
        found = scan(image, **kw)
        return replace(found, tiles=tuple(r for r in found.tiles
                                          if r.guess.tile.code not in missed))

    monkeypatch.setattr(vision.reader, "scan_image", missing)
    return missed


def test_an_undone_move_the_scan_misses_a_tile_of_is_offered_whole(table, stills, monkeypatch):
    """Move 2 confirmed; the scan of the next picture (move 3 laid) misses one of its tiles,
    whose cell looks as before. Undo offers move 2 again with both tiles: the camera's view
    keeps a tile missed but still there (a served game's undo offered a purple tile's move
    without it, and the tile was lost)."""
    missed = _scans_missing(monkeypatch)
    t, camera = table
    game = play_to_move_two(t, camera, stills)
    missed.add(MOVE_2[1][2].code)
    camera.show(stills[3])
    assert cells(state(t)["pending"]["tiles"]) == shape(MOVE_3)
    undone = t.post(f"/api/games/{game}/undo").json
    assert cells(undone["pending"]["tiles"]) == shape(MOVE_2)
    confirm(t, game)
    done = confirm(t, game)
    assert [turn["score"] for turn in done["turns"]] == [3, 3, 4]


def test_a_waiting_move_the_scan_misses_once_is_not_taken_for_taken_back(table, stills,
                                                                          monkeypatch):
    """Players a few moves behind the camera: move 2 waits while move 3 is laid, and the scan
    of that picture misses move 2's tiles (dark purple tiles on a dark table drop out of one
    scan in a few). Their cells look as they did, so they are still there: move 2 stays
    waiting, ahead of move 3. It was withdrawn as taken back, and a served game lost 12 tiles
    so."""
    missed = _scans_missing(monkeypatch)
    t, camera = table
    game = play_move_one(t, camera, stills)
    camera.show(stills[2])
    assert cells(state(t)["pending"]["tiles"]) == shape(MOVE_2)
    missed.update(shape(MOVE_2))
    camera.show(stills[3])
    now = state(t)
    assert cells(now["pending"]["tiles"]) == shape(MOVE_2) and now["more_pending"] == 1
    confirm(t, game)
    done = confirm(t, game)
    assert [turn["score"] for turn in done["turns"]] == [3, 3, 4]


def test_a_tile_removed_then_added_back_by_hand_is_no_longer_set_aside(table, stills):
    """A careless fix and its repair: Remove sets the tile aside (the camera sees it); adding
    it back with + takes it out of the tiles set aside, so "take them back" cannot put it in
    the move twice. A tile added by hand where the camera sees none, removed again, was never
    on the table: it is not set aside."""
    t, camera = table
    game = play_move_one(t, camera, stills)
    camera.show(stills[2])
    shown = state(t)["pending"]
    whole = [{k: tile[k] for k in ("x", "y", "colour", "shape")} for tile in shown["tiles"]]
    fixed = t.post(f"/api/games/{game}/pending", {"tiles": whole[:1], "shown": shown["key"]}).json
    assert len(fixed["ignored"]) == 1
    x, y = whole[1]["x"], whole[1]["y"]
    wrong = {"x": x + 5, "y": y + 5, "colour": "green", "shape": "star"}
    fixed = t.post(f"/api/games/{game}/pending",
                   {"tiles": [*whole, wrong], "shown": fixed["pending"]["key"]}).json
    assert fixed["ignored"] == []
    fixed = t.post(f"/api/games/{game}/pending",
                   {"tiles": whole, "shown": fixed["pending"]["key"]}).json
    assert fixed["ignored"] == [] and fixed["pending"]["score"] == 3
    assert confirm(t, game)["players"][1]["score"] == 3


def test_a_move_entered_by_hand_is_refused_once_the_camera_s_move_came_in(table, stills):
    """A tablet that showed no move waiting enters one by hand ("shown": ""), but the camera's
    move came in meanwhile: refused, not put in place of the camera's move unseen."""
    t, camera = table
    game = play_move_one(t, camera, stills)
    near = t.client.get("/api/state").json["board"][0]
    by_hand = {"tiles": [{"x": near["x"], "y": near["y"] + 3, "colour": "red", "shape": "star"}],
               "shown": ""}
    entered = t.post(f"/api/games/{game}/pending", by_hand)  # none waiting: entered
    assert entered.status_code == 200 and cells(entered.json["pending"]["tiles"]) == {"RSt"}
    t.post(f"/api/games/{game}/pending/dismiss")
    camera.show(stills[2])
    refused = t.post(f"/api/games/{game}/pending", by_hand)
    assert refused.status_code == 409 and refused.json["reason_code"] == "pending_changed"
    assert cells(state(t)["pending"]["tiles"]) == shape(MOVE_2) and state(t)["ignored"] == []


def test_a_move_taken_back_and_another_laid_in_one_picture_is_offered_once(table, stills):
    """The waiting move vanishes and a new one appears in the same picture: the withdrawal
    reaches the game first, and the new move, not yet delivered, must not come twice."""
    from vision.synth.footage import GameScript

    swapped = renders(script=GameScript([[], MOVE_1, MOVE_1 + MOVE_3], [])).stills()[2]
    t, camera = table
    game = play_move_one(t, camera, stills)
    camera.show(stills[2])
    assert cells(state(t)["pending"]["tiles"]) == shape(MOVE_2)
    camera.show(swapped)
    now = state(t)
    assert cells(now["pending"]["tiles"]) == shape(MOVE_3) and now["more_pending"] == 0
    assert confirm(t, game)["players"][1]["score"] == 4


def merged_moves_are_split(t: Table, camera: ScriptedCamera, game: int) -> None:
    """After move 1, the camera's next picture holds moves 2 and 3: two moves to confirm."""
    first = state(t)
    assert first["pending"]["split"] == {"part": 1, "of": 2} and first["more_pending"] == 1
    assert first["pending"]["needs_confirmation"]
    seen = [cells(first["pending"]["tiles"])]
    second = confirm(t, game)
    assert second["pending"]["split"] == {"part": 2, "of": 2}
    seen.append(cells(second["pending"]["tiles"]))
    assert sorted(map(sorted, seen)) == sorted([sorted(shape(MOVE_2)), sorted(shape(MOVE_3))])
    done = confirm(t, game)
    assert sorted(turn["score"] for turn in done["turns"]) == [3, 3, 4]
    assert done["pending"] is None


def test_two_merged_moves_are_offered_as_two_turns(table, stills):
    t, camera = table
    game = play_move_one(t, camera, stills)
    camera.show(stills[3])  # moves 2 and 3 with no still picture between them
    merged_moves_are_split(t, camera, game)


def test_moves_made_during_an_outage_are_offered_as_turns(table, stills):
    t, camera = table
    game = play_move_one(t, camera, stills)
    camera.unplug()
    deadline = time.monotonic() + 10
    while camera.opened < 2:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    camera.show(stills[3])  # back after two moves were made
    merged_moves_are_split(t, camera, game)


def test_two_moves_read_from_one_picture_can_change_places(table, stills):
    """Players say the camera's order of two split moves is wrong: one tap swaps them, and
    each is scored for the player who really made it. A move that is no split cannot."""
    t, camera = table
    game = play_move_one(t, camera, stills)
    camera.show(stills[3])
    first = state(t)["pending"]
    swapped = t.post(f"/api/games/{game}/pending/swap").json
    assert swapped["pending"]["split"] == {"part": 1, "of": 2} and swapped["more_pending"] == 1
    assert "Move 1 of 2" in swapped["pending"]["doubt"]  # its doubt follows it
    assert cells(swapped["pending"]["tiles"]) != cells(first["tiles"])
    assert swapped["pending"]["legal"]
    confirm(t, game)
    last = state(t)["pending"]
    assert cells(last["tiles"]) == cells(first["tiles"]) and last["split"] == {"part": 2, "of": 2}
    refused = t.post(f"/api/games/{game}/pending/swap")  # the last part has no next one
    assert refused.status_code == 409 and refused.json["reason_code"] == "not_split"
    done = confirm(t, game)
    assert [cells(turn["tiles"]) for turn in done["turns"][1:]] == [
        cells(swapped["pending"]["tiles"]), cells(first["tiles"])]
    nothing = t.post(f"/api/games/{game}/pending/swap")
    assert nothing.status_code == 409 and nothing.json["reason_code"] == "no_pending_move"


def test_redo_after_undo_takes_the_offered_tiles_back(table, stills):
    t, camera = table
    game = play_to_move_two(t, camera, stills)
    turn = state(t)["turns"][1]
    assert t.post(f"/api/games/{game}/undo").json["pending"]["reoffered"]
    redone = t.post(f"/api/games/{game}/redo",
                    {"index": 1, "turn": {"kind": "place", "tiles": turn["tiles"]},
                     "turns": 1}).json
    assert redone["pending"] is None and [p["score"] for p in redone["players"]] == [3, 3]
    camera.show(stills[3])
    assert confirm(t, game)["players"][0]["score"] == 7


def test_a_tile_players_fixed_is_no_disagreement_even_after_a_restart(tmp_path, stills):
    """Players fix a tile the camera misreads (here it reads yellow, they say green): the
    camera reading yellow there again, at every later look and after a restart, is no
    disagreement, so the card never asks them to undo their own fix, and no later move
    says the tile "now reads" yellow."""
    db = tmp_path / "games.sqlite3"
    with served(db) as (t, camera):
        game = play_move_one(t, camera, stills)
        camera.show(stills[2])
        read = state(t)["pending"]["tiles"]
        fixed = [dict(read[0], colour="green", code="G" + read[0]["code"][1:]), read[1]]
        after = t.post(f"/api/games/{game}/pending", {"tiles": fixed}).json
        assert after["camera_board"]["agrees"] and after["pending"]["legal"]
        assert confirm(t, game)["turns"][1]["tiles"][0]["colour"] == "green"
        camera.show(stills[3])  # the next move comes with no note that the tile "now reads"
        now = state(t)
        assert now["camera_board"]["agrees"] and now["pending"]["doubt_codes"] == []
        assert "The camera and the game disagree" not in t.client.get(
            f"/games/{game}/tablet").data.decode()
    with served(db) as (t, camera):  # a restart: a fresh tracker reads yellow there again
        camera.show(stills[3])
        now = state(t)
        assert now["camera_board"]["agrees"], now["camera_board"]
        assert now["turns"][1]["tiles"][0]["colour"] == "green"
        assert now["pending"]["doubt_codes"] in ([], ["reoffered"]), now["pending"]


def test_an_edited_tile_is_no_disagreement(table, stills):
    """An edit of a confirmed turn says what its tiles are, as a fix does."""
    t, camera = table
    game = play_to_move_two(t, camera, stills)
    tiles = state(t)["turns"][1]["tiles"]
    orange = next(tile for tile in tiles if tile["colour"] == "orange")
    edited = [dict(tile, colour="green") if tile is orange else tile for tile in tiles]
    after = t.put(f"/api/games/{game}/turns/1", {"kind": "place", "tiles": edited}).json
    assert after["camera_board"]["agrees"], after["camera_board"]
    assert "green" in {tile["colour"] for tile in after["turns"][1]["tiles"]}


def test_tiles_set_aside_under_labels_the_camera_forced_raise_no_disagreement(table, stills):
    """The camera may label a move's tile against its reading, to make the move legal; set
    aside ("Not a move"), those tiles are in no game: their labels are nobody's concern,
    neither on the card nor in the next move's note."""
    import dataclasses

    t, camera = table
    game = play_move_one(t, camera, stills)
    camera.show(stills[2])
    games = t.app.extensions["qwirkle_games"]
    move = games.get(game).queue[0]
    forced = tuple((x, y, Tile(tile.colour, "square") if tile.colour == "orange" else tile)
                   for x, y, tile in move.tiles)
    games.get(game).queue[0] = dataclasses.replace(move, tiles=forced)
    dismissed = t.post(f"/api/games/{game}/pending/dismiss").json
    assert "OSq" in cells(dismissed["ignored"])
    assert dismissed["camera_board"]["agrees"], dismissed["camera_board"]
    camera.show(stills[3])
    now = state(t)
    assert now["camera_board"]["agrees"] and "relabelled" not in now["pending"]["doubt_codes"]


SWAPPED = [(0, 1, Tile("blue", "circle")), MOVE_2[1]]
"""Move 2 with its orange circle swapped for a blue one once confirmed."""


@pytest.fixture(scope="module")
def swapped():
    """The stills of move 1 and move 2, then move 2 with a tile swapped on the table, and
    that with move 3 laid too."""
    script = GameScript([[], MOVE_1, MOVE_1 + MOVE_2, MOVE_1 + SWAPPED, MOVE_1 + SWAPPED + MOVE_3],
                        SCRIPT.moves)
    return renders(script=script).stills()


def camera_reads_a_tile_as_another(t: Table, camera: ScriptedCamera, stills) -> tuple[int, dict]:
    """Moves 1 and 2 confirmed as read, then the camera reads one of move 2's tiles as
    another tile that the players said nothing about."""
    game = play_to_move_two(t, camera, stills)
    camera.show(stills[3])
    board = state(t)["camera_board"]
    assert not board["agrees"] and len(board["relabelled"]) == 1
    one = board["relabelled"][0]
    assert (one["colour"], one["shape"]) == ("blue", "circle")
    assert one["held"] == {"colour": "orange", "shape": "circle"}
    return game, board


def test_keep_the_games_tiles_drops_the_waiting_moves_note_about_them(table, swapped):
    """A move laid as the camera first misread a confirmed tile says the tile "now reads"
    otherwise; once players keep the game's tile, the note goes."""
    t, camera = table
    game = play_to_move_two(t, camera, swapped)
    camera.show(swapped[4])
    now = state(t)
    assert "relabelled" in now["pending"]["doubt_codes"] and not now["camera_board"]["agrees"]
    kept = t.post(f"/api/games/{game}/table/keep").json
    assert kept["camera_board"]["agrees"] and "relabelled" not in kept["pending"]["doubt_codes"]
    assert confirm(t, game)["players"][0]["score"] == 7


def test_the_table_is_right_takes_the_cameras_reading_of_a_tile(table, swapped):
    t, camera = table
    game, board = camera_reads_a_tile_as_another(t, camera, swapped)
    # The tablet rings that cell on both boards and shows the game's tile next to the read.
    tablet = t.client.get(f"/games/{game}/tablet").data.decode()
    assert tablet.count('class="mark"') == 2 and 'class="was"' in tablet
    assert len(board["held"]) == len(board["tiles"])
    one = board["relabelled"][0]
    fixed = t.post(f"/api/games/{game}/table/accept", {"cells": [[one["x"], one["y"]]]}).json
    assert {t["code"] for t in fixed["turns"][1]["tiles"]} == shape(SWAPPED)
    assert fixed["camera_board"]["agrees"] and [p["score"] for p in fixed["players"]] == [3, 3]


def test_keep_the_games_tiles_when_the_camera_misreads_one(table, swapped):
    t, camera = table
    game, board = camera_reads_a_tile_as_another(t, camera, swapped)
    stale = t.post(f"/api/games/{game}/table/keep", {"shown": board["key"] + "x"})
    assert stale.status_code == 409 and stale.json["reason_code"] == "view_changed"
    kept = t.post(f"/api/games/{game}/table/keep", {"shown": board["key"]}).json
    assert kept["camera_board"]["agrees"]
    assert {t["code"] for t in kept["turns"][1]["tiles"]} == shape(MOVE_2)
    again = t.post(f"/api/games/{game}/table/keep")
    assert again.status_code == 409 and again.json["reason_code"] == "nothing_disputed"
    t.post(f"/api/games/{game}/table/check")  # the camera looks again: the same misread
    camera.show(swapped[3])
    assert state(t)["camera_board"]["agrees"]
    # "The table is right" leaves the kept tile alone.
    assert t.post(f"/api/games/{game}/table/accept").json["turns"][1] == kept["turns"][1]


def test_keep_a_tile_the_camera_cannot_see(tmp_path, stills):
    """A tile players entered by hand because the camera misses it (here one the camera
    cannot see at all): "Keep the game's tile" says it lies there all the same. The card
    "in the game but not on the table" goes, after a restart too, and "The table is right"
    leaves the tile in the game. It used to stay on the card all game, its main button
    taking the tile out."""
    db = tmp_path / "games.sqlite3"
    with served(db) as (t, camera):
        game, phantom = confirm_a_phantom(t, camera, stills)
        board = state(t)["camera_board"]
        assert [(m["x"], m["y"]) for m in board["missing"]] == [(phantom["x"], phantom["y"])]
        assert "table-keep" in t.client.get(f"/games/{game}/tablet").data.decode()
        kept = t.post(f"/api/games/{game}/table/keep",
                      {"cells": [[phantom["x"], phantom["y"]]], "shown": board["key"]}).json
        assert "camera_board" in kept, kept
        assert kept["camera_board"]["agrees"] and kept["players"][0]["score"] == 4
        again = t.post(f"/api/games/{game}/table/keep")
        assert again.status_code == 409 and again.json["reason_code"] == "nothing_disputed"
        assert t.post(f"/api/games/{game}/table/accept").json["players"][0]["score"] == 4
    with served(db) as (t, camera):  # a restart: the log keeps the players' word
        camera.show(stills[1])
        now = state(t)
        assert now["camera_board"]["agrees"], now["camera_board"]
        assert now["players"][0]["score"] == 4


def test_each_game_learns_its_set_from_the_tiles_players_confirm(table, stills):
    """Every confirmed tile teaches the game's set adapter (kept with the game, so a restart
    keeps it); a new game starts learning afresh."""
    t, camera = table
    game = play_to_move_two(t, camera, stills)
    camera.show(stills[2])  # the camera reads move 2's tiles again, now confirmed
    games = t.app.extensions["qwirkle_games"]
    t.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 1})
    assert games.adapter(game).examples == len(MOVE_1) + len(MOVE_2)
    other = t.new_game(["Cy", "Di"])
    assert games.adapter(other).examples == 0


def test_a_move_entered_by_hand_is_not_taken_back_by_the_camera(table, stills):
    """The camera never saw a move typed in on the tablet, so not seeing it is no take-back."""
    t, camera = table
    game = play_move_one(t, camera, stills)
    typed = [dict(tile, y=tile["y"] + 5) for tile in state(t)["board"]]  # well off the table
    t.post(f"/api/games/{game}/pending", {"tiles": typed[:1]})
    camera.show(stills[2])  # the next picture: move 2 appears, the typed tile does not
    now = state(t)
    assert cells(now["pending"]["tiles"]) == {typed[0]["code"]} and now["more_pending"] == 1


def test_a_game_started_over_tiles_that_players_then_clear_starts_empty(table, stills):
    t, camera = table
    camera.show(stills[2])  # two moves' tiles lie on the table before any game
    game = t.new_game()
    assert state(t)["pending"]["reoffered"]
    camera.show(stills[0])  # the players clear the table instead
    now = state(t)
    assert now["pending"] is None and now["more_pending"] == 0
    camera.show(stills[1])  # and play: the first move is their own
    assert cells(state(t)["pending"]["tiles"]) == shape(MOVE_1)
    assert confirm(t, game)["players"][0]["score"] == 3


def test_tiles_set_aside_then_cleared_away_are_forgotten(table, stills):
    t, camera = table
    camera.show(stills[2])  # two moves' tiles lie on the table before any game
    game = t.new_game()
    # offered as the two turns they split into: both set aside
    assert state(t)["more_pending"] == 1
    t.post(f"/api/games/{game}/pending/dismiss")
    assert len(t.post(f"/api/games/{game}/pending/dismiss").json["ignored"]) == 5
    camera.show(stills[0])  # cleared away
    assert state(t)["ignored"] == []
    camera.show(stills[1])  # the same tiles laid again are a move, not the tiles set aside
    assert cells(state(t)["pending"]["tiles"]) == shape(MOVE_1)
    assert confirm(t, game)["players"][0]["score"] == 3


def test_the_camera_state_names_the_size_of_its_pictures(table, stills):
    """The set-up page warns of a camera whose pictures are too small; the live loop tells
    it their size."""
    t, camera = table
    t.new_game()
    camera.show(stills[0])
    height, width = stills[0].shape[:2]
    assert state(t)["camera"]["size"] == [width, height]
    assert state(t)["camera"]["small"] is (max(width, height) < SMALL_PICTURE)


def test_a_confirmed_real_move_taken_off_the_table_leaves_it_whole(tmp_path, real_data):
    """connect-2's move 8 (an orange, a red and a white clover) is confirmed, then taken back
    off the table: the camera misses all three, not two. The white clover's middle looks
    much like the pale printed square under it, and was held as still there: "the table is
    right" then refused to take the move off the game ("no new tile touches a tile already
    on the table"), and laid again the move came without it. Now the table is right, and
    the move laid again is offered whole and scores as played."""
    import json

    from vision.imagefile import load_image

    folder = real_data / "connect-2"
    truth = json.loads((folder / "game.json").read_text())["moves"]
    with served(tmp_path / "games.sqlite3") as (t, camera):
        game = t.new_game()
        for photo in range(9):
            camera.show(load_image(folder / f"{photo:02d}.jpg"))
            while state(t)["pending"] is not None:
                confirm(t, game)
        assert [turn["score"] for turn in state(t)["turns"]] == [m["score"] for m in truth[:8]]
        camera.show(load_image(folder / "07.jpg"))  # move 8 taken back
        board = state(t)["camera_board"]
        assert len(board["missing"]) == 3 and {t["shape"] for t in board["missing"]} == {"clover"}
        assert t.post(f"/api/games/{game}/table/accept").status_code == 200
        assert len(state(t)["turns"]) == 7
        camera.show(load_image(folder / "08.jpg"))  # and laid again
        assert len(state(t)["pending"]["tiles"]) == 3
        assert confirm(t, game)["turns"][-1]["score"] == truth[7]["score"]
