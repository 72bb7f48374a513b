"""Who may change the game: whoever holds the table's token.

Reading is open to anyone on the Wi-Fi. The token reaches a tablet through the QR link (or as
the short PIN shown on the table view) and is then kept in an HttpOnly, SameSite=Strict cookie.
Because a cookie is sent by the browser on its own, every state-changing request must also
carry a CSRF token in a header (a cross-site page can neither read it nor set custom headers),
and its Origin, when the browser sends one, must be this server. Programs may instead send
``Authorization: Bearer TOKEN``, which a browser never adds by itself, so needs no CSRF token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlsplit

from flask import abort, current_app, request
from flask_babel import gettext as _

COOKIE = "qwirkle_table"
CSRF_HEADER = "X-CSRF-Token"
PIN_TRIES = 5
PIN_LOCKOUT_S = 30.0


class TableKeys:
    """The table's token and PIN, and a brake on PIN guessing (a million PINs is few)."""

    def __init__(self, token: str, pin: str) -> None:
        self.token = token
        self.pin = pin
        self._lock = threading.Lock()
        self._wrong = 0
        self._locked_until = 0.0

    def csrf(self) -> str:
        return hmac.new(self.token.encode(), b"csrf", hashlib.sha256).hexdigest()[:32]

    def token_ok(self, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(token.encode(), self.token.encode())

    def try_pin(self, pin: str) -> bool | None:
        """True/False for a right/wrong PIN; None while locked out after too many wrong ones."""
        with self._lock:
            if time.monotonic() < self._locked_until:
                return None
            if hmac.compare_digest(pin.encode(), self.pin.encode()):
                self._wrong = 0
                return True
            self._wrong += 1
            if self._wrong >= PIN_TRIES:
                self._wrong = 0
                self._locked_until = time.monotonic() + PIN_LOCKOUT_S
            return False


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


def keys() -> TableKeys:
    return current_app.extensions["qwirkle_keys"]


def is_authorized() -> bool:
    """Whether this request carries the table token (cookie or bearer header)."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return keys().token_ok(header[len("Bearer "):].strip())
    return keys().token_ok(request.cookies.get(COOKIE))


def is_local() -> bool:
    """The laptop that runs the server (by loopback or by its own LAN address): it is at the
    table, so its screen may show the PIN and QR code."""
    return request.remote_addr in ("127.0.0.1", "::1", *current_app.config["HOST_ADDRESSES"])


def check_origin() -> None:
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        abort(403, _("Requests from another site are refused."))


def set_token_cookie(response: Any) -> Any:
    response.set_cookie(COOKIE, keys().token, httponly=True, samesite="Strict",
                        max_age=60 * 60 * 24 * 365)
    return response


def needs_token(view: Callable) -> Callable:
    """Guard a state-changing endpoint: Origin, then the token, then the CSRF header."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        check_origin()
        if request.headers.get("Authorization", "").startswith("Bearer "):
            if not is_authorized():
                abort(403, _("Wrong table token."))
            return view(*args, **kwargs)
        if not keys().token_ok(request.cookies.get(COOKIE)):
            abort(403, _("This device has not joined the table: scan the QR code or enter "
                         "the PIN."))
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), keys().csrf().encode()):
            abort(403, _("Missing or wrong CSRF token: reload the page."))
        return view(*args, **kwargs)

    return guarded
