"""The grid the tiles lie on: axis directions, pitch, integer cells and a homography.

Symbol centres alone are ambiguous: tiles that touch only at their corners (the diagonal start
of the board game) look like a lattice rotated by 45 degrees with a pitch 1.41 times too long.
The straight outer edges of the tile bodies settle it, so the axis directions come from the
orientation of the dark mask's edges round the symbols, and centres only give the pitch.

Cells are assigned along a spanning tree of neighbouring tiles: each step rounds one short,
local offset, so slow perspective changes, a nudged tile and the ~0.4-cell shift at the seam
between two printed board pieces never add up to a wrong cell. A homography fitted to the
result then serves for predicting missing tiles and for cutting crops.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

import cv2
import numpy as np

from vision import topface
from vision.detect import Work


@dataclass(frozen=True)
class Grid:
    """Integer cells for a set of points, and the homography cell -> working pixel."""

    cells: np.ndarray  # (N, 2) int, x right and y down when the photo is upright
    homography: np.ndarray  # 3x3 float, cell coordinates -> working pixels
    keep: np.ndarray  # (N,) bool: False for points that fit no cell (dropped)
    group: np.ndarray  # (N,) int: points linked by short steps (or anchors) share a group

    @property
    def groups(self) -> int:
        """How many groups the kept points fall into (placed by the joint fit, not linked)."""
        return len(np.unique(self.group[self.keep]))

    @property
    def linked(self) -> bool:
        """Every kept point is linked to every other: one group, whatever the anchors."""
        return self.groups <= 1

    def to_pixels(self, cells: np.ndarray) -> np.ndarray:
        """Working-pixel positions of (fractional) cell coordinates."""
        return project(self.homography, cells)

    def to_cells(self, points: np.ndarray) -> np.ndarray:
        """Fractional cell coordinates of working-pixel positions."""
        return project(np.linalg.inv(self.homography), points)

    def joined(self, points: np.ndarray) -> Grid:
        """This grid with ``points`` added at the cells they lie in, without a new fit.

        For tiles found where this grid predicted them: a few points more hardly move a fit
        of many, and fitting again costs more than finding them did.
        """
        cells = np.concatenate([self.cells, np.rint(self.to_cells(points)).astype(int)])
        keep = np.concatenate([self.keep, np.ones(len(points), bool)])
        labels, counts = np.unique(self.group[self.keep], return_counts=True)
        group = np.concatenate([self.group, np.full(len(points), labels[np.argmax(counts)])])
        return _rebased(cells, self.homography, keep, group)


def project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a homography to an (N, 2) array of points."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    if pts.size == 0:
        return np.zeros((0, 2))
    return cv2.perspectiveTransform(pts, homography).reshape(-1, 2)


PERPENDICULAR_SPREAD = 40.0
"""Degrees over which the preference for perpendicular axes falls off."""

FEW_SYMBOLS = 6
"""Below this many symbols the axes are taken as nearly perpendicular (a first move or two)."""

FAINT_EDGES = 1.7
"""Below this ratio of the strongest edge direction's weight to the mean, the tiles' sides
hardly show, and the axes are taken as nearly perpendicular too."""


PEAK_SHARE = 0.6
"""Least weight of another edge direction, as a share of the strongest one's, for it to be
tried as a lattice axis too (:func:`axis_choices`)."""

PEAKS_APART = 10
"""Least angle (degrees) between two edge directions tried: nearer, they are one peak."""

MAX_CHOICES = 3
"""Most pairs of axes :func:`axis_choices` gives."""


def axis_choices(work: Work, points: np.ndarray, extents: np.ndarray) -> list[np.ndarray]:
    """Unit vectors (2, 2) of the lattice's x and y axes in the image, from tile-body edges:
    the likeliest pair first, then those from other strong edge directions, strongest first.

    The edges counted are those of the dark mask in a band round each symbol, outside the
    symbol itself: the tile's outline. Their gradient directions, folded to 0..180 degrees,
    form two peaks (not quite 90 degrees apart under perspective), one per lattice axis.
    A floor's seams or a table's planks at an angle to the tiles run through the band round
    the board's outer tiles, and in shadow near the tiles they are as dark as tile body:
    their direction can outweigh the tiles' sides. The tiles' own direction then still shows
    as a peak, and :func:`first_fit` tries it. Last comes the pair along which the symbols'
    nearest neighbours lie (:func:`_neighbour_directions`).
    """
    smooth = _edge_weights(work, points, extents)
    if smooth is None:
        return [np.eye(2)]
    choices = [_pair(smooth, first, near_square=len(points) < FEW_SYMBOLS or _faint(smooth)
                     or k > 0)
               for k, first in enumerate(_peaks(smooth)[:MAX_CHOICES])]
    if len(points) >= 2:
        choices.append(_pair(_neighbour_directions(points), near_square=True))
    distinct = choices[:1]  # two peaks may give one pair, and a pair costs a sketch
    for axes in choices[1:]:
        if all(np.abs((axes * other).sum(axis=1)).min() < SAME_AXES for other in distinct):
            distinct.append(axes)
    return distinct


SAME_AXES = np.cos(np.radians(3.0))
"""Two pairs of axes whose both axes lie within 3 degrees are one pair."""


def _peaks(smooth: np.ndarray) -> list[int]:
    """The strong local maxima of a histogram of directions, strongest first."""
    peaks = np.flatnonzero((smooth >= np.roll(smooth, 1)) & (smooth >= np.roll(smooth, -1))
                           & (smooth >= PEAK_SHARE * smooth.max()))
    chosen: list[int] = []
    for peak in peaks[np.argsort(-smooth[peaks], kind="stable")]:
        if all(_apart_degrees(peak, other) >= PEAKS_APART for other in chosen):
            chosen.append(int(peak))
    return chosen


MIN_APART = 45
"""Least angle (degrees) between the two axes in the picture. A square lattice seen from 30
degrees above the table (the phone beside it, 60 from vertical) shows its axes 53 degrees
apart at the least, a little less where perspective bends them; a pair much nearer is a
lattice sheared along a diagonal (a floor's seams 37 degrees from other edges: no symbol
explained, 50 tiles read on 40). Was 35: `--floors 100` 96.79 / 98.45 / 98.26 % before, 97.40
/ 99.29 / 98.78 % after; `--oblique 40` lost one tile and four labels, on board 1 at 50-60
degrees (22 of 34 tiles found before, 21 after)."""


def _pair(weights: np.ndarray, first: int | None = None, near_square: bool = False) -> np.ndarray:
    """The axes (2, 2) along direction ``first`` (default: the heaviest) of a histogram of
    gradient directions and the heaviest direction away from it.

    On a few small tiles the edges of diamond symbols, at 45 degrees, can outweigh the tiles'
    own, so there a right angle is preferred (``near_square``); a board seen obliquely bends
    it too far for that to hold everywhere. So it is where the tiles' sides hardly show at
    all (near-black tiles on a near-black cloth: the second axis was taken 28 degrees off a
    right angle, in a view from overhead). The other tries take it nearly square too: the
    lines that outweighed the tiles' sides can spread wide enough to outweigh their other
    side as well.
    """
    first = int(np.argmax(weights)) if first is None else first
    apart = _apart_degrees(np.arange(180), first)
    square = np.exp(-(((apart - 90) / PERPENDICULAR_SPREAD) ** 2)) if near_square else 1.0
    # where nothing weighs away from the first (the pair from two symbols), the square decides
    floor = 1e-6 * float(weights.max())
    second = int(np.argmax(np.where(apart >= MIN_APART, (weights + floor) * square, -1.0)))
    # an edge's direction is perpendicular to its gradient
    return _orient(np.array([[-np.sin(np.radians(a)), np.cos(np.radians(a))]
                             for a in (first, second)]))


def _neighbour_directions(points: np.ndarray) -> np.ndarray:
    """A histogram (180 one-degree bins, smoothed over 9) of the directions from each symbol
    to its nearest, turned by 90 degrees to read as gradients like :func:`_edge_weights`.

    A game's tiles lie in lines, so most nearest neighbours lie along an axis, whatever the
    table shows: the tries' last resort where a floor's lines outweigh the tiles' sides, or
    near-black tiles on a dark floor show hardly any (board 189 of ``python -m
    vision.evaluate.real --floors``: the edges' lattice explained 12 of 25 symbols, this
    one 23).
    """
    offsets = points[None] - points[:, None]
    distance = np.hypot(offsets[..., 0], offsets[..., 1])
    np.fill_diagonal(distance, np.inf)
    nearest = offsets[np.arange(len(points)), distance.argmin(axis=1)]
    angle = np.degrees(np.arctan2(nearest[:, 1], nearest[:, 0])) + 90.0
    hist = np.bincount(angle.astype(int) % 180, minlength=180).astype(float)
    return np.convolve(np.concatenate([hist[-4:], hist, hist[:4]]), np.ones(9) / 9, "valid")


def _apart_degrees(a: np.ndarray | int, b: int) -> np.ndarray:
    """Angle between directions folded to 0..180 degrees (0..90)."""
    return np.abs((np.asarray(a) - b + 90) % 180 - 90)


def sides_faint(work: Work, points: np.ndarray, extents: np.ndarray) -> bool:
    """Whether the tiles' sides hardly show (:data:`FAINT_EDGES`): the axes
    :func:`axis_choices` found may then be other lines, such as the tiles' diagonals."""
    smooth = _edge_weights(work, points, extents)
    return smooth is None or _faint(smooth)


def _faint(smooth: np.ndarray) -> bool:
    return bool(smooth.max() < FAINT_EDGES * smooth.mean())


def _edge_weights(work: Work, points: np.ndarray, extents: np.ndarray) -> np.ndarray | None:
    """The weight of the tiles' outline edges in each gradient direction (180 one-degree
    bins, smoothed over 9), or None where there are none (see :func:`axis_choices`)."""
    # only the tiles' bounding box (and a margin for the filters) is looked at
    h, w = work.dark.shape
    reach = 1.05 * extents + 6
    x0, y0 = np.maximum(0, np.floor((points - reach[:, None]).min(axis=0))).astype(int)
    x1, y1 = np.ceil((points + reach[:, None]).max(axis=0)).astype(int) + 1
    x1, y1 = min(w, x1), min(h, y1)
    points = points - [x0, y0]
    zone = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for (u, v), e in zip(points, extents, strict=True):
        cv2.circle(zone, (int(u), int(v)), int(1.05 * e), 1, -1)
    for (u, v), e in zip(points, extents, strict=True):
        cv2.circle(zone, (int(u), int(v)), int(0.62 * e), 0, -1)
    mask = cv2.GaussianBlur(work.dark[y0:y1, x0:x1].astype(np.float32), (5, 5), 0)
    gx = cv2.Sobel(mask, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(mask, cv2.CV_32F, 0, 1, ksize=3)
    # flat parts of the blurred mask (about half the zone) weigh nothing: left out before the
    # costly angles; and folding by a shift where negative is exact, "% 180.0" slow
    sel = (zone > 0) & ((gx != 0) | (gy != 0))
    gx, gy = gx[sel], gy[sel]
    mag = np.hypot(gx, gy)
    angle = np.degrees(np.arctan2(gy, gx))
    np.add(angle, 180.0, out=angle, where=angle < 0)
    hist = np.bincount(angle.astype(int) % 180, weights=mag, minlength=180)
    if hist.sum() <= 0:
        return None
    return np.convolve(np.concatenate([hist[-4:], hist, hist[:4]]), np.ones(9) / 9, "valid")


def diagonals(axes: np.ndarray) -> np.ndarray:
    """The two diagonals of ``axes`` (2, 2), as axes: turned by 45 degrees."""
    x, y = axes
    return _orient(np.array([(x + y) / np.linalg.norm(x + y), (y - x) / np.linalg.norm(y - x)]))


def _orient(axes: np.ndarray) -> np.ndarray:
    """Order and sign two axis vectors so x points rightwards and y downwards, as seen."""
    if abs(axes[0, 0]) < abs(axes[1, 0]):
        axes = axes[::-1]
    x, y = axes[0].copy(), axes[1].copy()
    if x[0] < 0:
        x = -x
    if y[1] < 0:
        y = -y
    return np.array([x, y])


@dataclass(frozen=True)
class Sketch:
    """The lattice as the symbols alone show it: the first pass of :func:`assign_cells`.

    It does not depend on the board's squares, so a scan that looks for those only when the
    tiles alone leave groups apart makes it once for both tries.
    """

    points: np.ndarray  # (N, 2) working pixels
    homography: np.ndarray  # cell -> working pixel, from the first cells
    step: np.ndarray  # (2, 2) columns: one cell along each axis at the typical symbol size
    spreads: np.ndarray  # (N, 3) each symbol's spread (``detect.Symbol.spread``), NaN: none


def sketch(points: np.ndarray, extents: np.ndarray, axes: np.ndarray,
           spreads: np.ndarray | None = None, *, shorter: bool = True) -> Sketch:
    """A first lattice through symbol centres, given the two axis directions.

    Offsets are measured in an affine frame scaled by the local symbol size, which holds
    across a small neighbourhood whatever the perspective. ``spreads`` (per point, see
    :class:`Sketch`; None: none measured) travel with it to :func:`assign_cells`.
    ``shorter``: where the guessed pitch leaves symbols unexplained, shorter ones are tried
    too (:func:`vision.topface.best_sketch`); without, the guess is the sketch.
    """
    if spreads is None:
        spreads = np.full((len(points), 3), np.nan)
    if not len(points):
        return Sketch(points.reshape(0, 2), np.eye(3), np.eye(2), spreads.reshape(0, 3))
    scale = _local_scale(points, extents)
    sketch_with = partial(_sketched, points, spreads, scale, axes)
    ratios = _pitch_ratios(points, scale, axes)
    if not shorter:
        return sketch_with(ratios)
    return topface.best_sketch(sketch_with, ratios, points, scale, axes)


def first_fit(work: Work, points: np.ndarray, extents: np.ndarray, spreads: np.ndarray,
              turn: int = 0) -> tuple[np.ndarray, Sketch, Grid | None] | None:
    """The axes and the lattice's first sketch through the symbols, and the grid
    :func:`assign_cells` gives it without a board's squares where it was made to judge them.

    The axes are those of the strongest edge direction, or of another pair
    (:func:`axis_choices`) whose grid explains clearly more symbols
    (:func:`vision.topface.explained`) where the first's leaves many unexplained. They are
    judged by the grids, not the sketches: under strong perspective a right sketch may
    explain half the tiles and its grid nearly all (rendered boards 50-60 degrees from
    vertical: 23 of 47, then 44). A board whose first sketch explains it well, and the board
    game's diagonal start, cost one sketch and no grid. Axes that draw the symbols
    (``spreads``, see :func:`vision.topface.skew`) out of round are replaced by others
    (:func:`_unskewed`).

    ``turn`` passes over that many of the pairs, strongest first, for a reading that found
    the tiles on the lattice along them unlike any kind of tile (:func:`vision.scan._read`);
    None when no pair is left.
    """
    choices = axis_choices(work, points, extents)[turn:]
    if not choices:
        return None
    axes, best = choices[0], sketch(points, extents, choices[0], spreads)
    score = topface.explained(points, best.homography)
    if len(choices) == 1:
        return axes, best, None
    # a corner start is the board game's diagonal start, or a lattice sheared by a cell per
    # row, which turns one axis's lines into diagonals too: only the second draws symbols long
    if topface.corner_start(points, best.homography, score):
        fit, score = _side_by_side(points, extents, spreads, choices, (axes, best, None), score)
        return _unskewed(points, extents, spreads, choices, fit, score)
    if topface.good_enough(score, len(points)):
        return _unskewed(points, extents, spreads, choices, (axes, best, None), score)
    grid = assign_cells(best)
    score = topface.explained(points, grid.homography)
    if topface.good_enough(score, len(points)):
        # a grid explains a sheared sketch's symbols well enough too: on the photo after
        # rendered game 114's 14th move, axes 46 degrees apart fitted 26 of 28 and drew the
        # symbols 2.3 times as long as wide; the tiles read on it were misread (diamonds as
        # circles, crosses as stars)
        return _unskewed(points, extents, spreads, choices, (axes, best, grid), score)
    for other in choices[1:]:
        if _most_explained(points, extents, other) - score <= topface.SLACK * len(points):
            continue  # could not explain clearly more, as below
        candidate = sketch(points, extents, other, spreads)
        cells = assign_cells(candidate)
        found = topface.explained(points, cells.homography)
        # clearly more: on a small board a stray symbol or two (a floor's joint) decide a
        # near tie, and the first pair comes from the tiles' own sides; and with more of
        # them side by side (a block of tiles cut by the picture's edge left the first
        # explaining 32 of 45, and a lattice turned across it explained 41)
        if topface.better(found, score, len(points)) \
                and found - score > topface.SLACK * len(points) \
                and topface.side_pairs(points, cells.homography) \
                > topface.side_pairs(points, grid.homography):
            axes, best, grid, score = other, candidate, cells, found
    return _unskewed(points, extents, spreads, choices, (axes, best, grid), score)


def _side_by_side(points: np.ndarray, extents: np.ndarray, spreads: np.ndarray,
                  choices: list[np.ndarray], fit: tuple[np.ndarray, Sketch, Grid | None],
                  score: int) -> tuple[tuple[np.ndarray, Sketch, Grid | None], int]:
    """``fit``, taken for the board game's diagonal start, or another axis choice whose
    sketch explains clearly more symbols side by side, nearly all, on cells as fine or as
    the tiles' own, or leaving them clearly rounder.

    The diagonal start's tiles meet at corners, so a lattice along their diagonals explains
    them side by side as well, but on cells 1.4 times as wide (on the real photo
    connect-1/00.jpg the symbols span 0.49 of such a cell and 0.71 of the tiles' own). Where
    the tiles' sides are faint and diamond symbols many, the first choice can run along the
    diagonals of a board laid side by side, at the tiles' own pitch: the frame of game 121 of
    the hardest footage at 72 s explained 6 of its 24 symbols so and 4 more by corners, and
    its own axes all 24, on cells as fine.

    Nor is it a start where another choice's cells fit the symbols as their tiles' own do:
    symbols span about 0.8 of their tiles' cells (:data:`OWN_SHARE`), and on a real start's
    diagonals at most 0.67 (`--variant all`). Dim hundred-tile boards under a 1.5-px wobble
    gave first sketches along their diagonals on cells 1.4 times too fine: game 121's frame
    at 185.9 s explained 3 of its 77 symbols side by side and 27 more by corners, its own
    axes all 77 at 0.83 (44 tiles were read on the first, 77 on the other); at 206.4 s 0
    and 23 of 79, its own axes all 79 at 0.83 (20 tiles read, then 82), where the start's
    cells were narrower than the symbols (1.10).

    Nor is it a start whose lattice draws the symbols out clearly more than another choice's
    (:func:`vision.topface.skew`, :data:`SKEWED_START`): a start and a lattice along its
    diagonals are both square, and leave the symbols about as round. Game 114's frame at
    129.5 s, a board laid at 45 degrees to the picture with many diamond and star symbols
    (whose edges run along the picture's axes), gave a first sketch along those axes that
    explained none of its 36 symbols side by side and all by corners, on cells the symbols
    span 0.90 of, drawing them out 1.62 times; the tiles' own axes explain 35, at 0.72 of a
    cell and round (1.01). 18 tiles were read on the first, 39 on the other.

    Another choice is sketched at its guessed pitch alone. The shorter pitches
    :func:`vision.topface.best_sketch` tries where a guess leaves symbols unexplained never
    brought one here to nearly all: not in 112 such tries on the real photos (`python -m
    vision.evaluate.real --variant all`), 2 on 460 rendered boards (``--synthetic 160
    --oblique 20 --floors 100 --cloths 40 --cut 100``), nor 11 in games 100-109, 114 and 121
    of the hardest footage; every candidate taken was good at its guess. On oblique-2/02.jpg
    the guess explains 9 of 29 symbols and the three shorter pitches at most 12, for a fifth
    of the scan's time.
    """
    fineness = _symbol_share(points, extents, fit[1].homography)
    drawn_out = topface.skew(points, spreads, fit[1].homography)
    for other in choices[1:]:
        most = _most_explained(points, extents, other)
        if not topface.good_enough(most, len(points)) \
                or most - score <= topface.SLACK * len(points):
            continue  # could not explain nearly all, nor clearly more, as below
        candidate = sketch(points, extents, other, spreads, shorter=False)
        found = topface.explained(points, candidate.homography)
        share = _symbol_share(points, extents, candidate.homography)
        if topface.good_enough(found, len(points)) \
                and found - score > topface.SLACK * len(points) \
                and (share >= AS_FINE * fineness or share >= OWN_SHARE
                     or drawn_out > SKEWED_START * topface.skew(points, spreads,
                                                                candidate.homography)):
            return (other, candidate, None), found
    return fit, score


AS_FINE = 0.9
"""Least ratio of the symbols' share of a cell on another lattice to theirs on a diagonal
start's for the other's cells to count as fine (:func:`_side_by_side`): 1/sqrt(2) on the
start's own diagonals; 0.94 on game 121's frame, whose first lattice ran along the diagonals."""

OWN_SHARE = 0.75
"""Least share of a cell's side the symbols span on a lattice for its cells to be the tiles'
own whatever the start's (:func:`_side_by_side`): 0.83-0.85 on the dim boards of game 121
of the hardest footage, at most 0.67 on a lattice along a real photo's start's diagonals."""


SKEWED_START = 1.3
"""Most a supposed diagonal start may draw the symbols out (:func:`vision.topface.skew`) beyond
another choice that explains them side by side before that other is taken
(:func:`_side_by_side`): at most 1.08 times on the real photos' starts beside their diagonals,
1.60 (1.62 against 1.01) on game 114's frame of the hardest footage, whose first sketch was no
square lattice."""


def _most_explained(points: np.ndarray, extents: np.ndarray, axes: np.ndarray) -> int:
    """How many symbols a lattice along ``axes`` can explain at most, whatever its sketch
    (:func:`vision.topface.most_explained`): another axis choice is sketched only where that
    could win."""
    return topface.most_explained(points, _local_scale(points, extents), axes)


def _symbol_share(points: np.ndarray, extents: np.ndarray, homography: np.ndarray) -> float:
    """The symbols' median extent over a cell's side on a lattice, where they lie."""
    cells = project(np.linalg.inv(homography), points)
    return float(np.median(extents)) / cell_side(homography, cells)


def _unskewed(points: np.ndarray, extents: np.ndarray, spreads: np.ndarray,
              choices: list[np.ndarray], fit: tuple[np.ndarray, Sketch, Grid | None],
              score: int) -> tuple[np.ndarray, Sketch, Grid | None]:
    """``fit``, or where its lattice draws the symbols out of round (:func:`topface.skew`)
    the roundest of the other axis choices whose sketch explains about as many symbols.

    On a floor whose seams run at an angle to the tiles, dark tiles show their sides faintly
    and the seams give the strongest edge direction: a lattice along them, sheared by 52
    degrees, explained 57 of 59 symbols and put 20 tiles on wrong cells (`--floors`, board
    38); the tiles' own axes explain all 59.
    """
    homography = (fit[1] if fit[2] is None else fit[2]).homography
    least = topface.skew(points, spreads, homography)
    if least <= topface.MAX_SKEW:
        return fit
    for other in choices:
        if other is fit[0] or _most_explained(points, extents, other) \
                < score - topface.SLACK * len(points):
            continue
        candidate = sketch(points, extents, other, spreads)
        stretch = topface.skew(points, spreads, candidate.homography)
        if stretch < least and topface.explained(points, candidate.homography) \
                >= score - topface.SLACK * len(points):
            fit, least = (other, candidate, None), stretch
    return fit


def _sketched(points: np.ndarray, spreads: np.ndarray, scale: np.ndarray, axes: np.ndarray,
              ratios: np.ndarray) -> Sketch:
    """The sketch for one guess of the pitch along each axis (in local symbol sizes)."""
    basis = axes.T * ratios  # columns: one cell step, per unit scale
    inv = np.linalg.inv(basis)
    diff = points[None, :, :] - points[:, None, :]
    pair_scale = 0.5 * (scale[:, None] + scale[None, :])
    offsets = np.einsum("ij,abj->abi", inv, diff) / pair_scale[..., None]
    cells, group = _spanning_cells(offsets, len(points))
    step = basis * np.median(scale)
    homography, _ = _joint_fit(cells, points, group, step)
    return Sketch(points, homography, step, spreads)


def assign_cells(first: Sketch, anchors: np.ndarray | None = None) -> Grid:
    """Integer cells for the symbol centres of a :func:`sketch`.

    The sketch's homography re-measures every offset in true lattice units (handling strong
    perspective), and a second pass assigns the final cells.

    ``anchors`` are centres of empty printed board squares (:func:`vision.detect.find_squares`).
    They join the second pass as stepping stones, so groups of tiles that touch nowhere (the
    separate diagonals of the board game's start) are linked cell by cell across the board,
    seams included; they get no cells of their own. In an oblique view the cells are measured
    again in the fit's frame while that explains more tiles (:func:`vision.topface.refined`).
    """
    return topface.refined(
        _assigned(first, anchors), first.points, first.spreads,
        lambda homography, ruler: _assigned(replace(first, homography=homography), anchors,
                                            ruler))


def _assigned(first: Sketch, anchors: np.ndarray | None,
              ruler: np.ndarray | None = None) -> Grid:
    """One pass of :func:`assign_cells`; ``ruler`` (per point, from
    :func:`vision.topface.local_stretch`) measures the steps between points, none the steps
    to a board's squares."""
    points = first.points
    n = len(points)
    if n == 0:
        return Grid(np.zeros((0, 2), int), np.eye(3), np.zeros(0, bool), np.zeros(0, int))
    homography = first.homography
    if anchors is not None and len(anchors):
        homography = _board_homography(anchors, homography)
    fractional = project(np.linalg.inv(homography), points)
    if anchors is not None and len(anchors):
        squares = project(np.linalg.inv(homography), anchors)
        fractional = np.vstack([fractional, squares - _parallax(fractional, squares)])
    everything = project(homography, fractional)
    offsets = fractional[None, :, :] - fractional[:, None, :]
    if ruler is not None:
        rulers = np.concatenate([ruler, np.broadcast_to(np.eye(2), (len(offsets) - n, 2, 2))])
        offsets = _by_rulers(offsets, rulers)
    cells, group = _spanning_cells(offsets, n)
    used = np.isin(group, group[:n])  # anchors linked to no tile are left out
    homography, shifts = _joint_fit(cells[used], everything[used], group[used], first.step)
    cells, keep = _merge_groups(cells[:n], group[:n], shifts,
                                project(np.linalg.inv(homography), points))
    return _rebased(cells, homography, keep, group[:n])


def _by_rulers(offsets: np.ndarray, rulers: np.ndarray) -> np.ndarray:
    """Each offset between two points measured by the mean of their rulers (symmetric 2x2
    matrices): divided by it, with the inverse written out, plane by plane. A general inverse
    of every pair's matrix cost a tenth of a second a pass on 200 points (noise)."""
    a, b, c = (0.5 * (rulers[:, None, i, j] + rulers[None, :, i, j])
               for i, j in ((0, 0), (0, 1), (1, 1)))
    det = a * c - b * b
    across, down = offsets[..., 0], offsets[..., 1]
    return np.stack([(c * across - b * down) / det, (a * down - b * across) / det], axis=-1)


def _rebased(cells: np.ndarray, homography: np.ndarray, keep: np.ndarray,
             group: np.ndarray) -> Grid:
    """The grid with its cells renumbered so the kept ones start at (0, 0)."""
    origin = cells[keep].min(axis=0)
    shift = np.array([[1.0, 0.0, origin[0]], [0.0, 1.0, origin[1]], [0.0, 0.0, 1.0]])
    return Grid(cells - origin, homography @ shift, keep, group)


MIN_SQUARES = 12
"""Linked board squares needed before the board, rather than the tiles, fixes perspective."""

RANSAC_TRIES = 200
"""Most samples RANSAC draws for a homography. A board's cells fit one so well that a few
dozen do; OpenCV's default of 2,000 is reached only on points that fit nothing (noise, a
patterned cloth), where each fit then cost 20 ms, dozens of times a scan. 200 are enough
(at OpenCV's confidence of 0.995) while two fifths of the points fit; 500 cost a picture of
specks a further 0.15 s."""


def _board_homography(squares: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """The board plane's homography from its printed squares, else the tiles' one.

    The first fit from tiles alone is poor when they form separate short diagonals under
    strong perspective; the empty squares of a board are many and cover it evenly. They are
    linked square to square (steps of one cell, where a rough homography is good enough).
    """
    fractional = project(np.linalg.inv(homography), squares)
    cells, group = _spanning_cells(fractional[None, :, :] - fractional[:, None, :],
                                   len(squares))
    labels, counts = np.unique(group, return_counts=True)
    main = group == labels[np.argmax(counts)]
    if main.sum() < MIN_SQUARES or not _spans_plane(cells[main].astype(float)):
        return homography
    board, _ = cv2.findHomography(cells[main].astype(float), squares[main], cv2.RANSAC,
                                  0.25 * cell_side(homography, fractional[main]),
                                  maxIters=RANSAC_TRIES)
    if not viewable(board, cells[main]):
        return homography
    # keep the tiles' cell numbering: map the board's cells onto the first fit's
    offset = np.rint(np.median(fractional[main] - cells[main], axis=0))
    return board @ np.array([[1.0, 0, -offset[0]], [0, 1.0, -offset[1]], [0, 0, 1.0]])


def cell_side(homography: np.ndarray, cells: np.ndarray) -> float:
    """Median side of a cell in pixels at the given cells (mean of its two axes)."""
    centres = np.asarray(cells, dtype=np.float64).reshape(-1, 2)
    origin, right, down = (project(homography, centres + step) for step in ([0, 0], [1, 0],
                                                                             [0, 1]))
    sides = 0.5 * (np.linalg.norm(right - origin, axis=1) + np.linalg.norm(down - origin, axis=1))
    return float(np.median(sides))


def _parallax(tiles: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """How far printed squares sit off the tile lattice, in cells (common to the whole photo).

    Tiles are measured on their top faces, the board's squares on the board, so in an oblique
    view the squares look shifted by the tiles' height; removed, a square next to a tile is a
    whole number of cells away again. The shift is the circular mean of the fractional
    offsets between tiles and squares near them; seams between board pieces affect only the
    few pairs across them.
    """
    diff = squares[None, :, :] - tiles[:, None, :]
    near = np.abs(diff).max(axis=2) < 1.6
    if not near.any():
        return np.zeros(2)
    turn = np.exp(2j * np.pi * diff[near])  # (pairs, 2)
    return np.angle(turn.mean(axis=0)) / (2 * np.pi)


def _local_scale(points: np.ndarray, extents: np.ndarray) -> np.ndarray:
    """A smoothed symbol size per point: the median over it and its nearest neighbours.

    Symbol extents vary with shape (a star's box is wider than a circle's); the neighbourhood
    median keeps that noise out of the pitch while following perspective across the photo.
    """
    d = np.linalg.norm(points[:, None] - points[None], axis=2)
    k = min(len(points), 5)
    nearest = np.argsort(d, axis=1)[:, :k]
    return np.median(extents[nearest], axis=1)


def _pitch_ratios(points: np.ndarray, scale: np.ndarray, axes: np.ndarray) -> np.ndarray:
    """Cell pitch along each axis in units of the local symbol size.

    Offsets between close pairs are decomposed along the axes; a non-zero component of a
    neighbour's offset is one cell (or two), so the median of the components that look like a
    single step is the pitch. An axis that no pair spans takes the other's value.
    """
    comps = topface.offsets_along(points, scale, axes)
    diff = points[None, :, :] - points[:, None, :]
    pair_scale = 0.5 * (scale[:, None] + scale[None, :])
    close = np.linalg.norm(diff, axis=2) < 2.8 * pair_scale  # diagonals of big cells too
    ratios = []
    for axis in (0, 1):
        c = comps[..., axis][close]
        step = c[(c > 0.85) & (c < 1.8)]
        ratios.append(float(np.median(step)) if step.size else np.nan)
    if np.isnan(ratios[0]) and np.isnan(ratios[1]):
        # No pair looks one step apart: a few tiles whose symbols were found only in part (a
        # star's core on a 30-px tile) sit further apart than their size suggests. Touching
        # tiles (a first move) are then the nearest pair; otherwise guess a typical symbol.
        c = comps[close]
        c = c[(c > 0.85) & (c < MAX_STEP)]
        return np.full(2, float(c.min()) if c.size else 1.25)
    return np.where(np.isnan(ratios), np.nanmean(ratios), ratios)


MAX_STEP = 2.4
"""Longest offset (in cells, per axis) trusted for a spanning-tree step."""


ANCHOR_COST = 0.15
"""Extra cost of a step to or from a board square, so tile-to-tile steps are used first."""


def _spanning_cells(offsets: np.ndarray, tiles: int) -> tuple[np.ndarray, np.ndarray]:
    """Integer cells from pairwise fractional offsets, one rounded step at a time.

    Prim's algorithm grows a tree from the best-fitting steps (offsets closest to whole
    cells, short steps before long ones); each point's cell is its parent's plus the rounded
    step. Points that no acceptable step reaches start a new group with its own origin.
    Points from index ``tiles`` on are board squares: usable, but dearer, stepping stones.
    """
    n = offsets.shape[0]
    rounded = np.rint(offsets)
    off_x, off_y = np.abs(offsets[..., 0]), np.abs(offsets[..., 1])  # planes: fast to combine
    miss = np.abs(offsets - rounded)
    error = np.maximum(miss[..., 0], miss[..., 1])
    length = np.maximum(off_x, off_y)
    ok = (error < 0.3) & (length < MAX_STEP) & (length >= 0.5)  # a step rounds to a move
    cost = error + 0.05 * length
    cost[tiles:] += ANCHOR_COST
    cost[:tiles, tiles:] += ANCHOR_COST
    cost[~ok] = np.inf
    step = rounded.astype(int)
    group = np.full(n, -1)
    # Prim's algorithm on the dense cost matrix: each point's cheapest step from the tree so
    # far, updated with one vector operation per point joined (a heap of Python tuples
    # costs more than the whole lattice fit otherwise). A point joined is never reached
    # again (its column of costs is closed), so its parent is final: the cells follow the
    # tree afterwards, in Python numbers.
    best = np.full(n, np.inf)
    parent = np.zeros(n, int)
    joined = []
    for seed in range(n):
        if group[seed] >= 0:
            continue
        group[seed], node = seed, seed
        while True:
            cost[:, node] = np.inf
            row = cost[node]
            closer = row < best
            parent[closer] = node
            np.minimum(best, row, out=best)
            node = int(best.argmin())
            if best[node] == np.inf:
                break
            best[node] = np.inf
            group[node] = seed
            joined.append(node)
    x, y = [0] * n, [0] * n
    moves = step[parent[joined], joined].tolist() if joined else []
    for node, above, (dx, dy) in zip(joined, parent[joined].tolist(), moves, strict=True):
        x[node], y[node] = x[above] + dx, y[above] + dy
    return np.array([x, y], dtype=int).T.copy(), group


def _fit(cells: np.ndarray, points: np.ndarray, group: np.ndarray,
         basis: np.ndarray) -> np.ndarray:
    """Homography cell -> pixel from the largest group, or an affine frame when it is too thin.

    A single line of tiles fixes neither perspective nor the second axis's pitch; the affine
    frame from the tile-edge directions and the typical pitch stands in for it then.
    """
    labels, counts = np.unique(group, return_counts=True)
    main = group == labels[np.argmax(counts)]
    c, p = cells[main].astype(np.float64), points[main]
    spread = np.linalg.matrix_rank(c - c.mean(axis=0), tol=0.5) if len(c) > 1 else 0
    if len(c) >= 5 and spread == 2 and len(np.unique(c[:, 0])) > 2 \
            and len(np.unique(c[:, 1])) > 2:
        h, _ = cv2.findHomography(c, p, cv2.RANSAC, 0.3 * float(np.linalg.norm(basis[:, 0])),
                                  maxIters=RANSAC_TRIES)
        if viewable(h, c):
            return h
    # affine: fixed axes and pitch, translation from the group's centroid
    centre = p.mean(axis=0) - basis @ c.mean(axis=0)
    return np.array([[basis[0, 0], basis[0, 1], centre[0]],
                     [basis[1, 0], basis[1, 1], centre[1]],
                     [0.0, 0.0, 1.0]])


SETTLED = 0.01
"""Largest move of a group's shift (cells) that ends :func:`_joint_fit`'s rounds. On the real
photos' printed boards, whose diagonals make several groups, the shifts creep by 0.02 cells
and less a round after the first, to the sixth and last; ending under 0.01 halves a scan's
homography fits there (16 to 8 on oblique-2/13), and `python -m vision.bench.scan` gives those
photos 3-5 % less time. Was 0.002: the real photos (all 9 variants), the rendered boards of
``--synthetic``, ``--oblique`` and ``--cloths`` read the same to the hundredth; ``--floors
100`` one tile less (board 91, 31 of 40), 97.95 -> 97.92 % found."""


def _joint_fit(cells: np.ndarray, points: np.ndarray, group: np.ndarray,
               basis: np.ndarray) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """One homography for all groups, each group placed by its own (fractional) shift.

    Groups that share no tile step (separate diagonals on a board) know only their inner
    cells. Alternating "shift each group to fit the homography" and "refit the homography to
    all shifted cells" uses every group's shape, so perspective is right even where the
    largest group alone (a single line or diagonal) cannot fix it.
    """
    homography = _fit(cells, points, group, basis)
    labels, member, counts = np.unique(group, return_inverse=True, return_counts=True)
    if len(labels) == 1:  # nothing to place
        return homography, {int(labels[0]): np.zeros(2)}
    main = int(np.argmax(counts))
    placed = cells.astype(np.float64)
    for _ in range(6):
        miss = project(np.linalg.inv(homography), points) - cells
        shift = _group_medians(miss, member, counts)
        shift[main] = 0.0
        before, placed = placed, cells + shift[member]
        if not _spans_plane(placed) or np.abs(placed - before).max() < SETTLED:
            break  # settled: the last refit already saw these shifts
        refit, _ = cv2.findHomography(placed, points, 0)
        if not viewable(refit, placed):
            break
        homography = refit
    return homography, dict(zip(labels.tolist(), shift, strict=True))


def viewable(homography: np.ndarray | None, cells: np.ndarray) -> bool:
    """Whether a fitted homography can be a camera's view of ``cells``: each of them in front
    of the camera (one sign of depth) and at least a pixel in area, with one orientation.

    Points that fit no lattice (noise, a patterned cloth) can give a degenerate fit that
    maps every cell onto one line, or puts the horizon among them; nothing later could
    invert it. A homography's local area is its determinant over the cube of the depth.
    """
    if homography is None or not np.isfinite(homography).all():
        return False
    depth = np.asarray(cells, np.float64) @ homography[2, :2] + homography[2, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        area = np.linalg.det(homography) / depth ** 3
    return bool(np.isfinite(area).all() and np.abs(area).min(initial=np.inf) >= 1.0
                and ((area > 0).all() or (area < 0).all()))


def _group_medians(values: np.ndarray, member: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per group, the median of ``values`` (N, 2) over its members (``member``: each row's
    group, 0..G-1; ``counts``: rows per group), both columns at once: one sort by group and
    value instead of a median per group (a board's scattered diagonals make many groups)."""
    first = np.cumsum(counts) - counts
    low, high = first + (counts - 1) // 2, first + counts // 2
    medians = np.empty((len(counts), values.shape[1]))
    for axis in range(values.shape[1]):
        ranked = values[np.lexsort((values[:, axis], member)), axis]
        medians[:, axis] = 0.5 * (ranked[low] + ranked[high])
    return medians


def _spans_plane(cells: np.ndarray) -> bool:
    """Enough points off one line, in both axes, to fix a homography."""
    if len(cells) < 5:
        return False
    centred = cells - cells.mean(axis=0)
    return bool(np.linalg.svd(centred, compute_uv=False)[1] > 0.5 * np.sqrt(len(cells)))


def _merge_groups(cells: np.ndarray, group: np.ndarray, shifts: dict[int, np.ndarray],
                  fractional: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Put every group on the main group's origin and drop points that collide.

    A group's shift (from :func:`_joint_fit`) is rounded as a whole, so a group stays in one
    piece. Two points on one cell keep the one nearer the cell's centre.
    """
    merged = cells.copy()
    for g in np.unique(group):
        idx = group == g
        merged[idx] += np.rint(shifts[int(g)]).astype(int)
    keep = np.ones(len(cells), bool)
    miss = np.linalg.norm(fractional - np.rint(fractional), axis=1)
    seen: set[tuple[int, int]] = set()
    for i in np.argsort(miss):
        key = (int(merged[i, 0]), int(merged[i, 1]))
        if key in seen:
            keep[i] = False
        seen.add(key)
    return merged, keep
