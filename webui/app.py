"""The Flask application factory.

``create_app(config)`` builds one app around one SQLite event log; the live camera loop is
attached separately (:func:`attach_live`) so tests can run the app without a camera, or with
a fake one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, InternalServerError

from engine.tiles import COLOURS

from . import api, events, pages, reasons, scoring
from .auth import TableKeys, new_pin, new_token
from .codec import PayloadError
from .db import EventLog
from .games import Conflict, Games, UnknownGame
from .i18n import init_i18n
from .live import LiveLoop, Tracker

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "DB_PATH": "qwirkle.sqlite3",
    "COLOURS": COLOURS,
    "PUBLIC_URL": None,  # the LAN address for the QR code; the request's host when None
    "HOST_ADDRESSES": (),  # this machine's own addresses besides loopback (it is at the table)
    "SSE_KEEPALIVE_S": 15.0,
    "SSE_MAX_S": 30 * 60.0,  # a stream ends after this; the browser reconnects and resumes
    "PREVIEW_FPS": 4.0,
    "CAMERA_RETRY_S": 3.0,
    "MAX_CONTENT_LENGTH": 64 * 1024,  # a whole game's worth of tiles fits many times over
}


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.json.ensure_ascii = False  # type: ignore[attr-defined]  # Flask's default provider
    event_log = EventLog(app.config["DB_PATH"])
    app.extensions["qwirkle_games"] = Games(event_log, app.config["COLOURS"])
    app.extensions["qwirkle_keys"] = TableKeys(event_log.setting("token", new_token),
                                               event_log.setting("pin", new_pin))
    init_i18n(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(scoring.bp)
    app.register_blueprint(reasons.bp)
    register_errors(app)
    return app


def attach_live(app: Flask, open_source: Callable[[], Iterable[Any]],
                make_tracker: Callable[[Sequence[str]], Tracker], finite: bool = False,
                may_open: Callable[[], bool] | None = None) -> LiveLoop:
    """Start the camera loop for this app; the caller stops it (``loop.stop()``).

    ``finite``: the source is a recording, read once. ``may_open``: asked before each
    (re)opening of the source; the demo waits while a game is in progress."""
    games: Games = app.extensions["qwirkle_games"]
    loop = LiveLoop(games, open_source, make_tracker, retry_s=app.config["CAMERA_RETRY_S"],
                    preview_fps=app.config["PREVIEW_FPS"], finite=finite, may_open=may_open)
    games.on_board = loop.accept
    games.on_rescan = loop.rescan
    app.extensions["qwirkle_live"] = loop
    loop.start()
    return loop


def register_errors(app: Flask) -> None:
    """Every error is an answer with a message: JSON under /api, a page elsewhere."""

    def reply(status: int, message: str, **extra: str):
        if request.path.startswith("/api/"):
            return jsonify({"error": message, "status": status, **extra}), status
        return render_template("error.html", status=status, message=message), status

    @app.errorhandler(PayloadError)
    def bad_payload(error: PayloadError):
        return reply(400, str(error))

    @app.errorhandler(UnknownGame)
    def unknown_game(error: UnknownGame):
        return reply(404, _("There is no game number %(id)s.", id=error.args[0]))

    @app.errorhandler(Conflict)
    def conflict(error: Conflict):
        said = reasons.say(error.refusal) if error.refusal is not None else str(error)
        return reply(409, said, reason_code=error.code)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        messages = {404: _("Nothing here: check the address."),
                    405: _("This address does not take that method.")}
        described = error.description if error.description != type(error).description else None
        code = error.code or InternalServerError.code
        return reply(code, described or messages.get(code, error.name))

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        if isinstance(error, HTTPException):
            return http_error(error)
        log.exception("unexpected error on %s", request.path)
        return reply(InternalServerError.code,
                     _("Something went wrong on the server; nothing recorded was lost."))
