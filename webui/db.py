"""SQLite storage: an append-only event log per game.

Nothing is ever updated or deleted: an undo or an edit is itself a new event, and the state of
a game is rebuilt by replaying its events. So a crash (even ``kill -9``) can only lose an action
whose request had not yet been answered: WAL mode with ``synchronous=FULL`` makes every commit
durable before :meth:`EventLog.append` returns.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    players TEXT NOT NULL,
    colours TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class GameRow:
    id: int
    created: datetime
    players: tuple[str, ...]
    colours: tuple[str, ...]


@dataclass(frozen=True)
class Event:
    seq: int
    at: datetime
    kind: str
    payload: dict[str, Any]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class EventLog:
    """One SQLite file shared by the request threads; a lock serialises writers."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create_game(self, players: tuple[str, ...], colours: tuple[str, ...]) -> GameRow:
        created = _now()
        with self._lock:
            cursor = self._db.execute(
                "INSERT INTO games (created, players, colours) VALUES (?, ?, ?)",
                (created, json.dumps(players), json.dumps(colours)),
            )
        game_id = cursor.lastrowid
        assert game_id is not None, "an INSERT sets lastrowid"
        return GameRow(game_id, datetime.fromisoformat(created), players, colours)

    def games(self) -> list[GameRow]:
        """Every game, newest first; a row that does not read back is left out (and logged),
        so one bad row never hides the rest of the archive."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created, players, colours FROM games ORDER BY id DESC"
            ).fetchall()
        games = []
        for gid, created, players, colours in rows:
            try:
                games.append(GameRow(gid, datetime.fromisoformat(created),
                                     _texts(players), _texts(colours)))
            except (ValueError, TypeError) as error:
                log.warning("game %s left out: its row does not read back (%s)", gid, error)
        return games

    def append(self, game_id: int, kind: str, payload: dict[str, Any]) -> int:
        """Append one event; it is on disk when this returns. Returns its sequence number."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                (last,) = self._db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)
                ).fetchone()
                self._db.execute(
                    "INSERT INTO events (game_id, seq, at, kind, payload) VALUES (?, ?, ?, ?, ?)",
                    (game_id, last + 1, _now(), kind, json.dumps(payload)),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return last + 1

    def events(self, game_id: int) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, at, kind, payload FROM events WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        events = []
        for seq, at, kind, payload in rows:
            try:
                data = json.loads(payload)
                if not isinstance(data, dict):
                    raise TypeError("the payload is not an object")
                events.append(Event(seq, datetime.fromisoformat(at), kind, data))
            except (ValueError, TypeError) as error:
                log.warning("game %s: event %s skipped: it does not read back (%s)",
                            game_id, seq, error)
        return events

    def setting(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def set_setting(self, key: str, value: str | None) -> None:
        """Store (or, with None, forget) a setting; on disk when this returns."""
        with self._lock:
            if value is None:
                self._db.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                self._db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                                 (key, value))


def _texts(stored: str) -> tuple[str, ...]:
    """A stored JSON list of names; ValueError unless every one is text that encodes."""
    values = json.loads(stored)
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ValueError("not a list of names")
    for value in values:
        value.encode("utf-8")  # a lone surrogate (stored by an older version) fails here
    return tuple(values)
