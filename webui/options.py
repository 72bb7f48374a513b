"""Table options chosen on the set-up page (for now: whether the TV shows the Qwirkle watch).

They live in the database's settings table, so the TV sees what a tablet chose and a restart
keeps it. The event log's own connection only ever inserts settings once, so this module
writes them with its own short-lived connection.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing

from flask import Blueprint, current_app, jsonify
from flask_babel import gettext as _

from .auth import needs_token
from .codec import PayloadError
from .validate import body

bp = Blueprint("options", __name__, url_prefix="/api")

WATCH = "qwirkle_watch"


def _connect() -> sqlite3.Connection:
    return sqlite3.connect(current_app.config["DB_PATH"], timeout=10, isolation_level=None)


def watch_on() -> bool:
    """Whether the table view marks the lines of five (on unless switched off)."""
    with closing(_connect()) as db:
        row = db.execute("SELECT value FROM settings WHERE key = ?", (WATCH,)).fetchone()
    return row is None or row[0] != "off"


@bp.get("/options")
def read_options():
    return jsonify({WATCH: watch_on()})


@bp.post("/options")
@needs_token
def write_options():
    value = body().get(WATCH)
    if not isinstance(value, bool):
        raise PayloadError(_("%(key)s must be true or false", key=WATCH))
    with closing(_connect()) as db:
        db.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) "
                   "DO UPDATE SET value = excluded.value", (WATCH, "on" if value else "off"))
    return jsonify({WATCH: value})
