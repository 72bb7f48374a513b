"""The board: a sparse grid of tiles with no fixed origin or size.

Cells are ``(x, y)`` with x to the right and y down, the way the camera sees the table. The
board is immutable so that a game's history can keep every intermediate board cheaply and a
correction can never corrupt a board someone else still holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.tiles import Tile

Cell = tuple[int, int]
SIDES: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
"""Steps from a cell to the four that share a side with it."""
Placed = tuple[int, int, Tile]
Row = list[int | str]
"""A placed tile in the command line's JSON Lines: ``[x, y, colour, shape]``."""



def reached(start: Iterable[Cell], cells: Iterable[Cell], step: int) -> set[Cell]:
    """The cells of ``cells`` reached from ``start`` in hops of at most ``step`` cells
    across or down (diagonals count as one), each hop from a cell already reached.

    >>> sorted(reached([(0, 0)], [(2, 2), (4, 0), (9, 9)], step=2))
    [(2, 2), (4, 0)]
    """
    found: set[Cell] = set()
    frontier, todo = list(start), set(cells)
    while frontier and todo:
        hop = {c for c in todo
               if any(max(abs(c[0] - a[0]), abs(c[1] - a[1])) <= step for a in frontier)}
        todo -= hop
        found |= hop
        frontier = list(hop)
    return found

def check_placed(item: object, what: str = "tile") -> Placed:
    """Return ``item`` as a Placed, or raise TypeError saying what is wrong with it.

    Every public entry point checks its input here so that a wrong call fails with a message
    naming the bad item instead of an obscure error deep inside the rules.
    """
    if not isinstance(item, tuple | list) or len(item) != 3:
        raise TypeError(f"{what} must be (x, y, Tile), got {item!r}")
    x, y, tile = item
    if type(x) is not int or type(y) is not int:
        raise TypeError(f"{what} must have integer x and y, got {item!r}")
    if not isinstance(tile, Tile):
        raise TypeError(f"{what} must hold a Tile, got {tile!r}")
    return (x, y, tile)


def placed_row(placed: Placed) -> Row:
    """The compact JSON form of a placed tile, one line per game or move on the command line.

    >>> placed_row((2, -1, Tile("red", "star")))
    [2, -1, 'red', 'star']
    """
    x, y, tile = placed
    return [x, y, tile.colour, tile.shape]


def row_placed(item: object) -> Placed:
    """Read :func:`placed_row`'s form back (names loosely written, as ``Tile.parse`` takes them).

    Raises ValueError saying what is wrong with the item, TileError for an unknown name.

    >>> row_placed([2, -1, "Red", "star"])
    (2, -1, Tile(colour='red', shape='star'))
    """
    if not isinstance(item, list | tuple) or len(item) != 4:
        raise ValueError("must be [x, y, colour, shape]")
    x, y, colour, shape = item
    if type(x) is not int or type(y) is not int:
        raise ValueError("needs integer x and y")
    return (x, y, Tile.parse(colour, shape))


class Board:
    """An immutable mapping from cells to tiles.

    >>> board = Board.from_placed([(0, 0, Tile("red", "star")), (1, 0, Tile("red", "circle"))])
    >>> board.get((1, 0)), (5, 5) in board, len(board)
    (Tile(colour='red', shape='circle'), False, 2)
    >>> print(board.with_tiles([(1, 1, Tile("blue", "circle"))]).to_text())
    RSt RCi
     .  BCi
    """

    __slots__ = ("_cells",)

    def __init__(self, cells: dict[Cell, Tile] | None = None) -> None:
        # Callers outside the engine use from_placed; the dict is never shared or mutated.
        self._cells: dict[Cell, Tile] = cells if cells is not None else {}

    @classmethod
    def from_placed(cls, placed: Iterable[Placed]) -> Board:
        """Build a board; two tiles on one cell is an error (ValueError)."""
        return cls().with_tiles(placed)

    def with_tiles(self, placed: Iterable[Placed]) -> Board:
        """A new board with these tiles added; this board is unchanged.

        Raises ValueError if a cell is already occupied or given twice: a board never
        silently overwrites a tile.
        """
        cells = dict(self._cells)
        for item in placed:
            x, y, tile = check_placed(item)
            if (x, y) in cells:
                raise ValueError(f"cell ({x}, {y}) already holds {cells[x, y]}")
            cells[x, y] = tile
        return Board(cells)

    def get(self, cell: Cell) -> Tile | None:
        return self._cells.get(cell)

    def __contains__(self, cell: object) -> bool:
        return cell in self._cells

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._cells)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._cells == other._cells

    __hash__ = None  # type: ignore[assignment]  # equal boards compare by content

    def __repr__(self) -> str:
        return f"Board.from_placed({self.placed()!r})"

    def placed(self) -> list[Placed]:
        """All tiles as ``(x, y, tile)``, sorted as tuples (by x, then y)."""
        return sorted((x, y, t) for (x, y), t in self._cells.items())

    def bounds(self) -> tuple[int, int, int, int] | None:
        """``(min_x, min_y, max_x, max_y)`` of the occupied cells, or None when empty."""
        if not self._cells:
            return None
        xs = [x for x, _ in self._cells]
        ys = [y for _, y in self._cells]
        return min(xs), min(ys), max(xs), max(ys)

    def to_text(self) -> str:
        """A grid of tile codes (``RSt``), ``.`` for empty cells: for logs and test failures."""
        box = self.bounds()
        if box is None:
            return "(empty board)"
        x0, y0, x1, y1 = box
        rows = []
        for y in range(y0, y1 + 1):
            codes = (self._cells[x, y].code if (x, y) in self._cells else " . "
                     for x in range(x0, x1 + 1))
            rows.append(" ".join(codes))
        return "\n".join(rows)
