"""The TV view on 4:3, 5:4, 16:9 and upright screens, measured in a real browser (Debian's
chromium through Playwright): the board takes the room the screen has, nothing on the view
lies over anything else or off the screen's sides, and the join address breaks only where an
address may."""

from __future__ import annotations

import pytest
from test_browser_guests import opened
from test_browser_layout import PLAYERS, LiveServer
from webui_support import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="Debian's chromium is not installed (apt-get install chromium)"),
]

SCREENS = [(1280, 720), (1920, 1080), (1024, 768), (1280, 1024), (768, 1024)]
"""16:9 TVs, a 4:3 projector, a 5:4 monitor and a tablet stood upright."""

# The parts of the view that must not lie over one another: each is one box on the screen.
PARTS = (".tv-banner", ".board-box", ".watch-list", ".tv-tracker", ".tv .preview", ".tv .qr",
         ".tv .join-text", ".tv .pin", "[data-action=new-pin]", ".scoreboard li", ".tv .pending")

LAYOUT = """(parts) => {
    const shown = parts.flatMap((s) => [...document.querySelectorAll(s)].map((e, i) =>
      [`${s}#${i}`, e.getBoundingClientRect()])).filter(([, r]) => r.width && r.height);
    const overlaps = [];
    shown.forEach(([a, r], i) => shown.slice(i + 1).forEach(([b, q]) => {
      const across = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const down = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (across > 1 && down > 1) overlaps.push([a, b]);
    }));
    const tile = document.querySelector('.tv-board .board g.placed').getBoundingClientRect();
    return {
      overlaps,
      offSides: shown.filter(([, r]) => r.left < -0.5 || r.right > innerWidth + 0.5)
        .map(([s]) => s),
      below: shown.filter(([, r]) => r.bottom > innerHeight + 0.5).map(([s]) => s),
      sideways: document.scrollingElement.scrollWidth - innerWidth,
      tile: tile.height,
    };
}"""


@pytest.fixture
def live(tmp_path):
    server = LiveServer(tmp_path / "games.sqlite3")
    yield server
    server.close()


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("width,height", SCREENS)
def test_the_tv_board_takes_the_room_and_nothing_overlaps(live, browser, lang, width, height):
    """At 1024 x 768 the foot took two rows under the board, and the board was a strip
    104 px tall: its tiles 13 px, where a 1280 x 720 TV draws them 37 px. A tile is now
    drawn at least 4% of the screen's height on every screen. Six long names, a move waiting
    and the camera's preview, in both directions of writing; an upright screen fits one
    screen too (see test_an_upright_tv_fits_one_screen), and nothing scrolls sideways."""
    game = live.game(players=PLAYERS)
    live.games.set_camera("live")
    with opened(browser, f"{live.base}/games/{game}/table?lang={lang}", width, height) as page:
        page.locator(".tv .pin").wait_for()
        found = page.evaluate(LAYOUT, list(PARTS))
        assert found["overlaps"] == [] and found["offSides"] == [], found
        assert found["sideways"] <= 0, found
        assert found["below"] == [], found
        assert found["tile"] >= 0.04 * height, found


# What an upright screen shows, and what its view hides: the parts that must all be on it,
# each score row and the move card whole inside the side column (which hides what runs past
# its foot), and how far the page scrolls down.
SHOWN = """(parts) => {
    const missing = parts.filter((s) => ![...document.querySelectorAll(s)].some((e) => {
      const r = e.getBoundingClientRect();
      return r.width && r.height; }));
    const side = document.querySelector('.tv-side').getBoundingClientRect();
    const cut = [...document.querySelectorAll('.scoreboard li, .tv .pending')]
      .map((e) => e.getBoundingClientRect())
      .filter((r) => r.bottom > side.bottom + 0.5 || r.right > side.right + 0.5
                     || r.left < side.left - 0.5).length;
    const address = document.querySelector('.tv .join-text');
    return {
      missing, cut,
      rows: document.querySelectorAll('.scoreboard li').length,
      scrolls: document.scrollingElement.scrollHeight - innerHeight,
      board: document.querySelector('.board-box').getBoundingClientRect().height,
      address: address.scrollWidth <= address.clientWidth,
    };
}"""

UPRIGHT = [(768, 1024), (800, 1280), (1080, 1920)]
"""A tablet stood up as the table's screen (the iPad's 768 x 1024, a 10" Android's 800 x
1280) and a full-HD TV turned on its side."""


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("width,height", UPRIGHT)
def test_an_upright_tv_fits_one_screen(live, browser, lang, width, height):
    """At 768 x 1024 the TV view was a phone's page: 2279 px tall (2364 in Arabic), the
    board below the scores and the QR code and PIN two screens down, on a screen across the
    room that nobody scrolls. It fits one screen: the scores (in two columns), the move card,
    the board, the tile tracker, the camera's preview and the QR code, address and PIN, none
    cut off, nothing over anything else, and the board as tall as on the landscape screens
    (its tiles at least 4% of the height)."""
    game = live.game(players=PLAYERS)
    live.games.set_camera("live")
    with opened(browser, f"{live.base}/games/{game}/table?lang={lang}", width, height) as page:
        page.locator(".tv .pin").wait_for()
        page.evaluate("document.fonts.ready")
        found = page.evaluate(LAYOUT, list(PARTS))
        shown = page.evaluate(SHOWN, [p for p in PARTS if p != ".tv .pending"]
                              + [".tv .pending", "[data-pin]", ".tv .qr svg"])
        assert shown["scrolls"] <= 0 and found["sideways"] <= 0, (found, shown)
        assert shown["missing"] == [] and shown["rows"] == 6 and shown["cut"] == 0, shown
        assert found["overlaps"] == [] and found["offSides"] == [], found
        assert found["below"] == [], found
        assert found["tile"] >= 0.04 * height, found
        assert shown["board"] >= 0.3 * height and shown["address"], shown


# Where each line of the join text's address ends: the character before each break.
ADDRESS_BREAKS = """() => {
    const address = document.querySelector('.tv .join-text bdi');
    const text = address.textContent, range = document.createRange(), walker =
      document.createTreeWalker(address, NodeFilter.SHOW_TEXT);
    const tops = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        tops.push(range.getBoundingClientRect().top);
      }
    }
    const breaks = [];
    tops.forEach((top, i) => {
      if (i && Math.abs(top - tops[i - 1]) > 2) breaks.push(text[i - 1]);
    });
    return {text, breaks};
}"""


@pytest.mark.parametrize("address", ["http://192.168.178.123:8000",
                                     "http://qwirkle-table.local:8000"])
@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("width,height", SCREENS)
def test_the_join_address_never_breaks_inside_a_word(live, browser, lang, width, height,
                                                     address):
    """The address players type from the TV broke anywhere in a narrow join text:
    "http://127.0.0.1:40529/t" over "ablet" at 1280 x 720. A line of it ends after a "/" or
    a ":" only, and it is shown whole."""
    live.app.config["PUBLIC_URL"] = address
    game = live.game(players=PLAYERS)
    with opened(browser, f"{live.base}/games/{game}/table?lang={lang}", width, height) as page:
        page.locator(".tv .pin").wait_for()
        found = page.evaluate(ADDRESS_BREAKS)
        assert found["text"] == f"{address}/tablet", found
        assert set(found["breaks"]) <= {"/", ":"}, found


@pytest.mark.parametrize("width,height", [(768, 1024), (1080, 1920)])
def test_an_upright_tv_shows_the_winner_on_one_screen(live, browser, width, height):
    """The winner card stands over the view, whole, under the menu (which takes two rows at
    768 px) and above the screen's foot: the page still does not scroll."""
    from playwright.sync_api import expect

    game = live.game(players=PLAYERS)
    with opened(browser, f"{live.base}/games/{game}/tablet", 800, 1280) as tablet, \
            opened(browser, f"{live.base}/games/{game}/table", width, height) as tv:
        tablet.click("[data-open=end-dialog]")
        tablet.click("#end-dialog [data-action=finish][data-went-out='']")
        expect(tv.locator("[data-winner]")).to_be_visible()
        found = tv.evaluate("""() => {
            const card = document.querySelector('[data-winner]').getBoundingClientRect();
            return {top: card.top, bottom: card.bottom, left: card.left, right: card.right,
                    menu: document.querySelector('header.top').getBoundingClientRect().bottom,
                    scrolls: document.scrollingElement.scrollHeight - innerHeight};
        }""")
        assert found["top"] >= found["menu"] and found["bottom"] <= height, found
        assert found["left"] >= 0 and found["right"] <= width and found["scrolls"] <= 0, found


WINNER_SHOWN = """() => {
    const card = document.querySelector('.tv.ended [data-winner]');
    const foot = card.lastElementChild.getBoundingClientRect();
    return {hidden: card.scrollHeight - card.clientHeight,
            foot: foot.bottom - card.getBoundingClientRect().bottom,
            title: parseFloat(getComputedStyle(card.querySelector('h2')).fontSize),
            scrolls: document.scrollingElement.scrollHeight - innerHeight};
}"""


@pytest.mark.parametrize("lang,width,height", [("en", 1280, 720), ("en", 1024, 768),
                                               ("ar", 1280, 720)])
def test_the_tv_winner_card_shows_whole_with_six_long_names(live, browser, lang, width, height):
    """Nobody scrolls a TV: on a 1280 x 720 or 1024 x 768 screen the winner card with six
    24-letter names kept its last lines ("Nobody could play: no end bonus.", part of the best
    turn) out of sight inside it, though the card itself lay on the screen. Its type gives
    way until it shows whole, as the game ends and on a fresh load."""
    from playwright.sync_api import expect

    from webui.games import Event

    game = live.game(players=PLAYERS)
    with opened(browser, f"{live.base}/games/{game}/table?lang={lang}", width, height) as tv:
        tv.locator(".tv .pin").wait_for()
        live.games.act(game, Event.FINISH, {"went_out": None})
        for moment in ("ended live", "loaded ended"):
            expect(tv.locator(".tv.ended [data-winner] .note")).to_be_visible()
            tv.wait_for_timeout(200)
            found = tv.evaluate(WINNER_SHOWN)
            assert found["hidden"] <= 1 and found["foot"] <= 0.5, (moment, found)
            assert found["title"] >= 28 and found["scrolls"] <= 0, (moment, found)
            tv.reload()
