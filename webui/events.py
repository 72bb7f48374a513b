"""The two long-lived streams: Server-Sent Events of game state, and the MJPEG preview.

SSE: each event carries the game's version as its id and the full state as data. A tablet
that slept sends ``Last-Event-ID`` (or ``?last_event_id=`` when the page reopens the stream
itself); anything but the current version gets the current state at once, so it never shows
a stale sheet. A comment line every few seconds keeps proxies and sleeping Wi-Fi from dropping
an idle stream. A stream opens with a ``hello`` event naming the page's script
(:func:`assets_version`), and ends after ``SSE_MAX_S`` with an ``end`` event (:data:`END`), so that
the page connects again at once instead of taking the end for a lost connection.

Every stream takes a slot of the app's :class:`~webui.streams.StreamGate` (a 503 when none is
left) and frees it when waitress closes the response. An event is rendered once per version
and shared by every open stream, so a change costs the same with a hundred streams as with one.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from flask import Blueprint, Flask, Response, current_app, request
from flask_babel import force_locale, get_locale
from flask_babel import gettext as _
from werkzeug.exceptions import ServiceUnavailable

from .games import games
from .state import table_state
from .streams import StreamGate

bp = Blueprint("events", __name__)

BOUNDARY = "frame"


def assets_version(static: Path) -> str:
    """A digest of the page's script and style sheets, as this server serves them.

    Each stream opens with it (a ``hello`` event) and each page carries the one it was
    served with: a tablet left open through an upgrade of the app reloads once, instead of
    running the old script against the new server.
    """
    digest = hashlib.sha256()
    for name in ("app.js", "app.css", "rtl.css"):
        digest.update((static / name).read_bytes())
    return digest.hexdigest()[:12]


def assets() -> str:
    """This app's :func:`assets_version`, made once at start."""
    return current_app.extensions["qwirkle_assets"]


END = "event: end\ndata: {}\n\n"
"""The last event of a stream that reached its bound: the page connects again at once, as
planned. Without it the end looked like a lost connection until the browser's retry, and a
TV showed "Connection lost" for 2 s every half hour."""


class EventCache:
    """The latest rendered event of each game in each language, keyed by its version (the
    state carries the refusal's reason in the reader's language)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._latest: dict[tuple[int, str], tuple[str, str]] = {}

    def event(self, game_id: int, locale: str) -> tuple[str, str]:
        """(version, event text) of the game as it is now, said in ``locale``."""
        # Its own app context, not the request's: a stream outlives the request's context,
        # and streams served in turn by one thread must not pop each other's.
        with self._lock, self.app.app_context(), force_locale(locale):
            version = games().version(game_id)
            cached = self._latest.get((game_id, locale))
            if cached is None or cached[0] != version:
                data = table_state(games().get(game_id))
                text = f"id: {data['version']}\nevent: state\ndata: {json.dumps(data)}\n\n"
                cached = self._latest[game_id, locale] = (data["version"], text)
            return cached


def gate() -> StreamGate:
    return current_app.extensions["qwirkle_stream_gate"]


def event_cache() -> EventCache:
    return current_app.extensions["qwirkle_event_cache"]


def stream(chunks: Iterator[str] | Iterator[bytes], mimetype: str) -> Response:
    """A streamed response that holds one of the gate's slots until waitress closes it."""
    leave: Callable[[], None] | None = gate().enter(request.remote_addr or "")
    if leave is None:
        raise ServiceUnavailable(_("Too many live views are open; this page will retry in a "
                                   "moment."), retry_after=5)
    response = Response(chunks, mimetype=mimetype,
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    response.call_on_close(leave)
    return response


@bp.get("/api/games/<int:game_id>/events")
def game_events(game_id: int):
    games().get(game_id)  # an unknown game is a 404 now, not a stream that never says anything
    seen = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    keepalive = current_app.config["SSE_KEEPALIVE_S"]
    limit = current_app.config["SSE_MAX_S"]
    events = event_cache()
    table = games()
    locale = str(get_locale())
    page_assets = assets()

    def generate():
        nonlocal seen
        started = time.monotonic()
        yield "retry: 2000\n\n"
        yield f"event: hello\ndata: {json.dumps({'assets': page_assets})}\n\n"
        while time.monotonic() - started < limit:
            version = table.wait(game_id, seen, keepalive)
            if version == seen:
                yield ": keep-alive\n\n"
                continue
            seen, text = events.event(game_id, locale)
            yield text
        yield END

    return stream(generate(), "text/event-stream")


@cache
def blank_jpeg() -> bytes:
    return cv2.imencode(".jpg", np.full((240, 320, 3), 40, np.uint8))[1].tobytes()


@bp.get("/camera.mjpeg")
def camera_mjpeg():
    """The camera with the tracker's drawing, a few frames a second (an <img> plays it)."""
    live = current_app.extensions.get("qwirkle_live")
    period = 1.0 / current_app.config["PREVIEW_FPS"]
    limit = current_app.config["SSE_MAX_S"]

    def generate():
        sent, last_sent, started = None, 0.0, time.monotonic()
        while time.monotonic() - started < limit:
            # Until the camera delivers, a blank picture: the page's load does not wait on it.
            jpeg = (live.jpeg() if live is not None else None) or blank_jpeg()
            # Resend an unchanged frame now and then: a write is how a closed tab is noticed.
            if jpeg is not sent or time.monotonic() - last_sent > 2.0:
                sent, last_sent = jpeg, time.monotonic()
                yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                       f"Content-Length: {len(jpeg)}\r\n\r\n").encode() + jpeg + b"\r\n"
            time.sleep(period)

    return stream(generate(), f"multipart/x-mixed-replace; boundary={BOUNDARY}")
