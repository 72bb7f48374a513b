"""Languages in a real browser (Debian's chromium through Playwright), against `qwirkle serve`
without a camera: a tablet switches to Arabic from the menu while a laptop stays in English on the
same game, the Arabic page mirrors and still updates live, and no language overflows a tablet
screen. Leaves a screenshot of the tablet per language in docs/screenshots/ (the README shows
the Arabic one)."""

from __future__ import annotations

from pathlib import Path

import pytest

# The same browser fixture and skip-without-chromium marks as the table app's browser tests.
from test_browser_table import pytestmark  # noqa: F401  (pytest reads it)
from test_i18n_locale import LANGUAGES, translations
from webui_support import LAN_NAME, ROW, Servers

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PORTRAIT = {"width": 800, "height": 1280}
LANDSCAPE = {"width": 1280, "height": 800}


@pytest.fixture
def server(tmp_path):
    """A server with a game running and no camera. With the demo as the camera, its first
    move could arrive while the test put up a move of its own: re-offered ahead of it, and
    illegal on the test's board, it took the waiting card (a loaded CI machine, once)."""
    pool = Servers(tmp_path / "games.sqlite3")
    started = pool.start("none")
    started.api("POST", "/api/games", {"players": ["Ann", "Bob"]})
    yield started
    pool.close()


def choose(page, code: str) -> None:
    """Pick a language from the page's menu, as a player would; the page reloads in it."""
    page.select_option("#language", code)
    page.wait_for_selector(f"html[lang='{code}']")
    page.wait_for_load_state("networkidle")
    page.evaluate("document.fonts.ready")


def overflow(page) -> int:
    """How many pixels the page is wider than the screen (0 when nothing sticks out)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_a_tablet_in_arabic_and_a_laptop_in_english_watch_one_game(browser, server):  # noqa: F811
    from playwright.sync_api import expect

    tablet = browser.new_context(viewport=PORTRAIT, has_touch=True, locale="en-GB").new_page()
    tablet.goto(f"{server.base}/join?t={server.token}")
    tablet.wait_for_url("**/games/*/tablet")
    game = int(tablet.get_attribute("body", "data-game"))
    laptop = browser.new_context(viewport=LANDSCAPE, locale="en-GB").new_page()
    laptop.goto(f"{server.base}/games/{game}/table")

    choose(tablet, "ar")
    assert tablet.get_attribute("html", "dir") == "rtl"
    exchange = tablet.locator("[data-open=exchange-dialog]")
    expect(exchange).to_have_text(translations("ar").gettext("Exchange"))
    assert tablet.url.endswith(f"/games/{game}/tablet")  # the menu came back to the same page
    # The score sheet's columns run right to left: the first seat is the rightmost.
    heads = tablet.locator(".sheet thead th")
    assert heads.nth(1).bounding_box()["x"] > heads.nth(2).bounding_box()["x"]

    # A move played through the API reaches both pages live, each in its own language.
    turn = server.api("POST", f"/api/games/{game}/turns", {"kind": "place", "tiles": ROW})
    seat = turn["turns"][-1]["player"]
    points = str(turn["players"][seat]["total"])
    for page in (tablet, laptop):
        expect(page.locator(f"[data-total='{seat}']")).to_have_text(points)
    assert laptop.get_attribute("html", "lang") == "en"
    assert tablet.get_attribute("html", "lang") == "ar"

    # A move waiting on the card, then every language at tablet size, both ways round.
    server.api("POST", f"/api/games/{game}/pending",
               {"tiles": [{"x": 3, "y": 0, "colour": "red", "shape": "square"}]})
    expect(tablet.locator("[data-action=confirm]")).to_be_visible()
    # its score keeps the sign before the number in Arabic too: "+3", not "3+"
    sign, digit = tablet.evaluate("""() => {
        const text = document.querySelector('.bar-score').firstChild;
        const x = (i) => { const r = document.createRange(); r.setStart(text, i);
                           r.setEnd(text, i + 1); return r.getBoundingClientRect().x; };
        const plus = text.data.indexOf('+');  // after the locale's direction mark, if any
        return [x(plus), x(plus + 1)]; }""")
    assert sign < digit
    SHOTS.mkdir(parents=True, exist_ok=True)
    pages = [f"/games/{game}/tablet", f"/games/{game}/table", "/scoring"]
    for code in LANGUAGES:
        tablet.goto(server.base + pages[0])
        choose(tablet, code)
        expect(tablet.locator("[data-action=confirm]")).to_have_text(
            translations(code).gettext("Confirm"))
        tablet.screenshot(path=str(SHOTS / f"{code}.png"))
        for path in pages:
            tablet.goto(server.base + path)
            for size in (LANDSCAPE, PORTRAIT):
                tablet.set_viewport_size(size)
                assert overflow(tablet) <= 0, f"{path} in {code} at {size} is too wide"


# Where the PIN form's label, box and Join button lie: each [left, top, right, bottom].
JOIN_ROW = """() => {
    const form = document.querySelector('form[data-join]');
    const at = (e) => { const r = e.getBoundingClientRect();
                        return [r.left, r.top, r.right, r.bottom]; };
    const card = form.closest('.join-pin');
    return {
      label: at(form.querySelector('label')), box: at(form.querySelector('input')),
      join: at(form.querySelector('button')), card: at(card),
      sideways: document.scrollingElement.scrollWidth - innerWidth,
    };
}"""


@pytest.fixture
def lan(tmp_path):
    """A server with a game running, reached by a device on the LAN that has not joined."""
    pool = Servers(tmp_path / "lan.sqlite3")
    started = pool.start("none", options=("--allow-host", LAN_NAME))
    started.api("POST", "/api/games", {"players": ["Ann", "Bob"]})
    yield started
    pool.close()


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_join_button_sits_beside_the_pin_box_on_a_phone(browser, lan, code):
    """On a 390 x 844 phone in Arabic the Join button wrapped under the PIN box ("رمز PIN"
    and "انضمام" are wider than "PIN" and "Join"), and at 360 px in English too: the label,
    the box and the button now share one row, inside the card, on the tablet page and the
    set-up page, in every language. The box keeps room for the six digits of a PIN."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  locale="en-GB")
    try:
        _join_row_in(context.new_page(), lan, code)
    finally:
        context.close()


def _join_row_in(phone, lan, code: str) -> None:
    phone.goto(f"http://{LAN_NAME}:{lan.port}/tablet")
    phone.wait_for_url("**/games/*/tablet")
    choose(phone, code)
    for path in (phone.url, f"http://{LAN_NAME}:{lan.port}/setup"):
        phone.goto(path)
        phone.locator("form[data-join] button").wait_for()
        phone.evaluate("document.fonts.ready")
        for width, height in ((390, 844), (360, 740)):
            phone.set_viewport_size({"width": width, "height": height})
            found = phone.evaluate(JOIN_ROW)
            label, box, join, card = found["label"], found["box"], found["join"], found["card"]
            where = (code, path, width, found)
            # one row: each lies level with the PIN box (their middles within its height)
            for part in (label, join):
                assert box[1] < (part[1] + part[3]) / 2 < box[3], where
            assert found["sideways"] <= 0, where
            # ... inside the card, in the order the language reads, none over another
            rtl = code == "ar"
            order = [join, box, label] if rtl else [label, box, join]
            assert all(order[k][2] <= order[k + 1][0] + 0.5 for k in range(2)), where
            assert order[0][0] >= card[0] and order[-1][2] <= card[2], where
            # six digits fit the box (a PIN is typed and read in full)
            digits = phone.evaluate("""() => { const box = document.querySelector(
                'form[data-join] input'); box.value = '888888';
                return box.scrollWidth - box.clientWidth; }""")
            assert digits <= 1, where  # (an Arabic page's box scrolls 1 px, however wide)
