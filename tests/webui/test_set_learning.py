"""Learning an odd set on the set-up page: the camera's picture of the 36 kinds in a block
becomes the set every new game starts from, kept across restarts; a picture that is not such
a block is refused with its reason and changes nothing."""

from __future__ import annotations

import re
import time

import numpy as np
import pytest
from live_support import ScriptedCamera
from webui_support import Table, make_app

from engine.tiles import COLOURS
from vision.evaluate.sets import calibration_photo, older_style
from vision.setprofile import BlockProblem
from vision.synth.scene import View, random_layout, random_style, render_board
from vision.tracker import MoveTracker
from webui.app import attach_live
from webui.games import PROFILE_SETTING

OLDER = older_style(random_style(np.random.default_rng(703)))


@pytest.fixture
def camera(app):
    camera = ScriptedCamera()
    loop = attach_live(app, camera, lambda colours: MoveTracker(colours=colours))
    yield camera
    loop.stop()


def test_the_block_under_the_camera_teaches_every_new_game_and_is_kept(tmp_path, app, table,
                                                                       camera):
    assert table.client.get("/api/set").get_json() == {"set": None}
    page = table.client.get("/setup").get_data(as_text=True)
    assert page.count('class="tile small"') == 42  # six rows of colours, a purple and a white
    assert "New games read a standard set." in page

    camera.show(calibration_photo(OLDER, COLOURS))
    response = table.post("/api/set", {"colours": list(COLOURS)})
    assert response.status_code == 200, response.get_json()
    learned = response.get_json()
    assert learned["set"] == {"colours": list(COLOURS), "kinds": 36}
    assert 0 <= learned["misread"] <= 36
    assert "the set this table has learned" in table.client.get("/setup").get_data(as_text=True)

    game_id = table.new_game()
    games = app.extensions["qwirkle_games"]
    assert games.adapter(game_id).examples == 36

    # a restart on the same database keeps it
    again = make_app(tmp_path / "games.sqlite3")
    assert again.extensions["qwirkle_games"].profile.adapter.examples == 36
    assert again.test_client().get("/api/set").get_json()["set"]["kinds"] == 36

    # forgetting it: later games read a standard set; the game under way keeps what it has
    assert table.delete("/api/set").get_json() == {"set": None}
    assert games.adapter(game_id).examples == 36
    assert games.adapter(table.new_game()).examples == 0
    assert games.log.setting(PROFILE_SETTING) is None


def test_a_picture_that_is_not_the_block_is_refused_and_changes_nothing(app, table, camera):
    # no picture yet
    response = table.post("/api/set", {"colours": list(COLOURS)})
    assert response.status_code == 409
    assert response.get_json()["reason_code"] == "camera_no_picture"

    for count, problem, said in [(12, BlockProblem.TILE_COUNT, "The camera sees 12 tiles"),
                                 (36, BlockProblem.NOT_A_BLOCK, "not in one 6 × 6 block")]:
        layout = random_layout(np.random.default_rng(1), count, COLOURS)
        camera.show(render_board(layout, np.random.default_rng(5), style=OLDER,
                                 view=View(elevation=85, pitch_px=40)).image)
        response = table.post("/api/set")
        assert response.status_code == 409
        assert response.get_json()["reason_code"] == problem.value
        english = response.get_json()["error"]
        arabic = table.client.post("/api/set", headers={**table.headers, "Accept-Language": "ar"}
                                   ).get_json()["error"]
        assert said in english and arabic != english and not re.search(r"[a-z]{3}", arabic)
    assert table.client.get("/api/set").get_json() == {"set": None}

    # a camera that was lost: its last picture is not what lies on the table now
    camera.show(calibration_photo(OLDER, COLOURS))
    camera.unplug()
    games = app.extensions["qwirkle_games"]
    deadline = time.monotonic() + 30
    while games.camera["state"] != "lost":
        assert time.monotonic() < deadline, "the unplugged camera was never lost"
        time.sleep(0.05)
    response = table.post("/api/set")
    assert response.status_code == 409
    assert response.get_json()["reason_code"] == "camera_no_picture"
    assert table.client.get("/api/set").get_json() == {"set": None}


@pytest.mark.parametrize("payload", [
    {"colours": ["red", "orange", "yellow", "green", "blue"]},
    {"colours": ["red", "orange", "yellow", "green", "blue", "blue"]},
    {"colours": ["red", "orange", "yellow", "green", "blue", "pink"]},
    {"colours": "red"},
    [1, 2],
])
def test_malformed_colours_are_refused_before_the_camera_is_asked(table, payload):
    response = table.post("/api/set", payload)
    assert response.status_code == 400
    assert response.get_json()["error"]


def test_only_a_joined_device_may_teach_or_forget_the_set(app):
    client = app.test_client()
    assert client.post("/api/set", json={}).status_code == 403
    assert client.delete("/api/set").status_code == 403


def test_a_damaged_stored_profile_means_the_standard_set_and_the_games_still_read(tmp_path):
    app = make_app(tmp_path / "games.sqlite3")
    table = Table(app)
    game_id = table.new_game()
    app.extensions["qwirkle_games"].log.set_setting(PROFILE_SETTING, '{"kind": "qwirkle-set')
    again = make_app(tmp_path / "games.sqlite3")
    assert again.extensions["qwirkle_games"].profile is None
    client = again.test_client()
    assert client.get(f"/api/games/{game_id}/state").status_code == 200
    assert client.get("/setup").status_code == 200
