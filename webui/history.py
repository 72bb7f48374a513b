"""Player history across games, the way score apps keep it: games, wins, average and best
score, Qwirkles, per player.

A player is their name: typed the same way (case, spacing and characters that draw nothing
aside) in two games, it is the same player. Players who typed their name two ways can be
merged; a merge is kept in the database (table ``player_aliases``, one row per merged name)
so it holds for later games too. Only finished games count: an abandoned game says nothing
about who plays well.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from collections.abc import Iterable
from contextlib import closing
from dataclasses import dataclass

from flask import Blueprint, abort, current_app, jsonify, render_template
from flask_babel import gettext as _

from engine.table import TableGame

from .auth import needs_token
from .codec import PayloadError
from .games import games
from .validate import body, draws_nothing, player_name

bp = Blueprint("history", __name__)

SCHEMA = "CREATE TABLE IF NOT EXISTS player_aliases (name TEXT PRIMARY KEY, player TEXT NOT NULL)"


def name_key(name: str) -> str:
    """Names that differ only in case or spacing, in what draws nothing (a zero-width space,
    a soft hyphen, a direction mark) or in how a letter is encoded (a full-width A, an ë as
    one character or as e and its accent) are one player: they look the same, so two seats
    of one game must not hold them, and a guest typing "Ann" plus an invisible character
    must not start a second Ann in the history."""
    shown = unicodedata.normalize("NFKC", name)
    shown = "".join(c for c in shown if not draws_nothing(c))
    return unicodedata.normalize("NFKC", " ".join(shown.split()).casefold())


def _connect() -> sqlite3.Connection:
    db = sqlite3.connect(current_app.config["DB_PATH"], timeout=10, isolation_level=None)
    db.execute(SCHEMA)
    return db


def aliases() -> dict[str, str]:
    """Merged names: a name's key -> the key of the player it was merged into (keyed again
    as :func:`name_key` keys names now: a row stored when it ignored less still applies)."""
    with closing(_connect()) as db:
        rows = db.execute("SELECT name, player FROM player_aliases").fetchall()
    return {name_key(name): name_key(player) for name, player in rows}


def merge(name: str, into: str) -> None:
    """From now on ``name`` counts as ``into`` (and so does anything merged into ``name``)."""
    source, target = merge_keys(name, into)
    with closing(_connect()) as db:
        db.execute("UPDATE player_aliases SET player = ? WHERE player = ?", (target, source))
        db.execute("INSERT INTO player_aliases (name, player) VALUES (?, ?) ON CONFLICT(name) "
                   "DO UPDATE SET player = excluded.player", (source, target))


def merge_keys(name: str, into: str) -> tuple[str, str]:
    """The keys a merge of ``name`` into ``into`` joins: ``name``'s and that of the player
    ``into`` counts as. PayloadError when they are one player already, asked before whether
    they sat together: one name twice was refused as "Ann and Ann played in the same game",
    and a merge back the other way as if it were a second player."""
    source, target = name_key(name), aliases().get(name_key(into), name_key(into))
    if not source or not target or source == name_key(into):
        raise PayloadError(_("Choose two different players to merge."))
    if source == target:
        raise PayloadError(_("The games of %(into)s already count for %(name)s.", name=name,
                             into=into))
    return source, target


@dataclass
class PlayerRecord:
    """One player's record over the finished games."""

    name: str
    """The name as last typed."""
    games: int = 0
    wins: int = 0
    points: int = 0
    best: int = 0
    qwirkles: int = 0

    @property
    def average(self) -> float:
        return self.points / self.games if self.games else 0.0


def player_records(tables: Iterable[TableGame], merged: dict[str, str]) -> list[PlayerRecord]:
    """Each player's record from the finished games, oldest game first (so the name shown is
    the latest spelling); best players first."""
    records: dict[str, PlayerRecord] = {}
    for table in tables:
        if not table.ended:
            continue
        top = max(table.totals)
        for seat, name in enumerate(table.players):
            key = merged.get(name_key(name), name_key(name))
            record = records.setdefault(key, PlayerRecord(name))
            record.name = name if key == name_key(name) else record.name
            total = table.totals[seat]
            record.games += 1
            record.wins += total == top
            record.points += total
            record.best = max(record.best, total)
            record.qwirkles += table.qwirkles[seat]
    return sorted(records.values(), key=lambda r: (-r.wins, -r.average, r.name.casefold()))


@bp.get("/players")
def players_page():
    tables = [games().get(row.id).table for row in reversed(games().rows())]
    return render_template("players.html", view="players",
                           players=player_records(tables, aliases()))


@bp.post("/api/players/merge")
@needs_token
def merge_players():
    data = body()
    name, into = data.get("name"), data.get("into")
    if not isinstance(name, str) or not isinstance(into, str):
        raise PayloadError(_("Send the two names as {\"name\": ..., \"into\": ...}."))
    seated = [{name_key(p) for p in row.players} for row in games().rows()]
    played = set().union(*seated)
    name, into = recorded(name, played), recorded(into, played)
    merge_keys(name, into)
    if sat_together(name_key(name), name_key(into), seated, aliases()):
        raise PayloadError(_("%(name)s and %(into)s played in the same game: they are two "
                             "players, not one name typed two ways.", name=name, into=into))
    merge(name, into)
    return jsonify({"merged": name_key(name), "into": name_key(into)})


def sat_together(name: str, into: str, seated: list[set[str]], merged: dict[str, str]) -> bool:
    """Whether any game had a seat for each side of a merge of ``name`` into ``into`` (keys;
    each side with the names already merged into it). Such a merge would count one game
    twice for one player, and cannot be taken back: it is refused.

    >>> sat_together("mia", "max", [{"mia", "max"}], {})
    True
    >>> sat_together("mia", "max", [{"mia", "moe"}, {"max", "moe"}], {})
    False
    >>> sat_together("moe", "max", [{"mia", "moe"}], {"mia": "max"})
    True
    """
    target = merged.get(into, into)
    ours = {name} | {n for n, player in merged.items() if player == name}
    theirs = {target} | {n for n, player in merged.items() if player == target}
    return any(seats & ours and seats & theirs for seats in seated)


def recorded(value: str, played: set[str]) -> str:
    """``value`` checked as a name is when a game starts, and as one of the players of some
    game (``played``, by :func:`name_key`): a merge of a name nobody played would only store
    an alias that nothing ever uses."""
    name = player_name(value)
    if name_key(name) not in played:
        abort(404, _("No game has a player called %(name)s.", name=name))
    return name
