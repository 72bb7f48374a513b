"""The JSON API: read a game, and (with the table token) drive it.

Every answer to a change is the game's new state, so a client never needs a second request to
see the effect. Errors are JSON ``{"error": message}``: 400 malformed payload, 403 wrong token
or CSRF or Origin, 404 unknown game, 409 a change the game refuses (say, an illegal move).
"""

from __future__ import annotations

import math
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.exceptions import TooManyRequests

from engine.table import Place
from engine.tiles import is_colour_set
from vision.setprofile import BlockError, SetProfile, calibrate

from .auth import check_origin, join_url, keys, needs_token, set_token_cookie
from .codec import PayloadError, is_whole
from .games import UNSAID, Conflict, Event, Game, games
from .history import name_key
from .reasons import say, say_block
from .state import game_json, sheet_csv, table_state
from .validate import body, clean_text, player_name

bp = Blueprint("api", __name__, url_prefix="/api")

def answer(game: Game, status: int = 200) -> tuple[Response, int]:
    return jsonify(table_state(game)), status


def current() -> Game:
    game_id = games().current_id()
    if game_id is None:
        abort(404, _("No game yet: start one on the set-up page."))
    return games().get(game_id)


@bp.get("/state")
def current_state():
    return answer(current())


@bp.get("/games")
def list_games():
    rows = []
    for row in games().rows():
        table = games().get(row.id).table
        rows.append({"id": row.id, "created": row.created.isoformat(),
                     "players": list(row.players), "totals": list(table.totals),
                     "turns": len(table.turns), "ended": table.ended})
    return jsonify(rows)


@bp.post("/games")
@needs_token
def create_game():
    data = body()
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise PayloadError(_("players must be a list of names"))
    # The set-up form sends a field per seat; a blank one is a seat nobody took, and the
    # players close up round it. A refusal names the seat as the form numbers it.
    seats = {seat: seated(seat, p) for seat, p in enumerate(players, 1) if p.strip()}
    if not 2 <= len(seats) <= 6:
        raise PayloadError(_("A game needs 2 to 6 players."))
    twice = repeated(seats)
    if twice is not None:
        first, second = twice
        raise PayloadError(_("Seats %(first)s and %(second)s are both called %(name)s: tell "
                             "them apart (Ann B., Ann K.).", first=first, second=second,
                             name=seats[second]))
    # the game the set-up page saw at the table: refused if another device started one since
    replaces = data.get("replaces", UNSAID)
    if "replaces" in data and replaces is not None and not (is_whole(replaces)
                                                            and replaces > 0):
        raise PayloadError(_("replaces must be the id of the game at the table, or null"))
    return answer(games().create(list(seats.values()), colours_of(data), replaces), 201)


def seated(seat: int, name: str) -> str:
    """``name`` as a player's name (:func:`player_name`), refused with its seat: "a name has
    1 to 40 characters" left players to find which of six fields was meant."""
    try:
        return player_name(name)
    except PayloadError as error:
        raise PayloadError(_("Seat %(n)s: %(why)s", n=seat, why=str(error)), error.code) from None


def repeated(seats: dict[int, str]) -> tuple[int, int] | None:
    """The first two seats that share a name, case and spacing aside: the player history
    keys players so (:func:`webui.history.name_key`) and would count the two as one."""
    seen: dict[str, int] = {}
    for seat, name in seats.items():
        key = name_key(name)
        if key in seen:
            return seen[key], seat
        seen[key] = seat
    return None


def colours_of(data: dict[str, Any]) -> list[str]:
    """The set's colours a request names (the table's default when it names none): six
    different names of the known colours."""
    colours = data.get("colours", list(games().default_colours))
    if not isinstance(colours, list) or len(colours) > 12:
        raise PayloadError(_("colours must be a list of six colour names"))
    colours = [clean_text(c, _("a colour"), 20).strip().lower() for c in colours]
    if not is_colour_set(colours):
        raise PayloadError(_("colours must be a list of six colour names"))
    return colours


@bp.get("/set")
def set_profile():
    """The set new games start from: learned on the set-up page, given to serve, or none."""
    return jsonify(set_json(games().profile))


@bp.post("/set")
@needs_token
def learn_set():
    """Learn an odd set (another printing, a home-made one) from the camera's picture of its
    36 kinds in a 6 x 6 block; every new game starts from it, and it is kept."""
    colours = colours_of(optional_body())
    live = current_app.extensions.get("qwirkle_live")
    picture = live.picture() if live is not None else None
    if picture is None:
        raise Conflict(_("The camera has no picture yet: check it on the set-up page."),
                       "camera_no_picture")
    try:
        found = calibrate(picture, colours)
    except BlockError as error:
        raise Conflict(say_block(error.problem, error.found), error.problem.value) from None
    games().learn_set(found.profile)
    return jsonify({**set_json(found.profile), "misread": len(found.misread)})


@bp.delete("/set")
@needs_token
def forget_set():
    """Back to the standard set for new games (a game under way keeps what it learned)."""
    games().learn_set(None)
    return jsonify(set_json(None))


def set_json(profile: SetProfile | None) -> dict[str, Any]:
    return {"set": None if profile is None else {"colours": list(profile.colours),
                                                  "kinds": profile.adapter.examples}}


@bp.get("/games/<int:game_id>/state")
def game_state(game_id: int):
    return answer(games().get(game_id))


@bp.post("/games/<int:game_id>/pending")
@needs_token
def fix_pending(game_id: int):
    return answer(games().fix_pending(game_id, body().get("tiles"), shown()))


def shown() -> str | None:
    """``{"shown": KEY}``: what the tap was meant for (``pending.key``, or
    ``camera_board.key``), or None when the request names none (then it acts on whatever is
    shown now)."""
    key = optional_body().get("shown")
    if key is not None and not isinstance(key, str):
        raise PayloadError(_("shown must be the key of the move shown (a string)"))
    return key


@bp.post("/games/<int:game_id>/pending/confirm")
@needs_token
def confirm(game_id: int):
    return answer(games().confirm(game_id, shown()))


@bp.post("/games/<int:game_id>/pending/dismiss")
@needs_token
def dismiss(game_id: int):
    return answer(games().dismiss(game_id, shown()))


@bp.post("/games/<int:game_id>/pending/swap")
@needs_token
def swap(game_id: int):
    return answer(games().swap_pending(game_id, shown()))


@bp.post("/games/<int:game_id>/pending/part")
@needs_token
def part(game_id: int):
    return answer(games().part_pending(game_id, shown()))


@bp.post("/games/<int:game_id>/pending/join")
@needs_token
def as_one_turn(game_id: int):
    return answer(games().join_pending(game_id, shown()))


def cells_or_all(data: dict[str, Any]) -> list[tuple[int, int]] | None:
    """``{"cells": [[x, y], ...]}`` as cells; no "cells" (or null) means every cell."""
    cells = data.get("cells")
    if cells is None:
        return None
    if not isinstance(cells, list) or not all(
            isinstance(c, list) and len(c) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in c) for c in cells):
        raise PayloadError(_("cells must be a list of [x, y] pairs of whole numbers"))
    return [(x, y) for x, y in cells]


def optional_body() -> dict[str, Any]:
    """The JSON object sent, or an empty one when nothing was sent."""
    return body() if request.get_data(cache=True) else {}


@bp.post("/games/<int:game_id>/ignored/restore")
@needs_token
def restore(game_id: int):
    """Take tiles set aside by "Not a move" back into the game, as a move to confirm."""
    return answer(games().restore(game_id, cells_or_all(optional_body())))


@bp.post("/games/<int:game_id>/table/check")
@needs_token
def check_table(game_id: int):
    """Ask the camera for a fresh look at the table; the answer comes with the next frame."""
    game = games().get(game_id)
    games().rescan()
    return answer(game)


@bp.post("/games/<int:game_id>/table/accept")
@needs_token
def accept_table(game_id: int):
    """"The table is right": the game gives up the tiles the camera does not see."""
    return answer(games().accept_table(game_id, cells_or_all(optional_body()), shown()))


@bp.post("/games/<int:game_id>/table/keep")
@needs_token
def keep_game(game_id: int):
    """"Keep the game's tiles": the camera misreads the tiles it reads differently."""
    return answer(games().keep_game(game_id, cells_or_all(optional_body()), shown()))


@bp.post("/games/<int:game_id>/turns")
@needs_token
def play(game_id: int):
    """Record an exchange, a pass or a placement; ``"turns": n`` beside the turn, the turns
    the tablet showed, makes the server refuse (409) when another device changed them."""
    return answer(games().play(game_id, body(), turn_number("turns")))


@bp.put("/games/<int:game_id>/turns/<int:index>")
@needs_token
def replace(game_id: int, index: int):
    """Put a corrected turn in place of turn ``index``. ``"was": {...}`` beside the turn,
    turn ``index`` as the tablet showed it when the edit began (with its ``"id"``, from the
    state, which tells it from a like exchange or pass), makes the server refuse (409) when
    another device changed that turn since, whatever became of the others; without it,
    ``"turns": n``, the turns the tablet showed then, refuses the edit when any of them
    changed."""
    was = body().get("was")
    if was is not None and not isinstance(was, dict):
        raise PayloadError(_("was must be the turn as it was when the edit began, as "
                             "{\"kind\": ...}"))
    return answer(games().edit(game_id, index, body(), turn_number("turns"), was,
                               None if was is None else turn_number("id", was)))


@bp.put("/games/<int:game_id>/start")
@needs_token
def edit_start(game_id: int):
    """Put corrected tiles in place of the board game's start, each on its cell (a tile read
    wrong and confirmed so); ``"was": {"tiles": [...]}``, the start as the tablet showed it
    when the edit began, and ``"turns": n`` as for a turn's edit. Every turn is re-checked and
    re-scored, and the edit refused (409) when one would no longer stand."""
    was = body().get("was")
    if was is not None and not (isinstance(was, dict) and "tiles" in was):
        raise PayloadError(_("was must be the start as it was when the edit began, as "
                             "{\"tiles\": [...]}"))
    return answer(games().edit_start(game_id, body().get("tiles"), turn_number("turns"),
                                     None if was is None else was["tiles"]))


@bp.post("/games/<int:game_id>/turns/<int:index>/check")
@needs_token
def check_edit(game_id: int, index: int):
    """What turn ``index`` would be with the turn sent in its place, nothing saved: the edit
    dialog shows it after each fix, in words (counted here, where the plural forms are), and
    holds Save back while the game would refuse it."""
    try:
        record = games().try_edit(game_id, index, body())
    except Conflict as refused:
        said = say(refused.refusal) if refused.refusal is not None else str(refused)
        return jsonify(legal=False, said=f"{_('Not a legal move:')} {said}")
    tiles = len(record.turn.tiles) if isinstance(record.turn, Place) else 0
    said = _("Once saved: %(tiles)s for %(points)s.",
             tiles=ngettext("%(num)s tile", "%(num)s tiles", tiles),
             points=ngettext("%(num)s point", "%(num)s points", record.score))
    return jsonify(legal=True, score=record.score, said=said)


@bp.delete("/games/<int:game_id>/turns/<int:index>")
@needs_token
def void(game_id: int, index: int):
    """Remove a turn; ``{"turns": n}``, the turns the tablet showed when it asked, makes the
    server refuse (409) when another device changed them since, and ``"id"``, the turn's id
    in the state, when another turn is at ``index`` now."""
    return answer(games().take_back(game_id, index, turn_number("turns"), turn_number("id")))


@bp.post("/games/<int:game_id>/undo")
@needs_token
def undo(game_id: int):
    """Take back the last turn; ``{"index": i}`` names the turn the tablet asked about, and
    the server refuses (409) when another device changed the turns since; ``"id"`` as for
    removing a turn."""
    index = turn_number("index")
    return answer(games().take_back(game_id, None, None if index is None else index + 1,
                                    turn_number("id")))


def turn_number(key: str, sent: dict[str, Any] | None = None) -> int | None:
    """The count of turns, turn index or turn id under ``key`` in the JSON sent, or in
    ``sent``, a part of it (a turn's ``"id"`` in its ``"was"``); None when none is sent. It
    is a whole number and never negative: such a request is malformed (400), not one
    that another device overtook (409, "look at them again"). A number past the turns the
    game holds stays 409: a tablet that saw a turn another device has since taken back
    sends just that."""
    value = (optional_body() if sent is None else sent).get(key)
    if value is not None and not is_whole(value):
        raise PayloadError(_("%(key)s must be a whole number", key=key))
    if value is not None and value < 0:
        raise PayloadError(_("%(key)s must be 0 or more, not %(value)s", key=key,
                             value=value))
    return value


@bp.post("/games/<int:game_id>/finish")
@needs_token
def finish(game_id: int):
    data = body()
    if "went_out" not in data:
        raise PayloadError(_("went_out is missing: a seat number, or null when nobody can play"))
    return answer(games().act(game_id, Event.FINISH, {"went_out": data["went_out"]}))


@bp.post("/games/<int:game_id>/play-on")
@needs_token
def play_on(game_id: int):
    """Take back the end of a game ended by mistake; it is the game at the table again."""
    return answer(games().play_on(game_id))


@bp.get("/games/<int:game_id>/export.csv")
def export_csv(game_id: int):
    attachment = f'attachment; filename="qwirkle-game-{game_id}.csv"'
    return Response(sheet_csv(games().get(game_id)), content_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": attachment})


@bp.get("/games/<int:game_id>/export.json")
def export_json(game_id: int):
    data = game_json(games().get(game_id))
    data.pop("pending")
    data.pop("more_pending")
    response = jsonify(data)
    response.headers["Content-Disposition"] = f'attachment; filename="qwirkle-game-{game_id}.json"'
    return response


@bp.get("/camera")
def camera():
    """The camera's state, and how many tiles it sees (the set-up page warns of a game
    started over tiles)."""
    view = games().view
    return jsonify(dict(games().camera, tiles=len(view[0]) if view else 0,
                        off_board=len(view[1]) if view else 0))


@bp.post("/join")
def join():
    """Trade the PIN (or the token) for the table cookie; answers the CSRF token."""
    check_origin()
    data = body()
    ok: bool | None
    if isinstance(data.get("token"), str):
        ok = keys().token_ok(data["token"])
    elif isinstance(data.get("pin"), str):
        address = request.remote_addr or ""
        ok = keys().try_pin(address, data["pin"])
        wait = math.ceil(keys().locked_for(address))
        if ok is None:  # Retry-After: when this device may try again
            raise TooManyRequests(_("Too many wrong PINs from this device: try again in "
                                    "%(wait)s, or scan the QR code.", wait=_wait_words(wait or 1)),
                                  retry_after=wait or 1)
        if ok is False and wait:  # this wrong PIN locked the device: say so now
            abort(403, _("Wrong PIN, and too many from this device: try again in %(wait)s, or "
                         "scan the QR code.", wait=_wait_words(wait)))
    else:
        raise PayloadError(_("Send the PIN as {\"pin\": \"123456\"}."))
    if not ok:
        abort(403, _("Wrong PIN."))
    return set_token_cookie(jsonify({"csrf": keys().csrf()}))


def _wait_words(seconds: int) -> str:
    """A lockout's length as a guest reads it: seconds under two minutes, else minutes
    rounded up (the longest lockout is 15 minutes)."""
    if seconds < 120:
        return ngettext("%(num)s second", "%(num)s seconds", seconds)
    return ngettext("%(num)s minute", "%(num)s minutes", math.ceil(seconds / 60))


@bp.post("/auth/rotate")
@needs_token
def rotate():
    """A new PIN and join link; every other device must join again (a neighbour who learnt
    the PIN is out). The device that asked keeps its place: it gets the new cookie."""
    keys().rotate()
    return set_token_cookie(jsonify({"pin": keys().pin, "join_url": join_url(),
                                     "csrf": keys().csrf()}))


@bp.post("/games/<int:game_id>/redo")
@needs_token
def redo(game_id: int):
    """Put a turn that Undo or Remove took away back where it was: ``{"index": i, "turn":
    {...}, "turns": n}`` as the tablet remembered it. Later turns are re-checked, as for any
    correction. ``n``, how many turns the game held once the turn was taken away, makes the
    server refuse (409) when another device changed them since: an exchange undone, then
    entered again on another tablet, was put back a second time, as the next player's. It
    is required: without it a request sent twice (a retry) put the turn back twice."""
    data = body()
    index, turns = data.get("index"), games().get(game_id).table.turns
    if not is_whole(index) or not 0 <= index <= len(turns):
        raise PayloadError(_("index must be a turn number from 0 to %(n)s", n=len(turns)))
    seen = turn_number("turns")
    if seen is None:
        raise PayloadError(_("turns must say how many turns the game held once the turn was "
                             "taken away"))
    turn = data.get("turn")  # the turn as the state showed it: with its id, it gets it back
    turn_id = turn_number("id", turn) if isinstance(turn, dict) else None
    return answer(games().redo(game_id, index, turn, seen, turn_id))


@bp.post("/games/<int:game_id>/resume")
@needs_token
def resume(game_id: int):
    """Make an unfinished game from the archive the one at the table again."""
    return answer(games().resume(game_id))
