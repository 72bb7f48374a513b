"""The HTML pages render for readers and joined tablets, and errors are pages, never a 500."""

from __future__ import annotations

import pytest
from webui_support import ROW


@pytest.mark.parametrize("view", ["table", "tablet", "sheet"])
def test_views_render_the_game(table, view):
    game = table.new_game(["Ann", "Bob"])
    table.place(game, ROW)
    html = table.client.get(f"/games/{game}/{view}").data.decode()
    assert '<html lang="en" dir="ltr">' in html
    assert "Ann" in html and "Bob" in html
    assert 'name="code"' in html  # the language menu is on every page


def test_tablet_buttons_for_a_joined_tablet_only(app_and_stranger):
    table, stranger, game = app_and_stranger
    table.post(f"/api/games/{game}/pending", {"tiles": ROW})
    joined = table.client.get(f"/games/{game}/tablet").data.decode()
    assert 'data-action="confirm"' in joined
    assert 'data-action="undo"' not in joined  # no turn to undo yet
    table.post(f"/api/games/{game}/pending/confirm")
    joined = table.client.get(f"/games/{game}/tablet").data.decode()
    assert 'data-action="undo"' in joined
    watching = stranger.get(f"/games/{game}/tablet").data.decode()
    assert 'data-action="confirm"' not in watching and "data-join" in watching


def test_pin_and_qr_only_for_the_host_or_a_joined_device(app_and_stranger):
    table, stranger, game = app_and_stranger
    pin = table.app.extensions["qwirkle_keys"].pin
    assert pin in table.client.get(f"/games/{game}/table").data.decode()
    html = stranger.get(f"/games/{game}/table").data.decode()
    assert pin not in html and "<svg" in html


def test_a_device_can_join_on_the_setup_page_before_any_game(table):
    """With no game yet, the tablet page leads to the set-up page: the PIN is entered there,
    or a tablet could never start the first game (the set-up page sent it to the tablet page
    for the PIN, which sent it back)."""
    stranger = table.app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "192.168.1.77"
    assert stranger.get("/tablet").headers["Location"].endswith("/setup")
    page = stranger.get("/setup").data.decode()
    assert "data-join" in page and "enter the table's PIN here" in page
    start = '<button type="submit" class="big primary" disabled>'
    assert start in page
    pin = table.app.extensions["qwirkle_keys"].pin
    assert stranger.post("/api/join", json={"pin": pin}).status_code == 200
    page = stranger.get("/setup").data.decode()
    assert "data-join" not in page and start not in page


@pytest.fixture
def app_and_stranger(table):
    game = table.new_game()
    stranger = table.app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "192.168.1.77"
    return table, stranger, game


def test_score_sheet_parts(table):
    game = table.new_game()
    table.place(game, ROW)
    sheet = table.client.get(f"/games/{game}/part/sheet").data.decode()
    assert '<td data-total="0">3</td>' in sheet and "<polyline" in sheet
    tracker = table.client.get(f"/games/{game}/part/tracker").data.decode()
    assert "93 tiles in the bag" in tracker  # 108 - 3 placed - 2 hands of 6


def test_archive_and_setup(table):
    game = table.new_game(["Ann", "Bob"])
    archive = table.client.get("/games").data.decode()
    assert f"/api/games/{game}/export.csv" in archive
    assert "data-camera-part" in table.client.get("/setup").data.decode()
    table.app.extensions["qwirkle_games"].set_camera("lost", "camera 0 is unplugged")
    assert "camera 0 is unplugged" in table.client.get("/part/camera").data.decode()


def test_the_camera_check_warns_of_a_picture_too_small_to_read(table):
    """A webcam left at 640 x 480 gives tiles too small to read: the set-up page says so
    before the first move, and names the size; a full-HD camera gets no such word."""
    games = table.app.extensions["qwirkle_games"]
    games.set_camera("live", size=(640, 480))
    assert table.client.get("/api/camera").json["size"] == [640, 480]
    assert "only 640 × 480 pixels" in table.client.get("/part/camera").data.decode()
    games.set_camera("live", size=(1920, 1080))
    assert table.client.get("/api/camera").json["small"] is False
    assert "pixels" not in table.client.get("/part/camera").data.decode()


def test_the_archive_offers_resume_only_for_games_away_from_the_table(table):
    """The game at the table needs no bringing back: the archive says it is there (with the
    way to its tablet), and offers Resume for the unfinished game that is not."""
    older = table.new_game(["Ann", "Bob"])
    table.place(older, ROW)
    at_table = table.new_game(["Cy", "Di"])
    table.place(at_table, ROW)
    archive = table.client.get("/games").data.decode()
    rows = {game: archive.split(f'data-game-row="{game}"')[1].split("</li>")[0]
            for game in (older, at_table)}
    assert "Resume" not in rows[at_table]
    assert "At the table now." in rows[at_table]
    assert f'href="/games/{at_table}/tablet"' in rows[at_table]
    assert "Resume" in rows[older] and "At the table now." not in rows[older]


def test_the_menu_leads_back_to_the_game_at_the_table_from_every_page(table):
    """A player who opened "New game" (or the archive) by mistake finds the way back."""
    menu = '<a href="/tablet">'
    assert menu not in table.client.get("/setup").data.decode()  # no game yet
    game = table.new_game(["Ann", "Bob"])
    for path in ("/setup", "/games", "/players", "/scoring"):
        assert menu in table.client.get(path).data.decode(), path
    assert table.client.get("/tablet").headers["Location"].endswith(f"/games/{game}/tablet")


@pytest.mark.parametrize("path", ["/games/7/table", "/games/1/nowhere", "/games/1/part/x",
                                  "/lang?code=xx"])
def test_missing_pages_are_404_pages(table, path):
    table.new_game()
    response = table.client.get(path)
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_language_choice_is_remembered_and_stays_on_this_site(table):
    response = table.client.get("/lang?code=en&next=/games")
    assert response.status_code == 302 and response.headers["Location"] == "/games"
    assert "qwirkle_lang=en" in response.headers["Set-Cookie"]
    assert table.client.get("/lang?code=en&next=//evil.example").headers["Location"] == "/"


def test_the_host_laptop_joins_by_itself(table):
    keys = table.app.extensions["qwirkle_keys"]
    local = table.app.test_client()
    assert f"qwirkle_table={keys.token}" in local.get("/setup").headers["Set-Cookie"]
    remote = table.app.test_client()
    remote.environ_base["REMOTE_ADDR"] = "192.168.1.77"
    assert "Set-Cookie" not in remote.get("/setup").headers
    # Only loopback asking for a loopback name is the host: not the laptop's LAN address (any
    # device could claim it), nor a loopback connection for another name (a DNS trick).
    table.app.config["HOST_ADDRESSES"] = ("192.168.1.77",)
    table.app.config["TRUSTED_HOSTS"].append("192.168.1.77")
    assert "Set-Cookie" not in remote.get("/setup").headers
    rebound = table.app.test_client().get("/setup", headers={"Host": "192.168.1.77:8000"})
    assert rebound.status_code == 200 and "Set-Cookie" not in rebound.headers
    # The cookie alone changes nothing: a change also needs the page's CSRF header.
    assert local.post("/api/games", json={"players": ["A", "B"]}).status_code == 403


def test_player_names_are_escaped(table):
    game = table.new_game(["<script>x()</script>", "Bob"])
    for view in ("table", "tablet", "sheet"):
        html = table.client.get(f"/games/{game}/{view}").data.decode()
        assert "<script>x()" not in html and "&lt;script&gt;x()" in html
