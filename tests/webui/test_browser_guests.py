"""The TV view on the screens guests bring to a game night, measured in a real browser
(Debian's chromium through Playwright): a 4:3 projector, a 5:4 monitor, a tablet propped up
as the table's screen."""

from __future__ import annotations

import pytest
from test_browser_layout import PLAYERS, LiveServer
from webui_support import CHROMIUM

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


@pytest.mark.parametrize("width,height", SCREENS)
def test_the_tv_foot_never_runs_over_the_scores_or_the_move_card(live, browser, width,
                                                                   height):
    game = live.game(players=PLAYERS)
    live.games.set_camera("live")
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(f"{live.base}/games/{game}/table")
        page.locator(".tv .pin").wait_for()
        found = page.evaluate("""() => {
            const box = (s) => document.querySelector(s).getBoundingClientRect();
            const side = box('.tv-side'), foot = box('.tv-foot');
            const parts = ['.tv .preview', '.tv-tracker', '.tv .join', '.tv .qr', '.tv .pin']
              .map((s) => [s, box(s)]);
            return {
              past: parts.filter(([, r]) => r.right > side.left + 0.5 || r.right > foot.right + 0.5
                                            || r.bottom > innerHeight + 0.5).map(([s]) => s),
              scrolls: document.scrollingElement.scrollHeight - innerHeight,
              board: box('.tv-board svg.board').height,
            };
        }""")
        assert found["past"] == [], found
        assert found["scrolls"] <= 0 and found["board"] >= 100, found
    finally:
        context.close()
