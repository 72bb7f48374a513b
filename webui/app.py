"""The Flask application factory.

``create_app(config)`` builds one app around one SQLite event log; the live camera loop is
attached separately (:func:`attach_live`) so tests can run the app without a camera, or with
a fake one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, jsonify, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, InternalServerError, SecurityError

from engine.tiles import COLOURS

from . import api, auth, events, games, pages, reasons, scoring
from .auth import LOOPBACK_HOSTS
from .codec import PayloadError
from .db import EventLog
from .games import Conflict, Games, UnknownGame
from .i18n import init_i18n
from .live import LiveLoop, Tracker
from .streams import StreamGate
from .validate import AsciiInt, StrictJSON

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "DB_PATH": "qwirkle.sqlite3",
    "COLOURS": COLOURS,
    "PUBLIC_URL": None,  # the LAN address for the QR code; the request's host when None
    "HOST_ADDRESSES": (),  # this machine's LAN addresses and names: Host values it answers to
    "SSE_KEEPALIVE_S": 15.0,
    "SSE_MAX_S": 30 * 60.0,  # a stream ends after this; the browser reconnects and resumes
    "PREVIEW_FPS": 4.0,
    "CAMERA_RETRY_S": 3.0,
    "MAX_CONTENT_LENGTH": 64 * 1024,  # a whole game's worth of tiles fits many times over
    "ALLOW_HOSTS": (),  # more names this server is reached by (`qwirkle serve --allow-host`)
    "TRUSTED_HOSTS": None,  # None: loopback, HOST_ADDRESSES and ALLOW_HOSTS
    "DEMO_CAMERA": False,  # the camera is the built-in demo (`qwirkle serve --camera demo`)
}


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.json = StrictJSON(app)
    app.url_map.converters["int"] = AsciiInt
    app.json.ensure_ascii = False
    event_log = EventLog(app.config["DB_PATH"])
    games.init_app(app, event_log)
    auth.init_app(app, event_log)
    if app.config.get("TRUSTED_HOSTS") is None:
        app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config)
    app.wsgi_app = case_blind_host(app.wsgi_app)  # type: ignore[method-assign, assignment]
    app.extensions["qwirkle_stream_gate"] = StreamGate()
    app.extensions["qwirkle_event_cache"] = events.EventCache(app)
    app.extensions["qwirkle_assets"] = events.assets_version(Path(app.static_folder or ""))
    init_i18n(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(scoring.bp)
    app.register_blueprint(reasons.bp)
    register_errors(app)
    return app


def trusted_hosts(config: dict[str, Any]) -> list[str]:
    """The Host names this server answers to. Any other is refused (400) before a view runs:
    a page of another site whose name a DNS trick points here must not read the table."""
    names = [*LOOPBACK_HOSTS, *config["HOST_ADDRESSES"], *config["ALLOW_HOSTS"]]
    return list(dict.fromkeys(name.lower() for name in names))


def case_blind_host(wsgi_app: WSGIApplication) -> WSGIApplication:
    """``wsgi_app`` reading the Host header in lower case. Host names are case-insensitive
    (RFC 3986, 3.2.2), and :func:`trusted_hosts` lists them in lower case, but werkzeug
    matches the header against them case by case: "LOCALHOST" was refused as a stranger."""

    def lower_host(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        host = environ.get("HTTP_HOST")
        if isinstance(host, str):
            environ["HTTP_HOST"] = host.lower()
        return wsgi_app(environ, start_response)

    return lower_host


def attach_live(app: Flask, open_source: Callable[[], Iterable[Any]],
                make_tracker: Callable[[Sequence[str]], Tracker], finite: bool = False,
                may_open: Callable[[], bool] | None = None,
                waiting: str | Callable[[], str] = "waiting", clears: bool = False) -> LiveLoop:
    """Start the camera loop for this app; the caller stops it (``loop.stop()``).

    ``finite``: the source is a recording, read once. ``may_open``: asked before each
    (re)opening of the source; the demo waits while a game is in progress, a video file
    until one is, the camera's state meanwhile being ``waiting`` (or what it answers).
    ``clears``: the source shows each new game an empty table (the demo), so the tiles it
    showed before are not offered as the new game's first move."""
    games: Games = app.extensions["qwirkle_games"]
    loop = LiveLoop(games, open_source, make_tracker, retry_s=app.config["CAMERA_RETRY_S"],
                    preview_fps=app.config["PREVIEW_FPS"], finite=finite, may_open=may_open,
                    waiting=waiting, clears=clears)
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

    @app.errorhandler(SecurityError)
    def untrusted_host(error: SecurityError):
        # No page: building its links needs the Host that was just refused.
        message = _("This server is not reached by that name (Host header). Open the address "
                    "`qwirkle serve` printed, or start it with --allow-host NAME.")
        if request.path.startswith("/api/"):  # JSON needs no link, so no Host
            return jsonify({"error": message, "status": 400}), 400
        return Response(message, 400, mimetype="text/plain")

    @app.errorhandler(PayloadError)
    def bad_payload(error: PayloadError):
        return reply(400, str(error), **({"reason_code": error.code} if error.code else {}))

    @app.errorhandler(UnknownGame)
    def unknown_game(error: UnknownGame):
        return reply(404, _("There is no game number %(id)s.", id=error.args[0]))

    @app.errorhandler(Conflict)
    def conflict(error: Conflict):
        said = reasons.say(error.refusal) if error.refusal is not None else str(error)
        return reply(409, f"{said} {error.hint}" if error.hint else said,
                     reason_code=error.code)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        messages = {404: _("Nothing here: check the address."),
                    405: _("This address does not take that method."),
                    413: _("That request is too big: a move or a whole game fits in far less.")}
        described = error.description if error.description != type(error).description else None
        code = error.code or InternalServerError.code
        joined = {"reason_code": error.reason_code} if isinstance(error, auth.NotJoined) else {}
        response, status = reply(code, described or messages.get(code, error.name), **joined)
        response = app.make_response(response)
        # Retry-After of a 503 or 429, so a client knows when to come back.
        response.headers.extend((k, v) for k, v in error.get_headers() if k == "Retry-After")
        return response, status

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        if isinstance(error, HTTPException):
            return http_error(error)
        log.exception("unexpected error on %s", request.path)
        return reply(InternalServerError.code,
                     _("Something went wrong on the server; nothing recorded was lost."))
