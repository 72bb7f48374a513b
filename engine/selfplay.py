"""Simulated games: seeded, legal, complete, for testing, benchmarks and synthetic footage.

Unlike :mod:`engine.table`, the simulation sees every hand, so it can enforce what the table
cannot: a player who can place must not pass, and one who cannot must exchange while the bag
has tiles. A game ends when a player empties their hand after the bag is empty (+6), or in a
stalemate when nobody can place. "Nobody can place" is decided once every player in turn has
failed to place: then, if no tile outside the board (in hands or bag) fits anywhere, no later
draw or exchange can change that, so the game stops. With an empty bag that is exactly "all
players passed"; with tiles left in the bag it prevents an endless round of exchanges.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.board import Board, Placed, placed_row, row_placed
from engine.movegen import best_move, has_legal_move, scored_moves
from engine.refusals import Illegal, IllegalMove, Refusal
from engine.rules import QWIRKLE_BONUS
from engine.table import Exchange, Pass, Place, TableGame, Turn
from engine.tiles import HAND, Tile, full_set

STRATEGIES = ("greedy", "random")


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One turn of a simulated game. An exchange lists no tiles (they stay hidden)."""

    player: int
    kind: str
    """"place", "exchange" or "pass"."""
    tiles: tuple[Placed, ...]
    score: int
    count: int = 0
    """Tiles exchanged (exchanges only)."""
    hand: tuple[Tile, ...] = ()
    """The player's hand before the turn (lets tests and renderers see what was held)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    seed: int
    players: int
    scores: tuple[int, ...]
    """Final scores, the +6 for going out included."""
    end: str
    """"went_out" or "stalemate"."""
    moves: tuple[MoveRecord, ...]
    final_hands: tuple[tuple[Tile, ...], ...] = ()
    bag: tuple[Tile, ...] = ()
    """What was left in the bag at the end."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form written by ``qwirkle simulate`` (one object per game).

        Only the fields of the fixed line format: exchange counts, hands and the final bag
        stay in Python (see :class:`MoveRecord`)."""
        return {
            "seed": self.seed,
            "players": self.players,
            "scores": list(self.scores),
            "end": self.end,
            "moves": [
                {
                    "player": m.player,
                    "kind": m.kind,
                    "tiles": [placed_row(p) for p in m.tiles],
                    "score": m.score,
                }
                for m in self.moves
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        """Read back what :meth:`to_dict` wrote (e.g. a line of ``qwirkle simulate``).

        Raises ValueError (TileError for bad names) on anything that does not fit the format.
        """
        try:
            moves = tuple(
                MoveRecord(
                    int(m["player"]), str(m["kind"]),
                    tuple(row_placed(p) for p in m["tiles"]),
                    int(m["score"]),
                )
                for m in data["moves"]
            )
            return cls(
                int(data["seed"]), int(data["players"]), tuple(int(s) for s in data["scores"]),
                str(data["end"]), moves,
            )
        except (KeyError, TypeError) as err:
            raise ValueError(f"not a game record: {err!r}") from err


def table_game(record: GameRecord, names: Sequence[str] | None = None) -> TableGame:
    """The simulated game as the table would record it (seats, scores, ending, sheet).

    Raises IllegalMove if the record is not a legal game, which makes this a check too
    (:func:`table_turns`).
    """
    *_, game = table_turns(record, names)
    return game.finish(record.moves[-1].player if record.end == "went_out" else None)


def table_turns(record: GameRecord, names: Sequence[str] | None = None) -> Iterator[TableGame]:
    """The simulated game on the table model: the table before its first turn, then after
    each turn, its seats the simulation's (the seat that played first plays turn 1).

    Raises IllegalMove for a turn the table refuses. A record read back from JSON has no
    exchange counts; the simulation always swaps its whole hand (or the whole bag if
    smaller), so such a count is ``min(6, bag size)``.
    """
    names = [f"Player {i + 1}" for i in range(record.players)] if names is None else names
    game = TableGame.new(names, record.moves[0].player if record.moves else 0)
    yield game
    for i, m in enumerate(record.moves):
        if m.kind == "place":
            turn: Turn = Place(m.tiles)
        elif m.kind == "exchange":
            turn = Exchange(m.count or min(HAND, game.bag_size))
        else:
            turn = Pass()
        try:
            game = game.play(turn)
        except IllegalMove as err:
            raise IllegalMove(Refusal(Illegal.BAD_TURN, turn=i, player=game.players[m.player],
                                      cause=err.refusal)) from None
        yield game


def largest_group(hand: Sequence[Tile]) -> int:
    """The most tiles of this hand that could form one line: sharing a colour or a shape,
    duplicates not counted (two equal tiles never share a line)."""
    distinct = set(hand)
    by_colour: dict[str, int] = {}
    by_shape: dict[str, int] = {}
    for t in distinct:
        by_colour[t.colour] = by_colour.get(t.colour, 0) + 1
        by_shape[t.shape] = by_shape.get(t.shape, 0) + 1
    return max([0, *by_colour.values(), *by_shape.values()])


def first_player(hands: Sequence[Sequence[Tile]], order: Sequence[int] | None = None) -> int:
    """The seat that starts: the largest group; among equals, the earliest in ``order``.

    ``order`` lists every seat once (the rulebook's "oldest player first", say); by default
    seats in order 0, 1, ...
    """
    seats = list(range(len(hands))) if order is None else list(order)
    if sorted(seats) != list(range(len(hands))):
        raise ValueError(f"order must list each of the {len(hands)} seats once, got {order!r}")
    return max(seats, key=lambda seat: (largest_group(hands[seat]), -seats.index(seat)))


def simulate(
    players: int, seed: int, strategy: str = "greedy", order: Sequence[int] | None = None
) -> GameRecord:
    """Play one complete game. The same arguments always give the same game.

    ``greedy`` plays the highest-scoring placement; ``random`` any legal placement. Both
    open with a largest group, as the rules require of the first player.

    >>> record = simulate(players=2, seed=1)
    >>> record == simulate(players=2, seed=1), record.end in ("went_out", "stalemate")
    (True, True)
    >>> table_game(record).totals == record.scores
    True
    """
    if type(players) is not int or not 2 <= players <= 6:
        raise ValueError(f"players must be 2 to 6, got {players!r}")
    if type(seed) is not int:
        raise ValueError(f"seed must be an integer, got {seed!r}")
    rng = random.Random(seed)
    bag = full_set()
    rng.shuffle(bag)
    hands = [[bag.pop() for _ in range(HAND)] for _ in range(players)]
    return play_out(Board(), hands, bag, first_player(hands, order), rng, strategy, seed)


def play_out(
    board: Board, hands: list[list[Tile]], bag: list[Tile], player: int,
    rng: random.Random, strategy: str = "greedy", seed: int = 0,
) -> GameRecord:
    """Play a game to its end from this position (``player`` to move); the lists are used
    up in place. :func:`simulate` deals and calls this; tests call it to set up endings."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    players = len(hands)
    scores = [0] * players
    moves: list[MoveRecord] = []
    idle = 0  # consecutive turns without a placement

    def record(end: str) -> GameRecord:
        return GameRecord(
            seed, players, tuple(scores), end, tuple(moves),
            tuple(tuple(h) for h in hands), tuple(bag),
        )

    while True:
        hand = hands[player]
        before = tuple(hand)
        choice = _choose(board, hand, strategy, rng)
        if choice is not None:
            score, move = choice
            board = board.with_tiles(move)
            for _, _, tile in move:
                hand.remove(tile)
            hand.extend(bag.pop() for _ in range(min(len(move), len(bag))))
            scores[player] += score
            moves.append(MoveRecord(player, "place", move, score, hand=before))
            idle = 0
            if not hand:
                scores[player] += QWIRKLE_BONUS
                return record("went_out")
        else:
            if bag:
                count = _exchange(hand, bag, rng)
                moves.append(MoveRecord(player, "exchange", (), 0, count, before))
            else:
                moves.append(MoveRecord(player, "pass", (), 0, hand=before))
            idle += 1
            unplaced = [*bag, *(t for h in hands for t in h)]
            if idle >= players and not _any_placeable(board, unplaced):
                return record("stalemate")
        player = (player + 1) % players


def _choose(
    board: Board, hand: list[Tile], strategy: str, rng: random.Random
) -> tuple[int, tuple[Placed, ...]] | None:
    """The placement this strategy plays, or None when the hand cannot place."""
    opening = len(board) == 0
    size = largest_group(hand)
    if strategy == "greedy":
        return best_move(board, hand, (lambda m: len(m) == size) if opening else None)
    moves = scored_moves(board, hand)
    if opening:
        moves = [m for m in moves if len(m[1]) == size]
    return rng.choice(moves) if moves else None


def _exchange(hand: list[Tile], bag: list[Tile], rng: random.Random) -> int:
    """Swap as much of the hand as the bag allows: draw first, then return and reshuffle.

    Returns how many tiles were swapped."""
    count = min(len(hand), len(bag))
    out = rng.sample(hand, count)
    for tile in out:
        hand.remove(tile)
    hand.extend(bag.pop() for _ in range(count))
    bag.extend(out)
    rng.shuffle(bag)
    return count


def _any_placeable(board: Board, tiles: list[Tile]) -> bool:
    """Whether any of these tiles fits anywhere on the board."""
    kinds = list(dict.fromkeys(tiles))
    return any(has_legal_move(board, kinds[i:i + HAND]) for i in range(0, len(kinds), HAND))
