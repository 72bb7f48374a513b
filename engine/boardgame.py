"""The board game: Qwirkle played on a printed board with a start laid out and bonus squares.

Its board is a 16 x 16 grid in four quarters. Before the first move each quarter holds six
tiles in a diagonal, touching corner to corner only; the squares between two neighbours of
a diagonal are printed "1", and the two other corners of the diagonal's 6 x 6 block "2".
Moves follow the usual rules, and each new tile laid on a bonus square adds its number to
the move's score. The quarters may be turned, so a start is recognised from the tiles
alone: diagonals of six that touch nothing else. No first move of standard Qwirkle (one
line) looks like that, which is why the camera can tell the games apart by the first
picture, with no switch for players to forget. A start short of a tile or two (one the
camera missed) is still recognised: the whole diagonals mark out the board's quarters, and
those place the short ones.

>>> start = [(x, 5 - x) for x in range(6)] + [(x + 8, x) for x in range(6)]
>>> bonus = bonus_squares(start)
>>> bonus[(0, 4)], bonus[(0, 0)], bonus[(5, 5)], bonus[(8, 5)], len(bonus)
(1, 2, 2, 2, 24)
>>> move_bonus(bonus, [(0, 4), (0, 3), (0, 2)])  # a "1", then two plain squares
1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations, pairwise

from engine.board import SIDES, Cell

DIAGONAL = 6
"""Tiles in each diagonal of the start."""

_CORNERS: tuple[Cell, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))


MISSING = 2
"""Most tiles of a start a picture may lack (the scan missed one, a hand hides one) and still
show the start: the printed board fixes where its diagonals lie."""

QUARTER = 8
"""Side of a quarter of the printed board; its diagonal fills the 6 x 6 block inside it."""


def start_diagonals(cells: Iterable[Cell]) -> list[list[Cell]] | None:
    """The start's diagonals (each from its top end down), or None when ``cells`` are not a
    start: at least two diagonals of :data:`DIAGONAL` tiles, no two tiles sharing a side.

    Up to :data:`MISSING` tiles may lack from the other diagonals, which are then completed:
    the whole diagonals lie in the quarters of the board the whole ones mark out, one to a
    quarter, each along its 6 x 6 block's main or other diagonal.

    >>> start_diagonals([(0, 0), (1, 1), (2, 2)]) is None  # too short: a few loose tiles
    True
    >>> start_diagonals([(x, x) for x in range(6)] + [(x + 8, 5 - x) for x in range(6)])[1]
    [(13, 0), (12, 1), (11, 2), (10, 3), (9, 4), (8, 5)]
    >>> start = [(x, x) for x in range(6)] + [(x + 8, x) for x in range(6)]
    >>> start_diagonals(start + [(x, x + 8) for x in (0, 1, 3, 4, 5)])[1]  # (2, 10) missed
    [(0, 8), (1, 9), (2, 10), (3, 11), (4, 12), (5, 13)]
    """
    todo = set(cells)
    if any((x + dx, y + dy) in todo for x, y in todo for dx, dy in SIDES):
        return None
    runs = []
    while todo:
        run = _corner_run(todo, min(todo))
        if run is None or len(run) > DIAGONAL:
            return None
        todo -= set(run)
        runs.append(run)
    whole = [run for run in runs if len(run) == DIAGONAL]
    if len(whole) < 2:
        return None
    parts = [run for run in runs if len(run) < DIAGONAL]
    if not parts:
        return whole
    completed = _completed(whole, parts)
    return None if completed is None else sorted(whole + completed)


def _corner_run(cells: set[Cell], seed: Cell) -> list[Cell] | None:
    """The cells joined to ``seed`` corner to corner, top down, or None where they do not
    lie in one diagonal line."""
    group, frontier = {seed}, [seed]
    while frontier:
        x, y = frontier.pop()
        for dx, dy in _CORNERS:
            if (x + dx, y + dy) in cells and (x + dx, y + dy) not in group:
                group.add((x + dx, y + dy))
                frontier.append((x + dx, y + dy))
    ordered = sorted(group, key=lambda c: (c[1], c[0]))
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(ordered)}
    return ordered if len(steps) <= 1 else None


def _completed(whole: list[list[Cell]], parts: list[list[Cell]]) -> list[list[Cell]] | None:
    """The diagonals that ``parts`` (runs shorter than a diagonal) are pieces of, or None
    where they are not pieces of diagonals, one to a quarter, short of at most
    :data:`MISSING` tiles. The first of the ``whole`` diagonals marks out the quarters."""
    origin = (min(x for x, _ in whole[0]) - 1, min(y for _, y in whole[0]) - 1)

    def quarter(cell: Cell) -> Cell:
        return (cell[0] - origin[0]) // QUARTER, (cell[1] - origin[1]) // QUARTER

    pieces: dict[tuple[Cell, bool], set[Cell]] = {}
    for part in parts:
        (x, y), last = part[0], part[-1]
        # down to the right, or down to the left; a lone tile's own block tells
        falling = x - y == last[0] - last[1] if len(part) > 1 \
            else (x - origin[0]) % QUARTER == (y - origin[1]) % QUARTER
        pieces.setdefault((quarter(part[0]), falling), set()).update(part)
    completed, missing = [], 0
    for ((qx, qy), falling), cells in pieces.items():
        bx, by = origin[0] + QUARTER * qx + 1, origin[1] + QUARTER * qy + 1
        line = [(bx + i if falling else bx + DIAGONAL - 1 - i, by + i) for i in range(DIAGONAL)]
        if not cells <= set(line):
            return None
        completed.append(line)
        missing += DIAGONAL - len(cells)
    quarters = [quarter(d[0]) for d in whole] + [q for q, _ in pieces]
    xs, ys = zip(*quarters, strict=True)
    if missing > MISSING or len(set(quarters)) < len(quarters) \
            or max(xs) - min(xs) > 1 or max(ys) - min(ys) > 1:  # the board is 2 x 2 quarters
        return None
    return completed


def start_in(cells: Iterable[Cell]) -> set[Cell] | None:
    """The cells of the board game's start among ``cells``: all of them, or all but one (a
    tile laid, or read, beside the start); None where no start is among them.

    >>> start = [(x, x) for x in range(6)] + [(x + 8, x) for x in range(6)]
    >>> start_in(start + [(6, 0)]) == set(start)  # beside the first diagonal's end
    True
    >>> start_in(start[:6] + [(6, 0)]) is None
    True
    """
    cells = set(cells)
    if start_diagonals(cells) is not None:
        return cells
    # tiles side by side: the one beside the start is in every such pair
    pairs = [{(x, y), (x + 1 - down, y + down)} for x, y in cells for down in (0, 1)
             if (x + 1 - down, y + down) in cells]
    suspects = set.intersection(*pairs) if pairs else cells
    return next((cells - {extra} for extra in sorted(suspects)
                 if start_diagonals(cells - {extra}) is not None), None)


def start_under(cells: Iterable[Cell]) -> set[Cell] | None:
    """The cells of the board game's start under a game in progress: the whole diagonals of
    six among ``cells``, one to a quarter of the board, whatever moves were laid on them
    since; None where no two lie so. A game opened over a board already played on (the
    laptop restarted mid-game) starts from them, and the other tiles are its earlier turns.

    >>> start = [(x, x) for x in range(6)] + [(x + 8, x) for x in range(6)]
    >>> row = [(6, 0), (7, 0), (8, 0)]  # a move joining the two diagonals
    >>> start_under(start + row) == set(start)
    True
    >>> start_under([(x, x) for x in range(6)] + [(x + 7, x) for x in range(6)]) is None
    True
    """
    cells = set(cells)
    runs = [[(x + k * dx, y + k) for k in range(DIAGONAL)] for x, y in sorted(cells)
            for dx in (1, -1) if all((x + k * dx, y + k) in cells for k in range(DIAGONAL))]
    for size in range(min(len(runs), 4), 1, -1):
        for chosen in combinations(runs, size):
            corners = [(min(x for x, _ in run), min(y for _, y in run)) for run in chosen]
            xs, ys = zip(*corners, strict=True)
            if len(set(corners)) == size and max(xs) - min(xs) <= QUARTER \
                    and max(ys) - min(ys) <= QUARTER \
                    and all((x - xs[0]) % QUARTER == 0 and (y - ys[0]) % QUARTER == 0
                            for x, y in corners):
                return {cell for run in chosen for cell in run}
    return None


def start_gaps(start: Iterable[Cell]) -> set[Cell]:
    """The cells of the start's diagonals that ``start`` lacks (:data:`MISSING`); none where
    it is no start.

    >>> start = [(x, x) for x in range(6)] + [(x + 8, x) for x in range(6)]
    >>> start_gaps(start + [(x, x + 8) for x in range(1, 6)])
    {(0, 8)}
    """
    cells = set(start)
    return {cell for diagonal in start_diagonals(cells) or () for cell in diagonal} - cells


def bonus_squares(start: Iterable[Cell]) -> dict[Cell, int]:
    """The printed bonus of each bonus square, by cell, for the start laid on ``start``; an
    empty mapping when those cells are no start (standard Qwirkle has no bonus squares)."""
    diagonals = start_diagonals(start)
    bonus: dict[Cell, int] = {}
    for diagonal in diagonals or ():
        for (ax, ay), (bx, by) in pairwise(diagonal):
            bonus[(ax, by)] = bonus[(bx, ay)] = 1
        (ax, ay), (bx, by) = diagonal[0], diagonal[-1]
        bonus[(ax, by)] = bonus[(bx, ay)] = 2
    return bonus


def move_bonus(bonus: Mapping[Cell, int], cells: Iterable[Cell]) -> int:
    """Points the bonus squares under a move's new tiles add to its score."""
    return sum(bonus.get(cell, 0) for cell in cells)
