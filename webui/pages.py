"""The HTML pages: set-up, table view, tablet view, score sheet and the games archive.

Pages are rendered on the server in the reader's language. Each live part of a page (score
sheet, pending move, whose turn) is also served alone under ``/games/<id>/part/<name>``; the
page's script refetches those parts when the event stream says the game changed, so every
string stays in a template, translated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup

from engine.board import SIDES
from engine.boardgame import start_in, start_under
from engine.sheet import ScoreSheet, score_sheet
from engine.table import TableGame, TurnRecord
from engine.tiles import COLOURS, SHAPES, Tile
from engine.watch import Watch, qwirkle_watch

from . import history, i18n, options
from .auth import base_url, csrf_token, is_authorized, is_local, join_url, keys, set_token_cookie
from .codec import placed_json
from .events import assets
from .games import Game, games
from .state import table_state
from .validate import is_clean

bp = Blueprint("pages", __name__)
bp.register_blueprint(history.bp)
bp.register_blueprint(options.bp)

PARTS = ("status", "pending", "turns", "sheet", "tracker", "actions", "board", "scoreboard",
         "reconcile")
VIEWS = ("table", "tablet", "sheet")
# Line colours of the score chart, one per seat; chosen to stay apart for colour-blind eyes.
SEAT_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
DARK_INK = "#1a1a1a"


def contrast(one: str, other: str) -> float:
    """The WCAG contrast ratio of two "#rrggbb" colours (1 to 21)."""
    def luminance(colour: str) -> float:
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
                   for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


LARGE_TEXT_CONTRAST = 3.0
"""WCAG's least contrast for large text, as all text on a seat's colour is (the TV's banner,
its score flash, the winner's name)."""


def _styled(colour: str) -> str:
    """A seat colour's style: the colour, and the ink that reads on it (white where white
    reaches :data:`LARGE_TEXT_CONTRAST`, else dark: on the amber and sky blue seats white read
    2.2 to 1 on the TV's banner across a room), with a wash for a pill on it."""
    dark = contrast(colour, "#ffffff") < LARGE_TEXT_CONTRAST
    return (f"--seat: {colour}; --seat-ink: {DARK_INK if dark else '#ffffff'}; "
            f"--seat-wash: {'rgba(255, 255, 255, 0.3)' if dark else 'rgba(0, 0, 0, 0.25)'}")


SEAT_STYLES = tuple(_styled(colour) for colour in SEAT_COLOURS)


@bp.app_template_global()
def seat_style(seat: int) -> str:
    """A seat's style attribute (:func:`_styled`), worked out once."""
    return SEAT_STYLES[seat]


@bp.app_template_global()
def add_slots(board: list[dict[str, Any]], move: list[dict[str, Any]]) -> list[dict[str, int]]:
    """The empty cells where a tile the camera missed may be added (the "+" of the board).

    A tile of the waiting ``move`` lies in the line its tiles lie in, and a line has no
    gaps: at an open end of that line, through the board's tiles. With no move waiting, beside
    any tile of the board; on an empty table, the middle.

    >>> add_slots([{"x": 2, "y": 0}], [{"x": 0, "y": 0}, {"x": 1, "y": 0}])
    [{'x': -1, 'y': 0}, {'x': 3, 'y': 0}]
    >>> add_slots([], [])
    [{'x': 0, 'y': 0}]
    """
    taken = {(t["x"], t["y"]) for t in (*board, *move)}
    if not taken:
        return [{"x": 0, "y": 0}]
    if not move:
        free = {(x + dx, y + dy) for x, y in taken for dx, dy in SIDES} - taken
    else:
        cells = [(t["x"], t["y"]) for t in move]
        along = [side for side in SIDES
                 if len({y for _, y in cells} if side[1] == 0 else {x for x, _ in cells}) == 1]
        free = set()
        for start in cells:
            for dx, dy in along:
                x, y = start
                while (x, y) in taken:
                    x, y = x + dx, y + dy
                free.add((x, y))
    return [{"x": x, "y": y} for x, y in sorted(free, key=lambda cell: (cell[1], cell[0]))]


# The end of a URL's piece: after a run of "/" or ":" ("http://", "192.168.1.23:", "8000/").
URL_PIECE = re.compile(r"[^/:]*[/:]*")


@bp.app_template_filter()
def url_lines(url: str) -> Markup:
    """``url`` as the TV's join text shows it: it may break after a "/" or a ":" and nowhere
    else. A narrow join text broke the address anywhere ("…:40529/t" over "ablet"), and a
    player typed what they read; each piece is kept whole (app.css: .url-piece) with a
    break allowed between pieces.

    >>> print(url_lines("http://192.168.1.23:8000/tablet").replace("<wbr>", "\\n"))
    <span class="url-piece">http://</span>
    <span class="url-piece">192.168.1.23:</span>
    <span class="url-piece">8000/</span>
    <span class="url-piece">tablet</span>
    """
    pieces = [piece for piece in URL_PIECE.findall(url) if piece]
    return Markup("<wbr>").join(Markup('<span class="url-piece">%s</span>') % piece
                                for piece in pieces)


@cache
def qr_svg(url: str) -> str:
    """The join link as an inline SVG QR code (the same link every time: made once)."""
    return segno.make(url, error="m").svg_inline(scale=4, border=2)


def js_strings() -> dict[str, str]:
    """The few strings the page script shows itself, translated here."""
    return {
        "offline": _("Connection lost, reconnecting…"),
        "failed": _("That did not work:"),
        # Filled in by the script: %(n)s and %(name)s stay as they are here.
        "undone": _("Undone: turn %(n)s by %(name)s."),
        "removed": _("Removed: turn %(n)s by %(name)s. Later turns were scored again."),
        "edited": _("Changed: turn %(n)s by %(name)s. Later turns were scored again."),
        # The notice's button: Redo after Undo or Remove, Undo after an edit.
        "redo": _("Redo"),
        "undo_edit": _("Undo"),
        "ask_undo": _("Undo turn %(n)s by %(name)s?"),
        "ask_void": _("Remove turn %(n)s by %(name)s? Every later turn is scored again."),
        "ask_pin": _("Make a new PIN and QR code? The old ones stop working, and every other "
                     "device that joined must join again."),
        "ask_play_on": _("Take back the end of the game and play on?"),
        "ask_resume": _("Resume this game? The TV and every tablet switch to it. Clear the "
                        "table first, or lay out this game's tiles: the camera offers any "
                        "tile on the table that this game lacks as a move in it."),
        # A count with a label, not in a sentence: the script cannot pick plural forms.
        "ask_accept": _("Make the game match the camera? Tiles that change: %(n)s. The turns "
                        "that placed them are scored again."),
        "edit_title": _("Edit turn %(n)s by %(name)s"),
        "edit_start_title": _("Edit the board game's start"),
        "fix_tile": _("Fix this tile"),
        "add_tile": _("Add a tile here"),
        # A dialog closed because another device (or the camera) changed what it was about.
        "stale_confirmed": _("This move was confirmed on another device meanwhile."),
        "stale_dismissed": _("This move was set aside on another device meanwhile (Not a "
                             "move)."),
        "stale_changed": _("This move is no longer the one shown (changed on another device, "
                           "or read again by the camera): look at it again."),
        "stale_turns": _("The turns changed on another device meanwhile, so nothing was "
                         "changed here: look at them again."),
        "stale_turn": _("This turn was changed or removed on another device meanwhile (or "
                        "a turn before it was), so nothing was changed here: look at it "
                        "again."),
        "stale_start": _("The board game's start was changed on another device meanwhile, "
                         "so nothing was changed here: look at it again."),
        "stale_ended": _("The game was ended on another device meanwhile."),
        "stale_arrived": _("A move came in meanwhile: look at it first."),
        "stale_played_on": _("The end was already taken back on another device: play goes "
                             "on."),
        "stale_view": _("What the camera sees, or the game, changed meanwhile, so nothing was "
                        "changed: look at them again."),
    }


def chart(sheet: ScoreSheet, width: int = 600, height: int = 240) -> dict[str, Any]:
    """The score-progress chart: each player's running total after each round, as SVG
    polylines in a fixed box (the template only draws them)."""
    running = [[0] for _ in sheet.players]
    for row in sheet.rows:
        for seat, cell in enumerate(row.cells):
            running[seat].append(running[seat][-1] + (cell.score if cell else 0))
    for seat, bonus in enumerate(sheet.bonus):
        running[seat][-1] += bonus
    top = max(10, *(values[-1] for values in running))
    rounds = max(1, len(sheet.rows))
    pad = 44
    lines = []
    for seat, values in enumerate(running):
        points = " ".join(
            f"{pad + i * (width - 2 * pad) / rounds:.1f},"
            f"{height - pad - v * (height - 2 * pad) / top:.1f}"
            for i, v in enumerate(values)
        )
        lines.append({"name": sheet.players[seat], "points": points,
                      "colour": SEAT_COLOURS[seat], "total": values[-1]})
    return {"width": width, "height": height, "pad": pad, "top": top, "rounds": rounds,
            "lines": lines}


def may_change() -> bool:
    """Whether this page may show the buttons that change the game: a device that joined,
    or the laptop running the server (it joins by itself, see :func:`host_joins`)."""
    return is_authorized() or is_local()


@bp.after_app_request
def host_joins(response):
    """The laptop that runs the server is at the table: its pages carry the token cookie, so
    the host can start a game without scanning its own QR code."""
    if is_local() and not is_authorized() and not request.path.startswith("/api/"):
        set_token_cookie(response)
    return response


@bp.after_app_request
def never_stored(response):
    """Pages are drawn from the game as it is now, and never kept by the browser: Back
    showed a kept copy without asking the server, so the tablet view of the game that a New
    game had replaced opened as it was, and an Undo tapped before its stream said so took a
    turn out of that old game, with no Redo on the page it then moved to."""
    if response.mimetype == "text/html":
        response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_context_processor
def common() -> dict[str, Any]:
    """What every template (error pages included) may use."""
    authorized = may_change()
    return {
        "game": None,
        # the set-up, archive and players pages link to the game at the table too: a player
        # who opened "New game" by mistake finds the way back in the menu
        "at_table": games().current_id() is not None,
        "view": "",
        "authorized": authorized,
        "csrf": csrf_token() if authorized else "",
        "assets": assets(),
        "js_strings": js_strings(),
        "colours": COLOURS,
        "shapes": SHAPES,
        "seat_colours": SEAT_COLOURS,
    }


def context(game: Game | None) -> dict[str, Any]:
    ctx: dict[str, Any] = {
        "game": game,
        "show_keys": may_change(),
        "camera": games().camera,
        "demo_camera": demo_camera(),
    }
    if game is not None:
        sheet = score_sheet(game.table)
        ctx.update(state=table_state(game), sheet=sheet, chart=chart(sheet),
                   unseen_grid=unseen_grid(game), summary=summary(game.table),
                   watch=watch(game))
    if ctx["show_keys"]:
        ctx.update(pin=keys().pin, base_url=base_url(), qr_svg=qr_svg(join_url()))
    return ctx


def watch(game: Game) -> list[Watch]:
    """The Qwirkle watch for the table view; empty when it is switched off or the game ended."""
    if game.table.ended or not options.watch_on():
        return []
    return qwirkle_watch(game.table.board, game.table.unseen, game.table.colours)


@dataclass(frozen=True)
class Summary:
    """What the winner moment shows about a finished game (and the archive about any game)."""

    winners: tuple[int, ...]
    """The seats with the highest total: more than one is a tie."""
    best: tuple[TurnRecord, ...]
    """The highest-scoring turns, in play order: every turn that ties for the top score,
    since naming only the earliest of two equal turns took the feat from the other player;
    none when no turn scored (a game of exchanges has no best turn to praise)."""


def summary(table: TableGame) -> Summary:
    top = max(table.totals)
    winners = tuple(seat for seat, total in enumerate(table.totals) if total == top)
    return Summary(winners, best_turns(table.turns))


def best_turns(turns: Sequence[TurnRecord]) -> tuple[TurnRecord, ...]:
    """The turns that share the top score, if that score is above 0."""
    top = max((turn.score for turn in turns), default=0)
    return tuple(turn for turn in turns if top and turn.score == top)


def unseen_grid(game: Game) -> list[tuple[str, list[int]]]:
    """Unseen copies as a colour x shape grid for the tile tracker."""
    unseen = game.table.unseen
    return [(colour, [unseen[Tile(colour, shape)] for shape in SHAPES])
            for colour in game.table.colours]


def current_or_setup(view: str):
    game_id = games().current_id()
    if game_id is None:
        return redirect(url_for("pages.setup"))
    return redirect(url_for("pages.game_view", game_id=game_id, view=view))


@bp.get("/")
def home():
    return current_or_setup("table")


@bp.get("/<any(table, tablet, sheet):view>")
def current_view(view: str):
    return current_or_setup(view)


@bp.get("/setup")
def setup():
    seen = camera_tiles()
    return render_template("setup.html", seen=seen, layout=seen_layout(seen),
                           watch_on=options.watch_on(), unfinished=unfinished(),
                           profile=games().profile, colour_sets=colour_sets(),
                           current_id=games().current_id(), **context(None))


def unfinished() -> Game | None:
    """The game at the table, when it has turns and has not ended: the set-up page says that
    a new game leaves it (kept under Games), which "Start the game" did without a word."""
    current = games().current_id()
    game = games().get(current) if current is not None else None
    return game if game is not None and game.table.turns and not game.table.ended else None


def colour_sets() -> list[tuple[str, ...]]:
    """The sets a new game may be played with, the table's own first: the one it learned (or
    ``serve --set``), else ``serve --colours``; then the standard purple and white sets. A
    table set up for a white set starts its games with white unless players choose otherwise.
    """
    profile = games().profile
    own = profile.colours if profile is not None else games().default_colours
    return [own, *(s for s in (COLOURS, COLOURS[:5] + ("white",)) if s != own)]


@bp.get("/games")
def archive():
    """Every game with a turn in it (an empty game only while it is at the table).

    ``resumable``: some game here may be resumed, the page's one change, so a device that
    has not joined (or was put out by a New PIN) is offered the PIN box: it saw no Resume
    button and no way to join."""
    current = games().current_id()
    rows = []
    for row in games().rows():
        game = games().get(row.id)
        if game.table.turns or row.id == current:
            rows.append((row, game.table, summary(game.table)))
    resumable = any(not table.ended and row.id != current for row, table, _won in rows)
    return render_template("games.html", view="games", rows=rows, current_id=current,
                           resumable=resumable, **context(None))


@bp.get("/games/<int:game_id>/<view>")
def game_view(game_id: int, view: str):
    """A game's page. The table and tablet views are the game at the table's: an older
    game's (a tab the browser restored, a bookmark) opens the current one, as an open page
    follows the table. Opened as it was, a pass tapped there went into that old game, and
    the page then jumped to the current game, where the next tap undid a turn."""
    if view not in VIEWS:
        abort(404)
    game = games().get(game_id)
    current = games().current_id()
    if view in ("table", "tablet") and current is not None and current != game_id:
        return redirect(url_for("pages.game_view", game_id=current, view=view))
    return render_template(f"{view}.html", view=view, **context(game))


@bp.get("/games/<int:game_id>/part/<name>")
def part(game_id: int, name: str):
    if name not in PARTS:
        abort(404)
    ctx = context(games().get(game_id))
    return render_template(f"part_{name}.html", view=request.args.get("view", ""), **ctx)


@bp.get("/part/camera")
def camera_part():
    """The camera's status line alone, for the set-up page's camera check."""
    seen = camera_tiles()
    return render_template("part_camera.html", camera=games().camera, seen=seen,
                           layout=seen_layout(seen))


def camera_tiles() -> list[dict[str, Any]]:
    """The tiles the camera sees on the board now (a game started over them offers them as
    its first move, so the set-up page shows them). None for the demo: its tiles are its
    recording's, which starts again from an empty table for a new game, so "clear the
    table" asked players for what they cannot do and need not."""
    view = games().view
    return placed_json(view[0]) if view and not demo_camera() else []


def seen_layout(seen: list[dict[str, Any]]) -> str:
    """What the tiles the camera sees are, as the set-up page says it: "start" where they are
    the board game's start (:mod:`engine.boardgame`), which a game opened over them offers as
    its start, not as a move to clear away (and a tile beside it as a move); "played" where
    they are a board game in progress, offered as its start and then its turns; else ""."""
    cells = [(t["x"], t["y"]) for t in seen]
    if start_in(cells) is not None:
        return "start"
    return "played" if start_under(cells) is not None else ""


def demo_camera() -> bool:
    """Whether the camera is the built-in demo (``qwirkle serve --camera demo``)."""
    return bool(current_app.config["DEMO_CAMERA"])


@bp.get("/join")
def join():
    """The QR code's link: keeps the token in the cookie, then opens the tablet view.

    It answers a page rather than a redirect: a SameSite=Strict cookie is not sent on a
    redirect that began on another site (the camera app that read the QR code), but is on a
    navigation this page starts.
    """
    if not keys().token_ok(request.args.get("t")):
        # (an old QR code, from before a New PIN): the way on is the tablet view's PIN box,
        # not the TV's view, which has none
        message = _("This link does not carry the table's token. Scan the QR code again or "
                    "enter the PIN.")
        return render_template("error.html", status=403, message=message,
                               back=url_for("pages.current_view", view="tablet")), 403
    return set_token_cookie(make_response(render_template("joined.html", **context(None))))


@bp.get("/lang")
def choose_language():
    """The language menu: remember the choice in a cookie, back to the page it came from."""
    code = request.args.get("code", "")
    if code not in i18n.languages():
        abort(404)
    target = request.args.get("next", "/")
    # Only a path on this site, and one that fits in a header line.
    if (not target.startswith("/") or target.startswith(("//", "/\\"))
            or not is_clean(target, 2000)):
        target = "/"
    response = redirect(target)
    response.set_cookie(i18n.COOKIE, code, max_age=60 * 60 * 24 * 365, samesite="Lax")
    return response
