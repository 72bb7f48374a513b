"""Validation and scoring of one placement, and the refusal (a code, its cells) when it fails.

This module is the reference for the rules: it checks a move the plain way, one rule after
another, so that its answers can be trusted and its reasons are precise. The move generator
(:mod:`engine.movegen`) is written for speed instead and is tested against this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.board import SIDES, Board, Cell, Placed, check_placed
from engine.refusals import Illegal, Refusal, english, line_place
from engine.refusals import IllegalMove as IllegalMove  # re-exported: the rules raise it
from engine.tiles import Tile

MAX_LINE = 6
"""A line holds at most one tile of each shape (or colour), so at most six tiles."""

QWIRKLE_BONUS = 6
"""Points added for completing a line of six, and for going out first at the end."""

_STEPS = ((1, 0), (0, 1))


@dataclass(frozen=True, slots=True)
class Line:
    """A maximal run of tiles in a row or column, in order, as it stands after a move."""

    cells: tuple[Cell, ...]
    tiles: tuple[Tile, ...]

    @property
    def points(self) -> int:
        """A point per tile, and six more for a Qwirkle (a line of six).

        >>> from engine.tiles import SHAPES
        >>> reds = tuple(Tile("red", shape) for shape in SHAPES)
        >>> Line(tuple((x, 0) for x in range(6)), reds).points
        12
        """
        return len(self.cells) + (QWIRKLE_BONUS if len(self.cells) == MAX_LINE else 0)

    @property
    def is_qwirkle(self) -> bool:
        return len(self.cells) == MAX_LINE

    def describe(self) -> str:
        """Where the line lies, e.g. ``row y=2 from x=-1 to x=3``."""
        return line_place(self.cells)


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """The verdict on a placement: legal with its score and scoring lines, or the refusal."""

    legal: bool
    score: int | None
    refusal: Refusal | None = None
    lines: tuple[Line, ...] = ()

    @property
    def qwirkles(self) -> int:
        return sum(line.is_qwirkle for line in self.lines)

    @property
    def reason(self) -> str:
        """Why the move is illegal, in English; "" when it is legal."""
        return english(self.refusal) if self.refusal is not None else ""


def _illegal(code: Illegal, cells: Sequence[Cell] = (), tiles: Sequence[Tile] = ()) -> MoveCheck:
    return MoveCheck(False, None, Refusal(code, cells=tuple(cells), tiles=tuple(tiles)))


def line_fault(line: Line) -> Refusal | None:
    """Why this run of tiles cannot stand as a line, or None if it can.

    Distinct tiles that all share a colour necessarily have distinct shapes (and vice
    versa), so "no duplicate, and one common attribute" is the whole rule.
    """
    tiles = line.tiles
    if len(tiles) > MAX_LINE:
        return Refusal(Illegal.LINE_TOO_LONG, cells=line.cells, count=len(tiles), most=MAX_LINE)
    seen: set[Tile] = set()
    for tile in tiles:
        if tile in seen:
            return Refusal(Illegal.DUPLICATE_IN_LINE, cells=line.cells, tiles=(tile,))
        seen.add(tile)
    first = tiles[0]
    if all(t.colour == first.colour for t in tiles) or all(t.shape == first.shape for t in tiles):
        return None
    return Refusal(Illegal.MIXED_LINE, cells=line.cells, tiles=tiles)


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

    Rule violations come back as ``legal=False`` with a refusal; a malformed call (not a
    Board, items that are not ``(x, y, Tile)``) raises TypeError, because that is a bug in
    the caller, not a move a player made.

    A tile that extends a row and starts a column scores both lines:

    >>> board = Board.from_placed([(0, 0, Tile("red", "star")), (1, 1, Tile("blue", "circle"))])
    >>> check = check_move(board, [(1, 0, Tile("red", "circle"))])
    >>> check.legal, check.score, [line.describe() for line in check.lines]
    (True, 4, ['row y=0 from x=0 to x=1', 'column x=1 from y=0 to y=1'])

    An illegal one says why, as a code with its details:

    >>> check = check_move(board, [(1, 0, Tile("green", "square"))])
    >>> check.legal, check.refusal.code, check.refusal.cells
    (False, <Illegal.MIXED_LINE: 'mixed_line'>, ((0, 0), (1, 0)))
    >>> print(check.reason)
    row y=0 from x=0 to x=1 would mix colours and shapes: red star, green square
    """
    if not isinstance(board, Board):
        raise TypeError(f"board must be a Board, got {type(board).__name__}")
    if isinstance(move, str | bytes) or not hasattr(move, "__iter__"):
        raise TypeError(f"move must be a sequence of (x, y, Tile), got {move!r}")
    items = [check_placed(item, f"move tile {i + 1}") for i, item in enumerate(move)]
    if not items:
        return _illegal(Illegal.NO_TILES)

    at: dict[Cell, Tile] = {}
    for x, y, tile in items:
        if (x, y) in at:
            return _illegal(Illegal.CELL_TWICE, [(x, y)])
        held = board.get((x, y))
        if held is not None:
            return _illegal(Illegal.CELL_OCCUPIED, [(x, y)], [held])
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
        return _illegal(Illegal.NOT_ONE_LINE, list(at))
    for cell in span:
        if cell not in at and cell not in board:
            return _illegal(Illegal.GAP, [cell])

    if len(board) and not any(
        (x + dx, y + dy) in board for x, y in at for dx, dy in SIDES
    ):
        return _illegal(Illegal.NOT_TOUCHING, list(at))

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
        fault = line_fault(line)
        if fault is not None:
            return MoveCheck(False, None, fault)
        lines.append(line)
    score = sum(line.points for line in lines) if lines else 1
    return MoveCheck(True, score, None, tuple(lines))


def apply_move(board: Board, move: Sequence[Placed]) -> tuple[Board, MoveCheck]:
    """The board after a legal move, with its check; IllegalMove (the refusal) otherwise."""
    check = check_move(board, move)
    if check.refusal is not None:
        raise IllegalMove(check.refusal)
    return board.with_tiles(move), check
