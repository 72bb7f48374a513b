"""The undo case played on the tablet page, in a real browser, with the real tracker watching
a scripted camera: the undone move's tiles stay on the table, come back as the move to
confirm, and the game goes on as it was played."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from live_support import ScriptedCamera
from webui_support import CHROMIUM, make_app
from werkzeug.serving import make_server

from vision.tracker import MoveTracker
from webui.app import attach_live

pytestmark = [
    pytest.mark.browser,
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="Debian's chromium is not installed (apt-get install chromium)"),
]


@pytest.fixture
def served(tmp_path):
    """The app with a live loop on a scripted camera, served by werkzeug in a thread."""
    app = make_app(tmp_path / "games.sqlite3", SSE_MAX_S=3.0, CAMERA_RETRY_S=0.05)
    camera = ScriptedCamera()
    loop = attach_live(app, camera, lambda colours: MoveTracker(colours=colours))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield app, camera, f"http://127.0.0.1:{server.port}"
    server.shutdown()
    loop.stop(timeout=1.0)
    camera.end()


def test_undo_on_the_tablet_offers_the_tiles_left_on_the_table(served, open_page):
    from playwright.sync_api import expect
    from replay_scenes import renders

    app, camera, base = served
    stills = renders().stills()
    game = app.extensions["qwirkle_games"].create(("Ann", "Bob"), app.config["COLOURS"]).row.id
    page = open_page("tablet", f"{base}/games/{game}/tablet")  # the laptop: already joined
    confirm = page.locator("[data-action=confirm]")
    camera.show(stills[0])
    for played, picture in enumerate(stills[1:3], 1):
        camera.show(picture)
        expect(confirm).to_be_enabled()
        confirm.click()
        # (Until the page shows the turn, its Confirm is still the one of the move just
        # confirmed: a tap there now is refused, as a double tap is.)
        expect(page.locator(".turns li")).to_have_count(played)
    page.click("[data-action=undo]")
    page.click("#ask-dialog [data-ask-yes]")
    expect(page.locator(".turns li")).to_have_count(1)
    # No new picture: the tiles still on the table are the move to confirm, on their own.
    expect(page.locator(".pending [data-pending-tiles] li")).to_have_count(2)
    expect(confirm).to_be_enabled()
    confirm.click()
    camera.show(stills[3])
    expect(page.locator(".pending [data-pending-tiles] li")).to_have_count(1)
    confirm.click()
    expect(page.locator(".turns li")).to_have_count(3)
    state = page.evaluate("fetch('/api/state').then((r) => r.json())")
    assert [turn["score"] for turn in state["turns"]] == [3, 3, 4]


def test_the_camera_preview_comes_back_after_its_stream_ends(served, open_page):
    app, camera, base = served  # streams end after 3 s here
    game = app.extensions["qwirkle_games"].create(("Ann", "Bob"), app.config["COLOURS"]).row.id
    camera.show(np.zeros((240, 320, 3), np.uint8))
    asked: list[str] = []
    page = open_page("tv", f"{base}/games/{game}/table")
    page.on("request", lambda r: asked.append(r.url) if "camera.mjpeg" in r.url else None)
    page.wait_for_timeout(8000)
    # asked again as each 3-s stream ends, and only then (not once per frame)
    assert 1 <= len(asked) <= 4, asked


def test_a_tv_loaded_while_the_game_stood_ended_plays_the_camera_once_play_goes_on(
        served, open_page):
    """Loaded while the game stood ended, the TV has the camera's picture put away under the
    winner card; "Play on" brings it back playing, as on a TV loaded during play, with no
    reload (it showed nothing until then). Ended again, it is put away again."""
    from playwright.sync_api import expect

    app, camera, base = served
    games = app.extensions["qwirkle_games"]
    game = games.create(("Ann", "Bob"), app.config["COLOURS"]).row.id
    camera.show(np.zeros((240, 320, 3), np.uint8))
    games.act(game, "finish", {"went_out": None})
    page = open_page("tv", f"{base}/games/{game}/table")
    preview = page.locator(".tv img.preview")
    expect(page.locator("[data-winner]")).to_be_visible()
    expect(preview).to_be_hidden()
    games.play_on(game)
    expect(preview).to_be_visible()
    page.wait_for_function("document.querySelector('.tv img.preview').naturalWidth > 0")
    games.act(game, "finish", {"went_out": None})
    expect(preview).to_be_hidden()
    assert preview.get_attribute("src") is None  # its stream is given back


def test_removing_one_tile_from_the_game_asks_first(served, open_page):
    """One tap on a tile's "Remove from the game" took a scored turn out of the game, with no
    question and no Redo: it asks now, as the whole-table button does."""
    from live_support import confirm_a_phantom
    from playwright.sync_api import expect
    from replay_scenes import renders
    from webui_support import Table

    app, camera, base = served
    game, phantom = confirm_a_phantom(Table(app), camera, renders().stills())
    page = open_page("tablet", f"{base}/games/{game}/tablet")
    remove = page.locator(f"[data-action=table-accept][data-x='{phantom['x']}']"
                          f"[data-y='{phantom['y']}']")
    remove.click()
    expect(page.locator("#ask-dialog")).to_contain_text("Tiles that change: 1.")
    page.click("#ask-dialog button[value=no]")
    expect(page.locator("#ask-dialog")).to_be_hidden()
    assert page.evaluate("fetch('/api/state').then((r) => r.json())")[
        "players"][0]["score"] == 4  # nothing was applied
    remove.click()
    page.click("#ask-dialog [data-ask-yes]")
    expect(remove).to_have_count(0)
    state = page.evaluate("fetch('/api/state').then((r) => r.json())")
    assert state["players"][0]["score"] == 3 and state["camera_board"]["agrees"]


def test_the_table_is_right_closes_when_the_camera_sees_something_new(served, open_page):
    """The question "make the game match the camera?" is about the two boards shown: when
    the camera sees a new move while it is open, it closes and says why, and the boards
    shown then are the ones accepted."""
    from live_support import confirm_a_phantom
    from playwright.sync_api import expect
    from replay_scenes import renders
    from webui_support import Table

    app, camera, base = served
    stills = renders().stills()
    game, _ = confirm_a_phantom(Table(app), camera, stills)
    page = open_page("tablet", f"{base}/games/{game}/tablet")
    accept = page.locator("[data-action=table-accept][data-changes]")
    accept.click()
    expect(page.locator("#ask-dialog")).to_be_visible()
    camera.show(stills[2])  # the next move, while the question is open
    expect(page.locator("#ask-dialog")).to_be_hidden()
    expect(page.locator("#toast")).to_contain_text("What the camera sees, or the game, changed")
    expect(page.locator(".pending [data-pending-tiles] li")).to_have_count(2)
    before = page.evaluate("fetch('/api/state').then((r) => r.json())")
    assert before["players"][0]["score"] == 4  # nothing was applied
    accept.click()
    page.click("#ask-dialog [data-ask-yes]")
    expect(page.locator("[data-action=table-accept][data-changes]")).to_have_count(0)
    state = page.evaluate("fetch('/api/state').then((r) => r.json())")
    assert state["players"][0]["score"] == 3 and state["camera_board"]["agrees"]


def test_the_board_games_start_is_confirmed_and_edited_on_the_tablet(served, open_page):
    from playwright.sync_api import expect
    from replay_scenes import board_game

    app, camera, base = served
    stills = board_game().stills()
    game = app.extensions["qwirkle_games"].create(("Ann", "Bob"), app.config["COLOURS"]).row.id
    page = open_page("tablet", f"{base}/games/{game}/tablet")
    camera.show(stills[0])
    confirm = page.locator("[data-action=confirm]")
    expect(confirm).to_have_text("Confirm the start")
    expect(page.locator(".pending [data-pending-tiles] li")).to_have_count(24)
    confirm.click()
    expect(page.locator(".start-row")).to_contain_text("The board game's start: 24 tiles.")
    camera.show(stills[1])
    expect(page.locator(".pending .lines")).to_contain_text("printed bonus squares: 2 points")
    confirm.click()
    expect(page.locator(".turns li")).to_have_count(1)
    page.click("[data-action=edit-start]")
    expect(page.locator("#edit-dialog [data-edit-title]")).to_have_text(
        "Edit the board game's start")
    expect(page.locator("#edit-dialog [data-edit-tiles] li")).to_have_count(24)
    expect(page.locator("#edit-dialog [data-action=edit-pass]")).to_be_hidden()
    page.click("#edit-dialog [data-action=save-edit]")
    expect(page.locator("#edit-dialog")).to_be_hidden()
    state = page.evaluate("fetch('/api/state').then((r) => r.json())")
    assert len(state["start"]) == 24 and [t["score"] for t in state["turns"]] == [6]
