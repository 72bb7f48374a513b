"""One photo in, every tile's cell and label out: detection, lattice, crops, classifier.

:func:`locate_tiles` is the geometry (which cells hold a tile, where, and the lattice);
:func:`scan_image` adds the classifier's reading of each tile's crop. Both accept any BGR
image; one without tiles gives an empty result rather than an error.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace

import numpy as np

from engine.tiles import COLOURS, Tile
from vision import detect, lattice, topface
from vision.adapt import SetAdapter
from vision.classifier import BODY_SHARE, TileGuess, classify_crops, frame_gain, tile_probs
from vision.crops import CROP, Cut, cutter, extract_crops
from vision.imagefile import ImageError, load_image  # noqa: F401  (scan's public API)
from vision.overlay import draw_overlay

RECOVERY_ROUNDS = 3
"""Rounds of looking for glare-hit tiles next to the tiles found so far."""

SYMBOL_SIDE = 0.8
"""A symbol's typical extent as a share of the cell pitch (for a first guess of the pitch)."""

MIN_TILE_PROB = 0.95
"""Below this classifier "is a tile" probability a candidate is not taken for a tile.

Tiles read 0.98 or more in the real photos in four variants and in the game photos of `python -m
vision.evaluate.replay`; a hole in the board (table showing through a gap ringed by tiles) reads
as a square of the table's colour at 0.64 to 0.88 (`python -m vision.classifier.evaluate
tile-scores`)."""

MAYBE_TILE_PROB = 0.5
"""Candidates between this and :data:`MIN_TILE_PROB` are kept apart as ``doubtful``."""

DOUBTFUL_TILE_PROB = 0.99
"""The same for a candidate that passed only the loosest recovery test (``Symbol.doubtful``),
checked before it joins the lattice: rendered tiles found so score 0.993 or more, printed
bonus squares between tiles in the real oblique photos up to 0.97."""

MIN_LABEL_CONFIDENCE = 0.1
"""Below this probability of its best label a reading is no tile of the set, however sure the "is a
tile" head is: it is kept apart as ``doubtful``. Over 36 kinds a reading this flat says the crop
matches none. ``python -m vision.classifier.evaluate tile-scores``: the real photos' tiles (four
variants) read 0.585 or more, the rendered game photos' 0.523 or more but for one tile in two
photos of game 107 at 0.001 (``vision.evaluate.replay --no-real --games 10 --video-games 0``
still reads all 516 moves right, with the same 10 flagged, as before). On ``--cloths`` board 28
nine empty cells of a checked cloth at 45° to the tiles read as diamonds at 0.028 to 0.058, "a
tile" at 0.995 or more. Over the 360 rendered boards of ``--synthetic``, the floors, the oblique
views and the cloths, the only real tiles it sets aside were misread ones (``python -m
vision.evaluate.real``, the README's rows)."""

NEIGHBOURS = np.array([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy])

SIDES = np.array([(1, 0), (-1, 0), (0, 1), (0, -1)])

COMPLETION_ROUNDS = 2
"""Rounds of reading the free cells beside the tiles as crops (see :func:`_completed`)."""

EDGE_ROUNDS = 4
"""Further rounds, for free cells that the picture's edge cuts only: a line of tiles along
the edge of a close-up has every symbol cut, and each round finds one tile more of it. In
`classic-a/13.jpg` cropped through its left column the third was missed. More rounds for
every free cell took more checks of ``--cloths`` for tiles (precision 99.28 % to 99.07 %)."""

COMPLETION_TILE_PROB = 0.995
""""Is a tile" probability a free cell's crop needs to count as a tile whose symbol was missed.
Measured by `python -m vision.classifier.evaluate tile-scores`: all but one of the missed tiles
score 0.998 or more, but the printed logo on the real board scores up to 0.999, and a bonus
square half in a free cell's crop (an oblique board, whose printed squares lie off the tiles'
lattice by the tiles' height) 0.992 under a warm lamp. The crops are read under the light the
frame's tiles show."""

COMPLETION_DARK_SHARE = 0.15
"""Share of a free cell's middle that must be as dark as tile body: the logo and the bonus
squares, bright print, show 0.1 or less; a tile whose big circle fills it still shows 0.19."""


FLAT_READING = 0.55
"""Below this median confidence of its tiles' labels a board was read on a wrong lattice
(see :func:`_read`). On the 80 held-out rendered boards 50-60 degrees from vertical
(``python -m vision.evaluate.real --oblique 80 --first-seed 160``) every board read on its
tiles' lattice has a median of 0.77 or more, board 218, read along its tiles' diagonals,
0.50; 60 frames of each of games 111 and 121 of the hardest footage, blurred and with arms
in some, 0.62 or more."""

KNOWN_REACH = 0.35
"""Cells: a crop this near where a known tile lies is that tile's (:func:`scan_image`). A
camera knocked since puts them further off, and their crops are then read in full."""

MIN_VISIBLE = 0.6
"""Least share of a tile's top face inside the picture for it to be reported at all."""

SEEN = MIN_VISIBLE - 0.1
"""Least share of the top face in view, as estimated, of a tile reported. A tile whose
symbol the edge cuts is found beside others, its centre predicted from theirs, and those
tiles' nudges put the prediction a tenth of a cell off: ``--cut 40`` of
:mod:`vision.evaluate.real` missed 6 of its 70 tiles cut by the edge, one 71 % in view
estimated at 58 %."""

WHOLE = 0.98
"""A tile with less of its top face in view is cut by the picture's edge (``TileReading.cut``);
the margin allows for a lattice a few pixels off at the edge."""


@dataclass(frozen=True)
class Lattice:
    """The fitted grid: ``homography`` maps cell (x, y) to photo pixels.

    ``pitch_px`` is the median side of a tile's cell in photo pixels.
    """

    homography: np.ndarray
    pitch_px: float


@dataclass(frozen=True)
class Located:
    """The geometry of a scan: tiles' integer cells, measured centres and the lattice."""

    cells: np.ndarray  # (N, 2) int
    centers: np.ndarray  # (N, 2) float, photo pixels
    fractional: np.ndarray  # (N, 2) float: the centres in cell units (crop centres)
    lattice: Lattice
    work: detect.Work
    """The working copy they were found on: later looks at the table use its masks."""
    off_board: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    """(M, 2) photo pixels: tiles apart from the board (see :func:`_off_board`)."""


@dataclass(frozen=True)
class TileReading:
    """One tile found: its cell, the classifier's guess and its centre in photo pixels."""

    x: int
    y: int
    guess: TileGuess
    center: tuple[float, float]
    visible: float = 1.0
    """Share of the tile's top face inside the picture; below :data:`WHOLE` the picture's
    edge cuts the tile, and its reading is doubtful."""

    @property
    def cut(self) -> bool:
        """The picture's edge cuts this tile: its label is a guess from the part in view."""
        return self.visible < WHOLE


@dataclass(frozen=True)
class ScanResult:
    """Everything one scan found, and how long it took (milliseconds).

    ``doubtful`` are readings the classifier was unsure are tiles at all (a hole between
    tiles, or a tile at the edge of what it can read): not tiles, but worth a person's look
    when a move is scored through their cell.
    """

    tiles: list[TileReading]
    lattice: Lattice | None
    ms: float
    doubtful: list[TileReading] = field(default_factory=list)
    off_board: list[TileReading] = field(default_factory=list)
    """Tiles lying apart from the board (a rack, spare tiles beside the play area): never
    board tiles. Their cells are where they would lie on the board's lattice."""


def locate_tiles(image: np.ndarray, ignore: np.ndarray | None = None,
                 work: detect.Work | None = None, turn: int = 0) -> Located:
    """Find the tiles' cells and the lattice in a BGR photo (no classification); no symbol
    within half a cell of the photo pixels ``ignore`` (a table's pattern) is taken. ``work``
    is an earlier look's working copy of the photo, whose symbols are not looked for again.
    ``turn``: the lattice's axes are looked for past that many of the likeliest pairs
    (:func:`vision.lattice.first_fit`); no tile is found when none is left."""
    if work is None:
        work = detect.prepare(image)
        # the quarter-size copy for the looks at the table's colour (every scan that finds a
        # symbol takes them) is made on the other core while this one finds the symbols: all
        # OpenCV and numpy, 1-2 ms of a phone photo's scan: 3-4 % less time on the printed
        # boards' photos, timed turn about with the code before (session 20); `python -m
        # vision.bench.scan` median 7.9 and 7.8 before, 7.7 and 7.6 after. An earlier look's
        # working copy has made it already
        detect.other_core().submit(lambda: work.quarter)
    symbols = work.symbols
    reach = 0.0
    if symbols:
        pitch = float(np.median([s.extent for s in symbols])) / SYMBOL_SIDE
        reach = 0.5 * pitch
        symbols = _clear(symbols, ignore, work.scale, reach)
        symbols = detect.drop_table_like(work, symbols, pitch)
    if not symbols:
        return _nothing(work)
    # the axes and the board's squares hardly change as tiles are dropped or recovered
    points = np.array([s.center for s in symbols])
    extents = np.array([s.extent for s in symbols])
    # a printed board's empty squares link groups of tiles that touch nowhere (the board
    # game's first diagonals); looking for them is costly, so they are used only then: when
    # the symbols lie plainly apart, or when the lattice fitted without them finds separate
    # groups. The costly part, tracing the board's lines, starts at once on the other core,
    # beside the first fit: the photos that need squares cost most. Elsewhere it is wasted,
    # 2-4 ms of the other core. `python -m vision.bench.scan`, two runs each of the code
    # before this and the halving on two cores (session 17) and of the code with both: scan /
    # decode over the printed-board photos 6.9-7.0 -> 6.5 on average, worst 8.4-8.8 ->
    # 7.7-9.0; over the plain table's photos 3.4-3.5 either way.
    # the cell the symbols' outlines give (:func:`_board_squares`)
    pitch = float(np.median(extents + 2 * np.array([s.grown for s in symbols]))) / SYMBOL_SIDE
    tracing = detect.other_core().submit(detect.trace_squares, work, pitch)
    fit = lattice.first_fit(work, points, extents, _spreads(symbols), turn)
    if fit is None:
        tracing.cancel()
        return _nothing(work)
    axes, first, without_squares = fit
    squares = np.zeros((0, 2))
    if _apart(points, extents):
        grid = None
    else:
        grid = (without_squares if without_squares is not None
                else lattice.assign_cells(first, squares))
    if grid is None or not grid.linked or _checkered(grid):
        squares, on_board = _board_squares(work, symbols, pitch, first, tracing)
        if grid is not None and _squares_astray(points, grid, on_board):
            squares = np.zeros((0, 2))
        else:
            grid = on_board
    else:
        tracing.cancel()  # not yet begun behind another scan's: never begun
    axes, grid = _square_on(work, symbols, axes, squares, grid)
    fitting = _symbol_sized(symbols, grid)
    # dropped: one point less hardly moves the fit, unless none it kept would be left (on
    # noise the kept points were once all unfit, and every later step found no tile at all)
    if not fitting.all() and (fitting & grid.keep).any():
        symbols = [s for s, ok in zip(symbols, fitting, strict=True) if ok]
        grid = replace(grid, cells=grid.cells[fitting], keep=grid.keep[fitting],
                       group=grid.group[fitting])
    fresh = None  # the first round looks beside every tile
    for _ in range(RECOVERY_ROUNDS):
        # no more candidates than a game has tiles (with room to spare), as in detection:
        # on a checked cloth every cell beside a "tile" passes, and the rounds multiply them
        room = detect.MAX_SYMBOLS - len(symbols)
        found = _clear(_recover(work, symbols, grid, fresh), ignore, work.scale, reach)
        extra = _vouched(image, work, grid, found[:room])
        if not extra:
            break
        symbols = symbols + extra
        grid = _joined(grid, symbols, extra, axes, squares)
        # the next round looks only beside the tiles just found: the cells beside the others
        # were examined already, and a new fit hardly moves where it predicts them
        fresh = grid.cells[-len(extra):]
    apart = _off_board(grid, squares)
    loose = np.array([s.center for s in symbols])[apart].reshape(-1, 2)
    if apart.any():  # the board's own lattice, not bent towards a rack's tiles
        symbols = [s for s, off in zip(symbols, apart, strict=True) if not off]
        points = np.array([s.center for s in symbols])
        refit = lattice.first_fit(work, points, np.array([s.extent for s in symbols]),
                                  _spreads(symbols), turn)
        if refit is None:
            return _nothing(work)
        axes, first, _ = refit
        axes, grid = _square_on(work, symbols, axes, squares,
                                lattice.assign_cells(first, squares))
    points = np.array([s.center for s in symbols])[grid.keep]
    homography = _to_photo(work) @ grid.homography
    cells = grid.cells[grid.keep]
    return Located(cells, points / work.scale, grid.to_cells(points),
                   Lattice(homography, lattice.cell_side(homography, cells)), work,
                   loose / work.scale)


FAINT_SQUARES = 0.5
"""Fewer squares than this per symbol, where they leave groups of tiles apart, say the
board's lines are faint (:func:`_board_squares`). A printed board round a game shows more
empty squares than tiles: the course photos 35-81 beside 24-56 symbols, where the squares
leave groups apart; connect-2's photos blurred 9 px along the rows 6-18 beside 23-54."""


def _board_squares(work: detect.Work, symbols: list[detect.Symbol], pitch: float,
                   first: lattice.Sketch, tracing: Future) -> tuple[np.ndarray, lattice.Grid]:
    """A printed board's squares and the grid they give the first sketch: the squares its
    lines ring, or where those are few and leave groups of tiles apart (:data:`FAINT_SQUARES`),
    the squares fainter lines ring (:data:`vision.detect.FAINT_LINE_CONTRAST`) if they leave
    fewer groups. ``pitch``: the cell the symbols' outlines give; ``tracing``:
    :func:`vision.detect.trace_squares` as handed to the other core.

    A camera shaken by a hand blurs the lines, and a small picture draws them a pixel wide:
    their squares no longer close, and the board game's first diagonals, which only squares
    link, fall apart. Of every third photo of connect-2 blurred 9 px along the rows, 5 of 7
    lost 6-17 tiles; then 2 did (00.jpg, whose 18 squares are not few beside 23 symbols, and
    12.jpg).

    A symbol found by a thickened dark cut (:attr:`vision.detect.Symbol.grown`) measures
    short, and a square larger than the cell such symbols give was no square. A phone's tone
    curve that lifts the shadows (`python -m vision.evaluate.real --variant lifted`) leaves
    most symbols to those cuts: 11 photos of the board games lost 6-11 tiles, and now none
    does; blurred 9 px (``--variant shaken``), 12 photos lost a diagonal, and now 1 does
    (another, oblique-2/04.jpg, is read a row off below the board's middle).
    Only the squares take the outlines' cell: every symbol given its outline's extent
    changed the lattice too, and read knife-edge rendered boards off their cells.
    """
    squares = detect.find_squares(work, symbols, pitch, tracing.result())
    grid = lattice.assign_cells(first, squares)
    if grid.linked or len(squares) >= FAINT_SQUARES * len(symbols):
        return squares, grid
    fainter = detect.find_squares(work, symbols, pitch, detect.trace_squares(
        work, pitch, detect.FAINT_LINE_CONTRAST))
    retry = lattice.assign_cells(first, fainter)
    return (fainter, retry) if retry.groups < grid.groups else (squares, grid)


def _nothing(work: detect.Work) -> Located:
    """No tile found on ``work``."""
    return Located(np.zeros((0, 2), int), np.zeros((0, 2)), np.zeros((0, 2)),
                   Lattice(np.eye(3), 0.0), work)


def _clear(symbols: list[detect.Symbol], ignore: np.ndarray | None, scale: float,
           reach: float) -> list[detect.Symbol]:
    """``symbols`` (working pixels) less those within ``reach`` of a point of ``ignore``
    (photo pixels; working pixels are ``scale`` of them)."""
    if ignore is None or not symbols:  # every scan's first read: nothing to build
        return symbols
    clear = _clear_of(np.array([s.center for s in symbols]), ignore * scale, reach)
    return [s for s, ok in zip(symbols, clear, strict=True) if ok]


def _clear_of(points: np.ndarray, ignore: np.ndarray | None, reach: float) -> np.ndarray:
    """Which ``points`` lie farther than ``reach`` from every point of ``ignore``."""
    if ignore is None or not len(ignore) or not len(points):
        return np.ones(len(points), bool)
    return np.linalg.norm(points[:, None] - ignore[None], axis=2).min(axis=1) > reach


def _squares_astray(points: np.ndarray, tiles_alone: lattice.Grid,
                    on_board: lattice.Grid) -> bool:
    """Whether a printed board's squares lead the lattice astray: they are stepping stones
    between groups of tiles, so a lattice fitted with them that links no more groups than
    the tiles alone, and explains fewer of them, is worse. A board lying beyond the tiles,
    its squares far smaller than the near tiles, pulled a lattice seen 40-50 degrees from
    vertical off 15 of 22 symbols it had explained (`--oblique`, board 17 at 40-50 degrees);
    on the real photos the squares link groups, or explain as many."""
    return on_board.groups >= tiles_alone.groups \
        and topface.explained(points, on_board.homography) \
        < topface.explained(points, tiles_alone.homography)


def _spreads(symbols: Sequence[detect.Symbol]) -> np.ndarray:
    """Each symbol's spread (xx, xy, yy) as one array, NaN where it has none."""
    return np.array([s.spread or (np.nan,) * 3 for s in symbols]).reshape(-1, 3)


LINK_REACH = 4.3
"""Farthest a symbol may lie from another one of its group, in symbol extents: a step of
2.4 cells along both axes (the lattice's longest, ``lattice.MAX_STEP``) with a symbol 0.8 of
a cell wide."""


def _apart(points: np.ndarray, extents: np.ndarray) -> bool:
    """Whether the symbols fall into groups too far apart for any lattice step to link.

    A cheap look before the lattice: distances in units of the two symbols' mean extent, so
    perspective scales them alike.
    """
    reach = LINK_REACH * 0.5 * (extents[:, None] + extents[None])
    linked = np.linalg.norm(points[:, None] - points[None], axis=2) <= reach
    seen = np.zeros(len(points), bool)
    seen[0] = True
    while True:  # grow the first symbol's group
        grown = seen | linked[seen].any(axis=0)
        if (grown == seen).all():
            return not seen.all()
        seen = grown


BOARD_GAP = 1
"""Empty cells that may lie between a tile and the board it belongs to (a tile the detector
missed, or one laid a cell apart by mistake); further away it is not on the board."""


def _off_board(grid: lattice.Grid, squares: np.ndarray) -> np.ndarray:
    """Which points are tiles apart from the board: a rack or spare tiles beside the play area.

    A board is one group of tiles linked by steps over at most :data:`BOARD_GAP` empty cells.
    On a printed board (``squares``: its empty squares found, working pixels) every tile next
    to one of its squares is on it: the board game starts with separate diagonals, and in an
    oblique view the squares between them are found only in part. A rack one empty row
    beyond the board's edge lies two cells from its last squares: off it. The largest group
    is the board; every other tile lies apart from it.
    """
    idx = np.flatnonzero(grid.keep)
    if len(idx) < 2:
        return np.zeros(len(grid.keep), bool)
    nodes = np.concatenate([grid.cells[idx], grid.to_cells(squares)])
    linked = np.abs(nodes[:, None] - nodes[None]).max(axis=2) <= BOARD_GAP + 1.5
    if len(squares) >= lattice.MIN_SQUARES:  # a printed board is in view: one piece
        linked[len(idx):, len(idx):] = True
        # a tile beyond the board's edge lies a cell or more beyond its last squares
        cells, seen = nodes[: len(idx)], nodes[len(idx):]
        beyond = np.maximum(seen.min(axis=0) - cells, cells - seen.max(axis=0)).max(axis=1)
        linked[: len(idx), len(idx):] &= (beyond < 1.5)[:, None]
        linked[len(idx):, : len(idx)] = linked[: len(idx), len(idx):].T
    label = _groups(linked)
    values, counts = np.unique(label[: len(idx)], return_counts=True)
    apart = np.zeros(len(grid.keep), bool)
    apart[idx] = label[: len(idx)] != values[np.argmax(counts)]
    return apart


def _groups(linked: np.ndarray) -> np.ndarray:
    """Each node's group in the symmetric (N, N) ``linked``, each node linked to itself: the
    smallest node of its group, spread over the links until nothing changes."""
    label = np.arange(len(linked))
    while True:
        spread = np.where(linked, label[None, :], len(linked)).min(axis=1)
        spread = spread[spread]  # a label is a node of the group: take its label too
        if (spread == label).all():
            return label
        label = spread


def _joined(grid: lattice.Grid, symbols: list[detect.Symbol], extra: list[detect.Symbol],
            axes: np.ndarray, squares: np.ndarray) -> lattice.Grid:
    """The lattice with the recovered symbols ``extra`` (the last of ``symbols``) added.

    They lie where the lattice expects tiles, which hardly moves a fit: they join it as it
    is. The fit is done again where a new tile lies a step from two of the groups the fit
    had to place apart (it may link them), and where a tile lies off its cell's centre (a
    branch of the board placed a cell off by the first fit bends it). A new fit that splits
    the tiles into more groups than before, or fits them no better, is worse, and the tiles
    join the old one.
    """
    joined = grid.joined(np.array([s.center for s in extra]))
    points = np.array([s.center for s in symbols])
    misfit = _misfit(joined, points)
    if misfit <= MISFIT and not _bridging(grid, joined.cells[len(grid.cells):]):
        return joined
    refit = _fit(symbols, axes, squares)
    if refit.groups > grid.groups or (grid.linked and _misfit(refit, points) >= misfit):
        return joined
    return refit


def _bridging(grid: lattice.Grid, cells: np.ndarray) -> bool:
    """Whether any of ``cells`` lies within a lattice step of kept tiles of two groups.

    Only such a tile can link groups that the fit placed apart. On the real photos and the
    rendered sets a new fit without one kept every cell as joining did (and cost a
    photo's whole scan up to an eighth of its time)."""
    kept, groups = grid.cells[grid.keep], grid.group[grid.keep]
    near = np.abs(cells[:, None] - kept[None]).max(axis=2) < lattice.MAX_STEP
    return any(len(np.unique(groups[row])) > 1 for row in near)


MISFIT = 0.3
"""Farthest a kept tile's centre may lie from its cell's, in cells along either axis, before
the lattice is fitted again. A tile nudged or turned in its cell, perspective and the seams of
a printed board stay under 0.27 on the real photos; a first fit that placed a branch of the
board a cell off left 0.38 (game 204's 18th photo of `python -m vision.evaluate.replay`)."""


def _misfit(grid: lattice.Grid, points: np.ndarray) -> float:
    """The largest distance of a kept point from its cell's centre, in cells along an axis."""
    return float(np.abs(grid.to_cells(points) - grid.cells)[grid.keep].max(initial=0.0))


CHECKERED_TILES = 4
"""Tiles on a lattice before "none of them touches another side to side" means its axes may
run along the tiles' diagonals."""


def _checkered(grid: lattice.Grid) -> bool:
    """Whether every tile's cell has the same parity (x + y): no two tiles share a side."""
    cells = grid.cells[grid.keep]
    return len(cells) >= CHECKERED_TILES and len(np.unique(cells.sum(axis=1) % 2)) == 1


def _square_on(work: detect.Work, symbols: list[detect.Symbol], axes: np.ndarray,
               squares: np.ndarray, grid: lattice.Grid) -> tuple[np.ndarray, lattice.Grid]:
    """The axes and the lattice, turned by 45 degrees when they ran along the diagonals.

    On small tiles in warm light on a dark table, the tiles' sides hardly show, and the edges
    of diamond symbols and of a board's staircase of tiles can outweigh them in
    :func:`lattice.axis_choices`. A lattice along the diagonals, 1/sqrt(2) as fine, then
    explains every symbol, with each tile on a cell of one colour of a checkerboard. But a
    board's tiles touch side to side (a line has no gaps), so where four or more tiles none
    of which does so lie on a lattice from faint sides, it is turned. Not where the sides show
    clearly, nor on a printed board (``squares``, as many as :data:`lattice.MIN_SQUARES`; a
    wooden table shows a few): the board game starts with tiles on diagonals.
    """
    if len(squares) >= lattice.MIN_SQUARES or not _checkered(grid):
        return axes, grid
    points = np.array([s.center for s in symbols])
    if not lattice.sides_faint(work, points, np.array([s.extent for s in symbols])):
        return axes, grid
    turned = lattice.diagonals(axes)
    return turned, _fit(symbols, turned, squares)


def _fit(symbols: list[detect.Symbol], axes: np.ndarray, squares: np.ndarray) -> lattice.Grid:
    """The lattice through the symbols' centres."""
    points = np.array([s.center for s in symbols])
    extents = np.array([s.extent for s in symbols])
    return lattice.assign_cells(lattice.sketch(points, extents, axes, _spreads(symbols)),
                                squares)


SYMBOL_AREA = (0.1, 0.8)
"""A symbol's area in cells (a star ~0.2, a circle ~0.5). A patch of board or table hemmed in
by tiles and the dark table edge can pass the enclosure test, but it fills a whole cell."""


def _symbol_sized(symbols: list[detect.Symbol], grid: lattice.Grid) -> np.ndarray:
    """Which symbols have a plausible area once measured in cells rather than pixels."""
    fractional = grid.to_cells(np.array([s.center for s in symbols]))
    origin, right, down = (grid.to_pixels(fractional + step) for step in ([0, 0], [1, 0], [0, 1]))
    u, v = right - origin, down - origin
    cell_area = np.abs(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0])
    area = np.array([s.size ** 2 for s in symbols]) / np.maximum(cell_area, 1e-9)
    return (area >= SYMBOL_AREA[0]) & (area <= SYMBOL_AREA[1])


def _to_photo(work: detect.Work) -> np.ndarray:
    """The homography from working pixels back to the photo's."""
    return np.diag([1 / work.scale, 1 / work.scale, 1.0])


def _vouched(image: np.ndarray, work: detect.Work, grid: lattice.Grid,
             found: list[detect.Symbol]) -> list[detect.Symbol]:
    """``found`` less the doubtful candidates that the classifier does not call a tile.

    They are judged before they join the lattice, so a printed bonus square between tiles
    never pulls the grid, and :func:`locate_tiles` alone gives the final cells.
    """
    doubtful = [s for s in found if s.doubtful]
    if not doubtful:
        return found
    cells = grid.to_cells(np.array([s.center for s in doubtful]))
    probs = tile_probs(extract_crops(image, _to_photo(work) @ grid.homography, cells))
    vouched = {id(s) for s, p in zip(doubtful, probs, strict=True) if p >= DOUBTFUL_TILE_PROB}
    return [s for s in found if not s.doubtful or id(s) in vouched]


def _recover(work: detect.Work, symbols: list[detect.Symbol], grid: lattice.Grid,
             near: np.ndarray | None = None) -> list[detect.Symbol]:
    """Tiles missed by the strict test, looked for in the cells next to the tiles found
    (only those next to the cells ``near``, where given)."""
    points = np.array([s.center for s in symbols])[grid.keep]
    free, centres = _free_neighbours(grid.cells[grid.keep], grid.to_cells(points), NEIGHBOURS)
    if near is not None:
        centres = centres[(np.abs(free[:, None] - near[None]).max(axis=2) <= 1).any(axis=1)]
    if not len(centres):
        return []
    typical = float(np.median([s.extent for s in symbols]))
    return detect.recover_symbols(work, grid.homography, centres, typical, points)


def scan_image(image: np.ndarray, colours: Sequence[str] = COLOURS,
               adapter: SetAdapter | None = None, *, patterns: bool = True,
               known: np.ndarray | None = None) -> ScanResult:
    """Find and classify every tile in a BGR photo (``adapter``: see :mod:`vision.adapt`).

    The classifier's model is loaded on the first call (not counted in later calls' ``ms``).
    Candidates the classifier doubts are a tile at all (``tile_prob`` below
    :data:`MIN_TILE_PROB`), or reads as no kind in particular (:data:`MIN_LABEL_CONFIDENCE`),
    are left out of ``tiles``: a last guard against a hole between tiles, a dark object with a
    light mark or a tablecloth's check. Those above :data:`MAYBE_TILE_PROB` are kept
    apart in ``doubtful``, and so is table seen through a gap in an oblique view
    (:func:`vision.topface.through_gap`). A table's pattern read as tiles is left out
    (:func:`_patterned`), and readings of a kind read more often than a set holds it are
    doubtful where unsure of it (:func:`_beyond_the_set`), unless ``patterns`` is False: a
    calibration block holds each kind once, and many of one reading there are an odd set
    misread, which is what it learns from.

    ``known``: photo pixels (M, 2) where tiles lie whose kind the caller knows (the live
    loop's board). Their crops are read once, not in every orientation where unsure
    (:func:`vision.classifier.classify_crops`): only the new tiles' kinds are at stake. On
    the hundred-tile boards late in the hardest footage the eight readings of up to 48
    unsure crops cost over a quarter of a read (0.16 of 0.56 s, game 121 at 229 s).
    A caller that knows the board also judges the new tiles' kinds by the rules and the tiles
    it knows (:func:`vision.decode.decode_move` weighs a reading's other labels), so no
    reading is held back for its kind's count: late in a game a set's three of most kinds
    lie on the board, and a new tile read as a fourth is a misreading the decoder can put
    right, where held back it would be missing from its move.
    """
    start = time.perf_counter()
    located, guesses, loose = _read(image, colours, adapter, patterns=patterns, known=known)
    cells = np.rint(np.concatenate([located.cells, loose])).astype(int)
    visible = (_visible(located.lattice.homography,
                        np.concatenate([located.fractional, loose]), image.shape)
               if len(cells) else np.ones(0))
    readings = [TileReading(int(c[0]), int(c[1]), g, (float(p[0]), float(p[1])), float(v))
                for c, p, g, v in zip(cells, np.concatenate([located.centers, located.off_board]),
                                      guesses, visible, strict=True)]
    n = len(located.cells)  # a tile mostly beyond the picture's edge is not reported
    gap = topface.through_gap(located.lattice.homography, located.cells, located.fractional,
                              np.array([g.tile_prob for g in guesses[:n]]))
    board = [(r, g) for r, g in zip(readings[:n], gap, strict=True) if r.visible >= SEEN]
    apart = [r for r in readings[n:] if r.visible >= SEEN]
    if patterns and known is None:
        board = [(r, g or excess) for (r, g), excess in zip(
            board, _beyond_the_set([r.guess for r, _ in board]), strict=True)]
    tiles = [r for r, g in board if _sure(r.guess) and not g]
    doubtful = [r for r, g in board if r.guess.tile_prob >= MAYBE_TILE_PROB
                and (g or not _sure(r.guess))]
    return ScanResult(tiles, located.lattice if tiles else None,
                      (time.perf_counter() - start) * 1000, doubtful,
                      [r for r in apart if _sure(r.guess)])


COPIES = 3
"""Tiles of each kind in a set: a photo that reads more of one kind holds misreadings."""

BEYOND_SURE = 0.9
"""Label confidence from which a reading counts as a tile however many of its kind the
photo shows. On ``--cloths`` board 17 (checks at 45 degrees to the tiles) nine checks beside
the board read as purple diamonds at 0.63-0.85, where its 26 tiles read 0.95 or more; the
rendered boards' random layouts, which are no set, hold four of a kind read surely."""


def _beyond_the_set(guesses: Sequence[TileGuess]) -> list[bool]:
    """Which readings are doubtful, not tiles, because their kind was read more often than a
    set holds it (:data:`COPIES`): of a kind read surely as a tile more than three times, the
    readings unsure of it (:data:`BEYOND_SURE`) beyond the surest three.

    One of them at least is a misreading, and the least sure are the likeliest: a tile of
    another kind read as this one, or the table's pattern read as a tile.

    >>> from engine.tiles import Tile
    >>> def read(p):
    ...     return TileGuess(Tile("purple", "diamond"), p, {}, {})
    >>> _beyond_the_set([read(0.99), read(0.8), read(0.7)])
    [False, False, False]
    >>> _beyond_the_set([read(0.99), read(0.6), read(0.7), read(0.8), read(0.95)])
    [False, True, True, False, False]
    >>> _beyond_the_set([read(0.99)] * 4 + [read(0.8)])
    [False, False, False, False, True]
    """
    sure = [_sure(g) for g in guesses]
    beyond = [False] * len(guesses)
    kinds: dict[Tile, list[int]] = {}
    for i, g in enumerate(guesses):
        if sure[i]:
            kinds.setdefault(g.tile, []).append(i)
    for found in kinds.values():
        if len(found) <= COPIES:
            continue
        ranked = sorted(found, key=lambda i: -guesses[i].confidence)
        for rank, i in enumerate(ranked):
            beyond[i] = rank >= COPIES and guesses[i].confidence < BEYOND_SURE
    return beyond


def _sure(guess: TileGuess) -> bool:
    """Whether a reading is taken for a tile: surely a tile, and one of the set's kinds."""
    return guess.tile_prob >= MIN_TILE_PROB and guess.confidence >= MIN_LABEL_CONFIDENCE


Read = tuple[Located, list[TileGuess], np.ndarray]
"""The board's tiles, the guesses for them and for the tiles off the board, and those
tiles' cells (:func:`_read`)."""


def _read(image: np.ndarray, colours: Sequence[str], adapter: SetAdapter | None,
          ignore: np.ndarray | None = None, work: detect.Work | None = None,
          patterns: bool = True, known: np.ndarray | None = None) -> Read:
    """The board's tiles, the guesses for them and for the tiles off the board, and those
    tiles' cells, read on the likeliest lattice (:func:`_read_on`; ``known``: see
    :func:`scan_image`).

    Tiles whose readings are mostly unsure of their kind (:data:`FLAT_READING`) were cut
    from a lattice fitted along the wrong lines: at 50-60 degrees from vertical through a
    wide lens the tiles' diagonals can outweigh their sides, and rendered board 218 of
    ``python -m vision.evaluate.real --oblique 80 --first-seed 160`` read 39 tiles, 30 of
    them on tiles and 1 right, at a median confidence of 0.50, and all 39 right along the
    next pair of axes, at 0.99. So such a reading is tried along the other pairs, and the
    one surest of its tiles' kinds is kept.
    """
    best = _read_on(image, colours, adapter, ignore, work, patterns, known)
    if not _flat(best):
        return best
    for turn in range(1, lattice.MAX_CHOICES):
        other = _read_on(image, colours, adapter, ignore, best[0].work, patterns, known, turn)
        if _sureness(other) > _sureness(best):
            best = other
    return best


def _near(centres: np.ndarray, homography: np.ndarray, pixels: np.ndarray) -> np.ndarray:
    """Which crop ``centres`` (cell units) lie within :data:`KNOWN_REACH` of one of the photo
    ``pixels``."""
    if not len(pixels) or not len(centres):
        return np.zeros(len(centres), bool)
    points = lattice.project(np.linalg.inv(homography), np.asarray(pixels, np.float64))
    return (np.abs(centres[:, None] - points[None]).max(axis=2) <= KNOWN_REACH).any(axis=1)


def _board_guesses(read: Read) -> list[TileGuess]:
    return read[1][:len(read[0].cells)]


def _flat(read: Read) -> bool:
    """Whether a reading's tiles are mostly unsure of their kind (:data:`FLAT_READING`)."""
    guesses = _board_guesses(read)
    return bool(guesses) and float(np.median([g.confidence for g in guesses])) < FLAT_READING


def _sureness(read: Read) -> float:
    """How many tiles a reading found, each counted by how sure it is of its kind."""
    return sum(g.confidence for g in _board_guesses(read) if _sure(g))


def _read_on(image: np.ndarray, colours: Sequence[str], adapter: SetAdapter | None,
             ignore: np.ndarray | None = None, work: detect.Work | None = None,
             patterns: bool = True, known: np.ndarray | None = None, turn: int = 0) -> Read:
    """:func:`_read` on the lattice along the axes ``turn`` gives (:func:`locate_tiles`); no
    cell near the photo pixels ``ignore`` is looked at (``work``: see there too).

    A table pattern read as tiles (:func:`_patterned`) that makes most of the board
    (:data:`PATTERN_LEADS`) bent the lattice and swayed the frame's light and colours too, so
    the photo is read again without its cells, once. A smaller pattern, or one that shows only
    then, is left out as it is, and so is any reading less sure than
    :data:`PATTERN_TILE_PROB`.
    """
    located = locate_tiles(image, ignore, work, turn)
    if not len(located.cells):
        return located, [], np.zeros((0, 2))
    homography = located.lattice.homography
    cut = cutter(image, homography, located.fractional)
    crops = cut(located.fractional)
    gain = frame_gain(crops)  # the light the tiles show, once for both reads below
    located, extra, plain = _completed(cut, image.shape, located, crops, gain, ignore)
    loose = lattice.project(np.linalg.inv(homography), located.off_board)
    frame = np.concatenate([crops, extra, cut(loose)])
    # the frame's light is measured on all its crops: the tiles' own when none joined
    centres = np.concatenate([located.fractional, loose])
    guesses = classify_crops(frame, colours, adapter, gain if len(frame) == len(crops) else None,
                             None if known is None else ~_near(centres, homography, known))
    n = len(located.cells)
    pattern = _patterned(located.cells, guesses[:n]) if patterns else np.zeros(n, bool)
    if ignore is None and pattern.mean() >= PATTERN_LEADS:
        return _read_on(image, colours, adapter, located.centers[pattern], located.work,
                        known=known, turn=turn)
    keep = _not_plain(guesses, len(crops), plain)
    keep[:n] &= ~pattern
    if ignore is not None or pattern.any():  # the rest of it reads as tiles, less surely
        keep[:n] &= np.array([g.tile_prob >= PATTERN_TILE_PROB for g in guesses[:n]], bool)
    if keep.all():
        return located, guesses, loose
    return (_board_only(located, keep[:n]), [g for g, k in zip(guesses, keep, strict=True) if k],
            loose)


def _completed(cut: Cut, shape: tuple[int, ...], located: Located, crops: np.ndarray,
               gain: np.ndarray, ignore: np.ndarray | None = None
               ) -> tuple[Located, np.ndarray, np.ndarray]:
    """``located`` plus the tiles beside it that only the classifier recognises, their crops,
    and which of them have the table's colour in their middle (:func:`_unlike_table`).

    The detector needs a dark ring round the symbol. A big circle or clover on a small tile
    in dim light leaves a ring a pixel or two wide, and it is missed, photo after photo. A
    tile is laid beside another, so the free cells beside the tiles are read as crops: a crop
    the classifier is sure shows a tile, and whose middle is as dark as tile body, is one.
    ``crops`` are the tiles' own crops, the yardstick for "as dark as tile body", and
    ``gain`` the light's correction measured on them (:func:`vision.classifier.frame_gain`):
    free cells are judged under the light the tiles show. ``cut`` cuts the photo (of
    ``shape``) through the lattice. No cell within half a cell of the photo pixels ``ignore``
    (a table's pattern, :func:`_read`) is read.

    Glare, or the light at a picture's brighter edge, lifts the body of the tiles it falls
    on: on ``--cut`` board 79 of :mod:`vision.evaluate.real` a tile's body read 88 where
    the board's read 19, and the tile was taken for none. So a free cell is judged by the
    body of the tiles beside it where theirs is lighter (:func:`_beside`). Lit table beside
    a lit tile passes that test too (``--cloths`` board 169): a cell dark only by its
    neighbour's light must be sure of its kind, as one with the table's colour in its
    middle must (:func:`_not_plain`).
    """
    homography = located.lattice.homography
    floor, bodies = _body_levels(crops)
    cells, fractional = located.cells, located.fractional
    added = [np.zeros((0, CROP, CROP, 3), np.uint8)]
    plain = [np.zeros(0, bool)]
    for step in range(COMPLETION_ROUNDS + EDGE_ROUNDS):
        free, centres = _free_neighbours(cells, fractional, SIDES)
        visible = _visible(homography, centres, shape)
        inside = (visible >= SEEN) & _clear_of(
            lattice.project(homography, centres), ignore, 0.5 * located.lattice.pitch_px)
        if step >= COMPLETION_ROUNDS:
            inside &= visible < WHOLE
        # No more cells than a game has tiles (with room to spare): a photo-wide pattern
        # would otherwise double the cells each round.
        room = max(0, detect.MAX_SYMBOLS - len(cells))
        free, centres = free[inside][:room], centres[inside][:room]
        if not len(free):
            break
        body = np.maximum(floor, _beside(free, cells, bodies))
        # a coarse look first (cheap, with room for its coarseness): most free cells show
        # hardly any tile body and are not cut in full
        coarse = _dark_share(cut(centres, PROBE), body)
        likely = coarse >= 0.5 * COMPLETION_DARK_SHARE
        if not likely.any():
            break
        free, centres, body = free[likely], centres[likely], body[likely]
        extra = cut(centres)
        tile = _dark_share(extra, body) >= COMPLETION_DARK_SHARE  # the model only here
        if tile.any():
            tile[tile] = tile_probs(extra[tile], gain) >= COMPLETION_TILE_PROB
        if not tile.any():
            break
        # dark only beside a lit tile: a tile under the same glare, or the table lit by it
        lit = _dark_share(extra[tile], floor) < COMPLETION_DARK_SHARE
        cells = np.concatenate([cells, free[tile]])
        fractional = np.concatenate([fractional, centres[tile]])
        bodies = np.concatenate([bodies, _body_levels(extra[tile])[1]])
        added.append(extra[tile])
        plain.append(lit | ~_unlike_table(located, centres[tile], extra[tile]))
    if len(cells) == len(located.cells):
        return located, added[0], plain[0]
    pixels = lattice.project(homography, fractional[len(located.cells):])
    return (replace(located, cells=cells, centers=np.concatenate([located.centers, pixels]),
                    fractional=fractional), np.concatenate(added), np.concatenate(plain))


TABLE_LIKE_SURE = 0.8
"""Least label confidence of a tile that only the classifier found, with the table's colour
in its middle, for it to count: the free cells that a floor's seams framed were read with
0.28-0.53, real orange clovers on orange wood with 0.96 and more."""


def _not_plain(guesses: list[TileGuess], known: int, plain: np.ndarray) -> np.ndarray:
    """Which of a frame's readings to keep: all but the tiles that completion added (after
    the ``known`` ones) with the table's colour in their middle (``plain``) and a label the
    classifier is unsure of."""
    keep = np.ones(len(guesses), bool)
    keep[known:known + len(plain)] = ~plain | np.array(
        [g.confidence >= TABLE_LIKE_SURE for g in guesses[known:known + len(plain)]], bool)
    return keep


def _board_only(located: Located, keep: np.ndarray) -> Located:
    """``located`` with only the board tiles ``keep`` marks."""
    return replace(located, cells=located.cells[keep], centers=located.centers[keep],
                   fractional=located.fractional[keep])


PATTERN_TILES = 5
"""Least tiles of one kind side by side (4-connected) that are a table's pattern: more than a
set holds (three of each kind), and more than the rendered sets' random layouts, which are no
game, put together (four: ``--floors``, board 17). Play never puts two of a kind side by side
(a line holds no tile twice), so a misread or two on a real board makes pairs."""


PATTERN_LEADS = 0.5
"""Least share of a read's board cells in a table's pattern (:func:`_patterned`) for the
photo to be read again without them: a lattice follows most of its points, so from there on
it is the pattern's. Below it the lattice is the tiles' and leaving the pattern's cells out is
enough; reading again would double the cost of a picture of specks (2.6 s, `python -m
webui.checks.fuzz_files`), whose few groups of one reading are a third of what it reads.
Cloth board 5's pattern is 0.68 of its first read."""

PATTERN_TILE_PROB = 0.997
""""Is a tile" probability a reading needs to count once a table's pattern has shown in the
photo: the checks beyond the pattern's group read as tiles too, but less surely.
On ``--cloths`` board 5 the 25 checks left read 0.964 to 0.996 (as squares of four colours,
with label confidences of 0.83 or less) and its 19 tiles 0.999 or more."""


def _patterned(cells: np.ndarray, guesses: Sequence[TileGuess]) -> np.ndarray:
    """Which cells lie in a group of :data:`PATTERN_TILES` or more tiles of one kind side by
    side, each read as surely a tile (:data:`MIN_TILE_PROB`).

    Such a group is a pattern of the table, not tiles: a tablecloth's light checks ringed by
    dark ones look like symbols on tile bodies, and all read alike (a black gingham about a
    cell wide under a warm lamp gave 86 "orange squares", 40 of them in one group, `python -m
    vision.evaluate.real --cloths 40`, board 5).

    >>> from engine.tiles import Tile
    >>> same = TileGuess(Tile("orange", "square"), 0.9, {}, {})
    >>> other = TileGuess(Tile("red", "star"), 0.9, {}, {})
    >>> cells = np.array([(0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (9, 9)])
    >>> _patterned(cells, [same] * 6).tolist()
    [True, True, True, True, True, False]
    >>> _patterned(cells, [same, same, other, same, same, same]).tolist()
    [False, False, False, False, False, False]
    """
    sure = np.array([g.tile_prob >= MIN_TILE_PROB for g in guesses], bool)
    counts = Counter(g.tile for g, ok in zip(guesses, sure, strict=True) if ok)
    if max(counts.values(), default=0) < PATTERN_TILES:  # no kind is that many: the usual case
        return np.zeros(len(cells), bool)
    kind = {tile: k for k, tile in enumerate(counts)}
    ids = np.array([kind[g.tile] if ok else -1 for g, ok in zip(guesses, sure, strict=True)])
    beside = np.abs(cells[:, None] - cells[None]).sum(axis=2) == 1
    alike = (ids[:, None] == ids[None]) & sure[:, None]
    label = _groups(beside & alike | np.eye(len(cells), dtype=bool))
    return np.bincount(label, minlength=len(cells))[label] >= PATTERN_TILES


def _unlike_table(located: Located, centres: np.ndarray, crops: np.ndarray) -> np.ndarray:
    """Which free cells' middles (``centres`` in cells, their ``crops``) differ in colour
    from the table round them, as a recovered symbol must (:func:`detect.unlike_background`).

    A free cell hemmed in by tiles, on a floor whose dark seams and the tiles' dark sides
    frame it, looks like a symbol on tile body: the classifier took nine such cells of a
    rendered floor for orange tiles (``vision.evaluate.real --floors``, board 18), unsure of
    their labels (:data:`TABLE_LIKE_SURE`).
    """
    work = located.work
    to_work = np.diag([work.scale, work.scale, 1.0]) @ located.lattice.homography
    side = CROP // 4  # the middle of a crop: a symbol's core
    colours = crops[:, CROP // 2 - side:CROP // 2 + side, CROP // 2 - side:CROP // 2 + side]
    unlike, _ = detect.unlike_background(
        work, lattice.project(to_work, centres), colours.reshape(len(crops), -1, 3).mean(axis=1),
        located.centers * work.scale, located.lattice.pitch_px * work.scale)
    return unlike


FACE = np.stack(np.meshgrid(np.linspace(-0.45, 0.45, 10), np.linspace(-0.45, 0.45, 10)),
                axis=-1).reshape(-1, 2)
"""Sample points spread evenly over a tile's top face (cell units round its centre)."""


def _visible(homography: np.ndarray, cells: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Share of each cell's top face (through the lattice ``homography``) inside the picture."""
    points = lattice.project(homography, (cells[:, None, :] + FACE[None]).reshape(-1, 2))
    h, w = shape[:2]
    inside = (points >= 0).all(axis=1) & (points[:, 0] < w) & (points[:, 1] < h)
    return inside.reshape(len(cells), len(FACE)).mean(axis=1)


def _free_neighbours(cells: np.ndarray, fractional: np.ndarray,
                     steps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The free cells one of ``steps`` away from ``cells``, each with its centre predicted
    from every tile next to it (the mean of where they really lie, nudges and all)."""
    targets = (cells[:, None, :] + steps[None]).reshape(-1, 2)
    guesses = (fractional[:, None, :] + steps[None]).reshape(-1, 2)
    # cells as single integers, row by row (sorted as the cells are lexicographically)
    low, rows = targets.min(axis=0), int(np.ptp(targets[:, 1])) + 1
    key = (targets[:, 0] - low[0]) * rows + targets[:, 1] - low[1]
    free = ~np.isin(key, (cells[:, 0] - low[0]) * rows + cells[:, 1] - low[1])
    if not free.any():
        return np.zeros((0, 2), int), np.zeros((0, 2))
    found, which = np.unique(key[free], return_inverse=True)
    count = np.bincount(which, minlength=len(found))
    centres = np.stack([np.bincount(which, guesses[free, axis], len(found)) / count
                        for axis in (0, 1)], axis=1)
    return np.stack([found // rows + low[0], found % rows + low[1]], axis=1), centres


PROBE = 24
"""Side of the coarse crops that decide which free cells are worth reading in full."""


def _middle_values(crops: np.ndarray) -> np.ndarray:
    """Each crop's middle (about the central 0.8 of the cell) as the brightest channel per
    pixel, flattened (N, pixels)."""
    side = crops.shape[1]
    middle = crops[:, side * 10 // 64: side * 54 // 64, side * 10 // 64: side * 54 // 64]
    return np.maximum(np.maximum(middle[..., 0], middle[..., 1]), middle[..., 2]).reshape(
        len(crops), -1)


def _body_levels(crops: np.ndarray) -> tuple[float, np.ndarray]:
    """How bright tile body is in this photo, and in each crop: the median of the darkest
    share of the tiles' middles (the share the classifier takes as body too), all together
    and crop by crop."""
    values = _middle_values(crops)
    share = int(BODY_SHARE * values.shape[1])
    darkest = np.partition(values, share - 1, axis=1)[:, :share]
    return float(detect.byte_medians(darkest.reshape(-1, 1))[0]), np.median(darkest, axis=1)


def _beside(free: np.ndarray, cells: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """For each free cell, the brightest of ``levels`` (one per tile at ``cells``) of the
    tiles beside it (0 where none is)."""
    level = {(int(x), int(y)): v for (x, y), v in zip(cells, levels, strict=True)}
    return np.array([max(level.get((int(x) + dx, int(y) + dy), 0.0) for dx, dy in SIDES)
                     for x, y in free])


def _dark_share(crops: np.ndarray, body: float | np.ndarray) -> np.ndarray:
    """Share of each crop's middle no brighter than the tile body's ``body`` level (one for
    all, or one per crop), with room for noise and shading."""
    return (_middle_values(crops) <= 1.5 * np.reshape(body, (-1, 1)) + 15).mean(axis=1)


def overlay(image: np.ndarray, result: ScanResult) -> np.ndarray:
    """The photo with the scan's lattice, cells and tile codes drawn on it (for --debug-dir)."""
    if result.lattice is None:
        return image.copy()
    cells = np.array([(t.x, t.y) for t in result.tiles])
    centres = np.array([t.center for t in result.tiles])
    labels = [f"{t.guess.tile.code} {t.guess.confidence:.2f}" for t in result.tiles]
    return draw_overlay(image, result.lattice.homography, cells, centres, labels)
