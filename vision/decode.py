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
from itertools import combinations

from engine.board import SIDES, Board, Cell, Placed
from engine.refusals import Refusal
from engine.rules import check_move
from engine.tiles import Tile
from vision.doubts import Doubt, DoubtKind, SplitOrder, describe

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

SPLIT_MAX_TILES = 18
"""More new tiles than this in one position are not split into moves: three full turns."""

SPLIT_CHECKS = 3000
"""Candidate parts checked with the engine before a split is given up as too costly."""

SPLIT_LABELLINGS = 16
"""Joint labellings tried per candidate part (a whole move's decoding tries more)."""

ORDER_SLACK = 0.5
"""Seconds by which a tile of an earlier part may have appeared after one of a later part:
the hand that lays a move covers its tiles a moment before they can be seen, and a reach
takes a second or more, so two turns' tiles appear further apart than this."""


@dataclass(frozen=True)
class DetectedMove:
    """A move read from the table: what the tablet shows for one tap to confirm or fix.

    ``guesses`` holds the classifier's reading of each new tile, in the order of ``tiles``,
    so the Fix menu can offer the runner-up labels first. ``left_out`` are cells read as new
    tiles that the move leaves out, doubting they hold a tile (:func:`decode_move`).
    A move with no tiles carries a note about the table, or ``withdrawn`` cells.
    ``split`` marks one of several moves read from one position.
    """

    tiles: tuple[Placed, ...]
    score: int | None
    needs_confirmation: bool
    doubts: tuple[Doubt, ...] = ()
    at: str | float = ""
    guesses: tuple = field(default=(), repr=False)
    left_out: tuple[Cell, ...] = ()
    withdrawn: tuple[Cell, ...] = ()
    """Cells of moves not yet confirmed whose tiles were taken back off the table."""
    reoffered: bool = False
    """Tiles the camera still sees that the game no longer holds (after an undo, a removed
    turn, a new game over tiles): offered again, ahead of anything later."""
    split: tuple[int, int] | None = None
    """(part, of), 1-based, when this move is one of several read from one still picture
    (:func:`split_moves`): two or more turns came between the camera's still pictures."""
    start: bool = False
    """The board game's start (:mod:`engine.boardgame`): the tiles laid out before the first
    turn, no player's move; later moves score its bonus squares."""

    @property
    def reason(self) -> str:
        """The doubts in English (``qwirkle replay``, logs)."""
        return describe(self.doubts)


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


def _rivals(move: Sequence[Placed], rival: Sequence[Placed]) -> tuple[tuple[Placed, Placed], ...]:
    """The tiles two readings label differently, as (this, that) pairs."""
    return tuple((a, b) for a, b in zip(move, rival, strict=True) if a != b)


def decode_move(board: Board, new: Sequence[tuple[Cell, object]],
                problems: Sequence[Doubt] = ()) -> DetectedMove:
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
        reasons.append(Doubt(DoubtKind.TOO_MANY, count=len(new)))
        return DetectedMove(top, None, True, tuple(reasons), guesses=guesses)

    legal, first_reason = _legal_readings(board, cells, options)
    if not legal:
        spared = _without_one(board, cells, guesses, options)
        if spared is None:
            reasons.append(Doubt(DoubtKind.NO_LEGAL_READING, refusal=first_reason))
            return DetectedMove(top, None, True, tuple(reasons), guesses=guesses)
        out, legal = spared
        x, y, tile = top[out]
        reasons.append(Doubt(DoubtKind.LEFT_OUT, cell=(x, y), tile=tile))
        cells, options = cells[:out] + cells[out + 1:], options[:out] + options[out + 1:]
        guesses = guesses[:out] + guesses[out + 1:]
        left_out: tuple[Cell, ...] = ((x, y),)
    else:
        left_out = ()

    prob, move, score, idx = legal[0]
    total = sum(p for p, *_ in legal)
    if prob < MIN_POSTERIOR * total:
        reasons.append(Doubt(DoubtKind.AMBIGUOUS, choices=_rivals(move, legal[1][1])))
    for i, j in enumerate(idx):
        tile, p = options[i][j]
        if p < MIN_LABEL_PROB:
            reasons.append(Doubt(DoubtKind.ONLY_LEGAL_AS, cell=cells[i], tile=options[i][0][0],
                                 other=tile))
    return DetectedMove(move, score, bool(reasons), tuple(reasons), guesses=guesses,
                        left_out=left_out)


Reading = tuple[float, tuple[Placed, ...], int, tuple[int, ...]]
"""A legal labelling: its probability, the move, its score, each tile's option index."""


def _legal_readings(board: Board, cells: Sequence[Cell],
                    options: Sequence[Sequence[tuple[Tile, float]]],
                    tried: int = LABELLINGS_TRIED) -> tuple[list[Reading], Refusal | None]:
    """The legal labellings among the most probable few, best first, and why the best is not."""
    legal: list[Reading] = []
    first_reason: Refusal | None = None
    for n, idx in enumerate(_best_first(options)):
        if n >= tried:
            break
        move = tuple((x, y, options[i][j][0]) for i, ((x, y), j) in enumerate(zip(cells, idx,
                                                                                  strict=True)))
        verdict = check_move(board, move)
        if n == 0:
            first_reason = verdict.refusal
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


def split_moves(board: Board, new: Sequence[tuple[Cell, object]],
                appeared: Sequence[float | None] = (),
                problems: Sequence[Doubt] = ()) -> list[DetectedMove] | None:
    """Split new tiles that are no legal move into consecutive legal moves, or None.

    When two or more turns pass between still pictures (a missed pause, a camera outage),
    their tiles come as one position. Each part must be a legal move on the board the parts
    before it leave, and each is a separate turn. ``appeared`` gives, per new tile, when it
    appeared (None: not known); the split preferred is the one that contradicts that order
    least, then the one with the fewest parts, then the one that parts the fewest new tiles
    lying side by side (a player lays a turn's tiles together: two turns made in a camera
    outage, one a single tile at the line's far end, are otherwise as likely read with that
    tile and a neighbour of the other turn's), then the one that scores more in all, then the
    most probable labels. Every part is flagged for a person: the camera did not see where
    one turn ended.

    Players take the points a board offers, and a turn laid against the tiles of the turn
    before scores for them. So of two ways to part the tiles, or two orders of the same parts,
    the one that scores more is likelier. Over 30 games of the simulation's greedy players,
    each pair of consecutive turns merged into one picture (`python -m
    vision.evaluate.splits`), the split parted the tiles otherwise than the turns were
    played 28 times in 1,478, and 106 before the parting took the score into account
    (session 45); with players who lay any legal move (``--strategy random``) 72 times in
    1,846, 87 before. Of 65 pairs of turns legal in either order that scored differently in
    the two (seeds 100-159), the order played scored more in 59. Pairs that score alike give
    the camera nothing to go by: the order played comes first about half the time.
    """
    cells = [cell for cell, _ in new]
    if len(cells) < 2 or len(cells) > SPLIT_MAX_TILES:
        return None
    options = [label_options(g) for _, g in new]
    times = list(appeared) + [None] * (len(cells) - len(appeared))
    index = {cell: i for i, cell in enumerate(cells)}
    beside = [[index[(x + dx, y + dy)] for dx, dy in SIDES if (x + dx, y + dy) in index]
              for x, y in cells]
    budget = [SPLIT_CHECKS]
    memo: dict[frozenset[int], tuple | None] = {}

    def best(remaining: frozenset[int], on: Board) -> tuple | None:
        """(cost, parts) of the best split of ``remaining`` on ``on``; parts are readings."""
        if not remaining:
            return (0, 0, 0, 0, 0.0), ()
        if remaining in memo:
            return memo[remaining]
        found = None
        for part in _line_parts(on, cells, remaining):
            if budget[0] <= 0:
                break
            budget[0] -= 1
            legal, _ = _legal_readings(on, [cells[i] for i in part], [options[i] for i in part],
                                       SPLIT_LABELLINGS)
            if not legal:
                continue
            rest = remaining - set(part)
            after = best(rest, on.with_tiles(legal[0][1]))
            if after is None:
                continue
            late = sum(1 for i in part for j in rest
                       if (ti := times[i]) is not None and (tj := times[j]) is not None
                       and ti > tj + ORDER_SLACK)
            parted = sum(1 for i in part for j in beside[i] if j in rest)
            cost = (after[0][0] + late, after[0][1] + 1, after[0][2] + parted,
                    after[0][3] - legal[0][2], after[0][4] - math.log(legal[0][0]))
            if found is None or cost < found[0]:
                found = (cost, ((part, legal), *after[1]))
        memo[remaining] = found
        return found

    result = best(frozenset(range(len(cells))), board)
    if result is None or len(result[1]) < 2:
        return None
    (late, count, *_), parts = result
    # the order is seen only where the times of two parts' tiles came apart: tiles of one
    # part may appear a while apart, and say nothing of a part whose times are not known
    spans = [[t for i in part if (t := times[i]) is not None] for part, _ in parts]
    known = [span for span in spans if span]
    ordered = len(known) > 1 and (max(max(span) for span in known)
                                  - min(min(span) for span in known)) > ORDER_SLACK
    order = (SplitOrder.SEEN if ordered and not late
             else SplitOrder.AGAINST if ordered
             else SplitOrder.UNKNOWN_EITHER
             if _legal_in_turn(board, [legal[0][1] for _, legal in reversed(parts)])
             else SplitOrder.UNKNOWN)
    moves = []
    for k, (part, legal) in enumerate(parts, 1):
        reasons = [Doubt(DoubtKind.SPLIT, count=k, of=count, order=order), *problems]
        prob, tiles, score, idx = legal[0]
        total = sum(p for p, *_ in legal)
        if prob < MIN_POSTERIOR * total:
            reasons.append(Doubt(DoubtKind.AMBIGUOUS, choices=_rivals(tiles, legal[1][1])))
        for i, j in zip(part, idx, strict=True):
            if options[i][j][1] < MIN_LABEL_PROB:
                reasons.append(Doubt(DoubtKind.ONLY_LEGAL_AS, cell=cells[i],
                                     tile=options[i][0][0], other=options[i][j][0]))
        moves.append(DetectedMove(tiles, score, True, tuple(reasons),
                                  guesses=tuple(new[i][1] for i in part), split=(k, count)))
    return moves


def _legal_in_turn(board: Board, moves: Sequence[Sequence[Placed]]) -> bool:
    """Whether the moves, made one after another from ``board``, are each legal."""
    for move in moves:
        if not check_move(board, move).legal:
            return False
        board = board.with_tiles(move)
    return True


def _line_parts(board: Board, cells: Sequence[Cell],
                remaining: frozenset[int]) -> Iterator[tuple[int, ...]]:
    """Index sets of ``remaining`` tiles that could form one move, by their cells alone.

    A move lies in one row or column, is one unbroken run with the tiles already there, and
    touches them (or, on an empty table, is the whole first move). Larger parts come first.
    """
    lines: dict[tuple[str, int], list[int]] = {}
    for i in sorted(remaining):
        x, y = cells[i]
        lines.setdefault(("row", y), []).append(i)
        lines.setdefault(("col", x), []).append(i)
    seen: set[tuple[int, ...]] = set()
    for size in range(min(MAX_MOVE_TILES, len(remaining)), 0, -1):
        for members in lines.values():
            for part in combinations(members, size):
                if part in seen:
                    continue
                seen.add(part)
                placed = [cells[i] for i in part]
                if _unbroken(board, placed):
                    yield part


def _unbroken(board: Board, placed: Sequence[Cell]) -> bool:
    """Whether cells in one line, with the board's tiles, form a gapless run touching them."""
    taken = set(placed)
    xs = {x for x, _ in placed}
    ys = {y for _, y in placed}
    if len(xs) > 1 and len(ys) > 1:
        return False
    lo, hi = min(placed), max(placed)
    step = (1, 0) if len(ys) == 1 and len(xs) > 1 else (0, 1)
    cell = lo
    while cell != hi:
        cell = (cell[0] + step[0], cell[1] + step[1])
        if cell not in taken and cell not in board:
            return False
    if not len(board):
        return True
    return any((x + dx, y + dy) in board for x, y in placed
               for dx, dy in SIDES)
