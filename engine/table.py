"""The game at a physical table, where hands are hidden and only the table is seen.

The web app records what players confirm, turn by turn, and must let them correct any
past turn. So a :class:`TableGame` is an immutable value derived entirely from the players,
the seat that starts, and the list of turns: a correction rebuilds the game from the corrected
list, which re-validates and re-scores every later turn, and refuses the correction (leaving
the game as it was) when a later turn would become illegal.

Turn numbers in messages count from 1, as on a score sheet; indices in the API count from 0.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.board import Board, Cell, Placed, check_placed
from engine.boardgame import bonus_squares, move_bonus, start_diagonals
from engine.refusals import Illegal, IllegalMove, Refusal
from engine.rules import QWIRKLE_BONUS, apply_move
from engine.tiles import COLOURS, COPIES, HAND, Tile, is_colour_set, tile_kinds


@dataclass(frozen=True, slots=True)
class Place:
    """Tiles put on the table in one turn."""

    tiles: tuple[Placed, ...]

    def __post_init__(self) -> None:
        if isinstance(self.tiles, str | bytes) or not hasattr(self.tiles, "__iter__"):
            raise TypeError(f"Place needs a sequence of (x, y, Tile), got {self.tiles!r}")
        checked = tuple(check_placed(t, f"placed tile {i + 1}") for i, t in enumerate(self.tiles))
        object.__setattr__(self, "tiles", checked)


@dataclass(frozen=True, slots=True)
class Exchange:
    """Tiles swapped with the bag; which ones stays hidden, only the count is seen."""

    count: int

    def __post_init__(self) -> None:
        # bool is an int in Python; True is not a count.
        if isinstance(self.count, bool) or not isinstance(self.count, int):
            raise TypeError(f"Exchange needs a whole number of tiles, got {self.count!r}")


@dataclass(frozen=True, slots=True)
class Pass:
    """A turn with no placement and no exchange (allowed once the bag is empty)."""


Turn = Place | Exchange | Pass


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn as recorded: who played it and what it scored."""

    index: int
    player: int
    turn: Turn
    score: int
    qwirkles: int


@dataclass(frozen=True)
class TableGame:
    """A game in progress (or ended) at the table. Build it with :meth:`new`.

    >>> game = TableGame.new(["Ann", "Bob"])
    >>> game = game.play(Place(((0, 0, Tile("red", "star")), (1, 0, Tile("red", "circle")))))
    >>> game = game.play(Exchange(3))
    >>> game.scores, game.current_player, game.bag_size
    ((2, 0), 0, 94)

    A correction re-scores every later turn, or is refused when one would become illegal:

    >>> game.replace(0, Place(((0, 0, Tile("red", "star")),))).scores
    (1, 0)
    >>> game.replace(1, Exchange(7))
    Traceback (most recent call last):
    ...
    engine.refusals.IllegalMove: turn 2 (Bob): an exchange swaps 1 to 6 tiles, not 7
    """

    players: tuple[str, ...]
    first: int
    colours: tuple[str, ...]
    turns: tuple[TurnRecord, ...] = ()
    board: Board = field(default_factory=Board)
    scores: tuple[int, ...] = ()
    qwirkles: tuple[int, ...] = ()
    ended: bool = False
    went_out: int | None = None
    start: Board = field(default_factory=Board)
    """The board game's start, laid out before turn 1 (:meth:`with_start`); empty in
    standard Qwirkle."""
    squares: dict[Cell, int] = field(default_factory=dict, repr=False)
    """The board game's bonus squares (:func:`engine.boardgame.bonus_squares`)."""
    _unseen: dict[Tile, int] = field(default_factory=dict, repr=False)

    @classmethod
    def new(
        cls, players: Sequence[str], first: int = 0, colours: Sequence[str] = COLOURS
    ) -> TableGame:
        """A game with no turns yet. ``players`` are in seat order; ``first`` starts."""
        if isinstance(players, str) or not 2 <= len(players) <= 6:
            raise ValueError(f"a game needs 2 to 6 players, got {players!r}")
        if not all(isinstance(p, str) and p.strip() for p in players):
            raise ValueError(f"player names must be non-empty strings, got {players!r}")
        if type(first) is not int or not 0 <= first < len(players):
            raise ValueError(f"first must be a seat from 0 to {len(players) - 1}, got {first!r}")
        kinds = tile_kinds(tuple(colours))  # raises TileError for an unknown colour
        if not is_colour_set(colours):
            raise ValueError(f"a set has six distinct colours, got {colours!r}")
        zeros = (0,) * len(players)
        return cls(
            players=tuple(players), first=first, colours=tuple(colours),
            scores=zeros, qwirkles=zeros, _unseen={k: COPIES for k in kinds},
        )

    # --- derived state ---------------------------------------------------------------

    @property
    def unseen(self) -> Counter[Tile]:
        """Copies of each of the 36 kinds not yet on the table (in the bag or in hands)."""
        return Counter(self._unseen)

    @property
    def bag_size(self) -> int:
        """Tiles left in the bag: all not on the table, less full hands, while any remain."""
        return self._bag_with(len(self.board))

    def bag_before(self, index: int) -> int:
        """Tiles in the bag when turn ``index`` was played: what it could exchange, and none
        for a pass. An exchange leaves the bag as full as it was, so only tiles laid count.

        >>> game = TableGame.new(["Ann", "Bob"]).play(Place(((0, 0, Tile("red", "star")),)))
        >>> game.bag_before(0), game.bag_before(1), game.bag_size
        (96, 95, 95)
        """
        return self._bag_with(len(self.start) + sum(
            len(record.turn.tiles) for record in self.turns[:index]
            if isinstance(record.turn, Place)))

    def _bag_with(self, laid: int) -> int:
        """Tiles in the bag once ``laid`` tiles lie on the table: all the others, less full
        hands, while any remain."""
        return max(0, len(self._unseen) * COPIES - laid - HAND * len(self.players))

    @property
    def current_player(self) -> int:
        return self.seat_of(len(self.turns))

    @property
    def bonus(self) -> tuple[int, ...]:
        """The end-of-game bonus per player: +6 for the one who went out, kept apart."""
        return tuple(QWIRKLE_BONUS if i == self.went_out else 0 for i in range(len(self.players)))

    @property
    def totals(self) -> tuple[int, ...]:
        """Turn scores plus the end bonus."""
        return tuple(s + b for s, b in zip(self.scores, self.bonus, strict=True))

    def seat_of(self, index: int) -> int:
        """The player who plays turn ``index``: seats simply rotate from the first player."""
        return (self.first + index) % len(self.players)

    # --- playing ---------------------------------------------------------------------

    def play(self, turn: Turn) -> TableGame:
        """The game after the current player's turn; IllegalMove (the refusal) if it is illegal."""
        if self.ended:
            raise IllegalMove(Refusal(Illegal.GAME_ENDED))
        player = self.seat_of(len(self.turns))
        score = qwirkles = 0
        board, unseen = self.board, self._unseen
        if isinstance(turn, Place):
            if len(turn.tiles) > HAND:
                raise IllegalMove(Refusal(Illegal.TOO_MANY_TILES, count=len(turn.tiles),
                                          most=HAND))
            unseen = self._taken(turn.tiles)
            board, check = apply_move(board, turn.tiles)
            score = (check.score or 0) + move_bonus(self.squares, (t[:2] for t in turn.tiles))
            qwirkles = check.qwirkles
        elif isinstance(turn, Exchange):
            if not 1 <= turn.count <= HAND:
                raise IllegalMove(Refusal(Illegal.EXCHANGE_COUNT, count=turn.count, most=HAND))
            if turn.count > self.bag_size:
                raise IllegalMove(Refusal(Illegal.BAG_TOO_SMALL, count=turn.count,
                                          bag=self.bag_size))
        elif isinstance(turn, Pass):
            if self.bag_size:
                raise IllegalMove(Refusal(Illegal.PASS_WITH_BAG, bag=self.bag_size))
        else:
            raise TypeError(f"a turn is Place, Exchange or Pass, got {turn!r}")
        scores = list(self.scores)
        scores[player] += score
        counts = list(self.qwirkles)
        counts[player] += qwirkles
        record = TurnRecord(len(self.turns), player, turn, score, qwirkles)
        return dataclasses.replace(
            self, turns=self.turns + (record,), board=board, scores=tuple(scores),
            qwirkles=tuple(counts), _unseen=unseen,
        )

    def _taken(self, tiles: Sequence[Placed]) -> dict[Tile, int]:
        """The copies left unseen once ``tiles`` lie on the table; IllegalMove when the set
        has no such tile, or no copy of it left."""
        unseen = dict(self._unseen)
        for _, _, tile in tiles:
            if tile not in unseen:
                raise IllegalMove(Refusal(Illegal.NOT_IN_SET, tiles=(tile,), colours=self.colours))
            if unseen[tile] == 0:
                raise IllegalMove(Refusal(Illegal.NO_COPIES_LEFT, tiles=(tile,), count=COPIES))
            unseen[tile] -= 1
        return unseen

    def with_start(self, tiles: Sequence[Placed]) -> TableGame:
        """The board game (:mod:`engine.boardgame`): the game with ``tiles`` laid out before
        turn 1, and every turn re-checked and re-scored with the bonus squares they bring;
        no tiles: standard Qwirkle again. ValueError where the tiles are no start.

        >>> start = [(x, 5 - x, Tile(c, "star")) for x, c in enumerate(COLOURS)]
        >>> start += [(x + 8, x, Tile(c, "circle")) for x, c in enumerate(COLOURS)]
        >>> game = TableGame.new(["Ann", "Bob"]).with_start(start)
        >>> game = game.play(Place(((0, 4, Tile("yellow", "star")),)))  # two lines, on a "1"
        >>> game.scores, game.bag_size, game.with_start([]).scores
        ((5, 0), 83, (1, 0))
        """
        start = Board.from_placed(
            check_placed(t, f"start tile {i + 1}") for i, t in enumerate(tiles))
        if start and start_diagonals(start) is None:
            raise ValueError("a start is diagonals of six tiles that touch only at corners")
        return self._rebuild([r.turn for r in self.turns], -1, self._blank(start))

    def _blank(self, start: Board) -> TableGame:
        """This game's players and set before turn 1, with ``start`` laid out (IllegalMove
        for a tile the set lacks)."""
        blank = TableGame.new(self.players, self.first, self.colours)
        if not start:
            return blank
        return dataclasses.replace(blank, start=start, board=start, squares=bonus_squares(start),
                                   _unseen=blank._taken(start.placed()))

    def finish(self, went_out: int | None) -> TableGame:
        """End the game: ``went_out`` is the seat that emptied their hand (+6), or None.

        A hand is emptied by laying its last tiles, which ends the game there: only the
        player who laid the last turn's tiles, once the bag is empty, can have gone out.
        Calling it again replaces the ending, so a wrongly entered ending can be fixed.
        """
        if went_out is not None:
            if type(went_out) is not int or not 0 <= went_out < len(self.players):
                raise ValueError(
                    f"went_out must be a seat from 0 to {len(self.players) - 1} or None, "
                    f"got {went_out!r}"
                )
            who = self.players[went_out]
            if self.bag_size:
                raise IllegalMove(Refusal(Illegal.GO_OUT_WITH_BAG, player=who, bag=self.bag_size))
            if self.went_out_seat != went_out:
                raise IllegalMove(Refusal(Illegal.GO_OUT_NOT_LAST, player=who))
        return dataclasses.replace(self, ended=True, went_out=went_out)

    @property
    def went_out_seat(self) -> int | None:
        """The one seat that may have gone out now: the player who laid the last turn's
        tiles once the bag was empty; None when nobody can have (the bag holds tiles, or the
        last turn laid none).

        >>> game = TableGame.new(("Ann", "Ben"))
        >>> game.went_out_seat is None
        True
        """
        if self.bag_size or not self.turns or not isinstance(self.turns[-1].turn, Place):
            return None
        return self.turns[-1].player

    def play_on(self) -> TableGame:
        """Take back the end of the game, ended by mistake: play goes on from the same turn,
        with the same player to play and no end bonus.

        >>> game = TableGame.new(("Ann", "Ben")).finish(None)
        >>> game.play_on().ended, game.play_on().current_player
        (False, 0)
        """
        return dataclasses.replace(self, ended=False, went_out=None)

    # --- corrections -----------------------------------------------------------------

    def replace(self, index: int, turn: Turn) -> TableGame:
        """The game with turn ``index`` replaced and every later turn re-checked and re-scored."""
        self._check_index(index)
        turns = [r.turn for r in self.turns]
        turns[index] = turn
        return self._rebuild(turns, index)

    def void(self, index: int) -> TableGame:
        """The game without turn ``index``; later turns move up one seat and are re-checked.

        A later turn that no longer stands is named as the players know it, by its number and
        player before the removal: the tablet's list still shows those until it is done."""
        self._check_index(index)
        turns = [r.turn for r in self.turns]
        del turns[index]
        try:
            return self._rebuild(turns, changed=-1)  # no turn is itself the correction
        except IllegalMove as err:
            refusal = err.refusal
            if refusal.code is not Illegal.BREAKS_LATER_TURN:
                raise
            broken = self.turns[refusal.turn + 1]
            raise IllegalMove(dataclasses.replace(
                refusal, turn=broken.index, player=self.players[broken.player])) from None

    def insert(self, index: int, turn: Turn) -> TableGame:
        """The game with ``turn`` put back at ``index`` (a Redo after void); later turns move
        down one seat and are re-checked."""
        if type(index) is not int or not 0 <= index <= len(self.turns):
            raise IndexError(f"no place {index!r} for a turn: the game has {len(self.turns)} turns")
        turns = [r.turn for r in self.turns]
        turns.insert(index, turn)
        return self._rebuild(turns, index)

    def _check_index(self, index: int) -> None:
        if type(index) is not int or not 0 <= index < len(self.turns):
            raise IndexError(f"no turn at index {index!r}: the game has {len(self.turns)} turns")

    def _rebuild(self, turns: Sequence[Turn], changed: int,
                 blank: TableGame | None = None) -> TableGame:
        """Replay the corrected ``turns`` from ``blank`` (by default this game before its
        first turn, its start laid out); name the first turn that no longer stands."""

        def code(i: int) -> Illegal:
            return Illegal.BAD_TURN if i == changed else Illegal.BREAKS_LATER_TURN

        game = (self._blank(self.start) if blank is None else blank)._replay(turns, code)
        if self.ended:
            try:
                game = game.finish(self.went_out)
            except IllegalMove as err:
                raise IllegalMove(Refusal(Illegal.BREAKS_ENDING, cause=err.refusal)) from None
        return game

    def _replay(self, turns: Sequence[Turn], code: Callable[[int], Illegal]) -> TableGame:
        """Play ``turns`` from here; a refused turn is wrapped in ``code(its index)``."""
        game = self
        for i, turn in enumerate(turns):
            try:
                game = game.play(turn)
            except IllegalMove as err:
                who = game.players[game.seat_of(i)]
                raise IllegalMove(Refusal(code(i), turn=i, player=who,
                                          cause=err.refusal)) from None
        return game

    @classmethod
    def from_turns(
        cls, players: Sequence[str], turns: Sequence[Turn], first: int = 0,
        colours: Sequence[str] = COLOURS, start: Sequence[Placed] = (),
    ) -> TableGame:
        """Replay a list of turns (e.g. the web app's event log); IllegalMove names a bad turn."""
        blank = cls.new(players, first, colours)
        if start:
            blank = blank.with_start(start)
        return blank._replay(turns, lambda _: Illegal.BAD_TURN)
