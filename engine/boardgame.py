"""The board game: Qwirkle played on a printed board with a start laid out and bonus squares.

Its board is a 16 x 16 grid in four quarters. Before the first move each quarter holds six
tiles in a diagonal, touching corner to corner only; the squares between two neighbours of
a diagonal are printed "1", and the two other corners of the diagonal's 6 x 6 block "2".
Moves follow the usual rules, and each new tile laid on a bonus square adds its number to
the move's score. The quarters may be turned, so a start is recognised from the tiles
alone: diagonals of six that touch nothing else. No first move of standard Qwirkle (one
line) looks like that, which is why the camera can tell the games apart by the first
picture, with no switch for players to forget.

>>> start = [(x, 5 - x) for x in range(6)] + [(x + 8, x) for x in range(6)]
>>> bonus = bonus_squares(start)
>>> bonus[(0, 4)], bonus[(0, 0)], bonus[(5, 5)], bonus[(8, 5)], len(bonus)
(1, 2, 2, 2, 24)
>>> move_bonus(bonus, [(0, 4), (0, 3), (0, 2)])  # a "1", then two plain squares
1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import pairwise

from engine.board import SIDES, Cell

DIAGONAL = 6
"""Tiles in each diagonal of the start."""

_CORNERS: tuple[Cell, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def start_diagonals(cells: Iterable[Cell]) -> list[list[Cell]] | None:
    """The start's diagonals (each from its top end down), or None when ``cells`` are not a
    start: at least two diagonals of :data:`DIAGONAL` tiles, no two tiles sharing a side.

    >>> start_diagonals([(0, 0), (1, 1), (2, 2)]) is None  # too short: a few loose tiles
    True
    >>> start_diagonals([(x, x) for x in range(6)] + [(x + 8, 5 - x) for x in range(6)])[1]
    [(13, 0), (12, 1), (11, 2), (10, 3), (9, 4), (8, 5)]
    """
    todo = set(cells)
    if any((x + dx, y + dy) in todo for x, y in todo for dx, dy in SIDES):
        return None
    diagonals = []
    while todo:
        seed = min(todo)
        group, frontier = {seed}, [seed]
        while frontier:
            x, y = frontier.pop()
            for dx, dy in _CORNERS:
                if (x + dx, y + dy) in todo and (x + dx, y + dy) not in group:
                    group.add((x + dx, y + dy))
                    frontier.append((x + dx, y + dy))
        todo -= group
        ordered = sorted(group, key=lambda c: (c[1], c[0]))
        steps = {(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(ordered)}
        if len(group) != DIAGONAL or len(steps) != 1:
            return None
        diagonals.append(ordered)
    return diagonals if len(diagonals) >= 2 else None


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
