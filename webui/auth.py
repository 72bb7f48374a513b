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
import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, request
from flask_babel import gettext as _
from werkzeug.exceptions import Forbidden, SecurityError

from .db import EventLog
from .validate import is_clean

COOKIE = "qwirkle_table"
CSRF_HEADER = "X-CSRF-Token"
PIN_TRIES = 5
PIN_LOCKOUT_S = 30.0
MAX_LOCKOUT_S = 15 * 60.0
MAX_TRACKED = 4096
"""Addresses the PIN brake remembers; past this the oldest quiet ones are forgotten."""
KEPT_TOKENS = 20
"""Older join tokens still honoured (one per restart until a rotation): a tablet's cookie
outlives a restart of the server."""
LOOPBACK = ("127.0.0.1", "::1")
LOOPBACK_HOSTS = ("localhost", *LOOPBACK)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Strikes:
    """One address's wrong PINs: each lockout in a row lasts twice as long as the last."""

    wrong: int = 0
    lockouts: int = 0
    locked_until: float = 0.0


class TableKeys:
    """The table's token and PIN, and a brake on PIN guessing per client address.

    Only hashes of tokens are stored (``save`` writes them): a copy of the database does not
    let anyone join. So the raw token, needed for the QR code, lives in memory, and a restart
    makes a new one; the tokens of earlier runs stay valid so joined tablets stay joined,
    until :meth:`rotate` revokes them all.
    """

    def __init__(self, hashes: list[str], save: Callable[[list[str]], None],
                 token: str | None = None) -> None:
        self.token = token or new_token()
        self.pin = new_pin()
        self._save = save
        self._lock = threading.Lock()
        self._hashes = [digest(self.token), *(h for h in hashes if h != digest(self.token))]
        self._hashes = self._hashes[:KEPT_TOKENS]
        save(self._hashes)
        self._strikes: dict[str, Strikes] = {}

    def csrf(self, token: str | None = None) -> str:
        """The CSRF token that goes with a table token (the current one by default)."""
        key = (token or self.token).encode()
        return hmac.new(key, b"csrf", hashlib.sha256).hexdigest()[:32]

    def token_ok(self, token: object) -> bool:
        if not isinstance(token, str) or not token or not is_clean(token):
            return False
        wanted = digest(token)
        return any(hmac.compare_digest(wanted, known) for known in self._hashes)

    def rotate(self) -> None:
        """A new token and PIN; every earlier token (every joined device) is revoked."""
        with self._lock:
            self.token, self.pin = new_token(), new_pin()
            self._hashes = [digest(self.token)]
            self._save(self._hashes)
            self._strikes.clear()

    def try_pin(self, address: str, pin: object) -> bool | None:
        """True/False for a right/wrong PIN; None while this address is locked out after too
        many wrong ones. Other addresses are not affected."""
        now = time.monotonic()
        with self._lock:
            strikes = self._strikes.get(address) or self._remember(address, now)
            if now < strikes.locked_until:
                return None
            if isinstance(pin, str) and is_clean(pin, 20) and hmac.compare_digest(
                    pin.strip().encode(), self.pin.encode()):
                del self._strikes[address]
                return True
            strikes.wrong += 1
            if strikes.wrong >= PIN_TRIES:
                strikes.wrong = 0
                strikes.locked_until = now + min(PIN_LOCKOUT_S * 2 ** strikes.lockouts,
                                                 MAX_LOCKOUT_S)
                strikes.lockouts += 1
            return False

    def locked_for(self, address: str) -> float:
        """Seconds until this address may try a PIN again (0 when it may now)."""
        with self._lock:
            strikes = self._strikes.get(address)
            return max(0.0, strikes.locked_until - time.monotonic()) if strikes else 0.0

    def _remember(self, address: str, now: float) -> Strikes:
        if len(self._strikes) >= MAX_TRACKED:
            quiet = [a for a, s in self._strikes.items() if s.locked_until < now]
            for old in quiet[: MAX_TRACKED // 2] or list(self._strikes)[:1]:
                del self._strikes[old]
        strikes = self._strikes[address] = Strikes()
        return strikes


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


def keys() -> TableKeys:
    return current_app.extensions["qwirkle_keys"]


def request_token() -> str | None:
    """The valid table token this request carries (bearer header or cookie), if any."""
    header = request.headers.get("Authorization", "")
    token = header[len("Bearer "):].strip() if header.startswith("Bearer ") else \
        request.cookies.get(COOKIE)
    return token if keys().token_ok(token) else None


def is_authorized() -> bool:
    """Whether this request carries the table token (cookie or bearer header)."""
    return request_token() is not None


def csrf_token() -> str:
    """The CSRF token for this request's page: that of the token its cookie holds (a tablet
    joined before a restart keeps its own), else the current one (set by the page)."""
    return keys().csrf(request_token())


def host_name() -> str:
    """The Host header's name, lower case, without the port ("" for an untrusted one: the
    error page about it asks this too)."""
    try:
        return (urlsplit(f"//{request.host}").hostname or "").lower()
    except (ValueError, SecurityError):
        return ""


def is_local() -> bool:
    """The laptop that runs the server: it is at the table, so its screen may show the PIN and
    QR code. Only a loopback connection asking for a loopback name is: a page of another site
    that a DNS trick points at this server has another Host."""
    return request.remote_addr in LOOPBACK and host_name() in LOOPBACK_HOSTS


def base_url() -> str:
    """The address tablets reach this server at: the LAN address `qwirkle serve` found."""
    return (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")


def join_url() -> str:
    return f"{base_url()}/join?t={keys().token}"


def check_origin() -> None:
    """Refuse a change sent by a page of another site. The Host reaches the views in lower
    case (:func:`webui.app.case_blind_host`), so the Origin's name is compared so too."""
    origin = request.headers.get("Origin")
    if origin is None:
        return
    try:
        netloc = urlsplit(origin).netloc.lower()
    except ValueError:
        netloc = None
    if netloc != request.host:
        abort(403, _("Requests from another site are refused."))


def set_token_cookie(response: Any) -> Any:
    response.set_cookie(COOKIE, keys().token, httponly=True, samesite="Strict",
                        max_age=60 * 60 * 24 * 365)
    return response


class NotJoined(Forbidden):
    """A change asked by a device that holds no valid token: it never joined, or joined before
    a New PIN. Its ``reason_code`` lets the page show the PIN box again at once: a tablet
    told to "enter the PIN" on a page with no PIN box (it was drawn while joined) was stuck
    until someone thought of reloading it."""

    reason_code = "not_joined"


def needs_token(view: Callable) -> Callable:
    """Guard a state-changing endpoint: Origin, then the token, then the CSRF header."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        check_origin()
        token = request_token()
        if request.headers.get("Authorization", "").startswith("Bearer "):
            if token is None:
                abort(403, _("Wrong table token."))
            return view(*args, **kwargs)
        if token is None:
            raise NotJoined(_("This device has not joined the table: scan the QR code or "
                              "enter the PIN."))
        sent = request.headers.get(CSRF_HEADER, "")
        if not is_clean(sent) or not hmac.compare_digest(sent.encode(),
                                                         keys().csrf(token).encode()):
            abort(403, _("Missing or wrong CSRF token: reload the page."))
        return view(*args, **kwargs)

    return guarded


def init_app(app: Flask, event_log: EventLog) -> None:
    """Give the app the table's keys, their hashes kept in the log's settings. A database
    from before hashing holds the raw token: it is hashed now, and still works for this run's
    link."""
    old = event_log.setting("token")
    stored = json.loads(event_log.setting("token_sha256") or "[]")
    if old is not None:
        stored.append(digest(old))

    def save(hashes: list[str]) -> None:
        event_log.set_setting("token_sha256", json.dumps(hashes))
        event_log.set_setting("token", None)
        event_log.set_setting("pin", None)

    app.extensions["qwirkle_keys"] = TableKeys(stored, save, token=old)
