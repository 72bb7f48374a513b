"""The table app in a real browser (Debian's chromium through Playwright): two devices on one
game, moves confirmed and fixed on the tablet and seen on the table view, and a server killed
with SIGKILL that comes back with everything."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from webui_support import CHROMIUM, LAN_NAME, ROW, Servers

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "table.png"
"""The table view with the demo's camera running (the tablet's screenshots come from
test_browser_layout.py)."""

SCRIPT_ERRORS: list[str] = []
"""Uncaught errors in the pages' script, checked at the end of each test."""

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="Debian's chromium is not installed (apt-get install chromium)"),
]


@pytest.fixture
def servers(tmp_path):
    pool = Servers(tmp_path / "games.sqlite3")
    yield pool.start
    pool.close()


def devices(browser, server, set_up: bool = True):
    """A tablet that joined through the QR link (and set up a game, unless one is running),
    and a table view."""
    tablet = browser.new_context(viewport={"width": 820, "height": 1180}, has_touch=True)
    tablet_page = tablet.new_page()
    tablet_page.on("pageerror", lambda error: SCRIPT_ERRORS.append(str(error)))
    tablet_page.goto(f"{server.base}/join?t={server.token}")
    if set_up:
        tablet_page.wait_for_url("**/setup")
        tablet_page.fill("input[name=player] >> nth=0", "Ann")
        tablet_page.fill("input[name=player] >> nth=1", "Bob")
        tablet_page.click("[data-setup] button[type=submit]")
    tablet_page.wait_for_url("**/games/*/tablet")
    table_page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    table_page.on("pageerror", lambda error: SCRIPT_ERRORS.append(str(error)))
    table_page.goto(f"{server.base}/table")
    table_page.wait_for_url("**/games/*/table")
    return tablet_page, table_page


def total(page, seat: int):
    return page.locator(f"[data-total='{seat}']")


def test_fix_confirm_undo_and_survive_sigkill(browser, servers):
    from playwright.sync_api import expect

    server = servers("none")
    tablet, table = devices(browser, server)
    game = int(tablet.get_attribute("body", "data-game"))

    # The camera misread the third tile as blue: the card says why Confirm is off.
    misread = ROW[:2] + [dict(ROW[2], colour="blue")]
    server.api("POST", f"/api/games/{game}/pending", {"tiles": misread})
    confirm = tablet.locator("[data-action=confirm]")
    expect(confirm).to_be_disabled()
    expect(tablet.locator(".pending .reason")).to_be_visible()
    # ... above the board's picture: below a late game's board, the sticky action bar hid it
    # on a tablet held landscape
    reason = tablet.locator(".pending .reason").bounding_box()
    picture = tablet.locator(".pending svg").first.bounding_box()
    assert reason["y"] + reason["height"] <= picture["y"]

    # Fix: tap the tile, pick its colour, use it.
    tablet.locator("[data-pending-tiles] [data-fix='2']").click()
    tablet.locator("#fix-dialog button[data-pick-colour='red']").click()
    tablet.locator("#fix-dialog button[data-fix-use]").click()
    expect(confirm).to_be_enabled()
    expect(tablet.locator(".pending .score .points")).to_have_text("3")
    confirm.click()
    expect(tablet.locator(".turns li")).to_have_count(1)
    expect(total(table, 0)).to_have_text("3")  # on the other device, through the stream

    # Bob's move: confirm it, then undo it.
    server.api("POST", f"/api/games/{game}/pending",
               {"tiles": [{"x": 3, "y": 0, "colour": "red", "shape": "square"}]})
    expect(confirm).to_be_enabled()
    confirm.click()
    expect(total(table, 1)).to_have_text("4")
    tablet.click("[data-action=undo]")
    tablet.click("#ask-dialog [data-ask-yes]")  # asked on the page, not by the browser
    expect(total(table, 1)).to_have_text("0")
    expect(tablet.locator(".turns li")).to_have_count(1)

    # An exchange for Bob, then the server dies without warning.
    tablet.click("[data-open=exchange-dialog]")
    tablet.click("#exchange-dialog [data-count='2']")
    expect(tablet.locator(".turns li")).to_have_count(2)
    server.kill()
    expect(tablet.locator("#offline")).to_be_visible()

    again = servers("none", server.db)
    # A new join link (only token hashes are stored); tablets that joined stay joined.
    assert again.token != server.token
    tablet.goto(f"{again.base}/games/{game}/tablet")
    table.goto(f"{again.base}/games/{game}/table")
    expect(total(tablet, 0)).to_have_text("3")
    expect(tablet.locator(".turns li")).to_have_count(2)
    expect(total(table, 0)).to_have_text("3")
    # Still joined after the restart: undo the exchange; the table view follows live.
    tablet.click("[data-action=undo]")
    tablet.click("#ask-dialog [data-ask-yes]")
    expect(tablet.locator(".turns li")).to_have_count(1)
    expect(table.locator(".whose")).to_have_text("Bob")

    # Edit a past turn: Ann's clover was a diamond.
    tablet.click("[data-action=edit][data-index='0']")
    tablet.click("#edit-dialog [data-edit-fix='2']")
    tablet.click("#fix-dialog button[data-pick-shape='diamond']")
    tablet.click("#fix-dialog button[data-fix-use]")
    tablet.click("#edit-dialog [data-action=save-edit]")
    expect(tablet.locator(".turns li [aria-label='red diamond']")).to_have_count(1)
    expect(total(table, 0)).to_have_text("3")

    # End the game: nobody can play; both devices show the final standings.
    tablet.click("[data-open=end-dialog]")
    tablet.click("#end-dialog [data-action=finish][data-went-out='']")
    expect(table.locator("[data-winner] .standings tbody tr")).to_have_count(2)
    expect(tablet.locator("[data-winner] .standings tbody tr").first).to_contain_text("Ann")
    expect(table.locator("[data-action=play-on]")).to_have_count(0)  # the tablet's to offer

    # It was ended by mistake: play on, with every turn kept and Bob to play.
    tablet.click("[data-action=play-on]")
    tablet.click("#ask-dialog [data-ask-yes]")
    expect(table.locator(".whose")).to_have_text("Bob")
    expect(tablet.locator(".turns li")).to_have_count(1)
    expect(tablet.locator("[data-open=end-dialog]")).to_be_visible()
    assert SCRIPT_ERRORS == []


def test_a_tile_the_camera_missed_is_added_on_the_tablet(browser, servers):
    """The camera read two tiles of a three-tile move (a dark purple on a dark table can drop
    out): a + beside the tiles adds the third, and the move scores all three. With no move
    waiting at all, the same + enters one by hand. A double tap on "Start the game" starts
    one game."""
    from playwright.sync_api import expect

    server = servers("none")
    tablet = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    tablet.on("pageerror", lambda error: SCRIPT_ERRORS.append(str(error)))
    tablet.goto(f"{server.base}/join?t={server.token}")
    tablet.wait_for_url("**/setup")
    tablet.fill("input[name=player] >> nth=0", "Ann")
    tablet.fill("input[name=player] >> nth=1", "Bob")
    tablet.dblclick("[data-setup] button[type=submit]")
    tablet.wait_for_url("**/games/*/tablet")
    assert len(server.api("GET", "/api/games")) == 1
    game = int(tablet.get_attribute("body", "data-game"))

    server.api("POST", f"/api/games/{game}/pending", {"tiles": ROW[:2]})
    expect(tablet.locator(".pending .score .points")).to_have_text("2")
    third = ROW[2]
    tablet.locator(f".pending [data-add='{third['x']},{third['y']}']").click()
    use = tablet.locator("#fix-dialog button[data-fix-use]")
    expect(use).to_be_disabled()  # no tile is added before its colour and shape are picked
    expect(tablet.locator("#fix-dialog [data-remove]")).to_be_hidden()
    tablet.click(f"#fix-dialog button[data-pick-colour='{third['colour']}']")
    tablet.click(f"#fix-dialog button[data-pick-shape='{third['shape']}']")
    use.click()
    expect(tablet.locator(".pending .score .points")).to_have_text("3")
    tablet.click("[data-action=confirm]")
    expect(tablet.locator(".turns li")).to_have_count(1)

    # Bob's move was never seen: entered by hand, beside Ann's line (with no camera, the
    # board to enter it on is open at once)
    tablet.locator(f".by-hand [data-add='{third['x'] + 1},{third['y']}']").click()
    tablet.click(f"#fix-dialog button[data-pick-colour='{third['colour']}']")
    tablet.click("#fix-dialog button[data-pick-shape='diamond']")
    tablet.click("#fix-dialog button[data-fix-use]")
    expect(tablet.locator(".pending .score .points")).to_have_text("4")
    tablet.click("[data-action=confirm]")
    expect(tablet.locator(".turns li")).to_have_count(2)
    assert [t["score"] for t in server.api("GET", "/api/state")["turns"]] == [3, 4]
    assert SCRIPT_ERRORS == []


def test_demo_move_is_confirmed_on_the_tablet_and_scored_on_the_table(browser, servers):
    from playwright.sync_api import expect

    from vision.classifier import MODEL_PATH

    if not MODEL_PATH.is_file():
        pytest.skip(f"the demo cannot read tiles without the classifier model {MODEL_PATH}")
    server = servers("demo")
    # The demo starts its own game as it opens: the new user's first sight.
    deadline = time.monotonic() + 20
    while server.api("GET", "/api/games") == []:
        assert time.monotonic() < deadline, "the demo started no game"
        time.sleep(0.2)
    tablet, table = devices(browser, server, set_up=False)
    # The demo's first move comes through the real tracker to the tablet.
    confirm = tablet.locator("[data-action=confirm]:enabled")
    expect(confirm).to_be_visible(timeout=60_000)
    confirm.click()
    expect(tablet.locator(".turns li")).to_have_count(1)
    score = server.api("GET", "/api/state")["turns"][0]["score"]
    assert score > 0
    expect(total(table, 0)).to_have_text(str(score))
    table.screenshot(path=str(SCREENSHOT))


def test_a_refused_tap_shows_the_game_as_it_is_while_the_stream_is_down(browser, servers):
    """Another device confirmed the move while this tablet's live stream was down: its tap
    on Confirm is refused (409), and it then shows the game as it now stands."""
    from playwright.sync_api import expect

    server = servers("none")
    tablet, _ = devices(browser, server)
    game = server.api("GET", "/api/state")["id"]
    server.api("POST", f"/api/games/{game}/pending", {"tiles": ROW})
    tablet.route("**/events**", lambda route: route.abort())
    tablet.reload()
    confirm = tablet.locator("[data-action=confirm]:enabled")
    expect(confirm).to_be_visible()
    server.api("POST", f"/api/games/{game}/pending/confirm")
    confirm.click()
    expect(tablet.locator(".turns li")).to_have_count(1)
    expect(tablet.locator("[data-action=confirm]")).to_have_count(0)
    assert SCRIPT_ERRORS == []


def test_the_setup_page_starts_games_with_the_tables_own_set(browser, servers):
    """A table served for a white set (`serve --colours ...,white`) starts its games with
    white unless players pick purple: the form used to send purple whatever the table's set."""
    white = "red,orange,yellow,green,blue,white"
    server = servers("none", options=("--colours", white))
    tablet, _ = devices(browser, server)
    game = server.api("GET", "/api/state")
    assert game["colours"] == white.split(","), game["colours"]
    tablet.goto(f"{server.base}/setup")
    assert tablet.locator("[data-set-card] tr[data-colour=white]").is_visible()
    assert tablet.locator("[data-set-card] tr[data-colour=purple]").is_hidden()
    tablet.fill("input[name=player] >> nth=0", "Cy")
    tablet.fill("input[name=player] >> nth=1", "Di")
    tablet.check("input[name=colours][value$=purple]")
    assert tablet.locator("[data-set-card] tr[data-colour=purple]").is_visible()
    tablet.click("[data-setup] button[type=submit]")
    tablet.wait_for_url(f"**/games/{game['id'] + 1}/tablet")
    assert server.api("GET", "/api/state")["colours"][5] == "purple"
    assert not SCRIPT_ERRORS, SCRIPT_ERRORS


def test_a_wrong_pin_is_said_by_the_pin_box(browser, servers):
    """A device on the LAN typing a wrong PIN: the refusal used to show at the foot of the
    page, where a phone's keyboard covers it, with the wrong PIN left in the box."""
    from playwright.sync_api import expect

    server = servers("none", options=("--allow-host", LAN_NAME))
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    phone.goto(f"http://{LAN_NAME}:{server.port}/setup")
    form = phone.locator("form[data-join]")
    form.locator("input[name=pin]").fill("000000")
    form.locator("button[type=submit]").click()
    expect(form.locator("[data-join-error]")).to_contain_text("PIN")
    assert form.locator("input[name=pin]").input_value() == ""
    assert phone.locator("[data-setup] button[type=submit]").is_disabled()  # not joined


def test_a_tablet_put_out_by_a_new_pin_gets_the_pin_box_back(browser, servers):
    """Another device asked for a New PIN: a phone's Confirm was refused with "enter the
    PIN" on a page that had no PIN box, until someone thought of reloading it. It now shows
    the PIN box at once, at the top, and with the new PIN the move is confirmed."""
    from playwright.sync_api import expect

    server = servers("none", options=("--allow-host", LAN_NAME))
    game = server.api("POST", "/api/games", {"players": ["Ann", "Bob"]})["id"]
    server.api("POST", f"/api/games/{game}/pending", {"tiles": ROW})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    phone.on("pageerror", lambda error: SCRIPT_ERRORS.append(str(error)))
    phone.goto(f"http://{LAN_NAME}:{server.port}/join?t={server.token}")
    phone.wait_for_url("**/games/*/tablet")
    phone.mouse.wheel(0, 300)
    pin = server.api("POST", "/api/auth/rotate")["pin"]
    phone.click("[data-action=confirm]")
    form = phone.locator("form[data-join]")
    expect(form).to_be_visible()
    assert form.bounding_box()["y"] < 844  # at the top, not scrolled away
    form.locator("input[name=pin]").fill(pin)
    form.locator("button[type=submit]").click()
    phone.click("[data-action=confirm]")
    expect(phone.locator(".turns li")).to_have_count(1)
    assert SCRIPT_ERRORS == []


def test_a_tv_put_out_by_a_new_pin_asks_for_it_where_its_qr_code_was(browser, servers):
    """A TV on the LAN (not the laptop) that joined, then was put out by a New PIN made on
    another device: reloaded, it showed no QR code and no PIN box, so nobody could join from
    it again. It asks for the PIN in its footer, still on one screen, and with the new PIN
    shows the QR code and PIN again."""
    from playwright.sync_api import expect

    server = servers("none", options=("--allow-host", LAN_NAME))
    server.api("POST", "/api/games", {"players": ["Ann", "Bob"]})
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.on("pageerror", lambda error: SCRIPT_ERRORS.append(str(error)))
    tv.goto(f"http://{LAN_NAME}:{server.port}/join?t={server.token}")
    tv.wait_for_url("**/games/*/tablet")
    tv.goto(f"http://{LAN_NAME}:{server.port}/table")
    expect(tv.locator("[data-pin]")).to_be_visible()
    pin = server.api("POST", "/api/auth/rotate")["pin"]
    tv.reload()
    form = tv.locator(".tv-foot form[data-join]")
    expect(form).to_be_visible()
    assert tv.evaluate("document.scrollingElement.scrollHeight") <= 720  # never scrolled
    form.locator("input[name=pin]").fill(pin)
    form.locator("button[type=submit]").click()
    expect(tv.locator(".tv-foot [data-pin]")).to_have_text(pin)
    expect(tv.locator(".tv-foot .qr svg")).to_be_visible()
    assert SCRIPT_ERRORS == []
