"""The live loop: frames from a source go through the move tracker; detected moves become the
current game's pending move.

It runs in its own thread so a slow frame never delays a tablet's request. A camera that
vanishes (unplugged, Wi-Fi camera gone) is shown as lost on every page and reopened every few
seconds; the games themselves are untouched, so nothing recorded is lost and the pending move
stays on the tablets.

A source that ends (a video file, the demo recording) is not read again: the camera shows
"ended". The demo alone may play again, but only when no game is in progress (``may_open``),
so it never opens a game over the players' game. A video file waits for a game in play
before it is read at all (``may_open`` again, the camera "ready").
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import cv2
import numpy as np

from engine.board import Board, Cell, Placed
from engine.tiles import Tile
from vision.adapt import SetAdapter
from vision.source import SourceError

from .games import Game, Games
from .pending import Offer

log = logging.getLogger(__name__)

MAX_RETRY_S = 8.0
"""The longest wait between attempts to reopen a failing camera: a phone on the Wi-Fi that
stalled for 40 s came back 25 s after its frames did while this was 30 (session 39)."""


class Tracker(Protocol):
    """What the loop needs of vision.tracker.MoveTracker (tests pass small fakes)."""

    def feed(self, frame: Any) -> list[Any]: ...
    def accept(self, board: Board, pending: Iterable[Placed] = (),
               ignored: Iterable[Placed] = (),
               overruled: Mapping[Cell, Tile] | None = None,
               start: Iterable[Placed] | None = None) -> list[Any]: ...
    def rescan(self) -> None: ...
    def reset(self) -> None: ...
    def view(self) -> Any: ...
    adapter: SetAdapter | None
    def last_overlay(self) -> np.ndarray | None: ...


class LiveLoop:
    """Owns the source and the tracker; request threads only call accept() and jpeg()."""

    def __init__(self, games: Games, open_source: Callable[[], Iterable[Any]],
                 make_tracker: Callable[[Sequence[str]], Tracker],
                 retry_s: float = 3.0, preview_fps: float = 4.0, finite: bool = False,
                 may_open: Callable[[], bool] | None = None,
                 waiting: str | Callable[[], str] = "waiting", clears: bool = False) -> None:
        self.games = games
        self.open_source = open_source
        self.make_tracker = make_tracker
        self.finite = finite
        self.may_open = may_open
        self.waiting = waiting  # the camera's state while may_open says no (or what says it)
        # The source lays a new game out from an empty table (the demo plays its recording
        # again): the tiles it showed before are no tiles of the new game.
        self.clears = clears
        self.retry_s = retry_s
        self.preview_period = 1.0 / preview_fps
        self._colours: tuple[str, ...] = games.default_colours
        self._tracker = make_tracker(self._colours)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        # Set when players change the game: a source waiting for a game (``may_open``) looks
        # at once, rather than seconds after a new game began.
        self._wake = threading.Event()
        # Tiles of moves the tracker reported that the games have not been given yet: an
        # accept() in between must not take them for tiles the game lost.
        self._in_flight: list[Placed] = []
        self._game_id: int | None = None  # the game whose set the tracker's adapter learns
        self._view_shown: Any = None  # the tracker's view last given to the games
        self._picture: np.ndarray | None = None  # the latest frame as the camera took it
        self._jpeg: bytes | None = None
        self._jpeg_at = 0.0
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        current = self.games.current_id()
        if current is not None:
            self.accept(self.games.get(current))
        self._thread = threading.Thread(target=self._run, name="live-loop", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def accept(self, game: Game) -> list[Offer]:
        """The game as players left it: later moves are read against it. Answers the tiles
        the camera sees that the game holds nowhere, to be offered again (each group with its
        part of the turns they split into). A game with another set of colours gets a tracker
        for those."""
        colours = game.table.colours
        self._wake.set()
        with self._lock:
            if colours != self._colours:
                self._colours = colours
                self._tracker = self.make_tracker(colours)
                self._game_id = None
            if game.row.id != self._game_id:  # each game learns its own set
                self._game_id = game.row.id
                self._tracker.adapter = self.games.adapter(game.row.id)
                if self.clears and not game.table.turns:
                    # Else the demo's tiles so far were offered as the players' first move
                    # until its empty table came through the stillness gate.
                    self._tracker.reset()
            adapter = self._tracker.adapter
            learned = adapter.examples if adapter is not None else 0
            again = self._tracker.accept(game.table.board,
                                         game.waiting_tiles() + self._in_flight,
                                         game.set_aside(),
                                         game.overruled, game.table.start.placed())
            if adapter is not None and adapter.examples != learned:
                self.games.save_adapter(game.row.id, adapter)
        return [(move.tiles, move.split) for move in again]

    def rescan(self) -> None:
        """Read the next frame afresh, still or not ("the table is right")."""
        with self._lock:
            self._tracker.rescan()

    def picture(self) -> np.ndarray | None:
        """The camera's latest picture (to learn a set from); None before the first, and
        once the camera is lost until it sends another."""
        return self._picture

    def jpeg(self) -> bytes | None:
        """The latest preview frame as JPEG, or None before the first frame."""
        return self._jpeg

    def _run(self) -> None:
        delay, failing = self.retry_s, False
        while not self._stop.is_set():
            if self.may_open is not None and not self.may_open():
                # the demo or a recording, for a game
                self.games.set_camera(self.waiting if isinstance(self.waiting, str)
                                      else self.waiting())
                self._wake.wait(self.retry_s)
                self._wake.clear()
                continue
            if not failing:  # a camera that keeps failing stays lost while it is retried:
                self.games.set_camera("connecting")  # no flicker on every page
            try:
                source = self.open_source()
            except SourceError as error:
                self.games.set_camera("lost", error)
                worked = False
            else:
                worked, ended = self._watch(source)
                if ended and self.finite:
                    return  # a recording is read once
            # A camera that keeps failing is retried less and less often (up to
            # MAX_RETRY_S); one that worked a while is retried at once.
            delay = self.retry_s if worked else min(delay * 2, MAX_RETRY_S)
            failing = not worked
            self._stop.wait(delay)

    def _watch(self, source: Any) -> tuple[bool, bool]:
        """Run the source until it ends or fails: whether a frame went through the tracker,
        and whether the source came to its end (a recording does; a camera fails)."""
        worked = ended = False
        try:
            for frame in source:
                if self._stop.is_set():
                    break
                height, width = frame.image.shape[:2]
                self.games.set_camera("live", size=(width, height))
                self._step(frame)
                worked = True
            else:
                ended = True
                self.games.set_camera("ended")
        except SourceError as error:
            self._picture = None  # what lies on the table now is no longer known
            self.games.set_camera("lost", error)
        except Exception as error:  # a bug in one frame must not stop the table
            log.exception("live loop failed")
            self._picture = None
            self.games.set_camera("lost", f"{type(error).__name__}: {error}")
        finally:
            source.close()
        return worked, ended

    def _step(self, frame: Any) -> None:
        self._picture = frame.image
        with self._lock:
            moves = self._tracker.feed(frame)
            self._in_flight = [tile for move in moves for tile in move.tiles]
            view = self._tracker.view()
            overlay = None
            if time.monotonic() - self._jpeg_at >= self.preview_period:
                overlay = self._tracker.last_overlay()
        if overlay is not None:
            ok, data = cv2.imencode(".jpg", overlay, [cv2.IMWRITE_JPEG_QUALITY, 75])
            if ok:
                self._jpeg, self._jpeg_at = data.tobytes(), time.monotonic()
        for move in moves:
            if move.withdrawn:
                self.games.withdrawn(move.withdrawn)
            if not move.tiles:
                # The tracker's note about the table (a tile it missed elsewhere) with no new
                # tile: nothing for players to confirm.
                log.info("camera note: %s", move.reason)
                continue
            # The runner-up labels of each new tile, for the Fix menu (the tile's own label
            # is what it already shows).
            alternatives = [
                [alt for alt, _ in guess.alternatives if alt != tile]
                for (_, _, tile), guess in zip(move.tiles, move.guesses, strict=False)
            ]
            self.games.detected(move.tiles, move.needs_confirmation, move.doubts, alternatives,
                                move.split, live=not self.finite)
        if view is not self._view_shown:  # a new position was read: the tablets may look
            self._view_shown = view
            self.games.set_view(view.tiles, view.off_board)
        if moves:
            with self._lock:
                self._in_flight = []
