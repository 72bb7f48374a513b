"""The games the server knows: each one's event log replayed into an engine TableGame, with
its queue of moves waiting for confirmation (:mod:`webui.pending`), and the change signal that
the live streams wait on (:mod:`webui.notifier`).

Every confirmed action goes through :meth:`Games.act`: it is first applied to the in-memory
game (so an illegal action is refused without touching the log), then appended to the log, and
only then made visible. A client that got an answer therefore knows the action is on disk.

The camera's view of the table and the game are kept in step here. After every change the
live tracker is told the game (``on_board``) and answers with tiles it sees that the game holds
nowhere, which are offered again ahead of the queue. "Not a move" sets a move's tiles aside
(logged, so a restart keeps them aside) until players take them back; "the table is right"
makes the game agree with what the camera sees.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial
from typing import Any

from flask import Flask, current_app
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

from engine.board import Board, Cell, Placed
from engine.boardgame import start_diagonals
from engine.refusals import Illegal, Refusal
from engine.rules import IllegalMove
from engine.table import Place, TableGame, Turn, TurnRecord
from engine.tiles import COLOURS, Tile
from vision.adapt import SetAdapter
from vision.doubts import Doubt
from vision.setprofile import ProfileError, SetProfile, profile_from_json
from vision.source import SMALL_PICTURE, SourceError, redact_url

from .codec import (
    PayloadError,
    check_reach,
    is_whole,
    parse_readings,
    parse_tiles,
    parse_turn,
    placed_json,
    reading_json,
    turn_json,
)
from .db import EventLog, GameRow
from .notifier import Notifier
from .pending import (
    Offer,
    PendingMove,
    as_part,
    evaluate,
    is_start,
    laid_on,
    offered,
    one_turn,
    parted,
    rejoined,
    reread,
    tiles_key,
    whole_start,
    without,
)

logger = logging.getLogger(__name__)

PROFILE_SETTING = "set-profile"


class UnknownGame(LookupError):
    """No game with this id (HTTP 404)."""


UNSAID = -1
"""A caller's word on which game was at the table, when it gives none (game ids start at 1)."""


class Conflict(ValueError):
    """A well-formed request that the game's state refuses: an illegal move, no pending move,
    a finished game (HTTP 409). ``refusal`` is the engine's when it refused, ``code`` the
    API's ``reason_code``."""

    def __init__(self, reason: Refusal | LazyString | str, code: str = "",
                 hint: LazyString | str = "") -> None:
        super().__init__(str(reason))
        self.refusal = reason if isinstance(reason, Refusal) else None
        self.code = reason.code.value if isinstance(reason, Refusal) else code
        self.hint = hint
        """What players can do instead, said after the reason."""


@dataclass
class Game:
    row: GameRow
    table: TableGame
    seq: int = 0
    # Moves the camera saw and players have not yet confirmed, oldest first. The tracker goes
    # on reading moves while a tablet waits, so a slow confirmation loses none of them.
    queue: list[PendingMove] = field(default_factory=list)
    # Tiles players said are not a move ("Not a move"): on the table, but not in the game.
    ignored: dict[Cell, Tile] = field(default_factory=dict)
    # The camera's runner-up labels of those tiles, by cell: taken back, a move offers them
    # in the fix dialog as it did before it was set aside.
    ignored_alternatives: dict[Cell, tuple[Tile, ...]] = field(default_factory=dict)
    # Which setting aside each of those tiles came with (1, 2, ...: a "Not a move", a tile
    # removed from a move): taken back together, each batch is a turn again.
    ignored_batch: dict[Cell, int] = field(default_factory=dict)
    # The camera's readings that players overruled, by cell: a fix, an edit or "Keep the
    # game's tiles" said the tile there is the game's. The camera reading the same again is
    # no news; reading yet another tile there is.
    overruled: dict[Cell, Tile] = field(default_factory=dict)
    # Cells whose tile the camera misses, which players said lies there all the same (a tile
    # entered by hand because the camera cannot read it): not "in the game but not on the
    # table" while the game holds a tile there.
    unseen_kept: set[Cell] = field(default_factory=set)
    # Each turn's id, in turn order: the seq of the logged event that recorded it; an edit
    # keeps it, and a Redo gives it back. A turn's number names whichever turn is there now,
    # and an exchange or a pass is the like of any other of its count, so only the id tells
    # a device that the turn it asked about is still the one at that number. Derived from
    # the log, so a restart gives every turn the id it had.
    turn_ids: list[int] = field(default_factory=list)

    def record(self, table: TableGame, kind: Event, payload: dict[str, Any], seq: int) -> None:
        """Take ``table``, the game once logged event ``seq`` (``kind``, ``payload``) is
        applied, with :attr:`turn_ids` kept in step with its turns. A Redo's turn takes back
        the id it names where that is an earlier seq no turn holds now: ids stay unique, as
        every later event's seq is greater."""
        if kind is Event.PLAY:
            self.turn_ids.append(seq)
        elif kind is Event.INSERT:
            back = payload.get("id")
            kept = back if is_whole(back) and back < seq and back not in self.turn_ids else seq
            self.turn_ids.insert(payload["index"], kept)
        elif kind is Event.VOID:
            del self.turn_ids[payload["index"]]
        self.table, self.seq = table, seq

    @property
    def pending(self) -> PendingMove | None:
        """The move the tablets show: the oldest one waiting."""
        return self.queue[0] if self.queue else None

    def waiting_tiles(self) -> list[Placed]:
        """The tiles of every move waiting for confirmation, oldest move first."""
        return [tile for move in self.queue for tile in move.tiles]

    def expected_board(self) -> Board:
        """What the camera should see on the table: the confirmed tiles, those of the moves
        still waiting and those set aside."""
        cells = {(x, y): tile for x, y, tile in self.table.board.placed()}
        for x, y, tile in self.waiting_tiles():
            cells.setdefault((x, y), tile)
        for cell, tile in self.ignored.items():
            cells.setdefault(cell, tile)
        return Board.from_placed((x, y, tile) for (x, y), tile in cells.items())

    def set_aside(self) -> list[Placed]:
        """The tiles set aside, as placed tiles in cell order."""
        return sorted((x, y, tile) for (x, y), tile in self.ignored.items())

    def set_aside_batches(self, cells: Sequence[Cell] | None = None) -> list[list[Placed]]:
        """The tiles set aside (those on ``cells``; None: all) in the batches they were set
        aside in, oldest first, each in cell order."""
        batches: dict[int, list[Placed]] = {}
        for x, y, tile in self.set_aside():
            if cells is None or (x, y) in cells:
                batches.setdefault(self.ignored_batch.get((x, y), 0), []).append((x, y, tile))
        return [batches[k] for k in sorted(batches)]

    def disputed(self, seen: Sequence[Placed]) -> dict[Cell, tuple[Tile, Tile]]:
        """The camera's readings (``seen``) of confirmed tiles as another, each with the
        game's tile, less those players already overruled: what "the table is right"
        relabels. A waiting move's tiles are the camera's own reading, which players fix on
        the move itself; tiles set aside are in no game, whatever they are."""
        return {(x, y): (read, was) for x, y, read in seen
                if (was := self.table.board.get((x, y))) is not None and was != read
                and self.overruled.get((x, y)) != read}

    def unseen(self, seen: Sequence[Placed]) -> list[Placed]:
        """The tiles the game holds (confirmed or waiting) that the camera does not see
        (``seen``), less those players said lie there all the same: what "the table is
        right" takes out. Tiles set aside are in no game."""
        cells = {(x, y) for x, y, _ in seen}
        return [p for p in self.expected_board().placed() if (p[0], p[1]) not in cells
                and (p[0], p[1]) not in self.ignored and (p[0], p[1]) not in self.unseen_kept]

    def no_news(self) -> dict[Cell, Tile | None]:
        """The cells where the camera reading a tile otherwise tells players nothing (see
        :func:`webui.pending.reread`): the readings they overruled, and the tiles set aside."""
        return {**self.overruled, **dict.fromkeys(self.ignored)}


def camera_key(seen: Sequence[Placed], held: Board) -> str:
    """The camera's board and the game's (:meth:`Game.expected_board`), as "the table is
    right" shows them side by side: accepting names it, so a tap never applies a view that
    changed unseen."""
    return f"{tiles_key(seen)}|{tiles_key(held.placed())}"


class Event(StrEnum):
    """The kinds of events in a game's log: the score sheet's, then the tiles set aside."""

    PLAY = "play"
    REPLACE = "replace"
    VOID = "void"
    FINISH = "finish"
    PLAY_ON = "play_on"
    INSERT = "insert"
    START = "start"
    IGNORE = "ignore"
    RESTORE = "restore"
    KEEP = "keep"


SIDE_EVENTS = (Event.IGNORE, Event.RESTORE, Event.KEEP)
"""Logged events about the camera's view that do not touch the score sheet: tiles set aside
and taken back, and the camera's readings players overruled."""


def apply_side_event(game: Game, kind: Event, payload: dict[str, Any]) -> None:
    """Set tiles aside ("ignore": each with the camera's runner-up labels, none in events
    logged before those were kept), take them back ("restore"), or overrule the camera's
    readings of tiles ("keep": the readings, not the game's tiles, and the cells whose tile
    the camera does not see at all, "unseen") in a replayed game."""
    if kind == Event.IGNORE:
        batch = 1 + max(game.ignored_batch.values(), default=0)
        for (x, y, tile), alternatives in parse_readings(payload.get("tiles")):
            game.ignored[(x, y)] = tile
            game.ignored_alternatives[(x, y)] = alternatives
            game.ignored_batch[(x, y)] = batch
        return
    if kind == Event.KEEP:
        if "tiles" in payload or "unseen" not in payload:
            game.overruled.update(((x, y), tile)
                                  for x, y, tile in parse_tiles(payload.get("tiles")))
        game.unseen_kept.update(_cells(payload.get("unseen", [])))
        return
    for cell in _cells(payload.get("cells")):
        game.ignored.pop(cell, None)
        game.ignored_alternatives.pop(cell, None)
        game.ignored_batch.pop(cell, None)


def _cells(value: object) -> list[Cell]:
    """A logged list of [x, y] cells (an item of another form is left out)."""
    if not isinstance(value, list):
        raise PayloadError(_l("cells must be a list of [x, y] pairs of whole numbers"))
    return [(cell[0], cell[1]) for cell in value if isinstance(cell, list) and len(cell) == 2]


def _still_playing(game: Game) -> None:
    """Refuse (409) any change to an ended game but Play on: the tablets offer none on a
    finished score sheet, so one that comes is a stale or replayed request (a tablet not yet
    redrawn as another one ended the game)."""
    if game.table.ended:
        raise Conflict(_l("the game is over"), "game_over")


def _judged(game: Game, kind: Event, payload: dict[str, Any]) -> TableGame:
    """The game as one action would leave it (nothing logged); Conflict when the game refuses
    it (:func:`_still_playing`)."""
    if kind is not Event.PLAY_ON:
        _still_playing(game)
    try:
        return apply_event(game.table, kind, payload)
    except IllegalMove as error:
        raise Conflict(error.refusal) from None


def apply_event(table: TableGame, kind: Event, payload: dict[str, Any]) -> TableGame:
    """One logged event applied to a game; raises PayloadError or IllegalMove."""
    if kind == Event.PLAY:
        return table.play(parse_turn(payload.get("turn")))
    if kind == Event.REPLACE:
        return table.replace(_index(table, payload.get("index")), parse_turn(payload.get("turn")))
    if kind == Event.VOID:
        return table.void(_index(table, payload.get("index")))
    if kind == Event.INSERT:  # a Redo: a voided turn put back where it was
        index = payload.get("index")
        if index != len(table.turns):
            index = _index(table, index)
        return table.insert(index, parse_turn(payload.get("turn")))
    if kind == Event.FINISH:
        went_out = payload.get("went_out")
        if went_out is not None and (not is_whole(went_out)
                                     or not 0 <= went_out < len(table.scores)):
            raise PayloadError(_l("went_out must be a seat number or null"))
        return table.finish(went_out)
    if kind == Event.PLAY_ON:
        return table.play_on()
    if kind == Event.START:  # the board game's start, laid out before turn 1
        try:
            return table.with_start(parse_tiles(payload.get("tiles"), table.colours))
        except IllegalMove:
            raise
        except ValueError as error:  # no start at all
            raise PayloadError(str(error)) from None
    raise PayloadError(_l("unknown action %(kind)s", kind=kind))


def _played(turn: Turn) -> Turn:
    """``turn`` with a placement's tiles in cell order: two turns that lay the same tiles
    are the same turn, in whatever order each lists them."""
    return Place(tuple(sorted(turn.tiles))) if isinstance(turn, Place) else turn


def _index(table: TableGame, index: object) -> int:
    if not is_whole(index) or not 0 <= index < len(table.turns):
        raise PayloadError(_l("no turn number %(index)s", index=index))
    return index


def _readings_beside(old: PendingMove, tiles: Sequence[Placed]) -> tuple[tuple[Tile, ...], ...]:
    """Each tile's likely readings once the move is fixed: the tile its cell held until now,
    then that tile's likely readings (the camera's reading and runners-up among them), less
    the tile it now holds. A wrong tap in the fix dialog is undone with one more, and the
    camera's reading is never lost."""
    read = {(x, y): (tile, *alts)
            for (x, y, tile), alts in zip(old.tiles, old.tile_alternatives(), strict=True)}
    return tuple(tuple(dict.fromkeys(t for t in read.get((x, y), ()) if t != tile))
                 for x, y, tile in tiles)


AT_TABLE = "game_at_table"
"""The settings key of the game at the table, kept across restarts."""


class Games:
    """All games of one server; thread-safe (waitress serves requests from many threads)."""

    def __init__(self, event_log: EventLog, default_colours: Sequence[str] = COLOURS) -> None:
        self.log = event_log
        self.default_colours = tuple(default_colours)
        self._lock = threading.RLock()
        self.notifier = Notifier(self._lock)
        self._games: dict[int, Game] = {}
        self._current: int | None = self._at_table()
        self.camera: dict[str, Any] = {"state": "off", "message": ""}
        # Told the current game whenever it changes (the live tracker); answers the tiles it
        # sees that the game holds nowhere, each group to be offered again as a move.
        self.on_board: Callable[[Game], list[Offer]] | None = None
        # Asked to read the table afresh ("the table is right" needs a current picture).
        self.on_rescan: Callable[[], None] | None = None
        # The set each new game's learning starts from: one learned on the set-up page (kept
        # across restarts) or ``serve --set`` (for this run); None for the standard set.
        self.profile: SetProfile | None = self._stored_profile()
        # What the camera saw at its last still position: tiles on the board, tiles off it.
        self.view: tuple[tuple[Placed, ...], tuple[Placed, ...]] | None = None

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
        """The game at the table: the newest one, or the one resumed or played on since."""
        return self._current

    def _at_table(self) -> int | None:
        """The game at the table when the server stopped, if it still reads back, else the
        newest that does (only it is replayed now, not the whole archive). A restart in the
        middle of a resumed game left the table on a newer, empty one, where the demo, or a
        camera over the resumed game's tiles, started a game of its own."""
        kept = self.log.setting(AT_TABLE)
        if kept is not None and kept.isdecimal() and self._readable(int(kept)):
            return int(kept)
        return next((row.id for row in self.log.games() if self._readable(row.id)), None)

    def _seat(self, game_id: int) -> None:
        """Make ``game_id`` the game at the table, for this run and the next."""
        self._current = game_id
        self.log.set_setting(AT_TABLE, str(game_id))

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
                kind = Event(event.kind)
                if kind in SIDE_EVENTS:
                    apply_side_event(game, kind, event.payload)
                else:
                    game.record(apply_event(game.table, kind, event.payload), kind,
                                event.payload, event.seq)
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
            return f"{self.get(game_id).seq}.{self.notifier.revision}"

    def wait(self, game_id: int, seen: str | None, timeout: float) -> str:
        """Block until the version differs from ``seen`` or the timeout passes."""
        self.notifier.wait_for(lambda: self.version(game_id) != seen, timeout)
        return self.version(game_id)

    def _touch(self) -> None:
        self.notifier.touch()

    # --- changing ------------------------------------------------------------------------
    def create(self, players: Sequence[str], colours: Sequence[str],
               replaces: int | None = UNSAID) -> Game:
        """A new game, at the table from now on. ``replaces``: the game the set-up page saw
        at the table (None: none); refused (409) when another device has started one since.
        Two tablets pressing "Start the game" a moment apart both made a game: one group's
        game left the table unseen, and a turn entered on its tablet vanished from view."""
        try:
            table = TableGame.new(tuple(players), colours=tuple(colours))
        except ValueError as error:  # TileError is a ValueError too
            raise PayloadError(str(error)) from None
        with self._lock:
            if replaces != UNSAID and replaces != self._current:
                raise Conflict(_l("A game was started at this table since this page was "
                                  "opened. Open the tablet view to play it, or start yours "
                                  "again to take the table."), "table_changed")
            row = self.log.create_game(table.players, table.colours)
            if self.profile is not None:  # the game keeps the set it started with
                self.save_adapter(row.id, self.profile.adapter)
            game = self._games[row.id] = Game(row, table)
            self._seat(row.id)
            self._queue_changed(game)
            self._touch()
            return game

    def resume(self, game_id: int) -> Game:
        """Bring an older, unfinished game back to the table: the camera and the views follow it."""
        with self._lock:
            game = self.get(game_id)
            _still_playing(game)
            self._seat(game_id)
            self._queue_changed(game)
            self._touch()
            return game

    def play_on(self, game_id: int) -> Game:
        """A game ended by mistake goes on, at the table again: the camera and the views
        follow it, as after :meth:`resume`."""
        with self._lock:
            if not self.get(game_id).table.ended:
                raise Conflict(_l("the game is not over"), "game_not_over")
            self._seat(game_id)
            return self.act(game_id, Event.PLAY_ON, {})

    def act(self, game_id: int, kind: Event, payload: dict[str, Any]) -> Game:
        """Apply, log, then publish one confirmed action (judged by :func:`_judged`: a
        second tablet's End game naming another player who went out would silently change
        who won)."""
        with self._lock:
            game = self.get(game_id)
            table = _judged(game, kind, payload)
            game.record(table, kind, payload, self.log.append(game_id, kind, payload))
            self._queue_changed(game, laid_since=kind is Event.PLAY_ON)
            self._touch()
            return game

    def take_back(self, game_id: int, index: int | None = None,
                  seen: int | None = None, turn_id: int | None = None) -> Game:
        """Take back turn ``index`` (None: the last one, for Undo). ``seen``: how many turns
        the player saw when asked; checked under the lock, so that two tablets answering Yes
        to "Undo turn 4?" or "Remove turn 3?" take back one turn, and never a turn confirmed
        while the question was open (None: no check, for callers that ask nothing).
        ``turn_id``, where given, is the id of the turn asked about (:attr:`Game.turn_ids`):
        the count alone passed when another device removed a turn and added one meanwhile,
        and a like exchange or pass had taken the place of the one asked about."""
        with self._lock:
            game = self.get(game_id)
            turns = len(game.table.turns)
            if index is None and not turns:
                raise Conflict(_l("There is no turn to undo."), "no_turn_to_undo")
            self._unchanged(turns, seen)
            index = turns - 1 if index is None else index
            if turn_id is not None and (not 0 <= index < turns
                                        or game.turn_ids[index] != turn_id):
                raise Conflict(_l("Turn %(n)s is no longer the turn you asked about: another "
                                  "device removed it, or a turn before it. Look at the turns "
                                  "again.", n=index + 1), "turn_changed")
            return self.act(game_id, Event.VOID, {"index": index})

    def edit(self, game_id: int, index: int, turn_body: object, seen: int | None = None,
             was: object = None, was_id: int | None = None) -> Game:
        """Put ``turn_body`` (a turn as sent) in place of turn ``index``. ``seen`` as for
        :meth:`take_back`: an edit dialog left open while another tablet removed an earlier
        turn would otherwise rewrite the turn that moved into its place.

        ``was``, turn ``index`` as sent when the edit began, stands in for ``seen``: the
        edit is refused only when that turn is no longer there as it was (see
        :meth:`_still_there`). Counting the turns refused the fixes of an old turn whenever
        a turn was confirmed meanwhile, as at a busy table one always is; and two tablets
        saving edits of one turn both passed, the later silently undoing the earlier.
        ``was_id``, where given, is that turn's id (:attr:`Game.turn_ids`), which tells it
        from a like exchange or pass moved into its place."""
        turn = self._sent_turn(game_id, turn_body)
        began = None if was is None else parse_turn(was, self.get(game_id).table.colours)
        still = None if began is None else partial(self._still_there, index=index, began=began,
                                                   began_id=was_id)
        with self._lock:
            game = self._act_as_seen(game_id, seen, Event.REPLACE,
                                     {"index": index, "turn": turn}, still)
            if self._overrule(game, parse_tiles(turn["tiles"]) if "tiles" in turn else ()):
                self._queue_changed(game)  # the camera learns the players' word
            return game

    def edit_start(self, game_id: int, tiles_json: object, seen: int | None = None,
                   was: object = None) -> Game:
        """Relabel tiles of the board game's start (:meth:`TableGame.with_start`): its
        tiles stay on their cells, as they lie on the printed board. ``seen`` and ``was``
        (the start's tiles as sent when the edit began) as for :meth:`edit`: counting the
        turns lost the start's fixes whenever a turn was confirmed meanwhile."""
        colours = self.get(game_id).table.colours
        tiles = parse_tiles(tiles_json, colours)
        began = None if was is None else parse_tiles(was, colours)
        with self._lock:
            start = self.get(game_id).table.start
            if not start:
                raise Conflict(_l("this game has no board game's start"), "no_start")
            if sorted((x, y) for x, y, _ in tiles) != sorted(start):
                raise Conflict(_l("the start's tiles stay where they lie: fix only their "
                                  "colour or shape"), "start_cells")
            still = None if began is None else partial(self._start_still_there, began=began)
            game = self._act_as_seen(game_id, seen, Event.START,
                                     {"tiles": placed_json(tiles)}, still)
            if self._overrule(game, tiles):
                self._queue_changed(game)  # the camera learns the players' word
            return game

    def try_edit(self, game_id: int, index: int, turn_body: object) -> TurnRecord:
        """Turn ``index`` as it would stand with ``turn_body`` in its place, nothing saved;
        Conflict when the game refuses it. The edit dialog says this after each fix: it went
        on showing the turn as saved ("Now: 3 tiles for 3 points") above a Save that the
        server then refused, which closed the dialog and lost the fixes."""
        turn = self._sent_turn(game_id, turn_body)
        with self._lock:
            table = _judged(self.get(game_id), Event.REPLACE, {"index": index, "turn": turn})
            return table.turns[index]

    def redo(self, game_id: int, index: int, turn_body: object, seen: int | None = None,
             turn_id: int | None = None) -> Game:
        """Put ``turn_body`` (a turn as sent) back at ``index``, with ``turn_id``, the id it
        had, where given (see :meth:`Game.record`). ``seen`` as for :meth:`take_back`, the
        turns the tablet saw once it had taken the turn away: a Redo after another device
        changed them would put back a turn that may have been entered again meanwhile."""
        payload = {"index": index, "turn": self._sent_turn(game_id, turn_body)}
        if turn_id is not None:
            payload["id"] = turn_id
        return self._act_as_seen(game_id, seen, Event.INSERT, payload)

    def _sent_turn(self, game_id: int, turn_body: object) -> dict[str, Any]:
        """A turn sent for this game, as the log keeps it; PayloadError when it is malformed
        or holds a tile of a colour the game's set does not have."""
        return turn_json(parse_turn(turn_body, self.get(game_id).table.colours))

    def _act_as_seen(self, game_id: int, seen: int | None, kind: Event,
                     payload: dict[str, Any],
                     still: Callable[[Game], None] | None = None) -> Game:
        """:meth:`act`, unless the game no longer holds the ``seen`` turns the player looked
        at (:meth:`_unchanged`), checked under the same lock as the change. ``still``, where
        given (an edit that says what it began from), stands in for that count: it refuses
        (409) unless what the edit began from is still there, whatever else changed."""
        with self._lock:
            game = self.get(game_id)
            if still is None:
                self._unchanged(len(game.table.turns), seen)
            else:
                still(game)
            return self.act(game_id, kind, payload)

    @staticmethod
    def _still_there(game: Game, index: int, began: Turn, began_id: int | None) -> None:
        """Refuse (409) unless turn ``index`` is still the turn ``began`` (a placement's
        tiles in any order) and, where given, the turn of id ``began_id``: another device
        edited or removed it, or removed a turn before it, moving another turn into its
        place. Without the id, a turn that is its like in every way (an exchange of as many
        tiles, or a pass) then stands for it: only the id tells them apart. Turns added or
        taken back after it change nothing of it."""
        turns = game.table.turns
        if (not 0 <= index < len(turns) or _played(turns[index].turn) != _played(began)
                or began_id not in (None, game.turn_ids[index])):
            raise Conflict(_l("Turn %(n)s is no longer as it was when the edit began: another "
                              "device changed or removed it, or a turn before it. Look at it "
                              "again.", n=index + 1), "turn_changed")

    @staticmethod
    def _start_still_there(game: Game, began: Sequence[Placed]) -> None:
        """Refuse (409) unless the board game's start is still ``began`` (in any order)."""
        if sorted(began) != sorted(game.table.start.placed()):
            raise Conflict(_l("The board game's start is no longer as it was when the edit "
                              "began: another device changed it. Look at it again."),
                           "start_changed")

    @staticmethod
    def _unchanged(turns: int, seen: int | None) -> None:
        """Refuse (409) when the player saw ``seen`` turns and the game now holds ``turns``."""
        if seen is not None and seen != turns:
            raise Conflict(_l("The turns changed since you asked: look at them again."),
                           "turns_changed")

    def _queue_changed(self, game: Game, laid_since: bool = False) -> None:
        """Tell the tracker the game as it now stands, offer again (first) the tiles it still
        sees that the game lost, and re-judge the move now shown against the game. Waiting
        tiles on cells the game now holds (a Redo) leave the queue, and tiles set aside there
        are aside no longer: a turn removed, its tiles then called "not a move" and the turn
        put back with Redo, was listed as set aside, "not part of the game", beside its own
        score. ``laid_since``: the tiles the game does not hold were laid after the moves
        waiting (while a game stood ended by mistake), so they are offered after them."""
        taken = {(x, y) for x, y, _ in game.waiting_tiles() if (x, y) in game.table.board}
        if taken:  # a Redo or an edit put them in the game: they wait no longer
            game.queue = without(game.queue, taken, game.table)
        held = sorted(cell for cell in game.ignored if cell in game.table.board)
        if held:  # nor are they set aside (logged, so a restart does not set them aside again)
            self._log_side(game, Event.RESTORE, {"cells": [list(cell) for cell in held]})
        if self.on_board is not None and game.row.id == self.current_id():
            again = self.on_board(game)
            if not game.table.ended:
                at = len(game.queue) if laid_since else 0
                game.queue[at:at] = [offered(game.table, tiles, split=split)
                                     for tiles, split in again]
        if game.queue:
            game.queue[0] = reread(game.table, game.queue[0], game.no_news())

    def _set_aside(self, game: Game, move: PendingMove, tiles: Sequence[Placed]) -> list[Placed]:
        """Set aside (logged) those of ``tiles``, taken out of ``move``, that the camera saw
        and the game does not hold; a move entered by hand never lay on the camera's table,
        nor did a tile added by hand where the camera's last picture shows none (a wrong
        tap, removed again). Each keeps the runner-up labels it has in ``move``. Answers the
        tiles set aside."""
        seen = None if self.view is None else {(x, y) for x, y, _ in self.view[0]}
        aside = [t for t in tiles if move.detected and (t[0], t[1]) not in game.table.board
                 and (seen is None or (t[0], t[1]) in seen)]
        if aside:
            likely = dict(zip(move.tiles, move.tile_alternatives(), strict=True))
            self._log_side(game, Event.IGNORE, {"tiles": [
                reading_json(x, y, tile, likely[(x, y, tile)]) for x, y, tile in aside]})
        return aside

    def _overrule(self, game: Game, tiles: Sequence[Placed],
                  cells: Sequence[Cell] | None = None) -> bool:
        """Players said what ``tiles`` are (a fix, an edit): where the camera's last look
        reads another tile, that reading is overruled (logged), so the card "the camera
        and the game disagree" does not ask them to undo their own fix, nor a later move's
        note tell them the tile "now reads" as the camera read it. Each such reading of
        ``cells`` too, when given ("Keep the game's tiles"), and each of those cells whose
        tile the camera does not see at all. Answers whether any was."""
        if self.view is None or game.row.id != self.current_id():
            return False
        said = {(x, y): tile for x, y, tile in tiles}
        read = [(x, y, tile) for x, y, tile in self.view[0]
                if (said.get((x, y), tile) != tile or (x, y) in (cells or ()))
                and game.overruled.get((x, y)) != tile]
        unseen = [[x, y] for x, y, _ in game.unseen(self.view[0]) if (x, y) in (cells or ())]
        if read or unseen:
            self._log_side(game, Event.KEEP, {**({"tiles": placed_json(read)} if read else {}),
                                              **({"unseen": unseen} if unseen else {})})
        return bool(read or unseen)

    def keep_game(self, game_id: int, cells: Sequence[Cell] | None,
                  shown: str | None = None) -> Game:
        """"Keep the game's tiles": the camera misreads these tiles, or misses them; the
        game's tiles stay and the camera's readings of them are overruled. ``cells`` and
        ``shown`` as for :meth:`accept_table`."""
        with self._lock:
            game, seen, _ = self._camera_and_game(game_id, shown)
            doubted = [*game.disputed(seen), *((x, y) for x, y, _ in game.unseen(seen))]
            chosen = [cell for cell in doubted if cells is None or cell in cells]
            if not chosen:
                raise Conflict(_l("The camera reads no tile differently there."),
                               "nothing_disputed")
            self._overrule(game, (), chosen)
            self._queue_changed(game)
            self._touch()
            return game

    def _camera_and_game(self, game_id: int, shown: str | None
                         ) -> tuple[Game, tuple[Placed, ...], Board]:
        """The game, what the camera saw and what the game holds, for a tap on the card
        that shows them side by side; Conflict when the game is over, the camera has not
        looked, or (``shown``, a :func:`camera_key`) either changed since the card was
        drawn."""
        game = self.get(game_id)
        _still_playing(game)
        if self.view is None or game_id != self.current_id():
            raise Conflict(_l("the camera has not seen the table yet"), "camera_not_ready")
        held = game.expected_board()
        if shown is not None and shown != camera_key(self.view[0], held):
            raise Conflict(_l("What the camera sees, or the game, changed before the "
                              "tap: look at them again."), "view_changed")
        return game, self.view[0], held

    def _log_side(self, game: Game, kind: Event, payload: dict[str, Any]) -> None:
        apply_side_event(game, kind, payload)
        game.seq = self.log.append(game.row.id, kind, payload)

    def set_camera(self, state: str, problem: SourceError | str | None = None,
                   size: tuple[int, int] | None = None) -> None:
        """The camera's state, and why it was lost: a source's problem (with its code, for
        the pages to word it) or, for a fault in this program, a message. ``size``, the
        width and height of its pictures, and whether they are too small to read well, for
        the set-up page (a webcam left at 640 x 480 is the commonest such case)."""
        camera: dict[str, Any] = {"state": state, "message": redact_url(str(problem or ""))}
        if isinstance(problem, SourceError):  # every page and /api/camera show it: no passwords
            camera.update(code=problem.problem.value, target=redact_url(problem.target),
                          seconds=problem.seconds)
        if size is not None:
            camera.update(size=list(size), small=max(size) < SMALL_PICTURE)
        with self._lock:
            if self.camera != camera:
                self.camera = camera
                self._touch()

    # --- the set: a profile, and what each game learned from play -----------------------------
    def _stored_profile(self) -> SetProfile | None:
        stored = self.log.setting(PROFILE_SETTING)
        if stored is None:
            return None
        try:
            return profile_from_json(json.loads(stored), "the table's set profile")
        except (ValueError, ProfileError) as error:  # damaged: the standard set, no game lost
            logger.warning("set profile not read back: %s", error)
            return None

    def learn_set(self, profile: SetProfile | None) -> None:
        """Keep (or, with None, forget) the set profile that new games start from."""
        self.profile = profile
        self.log.set_setting(PROFILE_SETTING,
                             json.dumps(profile.to_json()) if profile is not None else None)
        with self._lock:
            self._touch()

    def adapter(self, game_id: int) -> SetAdapter:
        """What the camera learned of this game's set from its confirmed tiles, kept with
        the game; a game starts from the set profile's (kept with it), or from nothing."""
        stored = self.log.setting(f"set-adapter:{game_id}")
        if stored is not None:
            try:
                return SetAdapter.from_json(json.loads(stored))
            except ValueError as error:  # a damaged entry: learn again, lose no game
                logger.warning("game %s: set adapter not read back: %s", game_id, error)
        base = self.profile
        return SetAdapter.from_json(base.adapter.to_json()) if base is not None else SetAdapter()

    def save_adapter(self, game_id: int, adapter: SetAdapter) -> None:
        self.log.set_setting(f"set-adapter:{game_id}", json.dumps(adapter.to_json()))

    # --- moves waiting for confirmation ------------------------------------------------------
    def _live_game(self) -> Game | None:
        """The game the camera feeds: the current one, unless it has ended."""
        game_id = self.current_id()
        if game_id is None or self.get(game_id).table.ended:
            return None
        return self.get(game_id)

    def detected(self, tiles: Sequence[Placed], needs_confirmation: bool,
                 doubts: Sequence[Doubt], alternatives: Sequence[Sequence[Tile]],
                 split: tuple[int, int] | None = None, live: bool = True) -> None:
        """The camera saw a move: it joins the current game's moves waiting for confirmation,
        or, where it makes one legal move with the only one waiting, that move (a turn laid
        in two spells, :func:`laid_on`). Not from a recording (``live`` False): read as fast
        as it decodes, its turns come while the ones before still wait, and two that make
        one legal move would be joined. (The tracker already counts the move on the table,
        so it is not told again.) An ended game takes no more moves."""
        with self._lock:
            game = self._live_game()
            if game is None:
                return
            move = PendingMove(tuple(tiles), evaluate(game.table, tiles), needs_confirmation,
                               tuple(tuple(a) for a in alternatives), tuple(doubts),
                               split=split)
            alone = live and len(game.queue) == 1
            joined = laid_on(game.table, game.queue[0], move) if alone else None
            if joined is not None:
                game.queue[0] = joined
            else:
                game.queue.append(move)
            self._touch()

    def withdrawn(self, cells: Sequence[Cell], entered_too: bool = False) -> None:
        """The camera saw tiles of unconfirmed moves (or set aside) taken off the table: they
        leave those moves, and a move left with no tile goes. A move entered by hand was never
        on the camera's table, so its tiles stay, unless ``entered_too`` ("the table is
        right")."""
        gone = set(cells)
        with self._lock:
            game = self._live_game()
            if game is None:
                return
            queue = without(game.queue, gone, game.table, entered_too)
            aside = [list(cell) for cell in sorted(gone & set(game.ignored))]
            if aside:
                self._log_side(game, Event.RESTORE, {"cells": aside})
            game.queue = queue
            self._queue_changed(game)
            self._touch()

    def set_view(self, tiles: Sequence[Placed], off_board: Sequence[Placed]) -> None:
        """What the camera saw at its last still position (for "the table is right")."""
        view = (tuple(tiles), tuple(off_board))
        with self._lock:
            if view != self.view:
                self.view = view
                self._touch()

    def fix_pending(self, game_id: int, tiles_json: object, shown: str | None = None) -> Game:
        """Replace the shown move's tiles with corrected ones (a tile relabelled, a phantom
        removed, a missed one added). With no move waiting, this enters one by hand.
        ``shown``: the move the fix was made on (see :meth:`_shown`); "" for a move entered
        by hand, refused when a move came in meanwhile.

        A tile removed from a move the camera saw is set aside, as "Not a move" sets a whole
        move aside: the camera still sees something there, and offering it straight back
        would contradict the players; taken back (:meth:`restore`) while the move is shown,
        it rejoins it."""
        tiles = parse_tiles(tiles_json, self.get(game_id).table.colours)
        with self._lock:
            game = self.get(game_id)
            _still_playing(game)
            old = game.pending
            if shown == "":  # entered by hand where the tablet showed no move waiting
                if old is not None:
                    raise Conflict(_l("a move came in meanwhile: look at it first"),
                                   "pending_changed")
            elif shown is not None:
                self._shown(game_id, shown)
            check_reach(game.table.board, tiles)
            held = [(x, y, on) for x, y, _ in tiles if (on := game.table.board.get((x, y)))]
            if held:  # kept, it would leave the move, and the rest of it be set aside
                x, y, on = held[0]
                raise Conflict(Refusal(Illegal.CELL_OCCUPIED, cells=((x, y),), tiles=(on,)))
            back = sorted({(x, y) for x, y, _ in tiles} & set(game.ignored))
            if back:  # a tile set aside, put back in the move by hand: no longer aside
                self._log_side(game, Event.RESTORE, {"cells": [list(cell) for cell in back]})
            if old is None:
                game.queue.append(PendingMove(tiles, evaluate(game.table, tiles), True,
                                              detected=False))
            else:
                kept = {(x, y) for x, y, _ in tiles}
                aside = self._set_aside(game, old, [t for t in old.tiles
                                                    if (t[0], t[1]) not in kept])
                alternatives = _readings_beside(old, tiles)
                game.queue[0] = dataclasses.replace(old, tiles=tiles, needs_confirmation=True,
                                                    alternatives=alternatives, fixed=True,
                                                    removed=(*(t for t in old.removed
                                                               if (t[0], t[1]) not in kept),
                                                             *aside))
            self._overrule(game, tiles)
            self._queue_changed(game)
            self._touch()
            return game

    def _shown(self, game_id: int, shown: str | None = None) -> tuple[Game, PendingMove]:
        """The game and the move its tablets show; Conflict when none waits, or when it is
        not the move ``shown`` (its :attr:`PendingMove.key`) that the tap was meant for."""
        game = self.get(game_id)
        if not game.queue:
            raise Conflict(_l("there is no move waiting for confirmation"), "no_pending_move")
        if shown is not None and shown != game.queue[0].key:
            raise Conflict(_l("the move shown changed before the tap: look at it again"),
                           "pending_changed")
        return game, game.queue[0]

    def dismiss(self, game_id: int, shown: str | None = None) -> Game:
        """"Not a move": drop the shown move; the next one waiting (if any) is shown.

        A move the camera saw has its tiles set aside: they lie on the table but are not
        part of the game, so later moves are read without them (and the tablet can take
        them back, :meth:`restore`)."""
        with self._lock:
            game, head = self._shown(game_id, shown)
            _still_playing(game)
            game.queue.pop(0)
            self._set_aside(game, head, head.tiles)
            self._queue_changed(game)
            self._touch()
            return game

    def swap_pending(self, game_id: int, shown: str | None = None) -> Game:
        """The move shown and the next part of the same camera reading change places.

        Moves made while the camera was away come as one picture; when both orders are
        legal, nothing shows whose turn came first, and the tablet offers this instead of
        setting one aside and taking it back."""
        with self._lock:
            game, head = self._shown(game_id, shown)
            _still_playing(game)
            after = game.queue[1] if len(game.queue) > 1 else None
            if (after is None or head.split is None or after.split is None
                    or after.split != (head.split[0] + 1, head.split[1])):
                raise Conflict(_l("only two parts of one camera reading can change places"),
                               "not_split")
            game.queue[:2] = [as_part(after, head.split), as_part(head, after.split)]
            self._queue_changed(game)
            self._touch()
            return game

    def part_pending(self, game_id: int, shown: str | None = None) -> Game:
        """"Two turns": the move shown, which tiles laid after a pause joined, as the two
        moves the camera saw (:func:`parted`): the next player laid the later tiles before
        anyone confirmed the first."""
        with self._lock:
            game, head = self._shown(game_id, shown)
            _still_playing(game)
            parts = parted(game.table, head)
            if len(parts) < 2:
                raise Conflict(_l("only a move laid in two spells can be parted"),
                               "not_two_spells")
            game.queue[:1] = parts
            self._queue_changed(game)
            self._touch()
            return game

    def join_pending(self, game_id: int, shown: str | None = None) -> Game:
        """"One turn": the move shown and the next one waiting as one move of one player
        (:func:`one_turn`), where together they make one legal move."""
        with self._lock:
            game, head = self._shown(game_id, shown)
            _still_playing(game)
            joined = one_turn(game.table, head, game.queue[1]) if len(game.queue) > 1 else None
            if joined is None:
                raise Conflict(_l("the move shown and the next do not make one legal move"),
                               "not_one_turn")
            game.queue[:2] = [joined]
            self._queue_changed(game)
            self._touch()
            return game

    def restore(self, game_id: int, cells: Sequence[Cell] | None) -> Game:
        """Take tiles set aside by "Not a move" back into the game: they are offered as a
        move (or as the turns they were), ahead of the others; those removed from the move
        shown return to it (:func:`rejoined`). ``cells`` None takes them all."""
        with self._lock:
            game = self.get(game_id)
            _still_playing(game)
            batches = game.set_aside_batches(cells)
            if not batches:
                raise Conflict(_l("no such tiles were set aside"), "nothing_set_aside")
            batches, alternatives = self._read_since(game, batches)
            front = rejoined(game.table, batches, game.pending, alternatives)
            chosen = sorted(t for batch in batches for t in batch)
            self._log_side(game, Event.RESTORE, {"cells": [[x, y] for x, y, _ in chosen]})
            game.queue[:1] = front
            self._queue_changed(game)
            self._touch()
            return game

    def _read_since(self, game: Game, batches: list[list[Placed]]
                    ) -> tuple[list[list[Placed]], dict[Cell, tuple[Tile, ...]]]:
        """Tiles set aside as the camera reads them now, where it clearly reads another tile
        than the one set aside (its last position, :attr:`view`), and each tile's runner-up
        labels, the one set aside first where it changed. A tile keeps the label it was set
        aside with, and the camera, reading it again picture after picture, may since have
        read it right: a move misread (two circles as diamonds) and called "not a move"
        instead of fixed came back misread when taken back."""
        alternatives = dict(game.ignored_alternatives)
        if self.view is None or game.row.id != self.current_id():
            return batches, alternatives
        seen = {(x, y): tile for x, y, tile in self.view[0]}
        now: list[list[Placed]] = []
        for batch in batches:
            now.append([])
            for x, y, tile in batch:
                read = seen.get((x, y), tile)
                now[-1].append((x, y, read))
                if read != tile:
                    alternatives[(x, y)] = (tile, *(t for t in alternatives.get((x, y), ())
                                                    if t not in (tile, read)))
        return now, alternatives

    def rescan(self) -> None:
        """Ask the camera for a fresh reading of the table."""
        if self.on_rescan is not None:
            self.on_rescan()

    def accept_table(self, game_id: int, cells: Sequence[Cell] | None,
                     shown: str | None = None) -> Game:
        """"The table is right": the game takes the camera's board.

        Confirmed tiles the camera does not see leave their turns (a turn left empty is
        voided), but for those players said lie there all the same (:meth:`keep_game`),
        and those it reads as another tile take that label (:meth:`Game.disputed`), each
        change checked as an edit is; waiting tiles it does not see leave their moves
        (one it reads otherwise is fixed on the move itself); tiles set aside that are gone
        are forgotten. Tiles the camera sees that the game lacks are already offered as a move.
        ``cells`` limits this to those cells (a fix tile by tile); None takes the camera's
        whole board. ``shown`` is the :func:`camera_key` of the boards the player
        looked at: refused (409) when the camera or the game has changed since.
        """
        with self._lock:
            game, view, held = self._camera_and_game(game_id, shown)
            seen = {(x, y) for x, y, _ in view}
            chosen = [cell for cell in held if cells is None or cell in cells]
            gone = {cell for cell in chosen if cell not in seen and cell not in game.unseen_kept}
            relabel = {cell: read for cell, (read, _) in game.disputed(view).items()
                       if cell in chosen}
            for kind, payload in self._corrections(game.table, gone, relabel):
                self.act(game_id, kind, payload)
            self.withdrawn(sorted(gone), entered_too=True)
            return game

    @staticmethod
    def _corrections(table: TableGame, gone: set[Cell], relabel: dict[Cell, Tile]
                     ) -> list[tuple[Event, dict[str, Any]]]:
        """The edits that take ``gone`` cells out of the confirmed turns and give
        ``relabel`` cells their new tiles, last turn first so that voiding one leaves the
        earlier turns' numbers as they are, then the board game's start relabelled, and its
        ``gone`` tiles taken out where the rest is still the same start (short of a tile or
        two, :func:`engine.boardgame.start_diagonals`; else they stay). Checked here as a whole,
        so a refused one records none of them."""
        actions: list[tuple[Event, dict[str, Any]]] = []
        touched = gone | set(relabel)
        for record in reversed(table.turns):
            turn = record.turn
            if not isinstance(turn, Place) or not any((x, y) in touched
                                                      for x, y, _ in turn.tiles):
                continue
            keep = tuple((x, y, relabel.get((x, y), tile)) for x, y, tile in turn.tiles
                         if (x, y) not in gone)
            kind, payload = ((Event.REPLACE, {"index": record.index,
                                          "turn": turn_json(Place(keep))}) if keep
                             else (Event.VOID, {"index": record.index}))
            try:
                table = apply_event(table, kind, payload)
            except IllegalMove as error:
                # the camera's board would leave a turn illegal: a tile it misses that the
                # turn needs (a helper's play-through said only why, under the button)
                raise Conflict(error.refusal, hint=_l(
                    "Fix that turn with its Edit button, or keep the game's tiles.")) from None
            actions.append((kind, payload))
        start = table.start.placed()
        relabelled = [(x, y, relabel.get((x, y), tile)) for x, y, tile in start]
        kept = [p for p in relabelled if p[:2] not in gone]
        if start_diagonals((x, y) for x, y, _ in kept) != start_diagonals(table.start):
            kept = relabelled  # it would be no start, or another (a diagonal gone): they stay
        if sorted(kept) != sorted(start):
            tiles: dict[str, Any] = {"tiles": placed_json(kept)}
            try:
                apply_event(table, Event.START, tiles)
            except IllegalMove as error:
                raise Conflict(error.refusal) from None
            actions.append((Event.START, tiles))
        return actions

    def confirm(self, game_id: int, shown: str | None = None) -> Game:
        """Record the shown move as the current player's turn, or as the board game's start
        (:func:`webui.pending.is_start`), which is no one's turn."""
        with self._lock:
            game, head = self._shown(game_id, shown)
            if head.verdict.refusal is not None:
                raise Conflict(head.verdict.refusal)
            game.queue.pop(0)
            kind, payload = ((Event.START, {"tiles": placed_json(whole_start(game.table,
                                                                           head.tiles))})
                             if is_start(game.table, head.tiles)
                             else (Event.PLAY, {"turn": turn_json(Place(head.tiles))}))
            try:
                return self.act(game_id, kind, payload)
            except Exception:
                game.queue.insert(0, head)
                raise

    def play(self, game_id: int, turn_body: object, seen: int | None = None) -> Game:
        """A turn entered directly (exchange, pass, or a placement from another program).
        ``seen`` as for :meth:`take_back`, the turns the tablet showed: two tablets entering
        one player's exchange at once recorded it twice, the second as the next player's."""
        return self._act_as_seen(game_id, seen, Event.PLAY,
                                 {"turn": self._sent_turn(game_id, turn_body)})


def init_app(app: Flask, event_log: EventLog) -> None:
    """Give the app its games, read back from ``event_log`` (as the Flask tutorial's
    ``db.init_app`` gives it a database)."""
    app.extensions["qwirkle_games"] = Games(event_log, app.config["COLOURS"])


def games() -> Games:
    """The games of the app handling this request."""
    store: Games = current_app.extensions["qwirkle_games"]
    return store
