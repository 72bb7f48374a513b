"""The table app's layout at game-night sizes, measured in a real browser (Debian's chromium
through Playwright): the TV view fits one screen with six long names, Confirm is on screen on
phones and tablets while a move waits, nothing is wider than a phone, every control is a
comfortable touch target, and the fix dialog's suggestions do what they say.

The server runs in this process so that a test can put up a move "seen by the camera" (with
the classifier's runner-up readings) the way the live loop does. The tests leave the README's
screenshots in docs/.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from webui_support import CHROMIUM, make_app
from werkzeug.serving import make_server

from engine.board import Placed
from engine.table import Exchange, Place
from engine.tiles import Tile
from webui.games import Game
from webui.pending import Offer
from webui.validate import MAX_NAME

DOCS = Path(__file__).resolve().parents[2] / "docs"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="Debian's chromium is not installed (apt-get install chromium)"),
]

# Six players with names as long as the app allows (24), in three scripts.
PLAYERS = ("Alexandria Konstantinova", "ليلى عبد الرحمن الخطيب", "Bartholomew Fitzgerald-J",
           "Nguyễn Thị Phương Thảo", "Wilhelmina van der Merwe", "सिद्धार्थ चतुर्वेदी")


def tiles(*cells: tuple[int, int, str]) -> tuple[Placed, ...]:
    return tuple((x, y, Tile.from_code(code)) for x, y, code in cells)


# Six turns: a red line of five (the watch wants a red star) and a column of five circles (it
# wants a purple circle), with an exchange between.
TURNS = (
    Place(tiles((0, 0, "RCi"), (1, 0, "RSq"), (2, 0, "RDi"))),
    Place(tiles((3, 0, "RCl"), (4, 0, "RCr"))),
    Exchange(3),
    Place(tiles((0, 1, "BCi"),)),
    Place(tiles((0, 2, "GCi"), (0, 3, "YCi"))),
    Place(tiles((0, 4, "OCi"),)),
)
# The camera's reading of the next move: a blue square under the red one, with the
# classifier's runner-up readings.
SEEN = tiles((1, 1, "BSq"))
RUNNERS_UP = ((Tile("blue", "diamond"), Tile("green", "square"), Tile("purple", "square")),)
# A move the camera reads while SEEN waits: a blue diamond over the red one, in no line with
# the blue square (in line with it, it would join that move as a turn laid in two spells).
BEHIND = tiles((2, -1, "BDi"))


class LiveServer:
    """The app served by werkzeug in a thread (threaded: the event streams stay open)."""

    def __init__(self, db: Path) -> None:
        self.app = make_app(db, SSE_MAX_S=3.0)
        self.games = self.app.extensions["qwirkle_games"]
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.base = f"http://127.0.0.1:{self.server.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def game(self, players=PLAYERS, turns=TURNS) -> int:
        """A game part-played: these turns confirmed, then the camera's next move waiting."""
        game = self.games.create(players, self.app.config["COLOURS"])
        for turn in turns:
            self.games.play(game.row.id, _turn_json(turn))
        self.games.detected(SEEN, True, "", RUNNERS_UP)
        return game.row.id

    def close(self) -> None:
        self.server.shutdown()


def _turn_json(turn) -> dict:
    from webui.codec import turn_json

    return turn_json(turn)


@pytest.fixture
def live(tmp_path):
    server = LiveServer(tmp_path / "games.sqlite3")
    yield server
    server.close()


def box(page, selector: str, seconds: float = 5.0) -> dict:
    """Where the first element ``selector`` matches lies, once it is shown: a part the page
    is swapping in after an action (the actions after a confirm) is briefly absent, and may
    be swapped again between being seen and being measured (a fresh-clone run caught Undo
    so twice), so the measuring is tried until it succeeds."""
    shown = page.locator(selector).first
    deadline = time.monotonic() + seconds
    while True:
        shown.wait_for(state="visible", timeout=max(1.0, deadline - time.monotonic()) * 1000)
        found = shown.bounding_box()
        if found is not None:
            return found
        assert time.monotonic() < deadline, f"{selector} is not shown"
        page.wait_for_timeout(50)


def inside_viewport(page, selector: str) -> bool:
    b = box(page, selector)
    view = page.viewport_size
    return (b["x"] >= 0 and b["y"] >= 0 and b["x"] + b["width"] <= view["width"] + 0.5
            and b["y"] + b["height"] <= view["height"] + 0.5)


def overflow(page) -> dict:
    """How far the page reaches past the viewport, across and down."""
    return page.evaluate("""() => {
        const e = document.scrollingElement;
        return {x: e.scrollWidth - innerWidth, y: e.scrollHeight - innerHeight};
    }""")


# Every visible control a finger must hit: buttons, links styled as buttons, the menu, the
# language menu, set-up radios and check boxes (their labels), turn edit/remove, exports.
SMALL_TARGETS = """() => Array.from(document.querySelectorAll(
      'button, .button, header a, select, label.colours, label.option, input[type=radio]'))
    .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden'
                    && !el.closest('dialog:not([open])'))
    .map((el) => {
      const target = el.matches('input') ? el.closest('label') || el : el;
      return [target.outerHTML.slice(0, 80), target.getBoundingClientRect().height];
    })
    .filter(([, height]) => height < 44)"""


def test_tv_view_fits_one_screen_with_six_long_names(live, open_page):
    game = live.game()
    for size in ("tv", "small tv"):
        page = open_page(size, f"{live.base}/games/{game}/table")
        assert overflow(page) == {"x": 0, "y": 0}, size
        for selector in (".banner", ".scoreboard li:last-child", ".tv .pending", ".pin",
                         ".tv-board svg.board", ".tv-tracker .tracker", ".watch-list"):
            assert inside_viewport(page, selector), (size, selector)
        # Nothing is cut off inside its panel either: the side column holds all six players.
        side, last = box(page, ".tv-side"), box(page, ".scoreboard li:last-child")
        assert last["y"] + last["height"] <= side["y"] + side["height"] + 0.5, size
        sizes = page.eval_on_selector_all(
            ".scoreboard .total", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
        assert len(sizes) == 6 and min(sizes) >= 48, (size, sizes)
        banner = page.eval_on_selector(".banner", "e => getComputedStyle(e).backgroundColor")
        assert banner == "rgb(0, 114, 178)"  # the first seat's colour: Alexandria to play
        # Confirmed tiles keep their true colours: nothing on the board is faded.
        faded = page.eval_on_selector_all(
            ".board g", "gs => gs.filter(g => getComputedStyle(g).opacity < 1 && "
                        "!g.closest('.watch')).length")
        assert faded == 0
        if size == "tv":
            page.screenshot(path=str(DOCS / "tv.png"))


def test_the_tv_tracker_and_camera_preview_read_from_across_the_room(live, open_page):
    """On a 1920 x 1080 TV the tile tracker's counts were 17 px and the camera's picture 183
    px tall, small from 2-3 m while the side column stood half empty: the footer takes room
    from the board, and the view still fits one screen."""
    game = live.game()
    live.games.set_camera("live")
    page = open_page("tv", f"{live.base}/games/{game}/table")
    counts = page.eval_on_selector_all(
        ".tv-tracker .count", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert len(counts) == 36 and min(counts) >= 26, counts
    assert box(page, ".tv-tracker .tracker td .tile")["height"] >= 30
    assert box(page, ".tv .preview")["height"] >= 260
    assert overflow(page) == {"x": 0, "y": 0}
    for selector in (".tv-tracker .tracker", ".tv .preview", ".pin", ".tv-board svg.board"):
        assert inside_viewport(page, selector), selector


def test_qwirkle_watch_marks_lines_of_five_with_unseen_copies(live, open_page):
    game = live.game()
    page = open_page("tv", f"{live.base}/games/{game}/table")
    marks = page.eval_on_selector_all(
        ".board .watch", "gs => gs.map(g => [g.dataset.watch, g.dataset.unseen])")
    # The red line of five wants a red star, the column of circles a purple circle; no copy
    # of either is on the table yet.
    assert sorted(marks) == [["purple-circle", "3"], ["red-star", "3"]]
    assert page.locator(".watch-list li").count() == 2
    page.locator(".tv-board").screenshot(path=str(DOCS / "qwirkle-watch.png"))

    # Switched off on the set-up page: the table view shows no watch.
    setup = open_page("tablet", f"{live.base}/setup")
    setup.uncheck("[name=watch]")
    for i, name in enumerate(("Ann", "Bob")):
        setup.fill(f"input[name=player] >> nth={i}", name)
    setup.click("[data-setup] button[type=submit]")
    setup.wait_for_url("**/games/*/tablet")
    page.goto(f"{live.base}/games/{game}/table")
    assert page.locator(".board .watch").count() == 0


@pytest.mark.parametrize("size", ["phone", "tablet", "landscape tablet", "landscape phone"])
def test_confirm_is_on_screen_while_a_move_waits(live, open_page, size):
    """Confirm, and the move it confirms: on a phone held sideways the bar at the foot took a
    quarter of the height and the move lay below the fold under it."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page(size, f"{live.base}/games/{game}/tablet")
    confirm = page.locator("[data-action=confirm]")
    expect(confirm).to_be_enabled()
    assert inside_viewport(page, "[data-action=confirm]")
    assert inside_viewport(page, "[data-action=dismiss]")
    assert inside_viewport(page, ".pending .board .new")
    new_tile = box(page, ".pending .board .new")
    assert page.evaluate(
        "([x, y]) => !document.elementFromPoint(x, y).closest('[data-action-bar]')",
        [new_tile["x"] + new_tile["width"] / 2, new_tile["y"] + new_tile["height"] / 2])
    # Not covered by anything: a tap at its centre lands on it.
    b = box(page, "[data-action=confirm]")
    hit = page.evaluate(
        "([x, y]) => !!document.elementFromPoint(x, y).closest('[data-action=confirm]')",
        [b["x"] + b["width"] / 2, b["y"] + b["height"] / 2])
    assert hit
    # Confirm is the stronger button.
    assert b["height"] > box(page, "[data-action=dismiss]")["height"]
    # The bar hides what scrolls under it (scores showed through beside "Not a move").
    assert page.evaluate("getComputedStyle(document.querySelector('[data-action-bar]'))"
                         ".backgroundColor").startswith("rgb(")
    if size == "landscape tablet":
        # Two columns: the turns sit beside the move, not under it.
        assert box(page, ".record-column")["x"] > box(page, ".play-column")["x"] + 400
    shots = {"tablet": "tablet.png", "phone": "phone.png"}
    if size in shots:
        page.screenshot(path=str(DOCS / shots[size]))
    confirm.click()
    expect(page.locator(".turns li")).to_have_count(len(TURNS) + 1)


@pytest.mark.parametrize("code", ["vi", "af", "hi"])
def test_confirm_stays_the_widest_button_on_a_small_phone_in_a_long_language(live, open_page,
                                                                            code):
    """A 360-px phone in Vietnamese gave "Không phải nước đi" 177 px and Confirm 91: the
    button that sets a move aside was the one most easily hit."""
    game = live.game()
    page = open_page("phone", f"{live.base}/lang?code={code}&next=/games/{game}/tablet")
    page.set_viewport_size({"width": 360, "height": 780})
    confirm, dismiss = box(page, "[data-action=confirm]"), box(page, "[data-action=dismiss]")
    assert confirm["width"] > 1.3 * dismiss["width"], (confirm, dismiss)
    assert inside_viewport(page, "[data-action=dismiss]")
    assert overflow(page)["x"] == 0


def test_the_phone_menu_has_rows_of_its_own_that_show_every_link_whole(live, open_page):
    """On a phone or a portrait tablet the menu sits under the logo and the language menu,
    across the whole width, and every link shows whole, unfaded: a phone's menu wraps onto
    further rows (it scrolled sideways, and a fade at its end was the only sign of the
    "Scoring" beyond), in Arabic and Vietnamese as in English; a tablet's holds one row."""
    game = live.game()
    for size, path in (("phone", f"/games/{game}/tablet"),
                       ("phone", f"/lang?code=ar&next=/games/{game}/tablet"),
                       ("phone", f"/lang?code=vi&next=/games/{game}/tablet"),
                       ("tablet", f"/games/{game}/tablet")):
        page = open_page(size, live.base + path)
        nav, language = box(page, "header nav"), box(page, ".language")
        assert nav["y"] >= language["y"] + language["height"] - 1, path
        assert nav["width"] >= 0.9 * page.viewport_size["width"], path
        assert page.evaluate("""() => {
            const nav = document.querySelector('header nav');
            return nav.scrollWidth <= nav.clientWidth && getComputedStyle(nav).maskImage === 'none';
        }"""), path
        links = page.locator("header nav a")
        assert links.count() == 7  # table, tablet, score sheet, games, players, new game, scoring
        rows = set()
        for k in range(7):
            link = links.nth(k).bounding_box()
            assert nav["x"] - 0.5 <= link["x"], (path, k)
            assert link["x"] + link["width"] <= nav["x"] + nav["width"] + 0.5, (path, k)
            assert link["y"] + link["height"] <= nav["y"] + nav["height"] + 0.5, (path, k)
            rows.add(round(link["y"]))
        assert len(rows) == 1 or size == "phone", path


@pytest.mark.parametrize("width", [1000, 1200])
def test_a_laptop_menu_in_vietnamese_shows_every_link_whole(live, open_page, width):
    """Between a portrait tablet and a full-HD TV the menu shares the logo's row with the
    language menu: Vietnamese, longer than English, filled it and its last links went out
    of sight. Every link shows whole, clear of the language menu, and the TV view still
    fits one screen."""
    game = live.game()
    for view in ("tablet", "table"):
        page = open_page("landscape tablet", f"{live.base}/lang?code=vi&next=/games/{game}/{view}")
        page.set_viewport_size({"width": width, "height": 800})
        nav, language = box(page, "header nav"), box(page, ".language")
        assert nav["x"] + nav["width"] <= language["x"] + 0.5, view
        links = page.locator("header nav a")
        assert links.count() == 7
        for k in range(7):
            link = links.nth(k).bounding_box()
            assert nav["x"] - 0.5 <= link["x"], (view, k)
            assert link["x"] + link["width"] <= nav["x"] + nav["width"] + 0.5, (view, k)
            assert link["y"] + link["height"] <= nav["y"] + nav["height"] + 0.5, (view, k)
        if view == "table":
            assert overflow(page) == {"x": 0, "y": 0}


def test_enter_by_hand_shows_that_it_opens(live, open_page):
    """The "enter it by hand" line is a disclosure: it keeps a triangle, turned down once
    open (laid out as a row, it had lost the browser's own)."""
    game = live.games.create(("Ann", "Bob"), live.app.config["COLOURS"]).row.id
    live.games.set_camera("live")  # (with no camera it starts open: every move is by hand)
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    marker = """() => {
        const summary = document.querySelector('.by-hand summary');
        const style = getComputedStyle(summary), before = getComputedStyle(summary, '::before');
        return {item: style.display === 'list-item' && style.listStyleType !== 'none',
                drawn: before.content !== 'none' && before.content !== 'normal',
                transform: before.transform};
    }"""
    closed = page.evaluate(marker)
    assert closed["item"] or closed["drawn"]
    page.click(".by-hand summary")
    opened = page.evaluate(marker)
    assert opened["item"] or opened["transform"] != closed["transform"]


def test_with_no_camera_the_empty_move_card_opens_entry_by_hand(live, open_page):
    """`serve --camera none`, or a recording that has ended: nothing will bring a move to
    the card, which said to place tiles on the table and wait. It says to enter each move
    by hand, with the board to do it open."""
    from playwright.sync_api import expect

    game = live.games.create(("Ann", "Bob"), live.app.config["COLOURS"]).row.id
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    expect(page.locator(".pending.empty")).to_contain_text("enter each move by hand")
    expect(page.locator(".by-hand .slot").first).to_be_visible()
    live.games.set_camera("live")
    page.reload()
    expect(page.locator(".pending.empty")).to_contain_text("Place tiles on the table")
    expect(page.locator(".by-hand .slot").first).to_be_hidden()


def test_no_page_is_wider_than_a_phone_and_every_control_is_44px(live, open_page):
    game = live.game()
    live.games.act(game, "play", {"turn": {"kind": "exchange", "count": 2}})
    pages = ["/setup", "/games", "/players", "/scoring", f"/games/{game}/table",
             f"/games/{game}/tablet", f"/games/{game}/sheet", "/no-such-page"]
    for size in ("phone", "landscape tablet"):
        for path in pages:
            page = open_page(size, live.base + path)
            if size == "phone":
                assert overflow(page)["x"] == 0, path
            assert page.evaluate(SMALL_TARGETS) == [], (size, path)
    # In Arabic too, where names and numbers mix directions.
    page = open_page("phone", f"{live.base}/lang?code=ar&next=/games/{game}/tablet")
    assert overflow(page)["x"] == 0
    assert page.evaluate(SMALL_TARGETS) == []


def test_a_long_name_without_a_break_wraps_on_a_phone(live, open_page):
    """The longest name the game takes, one unbroken word: no page grows wider than a phone,
    and the TV's panels still hold it."""
    game = live.game(("W" * MAX_NAME, "Ann", "Ben"), TURNS[:1])
    for path in ("/games", f"/games/{game}/tablet", f"/games/{game}/sheet", "/players"):
        page = open_page("phone", live.base + path)
        assert overflow(page)["x"] == 0, path
    page = open_page("small tv", f"{live.base}/games/{game}/table")
    assert overflow(page) == {"x": 0, "y": 0}
    assert inside_viewport(page, ".tv .pending")


def test_names_are_isolated_next_to_numbers_on_every_page(live, open_page):
    game = live.game()
    live.games.act(game, "finish", {"went_out": None})
    for path in ("/games", "/players", f"/games/{game}/table", f"/games/{game}/tablet",
                 f"/games/{game}/sheet"):
        page = open_page("landscape tablet", live.base + path)
        loose = page.evaluate("""(names) => {
            const walker = document.createTreeWalker(document.querySelector('main'),
                                                     NodeFilter.SHOW_TEXT);
            const found = [];
            while (walker.nextNode()) {
              const node = walker.currentNode;
              if (!names.some((n) => node.textContent.includes(n))) continue;
              const el = node.parentElement;
              if (el.closest('option, title, script')) continue;
              if (getComputedStyle(el).unicodeBidi !== 'isolate') {
                found.push(el.outerHTML.slice(0, 80));
              }
            }
            return found;
        }""", list(PLAYERS))
        assert loose == [], path


def test_fix_dialog_suggestions_do_what_they_say_and_fit_a_phone(live, open_page):
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    card_tile = page.locator("[data-pending-tiles] svg.tile")
    read = card_tile.get_attribute("aria-label")  # the camera's reading
    runners_up = ["blue diamond", "green square", "purple square"]
    for i, label in enumerate(runners_up):
        page.locator("[data-pending-tiles] [data-fix='0']").click()
        dialog = page.locator("#fix-dialog")
        expect(dialog).to_be_visible()
        fits = page.evaluate("""() => {
            const d = document.getElementById('fix-dialog').getBoundingClientRect();
            return d.top >= 0 && d.left >= 0 && d.bottom <= innerHeight && d.right <= innerWidth;
        }""")
        assert fits
        suggestions = dialog.locator("[data-likely] button")
        offered = [suggestions.nth(k).get_attribute("aria-label") for k in range(3)]
        # once fixed, the tile held a moment ago is offered back first, and the camera's
        # reading always: a wrong tap is undone with one more
        assert offered == [runners_up, [read, *runners_up[1:]],
                           [runners_up[0], read, runners_up[2]]][i]
        choice = offered.index(label)
        assert suggestions.nth(choice).locator("svg.tile").count() == 1  # a tile picture
        if i == 0:
            page.screenshot(path=str(DOCS / "fix-dialog.png"))
            # a swatch alone does not tell red from orange to a colour-blind player: on a
            # phone too each colour and shape is named, inside its button
            named = page.evaluate("""() => [...document.querySelectorAll(
                    '#fix-dialog [data-pick-colour], #fix-dialog [data-pick-shape]')].map(b => {
                const l = b.querySelector('.label'), r = l.getBoundingClientRect(),
                      o = b.getBoundingClientRect();
                return r.width > 0 && r.left >= o.left && r.right <= o.right
                    && r.bottom <= o.bottom ? l.textContent : null;
            })""")
            assert named == ["red", "orange", "yellow", "green", "blue", "purple",
                             "circle", "square", "diamond", "clover", "cross", "star"]
        suggestions.nth(choice).click()
        # The tile now on the card is the one the label named.
        expect(card_tile).to_have_attribute("aria-label", label)

    # Colour and shape in one visit: pick both, then use the tile.
    page.locator("[data-pending-tiles] [data-fix='0']").click()
    page.click("#fix-dialog [data-pick-shape='square']")
    page.click("#fix-dialog [data-pick-colour='blue']")
    expect(page.locator("#fix-dialog")).to_be_visible()
    page.click("#fix-dialog [data-fix-use]")
    expect(card_tile).to_have_attribute("aria-label", "blue square")
    expect(page.locator(".pending .score .points")).to_have_text("4")


def test_the_end_dialog_says_while_a_move_waits(live, open_page):
    """Ending a game while the camera's move waits leaves that move out of the scores: the
    end dialog says so, and stops saying it once another tablet confirmed the move."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    page.click("[data-open=end-dialog]")
    waiting = page.locator("#end-dialog [data-pending-note]")
    expect(waiting).to_be_visible()
    live.games.confirm(game)  # on another tablet, while this one's dialog is open
    expect(waiting).to_be_hidden()
    expect(page.locator("#end-dialog")).to_be_visible()


def test_only_legal_choices_and_undo_with_redo(live, open_page):
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    # The bag is far from empty: exchange, no pass; nobody can go out yet.
    expect(page.locator("[data-open=exchange-dialog]")).to_be_visible()
    assert page.locator("[data-action=pass]").count() == 0
    page.click("[data-open=end-dialog]")
    expect(page.locator("#end-dialog [data-went-out='0']")).to_be_hidden()
    expect(page.locator("#end-dialog [data-bag-note]")).to_be_visible()
    page.click("#end-dialog button[value=cancel]")

    # Undo asks on the page (no browser dialog), then offers Redo.
    page.on("dialog", lambda dialog: pytest.fail(f"a browser dialog: {dialog.message}"))
    page.click("[data-action=undo]")
    expect(page.locator("#ask-dialog")).to_be_visible()
    page.click("#ask-dialog [data-ask-yes]")
    expect(page.locator(".turns li")).to_have_count(len(TURNS) - 1)
    expect(page.locator("#notice")).to_contain_text("Undone: turn 6")
    page.click("#notice [data-action=redo]")
    expect(page.locator(".turns li")).to_have_count(len(TURNS))
    expect(page.locator(".turns li[data-turn='5'] [aria-label='orange circle']")).to_have_count(1)

    # Remove a turn from the middle (the exchange), then Redo puts it back in its place, even
    # after a reload: the camera cannot offer an exchange again as it does tiles.
    page.click("[data-action=void][data-index='2']")
    page.click("#ask-dialog [data-ask-yes]")
    expect(page.locator(".turns li")).to_have_count(len(TURNS) - 1)
    expect(page.locator("#notice")).to_be_visible()
    page.reload()
    expect(page.locator("#notice")).to_contain_text("Removed: turn 3")
    page.click("#notice [data-action=redo]")
    expect(page.locator(".turns li[data-turn='2']")).to_contain_text("exchanged 3 tiles")
    page.reload()  # done: not offered again
    expect(page.locator(".turns li")).to_have_count(len(TURNS))
    expect(page.locator("#notice")).to_be_hidden()

    # Editing the exchange says which turn and player it edits, and the count now.
    page.click("[data-action=edit][data-index='2']")
    expect(page.locator("[data-edit-title]")).to_contain_text("Edit turn 3 by")
    expect(page.locator("[data-edit-now]")).to_have_text("Now: an exchange of 3 tiles.")
    expect(page.locator("#edit-dialog [data-action=save-edit]")).to_be_hidden()
    page.click("#edit-dialog [data-action=edit-exchange][data-count='2']")
    expect(page.locator(".turns li[data-turn='2']")).to_contain_text("exchanged 2 tiles")


def test_a_double_tap_on_confirm_confirms_the_move_shown_once(live, open_page):
    """Players in a hurry: the camera has another move queued behind the one shown, and a
    double tap on Confirm confirms one move; the next is shown, not confirmed unseen."""
    from playwright.sync_api import expect

    game = live.game()
    live.games.detected(BEHIND, True, "", [])
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    expect(page.locator(".turns li")).to_have_count(len(TURNS))
    page.dblclick("[data-action=confirm]")
    expect(page.locator(".turns li")).to_have_count(len(TURNS) + 1)
    expect(page.locator("[data-pending-tiles] [aria-label='blue diamond']")).to_have_count(1)
    page.wait_for_timeout(500)
    expect(page.locator("#toast")).to_be_hidden()  # the second tap was not even sent
    assert len(live.games.get(game).table.turns) == len(TURNS) + 1


def test_a_tap_on_a_card_not_yet_redrawn_is_not_sent(live, open_page):
    """The second tap of a double tap can land after the first was answered, while the page
    still shows the old card (its parts are on their way): it must not reach the server, where
    it would be refused with an alarming 'the move shown changed' message."""
    from playwright.sync_api import expect

    game = live.game()
    live.games.detected(BEHIND, True, "", [])
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    expect(page.locator(".turns li")).to_have_count(len(TURNS))
    held = []
    page.route("**/part/**", lambda route: held.append(route))
    page.click("[data-action=confirm]")
    page.wait_for_timeout(300)
    assert held, "the page asks for its parts once the state moved on"
    assert len(live.games.get(game).table.turns) == len(TURNS) + 1
    sent = []
    page.on("request", lambda request: sent.append(request.url) if "/api/" in request.url else None)
    page.click("[data-action=confirm]")  # still the card of the move just confirmed
    page.wait_for_timeout(300)
    assert [url for url in sent if "confirm" in url] == []
    for route in held:
        route.continue_()
    expect(page.locator(".turns li")).to_have_count(len(TURNS) + 1)
    expect(page.locator("#toast")).to_be_hidden()
    assert len(live.games.get(game).table.turns) == len(TURNS) + 1


def test_winner_moment_on_every_screen_and_the_archive(live, open_page):
    from playwright.sync_api import expect

    game = live.game()
    tv = open_page("tv", f"{live.base}/games/{game}/table")
    tablet = open_page("tablet", f"{live.base}/games/{game}/tablet")
    phone = open_page("phone", f"{live.base}/games/{game}/sheet")
    tablet.click("[data-open=end-dialog]")
    tablet.click("#end-dialog [data-action=finish][data-went-out='']")
    for page in (tv, tablet, phone):
        expect(page.locator("[data-winner]")).to_be_visible()
        # Two players scored 5, the most: a tie.
        expect(page.locator("[data-winner] h2")).to_contain_text(
            f"A tie: {PLAYERS[1]}, {PLAYERS[5]} share the win!")
        expect(page.locator("[data-winner] tr.won")).to_have_count(2)
        # turns 2 and 6 both scored 5: both are named, not the earlier alone
        expect(page.locator("[data-winner] .best")).to_contain_text("5 points each:")
        expect(page.locator("[data-winner] .best")).to_contain_text("(turn 2), ")
        expect(page.locator("[data-winner] .best")).to_contain_text("(turn 6).")
        # Nothing else happens on that game: the waiting move and the buttons are gone.
        # (Each part of the page follows the stream on its own: wait for every one.)
        expect(page.locator(".pending, [data-action=confirm], [data-action=undo]")
               ).to_have_count(0)
        expect(page.locator(".camera")).to_have_count(0)
    assert inside_viewport(tv, "[data-winner]") and overflow(tv)["y"] == 0
    # the TV shows the card where a TV that loads the page now shows it
    ended_live = box(tv, "[data-winner]")
    tv.reload()
    expect(tv.locator("[data-winner]")).to_be_visible()
    assert box(tv, "[data-winner]") == ended_live
    card, standings = box(phone, "[data-winner]"), box(phone, "[data-winner] .standings")
    assert standings["x"] + standings["width"] <= card["x"] + card["width"]  # six long names
    tv.screenshot(path=str(DOCS / "tv-winner.png"))

    # The archive: the winner; an unfinished game can be resumed; an empty game is listed only
    # while it is the one at the table.
    colours = live.app.config["COLOURS"]
    empty = live.games.create(("Cy", "Di"), colours).row.id
    unfinished = live.game(players=("Ann", "Bob"), turns=TURNS[:2])
    newest = live.games.create(("Ed", "Flo"), colours).row.id
    unfinished_row = f"[data-game-row='{unfinished}']"
    archive = open_page("phone", f"{live.base}/games")
    expect(archive.locator("[data-game-row]")).to_have_count(3)
    assert archive.locator(f"[data-game-row='{empty}']").count() == 0
    # the game at the table is not offered for resuming: it says where it is
    expect(archive.locator(f"[data-game-row='{newest}']")).to_contain_text("At the table now.")
    assert archive.locator(f"[data-game-row='{newest}']", has_text="Resume").count() == 0
    expect(archive.locator(f"[data-game-row='{game}']")).to_contain_text(
        f"A tie: {PLAYERS[1]}, {PLAYERS[5]}.")
    archive.click(f"{unfinished_row} [data-action=resume]")
    archive.click("#ask-dialog [data-ask-yes]")  # asked first: test_resume_asks_first_...
    archive.wait_for_url(f"**/games/{unfinished}/tablet")
    expect(archive.locator(".turns li")).to_have_count(2)


def test_player_history_counts_by_name_and_merges(live, open_page):
    from playwright.sync_api import expect

    for players in (("Ann", "Bob"), ("ann ", "Cy"), ("Annie", "Bob")):
        game = live.game(players=players, turns=TURNS[:2])
        live.games.act(game, "finish", {"went_out": None})
    page = open_page("landscape tablet", f"{live.base}/players")
    ann = page.locator("tr[data-player='ann ']")  # the latest spelling names the player
    expect(ann.locator("td").nth(0)).to_have_text("2")  # games: "Ann" and "ann " are one
    page.select_option("[data-merge] [name=name]", "Annie")
    page.select_option("[data-merge] [name=into]", "ann ")
    page.click("[data-merge] button[type=submit]")
    expect(ann.locator("td").nth(0)).to_have_text("3")
    expect(page.locator("tr[data-player='Annie']")).to_have_count(0)


def test_arabic_tile_buttons_follow_the_board_picture(live, open_page):
    game = live.games.create(("Ann", "Bob"), live.app.config["COLOURS"]).row.id
    live.games.detected(tiles((0, 0, "RCi"), (2, 0, "RDi"), (1, 0, "RSq")), True, "", [])
    page = open_page("phone", f"{live.base}/lang?code=ar&next=/games/{game}/tablet")
    assert page.get_attribute("html", "dir") == "rtl"

    def left_to_right(selector: str, label: str) -> list[str]:
        found = page.eval_on_selector_all(selector, f"""els => els.map(e => [
            e.getBoundingClientRect().x, {label}])""")
        return [name for _, name in sorted(found)]

    on_board = left_to_right(".board .new", "e.querySelector('use').getAttribute('href')")
    buttons = left_to_right("[data-pending-tiles] button",
                            "e.querySelector('use').getAttribute('href')")
    assert on_board == buttons == ["#s-circle", "#s-square", "#s-diamond"]


def test_tv_shows_a_new_turns_score_large_for_a_few_seconds(live, open_page):
    from playwright.sync_api import expect

    game = live.game()
    tv = open_page("small tv", f"{live.base}/games/{game}/table")
    expect(tv.locator("#flash")).to_be_hidden()  # not for the turns already played
    live.games.confirm(game)  # the waiting blue square: 4 points for Alexandria
    flash = tv.locator("#flash .last-move")
    expect(flash).to_be_visible()
    expect(flash).to_contain_text(f"{PLAYERS[0]} +4")
    assert float(flash.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 72
    expect(tv.locator("#flash")).to_be_hidden(timeout=8000)
    expect(tv.locator(".banner .last-move")).to_contain_text("+4")


# The lines a piece of text takes on screen: the distinct tops of its text's boxes.
TEXT_LINES = """(el) => {
    const range = document.createRange();
    const tops = [];
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) if (r.width > 0) tops.push(Math.round(r.top));
    }
    return tops;
  }"""


def test_the_qwirkle_watch_checkbox_sits_beside_its_label(live, open_page):
    for size in ("tablet", "tv"):
        page = open_page(size, f"{live.base}/setup")
        check = box(page, "label.option input")
        first_line = min(page.eval_on_selector("label.option", TEXT_LINES))
        assert first_line < check["y"] + check["height"], size  # not on a line below it


def test_the_players_headers_never_break_inside_a_word_on_a_phone(live, open_page):
    for players in (("Ann", "Bartholomew"), ("Ann", "Cy")):
        live.games.act(live.game(players=players, turns=TURNS[:2]), "finish", {"went_out": None})
    page = open_page("phone", f"{live.base}/players")
    for header in page.locator(".sheet.players thead th").all():
        assert len(set(header.evaluate(TEXT_LINES))) == 1, header.text_content()
    assert overflow(page)["x"] == 0


# Six names as players type them: first and last, longer than a narrow column.
TYPED = ("Alexandra Montgomery", "Christopher Henderson", "Maximiliana Oyelaran",
         "Bartholomew Fitzgerald", "Nguyễn Thị Phương Thảo", "Wilhelmina van der Merwe")


@pytest.mark.parametrize("size", ["tv", "landscape tablet"])
def test_six_players_score_sheet_fits_the_tablet_views_column(live, open_page, size):
    """The right-hand column scrolled six players' sheet sideways even on the TV: it fits,
    each name cut short keeping the whole name in its title."""
    game = live.game(players=TYPED)
    page = open_page(size, f"{live.base}/games/{game}/tablet")
    scroll = page.locator("[data-part=sheet] .sheet-scroll")
    assert scroll.evaluate("e => e.scrollWidth - e.clientWidth") == 0
    titles = page.locator("[data-part=sheet] thead .name").evaluate_all(
        "names => names.map((n) => n.title)")
    assert titles == list(TYPED)


def test_the_players_page_shows_typed_names_whole_on_a_phone(live, open_page):
    """The players page is read for its names: on a phone they were cut to
    "Alexandr… Montgo…"; they wrap between their words, the page no wider."""
    for pair in zip(TYPED[::2], TYPED[1::2], strict=True):
        live.games.act(live.game(players=pair, turns=TURNS[:2]), "finish", {"went_out": None})
    page = open_page("phone", f"{live.base}/players")
    cut = page.locator(".sheet.players tbody .name").evaluate_all(
        "names => names.filter((n) => n.scrollWidth > n.clientWidth).map((n) => n.title)")
    assert cut == [] and overflow(page)["x"] == 0


def test_the_chart_legend_and_the_winner_card_on_a_phone(live, open_page):
    game = live.game()
    live.games.act(game, "finish", {"went_out": None})
    sheet = open_page("phone", f"{live.base}/games/{game}/sheet")
    name, total = box(sheet, ".legend .name"), box(sheet, ".legend .points")
    assert total["x"] - (name["x"] + name["width"]) >= 4  # "Alexandria 5", not "…a5"
    arabic = open_page("phone", f"{live.base}/lang?code=ar&next=/games/{game}/sheet")
    name, total = box(arabic, ".legend .name"), box(arabic, ".legend .points")
    assert name["x"] - (total["x"] + total["width"]) >= 4  # the total on the left, apart
    table = open_page("phone", f"{live.base}/games/{game}/table")
    header, card = box(table, "header.top"), box(table, "[data-winner]")
    assert card["y"] >= header["y"] + header["height"]  # the menu stays readable
    for row in table.locator("[data-winner] .standings tbody th").all():
        dot, who = row.locator(".seat-dot").bounding_box(), row.locator(".name").bounding_box()
        # Beside the name, on its first line, not on a line of its own above it.
        assert who["y"] <= dot["y"] + dot["height"] / 2 <= who["y"] + who["height"]


def test_a_latin_name_cut_short_on_an_arabic_tv_keeps_its_start(live, open_page):
    """The scoreboard cuts a long name with an ellipsis: at its end, where an English page
    cuts it, not at its start ("...liana Wolkenstein")."""
    names = ("Maximiliana Wolkenstein-Hohenberg", "Bartholomew Fitzgeraldine")
    game = live.games.create(names, live.app.config["COLOURS"]).row.id
    page = open_page("phone", f"{live.base}/lang?code=ar&next=/games/{game}/table")
    cut = page.eval_on_selector_all(".scoreboard .player", """els => els.map(e => [
        e.scrollWidth > e.clientWidth, getComputedStyle(e).direction])""")
    assert [True, "ltr"] in cut and all(direction == "ltr" for _, direction in cut), cut


def test_two_tablets_saying_yes_to_one_undo_take_back_one_turn(live, open_page):
    from playwright.sync_api import expect

    game = live.game()
    first, second = (open_page("tablet", f"{live.base}/games/{game}/tablet") for _ in range(2))
    for page in (first, second):
        page.click("[data-action=undo]")
        expect(page.locator("#ask-dialog")).to_contain_text("Undo turn 6")
    first.click("#ask-dialog [data-ask-yes]")
    expect(first.locator("#notice")).to_contain_text("Undone: turn 6")
    # the second tablet's question is about turns that changed: it closes and says so (a Yes
    # before it did is refused by the server: test_webui_api)
    expect(second.locator("#ask-dialog")).to_be_hidden()
    expect(second.locator("#toast")).to_contain_text("The turns changed on another device")
    expect(second.locator("#notice")).to_be_hidden()
    expect(second.locator(".turns li")).to_have_count(len(TURNS) - 1)
    first.click("#notice [data-action=redo]")
    expect(second.locator(".turns li")).to_have_count(len(TURNS))


@pytest.mark.parametrize("action, index, edited", [
    ("undo", 5, tiles((0, 4, "PCi"))),
    ("void", 0, tiles((0, 0, "RCi"), (1, 0, "RSq"), (2, 0, "RSt"))),
])
def test_an_undo_or_remove_question_closes_once_another_device_edits_that_turn(
        live, open_page, action, index, edited):
    """Answered Yes after another tablet had saved an edit of the turn asked about, its Redo
    put the turn back as it stood before that edit: the other tablet's fix was lost."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    page.click(f"[data-action={action}][data-index='{index}']")
    expect(page.locator("#ask-dialog")).to_contain_text(f"turn {index + 1}")
    live.games.edit(game, index, _turn_json(Place(edited)))
    expect(page.locator("#ask-dialog")).to_be_hidden()
    expect(page.locator("#toast")).to_contain_text("The turns changed on another device")
    expect(page.locator("#notice")).to_be_hidden()
    assert live.games.get(game).table.turns[index].turn == Place(edited)


def test_back_to_a_game_the_table_left_opens_the_game_at_the_table(live, open_page):
    """Back showed the browser's kept copy of a game's tablet view after a new game had
    taken the table; until its stream said so, an Undo tapped there took a turn out of the
    old game, and the page then moved to the new one, which offered no Redo."""
    import re

    from playwright.sync_api import expect

    old = live.game()
    page = open_page("tablet", f"{live.base}/games/{old}/tablet")
    new = live.games.create(("Cat", "Dan"), live.app.config["COLOURS"]).row.id
    page.wait_for_url(f"**/games/{new}/tablet")  # it followed the table, through its stream
    # a phone whose stream is slow to come back: only the server can say where the table is
    page.add_init_script("window.EventSource = class { static CLOSED = 2; readyState = 0; "
                         "addEventListener() {} close() {} };")
    page.go_back()
    expect(page).to_have_url(re.compile(f"/games/{new}/tablet$"))
    assert page.get_attribute("body", "data-game") == str(new)
    assert len(live.games.get(old).table.turns) == len(TURNS)


@pytest.mark.parametrize("size, scrolled", [("tablet", False), ("phone", True)])
def test_the_redo_notice_hides_nothing_that_was_in_view(live, open_page, size, scrolled):
    """The Undo notice floats above the Confirm bar for 20 seconds: the page moves up by its
    height, so what was in view above the bar stays in view, and at the foot of the page the
    last line can still be scrolled clear of it."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page(size, f"{live.base}/games/{game}/tablet")
    if scrolled:
        page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    page.click("[data-action=undo]")
    seen_down_to = page.evaluate("scrollY") + box(page, "[data-action-bar]")["y"]
    page.click("#ask-dialog [data-ask-yes]")
    expect(page.locator(".turns li")).to_have_count(len(TURNS) - 1)
    expect(page.locator("#notice")).to_be_visible()
    page.wait_for_timeout(300)  # the parts are redrawn
    assert page.evaluate("scrollY") + box(page, "#notice")["y"] >= seen_down_to - 1
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    last = page.evaluate("document.querySelector('main').lastElementChild.getBoundingClientRect()"
                         ".bottom")
    assert last <= box(page, "#notice")["y"]
    # Redo: the notice and its room go.
    page.click("#notice [data-action=redo]")
    expect(page.locator("#notice")).to_be_hidden()
    assert page.evaluate("getComputedStyle(document.body).paddingBottom") == "96px"


@pytest.mark.parametrize("size", ["tablet", "phone"])
def test_with_no_move_waiting_the_redo_notice_sits_at_the_bottom(live, open_page, size):
    """No move waits, so there is no Confirm bar for the notice to stand above: it sits at
    the foot of the screen (it floated 96 px up, over the page), a message above it, and the
    page's last line still scrolls clear of it."""
    from playwright.sync_api import expect

    game = live.game()
    live.games.confirm(game)  # no camera here: nothing is offered again after the undo
    page = open_page(size, f"{live.base}/games/{game}/tablet")
    page.click("[data-action=undo]")
    page.click("#ask-dialog [data-ask-yes]")
    expect(page.locator("#notice")).to_be_visible()
    expect(page.locator("[data-action-bar]")).to_have_count(0)
    notice = box(page, "#notice")
    assert page.viewport_size["height"] - (notice["y"] + notice["height"]) <= 12.5
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    last = page.evaluate("document.querySelector('main').lastElementChild.getBoundingClientRect()"
                         ".bottom")
    assert last <= box(page, "#notice")["y"]
    page.evaluate("document.getElementById('toast').hidden = false")
    toast = box(page, "#toast")
    assert toast["y"] + toast["height"] <= box(page, "#notice")["y"]


@pytest.mark.parametrize("size", ["tablet", "phone"])
def test_a_disagreement_shows_in_the_first_screen_under_an_answered_move(live, open_page,
                                                                         size):
    """A move confirmed, then the camera misses tiles the game holds: "The camera and the
    game disagree" and its way out show without scrolling. The empty move card kept the
    answered card's height, and the disagreement lay below a screen of blank (session 39's
    play-through: up to 1,000 px)."""
    from playwright.sync_api import expect

    game = live.game()
    live.games.set_camera("live")
    page = open_page(size, f"{live.base}/games/{game}/tablet")
    page.locator("[data-action=confirm]").click()
    expect(page.locator(".turns li")).to_have_count(len(TURNS) + 1)
    expect(page.locator(".pending.empty")).to_be_visible()
    held = live.games.get(game).table.board
    live.games.set_view([(x, y, held.get((x, y))) for x, y in held if y == 0], [])
    heading = page.locator("[data-reconcile] h2", has_text="disagree")
    expect(heading).to_be_visible()
    assert box(page, "[data-reconcile] h2")["y"] < page.viewport_size["height"] * 0.6


@pytest.mark.parametrize("size", ["phone", "tablet", "small tv", "tv"])
def test_the_bag_count_shows_above_the_redo_notice_after_an_undo(live, open_page, size):
    """The undone tiles still lie on the table, so the camera offers them again at once:
    their card, drawn above Undo, pushed "N tiles in the bag" under the Redo notice (or the
    Confirm bar) for the notice's seconds. The count the undo changed stays in view, above
    the notice."""
    from playwright.sync_api import expect

    game = live.game()
    live.games.confirm(game)
    laid = live.games.get(game).table.board.placed()

    def camera(seen_by: Game) -> list[Offer]:  # sees every tile laid
        held = seen_by.expected_board()
        lost = tuple(t for t in laid if (t[0], t[1]) not in held)
        return [(lost, None)] if lost else []

    live.games.on_board = camera
    bag = live.games.get(game).table.bag_size
    page = open_page(size, f"{live.base}/games/{game}/tablet")
    page.click("[data-action=undo]")
    page.click("#ask-dialog [data-ask-yes]")
    expect(page.locator(".pending [data-pending-tiles] li")).to_have_count(len(SEEN))
    expect(page.locator(".other-turns .bag")).to_have_text(f"{bag + len(SEEN)} tiles in the bag")
    expect(page.locator("#notice")).to_be_visible()
    page.wait_for_timeout(300)  # the parts are redrawn
    count, notice = box(page, ".other-turns .bag"), box(page, "#notice")
    assert count["y"] >= 0 and count["y"] + count["height"] <= notice["y"]


def test_redo_is_no_longer_offered_once_another_tablet_changes_the_turns(live, open_page):
    """The exchange removed here, then entered again on another tablet: Redo would record
    it twice, so it is no longer offered, nor after a reload."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    page.click("[data-action=void][data-index='2']")
    page.click("#ask-dialog [data-ask-yes]")
    expect(page.locator("#notice")).to_contain_text("Removed: turn 3")
    live.games.play(game, {"kind": "exchange", "count": 3})
    expect(page.locator(".turns li")).to_have_count(len(TURNS))
    expect(page.locator("#notice")).to_be_hidden()
    page.reload()
    expect(page.locator(".turns li")).to_have_count(len(TURNS))
    expect(page.locator("#notice")).to_be_hidden()


def test_an_edit_that_made_a_placement_an_exchange_can_be_undone(live, open_page):
    """One tap on "Make it an exchange of: 1" took the turn's tiles out of the game, and no
    edit of an exchange lays tiles: the notice now offers Undo, which puts the turn back."""
    from playwright.sync_api import expect

    game = live.game()
    last = len(TURNS) - 1
    before = live.games.get(game).table.turns[last]
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    page.click(f"[data-action=edit][data-index='{last}']")
    page.click("#edit-dialog [data-action=edit-exchange][data-count='1']")
    expect(page.locator("#notice")).to_contain_text(f"Changed: turn {last + 1}")
    assert isinstance(live.games.get(game).table.turns[last].turn, Exchange)
    expect(page.locator("#notice [data-action=redo]")).to_have_text("Undo")
    page.reload()  # kept for the tab, as Redo is
    page.click("#notice [data-action=redo]")
    expect(page.locator("#notice")).to_be_hidden()
    expect(page.locator(f".turns li[data-turn='{last}'] .what .tile")).to_have_count(1)
    assert live.games.get(game).table.turns[last] == before


def test_two_tablets_entering_one_exchange_record_it_once(live, open_page):
    from playwright.sync_api import expect

    game = live.game()
    first, second = (open_page("tablet", f"{live.base}/games/{game}/tablet") for _ in range(2))
    for page in (first, second):
        page.click("[data-open=exchange-dialog]")
    first.click("#exchange-dialog [data-action=exchange][data-count='2']")
    expect(second.locator(".turns li")).to_have_count(len(TURNS) + 1)
    # the second tablet's dialog closes and says why (a tap before it did is refused)
    expect(second.locator("#exchange-dialog")).to_be_hidden()
    expect(second.locator("#toast")).to_contain_text("The turns changed on another device")
    assert len(live.games.get(game).table.turns) == len(TURNS) + 1


def test_a_second_tablet_starting_a_game_a_moment_later_is_told_first(live, open_page):
    """Two groups' tablets pressed "Start the game" a moment apart: both made a game, and
    one group's left the table unseen. The second is told, and a second press takes the
    table for its own game."""
    from playwright.sync_api import expect

    live.game()
    pages = [open_page("phone", f"{live.base}/setup") for _ in range(2)]
    for page, names in zip(pages, (("Gil", "Hal"), ("Ivy", "Jo")), strict=True):
        for i, name in enumerate(names):
            page.fill(f"input[name=player] >> nth={i}", name)
    first, second = pages
    first.click("[data-setup] button[type=submit]")
    first.wait_for_url("**/games/*/tablet")
    second.click("[data-setup] button[type=submit]")
    expect(second.locator("#toast")).to_contain_text("A game was started at this table since")
    assert "/setup" in second.url
    assert list(live.games.get(live.games.current_id()).table.players) == ["Gil", "Hal"]
    second.click("[data-setup] button[type=submit]")
    second.wait_for_url("**/games/*/tablet")
    assert list(live.games.get(live.games.current_id()).table.players) == ["Ivy", "Jo"]


def test_a_start_refused_for_its_names_still_says_another_game_began(live, open_page):
    """A start refused for another reason (two seats of one name) took the game now at the
    table as the one this page had seen: when another group had started a game meanwhile,
    the corrected start then took the table from it unseen. Only the refusal that says so
    (table_changed) lets the next press take the table."""
    from playwright.sync_api import expect

    live.game()
    page = open_page("phone", f"{live.base}/setup")
    for i, name in enumerate(("Ivy", "ivy")):
        page.fill(f"input[name=player] >> nth={i}", name)
    live.games.create(("Gil", "Hal"), live.app.config["COLOURS"])  # on another tablet
    page.click("[data-setup] button[type=submit]")
    expect(page.locator("#toast")).to_contain_text("both called")
    page.fill("input[name=player] >> nth=1", "Jo")
    page.click("[data-setup] button[type=submit]")
    expect(page.locator("#toast")).to_contain_text("A game was started at this table since")
    assert list(live.games.get(live.games.current_id()).table.players) == ["Gil", "Hal"]
    page.click("[data-setup] button[type=submit]")  # told, a second press takes the table
    page.wait_for_url("**/games/*/tablet")
    assert list(live.games.get(live.games.current_id()).table.players) == ["Ivy", "Jo"]


def test_the_fix_dialog_closes_once_another_device_acts_on_its_move(live, open_page):
    """The move this tablet is fixing is confirmed, set aside or fixed on another device:
    the dialog closes and says which, where its fix was then refused ("there is no move
    waiting for confirmation"). So does the edit dialog once its turn changes."""
    from playwright.sync_api import expect

    game = live.game()
    live.games.detected(BEHIND, True, "", [])  # a second move waits behind
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    dialog, toast = page.locator("#fix-dialog"), page.locator("#toast")
    for act, said in ((lambda: live.games.confirm(game), "confirmed on another device"),
                      (lambda: live.games.dismiss(game), "set aside on another device"),
                      (lambda: live.games.fix_pending(game, [
                          {"x": 4, "y": 1, "colour": "green", "shape": "cross"}]),
                       "no longer the one shown")):
        if said.startswith("no longer"):
            live.games.detected(tiles((4, 1, "BCr")), True, "", [])
        page.locator("[data-pending-tiles] [data-fix='0']").click()
        expect(dialog).to_be_visible()
        act()
        expect(dialog).to_be_hidden()
        expect(toast).to_contain_text(said)
    assert len(live.games.get(game).table.turns) == len(TURNS) + 1
    assert live.games.get(game).pending.tiles == tiles((4, 1, "GCr"))  # as the other fixed it

    page.click("[data-action=edit][data-index='2']")
    page.click("#edit-dialog [data-action=edit-exchange][data-count='2']")  # saved here
    page.click("[data-action=edit][data-index='0']")
    page.click("#edit-dialog [data-edit-fix='0']")  # the fix dialog over the edit dialog
    expect(dialog).to_be_visible()
    live.games.edit(game, 0, _turn_json(Place(tiles((0, 0, "RCi"), (1, 0, "RSq"),
                                                    (2, 0, "RSt")))))
    expect(page.locator("#edit-dialog")).to_be_hidden()
    expect(dialog).to_be_hidden()
    expect(toast).to_contain_text("This turn was changed or removed on another device")


def test_an_edit_keeps_its_fixes_while_other_turns_come_and_goes_once_its_turn_changes(
        live, open_page):
    """At a busy table another tablet confirms a move every minute: the edit dialog of an
    old turn closed each time, and the fixes made in it were lost. It stays open, saves,
    and its Undo stays offered while other turns come and go; it closes once another device
    changes its own turn (its save would undo that change)."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    edit = page.locator("#edit-dialog")
    page.click(".turns li[data-turn='0'] [data-action=edit]")
    edit.locator("[data-edit-fix='2']").click()  # the red diamond was a red star
    page.click("#fix-dialog [data-pick-shape='star']")
    page.click("#fix-dialog [data-fix-use]")
    expect(edit.locator("[data-edit-now]")).to_contain_text("Once saved: 3 tiles")
    live.games.confirm(game)  # on another tablet
    expect(page.locator(".turns li")).to_have_count(len(TURNS) + 1)
    expect(edit).to_be_visible()
    edit.locator("[data-action=save-edit]").click()
    expect(page.locator("#notice")).to_contain_text("Changed: turn 1")
    fixed = live.games.get(game).table.turns[0].turn
    assert fixed == Place(tiles((0, 0, "RCi"), (1, 0, "RSq"), (2, 0, "RSt")))
    live.games.play(game, {"kind": "exchange", "count": 2})  # on another tablet
    expect(page.locator(".turns li")).to_have_count(len(TURNS) + 2)
    page.click("#notice [data-action=redo]")  # the edit's Undo
    expect(page.locator("#notice")).to_be_hidden()
    expect(page.locator(".turns li[data-turn='0'] .what use[href='#s-diamond']")).to_have_count(1)
    assert live.games.get(game).table.turns[0].turn == TURNS[0]
    assert len(live.games.get(game).table.turns) == len(TURNS) + 2

    page.click(".turns li[data-turn='0'] [data-action=edit]")
    live.games.edit(game, 0, _turn_json(Place(tiles((0, 0, "RCi"), (1, 0, "RSq"),
                                                    (2, 0, "RSt")))))  # another tablet's edit
    expect(edit).to_be_hidden()
    expect(page.locator("#toast")).to_contain_text("This turn was changed or removed on another")


LIKE_EXCHANGES = (*TURNS, Exchange(3), Exchange(3))
"""Two exchanges of 3 at the end (turns 7 and 8): removing turn 7 moves its like into place."""


def test_an_edit_closes_once_another_device_moves_a_like_turn_into_its_place(live, open_page):
    """The edit dialog of turn 7, an exchange of 3, stayed open when another device removed
    that turn: turn 8, another exchange of 3, now at its number, looked the same. The turn's
    id tells them apart."""
    from playwright.sync_api import expect

    game = live.game(turns=LIKE_EXCHANGES)
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    page.click(".turns li[data-turn='6'] [data-action=edit]")
    expect(page.locator("#edit-dialog")).to_be_visible()
    live.games.take_back(game, 6)  # on another tablet
    expect(page.locator(".turns li")).to_have_count(len(TURNS) + 1)
    expect(page.locator("#edit-dialog")).to_be_hidden()
    expect(page.locator("#toast")).to_contain_text("This turn was changed or removed on another")


@pytest.mark.parametrize("action, said", [
    ("edit", "Turn 7 is no longer as it was when the edit began"),
    ("void", "Turn 7 is no longer the turn you asked about"),
])
def test_a_tablet_that_missed_a_like_turn_taking_its_turns_place_changes_nothing(
        live, open_page, action, said):
    """A tablet whose stream had not yet brought another device's removal of turn 7, an
    exchange of 3 (and, for a Remove, a new exchange of 3 entered since, so the count of
    turns is as it saw it), saved its edit of that turn, or said Yes to removing it: the
    like exchange now at turn 7 was changed or removed instead. The tablet names the turn's
    id, and the server refuses."""
    from playwright.sync_api import expect

    game = live.game(turns=LIKE_EXCHANGES)
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    # a stream slow to bring the change: only the answer to the tap can say it
    page.add_init_script("window.EventSource = class { static CLOSED = 2; readyState = 0; "
                         "addEventListener() {} close() {} };")
    page.reload()
    page.click(f".turns li[data-turn='6'] [data-action={action}]")
    live.games.take_back(game, 6)  # on another tablet
    if action == "edit":
        page.click("#edit-dialog [data-action=edit-exchange][data-count='2']")
    else:
        live.games.play(game, {"kind": "exchange", "count": 3})
        page.click("#ask-dialog [data-ask-yes]")
    expect(page.locator("#toast")).to_contain_text(said)
    left = live.games.get(game).table.turns
    assert [r.turn for r in left[len(TURNS):]] == [Exchange(3)] * (len(left) - len(TURNS))
    assert len(left) == len(TURNS) + (1 if action == "edit" else 2)


def test_the_starts_edit_keeps_its_fixes_while_turns_come_and_goes_once_the_start_changes(
        live, open_page):
    """The start's edit closed whenever another tablet confirmed a turn, and its fixes were
    lost, as the turn's edit once did: it stays open and saves, and closes once another
    device changes the start itself."""
    from playwright.sync_api import expect
    from replay_scenes import BOARD_MOVE_1, START

    from webui.codec import placed_json

    game = live.games.create(("Ann", "Bob"), live.app.config["COLOURS"]).row.id
    for move in (START, BOARD_MOVE_1):  # entered by hand: the start, then move 1
        live.games.fix_pending(game, placed_json(move))
        live.games.confirm(game)
    start = live.games.get(game).table.start.placed()
    diamond = next(i for i, (x, y, _) in enumerate(start) if (x, y) == (6, 1))
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    edit = page.locator("#edit-dialog")
    page.click("[data-action=edit-start]")
    edit.locator(f"[data-edit-fix='{diamond}']").click()  # the blue diamond was a blue cross
    page.click("#fix-dialog [data-pick-shape='cross']")
    page.click("#fix-dialog [data-fix-use]")
    live.games.play(game, {"kind": "exchange", "count": 2})  # on another tablet
    expect(page.locator(".turns li")).to_have_count(2)
    expect(edit).to_be_visible()
    edit.locator("[data-action=save-edit]").click()
    expect(edit).to_be_hidden()
    expect(page.locator("#toast")).to_be_hidden()
    assert Tile("blue", "cross") in {t for x, y, t in live.games.get(game).table.start.placed()
                                     if (x, y) == (6, 1)}

    page.click("[data-action=edit-start]")
    live.games.edit_start(game, placed_json(start))  # another tablet puts the diamond back
    expect(edit).to_be_hidden()
    expect(page.locator("#toast")).to_contain_text("The board game's start was changed")


def test_the_end_dialog_and_play_on_close_once_another_device_did_it(live, open_page):
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    page.click("[data-open=end-dialog]")
    _closes_when_ended_elsewhere(live, page, game, "#end-dialog")
    page.click("[data-winner] [data-action=play-on]")
    expect(page.locator("#ask-dialog")).to_be_visible()
    live.games.play_on(game)
    expect(page.locator("#ask-dialog")).to_be_hidden()
    expect(page.locator("#toast")).to_contain_text("The end was already taken back")
    expect(page.locator("[data-winner]")).to_have_count(0)


def test_an_open_edit_dialog_closes_when_another_device_ends_the_game(live, open_page):
    """Saved after the end, it changed a finished game's turn with no word said."""

    game = live.game()
    live.games.play(game, {"kind": "exchange", "count": 1})
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    page.click("[data-action=edit][data-index='0']")
    _closes_when_ended_elsewhere(live, page, game, "#edit-dialog")


@pytest.mark.parametrize("action", ["undo", "edit"])
def test_redo_and_an_edits_undo_go_once_another_device_ends_the_game(live, open_page, action):
    """Still on screen after the game ended elsewhere, the notice's Redo (or an edit's Undo)
    was refused when tapped: "the game is over"."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    if action == "undo":
        page.click("[data-action=undo]")
        page.click("#ask-dialog [data-ask-yes]")
    else:
        page.click(".turns li[data-turn='2'] [data-action=edit]")
        page.click("#edit-dialog [data-action=edit-exchange][data-count='1']")
    expect(page.locator("#notice")).to_be_visible()
    live.games.act(game, "finish", {"went_out": None})
    expect(page.locator("[data-winner]")).to_be_visible()
    expect(page.locator("#notice")).to_be_hidden()
    page.reload()  # nor is it offered again for the rest of its seconds
    expect(page.locator("[data-winner]")).to_be_visible()
    expect(page.locator("#notice")).to_be_hidden()


def test_resume_asks_first_and_says_what_it_does(live, open_page):
    """One tap on Resume moved the TV and every tablet to an old game, and with a camera
    the tiles on the table were then offered as a move in it: it asks first, in the page."""
    from playwright.sync_api import expect

    old = live.game()
    now = live.game(players=("Cat", "Dan"))
    page = open_page("tablet", f"{live.base}/games")
    resume = page.locator(f"[data-game-row='{old}'] [data-action=resume]")
    resume.click()
    ask = page.locator("#ask-dialog")
    expect(ask).to_contain_text("The TV and every tablet switch to it")
    expect(ask).to_contain_text("the camera offers any tile on the table")
    ask.locator("button[value=no]").click()
    expect(ask).to_be_hidden()
    assert live.games.current_id() == now and page.url == f"{live.base}/games"
    resume.click()
    ask.locator("[data-ask-yes]").click()
    page.wait_for_url(f"**/games/{old}/tablet")
    assert live.games.current_id() == old


def _closes_when_ended_elsewhere(live, page, game: int, dialog: str) -> None:
    """The open ``dialog`` closes, with a word why, when another device ends the game."""
    from playwright.sync_api import expect

    expect(page.locator(dialog)).to_be_visible()
    live.games.act(game, "finish", {"went_out": None})
    expect(page.locator(dialog)).to_be_hidden()
    expect(page.locator("#toast")).to_contain_text("The game was ended on another device")


def test_a_refusal_on_a_phone_leaves_confirm_free_to_tap(live, open_page):
    """Another tablet undid the turn first: the message saying so (two lines on a phone)
    stands above the Confirm bar, whose Confirm and Not a move stay free to tap while it
    shows."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    page.click("[data-action=undo]")
    live.games.take_back(game)
    expect(page.locator("#toast")).to_contain_text("The turns changed on another device")
    expect(page.locator(".turns li")).to_have_count(len(TURNS) - 1)
    for button in ("confirm", "dismiss"):
        b = box(page, f"[data-action={button}]")
        hit = page.evaluate(
            "([x, y, b]) => !!document.elementFromPoint(x, y).closest(`[data-action=${b}]`)",
            [b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, button])
        assert hit, button
    assert box(page, "#toast")["y"] + box(page, "#toast")["height"] <= box(
        page, "[data-action-bar]")["y"]


# Records each time the page shows "Connection lost" (the stream's ends are not in view).
WATCH_OFFLINE = """() => {
    window.offlineShown = 0;
    const offline = document.getElementById('offline');
    new MutationObserver(() => { if (!offline.hidden) window.offlineShown += 1; })
      .observe(offline, {attributes: true, attributeFilter: ['hidden']});
  }"""


def test_a_stream_that_ends_as_planned_shows_no_connection_lost(live, open_page):
    """The server ends every event stream after a while (here 3 s, at game night 30 min):
    the TV connects again at once without showing "Connection lost" (it did, for 2 s, each
    time), and still follows the game; once the server is really gone, it says so."""
    from playwright.sync_api import expect

    game = live.game()
    tv = open_page("small tv", f"{live.base}/games/{game}/table")
    tv.evaluate(WATCH_OFFLINE)
    tv.wait_for_timeout(7000)  # two of the streams' ends
    assert tv.evaluate("window.offlineShown") == 0
    live.games.confirm(game)
    expect(tv.locator(".banner .last-move")).to_contain_text("+4")
    live.close()
    expect(tv.locator("#offline")).to_be_visible(timeout=10000)


def test_the_setup_form_refuses_one_name_twice(live, open_page):
    from playwright.sync_api import expect

    setup = open_page("tablet", f"{live.base}/setup")
    for i, name in enumerate(("Ann", "ANN")):
        setup.fill(f"input[name=player] >> nth={i}", name)
    setup.click("[data-setup] button[type=submit]")
    expect(setup.locator("#toast")).to_contain_text("Seats 1 and 2 are both called ANN")
    assert live.games.rows() == [] and setup.url.endswith("/setup")


def test_the_setup_form_closes_up_a_blank_seat_and_names_a_wrong_one(live, open_page):
    """A blank seat 2 with seat 3 filled was stopped by the browser's own "Please fill out
    this field", in the browser's language. The players close up round the blank seat, as
    they sit, and a name refused is said with its seat, as the form numbers it."""
    from playwright.sync_api import expect

    setup = open_page("tablet", f"{live.base}/setup")
    setup.fill("input[name=player] >> nth=0", "Ann")
    setup.fill("input[name=player] >> nth=2", "C" * (MAX_NAME + 1))
    setup.click("[data-setup] button[type=submit]")
    expect(setup.locator("#toast")).to_contain_text(f"Seat 3: A player's name has 1 to {MAX_NAME}")
    assert live.games.rows() == []
    setup.fill("input[name=player] >> nth=2", "Cy")
    setup.click("[data-setup] button[type=submit]")
    setup.wait_for_url("**/games/*/tablet")
    assert [row.players for row in live.games.rows()] == [("Ann", "Cy")]


def test_the_table_is_right_asks_before_it_changes_confirmed_turns(live, open_page):
    """One tap by a guest must not rewrite the game: "The table is right" says how many of
    the game's tiles change and waits for a Yes."""
    from playwright.sync_api import expect

    game = live.game(turns=TURNS[:2])
    # The camera sees the move waiting and every confirmed tile but the red cross, which
    # someone knocked away.
    seen = [t for turn in TURNS[:2] for t in turn.tiles if t[:2] != (4, 0)]
    live.games.set_view([*seen, *SEEN], [])
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    page.click("[data-action=table-accept].big")
    expect(page.locator("#ask-dialog")).to_contain_text("Tiles that change: 1.")
    page.click("#ask-dialog button[value=no]")
    expect(page.locator("#ask-dialog")).to_be_hidden()
    assert len(live.games.get(game).table.turns[1].turn.tiles) == 2
    page.click("[data-action=table-accept].big")
    page.click("#ask-dialog [data-ask-yes]")
    expect(page.locator("[data-action=table-accept][data-x]")).to_have_count(0)  # agreed
    assert [t[:2] for t in live.games.get(game).table.turns[1].turn.tiles] == [(3, 0)]


def test_an_exchange_keeps_its_edit_and_remove_on_its_line_on_a_phone(live, open_page):
    """ "exchanged 3 tiles" is wider than a turn's tiles: it wraps in its own room rather
    than push the turn's buttons onto a line of their own; with names of everyday length
    too, where three tiles stood one above the other beside the name: they go under it."""
    game = live.game(("Chiamaka", "Bo", "Nkechinyere"))
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    for row in ("li[data-turn='2']", "li[data-turn='0']"):
        who, edit = box(page, f"{row} .who"), box(page, f"{row} [data-action=edit]")
        assert edit["y"] < who["y"] + who["height"], row
    tops = page.eval_on_selector_all("li[data-turn='0'] .what svg.tile",
                                     "els => els.map(e => Math.round(e.getBoundingClientRect().y))")
    assert len(tops) == 3 and len(set(tops)) == 1  # the three tiles side by side
    assert overflow(page)["x"] == 0


def test_the_end_dialog_follows_the_bag_while_it_is_open(live, open_page):
    """A simulated game played up to the turn that empties the bag: the end dialog, open on
    one tablet while another device enters that turn, starts offering who went out."""
    from playwright.sync_api import expect

    from engine.selfplay import simulate
    from engine.table import TableGame

    record = next(r for r in (simulate(2, seed) for seed in range(50))
                  if r.moves[0].player == 0 and r.end == "went_out")
    turns, after = [], TableGame.new(["a", "b"], 0)
    for move in record.moves:
        turn = Place(move.tiles) if move.kind == "place" else Exchange(
            min(6, after.bag_size))
        after = after.play(turn)
        turns.append(turn)
        if after.bag_size == 0:
            break
    *before, emptying = turns
    game = live.games.create(PLAYERS[:2], live.app.config["COLOURS"]).row.id
    for turn in before:
        live.games.play(game, _turn_json(turn))
    assert live.games.get(game).table.bag_size > 0
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    page.click("[data-open=end-dialog]")
    choices, note = page.locator("[data-went-out-choices]"), page.locator("[data-bag-note]")
    expect(note).to_be_visible()
    expect(page.locator("[data-pending-note]")).to_be_hidden()  # no move waits
    expect(choices).to_be_hidden()
    live.games.play(game, _turn_json(emptying))  # entered on another device
    expect(choices).to_be_visible()
    expect(note).to_be_hidden()
    expect(page.locator("#end-dialog")).to_be_visible()  # still open: nothing it asks changed
    last = (len(turns) - 1) % 2  # the seat that emptied the bag, and then its hand
    # only that seat can have gone out: the other is not offered
    expect(page.locator(f"#end-dialog [data-went-out='{1 - last}']")).to_be_hidden()
    page.click(f"#end-dialog [data-action=finish][data-went-out='{last}']")
    expect(page.locator("[data-winner]")).to_be_visible()
    ended = live.games.get(game).table
    assert ended.ended and ended.went_out == last


def test_edit_offers_what_the_turn_could_have_been_with_the_bag_as_it_was(live, open_page):
    """Once the bag was empty, Edit offered "Make it a pass" on every turn, and refused it on
    those played while the bag was full; and on a turn played with the bag empty it offered
    exchanges that could never be."""
    from playwright.sync_api import expect

    from engine.selfplay import simulate
    from engine.table import TableGame

    record = simulate(2, 1)
    game = live.games.create(PLAYERS[:2], live.app.config["COLOURS"]).row.id
    after = TableGame.new(["a", "b"], 0)
    for move in record.moves:
        turn = Place(move.tiles) if move.kind == "place" else Exchange(min(6, after.bag_size))
        after = after.play(turn)
        live.games.play(game, _turn_json(turn))
        if after.bag_size == 0:
            break
    live.games.play(game, {"kind": "pass"})
    table = live.games.get(game).table
    last, early = len(table.turns) - 1, 0
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    page.click(f"[data-action=edit][data-index='{early}']")
    expect(page.locator("#edit-dialog [data-action=edit-pass]")).to_be_hidden()
    expect(page.locator("#edit-dialog [data-action=edit-exchange][data-count='6']")).to_be_visible()
    page.click("#edit-dialog button[value=cancel]")
    page.click(f"[data-action=edit][data-index='{last}']")  # the pass, with the bag empty
    expect(page.locator("#edit-dialog [data-edit-exchange]")).to_be_hidden()
    assert table.bag_before(early) > 6 and table.bag_before(last) == 0


def test_a_page_left_open_through_an_upgrade_reloads_once(live, open_page):
    """The server now serves another script (an upgrade while the tablets stayed open): each
    page learns it when its stream next opens, reloads once, and then runs the new one."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    loads = []
    page.on("load", lambda _: loads.append(1))
    expect(page.locator("[data-action=confirm]")).to_be_enabled()
    # A player half-way through a fix is not interrupted: the page waits for a later stream.
    page.click("[data-fix='0']")
    live.app.extensions["qwirkle_assets"] = "upgraded"  # streams here end after 3 s
    page.wait_for_timeout(4000)
    assert loads == [] and page.locator("#fix-dialog").is_visible()
    page.keyboard.press("Escape")
    expect(page.locator("body")).to_have_attribute("data-assets", "upgraded", timeout=15000)
    page.wait_for_timeout(4000)  # another stream comes and goes: no second reload
    assert len(loads) == 1
    expect(page.locator("[data-action=confirm]")).to_be_enabled()


def test_tiles_set_aside_are_taken_back_only_those_tapped(live, open_page):
    """Two moves set aside by "Not a move" (the camera read the blue square, then a green
    one; the first was real): tapping the blue square's tile takes back only it, as a move."""
    from playwright.sync_api import expect

    game = live.game()
    live.games.dismiss(game)
    live.games.detected(tiles((5, 0, "GSq")), True, "", [])
    live.games.dismiss(game)
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    expect(page.locator("[data-aside]")).to_have_count(2)
    # where they lie: both ringed on a picture of the board, the one tapped marked
    rings = page.locator("[data-reconcile] .aside-where .mark")
    expect(rings).to_have_count(2)
    assert sorted(r.get_attribute("data-mark") for r in rings.all()) == ["1,1", "5,0"]
    page.click("[data-aside='1,1']")
    expect(page.locator("[data-aside='1,1']")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-mark='1,1']")).to_have_class("mark chosen")
    expect(page.locator("[data-mark='5,0']")).to_have_class("mark")
    expect(page.locator("[data-action=restore]")).to_have_text(
        "Take the tapped tiles back into the game", use_inner_text=True)
    page.click("[data-action=restore]")
    expect(page.locator("[data-aside]")).to_have_count(1)
    pending = live.games.get(game).pending
    assert pending is not None and pending.tiles == SEEN
    assert list(live.games.get(game).ignored) == [(5, 0)]


def test_the_add_a_tile_cells_stay_a_finger_wide_on_a_phone(live, open_page):
    """The + of a board 18 cells wide on a 390 px phone: each is 44 px wide, the board
    scrolls sideways inside its card with the move waiting in view, and the page itself
    stays as wide as the phone. (At 12-21 px wide, players could not hit them.)"""
    from playwright.sync_api import expect

    wide = (Place(tiles((0, 0, "RCi"), (1, 0, "RSq"), (2, 0, "RDi"), (3, 0, "RCl"),
                        (4, 0, "RCr"), (5, 0, "RSt"))),
            Place(tiles((5, 1, "GSt"), (6, 1, "GCi"), (7, 1, "GSq"), (8, 1, "GDi"),
                        (9, 1, "GCl"), (10, 1, "GCr"))),
            Place(tiles((10, 2, "BCr"), (11, 2, "BCi"), (12, 2, "BSq"), (13, 2, "BDi"),
                        (14, 2, "BCl"), (15, 2, "BSt"))))
    game = live.game(turns=wide)
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    expect(page.locator(".pending .slot").first).to_be_visible()
    boxes = [s.bounding_box() for s in page.locator(".pending .slot").all()]
    assert boxes and min(b["width"] for b in boxes if b) >= 43.5
    waiting = page.locator(".pending .board .new").bounding_box()
    assert waiting is not None and 0 <= waiting["x"] <= 390 - waiting["width"]
    assert overflow(page)["x"] <= 0


# A board 16 cells wide and 8 tall: three lines of six stepping down, and a column of six.
BIG = (Place(tiles((0, 0, "RCi"), (1, 0, "RSq"), (2, 0, "RDi"), (3, 0, "RCl"),
                   (4, 0, "RCr"), (5, 0, "RSt"))),
       Place(tiles((5, 1, "GSt"), (6, 1, "GCi"), (7, 1, "GSq"), (8, 1, "GDi"),
                   (9, 1, "GCl"), (10, 1, "GCr"))),
       Place(tiles((10, 2, "BCr"), (11, 2, "BCi"), (12, 2, "BSq"), (13, 2, "BDi"),
                   (14, 2, "BCl"), (15, 2, "BSt"))),
       Place(tiles((15, 3, "YSt"), (15, 4, "OSt"), (15, 5, "PSt"))))

BOARD_DRAWN = """(svg) => {
    const box = svg.getBoundingClientRect(), view = svg.viewBox.baseVal;
    return {ratio: (box.width / box.height) / (view.width / view.height), width: box.width};
}"""


@pytest.mark.parametrize("size", ["phone", "landscape tablet"])
def test_a_big_board_keeps_its_tiles_and_plus_a_finger_wide_and_opens_at_the_move(
        live, open_page, size):
    """The board of the move waiting: drawn as wide as its box (not squeezed into a strip of
    the screen's height, with a sideways scroller around empty felt), tiles and + at least
    44 px, and the move waiting in view inside the scroller from the start."""
    from playwright.sync_api import expect

    game = live.game(turns=BIG)
    page = open_page(size, f"{live.base}/games/{game}/tablet")
    expect(page.locator(".pending .slot").first).to_be_visible()
    svg = page.locator(".pending svg.board")
    drawn = svg.evaluate(BOARD_DRAWN)
    assert 0.98 < drawn["ratio"] < 1.02, drawn  # the box is the drawing: no empty margins
    # A + answers in its whole cell; a tile is drawn 38/40 of its cell.
    for cell, least in ((".pending .slot", 43.5), (".pending .board .placed", 41.5)):
        sizes = [b for b in (c.bounding_box() for c in page.locator(cell).all()) if b]
        assert sizes and min(min(b["width"], b["height"]) for b in sizes) >= least, cell
    frame, waiting = box(page, ".pending .board-scroll"), box(page, ".pending .board .new")
    for x, w in (("x", "width"), ("y", "height")):
        assert frame[x] <= waiting[x] and waiting[x] + waiting[w] <= frame[x] + frame[w], x
    assert overflow(page)["x"] <= 0


def edge_lightness(page, selector: str) -> dict[str, float]:
    """The mean lightness (0-255) of the outermost 3 px of ``selector`` on each side, from a
    screenshot: the felt and the tiles are dark, a side faded out shows the card's white."""
    import cv2
    import numpy as np

    shot = page.locator(selector).screenshot()
    grey = cv2.imdecode(np.frombuffer(shot, np.uint8), cv2.IMREAD_GRAYSCALE).astype(float)
    return {"left": grey[:, :3].mean(), "right": grey[:, -3:].mean(),
            "top": grey[:3, :].mean(), "bottom": grey[-3:, :].mean()}


def test_a_board_wider_than_a_phone_fades_where_tiles_lie_out_of_sight(live, open_page):
    """A phone showed part of a big board cut square at its box's edge, and nothing said
    that tiles lay off to the side: each side with more of the board beyond it fades out,
    and follows the scrolling."""
    from playwright.sync_api import expect

    game = live.game(turns=BIG)  # the move waiting is at the board's left end
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    expect(page.locator(".pending .slot").first).to_be_visible()
    scroll = ".pending .board-scroll"
    page.locator(scroll).scroll_into_view_if_needed()
    opened = edge_lightness(page, scroll)
    assert opened["right"] > 180 and opened["left"] < 120, opened
    page.eval_on_selector(scroll, "s => { s.scrollLeft = s.scrollWidth; }")
    page.wait_for_timeout(100)
    scrolled = edge_lightness(page, scroll)
    assert scrolled["left"] > 180 and scrolled["right"] < 120, scrolled


def test_enter_by_hand_keeps_every_plus_a_finger_wide(live, open_page):
    game = live.game(turns=BIG)
    live.games.dismiss(game)
    live.games.set_camera("live")
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    page.click(".by-hand summary")
    slots = [b for b in (s.bounding_box() for s in page.locator(".by-hand .slot").all()) if b]
    assert slots and min(min(b["width"], b["height"]) for b in slots) >= 43.5
    assert overflow(page)["x"] <= 0


def test_a_split_move_warns_above_confirm_on_a_small_phone(live, open_page):
    """A move the camera is unsure of reads as one before Confirm: its doubt and the swap
    come before the board, on a warning colour, above the Confirm bar of a 360 x 640 phone."""
    from vision.doubts import Doubt, DoubtKind, SplitOrder

    game = live.games.create(("Ann", "Chidi"), live.app.config["COLOURS"]).row.id
    for turn in TURNS[:2]:
        live.games.play(game, _turn_json(turn))
    for part, cell in ((1, (1, 1, "BSq")), (2, (2, 1, "BDi"))):
        doubt = Doubt(DoubtKind.SPLIT, count=part, of=2, order=SplitOrder.UNKNOWN_EITHER)
        live.games.detected(tiles(cell), True, (doubt,), [()], split=(part, 2))
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    page.set_viewport_size({"width": 360, "height": 640})
    page.wait_for_timeout(200)
    warning, bar = box(page, ".pending .doubt"), box(page, "[data-action-bar]")
    assert warning["y"] + warning["height"] <= bar["y"]
    assert warning["y"] < box(page, ".pending svg.board")["y"]
    text = page.locator(".pending .doubt").inner_text()
    assert "Move 1 of 2 read from one picture" in text and "The camera is unsure" in text
    assert page.locator(".pending .doubt [data-action=swap]").count() == 1
    colour = page.eval_on_selector(".pending .doubt", "e => getComputedStyle(e).backgroundColor")
    assert colour not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)")


def test_two_turns_on_the_tablet_parts_a_move_laid_in_two_spells(live, open_page):
    """A blue square laid, then a blue diamond beside it after a pause: one move on the
    card, flagged, with "Two turns" in its warning above the Confirm bar of a phone; a tap
    gives the square alone, with the diamond waiting behind it, and "One turn" joins them."""
    from playwright.sync_api import expect

    game = live.games.create(("Ann", "Chidi"), live.app.config["COLOURS"]).row.id
    for turn in TURNS[:2]:
        live.games.play(game, _turn_json(turn))
    for spell in ((1, 1, "BSq"), (2, 1, "BDi")):
        live.games.detected(tiles(spell), False, (), [()])
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    assert page.locator(".pending [data-pending-tiles] li").count() == 2
    assert "laid after a pause" in page.locator(".pending .doubt").inner_text()
    part = ".pending .doubt [data-action=part]"
    assert box(page, part)["y"] < box(page, "[data-action-bar]")["y"]
    page.click(part)
    expect(page.locator(".pending [data-pending-tiles] li")).to_have_count(1)
    expect(page.locator(part)).to_have_count(0)
    assert "1 more move is waiting" in page.locator(".pending").inner_text()
    page.click(".pending .doubt [data-action=join]")  # and "One turn" joins them again
    expect(page.locator(".pending [data-pending-tiles] li")).to_have_count(2)


LONG_NAMES = ("Maximiliana Wolfeschlegelsteinhausen", "عبد الرحمن بن عبد العزيز",
              "Bartholomew Featherstonehaugh", "Nguyễn Thị Minh Khai Phương", "Chris", "Zoë")

# A name's lines, and its words: broken only between words, a name has no more lines than words.
NAME_LINES = """(el) => {
    const line = parseFloat(getComputedStyle(el).lineHeight);
    return [Math.round(el.getBoundingClientRect().height / line), el.title,
            el.textContent.trim().split(/\\s+/).length];
}"""


def test_names_in_narrow_columns_break_between_words_only(live, open_page):
    """Score sheet headers, the players table, the turns and the winner's standings: a name
    never stands a letter or two a line; a word too long is cut, the name whole in its title."""
    game = live.game(players=LONG_NAMES)
    done = live.game(players=LONG_NAMES)
    live.games.act(done, "finish", {"went_out": None})
    for path, size in ((f"/games/{game}/sheet", "phone"), ("/players", "phone"),
                       (f"/games/{game}/tablet", "landscape tablet"),
                       (f"/games/{game}/tablet", "phone"), (f"/games/{done}/tablet", "tablet")):
        page = open_page(size, live.base + path)
        page.set_viewport_size({"width": 360, "height": 640} if size == "phone"
                               else page.viewport_size)
        page.wait_for_timeout(200)
        names = page.locator(".name.cut, .sheet.players tbody th .name")
        assert names.count() >= len(LONG_NAMES), path
        for name in names.all():
            if not name.is_visible():
                continue
            lines, title, words = name.evaluate(NAME_LINES)
            assert title in LONG_NAMES and lines <= words, (path, size, title, lines)
    # The six columns of the players table fit a 360 px phone.
    page = open_page("phone", f"{live.base}/players")
    page.set_viewport_size({"width": 360, "height": 640})
    page.wait_for_timeout(200)
    assert page.eval_on_selector(".sheet-scroll", "e => e.scrollWidth - e.clientWidth") <= 0


def test_an_arabic_name_cut_short_on_an_english_tv_keeps_its_start(live, open_page):
    names = ("عبد الرحمن بن عبد العزيز بن محمد آل سعود", "Ann")
    game = live.games.create(names, live.app.config["COLOURS"]).row.id
    page = open_page("phone", f"{live.base}/games/{game}/table")
    cut, direction = page.eval_on_selector(".scoreboard .player", """e => [
        e.scrollWidth > e.clientWidth, getComputedStyle(e).direction]""")
    assert cut and direction == "rtl"  # so the ellipsis falls at the name's end, on its left


def test_the_move_card_keeps_its_height_once_a_move_is_confirmed(live, open_page):
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    before = box(page, "[data-action=undo]")["y"]
    page.click("[data-action=confirm]")
    expect(page.locator(".pending.empty")).to_be_visible()
    assert abs(box(page, "[data-action=undo]")["y"] - before) < 150


def test_a_4k_tv_shows_the_table_view_larger_and_on_one_screen(live, open_page):
    game = live.game()
    sizes = {}
    for width, height in ((1920, 1080), (3840, 2160)):
        page = open_page("tv", f"{live.base}/games/{game}/table")
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)
        assert overflow(page) == {"x": 0, "y": 0}, width
        assert inside_viewport(page, ".scoreboard li:last-child"), width
        sizes[width] = (box(page, "header.top")["height"], box(page, ".tv-tracker")["height"])
    assert sizes[3840][0] >= 1.8 * sizes[1920][0] and sizes[3840][1] >= 1.8 * sizes[1920][1]


def test_the_pages_follow_the_browsers_text_size(live, open_page):
    """A reader who set a larger text size in the browser gets larger text: the pages' 18 px
    (16 px on a phone) were fixed and ignored the setting."""
    game = live.game()
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    size = "() => getComputedStyle(document.body).fontSize"
    assert page.evaluate(size) == "16px"  # a phone's
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 24, "fixed": 20}})
    page.reload()
    assert page.evaluate(size) == "24px"


def test_the_edit_dialog_says_what_a_fix_makes_of_the_turn(live, open_page):
    """After a fix the edit dialog no longer says what the turn was ("Now: 3 tiles for 3
    points." stayed above a Save the server refused, which closed the dialog and lost the
    fixes): it says why the game would refuse it and holds Save back, then what it scores
    once the fix is undone."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    page.click(".turns li[data-turn='0'] [data-action=edit]")
    dialog, now = page.locator("#edit-dialog"), page.locator("#edit-dialog [data-edit-now]")
    expect(now).to_have_text("Now: 3 tiles for 3 points.")
    save = dialog.locator("[data-action=save-edit]")
    for colour, shape, said in (("blue", "star", "Not a legal move:"),
                                ("red", "circle", "Once saved: 3 tiles for 3 points.")):
        dialog.locator("[data-edit-fix='0']").click()
        page.click(f"#fix-dialog [data-pick-colour='{colour}']")
        page.click(f"#fix-dialog [data-pick-shape='{shape}']")
        page.click("#fix-dialog [data-fix-use]")
        expect(now).to_contain_text(said)
        if colour == "blue":
            expect(save).to_be_disabled()
        else:
            expect(save).to_be_enabled()
    expect(dialog).to_be_visible()


# A run of emoji and a 40-letter word: names the app takes, which no line break helps.
UNBROKEN = ("\U0001F600" * 20, "Wolfeschlegelsteinhausenbergerdorffvoral", "Maximiliana Wilhelmina",
            "Ann", "Bob", "Cy")


def test_unbroken_names_stay_inside_the_end_dialog_and_the_standings_on_a_phone(live,
                                                                               open_page):
    """Session 39's play-through: "Who went out?" showed a 40-letter name past its button's
    edges, the standings ran 40 px past the winner card's right edge (the Qwirkles column
    cut off), and the players page's merge form showed a 20-emoji name past its card."""
    from playwright.sync_api import expect

    game = live.game(players=UNBROKEN)
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 844})
        page.click("[data-open=end-dialog]")
        # a seat is offered once the bag is empty and they laid the last tiles: each shown
        # here as it would be then
        page.evaluate("document.querySelectorAll('[data-went-out-choices], [data-went-out]')"
                      ".forEach((e) => { e.hidden = false; })")
        buttons = page.locator("#end-dialog [data-went-out]")
        expect(buttons.first).to_be_visible()
        for button in buttons.all():
            spill = button.evaluate("b => b.scrollWidth - b.clientWidth")
            inside = button.evaluate("b => b.getBoundingClientRect().right <= innerWidth")
            assert spill <= 0 and inside, (width, button.inner_text())
        page.keyboard.press("Escape")
    live.games.act(game, "finish", {"went_out": None})
    for path in (f"/games/{game}/tablet", f"/games/{game}/sheet", f"/games/{game}/table"):
        page = open_page("phone", live.base + path)
        for width in (390, 360):
            page.set_viewport_size({"width": width, "height": 844})
            page.wait_for_timeout(100)
            card, standings = box(page, "[data-winner]"), box(page, "[data-winner] .standings")
            assert standings["x"] + standings["width"] <= card["x"] + card["width"], path
            assert overflow(page)["x"] <= 0, path
    # the players page's merge form: its choices of names stay inside their card
    page = open_page("phone", f"{live.base}/players")
    card = box(page, "section.card:has([data-merge])")
    for select in page.locator("[data-merge] select").all():
        right = select.bounding_box()
        assert right["x"] + right["width"] <= card["x"] + card["width"] - 8


def test_a_name_that_breaks_after_every_letter_takes_three_lines_of_the_sheet(live, open_page):
    """Twenty emoji as a name stood one a line in the score sheet's header on a phone: a
    header 400 px tall. It stops at three lines, the whole name in its title."""
    game = live.game(players=UNBROKEN)
    page = open_page("phone", f"{live.base}/games/{game}/sheet")
    lines, title, _ = page.locator(".sheet thead .name.cut").first.evaluate(NAME_LINES)
    assert title == UNBROKEN[0] and lines <= 3
    assert box(page, ".sheet thead")["height"] < 140


def test_two_players_names_stand_whole_and_centred_in_the_phones_sheet(live, open_page):
    """A helper's phone showed "Moham…" atop a column twice the name's width, at the
    column's start below its dot. With two or three players a name has room; it stands
    whole, centred in its column."""
    game = live.game(players=("Zoë", "Mohammed"))
    page = open_page("phone", f"{live.base}/games/{game}/sheet")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(100)
    for header in page.locator(".sheet thead th:has(.name.cut)").all():
        name = header.locator(".name.cut")
        assert name.evaluate("e => e.scrollWidth - e.clientWidth") <= 0, name.inner_text()
        cell, text = header.bounding_box(), name.bounding_box()
        dot = header.locator(".seat-dot").bounding_box()
        middle = (dot["x"] + text["x"] + text["width"]) / 2
        assert abs(middle - (cell["x"] + cell["width"] / 2)) < 4, name.inner_text()


def test_a_move_on_a_board_games_last_row_shows_above_confirm_on_a_phone(live, open_page):
    """The board game's 16 rows under a warning: the board ran behind the Confirm bar, and
    a move on its last row lay under the bar (a helper's play-through of connect-2). The
    board's box ends above the bar, scrolled to the move."""
    from replay_scenes import START

    from engine.board import Board
    from engine.rules import check_move
    from engine.tiles import COLOURS, SHAPES
    from vision.doubts import Doubt, DoubtKind

    game = live.games.create(("Ann", "Bob"), live.app.config["COLOURS"]).row.id
    live.games.detected(START, False, (), [()] * len(START))
    live.games.confirm(game)
    board = Board.from_placed(START)
    x, y, _ = max(START, key=lambda p: p[1])
    move = next([(x + 1, y, Tile(c, s))] for c in COLOURS for s in SHAPES
                if check_move(board, [(x + 1, y, Tile(c, s))]).legal)
    live.games.detected(move, True, (Doubt(DoubtKind.REOFFERED),), [()])
    page = open_page("phone", f"{live.base}/games/{game}/tablet")
    page.wait_for_timeout(300)
    bar, new = box(page, "[data-action-bar]"), box(page, ".pending .board .new")
    assert new["y"] + new["height"] <= bar["y"] and new["y"] >= 0, (new, bar)
    assert inside_viewport(page, ".pending .doubt")


def test_the_last_turn_on_the_tv_banner_wears_the_banners_ink_and_wash(live, open_page):
    """The amber seat to play (dark ink), the pink seat's turn last (white ink): the last
    turn's pill took the pink seat's dark wash under the banner's dark ink."""
    game = live.games.create(("Ann", "Bob", "Cy", "Di", "Eve", "Fay"),
                             live.app.config["COLOURS"]).row.id
    for _ in range(4):
        live.games.play(game, {"kind": "exchange", "count": 1})
    page = open_page("tv", f"{live.base}/games/{game}/table")
    colour, wash, ink = page.eval_on_selector(
        ".tv .banner .last-move", "e => [getComputedStyle(e).color, "
        "getComputedStyle(e).backgroundColor, getComputedStyle(e.closest('.banner')).color]")
    assert colour == ink == "rgb(26, 26, 26)" and wash == "rgba(255, 255, 255, 0.3)", (
        colour, wash, ink)
