"""The live pipeline: frames in, moves out, for the web app and `qwirkle replay` alike.

A :class:`MoveTracker` chains the stable-frame gate (is this a new still position?), the scan
(which tiles where), registration (onto the cells of the board known so far) and decoding
(the most probable legal labelling of the new tiles, scored). It keeps the board the players
confirmed, so old tiles keep their confirmed labels and only what changed is decided anew.

A position where known tiles next to the new ones have vanished is held back for ``PATIENCE``
seconds of video: a hand resting over the tiles looks exactly like that, and a moment later
it is gone. The first move, and a position whose read missed known tiles, are first read
again from the next frame, when nothing stirred between: a single frame can scan badly where
the next does not.

A read is not left until the gate's verdict: halfway through a still spell that shows a
change worth a scan (:meth:`StableGate.ripe`) the tracker reads that picture, and the verdict
on the spell takes it (and, for a second look, reads its own frame at once). A late board's
read takes about as long as the spell, so moves come half a spell sooner.

The position reader (:mod:`vision.reader`) scans each still picture and puts its tiles on the
board's cells, tiles off the board apart. Two helpers keep what the tracker learns between
positions: the change witness
(:mod:`vision.witness`) reads again an empty cell beside the tiles whose look changed although
the scan read no tile there, and keeps it suspect if still no tile is read; the evidence
ledger (:mod:`vision.ledger`) lets later pictures settle the labels the tracker chose itself.
Drawing the preview is :func:`vision.overlay.draw_board`'s. A reading the decoder had to
leave out of a move to make it legal (the table seen through a hole between tiles) is kept
off the board from then on.

Since a wrong score must never pass silently, a move is also flagged when something in its
lines is in doubt: a suspect cell, a reading the classifier half-believed is a tile (or one
left out), a tile read late, or a tile from an earlier flagged move whose label is not yet
settled.
Without confirmations (``qwirkle replay``) :meth:`MoveTracker.settled` gives the moves with
the labels later pictures settled on.

In the table app the tracker follows the game, not the other way round. After every change on
a tablet it is told the game's board, the moves still waiting and the tiles players called
"not a move" (:meth:`MoveTracker.accept`). It keeps its own picture of the table apart from
that: tiles the camera still sees that the game no longer holds (an undo, a removed turn, a
new game started over tiles) are offered again at once, as a move of their own; tiles of an
unconfirmed move that vanish from the table are withdrawn; moves are judged against the game's
board, without the tiles players set aside.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from engine.board import Board, Cell, Placed
from engine.boardgame import bonus_squares, move_bonus, start_gaps, start_in, start_under
from engine.rules import check_move
from engine.tiles import COLOURS, Tile
from vision.adapt import SetAdapter
from vision.classifier import TileGuess
from vision.decode import LEAVE_OUT_TILE_PROB, DetectedMove, decode_move, split_moves
from vision.doubts import Doubt, DoubtKind
from vision.lattice import project
from vision.ledger import EvidenceLedger
from vision.overlay import draw_board
from vision.reader import Position, PositionReader
from vision.register import Registration, contradicts
from vision.source import Frame
from vision.stable import Footprint, StableGate
from vision.witness import ChangeWitness

PATIENCE = 0.2
"""Seconds a position with vanished tiles in the move's lines waits for the scene to change.

Short, because a move must be reported within a second of the table going still, and the
gate already waits ``still_seconds`` (0.4 s) of stillness; an arm resting over the tiles is
kept out by the gate itself (``vision.stable.arm_over``)."""


@dataclass(frozen=True)
class TableView:
    """What the camera saw at its last still position, in the game's cells."""

    tiles: tuple[Placed, ...] = ()
    off_board: tuple[Placed, ...] = ()


@dataclass
class _Held:
    """A position held back because known tiles were not seen in it."""

    frame: Frame
    registration: Registration


class MoveTracker:
    """Turn a stream of frames into detected moves; see the module docstring."""

    def __init__(self, colours: Iterable[str] = COLOURS, still_seconds: float = 0.4,
                 adapter: SetAdapter | None = None) -> None:
        self.colours = tuple(colours)
        self.still_seconds = still_seconds
        self.adapter = adapter
        """The set as learned from this game's confirmed tiles (:mod:`vision.adapt`); the
        tracker teaches it every tile the players confirm, and reads with it."""
        self.reset()

    def reset(self) -> None:
        """Start over knowing nothing of the table (another set, or another camera)."""
        self.board = Board()
        self.bonus: dict[Cell, int] = {}
        """The board game's bonus squares, once its start was seen (:mod:`engine.boardgame`):
        moves read score them."""
        self._start_gaps: set[Cell] = set()
        """Cells of the board game's start with no tile seen yet (a tile the scan missed in
        the first picture): a tile read there later completes the start, and is no move."""
        self._game: Board | None = None  # None: no game told us its board (qwirkle replay)
        # Tiles players may take off the table, which then leave the game: seen by the
        # camera and in no confirmed turn (a move waiting, tiles set aside).
        self._removable: set[Cell] = set()
        # Tiles set aside, which become removable once this camera has seen them: a restart
        # that reads a video from the start sees them missing before they were ever laid.
        self._aside: set[Cell] = set()
        # The camera's readings players overruled, by cell (see :meth:`accept`).
        self._overruled: dict[Cell, Tile] = {}
        # Tiles of the board the last position's scan missed whose cells look as before
        self._still_there: set[Cell] = set()
        self._view = TableView()
        self._rescan = False
        self._gate = StableGate(self.still_seconds)
        self._reader = PositionReader(self.colours)
        self._held: _Held | None = None
        self._ahead: tuple[float, Frame, Position | None] | None = None
        """A picture of the still spell under way read ahead of the gate's verdict
        (:meth:`StableGate.ripe`), with the spell's start: the gate's verdict on that spell
        takes it instead of reading its own frame."""
        self._first_look: tuple[Frame, Position | None] | None = None
        """A position the gate let through (the first move, or one whose read missed tiles
        of the board), waiting one frame for a second look (:meth:`_second_look`)."""
        self._witness = ChangeWitness()
        self._laid: dict[Cell, float] = {}
        """For each tile reported, the count of the move it was reported in: tiles the game
        holds nowhere, offered again in several turns, come in the order they were laid
        (:meth:`accept`)."""
        self._suspected_with: dict[Cell, tuple[frozenset[Cell], ...]] = {}
        """For each of the witness's suspect cells, the cells of each move reported from the
        picture in which it changed (see :meth:`_laid_now`)."""
        self._ledger = EvidenceLedger()
        self._readings: dict[Cell, TileGuess] = {}  # of the last position, by cell
        self._learned: set[Cell] = set()
        self._reported: set[Doubt] = set()
        self._left_out: dict[Cell, Tile] = {}
        """Cells a move was read without (:attr:`DetectedMove.left_out`), with what was read
        there: kept off the board while they show that (see :meth:`_still_left_out`)."""
        self._frame: np.ndarray | None = None
        self._last_move: tuple[Placed, ...] = ()

    def accept(self, board: Board | Iterable[Placed], pending: Iterable[Placed] = (),
               ignored: Iterable[Placed] = (),
               overruled: Mapping[Cell, Tile] | None = None,
               start: Iterable[Placed] | None = None) -> list[DetectedMove]:
        """Adopt the game: the board players confirmed, the tiles of the moves still waiting
        and the tiles they said are no move. Later moves are judged against the first two.
        ``overruled``: the camera's readings of tiles players said are another (a fix): the
        camera reading the same again is no news to report, nor a tile to see differently.
        ``start``: the game's board game's start (:mod:`engine.boardgame`; none: standard
        Qwirkle), whose bonus squares later moves score.

        Returns the tiles the camera saw at its last position that the game holds nowhere,
        offered again as one move: an undo or a removed turn whose tiles stayed on the
        table, or a game started over tiles. Tiles the camera never saw are not offered.
        Tiles that are no legal move but split into consecutive legal ones
        (:func:`vision.decode.split_moves`) come as those: the turns laid while a game stood
        ended by mistake, offered again once it plays on (as one heap of ten tiles, "a turn
        places at most 6 tiles", they blocked every move behind them). They come in the order
        the camera saw them laid, where it did (a game started over tiles laid under the
        camera too): split by the rules alone, two turns whose both orders are legal came
        the wrong way round half the time.
        """
        confirmed = board if isinstance(board, Board) else Board.from_placed(board)
        self._overruled = dict(overruled or {})
        waiting = {(x, y): tile for x, y, tile in pending if (x, y) not in confirmed}
        aside = {(x, y): tile for x, y, tile in ignored}
        game = confirmed.with_tiles((x, y, tile) for (x, y), tile in waiting.items())
        seen = {(x, y): tile for x, y, tile in self._view.tiles}
        self._laid = {cell: order for cell, order in self._laid.items() if cell in seen}
        extra = tuple((x, y, tile) for (x, y), tile in sorted(seen.items())
                      if (x, y) not in game and (x, y) not in aside)
        self._game = game.with_tiles(extra)
        self.board = self._game.with_tiles(
            (x, y, tile) for (x, y), tile in aside.items() if (x, y) not in game)
        # Only tiles the camera saw can be taken back: one entered by hand was never seen.
        self._aside = set(aside) - set(game)
        self._removable = ((set(waiting) & set(seen)) | {(x, y) for x, y, _ in extra}
                           | (self._aside & set(seen)))
        self._learn(confirmed)
        # a position waiting for its second look was read against the board before: read
        # the next frame against this one instead
        self._rescan |= self._first_look is not None
        self._ahead = None
        self._witness.suspects.clear()  # the players have looked at the table
        self._ledger.clear()  # and their labels are final
        self._left_out.clear()
        if start is not None:
            self._lay_out([(x, y) for x, y, _ in start])
        if not extra:
            return []
        again = Doubt(DoubtKind.REOFFERED)
        laid = None if game else _start_of((x, y) for x, y, _ in extra)
        offers = []
        if laid is not None:
            # a game started over the board game's start: offered as that start, with no
            # doubt (every board game played with a camera opens so), and a tile beside it
            # as a move to look at, or the turns played on it before as those turns
            self._lay_out(sorted(laid))
            start_tiles = tuple(p for p in extra if p[:2] in laid)
            offers.append(DetectedMove(start_tiles, 0, False, (), reoffered=True, start=True))
            extra = tuple(p for p in extra if p[:2] not in laid)
            game = game.with_tiles(start_tiles)
            if not extra:
                return offers
            if len(extra) == 1:
                again = Doubt(DoubtKind.MAYBE_TILE, cell=extra[0][:2], tile=extra[0][2])
        check = check_move(game, extra)
        read = [((x, y), self._readings.get((x, y))) for x, y, _ in extra]
        parts = None if check.legal or not all(guess for _, guess in read) \
            else split_moves(game, read, [self._laid.get(cell) for cell, _ in read])
        if parts:
            return offers + [replace(part, doubts=(again, *part.doubts), reoffered=True)
                             for part in parts]
        return offers + [DetectedMove(extra, check.score if check.legal else None, True,
                                      (again,), reoffered=True)]

    def _learn(self, confirmed: Board) -> None:
        """Teach the set adapter the confirmed tiles it has a reading of and has not seen."""
        if self.adapter is None:
            return
        fresh = [(cell, self._readings[cell], tile) for cell in confirmed
                 if cell not in self._learned and cell in self._readings
                 and (tile := confirmed.get(cell)) is not None
                 and self._readings[cell].features is not None]
        if fresh:
            self.adapter.learn([guess for _, guess, _ in fresh], [tile for *_, tile in fresh])
            self._learned |= {cell for cell, _, _ in fresh}
        self._learned &= set(confirmed)  # an undone tile, laid again, is learned again

    def rescan(self) -> None:
        """Read the next frame whatever the gate says: players asked what the camera sees."""
        self._rescan = True

    def view(self) -> TableView:
        """What the camera saw at its last still position (:class:`TableView`)."""
        return self._view

    def feed(self, frame: Frame) -> list[DetectedMove]:
        """Look at one frame; return the moves it completes (usually none)."""
        self._frame = frame.image
        if frame.still or self._rescan:
            self._rescan, self._first_look, self._ahead = False, None, None
            return self._position(frame, False, self._read(frame))
        if self._gate.update(frame.image, frame.t):
            ahead, self._ahead = self._ahead, None
            seen, position = (ahead[1:] if ahead is not None and ahead[0] == self._gate.spell
                              else (frame, self._read(frame)))
            if self._gate.doubted and not self._gate.resolve(self._explaining(position, seen)):
                return []  # an arm at the edge: wait for it to leave
            if not self.board or self._newly_missed(position, seen):
                if seen is not frame:  # read ahead: this frame is the second look
                    seen, position = self._second_look((seen, position), frame)
                    return self._position(seen, True, position)
                self._first_look = (frame, position)
                return []  # look at one more picture of the position before judging it
            return self._position(seen, True, position)
        if (look := self._first_look) is not None:
            self._first_look = None
            seen, position = self._second_look(look, frame)
            return self._position(seen, True, position)
        if self._held is not None and frame.t - self._held.frame.t >= PATIENCE:
            held, self._held = self._held, None
            return self._report(held.frame, held.registration)
        if self._gate.ripe(frame.t):
            self._ahead = (self._gate.spell, frame, self._read(frame))
        return []

    def _lasting(self) -> set[Cell]:
        """The board's tiles that must still lie on the table: not those of moves waiting, nor
        tiles set aside, which players may take back (see :meth:`accept`)."""
        return set(self.board) - self._removable - self._aside

    def _quality(self, position: Position | None) -> tuple[int, int]:
        """How well a position was read, worst first: how many lasting tiles of the board it
        did not see (all, when unread), then how few tiles it read."""
        lasting = self._lasting()
        if position is None:
            return len(lasting) or 1, 0
        return (len(lasting & set(position.registration.missing)),
                -len(position.scan.tiles))

    def _newly_missed(self, position: Position | None, frame: Frame) -> bool:
        """Whether a read missed a lasting tile of the board whose cell no longer looks as it
        did at the last position (or read nothing): a sign of a bad picture, such as a
        lattice slipped by a row, worth a second look (:meth:`_second_look`).

        A tile missed where its cell looks as before was only missed by the scan: on the
        hundred-tile board of game 111 of the hardest footage, small dark tiles in a dim
        corner, every read missed some ten, and a second look at nearly every move (each read
        a quarter of a second on a 2-core laptop) put the reports 1.4-1.8 s after the table
        went still.
        """
        if position is None:
            return True
        reg, lasting = position.registration, self._lasting()
        missed = [cell for cell in reg.missing if cell in lasting]
        return len(self._witness.unchanged(reg, frame.image, missed)) < len(missed)

    def _second_look(self, look: tuple[Frame, Position | None], frame: Frame
                     ) -> tuple[Frame, Position | None]:
        """The better read of the position the gate let through (``look``: its frame and
        read) and of this next frame.

        One picture of a still table can scan badly where the next one does not: on tiles
        25 px wide, the noise of one frame can join two symbols across the dark body between
        them, or drop a dark purple, and the lattice then slips a row (game 111 of `python -m
        vision.evaluate.replay --styles hardest`, at 107 s: 28 tiles read where the frames
        around it read 31, and a five-tile phantom move). So a position whose read missed a
        tile of the board is read once more from the next frame, if nothing stirred between,
        and the read that saw more of the board, then more tiles, is judged. So is the first
        move, which has no board to check its read against and sets the lattice every later
        move is read on (game 112: three tiles in a row, read in a third of the frames as two
        on a lattice half as wide again).
        """
        first_frame, first = look
        if not self._gate.still:
            return look
        again = self._read(frame)
        return (frame, again) if self._quality(again) < self._quality(first) else look

    def _read(self, frame: Frame) -> Position | None:
        return self._reader.read(frame.image, self.board, self._lasting(), self.adapter,
                                 lambda reg, cells: self._witness.unchanged(reg, frame.image,
                                                                            cells))

    def _explaining(self, position: Position | None, frame: Frame) -> Footprint | None:
        """Where the tiles of a position the gate doubts lie, if they can explain its change:
        new tiles read, and every known tile seen that an arm there could hide
        (:meth:`StableGate.under_arm`: a tile missed elsewhere was only missed). None
        otherwise."""
        if position is None or not position.registration.new:
            return None
        reg = position.registration
        if reg.missing:
            if reg.homography is None:
                return None
            pixels = project(reg.homography, np.array(reg.missing, np.float64))
            if any(self._gate.under_arm(pixels, frame.image.shape)):
                return None
        lattice = position.scan.lattice
        return _footprint(position.scan.tiles, frame.image.shape,
                          0.0 if lattice is None else lattice.pitch_px)

    def _position(self, frame: Frame, wait: bool,
                  position: Position | None) -> list[DetectedMove]:
        """A new still position, as read (None: unreadable): report what changed."""
        self._held = None
        if position is None:
            return []
        scan, reg, lattice = position.scan, position.registration, position.scan.lattice
        self._view = replace(self._view, off_board=position.off_board)
        gone = self._still_left_out(reg)
        # only tiles the camera saw there last time: one entered by hand never lay there
        seen = {(x, y) for x, y, _ in self._view.tiles}
        self._still_there = self._witness.still_there(
            reg, frame.image, [cell for cell in reg.missing if cell in seen], self.colours,
            self.adapter)
        reg, unexplained = self._witness.look(reg, frame.image, self.colours, self.adapter)
        # the look of those cells changed as the thing left out went: no tile missed there
        self._witness.suspects -= gone
        unexplained = [d for d in unexplained if d.cell not in gone]
        # a tile missed where its cell looks as it did is missed again, not taken away
        problems = [*(d for d in reg.problems
                      if d.kind != DoubtKind.VANISHED or d.cell not in self._still_there),
                    *unexplained, *_doubtful(scan.doubtful, reg, self.board),
                    *(Doubt(DoubtKind.CUT, cell=reg.grid_map.apply(r.x, r.y), tile=r.guess.tile)
                      for r in scan.tiles if r.cut),
                    *(Doubt(DoubtKind.MAYBE_TILE, cell=cell, tile=guess.tile)
                      for cell, guess in reg.new if cell in self._left_out)]
        self.board, relabelled = self._ledger.weigh(reg.seen, self.board)
        problems = [Doubt(DoubtKind.SETTLED, cell=d.cell, tile=relabelled[d.cell][0],
                          other=relabelled[d.cell][1])
                    if d.kind == DoubtKind.RELABELLED and d.cell in relabelled else d
                    for d in problems
                    if d.kind != DoubtKind.RELABELLED or d.cell is None
                    or (d.other != self._overruled.get(d.cell) and d.cell not in self._aside)]
        reg = replace(reg, problems=tuple(problems), new=tuple(
            (cell, guess) for cell, guess in reg.new if cell not in self._left_out))
        self._gate.footprint = _footprint(scan.tiles, frame.image.shape,
                                          0.0 if lattice is None else lattice.pitch_px)
        if lattice is not None:
            self._gate.cell = lattice.pitch_px / frame.image.shape[1]
        if wait and self._flags(reg):
            self._held = _Held(frame, reg)
            return []
        return self._report(frame, reg)

    def _still_left_out(self, reg: Registration) -> set[Cell]:
        """Forget the cells left out of a move that no longer show what was left out: the
        thing has gone (a shadow, a fingertip), or a sure tile of another kind lies there now.
        Answers the cells whose thing has gone.

        A tile laid later on such a cell is part of its move: left out for good, a purple
        cross put where a fingertip had been read as a tile a minute before was never seen,
        and every later move was judged on a board without it (game 100 of `python -m
        vision.evaluate.replay --styles hardest`).
        """
        now = dict(reg.new)
        gone = {cell for cell in self._left_out if cell not in now}
        for cell, tile in list(self._left_out.items()):
            guess = now.get(cell)
            if guess is None or (guess.tile != tile and guess.tile_prob >= LEAVE_OUT_TILE_PROB):
                del self._left_out[cell]
        return gone

    def _flags(self, reg: Registration) -> list[Doubt]:
        """The problems that bear on the move: on a cell in a line one of its tiles scores.

        Cells that changed earlier without a tile being read there stay suspect until a tile
        is read there or the players confirm the board: a tile missed once may be missed
        again, and a later move in its line would be scored without it.
        """
        new_cells = [cell for cell, _ in reg.new]
        flags = [d for d in reg.problems
                 if d.cell is not None and _in_line(d.cell, new_cells, self.board)]
        fresh = {d.cell for d in reg.problems}
        flags += [Doubt(DoubtKind.UNREAD_EARLIER, cell=cell)
                  for cell in sorted(self._witness.suspects - fresh)
                  if _in_line(cell, new_cells, self.board)]
        flags += [Doubt(DoubtKind.UNCONFIRMED, cell=cell, tile=self.board.get(cell))
                  for cell in sorted(self._ledger.doubtful)
                  if cell in self.board and _in_line(cell, new_cells, self.board)]
        return flags

    def _report(self, frame: Frame, reg: Registration) -> list[DetectedMove]:
        """The move of a position, flagged by the problems that bear on it.

        A problem on a cell in line with a new tile can change the move's legality or score,
        so it flags the move every time it is seen. One elsewhere (a tile the scan missed
        across the table) cannot, so it is noted once, in the reason, without a flag.

        A tile read now on a cell that changed earlier was laid earlier and missed then: it
        joins the board but not this move (which it would make illegal or mis-scored), and
        the move is flagged so that a person puts it where it belongs. A tile read now on a
        cell of the board game's start that had none is the start's (the scan missed it in
        the first picture): it is reported as the start's, ahead of the move.
        """
        reg, withdrawn = self._withdraw(reg)
        self._witness.suspects -= self._laid_now(reg)
        flags = self._flags(reg)
        notes = [d for d in reg.problems if d not in flags and d not in self._reported]
        self._reported.update(notes)
        notes = [replace(d, elsewhere=True) for d in notes]
        suspects = self._witness.suspects
        unseen = [Doubt(DoubtKind.UNSEEN_LAYING)] if not frame.still and self._gate.unseen else []
        # the board game's start, seen on an empty board (a tile beside it is a move to look
        # at, turns played on it are those turns), or tiles of it that the first picture
        # missed: the start's
        start = None if (self.board if self._game is None else self._game) \
            else _start_of(cell for cell, _ in reg.new)
        if start is not None:
            self._lay_out(sorted(start))
        laying = [(cell, guess) for cell, guess in reg.new
                  if cell in self._start_gaps or (start is not None and cell in start)]
        laid = {cell for cell, _ in laying}
        late = [(cell, guess) for cell, guess in reg.new if cell in suspects and cell not in laid]
        new = [(cell, guess) for cell, guess in reg.new
               if cell not in suspects and cell not in laid]
        suspects -= set(reg.seen) | {cell for cell, _ in reg.new}
        flags += [Doubt(DoubtKind.LAID_EARLIER, cell=cell, tile=guess.tile)
                  for cell, guess in late]
        late += laying
        late_tiles = [(x, y, guess.tile) for (x, y), guess in late]
        board = self.board.with_tiles(late_tiles)
        game = None if self._game is None else self._game.with_tiles(late_tiles)
        at = frame.name if frame.still else round(frame.t, 2)
        gone = [DetectedMove((), None, False, (), at, withdrawn=withdrawn)] if withdrawn else []
        if laying:
            gone.append(self._laid_out(laying, () if start is None else (*flags, *notes, *unseen),
                                       at))
        if start is not None:  # the start's problems are its own; a tile beside it may be
            # none, and more are turns laid before the camera looked
            flags, notes = [Doubt(DoubtKind.UNSEEN_LAYING)] if len(new) > 1 else [
                Doubt(DoubtKind.MAYBE_TILE, cell=cell, tile=guess.tile) for cell, guess in new], []
        # a move scored with a start tile read only now: the players look at both
        flags += [Doubt(DoubtKind.UNCONFIRMED, cell=cell, tile=guess.tile)
                  for cell, guess in laying if _in_line(cell, [c for c, _ in new], board)]
        if not new:
            self.board, self._game = board, game
            self._see(reg, late)
            self._remember_suspects(())
            problems = (*flags, *notes)
            note = [DetectedMove((), None, True, problems, at)] if problems else []
            return gone + note
        flags += unseen
        judged = board if game is None else game
        moves = [decode_move(judged, new, flags)]
        if moves[0].score is None and len(new) > 1:
            moves = split_moves(judged, new, self._appeared(frame, reg, new), flags) or [
                replace(moves[0], doubts=(*moves[0].doubts, Doubt(DoubtKind.NO_SPLIT)))]
        guesses = dict(new)
        found = []
        for move in moves:
            order = max(self._laid.values(), default=0.0) + 1
            self._laid.update(((x, y), order) for x, y, _ in move.tiles)
            board = board.with_tiles(move.tiles)
            if game is not None:
                game = game.with_tiles(move.tiles)
                self._removable |= {(x, y) for x, y, _ in move.tiles}
            self._left_out.update((cell, guesses[cell].tile) for cell in move.left_out)
            for x, y, tile in move.tiles:
                self._ledger.record((x, y), tile, guesses[x, y], move.needs_confirmation)
            self._last_move = move.tiles
            score = None if move.score is None else \
                move.score + move_bonus(self.bonus, ((x, y) for x, y, _ in move.tiles))
            found.append(replace(move, score=score, doubts=(*move.doubts, *notes), at=at,
                                 left_out=()))
        self.board, self._game = board, game
        placed = {(x, y) for move in moves for x, y, _ in move.tiles}
        self._see(reg, [*late, *((cell, guess) for cell, guess in new if cell in placed)])
        self._remember_suspects(moves)
        return gone + found

    def _laid_now(self, reg: Registration) -> set[Cell]:
        """Suspect cells read as tiles now whose tile cannot belong to the move reported when
        their look changed: in line with none of its moves, as every move's tiles are. The
        change was something else, and the tile is part of this move.

        In a view from the side a new tile's own side shows over the cell beyond it and changes
        its look. A tile laid there a move later was taken for one laid earlier and left out of
        its move: connect-2 of the real photos lost two moves so (a red square below a row of
        clovers, read a move late, scored as the red star alone).
        """
        suspects = self._witness.suspects
        return {cell for cell, _ in reg.new if cell in suspects and self._suspected_with.get(cell)
                and not any(_one_line(cells | {cell}) for cells in self._suspected_with[cell])}

    def _remember_suspects(self, moves: Sequence[DetectedMove]) -> None:
        """Note the moves just reported beside the suspect cells their picture added."""
        cells = tuple(frozenset((x, y) for x, y, _ in move.tiles) for move in moves)
        self._suspected_with = {cell: self._suspected_with.get(cell, cells)
                                for cell in self._witness.suspects}

    def _lay_out(self, start: Sequence[Cell]) -> None:
        """Know the board game's start on ``start`` (none: standard Qwirkle)."""
        self.bonus, self._start_gaps = bonus_squares(start), start_gaps(start)

    def _laid_out(self, new: Sequence[tuple[Cell, TileGuess]], doubts: Sequence[Doubt],
                  at: str | float) -> DetectedMove:
        """Tiles of the board game's start, reported as the start (the whole start, or tiles
        the first picture missed). They join the board as read, and its bonus squares count
        from the first move on (:meth:`_lay_out`). No move needs their labels to be legal;
        later pictures settle them (:mod:`vision.ledger`). In the table app they wait for
        players to confirm them, as a move does."""
        tiles = tuple((x, y, guess.tile) for (x, y), guess in new)
        self._start_gaps -= {cell for cell, _ in new}
        if self._game is not None:
            self._removable |= {cell for cell, _ in new}
        for cell, guess in new:
            self._ledger.record(cell, guess.tile, guess, bool(doubts))
        self._last_move = tiles
        return DetectedMove(tiles, 0, bool(doubts), tuple(doubts), at,
                            guesses=tuple(guess for _, guess in new), start=True)

    def _appeared(self, frame: Frame, reg: Registration,
                  new: Sequence[tuple[Cell, object]]) -> list[float | None]:
        """When each new tile appeared in the frames (None where the gate cannot say)."""
        if frame.still or reg.homography is None:
            return [None] * len(new)
        pixels = project(reg.homography, np.array([cell for cell, _ in new], np.float64))
        return self._gate.appeared_at(pixels, frame.image.shape)

    def _withdraw(self, reg: Registration) -> tuple[Registration, tuple[Cell, ...]]:
        """Tiles of unconfirmed moves, or set aside, that are no longer on the table: taken
        back.

        Only in the table app (a game told us which moves are unconfirmed): a confirmed tile
        that vanishes stays in the game and is a problem for a person to look at. So does one
        whose cell looks as it did and still reads as a tile
        (:meth:`ChangeWitness.still_there`): the scan missed it.
        """
        withdrawn = tuple(cell for cell in reg.missing
                          if cell in self._removable and cell not in self._still_there)
        if not withdrawn:
            return reg, ()
        self.board = Board.from_placed(p for p in self.board.placed() if p[:2] not in withdrawn)
        if self._game is not None:
            self._game = Board.from_placed(p for p in self._game.placed()
                                           if p[:2] not in withdrawn)
        self._removable -= set(withdrawn)
        self._aside -= set(withdrawn)
        return replace(reg, missing=tuple(c for c in reg.missing if c not in withdrawn),
                       problems=tuple(d for d in reg.problems if d.cell not in withdrawn)
                       ), withdrawn

    def _see(self, reg: Registration, read: Sequence[tuple[Cell, TileGuess]]) -> None:
        """Remember what this position showed on the board: in the board's labels, except
        where the camera clearly reads another tile (players may have confirmed a misread)."""
        tiles = [(x, y, guess.tile if contradicts(guess, old)
                  and guess.tile != self._overruled.get((x, y)) else old)
                 for (x, y), guess in reg.seen.items()
                 if (old := self.board.get((x, y))) is not None]
        tiles += [(x, y, tile) for (x, y), _ in read if (tile := self.board.get((x, y)))]
        # missed by the scan, but still there: an undo offers them again like the others
        tiles += [(x, y, tile) for x, y in reg.missing
                  if (x, y) in self._still_there and (tile := self.board.get((x, y)))]
        self._view = replace(self._view, tiles=tuple(sorted(tiles)))
        self._readings = {**reg.seen, **dict(read)}
        self._removable |= self._aside & {(x, y) for x, y, _ in tiles}

    def settled(self, moves: Iterable[DetectedMove]) -> list[DetectedMove]:
        """Earlier moves with the labels later pictures settled on (see :meth:`_weigh`)."""
        return [replace(m, tiles=tuple((x, y, self.board.get((x, y)) or t) for x, y, t in m.tiles))
                for m in moves]

    def last_overlay(self) -> np.ndarray | None:
        """The latest frame with the board drawn, the last move's tiles outlined."""
        if self._frame is None:
            return None
        homography = self._reader.homography
        if homography is None:
            return self._frame.copy()
        return draw_board(self._frame, homography, self.board.placed(),
                          [(x, y) for x, y, _ in self._last_move])


def _doubtful(readings, reg: Registration, board: Board) -> list[Doubt]:
    """The scan's doubtful readings (``ScanResult.doubtful``) on empty cells.

    Left out of the move, but a person should look if one lies in the move's lines: without
    a picture from before (the first photo), nothing else would notice a tile read this way.
    """
    taken = set(board) | {cell for cell, _ in reg.new}
    found = []
    for r in readings:
        cell = reg.grid_map.apply(r.x, r.y)
        if cell not in taken:
            found.append(Doubt(DoubtKind.MAYBE_TILE, cell=cell, tile=r.guess.tile))
    return found


def _one_line(cells: Iterable[Cell]) -> bool:
    """Whether the cells share a row or a column."""
    xs, ys = zip(*cells, strict=True)
    return len(set(xs)) == 1 or len(set(ys)) == 1


def _start_of(cells: Iterable[Cell]) -> set[Cell] | None:
    """The board game's start among the tiles first seen on an empty board: the start with
    perhaps a tile beside it (:func:`engine.boardgame.start_in`), or the start under a game
    in progress (:func:`engine.boardgame.start_under`), whose other tiles are its turns."""
    cells = list(cells)
    return start_in(cells) or start_under(cells)


def _in_line(cell: Cell, cells: list[Cell], occupied: Board) -> bool:
    """Whether ``cell`` lies in a line that one of ``cells`` scores: in line, no gap between."""
    taken = set(cells)
    for x, y in cells:
        if cell == (x, y):
            return True
        if cell[0] != x and cell[1] != y:
            continue
        dx = (cell[0] > x) - (cell[0] < x)
        dy = (cell[1] > y) - (cell[1] < y)
        step = (x + dx, y + dy)
        while step != cell and (step in taken or step in occupied):
            step = (step[0] + dx, step[1] + dy)
        if step == cell:
            return True
    return False


def _footprint(readings, shape: tuple[int, ...], pitch: float) -> Footprint | None:
    """Where tiles lie or may be laid next: two cells round each tile.

    A new tile goes next to an old one, and its blob of change (shadow included) spreads about
    half a cell further; an arm must come from the frame edge outside this.
    """
    if not readings:
        return None
    w = shape[1]
    return Footprint(tuple((r.center[0] / w, r.center[1] / w) for r in readings), 2 * pitch / w)
