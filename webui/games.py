"""The games the server knows: each one's event log replayed into an engine TableGame, the
move waiting for confirmation, and a change signal that the live streams wait on.

Every confirmed action goes through :meth:`Games.act`: it is first applied to the in-memory
game (so an illegal action is refused without touching the log), then appended to the log, and
only then made visible. A client that got an answer therefore knows the action is on disk.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _l

from engine.board import Board, Placed
from engine.rules import IllegalMove, Line, check_move
from engine.table import Place, TableGame
from engine.tiles import COLOURS, Tile
from vision.source import redact_url

from .codec import PayloadError, parse_tiles, parse_turn, turn_json
from .db import EventLog, GameRow

logger = logging.getLogger(__name__)


class UnknownGame(LookupError):
    """No game with this id (HTTP 404)."""


class Conflict(ValueError):
    """A well-formed request that the game's state refuses: an illegal move, no pending move,
    a finished game (HTTP 409). Its message is the engine's reason, fit to show a player."""


@dataclass(frozen=True)
class PendingMove:
    """A move the camera saw, waiting for a player to confirm, fix or dismiss it."""

    tiles: tuple[Placed, ...]
    verdict: Verdict
    needs_confirmation: bool
    # Per tile (same order as tiles): the classifier's runner-up labels, best first, so the
    # Fix menu can offer the likeliest corrections first.
    alternatives: tuple[tuple[Tile, ...], ...] = ()
    # Why the tracker is unsure, when it is (shown on the card).
    doubt: str = ""
    detected: bool = True


@dataclass
class Game:
    row: GameRow
    table: TableGame
    seq: int = 0
    # Moves the camera saw and players have not yet confirmed, oldest first. The tracker goes
    # on reading moves while a tablet waits, so a slow confirmation loses none of them.
    queue: list[PendingMove] = field(default_factory=list)

    @property
    def pending(self) -> PendingMove | None:
        """The move the tablets show: the oldest one waiting."""
        return self.queue[0] if self.queue else None

    def expected_board(self) -> Board:
        """What the camera should see on the table: the confirmed tiles and those of the
        moves still waiting (the tracker reads the next move against this)."""
        cells = {(x, y): tile for x, y, tile in self.table.board.placed()}
        for move in self.queue:
            for x, y, tile in move.tiles:
                cells.setdefault((x, y), tile)
        return Board.from_placed((x, y, tile) for (x, y), tile in cells.items())


def apply_event(table: TableGame, kind: str, payload: dict[str, Any]) -> TableGame:
    """One logged event applied to a game; raises PayloadError or IllegalMove."""
    if kind == "play":
        return table.play(parse_turn(payload.get("turn")))
    if kind == "replace":
        return table.replace(_index(table, payload.get("index")), parse_turn(payload.get("turn")))
    if kind == "void":
        return table.void(_index(table, payload.get("index")))
    if kind == "finish":
        went_out = payload.get("went_out")
        if went_out is not None and (
            isinstance(went_out, bool) or not isinstance(went_out, int)
            or not 0 <= went_out < len(table.scores)
        ):
            raise PayloadError(_l("went_out must be a seat number or null"))
        return table.finish(went_out)
    raise PayloadError(_l("unknown action %(kind)s", kind=kind))


def _index(table: TableGame, index: object) -> int:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(table.turns):
        raise PayloadError(_l("no turn number %(index)s", index=index))
    return index


@dataclass(frozen=True)
class Verdict:
    legal: bool
    score: int | None
    reason: str
    lines: tuple[Line, ...] = ()


def evaluate(table: TableGame, tiles: Sequence[Placed]) -> Verdict:
    """Whether placing these tiles is legal now, its score and scoring lines, or why not.

    The table game judges legality (it also knows how many copies are left); the rules give
    the lines for the tablet's move card.
    """
    try:
        after = table.play(Place(tuple(tiles)))
    except IllegalMove as error:
        return Verdict(False, None, str(error))
    return Verdict(True, after.turns[-1].score, "", check_move(table.board, tiles).lines)


class Games:
    """All games of one server; thread-safe (waitress serves requests from many threads)."""

    def __init__(self, event_log: EventLog, default_colours: Sequence[str] = COLOURS) -> None:
        self.log = event_log
        self.default_colours = tuple(default_colours)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._games: dict[int, Game] = {}
        self._rev = 0
        self._current: int | None = None
        rows = self.rows()
        self._current = rows[0].id if rows else None
        self.camera: dict[str, str] = {"state": "off", "message": ""}
        # Told the confirmed board of the current game whenever it changes (the live tracker).
        self.on_board: Callable[[tuple[str, ...], Board], None] | None = None

    # --- reading -------------------------------------------------------------------------
    def rows(self) -> list[GameRow]:
        """Every game that reads back, newest first (one that cannot is left out)."""
        return [row for row in self.log.games() if self._readable(row.id)]

    def _readable(self, game_id: int) -> bool:
        try:
            self.get(game_id)
        except UnknownGame:
            return False
        return True

    def current_id(self) -> int | None:
        """The game at the table: the newest one."""
        return self._current

    def get(self, game_id: int) -> Game:
        with self._lock:
            if game_id not in self._games:
                row = next((r for r in self.log.games() if r.id == game_id), None)
                if row is None:
                    raise UnknownGame(game_id)
                self._games[game_id] = self._replay(row)
            return self._games[game_id]

    def _replay(self, row: GameRow) -> Game:
        try:
            game = Game(row, TableGame.new(row.players, colours=row.colours))
        except ValueError as error:  # a stored row no game can be made of: as if absent
            logger.warning("game %s left out: %s", row.id, error)
            raise UnknownGame(row.id) from None
        for event in self.log.events(row.id):
            try:
                game.table = apply_event(game.table, event.kind, event.payload)
            except (PayloadError, IllegalMove, TypeError, ValueError) as error:
                # Keep every other event: one that no longer replays (say, after a rules fix)
                # must not take the rest of the game with it.
                logger.warning("game %s: event %s (%s) skipped: %s",
                               row.id, event.seq, event.kind, error)
            game.seq = event.seq
        return game

    def version(self, game_id: int) -> str:
        """Changes whenever anything a page shows changes: the SSE event id."""
        with self._lock:
            return f"{self.get(game_id).seq}.{self._rev}"

    def wait(self, game_id: int, seen: str | None, timeout: float) -> str:
        """Block until the version differs from ``seen`` or the timeout passes."""
        with self._changed:
            self._changed.wait_for(lambda: self.version(game_id) != seen, timeout)
            return self.version(game_id)

    def _touch(self) -> None:
        with self._changed:
            self._rev += 1
            self._changed.notify_all()

    # --- changing ------------------------------------------------------------------------
    def create(self, players: Sequence[str], colours: Sequence[str]) -> Game:
        try:
            table = TableGame.new(tuple(players), colours=tuple(colours))
        except ValueError as error:  # TileError is a ValueError too
            raise PayloadError(str(error)) from None
        with self._lock:
            row = self.log.create_game(table.players, table.colours)
            game = self._games[row.id] = Game(row, table)
            self._current = row.id
            self._queue_changed(game)
            self._touch()
            return game

    def act(self, game_id: int, kind: str, payload: dict[str, Any]) -> Game:
        """Apply, log, then publish one confirmed action."""
        with self._lock:
            game = self.get(game_id)
            try:
                table = apply_event(game.table, kind, payload)
            except IllegalMove as error:
                raise Conflict(str(error)) from None
            game.seq = self.log.append(game_id, kind, payload)
            game.table = table
            self._queue_changed(game)
            self._touch()
            return game

    def _queue_changed(self, game: Game) -> None:
        """Re-judge the move now shown against the game as it stands, and tell the tracker
        the board it should now expect."""
        if game.queue:
            head = game.queue[0]
            game.queue[0] = dataclasses.replace(head, verdict=evaluate(game.table, head.tiles))
        if self.on_board is not None and game.row.id == self.current_id():
            self.on_board(game.table.colours, game.expected_board())

    def set_camera(self, state: str, message: str = "") -> None:
        message = redact_url(message)  # every page and /api/camera show it: no passwords
        with self._lock:
            if self.camera != {"state": state, "message": message}:
                self.camera = {"state": state, "message": message}
                self._touch()

    # --- moves waiting for confirmation ------------------------------------------------------
    def detected(self, tiles: Sequence[Placed], needs_confirmation: bool, reason: str,
                 alternatives: Sequence[Sequence[Tile]]) -> None:
        """The camera saw a move: it joins the current game's moves waiting for confirmation.
        (The tracker already counts it on the table, so it is not told again.)"""
        with self._lock:
            game_id = self.current_id()
            if game_id is None or self.get(game_id).table.ended:
                return
            game = self.get(game_id)
            game.queue.append(PendingMove(tuple(tiles), evaluate(game.table, tiles),
                                          needs_confirmation,
                                          tuple(tuple(a) for a in alternatives), reason))
            self._touch()

    def fix_pending(self, game_id: int, tiles_json: object) -> Game:
        """Replace the shown move's tiles with corrected ones (a tile relabelled, a phantom
        removed). With no move waiting, this enters one by hand."""
        tiles = parse_tiles(tiles_json)
        with self._lock:
            game = self.get(game_id)
            if game.table.ended:
                raise Conflict(_l("the game is over"))
            old = game.pending
            if old is None:
                game.queue.append(PendingMove(tiles, evaluate(game.table, tiles), True,
                                              detected=False))
            else:
                by_cell = {(x, y): alts for (x, y, _), alts in zip(old.tiles, old.alternatives,
                                                                    strict=False)}
                alternatives = tuple(by_cell.get((x, y), ()) for x, y, _ in tiles)
                game.queue[0] = dataclasses.replace(old, tiles=tiles, needs_confirmation=True,
                                                    alternatives=alternatives)
            self._queue_changed(game)
            self._touch()
            return game

    def _shown(self, game_id: int) -> tuple[Game, PendingMove]:
        """The game and the move its tablets show; Conflict when none waits."""
        game = self.get(game_id)
        if not game.queue:
            raise Conflict(_l("there is no move waiting for confirmation"))
        return game, game.queue[0]

    def dismiss(self, game_id: int) -> Game:
        """"Not a move": drop the shown move; the next one waiting (if any) is shown."""
        with self._lock:
            game, _ = self._shown(game_id)
            game.queue.pop(0)
            self._queue_changed(game)
            self._touch()
            return game

    def confirm(self, game_id: int) -> Game:
        """Record the shown move as the current player's turn."""
        with self._lock:
            game, head = self._shown(game_id)
            if not head.verdict.legal:
                raise Conflict(head.verdict.reason)
            game.queue.pop(0)
            try:
                return self.act(game_id, "play", {"turn": turn_json(Place(head.tiles))})
            except Exception:
                game.queue.insert(0, head)
                raise

    def play(self, game_id: int, turn_body: object) -> Game:
        """A turn entered directly (exchange, pass, or a placement from another program)."""
        return self.act(game_id, "play", {"turn": turn_json(parse_turn(turn_body))})
