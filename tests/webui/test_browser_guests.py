"""The TV view on the screens guests bring to a game night, measured in a real browser
(Debian's chromium through Playwright): a 4:3 projector, a 5:4 monitor, a tablet propped up
as the table's screen; and the tablet's score sheet on a 1024 x 768 tablet."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import pytest
from test_browser_layout import PLAYERS, TURNS, LiveServer, _turn_json, tiles
from webui_support import CHROMIUM

from engine.tiles import Tile
from vision.doubts import Doubt, DoubtKind, SplitOrder

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="Debian's chromium is not installed (apt-get install chromium)"),
]

# The TV's foot (camera preview, tile tracker, QR code and PIN) must stay in its column:
# at these sizes the QR code and the PIN ran over the scoreboard and the move card.
SCREENS = [(1024, 768), (1280, 800), (1280, 1024), (1280, 720), (1366, 768), (1920, 1080)]


@pytest.fixture
def live(tmp_path):
    server = LiveServer(tmp_path / "games.sqlite3")
    yield server
    server.close()


@contextmanager
def opened(browser, url: str, width: int, height: int) -> Iterator[Page]:
    """``url`` in a fresh browser context of that screen size, closed afterwards."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(url)
        yield page
    finally:
        context.close()


@pytest.mark.parametrize("lang,width,height",
                         [("en", w, h) for w, h in SCREENS]
                         + [("ar", 1280, 720), ("ar", 1920, 1080)])
def test_the_tv_foot_never_runs_over_the_scores_or_the_move_card(live, browser, lang, width,
                                                                   height):
    """In Arabic too, where the side column stands on the left and the foot runs the other
    way (its start is on the right)."""
    game = live.game(players=PLAYERS)
    live.games.set_camera("live")
    with opened(browser, f"{live.base}/games/{game}/table?lang={lang}", width, height) as page:
        page.locator(".tv .pin").wait_for()
        found = page.evaluate("""() => {
            const box = (s) => document.querySelector(s).getBoundingClientRect();
            const rtl = getComputedStyle(document.querySelector('.tv')).direction === 'rtl';
            // A 4:3 or 5:4 screen lays the foot's parts out in the view's own grid.
            const contents = getComputedStyle(document.querySelector('.tv-foot')).display
              === 'contents';
            const side = box('.tv-side'), foot = box(contents ? '.tv' : '.tv-foot');
            const parts = ['.tv .preview', '.tv-tracker', '.tv .join', '.tv .qr', '.tv .pin']
              .map((s) => [s, box(s)]);
            const past = (r) => rtl
              ? r.left < side.right - 0.5 || r.left < foot.left - 0.5
              : r.right > side.left + 0.5 || r.right > foot.right + 0.5;
            return {
              rtl,
              past: parts.filter(([, r]) => past(r) || r.bottom > innerHeight + 0.5)
                .map(([s]) => s),
              scrolls: document.scrollingElement.scrollHeight - innerHeight,
              board: box('.tv-board svg.board').height,
            };
        }""")
        assert found["rtl"] == (lang == "ar"), found
        assert found["past"] == [], found
        assert found["scrolls"] <= 0 and found["board"] >= 100, found


# The waiting move's card on the TV, a long doubt on it: the camera split two turns read from
# one picture, with more doubts besides, three lines scored and another move behind it.
CARD = """() => {
    const box = (e) => e.getBoundingClientRect();
    const side = box(document.querySelector('.tv-side'));
    const card = document.querySelector('.tv .pending'), doubt = card.querySelector('.doubt');
    const parts = ['h2 > span:first-child', 'h2 .score', '.lines', ':scope > .note']
      .map((s) => [s, card.querySelector(s)]);
    const style = getComputedStyle(doubt);
    const inside = doubt.clientHeight - parseFloat(style.paddingTop)
      - parseFloat(style.paddingBottom);
    return {
      missing: parts.filter(([, e]) => !e).map(([s]) => s),
      below: parts.filter(([, e]) => e && box(e).bottom > side.bottom + 0.5).map(([s]) => s),
      card: box(card).bottom - side.bottom,
      doubtLine: inside / parseFloat(getComputedStyle(doubt.querySelector('p')).lineHeight),
      scrolls: document.scrollingElement.scrollHeight - innerHeight,
    };
}"""


@pytest.mark.parametrize("lang,width,height",
                         [("en", w, h) for w, h in ((1280, 720), (1366, 768), (1280, 800),
                                                    (1920, 1080), (1024, 768))]
                         + [("ar", 1280, 720), ("ar", 1920, 1080)])
def test_a_long_doubt_never_pushes_the_waiting_moves_points_off_the_tv(live, browser, lang,
                                                                        width, height):
    """The side column hides what runs past its foot: a long doubt pushed the move's lines and
    "1 more move is waiting" out of sight (95 px at 1280 x 720). Who, the points, the lines
    and what waits behind stay in view; the doubt keeps at least one whole line."""
    game = live.games.create(PLAYERS, live.app.config["COLOURS"]).row.id
    for turn in TURNS:
        live.games.play(game, _turn_json(turn))
    doubts = (Doubt(DoubtKind.SPLIT, count=1, of=2, order=SplitOrder.UNKNOWN_EITHER),
              Doubt(DoubtKind.UNSEEN_LAYING),
              Doubt(DoubtKind.ONLY_LEGAL_AS, cell=(1, 1), tile=Tile("blue", "circle"),
                    other=Tile("blue", "square")),
              Doubt(DoubtKind.MAYBE_TILE, cell=(5, 5), tile=Tile("red", "star")))
    live.games.detected(tiles((1, 1, "BSq"), (2, 1, "BDi")), True, doubts, [(), ()],
                        split=(1, 2))
    live.games.detected(tiles((3, 1, "BCl")), True, (), [()])
    live.games.set_camera("live")
    with opened(browser, f"{live.base}/games/{game}/table?lang={lang}", width, height) as page:
        page.locator(".tv .pending .doubt").wait_for()
        page.wait_for_timeout(200)
        found = page.evaluate(CARD)
        assert found["missing"] == [] and found["below"] == [], found
        assert found["card"] <= 0.5 and found["scrolls"] <= 0, found
        assert found["doubtLine"] >= 0.95, found


@pytest.mark.parametrize("width,height", [(1024, 768), (1280, 800), (800, 1280)])
@pytest.mark.parametrize("seats", [4, 6])
def test_the_tablets_score_sheet_never_scrolls_sideways_with_long_names(live, browser, width,
                                                                         height, seats):
    """At 1024 x 768 the sheet's column is 394 px: four 24-letter names scrolled it 249 px
    sideways, six 540. It fits; each name keeps its whole self in its title, and a total of
    three digits, or a Qwirkle's score with its star, still fits its column, at full size."""
    game = live.game(players=PLAYERS[:seats])
    with opened(browser, f"{live.base}/games/{game}/tablet", width, height) as page:
        page.locator("[data-part=sheet] .sheet").wait_for()
        found = page.evaluate("""() => {
            const sheet = document.querySelector('[data-part=sheet] .sheet');
            sheet.querySelectorAll('[data-total]').forEach((t) => { t.textContent = '388'; });
            sheet.querySelector('tbody td').innerHTML =
              '24 <span class="qwirkle-badge">★</span>';
            const cells = [...sheet.querySelectorAll('td')];
            const scroll = sheet.closest('.sheet-scroll');
            return {
              sideways: scroll.scrollWidth - scroll.clientWidth,
              page: document.scrollingElement.scrollWidth - innerWidth,
              crowded: cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.outerHTML),
              titles: [...sheet.querySelectorAll('thead .name')].map((n) => n.title),
              total: parseFloat(getComputedStyle(sheet.querySelector('[data-total]')).fontSize),
            };
        }""")
        assert found["sideways"] <= 0 and found["page"] <= 0, found
        assert found["crowded"] == [], found
        assert found["titles"] == list(PLAYERS[:seats]) and found["total"] >= 20, found
