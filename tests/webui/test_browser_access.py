"""The tablet for a player who uses a keyboard or a screen reader (VoiceOver on an iPad,
TalkBack on a phone), or who needs text that stands out from its background, checked in a
real browser (Debian's chromium through Playwright): each new move is said once, in one line;
the focus stays where the player was as the page is drawn afresh and as dialogs close; every
dialog and button has a name; the board's "+" cells answer the keyboard; and text meets WCAG
AA's contrast."""

from __future__ import annotations

import pytest
from test_browser_layout import PLAYERS, RUNNERS_UP, SEEN, TURNS, LiveServer, _turn_json, tiles
from webui_support import CHROMIUM

from vision.doubts import Doubt, DoubtKind

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="Debian's chromium is not installed (apt-get install chromium)"),
]

# Where the focus is: the element's tag and its data-* (the button a player is on).
FOCUSED = """() => { const a = document.activeElement;
    return a === document.body ? 'body' : a.tagName.toLowerCase() + ' '
        + JSON.stringify(Object.assign({}, a.dataset)); }"""


@pytest.fixture
def live(tmp_path):
    server = LiveServer(tmp_path / "games.sqlite3")
    yield server
    server.close()


def test_a_screen_reader_hears_each_new_move_once_in_one_line(live, open_page):
    """The move card is drawn afresh at each update, its aria-live with it: a live region
    drawn anew is not heard on an iPad, and where it is, the whole card was read again at
    every redraw. One region that stays says who laid how many tiles for what, or why the
    game refuses them, once per move."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    said = page.locator("#said")
    expect(said).to_have_attribute("role", "status")
    expect(said).to_have_text("")  # the move the page opened on is read with the page
    page.evaluate("""() => { window.saidTimes = 0;
        new MutationObserver(() => { window.saidTimes += 1; })
          .observe(document.getElementById('said'), {childList: true, characterData: true,
                                                    subtree: true}); }""")
    live.games.confirm(game)  # on another tablet
    expect(page.locator(".pending.empty")).to_have_count(1)
    live.games.detected(tiles((2, -1, "BDi")), True, [], [])
    expect(said).to_have_text(f"Move by {PLAYERS[1]}, 1 tile, 2 points")
    # a redraw that leaves the move as it was says nothing again
    live.games.set_camera("live")
    expect(page.locator("[data-camera=live]")).to_have_count(1)
    page.wait_for_timeout(500)
    assert page.evaluate("window.saidTimes") == 1
    # a move the game refuses: the refusal is said
    live.games.dismiss(game)
    live.games.detected(tiles((9, 9, "GSt")), True, [], [])
    expect(said).to_contain_text("1 tile, Not a legal move:")


def test_the_focus_stays_on_the_tile_fixed_and_on_undo_as_the_page_is_drawn_again(
        live, open_page):
    """A keyboard or screen-reader player fixed a tile: the move card was drawn afresh, the
    button they were on went with it, and the focus fell to the top of the page, the menu,
    to be tabbed through again after every fix, confirm and undo."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    page.locator("[data-pending-tiles] button[data-fix='0']").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#fix-dialog")).to_be_visible()
    assert page.evaluate("document.getElementById('fix-dialog').contains(document.activeElement)")
    page.locator("#fix-dialog [data-pick-colour=green]").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#fix-dialog [data-pick-colour=green]")).to_have_attribute(
        "aria-pressed", "true")  # chosen, as the outline shows
    page.locator("#fix-dialog [data-fix-use]").focus()
    page.keyboard.press("Enter")
    expect(page.locator("[data-pending-tiles] [aria-label='green square']")).to_have_count(1)
    page.wait_for_timeout(300)
    assert page.evaluate(FOCUSED) == 'button {"fix":"0"}'
    # Undo asked by the keyboard: Escape keeps the turn and gives the focus back to Undo;
    # Yes takes it back, and the focus is on Undo as drawn for the turns now.
    page.locator("[data-action=undo]").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#ask-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#ask-dialog")).to_be_hidden()
    assert len(live.games.get(game).table.turns) == len(TURNS)
    assert page.evaluate(FOCUSED) == f'button {{"action":"undo","index":"{len(TURNS) - 1}"}}'
    page.keyboard.press("Enter")
    page.locator("#ask-dialog [data-ask-yes]").press("Enter")
    expect(page.locator(f".turns li[data-turn='{len(TURNS) - 1}']")).to_have_count(0)
    page.wait_for_timeout(300)
    assert page.evaluate(FOCUSED) == f'button {{"action":"undo","index":"{len(TURNS) - 2}"}}'


def test_the_add_a_tile_cells_answer_enter_and_space_and_a_screen_reader_finds_them(
        live, open_page):
    """The "+" cells are SVG, no <button>: focused with Tab, Enter and Space did nothing.
    And the board was a picture (role img), whose parts VoiceOver does not show, the +
    buttons with them."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    board = page.get_by_role("group", name="The table")
    expect(board.get_by_role("button", name="Add a tile here").first).to_be_visible()
    for key in ("Enter", " "):
        page.locator(".pending .slot").first.focus()
        page.keyboard.press(key)
        expect(page.locator("#fix-dialog")).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.locator("#fix-dialog")).to_be_hidden()
    assert live.games.get(game).pending.tiles == SEEN  # Escape added nothing


def test_every_dialog_is_named_and_so_are_the_edit_dialogs_tiles(live, open_page):
    """A dialog with no name was announced as "dialog" alone; the edit dialog's tiles were
    pictures without a name, each read as "button"."""
    from playwright.sync_api import expect

    game = live.game()
    page = open_page("tablet", f"{live.base}/games/{game}/tablet")
    opened = {"[data-open=exchange-dialog]": "How many tiles were exchanged?",
              "[data-open=end-dialog]": "End the game",
              "[data-action=undo]": f"Undo turn {len(TURNS)} by \u2068{PLAYERS[5]}\u2069?",
              f"[data-action=edit][data-index='{len(TURNS) - 1}']":
                  f"Edit turn {len(TURNS)} by \u2068{PLAYERS[5]}\u2069"}
    for opener, name in opened.items():
        page.click(opener)
        dialog = page.get_by_role("dialog", name=name)
        expect(dialog).to_be_visible()
        if "edit" in opener:
            expect(dialog.get_by_role("button", name="orange circle")).to_have_count(1)
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()


# The text on the page (not in a closed dialog, an SVG or hidden) whose colour stands out
# from the background under it by less than WCAG AA asks: 4.5:1, 3:1 for large text (24 px,
# or 18.66 px bold).
LOW_CONTRAST = r"""() => {
  const rgba = (c) => {
    const m = c.match(/[\d.]+/g).map(Number);
    return m.length > 3 ? m : [...m, 1];
  };
  const linear = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  const weights = [0.2126, 0.7152, 0.0722];
  const lum = (rgb) => rgb.map(linear).reduce((sum, v, i) => sum + v * weights[i], 0);
  const over = (top, under) => under.map((v, i) => v * (1 - top[3]) + top[i] * top[3]);
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      layers.push(c);
      if (c[3] === 1) break;
    }
    return layers.reverse().reduce((under, c) => over(c, under), [255, 255, 255]);
  };
  const low = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement, style = getComputedStyle(el);
    if (!walker.currentNode.textContent.trim() || !el.getClientRects().length
        || el.closest('dialog:not([open]), svg, script, option')
        || style.visibility === 'hidden') continue;
    const under = background(el), ink = over(rgba(style.color), under);
    const [dark, light] = [lum(ink), lum(under)].sort((a, b) => a - b);
    const ratio = (light + 0.05) / (dark + 0.05), size = parseFloat(style.fontSize);
    const large = size >= 24 || (parseInt(style.fontWeight) >= 700 && size >= 18.66);
    const text = walker.currentNode.textContent.trim();
    if (ratio < (large ? 3 : 4.5)) low.push(`${ratio.toFixed(2)} ${text}`);
  }
  return low;
}"""


def test_text_stands_out_from_its_background_as_wcag_aa_asks(live, open_page):
    """The page named in the menu was white on a lighter green (3.9:1), and "Qwirkle!" a
    light gold (3.3:1 on a card): both under the 4.5:1 a player with low vision needs. Checked
    with the camera's doubt in its warning box, on the tablet, a phone, the TV and the sheet."""
    game = live.games.create(PLAYERS, live.app.config["COLOURS"])
    for turn in TURNS:
        live.games.play(game.row.id, _turn_json(turn))
    live.games.detected(SEEN, True, [Doubt(DoubtKind.UNSEEN_LAYING)], RUNNERS_UP)
    base = f"{live.base}/games/{game.row.id}"
    for size, url in (("tablet", f"{base}/tablet"), ("phone", f"{base}/tablet"),
                      ("tv", f"{base}/table"), ("tablet", f"{base}/sheet"),
                      ("tablet", f"{live.base}/scoring"), ("tablet", f"{live.base}/games")):
        page = open_page(size, url)
        page.wait_for_selector("main")
        assert page.evaluate(LOW_CONTRAST) == [], (size, url)
