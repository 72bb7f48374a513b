"""The lattice on the tiles' top faces seen from a phone beside the table, 50-60 degrees off
vertical: tops squashed along one axis, strong perspective, the tiles' sides in view.

Why a module of its own: four things the overhead-minded lattice gets wrong there (`python -m
vision.evaluate.real --oblique 10` before it: 78 % of the tiles found at 50-60 degrees, 90 %
precision, 70 % labelled right).

- The pitch. The tops are foreshortened to about half their width along the axis pointing
  away from the camera, while the symbols on them stay as wide as ever across it. The
  lattice's first guess measures offsets in units of the local symbol size and takes a step
  as 0.85-1.8 of it (:func:`vision.lattice._pitch_ratios`): along the squashed axis a
  one-cell step falls below that band, so it sees only two-cell steps or none and borrows the
  other axis's pitch, and the rows land between the tiles, on their sides. A game's tiles lie
  in lines, so the nearest neighbour straight along an axis measures one cell whatever the
  foreshortening (:func:`axis_pitches`); :func:`best_sketch` tries that and shorter shares.
- The perspective. A near tile may look four times the size of a far one; the first sketch
  measures offsets in one affine frame, which bends at the far rows. :func:`refined` measures
  the cells again in the fitted homography's frame.
- The tiles' height. Table seen through a gap ringed by tiles is ringed by their dark sides
  too, passes for a symbol, and the classifier takes it for a tile; on the tops' lattice it
  sits shifted towards the camera by the tiles' height (:func:`through_gap`).
- The symbols' shape. Every symbol is as round on its tile one way as the other, so its
  spread in the photo shows the view's local stretch: a lattice sheared along a floor's
  seams leaves the symbols drawn out (:func:`skew`), and one too flat at the far rows shows
  them too small there (:func:`local_stretch`).

Which lattice is right is judged by :func:`explained`: symbols on cells' centres, one per
cell, with a tile beside them. Each step but :func:`skew` runs only for an oblique view
(:data:`MIN_TILT`), so overhead photos cost what they did; :func:`skew` judges every first
fit, a few small matrix products, since seams shear a lattice seen from above too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from vision.lattice import Grid, Sketch

ALONG = 0.35
"""Largest sideways offset, as a share of the offset along an axis, for a neighbour to lie
"straight along" it (a tile nudged by a tenth of a cell, perspective bending the axes)."""

SHORTER = 0.8
"""A measured pitch this much shorter than the symbol-size guess is tried first; nearer, the
two agree and the fixed shares (:data:`SHORTER_TRIES`) are tried alone."""

MIN_PAIRS = 4
"""Points with a neighbour straight along an axis needed before their pitch is trusted."""


def axis_pitches(points: np.ndarray, scale: np.ndarray, axes: np.ndarray) -> np.ndarray:
    """Cell pitch along each lattice axis in units of the local symbol size (NaN: unknown).

    For every point, the nearest other point straight along the axis (in the affine frame of
    ``axes``, rows: unit vectors in the image) gives one distance; most are one cell, the
    rest whole multiples of it (a gap). The pitch is the median of those near the lower
    quartile, so gaps and a few missed tiles do not lengthen it.
    """
    comps = offsets_along(points, scale, axes)
    pitches = np.full(2, np.nan)
    for axis in (0, 1):
        along, across = comps[..., axis], comps[..., 1 - axis]
        straight = (across <= ALONG * along) & (along > 0.25)
        nearest = np.where(straight, along, np.inf).min(axis=1)
        nearest = nearest[np.isfinite(nearest)]
        if len(nearest) < MIN_PAIRS:
            continue
        low = np.percentile(nearest, 25)
        pitches[axis] = float(np.median(nearest[nearest < 1.4 * low]))
    return pitches


def offsets_along(points: np.ndarray, scale: np.ndarray, axes: np.ndarray) -> np.ndarray:
    """Every pair's offset (N, N, 2) along each axis (``axes``, rows: unit vectors in the
    image), unsigned, in units of the pair's local symbol size (``scale``, per point)."""
    inv = np.linalg.inv(axes.T)
    diff = points[None, :, :] - points[:, None, :]
    pair_scale = 0.5 * (scale[:, None] + scale[None, :])
    return np.abs(np.einsum("ij,abj->abi", inv, diff)) / pair_scale[..., None]


SHORTER_TRIES = (0.8, 0.65, 0.5)
"""Shares of the first guess's pitch tried along one axis when that guess leaves tiles off
the lattice: 50-60 degrees off vertical squash a cell to 0.5-0.65 of its width."""

AROUND = [(1, 0), (-1, 0), (0, 1), (0, -1)]
"""The cells beside a cell."""

ROUND = AROUND + [(1, 1), (1, -1), (-1, 1), (-1, -1)]
"""The cells beside a cell and at its corners."""

CORNERS = 0.08
"""Share of the points that the first sketch explains by their corners alone above which the
tiles are the board game's diagonal start, on a lattice that fits: the real photos' starts
seen from 30 degrees show 0.11-0.23; a foreshortened first sketch, fitting badly, 0.055 at
most (the rendered 40-60 degree boards)..."""

CORNER_TILES = 2
"""... and at least this many of them: on a small board one is chance. An L of six tiles, on
a black table where no tile's outline shows, explained two side by side and one more by a
corner on a first sketch turned 40 degrees off the tiles' axes; taken for the diagonal start,
that lattice misread every tile of game 121's first moves (`python -m vision.evaluate.replay
--seed 121`). The real photos' starts leave 7 or more to corners."""

FITS = 0.25
"""Largest distance (cells, per axis) from a cell's centre for a symbol to fit the lattice."""


MIN_TILT = 0.01
"""Least relative change of depth per cell across a lattice for its view to count as
oblique. Straight from above no direction points towards the camera, and the tiles' height
shifts nothing: the real overhead photos show 0.003 or less, the real oblique ones 0.013 to
0.022, boards rendered 30-60 degrees from vertical 0.018 to 0.1."""


def toward_camera(homography: np.ndarray, cells: np.ndarray) -> tuple[np.ndarray, float]:
    """The unit direction (in cells) towards the camera on the lattice ``homography``'s
    plane round ``cells``, and the view's tilt: the relative change of depth per cell."""
    # depth along the plane grows with the homography's third row
    depth = homography[2, :2] @ np.asarray(cells, np.float64).mean(axis=0) + homography[2, 2]
    away = homography[2, :2] / depth
    tilt = float(np.linalg.norm(away))
    return -away / max(tilt, 1e-12), tilt


def _view(homography: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, float]:
    """:func:`toward_camera` round the photo ``points``."""
    return toward_camera(homography, _fractional(points, homography))


def _fractional(points: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """The photo ``points``' (fractional) cells on the lattice ``homography``."""
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, np.linalg.inv(homography)).reshape(-1, 2)


def best_sketch(sketch_with: Callable[[np.ndarray], Sketch], ratios: np.ndarray,
                points: np.ndarray, scale: np.ndarray, axes: np.ndarray) -> Sketch:
    """The lattice's first sketch for the pitch guess ``ratios``, or for a shorter one along
    an axis when that explains more tiles (:func:`explained`).

    A photo whose tiles nearly all fit the first sketch costs one sketch; so do an overhead
    one, whose cells are square, and the board game's diagonal start, whose tiles meet at
    corners and explain no lattice (:data:`CORNERS`). Only an imperfect oblique one tries the
    pitch the tiles' neighbours show (:func:`axis_pitches`) and fixed shares of the guess,
    one axis at a time.

    A sketch whose groups were too thin to fit a perspective to is an affine frame
    (:func:`vision.lattice._fit`), which shows no tilt however oblique the view: an
    imperfect one tries the measured pitches that are clearly shorter than the guess
    (:func:`_measured_shorter`). A 787-px picture of a board game seen 52 degrees from
    vertical, its rows 25 px apart under symbols 25-40 px wide, had two rows taken for one
    cell, and 7 of its 19 tiles read; on the rows' own pitch, all 19.
    """
    best = sketch_with(ratios)
    toward, tilt = _view(best.homography, points)
    flat = not best.homography[2, :2].any()
    if tilt < MIN_TILT and not flat:
        return best
    score = explained(points, best.homography)
    if good_enough(score, len(points)) or corner_start(points, best.homography, score):
        return best
    measured = axis_pitches(points, scale, axes)
    tries = _measured_shorter(ratios, measured) if flat else _tries(ratios, measured, toward)
    for axis, tried in tries:
        candidate = sketch_with(tried)
        if better(found := explained(points, candidate.homography), score, len(points)) \
                and not _halved(points, candidate.homography, axis):
            best, score = candidate, found
    return best


def most_explained(points: np.ndarray, scale: np.ndarray, axes: np.ndarray) -> int:
    """How many points a lattice along ``axes`` can explain (:func:`explained`), whatever its
    pitch: those with another point nearly straight along an axis (:data:`BESIDE_SLANT`)
    within a few symbol sizes (:data:`BESIDE_REACH`). A bound in practice, not in principle:
    a point a quarter cell off its centre, beside one a quarter cell off the other way, lies
    further aslant, and one found in part further off.

    A few matrix products, where a lattice's sketch costs a fit per pitch tried: another axis
    choice whose sketch could not win is not made (:func:`vision.lattice.first_fit`). The
    real photos' scans made 97 sketches where they made 109 (12 fewer on the board game's
    photos, all of them for a start's other choices) and read every photo as before, as did
    the rendered boards of ``--synthetic``, ``--oblique``, ``--floors``, ``--cloths`` and
    ``--cut`` (`python -m vision.evaluate.real`, 40-120 boards each).
    """
    comps = offsets_along(points, scale, axes)
    beside = np.zeros(len(points), bool)
    for axis in (0, 1):
        along, across = comps[..., axis], comps[..., 1 - axis]
        beside |= ((along > 0.25) & (along < BESIDE_REACH)
                   & (across <= BESIDE_SLANT * along)).any(axis=1)
    return int(beside.sum())


BESIDE_SLANT = 0.4
"""Largest sideways offset, as a share of the offset along an axis, of a point beside another
on a lattice along it (:func:`most_explained`). Of every point a sketch explained, its
straightest neighbour beside it lay 0.32 aslant at most on the real photos; on rendered boards
30-60 degrees from vertical, 99 % lay within 0.35 and the most 0.63 (perspective bends the
lattice's axes away from the choice's straight ones)."""

BESIDE_REACH = 2.6
"""Longest offset along an axis, in local symbol sizes, of a point beside another
(:func:`most_explained`): 2.05 for 99.9 % of the points the real photos' sketches explained
(4.3 at most, a symbol found in part), 1.86 at most on the rendered 30-60 degree boards."""


def corner_start(points: np.ndarray, homography: np.ndarray, score: int) -> bool:
    """Whether a lattice that explains ``score`` points fits the board game's diagonal start:
    its tiles explain it by their corners (:data:`CORNERS`), and other lattices must not be
    tried, since one along the diagonals would explain them side by side."""
    corners = explained(points, homography, ROUND) - score
    return corners > CORNERS * len(points) and corners >= CORNER_TILES


def _halved(points: np.ndarray, homography: np.ndarray, axis: int) -> bool:
    """Whether a lattice has half the true pitch along ``axis``: its tiles there lie two
    cells apart with the cell between them free more often than side by side.

    A game's lines have no gaps, so on the right lattice neighbours along an axis are one
    cell apart. A half pitch still explains the tiles that have a neighbour along the other
    axis, and may fit a stray symbol or two between tiles besides: on a small board seen
    from above (whose few tiles can suggest a slight tilt) it then explains more points than
    the right lattice.
    """
    taken = _taken(points, homography)
    step = (1, 0) if axis == 0 else (0, 1)
    beside = sum((x + step[0], y + step[1]) in taken for x, y in taken)
    apart = sum((x + 2 * step[0], y + 2 * step[1]) in taken
                and (x + step[0], y + step[1]) not in taken for x, y in taken)
    return apart > beside


REFINE_ROUNDS = 3
"""Most passes of re-measuring the cells in the last fit's frame (two suffice when any do)."""

BENDING_TILT = 0.025
"""Least tilt (:data:`MIN_TILT`) at which the first sketch's one affine frame bends enough at
the far rows to be worth measuring again: the tops' squashing comes with the angle, but the
bending with the change of depth across the board. The real oblique photos (0.013-0.022)
read every tile without it, and it cost their scans a refit each; boards rendered 30-60
degrees from vertical show 0.027 and more."""


def refined(grid: Grid, points: np.ndarray, spreads: np.ndarray,
            reassign: Callable[[np.ndarray, np.ndarray | None], Grid]) -> Grid:
    """``grid``, or the grid that measuring the cells again in its own frame gives, while
    that explains more tiles; then the same with the offsets measured by the symbols' own
    ruler (:func:`local_stretch`).

    Under strong perspective the first sketch measures offsets in one affine frame, good near
    the middle of the tiles and bent at the far rows; the fitted homography follows the
    perspective, and cells measured again in its frame fit there too. Where the far rows
    were placed wrong at first, the homography follows them too little, and the symbols'
    ruler puts them right (a board rendered 50-60 degrees from vertical: 35 of its 41 tiles
    on their cells, then 40). ``reassign(homography, ruler)`` gives the grid measured in a
    homography's frame, by a ruler per point or by its cells alone.
    """
    if _view(grid.homography, points)[1] < BENDING_TILT:
        return grid
    score = explained(points, grid.homography)
    for by_ruler in (False, True):
        for _ in range(REFINE_ROUNDS):
            if good_enough(score, len(points)):
                return grid
            ruler = local_stretch(points, spreads, grid.homography) if by_ruler else None
            if by_ruler and ruler is None:
                break
            again = reassign(grid.homography, ruler)
            found = explained(points, again.homography)
            if not better(found, score, len(points)):
                break
            grid, score = again, found
    return grid


SLACK = 0.1
"""Share of the points a lattice may leave unexplained (a stray symbol on the table, a
lone tile) before other lattices are tried: those cost time, and overhead photos do not
need them."""


def good_enough(score: int, points: int) -> bool:
    """Whether a lattice explaining ``score`` of ``points`` needs no other tried.

    Too few symbols for a share to mean much: a lattice that pairs any of them will do, one
    that pairs none will not where two could pair (game 121 of the hardest footage: the first
    move's two tiles side by side, on a lattice whose axes the faint sides of black tiles on a
    black table put 17 degrees off, lay on no common line and were read as one tile)."""
    if points < MIN_PAIRS:
        return score > 0 or points < 2
    return points - score <= SLACK * points


MIN_SHARE = 0.4
"""Least share of the points another lattice must explain to replace the one it would
improve on. Tiles that meet only at corners (the board game's start) explain hardly any
lattice, and a try may pair a few of them by chance: on a real photo from 30 degrees, 10
of 34 against 5 for the right lattice, and three tiles lost. A right lattice that a try
finds under strong perspective explains about half the tiles before :func:`refined` (23 of
47 at worst in the rendered 50-60 degree boards, against 22 for the wrong first guess)."""


def better(found: int, score: int, points: int) -> bool:
    """Whether a lattice explaining ``found`` points replaces one explaining ``score``."""
    return found > score and found >= MIN_SHARE * points


DEPTH_AXIS = 0.5
"""Least component of the direction towards the camera (a unit vector in cells) along an
axis for that axis to be foreshortened enough to try shorter pitches along it."""


def _tries(ratios: np.ndarray, measured: np.ndarray,
           toward: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Shorter pitches to try, (axis, pitches) one axis at a time (the measured one first),
    along the axes that run towards the camera, the more foreshortened first: only those
    are squashed."""
    tries = []
    for axis in np.argsort(-np.abs(toward)):
        if abs(toward[axis]) < DEPTH_AXIS:
            continue
        shares = [measured[axis] / ratios[axis]] if measured[axis] < SHORTER * ratios[axis] \
            else []
        for share in shares + list(SHORTER_TRIES):
            tried = ratios.copy()
            tried[axis] *= share
            tries.append((int(axis), tried))
    return tries


def _measured_shorter(ratios: np.ndarray, measured: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """The pitches to try for a sketch fitted as an affine frame, (axis, pitches): along each
    axis whose neighbours measure a clearly shorter pitch than the guess, that pitch, the
    shorter first."""
    share = measured / ratios
    return [(int(axis), np.where(np.arange(2) == axis, measured, ratios))
            for axis in np.argsort(share) if share[axis] < SHORTER]


def explained(points: np.ndarray, homography: np.ndarray,
              around: Sequence[tuple[int, int]] = AROUND) -> int:
    """How many points a lattice explains: each near a cell's centre, alone in it, with a
    tile in a cell beside it (a game's tiles lie in lines).

    A pitch too long puts tiles between cells or two in one; one too short (half a cell)
    fits every centre but leaves a free cell between neighbours, so no tile has another
    next to it along that axis. Diagonal neighbours do not count: a lattice sheared by one
    cell per row turns the lines of one axis into diagonals.
    """
    taken = _taken(points, homography)
    return sum(any((x + dx, y + dy) in taken for dx, dy in around) for x, y in taken)


def side_pairs(points: np.ndarray, homography: np.ndarray) -> int:
    """How many pairs of the points a lattice puts side by side: a game's lines run along
    the axes, so the right lattice puts the most. One turned or sheared across a dense block
    of tiles can explain as many points (:func:`explained`), but more of them meet at
    corners."""
    taken = _taken(points, homography)
    return sum((x + dx, y + dy) in taken for x, y in taken for dx, dy in ((1, 0), (0, 1)))


MAX_SKEW = 1.8
"""Largest :func:`skew` of a right lattice. Measured on the lattices the scan fits: the real
photos up to 1.31 (an oblique one), 160 rendered boards up to 1.45 (three tiles), 100 floors
up to 1.53 (four tiles), rendered boards 50-60 degrees from vertical up to 1.65 (15 symbols
far off). A lattice sheared along a floor's seams, 52 degrees between its axes, gives 2.62."""

MIN_SPREADS = 6
"""Fewest measured symbols for :func:`skew` to judge a lattice: a few tiles say little."""


def skew(points: np.ndarray, spreads: np.ndarray, homography: np.ndarray) -> float:
    """How much a lattice stretches the symbols: 1.0 where they come out as round on the
    table as they are (the square root of the ratio of the larger to the smaller principal
    spread), 1.0 too where fewer than :data:`MIN_SPREADS` symbols have a measured spread.

    Every Qwirkle symbol has fourfold symmetry, so its spread on the table is alike in every
    direction. Carried back through the lattice's local stretch at each symbol, the photo's
    spreads come out round for the right lattice, however oblique the view. A lattice whose
    axes follow something else (a floor's seams, a diagonal of tiles) leaves them drawn out
    along the direction it shears, even where it explains as many symbols. ``spreads`` are
    (xx, xy, yy) per point (:attr:`vision.detect.Symbol.spread`), NaN where not measured.
    """
    measured = ~np.isnan(spreads).any(axis=1)
    if measured.sum() < MIN_SPREADS:
        return 1.0
    pts = np.asarray(points, np.float64)[measured]
    on_table = _in_cells(pts, _fractional(pts, homography), spreads[measured], homography)
    on_table /= np.trace(on_table, axis1=1, axis2=2)[:, None, None]
    low, high = np.linalg.eigvalsh(np.median(on_table, axis=0))
    return float(np.sqrt(high / max(low, 1e-9)))


def _in_cells(points: np.ndarray, cells: np.ndarray, spreads: np.ndarray,
              homography: np.ndarray) -> np.ndarray:
    """Each point's spread carried back through the lattice's local stretch at its
    (fractional) cell, as a 2x2 matrix in cells squared."""
    depth = cells @ homography[2, :2] + homography[2, 2]
    # the homography's derivative at each cell: one cell step along each axis, in pixels
    local = (homography[None, :2, :2] - points[:, :, None] * homography[None, None, 2, :2]) \
        / depth[:, None, None]
    back = np.linalg.inv(local)
    xx, xy, yy = spreads.T
    spread = np.stack([np.stack([xx, xy], -1), np.stack([xy, yy], -1)], -2)
    return back @ spread @ back.transpose(0, 2, 1)


STRETCH_NEIGHBOURS = 5
"""Measured symbols whose spreads are pooled (the median) for one point's
:func:`local_stretch`: a circle spreads further than a star of the same extent, and a small far
symbol is measured roughly; its nearest neighbours lie under nearly the same view."""


def local_stretch(points: np.ndarray, spreads: np.ndarray,
                  homography: np.ndarray) -> np.ndarray | None:
    """Per point, how much larger than the lattice's cell the symbols round it show a cell
    to be (a 2x2 matrix in cells, the identity where the lattice is right), or None where
    fewer than :data:`MIN_SPREADS` symbols have a spread.

    Every symbol is about as big on its tile as any other, so the symbols are a ruler
    wherever they lie. Under strong perspective the lattice may be right near the camera and
    wrong at the far rows, whose tiles shrink faster or slower than it allows: measured in
    its cells there, the symbols come out the wrong size along the squashed axis, and so do
    the steps between them, too far from whole cells to round right. Steps divided by this
    ruler round right again (:func:`refined`). ``points`` and ``spreads`` as in
    :func:`skew`.
    """
    measured = ~np.isnan(spreads).any(axis=1)
    if measured.sum() < MIN_SPREADS:
        return None
    pts = np.asarray(points, np.float64)
    cells = _fractional(pts, homography)
    known = cells[measured]
    on_table = _in_cells(pts[measured], known, spreads[measured], homography)
    typical = np.median(np.trace(on_table, axis1=1, axis2=2)) / 2
    apart = np.linalg.norm(cells[:, None, :] - known[None, :, :], axis=2)
    nearest = np.argsort(apart, axis=1)[:, :STRETCH_NEIGHBOURS]
    pooled = np.median(on_table[nearest], axis=1) / typical
    scales, directions = np.linalg.eigh(pooled)
    root = np.sqrt(np.clip(scales, 0.05, None))
    return directions @ (root[:, :, None] * directions.transpose(0, 2, 1))


def _taken(points: np.ndarray, homography: np.ndarray) -> set[tuple[int, int]]:
    """The cells of a lattice that points lie near the centre of (:data:`FITS`)."""
    fractional = _fractional(points, homography)
    cells = np.rint(fractional).astype(int)
    return {(int(x), int(y)) for x, y in cells[np.abs(fractional - cells).max(axis=1) < FITS]}


GAP_SHIFT = 0.15
"""Least shift (cells) towards the camera of a "symbol" seen through a gap between tiles.

Table seen between tiles lies a tile's height below their tops, so on the lattice of the
tops it shows shifted towards the camera, by up to the tiles' height times the tangent of
the view's angle off vertical (0.2-0.5 of a cell at 50-60 degrees), and the near tile hides
its near part: such gaps in the rendered 30-60 degree boards sit up to 0.55 off their cells;
tiles' symbols sit within 0.1 of theirs (99th percentile), nudges included."""

GAP_TILE_PROB = 0.99
"""Only a candidate the classifier is less sure than this is a tile can be taken for a gap:
the gaps in the rendered boards read 0.957-0.988, tiles mostly 0.999 or more."""


def through_gap(homography: np.ndarray, cells: np.ndarray, fractional: np.ndarray,
                tile_probs: np.ndarray) -> np.ndarray:
    """Which candidates are likely table seen through a gap between tiles, not a tile.

    ``cells`` and ``fractional`` (the candidates' centres in cells) are on the lattice
    ``homography`` of the tiles' tops. A gap ringed by tiles passes the detector's ring test
    and reads as a tile to the classifier at 0.95-0.99 in a strongly oblique view, where
    the tiles' sides ring it too; its shift towards the camera gives it away.
    """
    cells = np.asarray(cells, np.float64).reshape(-1, 2)
    if not len(cells):
        return np.zeros(0, bool)
    toward, tilt = toward_camera(homography, cells)
    if tilt < MIN_TILT:
        return np.zeros(len(cells), bool)
    shift = (np.asarray(fractional) - cells) @ toward
    return (shift > GAP_SHIFT) & (np.asarray(tile_probs) < GAP_TILE_PROB)
