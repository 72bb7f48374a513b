"""Reading a still picture onto the board: the position reader of the live pipeline.

The tracker hands it each new still position with the board known so far. It scans the
picture (:mod:`vision.scan`) and registers the tiles onto the board's cells
(:mod:`vision.register`), remembering the camera between positions (the last homography), so
that a nudged board or a knocked camera still lands on the same cells. Tiles lying well away
from the board (a rack, a dropped tile) are kept apart as off the board and never join a move.
What the position means for the game (which tiles are a move, what is in doubt) is the
tracker's to judge.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np

from engine.board import Board, Cell, Placed, reached
from engine.boardgame import start_in
from vision.adapt import SetAdapter
from vision.lattice import project
from vision.register import Registration, register
from vision.scan import ScanResult, scan_image

MIN_SEEN_SHARE = 0.75
"""Below this share of the known tiles in view found again, the scan did not see the board:
no move. An arm lying across a board that meets the picture's edge is no arm to the gate (it
crosses the edge where tiles lie), and it hid 52 of 106 tiles at the end of game 116 of the
hardest footage: read as a position, the cell of the tile its hand had just laid changed
with no tile read there, and once the arm had gone that tile was taken for one laid earlier
instead of the move. Known tiles whose cells lie off the picture (a camera knocked aside)
are not counted."""

OFF_BOARD_GAP = 3
"""A new tile this many cells or more (in x or y) from every tile of the board lies off it:
two empty cells between, where a legal move never reaches (a rack, a tile dropped aside)."""


Unchanged = Callable[[Registration, Sequence[Cell]], set[Cell]]
"""Of the cells given, those whose look has not changed since the last position read."""


@dataclass(frozen=True)
class Position:
    """One still picture read onto the board: the scan, its registration (new tiles on the
    board only) and the tiles off the board, on the board's cells."""

    scan: ScanResult
    registration: Registration
    off_board: tuple[Placed, ...]


class PositionReader:
    """Scans still pictures and puts their tiles on the board's cells; see the module."""

    def __init__(self, colours: Iterable[str]) -> None:
        self.colours = tuple(colours)
        self.homography: np.ndarray | None = None
        """Board cells to picture pixels at the last position read (for the next
        registration, and for drawing the preview)."""

    def read(self, image: np.ndarray, board: Board, lasting: Collection[Cell],
             adapter: SetAdapter | None = None, unchanged: Unchanged | None = None
             ) -> Position | None:
        """The picture's tiles on ``board``'s cells; None when the scan did not find enough
        of the ``lasting`` tiles of the board to say where it lies (a hand over it, a blurred
        frame). Tiles of moves still waiting are not lasting: players may take them all back,
        a game started over tiles by clearing the table.

        ``unchanged`` answers which of the tiles the scan missed lie on cells that look as
        they did at the last position: those count as found. Dark purple tiles on a dark
        table drop out of scan after scan; while players confirmed a few moves behind, the
        board they had confirmed was small and half purple, and positions went unread (two
        turns of a served game's video came as one, its last three not at all).

        The lasting tiles were read at earlier positions: their kinds are the players' word,
        or settled over many pictures (:mod:`vision.ledger`), and one reading more each
        needs no eight orientations. Where they lay at the last position the scan reads
        their crops once (``known`` of :func:`vision.scan.scan_image`)."""
        settled = (None if self.homography is None or not lasting
                   else project(self.homography, np.array(sorted(lasting), np.float64)))
        scan = scan_image(image, colours=self.colours, adapter=adapter, known=settled)
        lattice = scan.lattice
        reg = register(board, scan.tiles, None if lattice is None else lattice.homography,
                       self.homography)
        known = _in_view(set(lasting), reg.homography, image.shape)
        found = len(known & set(reg.seen))
        if len(known) >= 4 and found < MIN_SEEN_SHARE * len(known):
            if unchanged is None or reg.homography is None:
                return None
            found += len(unchanged(reg, sorted(known - set(reg.seen))))
            if found < MIN_SEEN_SHARE * len(known):
                return None
        if reg.homography is not None:
            self.homography = reg.homography
        far = _off_board(set(board), [cell for cell, _ in reg.new])
        off_board = tuple((*cell, guess.tile) for cell, guess in reg.new if cell in far) + tuple(
            (*reg.grid_map.apply(r.x, r.y), r.guess.tile) for r in scan.off_board)
        on_board = tuple((cell, guess) for cell, guess in reg.new if cell not in far)
        return Position(scan, replace(reg, new=on_board), off_board)


def _in_view(cells: set[Cell], homography: np.ndarray | None,
             shape: tuple[int, ...]) -> set[Cell]:
    """The ``cells`` whose centres the board-cell -> pixel ``homography`` puts in a picture of
    ``shape`` (all of them without one)."""
    if homography is None or not cells:
        return cells
    order = sorted(cells)
    pixels = project(homography, np.array(order, np.float64))
    h, w = shape[:2]
    inside = (pixels[:, 0] >= 0) & (pixels[:, 0] < w) & (pixels[:, 1] >= 0) & (pixels[:, 1] < h)
    return {cell for cell, ok in zip(order, inside, strict=True) if ok}


def _off_board(board: set[Cell], new: list[Cell]) -> set[Cell]:
    """The new cells that lie off the board: not reached from it in steps shorter than
    :data:`OFF_BOARD_GAP`. With no board yet, the board is the board game's start
    (:mod:`engine.boardgame`), whose diagonals lie apart, and a tile near it; or else every
    group holding tiles corner to corner (:func:`_corner_to_corner`), the diagonals of a board
    game in progress; or else the largest group."""
    todo = set(new)
    if board:
        return todo - reached(board, todo, OFF_BOARD_GAP - 1)
    groups = _groups(todo)
    core = _start_among(todo, groups) or set().union(*filter(_corner_to_corner, groups))
    if core:
        return todo - reached(core, todo, OFF_BOARD_GAP - 1)
    return todo - max(groups, key=len) if groups else set()


def _groups(cells: set[Cell]) -> list[set[Cell]]:
    """The groups of ``cells`` that lie :data:`OFF_BOARD_GAP` or more apart."""
    todo, groups = set(cells), []
    while todo:
        seed = min(todo)
        group = {seed} | reached({seed}, todo - {seed}, OFF_BOARD_GAP - 1)
        groups.append(group)
        todo -= group
    return groups


START_APART = 4
"""Most groups of tiles apart from the board game's start (racks, spare tiles) that
:func:`_start_among` looks past."""


def _start_among(cells: set[Cell], groups: list[set[Cell]]) -> set[Cell] | None:
    """The board game's start among the tiles on a table with no board yet, looking past up
    to :data:`START_APART` of their ``groups`` (players' racks beside the printed board, which
    lie off it anyway): a first picture with a rack in view was no start, and the largest
    group, a rack or a diagonal, was taken for the board.

    A group holding tiles corner to corner (:func:`_corner_to_corner`) is part of the board, never
    a rack: a game opened over a board game in progress looked past the two diagonals that
    moves had been played on, took the other two for a start of two diagonals, and set 24 of
    the real photo connect-1/04.jpg's 36 tiles aside as off the board."""
    racks = [group for group in groups if not _corner_to_corner(group)]
    for apart in range(min(START_APART, len(racks)) + 1):
        for gone in combinations(racks, apart):
            start = start_in(cells.difference(*gone))
            if start is not None:
                return start
    return None


def _corner_to_corner(group: set[Cell]) -> bool:
    """Whether a group of tiles holds three in a diagonal line corner to corner, as the
    board game's start's diagonals do, played on or not, and a rack laid in a row never
    does."""
    return any({(x + k * dx, y + k) for k in (1, 2)} <= group
               for x, y in group for dx in (1, -1))

