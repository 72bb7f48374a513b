"""The HTML pages render for readers and joined tablets, and errors are pages, never a 500."""

from __future__ import annotations

import pytest
from webui_support import ROW, Table, make_app


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


def test_the_setup_page_says_a_new_game_leaves_the_unfinished_one(table):
    """"Start the game" took the table from a game in play without a word (session 39's
    play-through): the set-up page says that game has not ended and where it stays. A game
    with no turn yet, or one that ended, needs no such word."""
    game = table.new_game(["Ann", "<b>Bo</b>"])
    assert "data-unfinished" not in table.client.get("/setup").data.decode()
    table.place(game, ROW)
    page = table.client.get("/setup").data.decode()
    assert "data-unfinished" in page and "Ann</bdi>, <bdi" in page and "1 turn)" in page
    assert "<b>Bo</b>" not in page and "&lt;b&gt;Bo&lt;/b&gt;" in page
    table.post(f"/api/games/{game}/finish", {"went_out": None})
    assert "data-unfinished" not in table.client.get("/setup").data.decode()


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


def test_a_move_shown_after_not_a_move_gives_one_reason(table):
    """The camera judged the move behind against the board with the move before it; set
    that one aside ("Not a move") and the card's reason changes: the camera's note must not
    go on giving its old one under "Not a legal move:" (they disagreed on the tablet)."""
    from engine.table import Place
    from engine.tiles import Tile
    from vision.doubts import Doubt, DoubtKind
    from webui.pending import evaluate

    game = table.new_game()
    table.place(game, ROW)
    games = table.app.extensions["qwirkle_games"]
    square, circle = [(3, 0, Tile("red", "square"))], [(4, 0, Tile("red", "circle"))]
    expected = games.get(game).table.play(Place(tuple(square)))
    twice = evaluate(expected, circle).refusal  # the red circle would be twice in the row
    games.detected(square, False, (), [])
    games.detected(circle, True, (Doubt(DoubtKind.NO_LEGAL_READING, refusal=twice),), [])
    assert table.post(f"/api/games/{game}/pending/dismiss").status_code == 200
    card = table.client.get(f"/games/{game}/part/pending?view=tablet").data.decode()
    assert "Not a legal move: No new tile touches a tile already on the table." in card
    assert "twice" not in card
    # taken back and confirmed, the square makes the camera's reason true again
    assert table.post(f"/api/games/{game}/ignored/restore", {}).status_code == 200
    assert table.post(f"/api/games/{game}/pending/confirm").status_code == 200
    card = table.client.get(f"/games/{game}/part/pending?view=tablet").data.decode()
    assert card.count("A line would hold the red circle twice.") == 1


def test_the_archive_says_who_won_in_one_sentence(table):
    """The result line is a flex row: a name and "won." as items of their own stood a gap
    apart, a double space to the eye. The sentence, trophy and all, is one item."""
    game = table.new_game(["Ann", "Bob"])
    table.place(game, ROW)
    table.post(f"/api/games/{game}/finish", {"went_out": None})
    archive = table.client.get("/games").data.decode()
    assert '<span class="outcome">🏆 <bdi class="name">Ann</bdi> won.</span>' in archive


def test_a_merge_of_one_player_into_themselves_says_so(table):
    """"Ann into Ann" was refused as "Ann and Ann played in the same game: they are two
    players"; a merge back the other way, as a second player."""
    for players in (["Ann", "Bob"], ["Annie", "Cy"]):
        game = table.new_game(players)
        table.place(game, ROW)
        table.post(f"/api/games/{game}/finish", {"went_out": None})
    for into in ("Ann", "ANN "):
        same = table.post("/api/players/merge", {"name": "Ann", "into": into})
        assert same.status_code == 400
        assert same.json["error"] == "Choose two different players to merge."
    assert table.post("/api/players/merge", {"name": "Annie", "into": "Ann"}).status_code == 200
    back = table.post("/api/players/merge", {"name": "Ann", "into": "Annie"})
    assert back.status_code == 400
    assert back.json["error"] == "The games of Annie already count for Ann."


def test_new_pin_asks_knowing_that_every_tablet_must_join_again(table):
    """A new PIN logs every other device out: the question before it says so, not only
    that the old PIN stops working."""
    game = table.new_game()
    page = table.client.get(f"/games/{game}/table").data.decode()
    assert 'data-action="new-pin"' in page
    assert "every other device that joined must join again" in page


@pytest.mark.parametrize("demo", [False, True])
def test_the_demo_as_camera_asks_nobody_to_clear_the_table(tmp_path, demo):
    """Tiles under a real camera would be offered as a new game's first move, so the set-up
    page asks for a clear table; the demo's tiles are its recording's, which starts again
    from an empty table for a new game: it asked for what nobody can do, nor need."""
    from engine.tiles import Tile

    app = make_app(tmp_path / "games.sqlite3", DEMO_CAMERA=demo)
    table = Table(app)
    games = app.extensions["qwirkle_games"]
    games.set_camera("live", size=(1920, 1080))
    games.set_view([(0, 0, Tile("red", "star")), (1, 0, Tile("red", "circle"))], [])
    for path in ("/setup", "/part/camera"):
        page = table.client.get(path).data.decode()
        assert ("The camera sees 2 tiles on the table." in page) is not demo, path


def test_while_the_demo_waits_for_an_answer_the_table_and_tablet_say_so(tmp_path):
    """The demo lays its next move only once players answered the one shown: the TV and
    the tablet say so while a move waits, or a table that only says "watching the table"
    looks frozen. A real camera waits for nobody, and nothing is said."""
    from engine.tiles import Tile

    line = "The demo lays its next move once this one is answered on the tablet."

    def says(page: str) -> bool:
        """The line shows (between moves it keeps its place unseen, so the TV's board does
        not jump)."""
        return line in page and f'style="visibility: hidden">{line}' not in page

    for demo in (True, False):
        table = Table(make_app(tmp_path / f"games-{demo}.sqlite3", DEMO_CAMERA=demo))
        games = table.app.extensions["qwirkle_games"]
        game = table.new_game()
        games.set_camera("live", size=(1920, 1080))
        for view in ("table", "tablet"):
            assert not says(table.client.get(f"/games/{game}/{view}").data.decode())
        games.detected([(0, 0, Tile("red", "star")), (1, 0, Tile("red", "circle"))], False,
                       (), [])
        for view in ("table", "tablet"):
            page = table.client.get(f"/games/{game}/{view}").data.decode()
            assert says(page) is demo, (demo, view)
        part = table.client.get(f"/games/{game}/part/status?view=table").data.decode()
        assert says(part) is demo  # the live pages redraw it
        assert table.post(f"/api/games/{game}/pending/confirm").status_code == 200
        assert not says(table.client.get(f"/games/{game}/tablet").data.decode())


def test_a_move_refused_for_a_fourth_copy_rings_the_three_on_the_board(table):
    """"All 3 red circle tiles are already on the table" named no place: the move card rings
    where the three lie (one is often an earlier tile misread), a line that would hold a tile
    twice the two, and a line's other refusals the line."""
    import re

    from engine.tiles import Tile
    from webui.codec import placed_json

    def tiles(*cells):
        return placed_json((x, y, Tile.from_code(code)) for x, y, code in cells)

    game = table.new_game()
    for turn in (tiles((0, 0, "RCi"), (1, 0, "RSq"), (2, 0, "RDi")), tiles((1, 1, "RCi")),
                 tiles((2, -1, "RCi"))):
        table.place(game, turn)
    fourth = tiles((3, 0, "RCi"))
    pending = table.post(f"/api/games/{game}/pending", {"tiles": fourth}).json["pending"]
    assert pending["reason_code"] == "no_copies_left"
    assert sorted(pending["reason_cells"]) == [[0, 0], [1, 1], [2, -1]]
    card = table.client.get(f"/games/{game}/part/pending?view=tablet").data.decode()
    assert {m for m in re.findall(r'data-mark="(-?\d+,-?\d+)"', card)} == {"0,0", "1,1", "2,-1"}
    assert "already on the table. (Ringed on the board.)" in card
    assert 'class="board-scroll"' not in card  # all the rings in view, however far apart
    twice = tiles((3, 0, "RSq"))  # the red square again in the row
    pending = table.post(f"/api/games/{game}/pending", {"tiles": twice}).json["pending"]
    assert pending["reason_code"] == "duplicate_in_line"
    assert sorted(pending["reason_cells"]) == [[1, 0], [3, 0]]
    mixed = tiles((3, 0, "BSt"))
    pending = table.post(f"/api/games/{game}/pending", {"tiles": mixed}).json["pending"]
    assert pending["reason_code"] == "mixed_line"
    assert sorted(pending["reason_cells"]) == [[0, 0], [1, 0], [2, 0], [3, 0]]


def test_points_keep_their_sign_before_the_number_in_arabic(table):
    """The last turn's "+3" (and the winner card's end bonus, the Confirm bar's score) read
    "3+" in Arabic on a phone: a bare "+" beside digits in right-to-left text. They carry the
    locale's plus sign, with its direction mark, as the scoring page's bonus did; a list of
    names is parted by "،", not a Latin comma."""
    from webui import i18n

    game = table.new_game()
    table.place(game, ROW)
    table.client.set_cookie(i18n.COOKIE, "ar")
    assert '<span class="points">\u200e+3</span>' in table.client.get(
        f"/games/{game}/table").data.decode()
    # and names in a list are parted by the language's own comma
    assert "Ann</bdi>، <bdi" in table.client.get("/setup").data.decode()
    table.client.set_cookie(i18n.COOKIE, "en")
    assert '<span class="points">+3</span>' in table.client.get(
        f"/games/{game}/table").data.decode()
    assert "Ann</bdi>, <bdi" in table.client.get("/setup").data.decode()


def test_an_older_games_tablet_and_table_open_the_game_at_the_table(table):
    """A tab the browser restored, or a bookmark, on a game no longer at the table: its
    tablet took a pass into that old game unseen; it opens the current game's instead. Its
    score sheet stays its own."""
    old = table.new_game(["Quin", "Rae"])
    table.place(old, ROW)
    now = table.new_game(["Ann", "Bob"])
    for view in ("tablet", "table"):
        opened = table.client.get(f"/games/{old}/{view}")
        assert opened.status_code == 302
        assert opened.headers["Location"].endswith(f"/games/{now}/{view}")
    sheet = table.client.get(f"/games/{old}/sheet")
    assert sheet.status_code == 200 and "Quin" in sheet.text
    table.post(f"/api/games/{old}/resume")
    assert table.client.get(f"/games/{old}/tablet").status_code == 200


def test_a_long_disagreement_lists_its_tiles_on_demand(table):
    """An old game resumed over another game's table: eighty rows of "Remove from the game"
    made the tablet page metres long. Past eight tiles the card gives their count, and the
    rows on demand; the way out stays in view."""
    from engine.tiles import Tile

    game = table.new_game()
    table.place(game, ROW)
    column = [{"x": 0, "y": y, "colour": c, "shape": "star"}
              for y, c in enumerate(("orange", "yellow", "green", "blue", "purple"), 1)]
    table.place(game, column)
    games = table.app.extensions["qwirkle_games"]
    seen = [(t["x"], t["y"], Tile(t["colour"], t["shape"])) for t in column[:1]]
    games.set_view(seen, [])  # the camera misses 7 of the game's 8 tiles
    card = table.client.get(f"/games/{game}/tablet").text.split("data-reconcile", 1)[1]
    assert "long-list" not in card and card.count('data-action="table-accept" data-x') == 7
    table.place(game, [{"x": 1, "y": 1, "colour": "orange", "shape": "circle"},
                       {"x": 2, "y": 1, "colour": "orange", "shape": "clover"}])
    card = table.client.get(f"/games/{game}/tablet").text.split("data-reconcile", 1)[1]
    assert '<details class="long-list"><summary>9 tiles: show them, one by one' in card
    assert card.count('data-action="table-accept" data-x') == 9
    assert 'class="big primary" data-action="table-accept"' in card


def test_every_seats_colour_carries_ink_that_reads_across_a_room(table):
    """White on the amber and sky blue seats read 2.2 to 1 on the TV's banner."""
    from webui.pages import LARGE_TEXT_CONTRAST, SEAT_COLOURS, contrast, seat_style

    for seat, colour in enumerate(SEAT_COLOURS):
        ink = seat_style(seat).split("--seat-ink: ")[1].split(";")[0]
        assert contrast(colour, ink) >= LARGE_TEXT_CONTRAST, (colour, ink)
    game = table.new_game(["Ann", "Bob", "Cy", "Di", "Eve", "Fay"])
    for _ in range(4):
        table.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": 1})
    banner = table.client.get(f"/games/{game}/table").text.split('class="banner"', 1)[1]
    assert "--seat: #e69f00; --seat-ink: #1a1a1a" in banner  # the fifth seat's turn


def test_an_ended_games_sheet_gives_every_seat_its_bonus(table):
    """Once the game has ended, the bonus row holds a number in every seat's column, 0 for
    those who did not go out: a blank cell among the scores read as a bonus not yet known.
    The winner card's end bonus column too, as the sheet beside it on a wide tablet."""
    game = table.new_game(["Ann", "Bob"])
    table.place(game, ROW)
    assert '<th scope="row">Bonus</th>' not in table.client.get(f"/games/{game}/part/sheet").text
    table.post(f"/api/games/{game}/finish", {"went_out": None})
    sheet = table.client.get(f"/games/{game}/sheet").text
    assert '<th scope="row">Bonus</th><td>0</td><td>0</td></tr>' in sheet
    card = table.client.get(f"/games/{game}/part/status").text
    assert card.count('</td><td>0</td><td>0</td></tr>') == 2  # bonus, then Qwirkles


def test_a_device_put_out_by_a_new_pin_is_asked_for_it_on_the_tv_and_the_archive(table):
    """A New PIN made on another device puts every other device out. Reloaded, the TV view
    showed neither its QR code nor a PIN box, and the archive neither Resume nor a PIN box:
    the way back in was on the tablet page alone. The TV asks for the PIN where the QR code
    goes; the archive while a game in it may be resumed, its one change."""
    older = table.new_game(["Ann", "Bob"])
    table.place(older, ROW)
    at_table = table.new_game(["Cy", "Di"])
    device = table.app.test_client()
    device.environ_base["REMOTE_ADDR"] = "192.168.1.77"
    keys = table.app.extensions["qwirkle_keys"]
    assert device.post("/api/join", json={"pin": keys.pin}).status_code == 200
    assert "data-join" not in device.get(f"/games/{at_table}/table").text
    assert 'data-action="resume"' in device.get("/games").text
    table.headers["X-CSRF-Token"] = table.post("/api/auth/rotate").json["csrf"]
    tv = device.get(f"/games/{at_table}/table").text
    assert "data-join" in tv.split('class="tv-foot"')[1] and keys.pin not in tv
    archive = device.get("/games").text
    assert "data-join" in archive and 'data-action="resume"' not in archive
    assert device.post("/api/join", json={"pin": keys.pin}).status_code == 200
    tv = device.get(f"/games/{at_table}/table").text
    assert "data-join" not in tv and f"<p class=\"pin\" data-pin>{keys.pin}</p>" in tv
    assert table.post(f"/api/games/{older}/finish", {"went_out": None}).status_code == 200
    stranger = table.app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "192.168.1.78"
    assert "data-join" not in stranger.get("/games").text  # nothing left to resume
