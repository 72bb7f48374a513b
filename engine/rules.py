"""Validation and scoring of one placement, with a reason a player can read when it fails.

This module is the reference for the rules: it checks a move the plain way, one rule after
another, so that its answers can be trusted and its reasons are precise. The move generator
(:mod:`engine.movegen`) is written for speed instead and is tested against this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.board import Board, Cell, Placed, check_placed
from engine.tiles import Tile

MAX_LINE = 6
"""A line holds at most one tile of each shape (or colour), so at most six tiles."""

QWIRKLE_BONUS = 6
"""Points added for completing a line of six, and for going out first at the end."""

_STEPS = ((1, 0), (0, 1))
_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


class IllegalMove(ValueError):
    """A turn that breaks the rules; the message is the reason, fit to show a player."""


@dataclass(frozen=True, slots=True)
class Line:
    """A maximal run of tiles in a row or column, in order, as it stands after a move."""

    cells: tuple[Cell, ...]
    tiles: tuple[Tile, ...]

    @property
    def points(self) -> int:
        return len(self.cells) + (QWIRKLE_BONUS if len(self.cells) == MAX_LINE else 0)

    @property
    def is_qwirkle(self) -> bool:
        return len(self.cells) == MAX_LINE

    def describe(self) -> str:
        """Where the line lies, e.g. ``row y=2 from x=-1 to x=3``."""
        (x0, y0), (x1, y1) = self.cells[0], self.cells[-1]
        if y0 == y1:
            return f"row y={y0} from x={x0} to x={x1}"
        return f"column x={x0} from y={y0} to y={y1}"


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """The verdict on a placement: legal with its score and scoring lines, or a reason."""

    legal: bool
    score: int | None
    reason: str
    lines: tuple[Line, ...] = ()

    @property
    def qwirkles(self) -> int:
        return sum(line.is_qwirkle for line in self.lines)


def _illegal(reason: str) -> MoveCheck:
    return MoveCheck(False, None, reason)


def line_fault(tiles: Sequence[Tile]) -> str:
    """Why this run of tiles cannot stand as a line, or "" if it can.

    Distinct tiles that all share a colour necessarily have distinct shapes (and vice
    versa), so "no duplicate, and one common attribute" is the whole rule.
    """
    if len(tiles) > MAX_LINE:
        return f"would be {len(tiles)} tiles long; a line holds at most {MAX_LINE}"
    seen: set[Tile] = set()
    for tile in tiles:
        if tile in seen:
            return f"would hold {tile} twice"
        seen.add(tile)
    first = tiles[0]
    if all(t.colour == first.colour for t in tiles) or all(t.shape == first.shape for t in tiles):
        return ""
    return "would mix colours and shapes: " + ", ".join(str(t) for t in tiles)


def _line_through(cell: Cell, step: Cell, at: dict[Cell, Tile], board: Board) -> Line:
    """The maximal run through ``cell`` along ``step``, reading placed tiles then the board."""
    dx, dy = step
    x, y = cell

    def occupied(c: Cell) -> bool:
        return c in at or c in board

    while occupied((x - dx, y - dy)):
        x, y = x - dx, y - dy
    cells = []
    while occupied((x, y)):
        cells.append((x, y))
        x, y = x + dx, y + dy
    tiles = tuple(at[c] if c in at else board.get(c) for c in cells)
    return Line(tuple(cells), tiles)  # type: ignore[arg-type]  # every cell is occupied


def check_move(board: Board, move: Sequence[Placed]) -> MoveCheck:
    """Check a placement against the rules and score it.

    Rule violations come back as ``legal=False`` with a reason; a malformed call (not a
    Board, items that are not ``(x, y, Tile)``) raises TypeError, because that is a bug in
    the caller, not a move a player made.
    """
    if not isinstance(board, Board):
        raise TypeError(f"board must be a Board, got {type(board).__name__}")
    if isinstance(move, str | bytes) or not hasattr(move, "__iter__"):
        raise TypeError(f"move must be a sequence of (x, y, Tile), got {move!r}")
    items = [check_placed(item, f"move tile {i + 1}") for i, item in enumerate(move)]
    if not items:
        return _illegal("the move places no tiles")

    at: dict[Cell, Tile] = {}
    for x, y, tile in items:
        if (x, y) in at:
            return _illegal(f"cell ({x}, {y}) is used twice in the move")
        if (x, y) in board:
            return _illegal(f"cell ({x}, {y}) already holds {board.get((x, y))}")
        at[x, y] = tile

    xs = {x for x, _, _ in items}
    ys = {y for _, y, _ in items}
    if len(ys) == 1:
        main = (1, 0)
        (y,) = ys
        span = [(x, y) for x in range(min(xs), max(xs) + 1)]
    elif len(xs) == 1:
        main = (0, 1)
        (x,) = xs
        span = [(x, y) for y in range(min(ys), max(ys) + 1)]
    else:
        return _illegal("the placed tiles are not all in one row or one column")
    for cell in span:
        if cell not in at and cell not in board:
            return _illegal(f"the placed tiles leave a gap at ({cell[0]}, {cell[1]})")

    if len(board) and not any(
        (x + dx, y + dy) in board for x, y in at for dx, dy in _NEIGHBOURS
    ):
        return _illegal("no placed tile touches a tile already on the board")

    # The main line once; the crossing line of each placed tile. A lone tile has two
    # "crossing" lines, one per direction, which this covers because both steps are tried.
    candidates = [_line_through(span[0], main, at, board)]
    for cell in at:
        for step in _STEPS:
            if step != main or len(at) == 1:
                candidates.append(_line_through(cell, step, at, board))
    lines: list[Line] = []
    for line in candidates:
        if len(line.cells) < 2 or line in lines:
            continue
        fault = line_fault(line.tiles)
        if fault:
            return _illegal(f"{line.describe()} {fault}")
        lines.append(line)
    score = sum(line.points for line in lines) if lines else 1
    return MoveCheck(True, score, "", tuple(lines))


def apply_move(board: Board, move: Sequence[Placed]) -> tuple[Board, MoveCheck]:
    """The board after a legal move, with its check; IllegalMove (the reason) otherwise."""
    check = check_move(board, move)
    if not check.legal:
        raise IllegalMove(check.reason)
    return board.with_tiles(move), check
