"""Finding tile symbols in a photo.

A Qwirkle tile is a black block with a bright or coloured symbol. The symbol is therefore a
light region that the dark tile body encloses completely, and almost nothing else on a table
has that property: board lines, printed bonus marks, shadows and wood grain are never ringed
by near-black. So the main path looks for holes in a "dark" mask.

The mask compares each pixel with the local brightness of its surroundings instead of a fixed
level, so the same cut works in daylight, under a warm lamp and at half the light. Glare on a
tile body can break the dark ring; :func:`recover_symbols` re-examines the lattice positions a
fitted grid predicts with a relaxed test, which recovers those tiles. Strong glare lifts whole
tile bodies above that cut; a second mask (``Work.lit_dark``) measures each pixel between the
darkest and brightest levels round it, which an added sheen of light leaves apart, so a few
symbols are still found to fit a grid to, and the relaxed test compares a cell's middle with
its rim by difference as well as by ratio.

Everything here works on a downscaled copy (:class:`Work`) for speed; coordinates handed out
are in that copy's pixels, and ``Work.scale`` maps them back to the photo.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from itertools import chain

import cv2
import numpy as np

WORK_SIDE = 1024
"""Longest side of the working copy."""

HALVED_SIDE = 800
"""A photo is halved while its long side stays at least this: a 1,600-px phone photo is worked on
at 800 px, where the course photos' tiles are ~33 px, enough for detection (every variant of
`python -m vision.evaluate.real` stays at 100 %), and every step on the working copy costs 0.6
of what it does at 1,024 px. Halving is cheap and anti-aliased; a webcam frame of 960 px stays
whole."""

DARK_RATIO = 0.36
"""A pixel is tile body when darker than this fraction of its neighbourhood's bright level."""

MIN_SYMBOL_PX = 5.0
"""Smallest symbol side (working pixels) worth considering; below this nothing is readable."""


@dataclass(frozen=True)
class Work:
    """The downscaled photo and the masks every detection step shares."""

    image: np.ndarray  # BGR, working size
    scale: float  # working px per photo px
    ratio: np.ndarray  # float32 brightness relative to the local bright level
    dark: np.ndarray  # uint8 0/1: tile body (or anything as dark)
    value: np.ndarray  # uint8: each pixel's brightest channel, slightly blurred
    value_quarter: np.ndarray  # uint8: ``value`` at a quarter of the size

    @cached_property
    def quarter(self) -> tuple[np.ndarray, np.ndarray]:
        """The image (float32) and ``ratio`` at a quarter of the working size, for the wide looks
        at the table's colour; made once, as several steps (and rounds) take those looks."""
        small = cv2.resize(self.image, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
        ratio = cv2.resize(self.ratio, (small.shape[1], small.shape[0]),
                           interpolation=cv2.INTER_AREA)
        return small.astype(np.float32), ratio

    @cached_property
    def symbols(self) -> list[Symbol]:
        """:func:`find_symbols` on this copy, found once: a scan that reads the photo again
        (without a table's pattern, ``vision.scan``) starts from the same symbols."""
        return find_symbols(self)

    @cached_property
    def lit_cut(self) -> np.ndarray:
        """uint8, a quarter of the working size: the level below which ``value`` is tile body
        by the local span, under glare too (0 where nothing is).

        Glare adds light to a tile's body and its symbol alike, so the body is no longer dark
        beside the table, but it stays at the bottom of the local span: body is less than
        :data:`LIT_CUT` of the way from the darkest level round it to the brightest, where
        that span is wide enough (:data:`LIT_SPAN`) not to be table grain or a printed line.
        Made only when a step needs it (few symbols, or a cell that may be glare-lit).
        """
        small, window = self.value_quarter, _window(self.value_quarter)
        bright = _around(small, window, cv2.dilate)
        # the darkest level over half the window: glare changes within a tile or two, and a
        # body in plain light that far off would set the floor below a glare-lit one
        floor = _around(small, max(3, (window // 2) | 1), cv2.erode)
        cut = cv2.addWeighted(floor, 1.0 - LIT_CUT, bright, LIT_CUT, 0.0)
        cut[cv2.subtract(bright, floor) <= LIT_SPAN] = 0
        return cut

    @cached_property
    def lit_dark(self) -> np.ndarray:
        """uint8 0/1: tile body by the local span (see ``lit_cut``), at working size."""
        cut = cv2.resize(self.lit_cut, self.value.shape[::-1], interpolation=cv2.INTER_LINEAR)
        return np.less(self.value, cut).view(np.uint8)


@dataclass(frozen=True)
class Symbol:
    """A candidate symbol: centre and size in working pixels."""

    center: tuple[float, float]
    size: float  # sqrt of the symbol's area
    extent: float  # the larger side of its bounding box
    contrast: float = np.inf  # centre brightness over its ring's (see _contrast); inf: recovered
    doubtful: bool = False  # passed only the loosest test: the classifier must vouch for it
    spread: tuple[float, float, float] | None = None
    """Second moments (xx, xy, yy) of its outline's area about its centre, over that area;
    None for a recovered symbol. Every symbol has fourfold symmetry, so on the table each
    spreads alike in every direction, and in the photo the spread shows how the view
    stretches the table there (:func:`vision.topface.skew`)."""
    elongation: float = 1.0
    """How drawn out its outline is (:func:`_elongation` of ``spread``; 1 when it has none),
    measured once: every cut level asks it of every candidate found so far."""
    grown: int = 0
    """How many pixels the dark cut that found it thickened the body (:data:`LEVELS`), and
    so took off each side of its outline: its ``extent`` is that much short."""


def prepare(image: np.ndarray) -> Work:
    """Downscale the photo and build the relative-brightness and dark masks."""
    if image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 16:
        raise ValueError(f"expected a BGR colour image, got an array of shape {image.shape}")
    work = _shrink(image)
    scale = work.shape[1] / image.shape[1]
    blue, green, red = cv2.split(work)
    value = cv2.GaussianBlur(cv2.max(cv2.max(blue, green), red), (3, 3), 0)
    small = _quarter(value)
    ratio = np.divide(value, _bright_level(value, small, 8.0), dtype=np.float32)
    dark = (ratio < DARK_RATIO).astype(np.uint8)
    return Work(work, scale, ratio, dark, value, small)


LIT_CUT = DARK_RATIO
"""Share of the way from the local darkest level to the brightest below which a pixel is body
in ``Work.lit_dark``."""

LIT_SPAN = 48.0
"""Least local span (grey levels) for ``Work.lit_dark``: wood grain and printed board lines on
bare table span less; a symbol on a glare-lit body spans 70 or more until both saturate."""


def _shrink(image: np.ndarray) -> np.ndarray:
    """The working copy: halved down to :data:`HALVED_SIDE` at the least, then resized to
    :data:`WORK_SIDE` if still longer."""
    while max(image.shape[:2]) >= 2 * HALVED_SIDE:
        image = halved(image)
    scale = WORK_SIDE / max(image.shape[:2])
    if scale >= 1.0:
        return image
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)


_helper: tuple[int, ThreadPoolExecutor] | None = None
_helper_lock = threading.Lock()


def other_core() -> ThreadPoolExecutor:
    """The one worker thread a scan hands work to that OpenCV does without Python (halving
    the photo, tracing a board's lines), so that it runs on the machine's second core.

    Made on first use in each process: a child forked after a scan holds a copy of the pool
    whose thread does not run there, and work handed to it would wait for ever.
    """
    global _helper
    with _helper_lock:
        if _helper is None or _helper[0] != os.getpid():
            _helper = (os.getpid(), ThreadPoolExecutor(1, "scan-helper"))
        return _helper[1]


def halved(image: np.ndarray) -> np.ndarray:
    """``cv2.pyrDown(image)``, pixel for pixel, with its two halves made at once on two cores.

    Halving a phone photo is the one step of a scan that works on the whole photo (3 ms of a
    40-ms scan on the 2-core machine, as long as decoding it takes half; OpenCV's own threads
    are off, see :mod:`vision`). An output row depends on five input rows round twice its
    index, so each half is made from its own rows and two more beyond the cut, and only rows
    whose inputs all lie inside its slice are kept: the borders are OpenCV's own.

    >>> photo = np.random.default_rng(0).integers(0, 256, (1203, 1601, 3), np.uint8)
    >>> np.array_equal(halved(photo), cv2.pyrDown(photo))
    True
    """
    cut = image.shape[0] // 4 * 2  # an even input row: output row cut // 2 starts the bottom
    if cut < 8:
        return cv2.pyrDown(image)
    bottom = other_core().submit(cv2.pyrDown, image[cut - 4:])
    top = cv2.pyrDown(image[:cut + 4])
    return np.vstack([top[: cut // 2], bottom.result()[2:]])


def _bright_level(value: np.ndarray, small: np.ndarray, offset: float) -> np.ndarray:
    """The brightness of the table or board near each pixel plus ``offset``, as float32: what
    the callers divide by (the offset keeps a black surround from dividing by nothing).
    ``small`` is ``value`` at a quarter of the size (:func:`_quarter`), where it is measured.

    A maximum over a window wider than a few tiles always reaches bare table or a bright
    symbol, so dividing by it cancels the light's overall level and slow gradients (a lamp on
    one side, half light) while tile bodies stay dark.
    """
    level = _around(small, _window(small), cv2.dilate)
    return np.add(cv2.resize(level, value.shape[::-1], interpolation=cv2.INTER_LINEAR), offset,
                  dtype=np.float32)


def _quarter(value: np.ndarray) -> np.ndarray:
    """``value`` at a quarter of its size, for the wide looks (cheap there)."""
    h, w = value.shape
    return cv2.resize(value, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)


def _window(small: np.ndarray) -> int:
    """Side (quarter pixels) of the window of the local looks: wider than a few tiles."""
    return max(3, (max(small.shape) // 24) | 1)


def _around(small: np.ndarray, window: int, extreme: Callable[..., np.ndarray]) -> np.ndarray:
    """The brightest (``cv2.dilate``) or darkest (``cv2.erode``) level near each pixel of
    ``small``, smoothed over the same window."""
    return cv2.blur(extreme(small, np.ones((window, window), np.uint8)), (window, window))


LEVELS: tuple[tuple[float, int], ...] = (
    (DARK_RATIO, 0), (0.45, 1), (0.55, 2), (0.24, 0), (0.16, 0))
"""(dark ratio, dilation px) pairs tried in turn. A symbol nearly as wide as its tile leaves a
ring of body only a pixel or two wide at its tips, which blur or a glint can open; a looser
cut and a slightly thickened body close it again. A dim symbol (purple or dark green under a
warm lamp) can fall below the first cut itself; the stricter cuts separate it from the body.
A symbol found at any level counts."""


MIN_CONTRAST = 1.25
"""Least brightness of a symbol's centre over that of the body just outside its outline."""

LIT_SEEDS = 12
"""Below this many symbols found by the dark cuts, :func:`find_symbols` also looks for symbols
ringed by ``Work.lit_dark``. Glare that lifts the bodies of a small board above every cut
leaves nothing to fit a lattice to; with a few symbols found, the relaxed test beside them
(:func:`recover_symbols`) finds the glare-lit rest more surely. On every photo, the extra look
(a millisecond on a phone photo) finds 0.3 % more tiles on 160 rendered boards but falls for
more glints too (precision 99.31 % against 99.45 %, `python -m vision.evaluate.real
--synthetic 160 --games none`). Printed board lines can ring a square in that mask, so only
a symbol that stands out clearly (:data:`CLEAR_CONTRAST`; a printed square stands out by 1.5
or less) counts there."""

MAX_HOLES = 1000
"""Most enclosed regions measured per dark level. A table shows at most a few hundred (a
full game has 108 tiles); a checkerboard or sensor noise shows tens of thousands, and the
later steps grow with their number, some with its square (the bound issue 11 asked for)."""

MAX_SYMBOLS = 120
"""Most candidates passed on to the lattice: a whole game's 108 tiles and a few more. The
clearest are kept, and a symbol stands out from its tile's body far more than table grain
or a cloth's check does. The real photos and the rendered sets give at most 81; noise gives
thousands, and the lattice's work grows with the square of their number (at 200, a picture
of noise took twice as long)."""


def find_symbols(work: Work) -> list[Symbol]:
    """Light regions enclosed by tile body, filtered to a consistent symbol size."""
    found: list[Symbol] = []
    parts: list[Symbol] = []  # found again on a candidate that may be two joined symbols
    largest = max(work.ratio.shape) / 6
    later = [other_core().submit(_level_traced, work.ratio, ratio, grow, largest)
             for ratio, grow in LEVELS[1:]]
    traced = chain([_level_traced(work.ratio, *LEVELS[0], largest)], (t.result() for t in later))
    for (_, grow), level in zip(LEVELS, traced, strict=True):
        _sort_in(_enclosed(level, largest, (work.ratio, grow + 3), _unsplit(found), grown=grow),
                 found, parts)
    if len(found) < LIT_SEEDS:  # glare may have lifted the bodies: take body by the span too
        lit = _traced(work.dark | work.lit_dark, MIN_SYMBOL_PX, largest, True)
        _sort_in(_enclosed(lit, largest, (work.ratio, 3), _unsplit(found), CLEAR_CONTRAST),
                 found, parts)
    if not found:
        return []
    symbols = _consistent_sizes(_unstretched(_split_pairs(found, parts)))
    if len(symbols) > MAX_SYMBOLS:  # keep the clearest, in the order they were found
        clearest = sorted(np.argsort([-s.contrast for s in symbols], kind="stable")[:MAX_SYMBOLS])
        symbols = [symbols[i] for i in clearest]
    return symbols


PAIR_ELONGATION = (1.6, 2.8)
"""A candidate drawn out this much (:func:`_elongation`) may be two symbols joined across the
thin body between their tiles, where tiles are small and the picture soft (game 121 of the
hardest footage: black tiles 25 px wide on a black table; the first move's two clovers were
one candidate 50 px long, 2.5 times as long as wide, and the lattice, given one point, put the
move on a diagonal). Two round symbols a body's rim apart are at most about 2.5 times as long
as wide; a patch of table between tiles can be longer, and parts of it are no symbols (the
48th photo of rendered game 204: two round pieces of one 3.2 times as long pulled the lattice
off a tile at the board's edge)."""


def _may_be_pair(symbol: Symbol) -> bool:
    low, high = PAIR_ELONGATION
    return low < symbol.elongation <= high


def _unsplit(found: list[Symbol]) -> list[Symbol]:
    """The candidates a later level's finds are matched against (:func:`_near_any`): all but
    those that may be two joined symbols, which :func:`_sort_in` matches."""
    return [s for s in found if not _may_be_pair(s)]


def _sort_in(new: list[Symbol], found: list[Symbol], parts: list[Symbol]) -> None:
    """A level's ``new`` candidates into ``found``, or into ``parts`` where they lie on one
    found before that may be two joined symbols: the same symbol again, or, where a stricter
    cut opened the body between two, its parts (:func:`_split_pairs`); once each."""
    points = np.array([s.center for s in new]).reshape(-1, 2)
    on_pair = _near_any(points, [s for s in found if _may_be_pair(s)])
    found += [s for s, near in zip(new, on_pair, strict=True) if not near]
    known = _near_any(points, parts)
    parts += [s for s, near, seen in zip(new, on_pair, known, strict=True)
              if near and not seen and not _may_be_pair(s)]


def _split_pairs(found: list[Symbol], parts: list[Symbol]) -> list[Symbol]:
    """``found``, less each candidate that may be two joined symbols and holds two or more
    whole ones, and with those of its ``parts`` (:func:`_sort_in`).

    A whole symbol is round (:data:`ROUND_VIEW`) and about half as long as the pair, as
    symbols seen from above are: seen from well off vertical every symbol is drawn out, and
    a stricter cut parts a star's points or a clover's leaves, drawn out as well, or leaves a
    speck of noise. The pair may be found after its parts, by a looser cut that joins them."""
    if not parts and not any(map(_may_be_pair, found)):
        return found
    every = found + parts
    centres = np.array([s.center for s in every])
    split: set[int] = set()
    taken: set[int] = set()
    for i, joined in enumerate(found):
        if not _may_be_pair(joined):
            continue
        reach = np.hypot(*(centres - joined.center).T)
        held = [j for j, s in enumerate(every)
                if s.elongation <= ROUND_VIEW and reach[j] < 0.5 * joined.extent
                and 0.3 * joined.extent < s.extent < 0.7 * joined.extent]
        if len(held) >= 2:
            split.add(i)
            taken.update(j - len(found) for j in held if j >= len(found))
    return [s for i, s in enumerate(found) if i not in split] + [parts[j] for j in sorted(taken)]


def _near_any(points: np.ndarray, others: list[Symbol]) -> np.ndarray:
    """Which ``points`` a candidate in ``others`` already sits on (the same symbol found at
    another level).

    Only pairs within the largest reach of each other along x are measured (``others``
    sorted by x): noise gives a thousand holes a level against thousands found before, and
    every pair took a quarter of a second.
    """
    if not others or not len(points):
        return np.zeros(len(points), bool)
    centres = np.array([o.center for o in others])
    reach = 0.4 * np.array([o.extent for o in others])
    order = np.argsort(centres[:, 0], kind="stable")
    xs, widest = centres[order, 0], reach.max()
    first = np.searchsorted(xs, points[:, 0] - widest, "left")
    counts = np.searchsorted(xs, points[:, 0] + widest, "right") - first
    owner = np.repeat(np.arange(len(points)), counts)
    # the pairs, point by point: each point's band of candidates in x order, counted up
    other = order[np.repeat(first - (np.cumsum(counts) - counts), counts) + np.arange(len(owner))]
    close = ((points[owner] - centres[other]) ** 2).sum(axis=1) < reach[other] ** 2
    return np.bincount(owner[close], minlength=len(points)) > 0


def _level_traced(ratio: np.ndarray, cut: float, grow: int, max_extent: float) -> Traced:
    """One of :data:`LEVELS`: the body darker than ``cut`` of the bright level, thickened by
    ``grow`` pixels, traced for :func:`_enclosed`. All OpenCV and numpy, so a scan runs the
    later levels on the other core (:func:`other_core`) while this one measures the levels
    before. Tracing was 3.5-5.5 ms of the 11-16 ms that finding a phone photo's symbols took on
    the 2-core machine; with it moved, 13.4 instead of 16.2 ms on oblique-2/13.jpg, 11.5
    instead of 13.4 on oblique-2/12.jpg (medians of 30, turn about, session 45). Whole scans,
    with the tiles' crops cut on two cores too (:data:`vision.crops.TWO_CORES`), take 1-3 %
    less time, inside the spread of that host."""
    dark = np.less(ratio, cut).view(np.uint8)  # 0 or 1, without a copy
    if grow:
        dark = cv2.dilate(dark, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    return _traced(dark, MIN_SYMBOL_PX, max_extent, True)


def _enclosed(traced: Traced, max_extent: float, ring: tuple[np.ndarray, float],
              known: list[Symbol], least: float = MIN_CONTRAST, grown: int = 0) -> list[Symbol]:
    """Light regions ringed by dark (in the ``traced`` mask, :func:`_traced` up to
    ``max_extent``) that have a symbol's build, and are not ``known`` yet.

    ``ring`` (the brightness ratio, and how far outside the region's outline to look) gives
    each region's contrast: on a dark table every glint of wood grain is "enclosed", but only
    a symbol stands out clearly from a near-black tile body. It is measured last, on the
    regions that pass every other test, and must reach ``least``. ``grown``: how much the
    body was thickened in ``traced`` (:attr:`Symbol.grown`).
    """
    holes, outlines = _measured(traced, MIN_SYMBOL_PX, max_extent, True)
    cx, cy, bw, bh, area = holes[:, :5].T
    extent = np.maximum(bw, bh)
    keep = (
        (np.minimum(bw, bh) >= 0.3 * extent)  # not a sliver between two tiles
        & (area >= 0.25 * bw * bh)  # not a thin outline of table ringed by tiles
        & ~_near_any(holes[:, :2], known)
    )
    keep = np.flatnonzero(keep)
    contrast = _contrast([outlines[i] for i in keep], holes[keep, :2], *ring)
    keep, contrast = keep[contrast >= least], contrast[contrast >= least]
    spreads = holes[keep, 7:10]
    return [Symbol((float(x), float(y)), float(np.sqrt(a)), float(e), float(c),
                   spread=(float(xx), float(xy), float(yy)), elongation=float(long),
                   grown=grown)
            for x, y, a, e, c, (xx, xy, yy), long in zip(
                cx[keep], cy[keep], area[keep], extent[keep], contrast, spreads,
                _elongation(spreads), strict=True)]


MAX_ELONGATION = 1 / 0.3
"""Longest a candidate's outline may be drawn out in a view from above (:func:`_unstretched`),
as the square root of its principal second moments' ratio: a rectangle's side ratio, as in
the box test of :func:`_enclosed` (shorter side at least 0.3 of the longer), which sees only
slivers along the picture's axes. The table seen between tiles laid askew of the picture is a
sliver at 35 degrees with a square box: in a rendered game's video (116 of the hardest
footage) one, 4.5 times as long as wide, pulled the first lattice off the tiles' axes, and
its tracker lost 19 of 52 moves."""

ROUND_VIEW = 1.3
"""Most the view may draw the symbols out (their median spread's elongation) for
:data:`MAX_ELONGATION` to apply: seen from about 40 degrees off vertical on, symbols are
drawn out 1.3 times and more, and the table through the gaps between rows shows as slivers
that the lattice and :func:`vision.topface.through_gap` deal with. The frame of game 116
draws its symbols out 1.16 times."""


def _unstretched(found: list[Symbol]) -> list[Symbol]:
    """``found`` less the candidates drawn out more than :data:`MAX_ELONGATION` (those as
    clear as a symbol, which set the symbols' size) or :data:`SLIVER` (faint ones), where the
    view draws the symbols out no more than :data:`ROUND_VIEW` (the median of their spreads,
    each scaled to one size; round with fewer than three). Faint ones less drawn out are left
    to :func:`drop_table_like` and the classifier: dropped for being drawn out, a check of
    board 5 of ``--cloths`` (4.7 times as long as wide) and two gaps of board 12 of
    ``--oblique`` at 50-60 degrees took tiles with them."""
    if not _round_view(found):
        return found
    return [s for s in found
            if s.elongation <= (MAX_ELONGATION if s.contrast >= CLEAR_CONTRAST else SLIVER)]


SLIVER = 6.0
"""Longest a faint candidate may be drawn out in a view from above (:func:`_unstretched`):
twice as long as two symbols joined (:data:`PAIR_ELONGATION`). Longer, it is the table seen
through the gap between two tiles: on a frame of game 113 of the hardest footage one 7.4 times
as long as wide lay between two tiles of a seven-tile board, and the lattice put a cell on it,
on cells 0.7 of the tiles' (4 tiles read, 3 of them wrong, for 7)."""


def _round_view(found: list[Symbol]) -> bool:
    """Whether the view draws the symbols out no more than :data:`ROUND_VIEW` (the median of
    their spreads, each scaled to one size; round with fewer than three)."""
    spreads = np.array([s.spread for s in found if s.spread is not None], np.float64)
    if len(spreads) < 3:
        return True
    unit = spreads / (spreads[:, 0] + spreads[:, 2])[:, None]
    return bool(_elongation(np.median(unit, axis=0)[None])[0] <= ROUND_VIEW)


def _elongation(moments: np.ndarray) -> np.ndarray:
    """For rows of second moments (xx, xy, yy), the square root of the larger principal
    moment over the smaller (1 for a round outline; inf for a line)."""
    xx, xy, yy = moments.T
    mean, half = (xx + yy) / 2, np.sqrt(((xx - yy) / 2) ** 2 + xy ** 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt((mean + half) / np.maximum(mean - half, 0.0))


Traced = tuple[Sequence[np.ndarray], np.ndarray | None]
"""A mask's contours and their hierarchy, as ``cv2.findContours`` gives them."""


def _traced(mask: np.ndarray, min_side: float, max_side: float, every_point: bool) -> Traced:
    """``mask`` traced for :func:`_measured`, its regions of 0 enclosed by 1s (holes) with
    box sides in [min_side, max_side] in mind: the work in OpenCV and numpy, which lets
    another thread run Python meanwhile.

    Contour tracing gives the holes directly (4-connected background inside 8-connected
    foreground, the image border counting as open; a contour with a parent is a hole),
    several times faster than labelling every region. Without ``every_point`` an outline
    keeps only its corners: the same polygon, so the same rows, and half the cost on a mask of
    thousands of specks (a printed board's lines), but too few points to measure a ring along.
    """
    approximation = cv2.CHAIN_APPROX_NONE if every_point else cv2.CHAIN_APPROX_SIMPLE
    if _speckled(mask):
        mask = _despeckled(mask, min_side, max_side)
    return cv2.findContours(mask, cv2.RETR_CCOMP, approximation)


def _measured(traced: Traced, min_side: float, max_side: float,
              every_point: bool) -> tuple[np.ndarray, list[np.ndarray]]:
    """The holes of a :func:`_traced` mask whose box side lies in [min_side, max_side]: rows
    (cx, cy, w, h, area, box x, box y, and the second moments xx, xy, yy about the centre
    over the outline's area), and each one's outline (points, x and y)."""
    contours, hierarchy = traced
    if hierarchy is None:
        return np.zeros((0, 10)), []
    hole = hierarchy[0][:, 3] >= 0
    if every_point:  # an outline has at least twice its box's longer side in points: most
        # specks go here, before their boxes are measured
        hole &= np.fromiter(map(len, contours), int, len(contours)) >= 2 * min_side - 2
    boxes = [(contours[i], cv2.boundingRect(contours[i])) for i in map(int, np.flatnonzero(hole))]
    boxes = [(c, box) for c, box in boxes if min_side <= max(box[2:]) <= max_side]
    if len(boxes) > MAX_HOLES:  # no table looks like this: only the largest are measured
        boxes = sorted(boxes, key=lambda item: -item[1][2] * item[1][3])[:MAX_HOLES]
    outlines, rows = [], []
    for contour, (x, y, bw, bh) in boxes:
        m = cv2.moments(contour)
        if m["m00"] <= 0:
            continue
        # the traced boundary runs through the ring's pixels: add half the perimeter back
        area = m["m00"] + 0.5 * cv2.arcLength(contour, True)
        outlines.append(contour.reshape(-1, 2))
        rows.append((m["m10"] / m["m00"], m["m01"] / m["m00"], bw - 2, bh - 2, area,
                     x + 0.5 * (bw - 1), y + 0.5 * (bh - 1),
                     m["mu20"] / m["m00"], m["mu11"] / m["m00"], m["mu02"] / m["m00"]))
    return np.array(rows).reshape(-1, 10), outlines


SPECKLED = 0.1
"""Share of neighbouring pixels along a row (every fourth) that differ, above which a mask
is cleared of specks before its holes are traced (:func:`_despeckled`). The holes come out
the same either way; the share only weighs labelling's cost (a few milliseconds a mask)
against tracing's. The real photos' masks give at most 0.07, a rendered printed board's
lines up to 0.37, and noise or 1-bit pictures from 0 to 1 (0.13 typical)."""


def _speckled(mask: np.ndarray) -> bool:
    """Whether ``mask`` changes so often along its rows (every fourth looked at) that tracing
    it would cost more than clearing it first (:func:`_despeckled`)."""
    rows = mask[::4]
    return bool(np.count_nonzero(rows[:, 1:] != rows[:, :-1]) > SPECKLED * rows.size)


def _despeckled(mask: np.ndarray, min_side: float, max_side: float) -> np.ndarray:
    """``mask`` with its holes too small to measure filled and its specks too small to ring
    a measured hole cleared: the same holes from :func:`_measured`, in the same order, outlines
    and all.

    Contour tracing follows every speck and every pinhole. Noise or a 1-bit picture has tens
    of thousands, and tracing them took a second a mask; labelling them takes milliseconds.
    A hole's outline runs on the ring of mask pixels round it, so its box is the hole's own
    plus one pixel each way: a hole under ``min_side - 2`` is never measured, and a speck
    under ``min_side`` rings none that is. Neither lies on a larger hole's outline, and
    neither holds one: tracing lists a hole after the mask round it, so filling a hole that
    held an island with measured holes would move those in the list.

    Where more holes are in range than :data:`MAX_HOLES` (no table looks like that: 100,000
    on a fine 1-bit picture), those past the largest are filled too (ties kept, so that
    :func:`_measured` still makes its own choice); only then may the order change.
    """
    _, labels, stats, _ = cv2.connectedComponentsWithStats(1 - mask, connectivity=4)
    x, y, w, h = (stats[:, i] for i in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH,
                                        cv2.CC_STAT_HEIGHT))
    side = np.maximum(w, h) + 2  # the outline's box
    fill = side < min_side
    rows, cols = mask.shape
    # tracing takes the picture's outermost pixels as background: holes clear of them
    inside = (x > 1) & (y > 1) & (x + w < cols - 1) & (y + h < rows - 1)
    measured = inside & ~fill & (side <= max_side)
    measured[0] = False  # the mask itself
    if measured.sum() > MAX_HOLES:
        area = (w + 2) * (h + 2)
        fill |= measured & (area < np.sort(area[measured])[-MAX_HOLES])
    fill[0] = False
    filled = np.where(fill[labels], np.uint8(1), mask)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(filled, connectivity=8)
    large = stats[:, cv2.CC_STAT_WIDTH:cv2.CC_STAT_HEIGHT + 1].max(axis=1) >= min_side
    large[0] = False  # the background
    return large[labels].view(np.uint8)


def _contrast(outlines: list[np.ndarray], centres: np.ndarray, image: np.ndarray,
              reach: float) -> np.ndarray:
    """Each hole's centre brightness in ``image`` over that of its ring: the median, along the
    outline, of the least value within ``reach`` pixels outside.

    All outlines are measured in one pass: their points are stacked, each tagged with its
    hole, and the per-hole median is taken from one sort.
    """
    if not outlines:
        return np.zeros(0)
    h, w = image.shape
    counts = np.array([len(o) for o in outlines])
    owner = np.repeat(np.arange(len(outlines)), counts)
    pts = np.concatenate(outlines).astype(np.float64)
    out = pts - centres[owner]
    out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)
    # the darkest value on a short ray out of each outline point: the body, however thin
    # blur has left it
    steps = np.arange(1.0, reach + 1.0)
    ray = pts[:, None, :] + steps[None, :, None] * out[:, None, :]
    u = np.clip(np.rint(ray[..., 0]).astype(int), 0, w - 1)
    v = np.clip(np.rint(ray[..., 1]).astype(int), 0, h - 1)
    darkest = image[v, u].min(axis=1)
    # by hole, then by value, in one sort of one key (twice as fast as a lexsort): a ratio
    # (float32, 0 or over 1/300, under 64) keeps every bit beside 64 times its hole's number
    key = np.sort(owner * 64.0 + darkest)
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    base = 64.0 * np.arange(len(counts))
    low, high = ((key[at] - base).astype(np.float32)
                 for at in (first + (counts - 1) // 2, first + counts // 2))
    body = 0.5 * (low + high)
    # the mean of the 3 x 3 pixels round each centre (a hole never touches the picture's edge)
    cu, cv_ = centres.astype(int).T
    around = np.arange(-1, 2)
    rows = np.clip(cv_[None, None] + around[:, None, None], 0, h - 1)  # (dy, dx, hole)
    cols = np.clip(cu[None, None] + around[None, :, None], 0, w - 1)
    inner = np.mean(image[rows, cols].reshape(9, -1), axis=0)
    return inner / np.maximum(body, 1e-3)


def _consistent_sizes(symbols: list[Symbol]) -> list[Symbol]:
    """Drop candidates far from the typical symbol size (specks, enclosed patches of table).

    The typical size is the median of the larger half of the clear candidates (those that
    stand out from their ring), since glints of noise or wood grain are many, small and faint
    while real symbols dominate the upper half.
    """
    clear = [s.extent for s in symbols if s.contrast >= CLEAR_CONTRAST]
    extents = np.sort(clear or [s.extent for s in symbols])
    typical = float(np.median(extents[len(extents) // 2:]))
    return [s for s in symbols if 0.45 * typical <= s.extent <= 1.9 * typical]


CLEAR_CONTRAST = 2.0
"""Contrast of the candidates that set the typical symbol size (a dim symbol passes the
lower MIN_CONTRAST but does not set the size)."""


RIM_RATIO = 0.5
"""Dark cut for the relaxed test (see :func:`recover_symbols`)."""

SYMBOL_OVER_BODY = 2.0
"""Least brightness of a recovered symbol's centre over the tile body's round it."""

RAYS = 16
CLOSED_RAYS = 12
"""Of RAYS rays out of a cell's centre, at least this many must meet tile body in the rim."""

DOUBTFUL = (10, 1.6)
"""(closed rays, symbol over body) of the loosest test. A blue or green symbol under a warm
lamp, hardly brighter than the body, fails the test above (so does a tile with glare on one
side); so does a printed bonus square between tiles in an oblique view, which only the
classifier tells apart (see ``vision.scan.DOUBTFUL_TILE_PROB``)."""

GLARE = (0.7, 0.12, 11)
"""(least middle, least middle less body, least rays meeting ``Work.lit_dark`` in the rim) of
a glare-lit tile in the relaxed test; middle and body as shares of the local bright level.
See :func:`_glare_lit`."""

RIM = (0.22, 0.46)
"""The band of a cell (as a share of its side from the centre, square distance) where a ray
must meet tile body: outside the widest symbol's middle, inside the tile's own edge."""


def _sample_offsets() -> tuple[np.ndarray, np.ndarray]:
    """Cell offsets sampled by the relaxed test: the centre's patch, then every ray's samples.

    Rays run to the same square distance in every direction (so a diagonal ray reaches the
    tile's corner, not past it).
    """
    inner = np.linspace(-0.15, 0.15, 5)
    centre = np.stack(np.meshgrid(inner, inner), axis=-1).reshape(-1, 2)
    angle = np.arange(RAYS) * 2 * np.pi / RAYS
    unit = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    unit /= np.abs(unit).max(axis=1, keepdims=True)
    radii = np.arange(RIM[0], RIM[1] + 1e-9, 0.04)
    rays = (unit[:, None, :] * radii[None, :, None]).reshape(-1, 2)
    return centre, rays


def _sample(image: np.ndarray, to_pixels: np.ndarray, centres: np.ndarray,
            offsets: np.ndarray, outside: float = 1.0) -> np.ndarray:
    """``image`` at every cell offset round every cell centre: shape (cells, offsets[, 3]).

    Outside the picture a sample reads ``outside``: by default 1.0, a ratio as light as the
    table (no tile body there).
    """
    grid = (centres[:, None, :] + offsets[None]).reshape(-1, 1, 2)
    maps = cv2.perspectiveTransform(grid, to_pixels).reshape(len(centres), -1, 2)
    return cv2.remap(image, maps.astype(np.float32), None, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=outside)


MAX_RECENTRE = 0.12
"""Largest move (cells) of a predicted cell centre onto the light symbol found there."""


def _recentre(work: Work, to_pixels: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Predicted cell centres moved onto the middle of the light region inside each cell.

    A prediction from neighbours is off by a nudged tile's offset, enough to push a long arm
    of a cross or clover out of the band where the rays look for body.
    """
    side = np.linspace(-0.32, 0.32, 9)
    offsets = np.stack(np.meshgrid(side, side), axis=-1).reshape(-1, 2)
    ratio = _sample(work.ratio, to_pixels, centres, offsets)
    light = ratio > 0.5 * (ratio.max(axis=1) + ratio.min(axis=1))[:, None]
    shift = (light @ offsets) / np.maximum(light.sum(axis=1), 1)[:, None]
    # a cell light nearly all over is table or board, not a symbol: nothing to centre on
    shift[light.mean(axis=1) > 0.7] = 0.0
    return centres + np.clip(shift, -MAX_RECENTRE, MAX_RECENTRE)


def recover_symbols(work: Work, to_pixels: np.ndarray, centres: np.ndarray, typical: float,
                    tiles: np.ndarray) -> list[Symbol]:
    """A relaxed test at cells where the fitted lattice expects a tile may lie.

    Glare can wipe out a whole side of the thin ring of body round a symbol, so the strict
    enclosure fails; at webcam size the arms of a cross or clover leave only a pixel or two
    of body at the tile's edge. Here each cell (``centres`` in cell coordinates;
    ``to_pixels`` maps cell coordinates to working pixels) is sampled on rays from its centre,
    and accepted when its centre is light (a symbol) and nearly every ray meets tile body
    inside the tile's edge (glare may open a quarter of them). An empty cell next to tiles
    meets their bodies only at or beyond its own edge, so most of its rays stay open; a bare
    table or a printed board square offers no body at all. Under an oblique view the side
    faces of the tiles round an empty cell can still close most of its rays, so unless all
    but one are closed the centre must also differ in colour from the table or board near it
    (``tiles``: the found tiles' working-pixel centres, kept out of that estimate). Cells that
    pass only the looser :data:`DOUBTFUL` test, or only the :data:`GLARE` test, come back
    marked ``doubtful``.
    """
    centres = _recentre(work, to_pixels, centres)
    centre, rays = _sample_offsets()
    ratio = _sample(work.ratio, to_pixels, centres, np.concatenate([centre, rays]))
    middle = np.median(ratio[:, : len(centre)], axis=1)
    deepest = ratio[:, len(centre):].reshape(len(centres), RAYS, -1).min(axis=2)
    body = np.median(deepest, axis=1)
    # body is what is clearly darker than the centre: a dim symbol (green, purple, blue under
    # a lamp) is itself darker than the strict cut, but still several times the body's level;
    # and a looser cut than the strict test's, since at webcam size blur greys thin edges
    cut = np.minimum(RIM_RATIO, 0.5 * (middle + body))
    closed = (deepest < cut[:, None]).sum(axis=1)
    sure = (middle >= SYMBOL_OVER_BODY * body) & (closed >= CLOSED_RAYS)
    accepted = (middle >= DOUBTFUL[1] * body) & (closed >= DOUBTFUL[0])
    lit = _glare_lit(work, to_pixels, centres, rays, middle, body, deepest)
    accepted |= lit > 0
    if not accepted.any():
        return []
    found = cv2.perspectiveTransform(centres[accepted].reshape(-1, 1, 2), to_pixels).reshape(-1, 2)
    colour = _sample(work.image, to_pixels, centres[accepted], centre)
    beside = cv2.perspectiveTransform((centres[accepted] + [1.0, 0.0]).reshape(-1, 1, 2),
                                      to_pixels).reshape(-1, 2)
    pitch = float(np.median(np.linalg.norm(beside - found, axis=1)))
    unlike, light_table = unlike_background(work, found, colour.mean(axis=1), tiles, pitch)
    # a ring closed all the way round inside the tile's edge, on a table lighter than the
    # tiles, is no gap between tiles: a white symbol on a white board passes on that alone,
    # and so does a symbol that glare washes white
    unlike |= light_table & (np.maximum(closed, lit)[accepted] >= RAYS - 1)
    return [Symbol((float(u), float(v)), typical, typical, doubtful=not ok)
            for (u, v), ok in zip(found[unlike], sure[accepted][unlike], strict=True)]


def _glare_lit(work: Work, to_pixels: np.ndarray, centres: np.ndarray, rays: np.ndarray,
               middle: np.ndarray, body: np.ndarray, deepest: np.ndarray) -> np.ndarray:
    """How many rays a cut midway between middle and body closes, in the cells that pass the
    :data:`GLARE` test of :func:`recover_symbols` (0 in the others): glare-lit tiles.

    Glare adds light to body and symbol alike: the symbol saturates near the bright level
    while the body rises to 0.5-0.9 of it, so neither ratio of the other tests holds, but a
    cut midway between middle and body still closes :data:`DOUBTFUL` rays. So does a printed
    line round an empty board square, a little darker than the paper; but only a tile's body
    spans enough grey levels to be ``Work.lit_dark``, which the rim must meet on nearly every
    ray: in the 83 real photos 3 of some 1,750 empty cells that pass the midway cut reach 11
    rays, and the colour test or the classifier turns them down. With it, `python -m
    vision.evaluate.real --synthetic 160 --games none` finds 2.2 % more tiles at the same
    precision. A dim cell (an oblique view's gap between tiles, whose sides close the rays) is
    not bright enough. Cells passing only this test are ``doubtful``.
    """
    closed = (deepest < 0.5 * (middle + body)[:, None]).sum(axis=1)
    glare = (middle >= GLARE[0]) & (middle - body >= GLARE[1]) & (closed >= DOUBTFUL[0])
    if glare.any():  # sampled, not the whole mask made: outside the picture no body
        value = _sample(work.value, to_pixels, centres[glare], rays, outside=255.0)
        cut = _sample(work.lit_cut, QUARTER @ to_pixels, centres[glare], rays, outside=0.0)
        met = (value < cut).reshape(-1, RAYS, len(rays) // RAYS).any(axis=2).sum(axis=1)
        glare[glare] = met >= GLARE[2]
    return np.where(glare, closed, 0)


QUARTER = np.array([[0.25, 0.0, -0.375], [0.0, 0.25, -0.375], [0.0, 0.0, 1.0]])
"""Working pixels to those of a copy a quarter the size (pixel centres kept)."""


BACKGROUND_DELTA = 12.0
"""Least colour difference (CIELAB, lightness at half weight) between a recovered symbol and
the table or board round it."""


def unlike_background(work: Work, points: np.ndarray, colours: np.ndarray, tiles: np.ndarray,
                       pitch: float) -> tuple[np.ndarray, np.ndarray]:
    """Which of ``colours`` (BGR, at ``points``) differ from the table or board colour.

    The local colour is a wide average (about three cells) of the light pixels that lie away
    from every tile and candidate, computed at quarter resolution. Where no light table is in
    reach (a table as dark as the tiles) the whole table's colour stands in; the second array
    says where the local colour was known.
    """
    small, ratio = work.quarter
    away = _away_from(small.shape[:2], np.concatenate([tiles, points]), pitch)
    free = (ratio > RIM_RATIO).astype(np.uint8) & away
    k = max(3, int(0.75 * pitch) | 1)
    weight = cv2.blur(free.astype(np.float32), (k, k))
    mean = cv2.blur(small * free[..., None], (k, k))
    h, w = free.shape
    u = np.clip((points[:, 0] * 0.25).astype(int), 0, w - 1)
    v = np.clip((points[:, 1] * 0.25).astype(int), 0, h - 1)
    local = mean[v, u] / np.maximum(weight[v, u], 1e-6)[:, None]
    known = weight[v, u] > 0.01  # some light table in reach
    if away.any() and not known.all():
        local[~known] = byte_medians(small[away > 0])
    return _colour_delta(colours, local) >= BACKGROUND_DELTA, known


def byte_medians(values: np.ndarray) -> np.ndarray:
    """The median of each column of ``values`` (M, C), whole numbers 0..255 (pixels), as
    ``np.median(values, axis=0)`` gives it, from each column's counts: sorting a large part
    of a picture took milliseconds."""
    m = len(values)
    counts = np.cumsum([np.bincount(column, minlength=256)
                        for column in values.T.astype(np.intp)], axis=1)
    # the k-th smallest value is the first whose running count exceeds k
    return 0.5 * ((counts <= (m - 1) // 2).sum(axis=1) + (counts <= m // 2).sum(axis=1))


def _away_from(shape: tuple[int, int], points: np.ndarray, pitch: float) -> np.ndarray:
    """uint8 mask (quarter resolution) of the pixels beyond a tile's reach of every point."""
    mask = np.ones(shape, np.uint8)
    for u, v in points * 0.25:
        cv2.circle(mask, (int(u), int(v)), int(0.2 * pitch) + 1, 0, -1)
    return mask


def _colour_delta(colours: np.ndarray, others: np.ndarray) -> np.ndarray:
    """CIELAB distance between BGR colours, lightness at half weight (shading varies most)."""
    both = np.concatenate([colours, np.broadcast_to(others, colours.shape)])
    lab = cv2.cvtColor(both.astype(np.float32)[:, None] / 255.0, cv2.COLOR_BGR2Lab)[:, 0]
    diff = lab[: len(colours)] - lab[len(colours):]
    return np.sqrt((0.5 * diff[:, 0]) ** 2 + diff[:, 1] ** 2 + diff[:, 2] ** 2)


def drop_table_like(work: Work, symbols: list[Symbol], pitch: float) -> list[Symbol]:
    """Drop faint candidates whose middle has the colour of the table round the tiles.

    On a table nearly as dark as the tiles, in dim light, the whole table counts as "dark", so
    a speck of lighter grain or a patch of table closed in by tiles is an enclosed light
    region; it stands out only faintly from its ring (a real symbol, even a dim purple one,
    has its own colour). The table's colour is the median of the pixels away from every
    candidate, at quarter resolution.
    """
    faint = [s for s in symbols if s.contrast < CLEAR_CONTRAST]
    if not faint:
        return symbols
    small, _ = work.quarter
    away = _away_from(small.shape[:2], np.array([s.center for s in symbols]), pitch)
    if away.sum() < 0.2 * away.size:
        return symbols
    table = byte_medians(small[away > 0])
    r = max(1, int(0.12 * pitch))
    middles = np.array([work.image[int(v) - r:int(v) + r + 1, int(u) - r:int(u) + r + 1]
                        .reshape(-1, 3).mean(axis=0) for u, v in (s.center for s in faint)])
    like = {id(s) for s, d in zip(faint, _colour_delta(middles, table), strict=True)
            if d < BACKGROUND_DELTA}
    return [s for s in symbols if id(s) not in like]


LINE_CONTRAST = 6
"""Grey levels (of 255 for the local bright level) a printed line lies below its
surroundings' mean."""

FAINT_LINE_CONTRAST = 3
"""The same for a board whose squares at :data:`LINE_CONTRAST` leave groups of tiles apart
(``vision.scan._board_squares``): blurred lines, or lines a pixel wide. Not the rule: on the
oblique board's photos with glare spots added, lines lit by the glare then ring squares that
lead the lattice astray."""

MAX_SQUARES = 200
"""Most board squares passed on to the lattice: the real photos show at most 94, the rendered
boards 110."""


PERSPECTIVE = 1.5
"""Most a cell's size may differ from the median across an oblique photo (near versus far)."""


def _local_size(points: np.ndarray, symbols: list[Symbol]) -> np.ndarray:
    """Symbol size near each point over the median size: how perspective scales a cell there.

    Under an oblique view the near squares of a board are much larger than the median cell,
    so a single size limit keeps only the far ones and the near board pieces stay unlinked.
    """
    if not symbols or not len(points):
        return np.ones(len(points))
    centres = np.array([s.center for s in symbols])
    extents = np.array([s.extent for s in symbols])
    d = np.linalg.norm(points[:, None] - centres[None], axis=2)
    nearest = np.argsort(d, axis=1)[:, : min(len(symbols), 5)]
    local = np.median(extents[nearest], axis=1) / np.median(extents)
    return np.clip(local, 1 / PERSPECTIVE, PERSPECTIVE)


def trace_squares(work: Work, pitch: float, contrast: int = LINE_CONTRAST) -> Traced:
    """The outlines of the light regions ringed by printed lines or tile body, for
    :func:`find_squares`: the costly part of the look (3-4 ms on a phone photo of a board),
    all of it in OpenCV and numpy, so that a scan can run it on its other core beside the
    first lattice fit, before that fit says whether squares are needed. ``contrast``: how far
    below its surroundings a line lies (:data:`FAINT_LINE_CONTRAST` for a second look)."""
    gray = cv2.cvtColor(work.image, cv2.COLOR_BGR2GRAY)
    # stretched to the local bright level, so the line contrast is relative: a warm lamp or
    # half light lowers a printed line's contrast in grey levels along with the whole board
    stretched = gray.astype(np.float32)
    stretched *= 255.0
    stretched /= _bright_level(gray, _quarter(gray), 8.0)
    gray = np.minimum(stretched, 255.0, out=stretched).astype(np.uint8)  # never below 0
    block = max(3, int(pitch / 2) | 1)
    line = cv2.adaptiveThreshold(gray, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                 block, contrast)
    return _traced(line | work.dark, *_square_sides(pitch), False)


def _square_sides(pitch: float) -> tuple[float, float]:
    """The least and the largest box side (working pixels) of a board square's region, the
    nearest and the farthest squares of an oblique view allowed for."""
    return 0.6 * pitch / PERSPECTIVE, 1.5 * pitch * PERSPECTIVE


def find_squares(work: Work, symbols: list[Symbol], pitch: float,
                 traced: Traced | None = None) -> np.ndarray:
    """Centres (N, 2) of empty printed board squares: light cells ringed by thin lines.

    Printed lines are found as pixels darker than their immediate surroundings; the light
    regions they (and tile bodies) enclose, of about a cell's size and not sitting on a
    symbol, are squares of a board. A bare table gives next to none, and that is fine: they
    only help link tiles (see :func:`vision.lattice.assign_cells`). ``traced``: what
    :func:`trace_squares` gave for this copy and pitch, if it ran already.
    """
    traced = trace_squares(work, pitch) if traced is None else traced
    holes, _ = _measured(traced, *_square_sides(pitch), False)
    extent = np.maximum(holes[:, 2], holes[:, 3])
    area = holes[:, 4]
    side = pitch * _local_size(holes[:, 5:7], symbols)
    keep = ((extent >= 0.6 * side) & (extent <= 1.5 * side) & (area > 0.3 * side ** 2)
            & (area < 1.1 * side ** 2) & (area > 0.45 * extent ** 2))
    # the middle of the box, not the centroid: a bonus square's digit carves into its hole
    centres = holes[keep, 5:7]
    if symbols and len(centres):
        tiles = np.array([s.center for s in symbols])
        apart = np.linalg.norm(centres[:, None] - tiles[None], axis=2).min(axis=1)
        off = apart >= 0.5 * pitch  # not the tiles' own symbols
        centres, apart = centres[off], apart[off]
        # the nearest to the tiles: those link groups of tiles; far ones only cost (the
        # lattice's steps grow with the square of all points), and noise gives hundreds
        centres = centres[np.sort(np.argsort(apart, kind="stable")[:MAX_SQUARES])]
    return centres.reshape(-1, 2)
