"""The two long-lived streams: Server-Sent Events of game state, and the MJPEG preview.

SSE: each event carries the game's version as its id and the full state as data. A tablet
that slept sends ``Last-Event-ID`` (or ``?last_event_id=`` when the page reopens the stream
itself); anything but the current version gets the current state at once, so it never shows
a stale sheet. A comment line every few seconds keeps proxies and sleeping Wi-Fi from dropping
an idle stream.
"""

from __future__ import annotations

import json
import time
from functools import cache

import cv2
import numpy as np
from flask import Blueprint, Response, current_app, request, stream_with_context

from .api import games, state

bp = Blueprint("events", __name__)

BOUNDARY = "frame"


@bp.get("/api/games/<int:game_id>/events")
def game_events(game_id: int):
    games().get(game_id)  # an unknown game is a 404 now, not a stream that never says anything
    seen = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    keepalive = current_app.config["SSE_KEEPALIVE_S"]
    limit = current_app.config["SSE_MAX_S"]

    def generate():
        nonlocal seen
        started = time.monotonic()
        yield "retry: 2000\n\n"
        while time.monotonic() - started < limit:
            version = games().wait(game_id, seen, keepalive)
            if version == seen:
                yield ": keep-alive\n\n"
                continue
            data = state(games().get(game_id))
            seen = data["version"]
            yield f"id: {seen}\nevent: state\ndata: {json.dumps(data)}\n\n"

    return Response(stream_with_context(generate()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


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
            if jpeg is not None and (jpeg is not sent or time.monotonic() - last_sent > 2.0):
                sent, last_sent = jpeg, time.monotonic()
                yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                       f"Content-Length: {len(jpeg)}\r\n\r\n").encode() + jpeg + b"\r\n"
            time.sleep(period)

    return Response(generate(), mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                    headers={"Cache-Control": "no-cache"})
