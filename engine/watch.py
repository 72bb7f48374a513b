"""The Qwirkle watch: every line of five on the table that one more tile would make a Qwirkle.

Good players keep this in their heads: a line of five is worth 12 points to whoever holds its
missing tile, and once all three copies of that tile are on the table the line is dead. It is
public information (the board and the tiles not yet seen), so the table view may show it.

A line of five has exactly one completing tile: five distinct tiles sharing a colour miss one
shape of that colour (and the other way round). The tile completes the line only where the
rules let it lie at one of the line's two ends, so each end is checked with the rules module
(a cross line through that cell may forbid it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.board import Board, Cell
from engine.rules import MAX_LINE, check_move
from engine.tiles import SHAPES, Tile

WATCHED = MAX_LINE - 1
"""The length of a line one tile short of a Qwirkle."""


@dataclass(frozen=True, slots=True)
class Watch:
    """One line of five and the tile that would complete it."""

    cells: tuple[Cell, ...]
    """The line's five cells, in order."""
    tile: Tile
    """The only tile that completes the line."""
    ends: tuple[Cell, ...]
    """The end cells where that tile may legally go (one or two)."""
    unseen: int
    """Copies of that tile not yet on the table (in the bag or in hands)."""

    @property
    def dead(self) -> bool:
        """No copy is left: this line can never become a Qwirkle."""
        return self.unseen == 0


def _runs(board: Board) -> list[tuple[Cell, ...]]:
    """Every maximal run of tiles in a row or a column, in order."""
    runs = []
    for step in ((1, 0), (0, 1)):
        dx, dy = step
        for x, y in board:
            if (x - dx, y - dy) in board:
                continue  # not the start of a run
            cells = [(x, y)]
            while (cells[-1][0] + dx, cells[-1][1] + dy) in board:
                cells.append((cells[-1][0] + dx, cells[-1][1] + dy))
            runs.append(tuple(cells))
    return runs


def completing_tile(tiles: tuple[Tile, ...], colours: tuple[str, ...]) -> Tile | None:
    """The tile that turns these five into a full line of six, or None if they are not five
    different tiles of one colour (or of one shape). ``colours`` are the set's six colours:
    a one-shape line lacks the one of them it does not hold."""
    if len(tiles) != WATCHED or len(set(tiles)) != WATCHED:
        return None
    shapes = {t.shape for t in tiles}
    if len({t.colour for t in tiles}) == 1:
        free = [s for s in SHAPES if s not in shapes]
        return Tile(tiles[0].colour, free[0])
    if len(shapes) == 1:
        free = [c for c in colours if c not in {t.colour for t in tiles}]
        return Tile(free[0], tiles[0].shape) if len(free) == 1 else None
    return None


def qwirkle_watch(board: Board, unseen: Mapping[Tile, int],
                  colours: tuple[str, ...]) -> list[Watch]:
    """Every line of five that a single tile could legally complete, with that tile's unseen
    copies; sorted so the live lines come first, then by position."""
    watches = []
    for cells in _runs(board):
        if len(cells) != WATCHED:
            continue
        tile = completing_tile(tuple(t for c in cells if (t := board.get(c)) is not None),
                               colours)
        if tile is None:
            continue
        (x0, y0), (x1, y1) = cells[0], cells[-1]
        dx, dy = (1, 0) if y0 == y1 else (0, 1)
        ends = tuple(end for end in ((x0 - dx, y0 - dy), (x1 + dx, y1 + dy))
                     if check_move(board, [(end[0], end[1], tile)]).legal)
        if ends:
            watches.append(Watch(cells, tile, ends, unseen.get(tile, 0)))
    return sorted(watches, key=lambda w: (w.dead, w.cells))
