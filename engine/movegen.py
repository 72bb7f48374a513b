"""Every legal placement for a hand, fast enough to drive thousands of simulated games.

How it stays fast in pure Python:

- Tiles become small ints (colour index * 8 + shape index), so a line's state is four ints:
  common colour, common shape (-1 once mixed), a bitmask of the tiles in it, and its length.
- Only *anchors* matter: empty cells next to a tile. Every connected move covers at least one.
  A move in a row or column is generated once, from its leftmost (topmost) placed cell ``s``
  and its first anchor ``a``; the cells from ``s`` up to ``a`` are empty non-anchors, so
  each anchor has a short, fixed list of start cells.
- The crossing line of each cell is folded into a constraint once per call and cached, and a
  walk stops as soon as the line can take no more tiles.
- A one-tile move is generated in the row pass only (it scores both its lines there).

On an empty board the opening moves are generated in row 0 starting at (0, 0) going right:
the position of the first line is arbitrary, so one representative of each is listed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.board import SIDES, Board, Cell, Placed
from engine.tiles import ALL_COLOURS, HAND, SHAPES, Tile

_COLOUR_ID = {c: i for i, c in enumerate(ALL_COLOURS)}
_SHAPE_ID = {s: i for i, s in enumerate(SHAPES)}
_TILE_OF = {ci << 3 | si: Tile(c, s) for c, ci in _COLOUR_ID.items() for s, si in _SHAPE_ID.items()}

Move = tuple[Placed, ...]
_RawMove = tuple[tuple[int, int, int], ...]
# A line's state: (common colour or -1, common shape or -1, bitmask of tile ids, length).
_LineState = tuple[int, int, int, int]
_EMPTY: _LineState = (-1, -1, 0, 0)


def _tile_id(tile: Tile) -> int:
    return _COLOUR_ID[tile.colour] << 3 | _SHAPE_ID[tile.shape]


def _add(state: _LineState, t: int) -> _LineState | None:
    """The line with tile id ``t`` added, or None if the line cannot take it."""
    col, shp, mask, n = state
    bit = 1 << t
    if n == 0:
        return (t >> 3, t & 7, bit, 1)
    if n >= 6 or mask & bit:
        return None
    c = col if t >> 3 == col else -1
    s = shp if t & 7 == shp else -1
    if c < 0 and s < 0:
        return None
    return (c, s, mask | bit, n + 1)


def _fold_run(
    cells: dict[Cell, int], state: _LineState | None, x: int, y: int, dx: int, dy: int
) -> _LineState | None:
    """``state`` with the run of tiles from (x, y) onwards along (dx, dy) added."""
    while state is not None and (x, y) in cells:
        state = _add(state, cells[x, y])
        x, y = x + dx, y + dy
    return state


def _run_state(cells: dict[Cell, int], x: int, y: int, dx: int, dy: int) -> _LineState | None:
    """The state of the tiles on both sides of empty cell (x, y) along (dx, dy)."""
    after = _fold_run(cells, _EMPTY, x + dx, y + dy, dx, dy)
    return _fold_run(cells, after, x - dx, y - dy, -dx, -dy)


def _hand_ids(hand: Sequence[Tile]) -> list[int]:
    """Distinct tile ids of the hand: a line never holds two equal tiles, so copies add nothing."""
    if isinstance(hand, str | bytes) or not hasattr(hand, "__iter__"):
        raise TypeError(f"hand must be a sequence of Tile, got {hand!r}")
    hand = list(hand)
    if len(hand) > HAND:
        raise ValueError(f"a hand holds at most {HAND} tiles, got {len(hand)}")
    for tile in hand:
        if not isinstance(tile, Tile):
            raise TypeError(f"hand must hold Tile values, got {tile!r}")
    return list(dict.fromkeys(_tile_id(t) for t in hand))


def _board_ids(board: Board) -> dict[Cell, int]:
    if not isinstance(board, Board):
        raise TypeError(f"board must be a Board, got {type(board).__name__}")
    return {(x, y): _tile_id(t) for x, y, t in board.placed()}


def _anchors(cells: dict[Cell, int]) -> list[Cell]:
    """Empty cells next to a tile, in a deterministic order."""
    seen: dict[Cell, None] = {}
    for x, y in cells:
        for dx, dy in SIDES:
            c = (x + dx, y + dy)
            if c not in cells:
                seen[c] = None
    return list(seen)


def _search(cells: dict[Cell, int], kinds: list[int], out: list[tuple[int, _RawMove]]) -> None:
    """Append (score, move) for every legal placement of tiles from ``kinds``."""
    hand_len = len(kinds)
    if not hand_len:
        return
    # The longest line through each kind that the hand alone could make: bounds how far
    # left of an anchor a move may start.
    group = {
        t: max(sum(u >> 3 == t >> 3 for u in kinds), sum(u & 7 == t & 7 for u in kinds))
        for t in kinds
    }

    for dx, dy in ((1, 0), (0, 1)):
        singles = dx == 1
        cross_cache: dict[Cell, tuple[list[int], int, bool]] = {}

        def cross(cell: Cell, dx: int = dx, dy: int = dy,
                  cache: dict[Cell, tuple[list[int], int, bool]] = cross_cache
                  ) -> tuple[list[int], int, bool]:
            """Kinds allowed at ``cell`` by its crossing line, that line's points, touches."""
            hit = cache.get(cell)
            if hit is not None:
                return hit
            x, y = cell
            if (x + dy, y + dx) not in cells and (x - dy, y - dx) not in cells:
                hit = (kinds, 0, False)
            else:
                state = _run_state(cells, x, y, dy, dx)
                if state is None:
                    hit = ([], 0, True)
                else:
                    allowed = [t for t in kinds if _add(state, t) is not None]
                    n = state[3] + 1
                    hit = (allowed, n + (6 if n == 6 else 0), True)
            cache[cell] = hit
            return hit

        ahead_cache: dict[Cell, tuple[int, int, int, int, int, int] | None | bool] = {}

        def ahead(cell: Cell, dx: int = dx, dy: int = dy,
                  cache: dict[Cell, tuple[int, int, int, int, int, int] | None | bool]
                  = ahead_cache) -> tuple[int, int, int, int, int, int] | None | bool:
            """The run of tiles starting at ``cell``: None if the cell is empty, False if
            the run is no valid line, else its state and the empty cell after it."""
            x, y = cell
            if cell not in cells:
                hit: tuple[int, int, int, int, int, int] | None | bool = None
            else:
                state = _fold_run(cells, _EMPTY, x, y, dx, dy)
                n = 0 if state is None else state[3]
                hit = False if state is None else (*state, x + n * dx, y + n * dy)
            cache[cell] = hit
            return hit

        def walk(x: int, y: int, state: _LineState, placed: _RawMove, pts: int, conn: bool,
                 dx: int = dx, dy: int = dy, singles: bool = singles,
                 cross: Callable[[Cell], tuple[list[int], int, bool]] = cross,
                 cross_cache: dict[Cell, tuple[list[int], int, bool]] = cross_cache,
                 ahead: Callable[[Cell], tuple[int, int, int, int, int, int] | None | bool]
                 = ahead,
                 ahead_cache: dict[Cell, tuple[int, int, int, int, int, int] | None | bool]
                 = ahead_cache) -> None:
            # The hot loop of the whole engine: _add is inlined, and the run of tiles just
            # after the placed one is merged as one precomputed state.
            hit = cross_cache.get((x, y)) or cross((x, y))
            allowed, cpts, touch = hit
            q = (x + dx, y + dy)
            run = ahead_cache.get(q, True)
            if run is True:
                run = ahead(q)
            if run is False:
                return
            col, shp, mask, n = state
            p = pts + cpts
            for t in allowed:
                bit = 1 << t
                if mask & bit:
                    continue
                if n:
                    c = col if t >> 3 == col else -1
                    s = shp if t & 7 == shp else -1
                    if c < 0 and s < 0:
                        continue
                else:
                    c, s = t >> 3, t & 7
                m, k = mask | bit, n + 1
                if run is None:
                    (nx, ny), absorbed = q, False
                else:
                    c2, s2, m2, n2, nx, ny = run  # type: ignore[misc]
                    if m & m2 or k + n2 > 6:
                        continue
                    c = c if c == c2 else -1
                    s = s if s == s2 else -1
                    if c < 0 and s < 0:
                        continue
                    m, k, absorbed = m | m2, k + n2, True
                new = (*placed, (x, y, t))
                linked = conn or touch or absorbed
                if linked and (singles or len(new) > 1):
                    score = p + (k + (6 if k == 6 else 0) if k > 1 else 0)
                    out.append((score or 1, new))
                if len(new) < hand_len and k < 6:
                    walk(nx, ny, (c, s, m, k), new, p, linked)

        if not cells:
            if singles:
                walk(0, 0, _EMPTY, (), 0, True)
            continue
        for ax, ay in _anchors(cells):
            allowed, _, _ = cross((ax, ay))
            if not allowed:
                continue
            left = _fold_run(cells, _EMPTY, ax - dx, ay - dy, -dx, -dy)
            if left is None:
                continue
            walk(ax, ay, left, (), 0, left[3] > 0)
            # Starts left of the anchor: empty cells that touch nothing, so each move is
            # generated from exactly one (start, anchor) pair.
            reach = max(group[t] for t in allowed)
            sx, sy = ax - dx, ay - dy
            for _ in range(min(reach, 6) - 1):
                if (sx, sy) in cells or any((sx + ex, sy + ey) in cells for ex, ey in SIDES):
                    break
                walk(sx, sy, _EMPTY, (), 0, False)
                sx, sy = sx - dx, sy - dy


def _to_move(raw: _RawMove) -> Move:
    return tuple((x, y, _TILE_OF[t]) for x, y, t in raw)


def scored_moves(board: Board, hand: Sequence[Tile]) -> list[tuple[int, Move]]:
    """Every legal placement with its score, in a deterministic order.

    Placements are listed once each (tiles in row or column order); two copies of one tile
    in the hand give no extra placements, since a line never holds both.
    """
    out: list[tuple[int, _RawMove]] = []
    _search(_board_ids(board), _hand_ids(hand), out)
    return [(score, _to_move(raw)) for score, raw in out]


def legal_moves(board: Board, hand: Sequence[Tile]) -> list[Move]:
    """Every legal placement of tiles from ``hand`` (see :func:`scored_moves`).

    The blue square fits nowhere; the red circle on each side of the red star:

    >>> board = Board.from_placed([(0, 0, Tile("red", "star"))])
    >>> moves = legal_moves(board, [Tile("red", "circle"), Tile("blue", "square")])
    >>> sorted((x, y, tile.code) for (x, y, tile), in moves)
    [(-1, 0, 'RCi'), (0, -1, 'RCi'), (0, 1, 'RCi'), (1, 0, 'RCi')]
    """
    return [move for _, move in scored_moves(board, hand)]


def best_move(
    board: Board, hand: Sequence[Tile], keep: Callable[[Move], bool] | None = None
) -> tuple[int, Move] | None:
    """The highest-scoring placement (the first found among equals), or None if none exists.

    ``keep`` filters candidates, e.g. to force the opening move to be the largest group.

    >>> board = Board.from_placed([(0, 0, Tile("red", "star")), (1, 0, Tile("red", "circle"))])
    >>> score, move = best_move(board, [Tile("red", "square"), Tile("red", "clover")])
    >>> score, [(x, y, tile.code) for x, y, tile in move]  # under the row: three lines of two
    (6, [(0, 1, 'RSq'), (1, 1, 'RCl')])
    >>> best_move(board, [Tile("blue", "square")]) is None
    True
    """
    out: list[tuple[int, _RawMove]] = []
    _search(_board_ids(board), _hand_ids(hand), out)
    best: tuple[int, Move] | None = None
    for score, raw in out:
        if best is not None and score <= best[0]:
            continue
        move = _to_move(raw)
        if keep is None or keep(move):
            best = (score, move)
    return best


def has_legal_move(board: Board, hand: Sequence[Tile]) -> bool:
    """Whether any placement exists: cheap, because a legal move exists exactly when some
    single tile fits some anchor (any tile of a legal move that touches the board is itself
    a legal one-tile move, its lines being parts of the move's lines)."""
    cells = _board_ids(board)
    kinds = _hand_ids(hand)
    if not kinds:
        return False
    if not cells:
        return True
    for x, y in _anchors(cells):
        row = _run_state(cells, x, y, 1, 0)
        col = _run_state(cells, x, y, 0, 1)
        if row is None or col is None:
            continue
        for t in kinds:
            if _add(row, t) is not None and _add(col, t) is not None:
                return True
    return False
