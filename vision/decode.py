"""Decode a candidate move: the most probable labelling of the new tiles that the rules allow.

The classifier is right about 99.5 % of the time per tile, which is not enough for a score
sheet: one misread tile in a six-tile move is a wrong score. But a move must be legal (one
line, one shared attribute, no duplicates), and that constraint usually singles out the right
label among a tile's top few. So instead of trusting each tile's best label, this module
searches the joint labellings best-first and keeps the first one the engine accepts. Whatever
remains uncertain is flagged for a person with a reason they can act on.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from engine.board import Board, Cell, Placed
from engine.rules import check_move
from engine.tiles import Tile

OPTIONS_PER_TILE = 4
"""Labels tried per tile: the classifier's runner-ups beyond the fourth are noise."""

LABELLINGS_TRIED = 64
"""Joint labellings checked with the engine, best first; enough to see a rival legal one."""

MIN_LABEL_PROB = 0.1
"""A tile whose chosen label the classifier gave less than this is shown to a person."""

MIN_POSTERIOR = 0.9
"""The chosen labelling must hold this share of the probability of all legal ones seen."""

LEAVE_OUT_TILE_PROB = 0.999
"""Only a reading the classifier doubted is a tile at all (below this) may be left out of a
move to make it legal: tiles read 0.999 or more almost always, and a tile of a second move
merged into the first is as sure as any, so two merged moves stay "no legal reading"."""

MAX_MOVE_TILES = 6
"""A hand holds six tiles, so more new tiles than that cannot be one move."""


@dataclass(frozen=True)
class DetectedMove:
    """A move read from the table: what the tablet shows for one tap to confirm or fix.

    ``guesses`` holds the classifier's reading of each new tile, in the order of ``tiles``,
    so the Fix menu can offer the runner-up labels first. ``left_out`` are cells read as new
    tiles that the move leaves out, doubting they hold a tile (:func:`decode_move`).
    """

    tiles: tuple[Placed, ...]
    score: int | None
    needs_confirmation: bool
    reason: str
    at: str | float = ""
    guesses: tuple = field(default=(), repr=False)
    left_out: tuple[Cell, ...] = ()


def label_options(guess, limit: int = OPTIONS_PER_TILE) -> list[tuple[Tile, float]]:
    """The labels worth trying for one tile, most probable first, each with its probability."""
    options = [(guess.tile, float(guess.confidence))]
    for tile, p in guess.alternatives:
        if len(options) >= limit:
            break
        if tile != guess.tile and all(tile != t for t, _ in options):
            options.append((tile, float(p)))
    return options


def label_table(guess) -> dict[Tile, float]:
    """Every label the classifier gave this reading, with its probability."""
    return dict(label_options(guess, limit=len(guess.alternatives) + 1))


def label_prob(guess, tile: Tile) -> float:
    """The classifier's probability that this reading is ``tile`` (0 when not among its options)."""
    return label_table(guess).get(tile, 0.0)


def _best_first(options: Sequence[Sequence[tuple[Tile, float]]]) -> Iterator[tuple[int, ...]]:
    """Index vectors into ``options`` in order of falling joint probability.

    The classic k-best walk over a product: start from all-best and, from each popped vector,
    push the vectors that demote one tile by one rank. Log probabilities keep it stable.
    """
    def cost(idx: tuple[int, ...]) -> float:
        return -sum(math.log(max(options[i][j][1], 1e-12)) for i, j in enumerate(idx))

    start = (0,) * len(options)
    heap = [(cost(start), start)]
    seen = {start}
    while heap:
        _, idx = heapq.heappop(heap)
        yield idx
        for i in range(len(idx)):
            if idx[i] + 1 < len(options[i]):
                nxt = idx[:i] + (idx[i] + 1,) + idx[i + 1:]
                if nxt not in seen:
                    seen.add(nxt)
                    heapq.heappush(heap, (cost(nxt), nxt))


def _describe(tiles: Sequence[Placed]) -> str:
    return ", ".join(f"{tile} at ({x}, {y})" for x, y, tile in tiles)


def decode_move(board: Board, new: Sequence[tuple[Cell, object]],
                problems: Sequence[str] = ()) -> DetectedMove:
    """Label the new tiles ``new`` (cell, TileGuess) as the most probable legal move on ``board``.

    ``problems`` are what registration noticed about old tiles (moved, vanished, relabelled);
    any of them makes the move ambiguous, so it is flagged with them as the reason.

    When no labelling of all the new tiles is legal but one without a single tile is, that
    tile is most likely not a tile at all (the table seen through a hole between tiles, read
    as a square of its colour): the move is read without it, flagged, and the cell is given
    in ``left_out`` so that the caller keeps it off the board.
    """
    cells = [cell for cell, _ in new]
    guesses = tuple(guess for _, guess in new)
    options = [label_options(g) for g in guesses]
    top = tuple((x, y, opts[0][0]) for (x, y), opts in zip(cells, options, strict=True))
    reasons = list(problems)
    if len(new) > MAX_MOVE_TILES:
        reasons.append(f"{len(new)} new tiles: more than one move? ({_describe(top)})")
        return DetectedMove(top, None, True, "; ".join(reasons), guesses=guesses)

    legal, first_reason = _legal_readings(board, cells, options)
    if not legal:
        spared = _without_one(board, cells, guesses, options)
        if spared is None:
            reasons.append(f"no reading of the new tiles is a legal move ({first_reason}); "
                           f"read as {_describe(top)}")
            return DetectedMove(top, None, True, "; ".join(reasons), guesses=guesses)
        out, legal = spared
        x, y, tile = top[out]
        reasons.append(f"{tile} at ({x}, {y}) left out: the move is legal only without it")
        cells, options = cells[:out] + cells[out + 1:], options[:out] + options[out + 1:]
        guesses = guesses[:out] + guesses[out + 1:]
        left_out: tuple[Cell, ...] = ((x, y),)
    else:
        left_out = ()

    prob, move, score, idx = legal[0]
    total = sum(p for p, *_ in legal)
    if prob < MIN_POSTERIOR * total:
        rival = legal[1][1]
        changed = [f"({x}, {y}) {tile} or {other}" for (x, y, tile), (_, _, other)
                   in zip(move, rival, strict=True) if tile != other]
        reasons.append(f"unsure which reading is right: {', '.join(changed)}")
    for i, j in enumerate(idx):
        tile, p = options[i][j]
        if p < MIN_LABEL_PROB:
            x, y = cells[i]
            reasons.append(f"tile at ({x}, {y}) read as {options[i][0][0]} "
                           f"but only {tile} makes the move legal")
    return DetectedMove(move, score, bool(reasons), "; ".join(reasons), guesses=guesses,
                        left_out=left_out)


Reading = tuple[float, tuple[Placed, ...], int, tuple[int, ...]]
"""A legal labelling: its probability, the move, its score, each tile's option index."""


def _legal_readings(board: Board, cells: Sequence[Cell],
                    options: Sequence[Sequence[tuple[Tile, float]]]) -> tuple[list[Reading], str]:
    """The legal labellings among the most probable few, best first, and why the best is not."""
    legal: list[Reading] = []
    first_reason = ""
    for n, idx in enumerate(_best_first(options)):
        if n >= LABELLINGS_TRIED:
            break
        move = tuple((x, y, options[i][j][0]) for i, ((x, y), j) in enumerate(zip(cells, idx,
                                                                                  strict=True)))
        verdict = check_move(board, move)
        if n == 0:
            first_reason = verdict.reason
        if verdict.score is not None:  # legal
            prob = float(math.prod(options[i][j][1] for i, j in enumerate(idx)))
            legal.append((prob, move, verdict.score, idx))
    return legal, first_reason


def _without_one(board: Board, cells: Sequence[Cell], guesses: Sequence,
                 options: Sequence[Sequence[tuple[Tile, float]]]
                 ) -> tuple[int, list[Reading]] | None:
    """The tile to leave out for a legal move, and that move's readings; None if none will do.

    Only tiles the classifier doubted (:data:`LEAVE_OUT_TILE_PROB`) are candidates, each
    weighed by that doubt times the best legal reading of the others.
    """
    if len(cells) < 2:
        return None
    best: tuple[float, int, list[Reading]] | None = None
    for out in range(len(cells)):
        if guesses[out].tile_prob >= LEAVE_OUT_TILE_PROB:
            continue
        legal, _ = _legal_readings(board, [*cells[:out], *cells[out + 1:]],
                                   [*options[:out], *options[out + 1:]])
        if not legal:
            continue
        weight = legal[0][0] * (1.0 - float(guesses[out].tile_prob))
        if best is None or weight > best[0]:
            best = (weight, out, legal)
    return None if best is None else (best[1], best[2])
