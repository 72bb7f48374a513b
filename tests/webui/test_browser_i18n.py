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
from webui_support import ROW, Servers

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
