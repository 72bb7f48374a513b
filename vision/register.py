"""Registration: put a new scan's tiles onto the cells of the board seen so far.

Every scan fits its own lattice, with its own origin and, when the camera turned, possibly its
own quarter-turn. Before two positions can be compared, the new scan's cells must be mapped
onto the board's: a camera bump or a tile nudged by a third of a cell must not look like a
move. The map is found by letting every pair (new reading, known tile) vote for the rotation
and translation that would superimpose them, weighting votes by how well the labels agree.
The true map gathers a vote from nearly every old tile; a wrong one from only a few.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.board import Board, Cell
from engine.tiles import Tile
from vision.classifier import TileGuess
from vision.decode import label_prob, label_table
from vision.doubts import Doubt, DoubtKind

ROTATIONS: tuple[tuple[int, int, int, int], ...] = ((1, 0, 0, 1), (0, -1, 1, 0),
                                                     (-1, 0, 0, -1), (0, 1, -1, 0))
"""The four quarter-turns of the grid as row-major 2x2 integer matrices."""

TIE_MARGIN = 0.5
"""Maps whose votes are within this of the best are told apart by pixel positions instead."""

SURE_CELL = 0.3
"""A tile this close (in cells) to a lattice point lies in that cell, whatever the scan said."""

RELABEL_MAX_PROB = 0.01
"""A tile whose confirmed shape (or colour) the new reading gives less than this has changed."""

RELABEL_MIN_CONFIDENCE = 0.9
"""...provided the new reading is itself this sure of its shape (colour); else it is noise."""


@dataclass(frozen=True)
class GridMap:
    """Scan cell -> board cell: ``board = R @ scan + t``, with R one of :data:`ROTATIONS`."""

    rotation: int
    tx: int
    ty: int

    def apply(self, x: int, y: int) -> Cell:
        a, b, c, d = ROTATIONS[self.rotation]
        return (a * x + b * y + self.tx, c * x + d * y + self.ty)

    def board_to_scan(self) -> np.ndarray:
        """The 3x3 affine matrix taking board cells back to scan cells."""
        a, b, c, d = ROTATIONS[self.rotation]
        forward = np.array([[a, b, self.tx], [c, d, self.ty], [0, 0, 1]], dtype=float)
        return np.linalg.inv(forward)


@dataclass(frozen=True)
class Registration:
    """One scan seen in the board's frame: a value; the tracker makes changed copies of it
    (:func:`dataclasses.replace`) as it learns more about the position.

    ``new`` are readings on empty cells (the candidate move), ``seen`` the readings on known
    tiles, ``missing`` the known cells nothing was read on, and ``problems`` the doubts about
    anything a person must look at (vanished, moved, relabelled tiles), each with the cell
    it concerns.
    """

    grid_map: GridMap
    homography: np.ndarray | None
    new: tuple[tuple[Cell, TileGuess], ...] = ()
    seen: Mapping[Cell, TileGuess] = field(default_factory=dict)
    missing: tuple[Cell, ...] = ()
    problems: tuple[Doubt, ...] = ()
    offsets: Mapping[Cell, tuple[float, float]] = field(default_factory=dict)
    """Where each tile read lies relative to its cell's centre, in cells (nudges, lattice fit)."""


def _pixel_residual(grid_map: GridMap, readings: Sequence, prior: np.ndarray | None) -> float:
    """How far the map puts tiles from where the previous lattice says their pixels lie."""
    if prior is None or not readings:
        return float(grid_map.rotation != 0)
    centres = np.array([[*r.center, 1.0] for r in readings], dtype=float).T
    lattice = np.linalg.inv(prior) @ centres
    lattice = lattice[:2] / lattice[2]
    mapped = np.array([grid_map.apply(r.x, r.y) for r in readings], dtype=float).T
    return float(np.median(np.hypot(*(mapped - lattice))))


def find_grid_map(board: dict[Cell, Tile], readings: Sequence,
                  prior: np.ndarray | None = None) -> GridMap:
    """The rotation and translation that lay ``readings`` best over the known ``board``.

    ``prior`` is the previous position's board-cell -> pixel homography; with a fixed camera it
    settles what the votes cannot (a one-tile board, or a symmetric pattern).
    """
    if not board or not readings:
        return min((GridMap(k, 0, 0) for k in range(4)),
                   key=lambda m: _pixel_residual(m, readings, prior))
    votes = _contenders(board, readings)
    return min(votes, key=lambda m: (_pixel_residual(m, readings, prior), -votes[m]))


def _contenders(board: dict[Cell, Tile], readings: Sequence) -> dict[GridMap, float]:
    """The maps with the most votes (within ``TIE_MARGIN``), and their votes.

    Each pair (reading, known tile) gives 1 plus the reading's probability of that tile to
    the map that lays one on the other. Counted with arrays, since a late-game board makes
    ten thousand pairs per rotation and the vote is paid on every still position. Maps come
    in the order their first pair comes (reading by reading, rotation by rotation, tile by
    tile), which settles exact ties.
    """
    cells = np.array(list(board), np.int64).reshape(-1, 2)
    kinds = sorted(set(board.values()))
    kind_of = np.array([kinds.index(tile) for tile in board.values()])
    probs = np.array([[table.get(tile, 0.0) for tile in kinds]
                      for table in (label_table(r.guess) for r in readings)])
    spots = np.array([(r.x, r.y) for r in readings], np.int64)
    turned = np.einsum("kij,nj->nki", np.array(ROTATIONS, np.int64).reshape(4, 2, 2), spots)
    shift = cells[None, None] - turned[:, :, None]  # (readings, rotations, tiles, 2)
    span = int(np.abs(shift).max()) + 1
    keys = (np.arange(4)[None, :, None] * (2 * span) + shift[..., 0] + span) * (2 * span) \
        + shift[..., 1] + span
    unique, first, inverse = np.unique(keys.reshape(-1), return_index=True,
                                       return_inverse=True)
    weights = np.broadcast_to((1.0 + probs[:, kind_of])[:, None, :], keys.shape)
    totals = np.bincount(inverse.reshape(-1), weights.reshape(-1))
    best = np.flatnonzero(totals >= totals.max() - TIE_MARGIN)
    found = {}
    for i in best[np.argsort(first[best], kind="stable")]:
        rest, ty = divmod(int(unique[i]), 2 * span)
        rotation, tx = divmod(rest, 2 * span)
        found[GridMap(rotation, tx - span, ty - span)] = float(totals[i])
    return found


def contradicts(guess, old: Tile) -> bool:
    """Whether a reading is sure the tile's shape or colour is not the confirmed one.

    Shape and colour are judged apart: a reading torn between red and purple still knows a
    clover from a square.
    """
    return any(probs.get(name, 0.0) < RELABEL_MAX_PROB
               and max(probs.values(), default=0.0) >= RELABEL_MIN_CONFIDENCE
               for probs, name in ((guess.shape_probs, old.shape),
                                   (guess.colour_probs, old.colour)))


def register(board: Board, readings: Sequence, scan_homography: np.ndarray | None,
             prior: np.ndarray | None = None) -> Registration:
    """Map a scan's ``readings`` onto ``board`` and sort them into new, seen and missing."""
    known = {(x, y): tile for x, y, tile in board.placed()}
    grid_map = find_grid_map(known, readings, prior)
    homography = None if scan_homography is None else scan_homography @ grid_map.board_to_scan()
    new: list[tuple[Cell, TileGuess]] = []
    seen: dict[Cell, TileGuess] = {}
    problems: list[Doubt] = []
    offsets: dict[Cell, tuple[float, float]] = {}
    cells = [grid_map.apply(r.x, r.y) for r in readings]
    if homography is not None and readings:
        pixels = np.array([[r.center for r in readings]], np.float64)
        lattice = cv2.perspectiveTransform(pixels, np.linalg.inv(homography))[0]
        for i, (fx, fy) in enumerate(lattice):
            near = (round(fx), round(fy))
            if near != cells[i] and max(abs(fx - near[0]), abs(fy - near[1])) < SURE_CELL:
                cells[i] = near  # the scan's cell disagrees with its own lattice: trust pixels
            offsets[cells[i]] = (float(fx - cells[i][0]), float(fy - cells[i][1]))
    for r, cell in zip(readings, cells, strict=True):
        if cell in seen or any(cell == c for c, _ in new):
            problems.append(Doubt(DoubtKind.TWO_IN_CELL, cell=cell))
            continue
        if cell not in known:
            new.append((cell, r.guess))
            continue
        seen[cell] = r.guess
        old = known[cell]
        if contradicts(r.guess, old):
            problems.append(Doubt(DoubtKind.RELABELLED, cell=cell, tile=old, other=r.guess.tile))
    missing = sorted(set(known) - set(seen))
    for cell in missing:
        moved_to = [c for c, g in new if label_prob(g, known[cell]) >= 0.5
                    and max(abs(c[0] - cell[0]), abs(c[1] - cell[1])) <= 1]
        problems.append(Doubt(DoubtKind.MOVED, cell=moved_to[0], tile=known[cell])
                        if moved_to else Doubt(DoubtKind.VANISHED, cell=cell, tile=known[cell]))
    return Registration(grid_map, homography, tuple(sorted(new, key=lambda item: item[0])),
                        seen, tuple(missing), tuple(problems), offsets)
