"""The stable-frame gate: decide, cheaply and per frame, when the table shows a new still position.

Scanning a frame costs about a hundred milliseconds; a camera delivers ten or more frames a
second, most of them either identical to the last position or full of moving hands. The gate
works on a 160-px blurred grey thumbnail, normalised for light (local log contrast), so that
exposure flicker, a cloud or a white-balance step does not count as change.

The camera itself moves: a phone holder wobbles a pixel or two every frame, and a knocked
camera stays shifted and turned. That is global motion, not a change on the table, so before
comparing two thumbnails the gate estimates it and takes it out: a translation by phase
correlation of the whole thumbnail, refined into a shift and a small turn by least squares on
the pixels that agree (so a hand in view does not drag the estimate).

A frame is let through to the scan when:

- nothing has moved for ``still_seconds``, judged against the frame that opened the still
  spell (an *anchor*), so that a hand creeping a little per frame is still motion;
- the picture differs from the last still *reference* (the last position let through, or the
  last still scene that showed nothing new): a reach that places nothing, or a light that
  drifts, costs no scan;
- the difference holds no arm: a large blob of change crossing the frame edge away from the
  tiles. An arm resting at the edge is never taken for a still table, however long it rests
  (up to ``ARM_PATIENCE``, a last resort so that a box left at the edge of the picture does
  not stop the game for good; :meth:`StableGate.reset` lets the next still scene through at
  once). A move laid out to the frame edge looks the same to the gate, so once per still
  spell it lets the picture through as :attr:`StableGate.doubted`, and the caller, who can
  read tiles, says with :meth:`StableGate.resolve` whether tiles explain the change.

Halfway through a still spell that already shows such a change, with no arm in it, the gate
offers the picture to be read ahead of its verdict (:meth:`StableGate.ripe`): a late board's
read takes about as long as the rest of the spell, and the verdict on that spell takes it.

While it watches, the gate records for each thumbnail pixel when it last started to differ
from the reference (and has differed since): the order in which a position's tiles appeared,
which :func:`vision.decode.split_moves` uses when two moves came between still pictures. What
changed before the reference is kept too (a tile the scan missed at the last still position
comes with the next move, and was there first). It also notes when the change was not seen
happening (a gap in the frames, or a position that changed from one frame to the next with no
reach before it): the moves read from such a position are flagged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import cv2
import numpy as np

T = TypeVar("T")

THUMB_WIDTH = 160
MAX_THUMB_ROWS = 4 * THUMB_WIDTH
"""A frame more than four times as tall as it is wide (no camera's; a picture a few pixels
wide read as a video) is squeezed to this: scaled to the thumbnail's width alone it made
hundreds of thousands of rows and gigabytes. Its motion is then measured in squeezed pixels,
which matters to nobody: no table fits in such a frame."""
LIGHT_SCALE = 8.0
"""Thumbnail pixels over which light is taken to vary smoothly (a tile is about 5)."""

MARGIN = 6
"""Thumbnail pixels at each border left out of comparisons: a moved camera brings new
picture in there (a 14-px knock on a 960-px frame is 2.3 thumbnail pixels, its turn 2 more)."""

DIFF_LEVEL = 0.12
"""A thumbnail pixel has changed when its local log contrast moved this much (~12 %)..."""

COLOUR_LEVEL = 0.1
"""... or one of its log colour ratios this much, beyond the picture's overall shift."""

MOTION_FRACTION = 0.002
"""Against the anchor, this share of changed pixels means something is moving..."""

JOLT = 3.0
"""... but it restarts the still spell only in two frames running, or when one frame changes
this many times as much: exposure flicker on a partly clipped table speckles single frames
just past the share, and restarting on each held a still position's report back 1.3 s
(game 101 of the hardest setting); a hand in view changes ten times the share, frame after
frame. A stirred frame is never taken as still either way."""

CHANGE_FRACTION = 0.001
"""Against the reference, this share of changed pixels is worth a scan (one tile ~ 0.2 %)."""

TILE_CHANGE = 0.1
"""A tenth of a cell's area changed is worth a scan too, when tiles are small in the picture.
A camera framing a whole final board shows an early move's tiles 26 px wide in a 960-px
frame; after the thumbnail's blur two of them change only 0.026 % of it. Otherwise that change
is taken for drift and the move is never scanned. At rest the change measures 0."""

COLOUR_CELLS = 0.5
"""A change in colour as large as this share of a cell is worth a scan (see ``TILE_CHANGE``)."""

SMALLEST_CELL = 1 / 48
"""The cell side (share of the frame width) assumed until the tracker has measured one."""

HAND_FRACTION = 0.005
"""A changed blob this large (share of the frame) reaching the frame edge is an arm: a hand
resting at the edge shows only a wrist's width of arm, about 1 % of the thumbnail."""

EDGE_BAND = 4
"""Thumbnail pixels (inside ``MARGIN``) within which a blob reaches the frame edge: a flat
arm crossing the edge differs little from its own mirror image, which the light removal
blurs in, so its change fades out before the edge."""

BRIDGE = 2
"""Thumbnail pixels of gap bridged between pieces of one changed blob: an arm lying on a
plain table of about its own colour changes only along its outline and the hand's shaded
side, in pieces a few pixels apart (a strip from the edge, and the hand, 3 px apart)."""

GLOBAL_FRACTION = 0.3
"""Beyond this share of changed pixels the view changed wholesale: blobs mean nothing."""

TURNS = tuple(np.radians(np.arange(-6.0, 6.1, 1.5)))
"""Turns tried before calling a still difference an arm: a knock turns a camera a few degrees,
further than the fitted motion reaches from no turn at all."""

ARM_DEPTH = 12
"""Thumbnail pixels (inside ``MARGIN``; 100 px of a 960-px frame) an arm reaches in at least."""

ARM_PATIENCE = 60.0
"""Seconds an 'arm' may lie still before the gate lets the scan decide after all.

Twice the 30 s a player may rest an arm at the table's edge; only something left lying at
the edge of the picture (a box, a cup) stays that long, and it must not stop the game."""

AHEAD_SHARE = 0.5
"""Share of ``still_seconds`` a still spell lasts before its picture may be read ahead of the
gate's verdict (:meth:`StableGate.ripe`): three frames at 10 fps, long enough that a hand
lifting away has gone, and the read (half a second on a late board on a 2-core laptop)
overlaps the rest of the spell instead of following it."""

STILL_FRAMES = 10
"""At most this many frames of a still spell are averaged before comparing with the reference."""

SINCE_GAP = 0.5
"""Seconds a pixel must agree with the reference again before its change counts as over."""

KNOCK_TURN = np.radians(0.5)
"""A camera turned further than this was knocked: the turn is tried again in later frames."""

OUTAGE_SECONDS = 1.0
"""A gap between frames this long means the camera was away: what changed was not seen."""

MIN_RESPONSE = 0.05
"""Phase correlation peaks weaker than this (a plain table) say nothing."""

REFINE_AGREE = (0.6, 0.3, 0.15)
"""Each refining step of the camera motion uses the pixels that differ less than this."""

SLACK_PX = 0.3
"""Thumbnail pixels the fitted camera motion may be off by, on an edge (``changed_mask``)."""

SATURATED = 235.0
"""A thumbnail pixel this bright in any channel (of 255) is clipped, or nearly: its colour
ratios change with the exposure (a red table under a lamp loses red as the camera's gain
flickers up), so they are not compared there..."""

DARK = 40.0
"""... nor where a channel is this dark: the ratio's offset (and the noise) outweighs so
little light, and the ratio moves with the exposure (blue on a warm-lit wooden table). A
video's compression errs by a few levels in colour where the picture is dark, which is a
large share of so little light: at 24 (of 255), the blue of a dark wooden table's shaded
corner (25 to 33 between frames, 10 % of flicker) speckled frame after frame past the motion
share, each restarting the still spell, and game 111 of the hardest footage reported ten
moves more than a second after still (at most 1.96 s); at 40, none (0.91 s at most)."""


def _thumb_rows(height: int, width: int) -> int:
    """Rows of the thumbnail of a frame of ``height`` x ``width`` pixels."""
    return min(max(1, round(height * THUMB_WIDTH / width)), MAX_THUMB_ROWS)


def thumbnail(image: np.ndarray) -> np.ndarray:
    """Small and blurred, with light removed: local log contrast, and two log colour ratios.

    A light that changes slowly across the table multiplies the picture locally; in log
    space that is an offset, which subtracting the local mean removes. The contrast alone
    misses an arm over a plain table (flat on flat, only its outline shows), so the colour
    ratios (red to green, blue to green: a gain cancels out of them) are kept beside it.
    Channels: (contrast, red/green, blue/green, 1 where the ratios mean something: no
    channel clipped nor nearly black, ``SATURATED`` and ``DARK``; else 0).
    """
    h, w = image.shape[:2]
    small = cv2.resize(image, (THUMB_WIDTH, _thumb_rows(h, w)), interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    blurred = cv2.GaussianBlur(small.astype(np.float32), (5, 5), 0)
    log = np.log(cv2.cvtColor(blurred, cv2.COLOR_BGR2GRAY) + 8.0)
    colours = np.log(blurred + 8.0)
    # the brightest and darkest channel plane by plane: numpy's max over the last axis of
    # three walks it pixel by pixel: a millisecond of a frame's 8 on the 2-core laptop
    blue, green, red = cv2.split(blurred)
    brightest = cv2.max(cv2.max(blue, green), red)
    darkest = cv2.min(cv2.min(blue, green), red)
    return np.dstack([log - cv2.GaussianBlur(log, (0, 0), LIGHT_SCALE),
                      colours[..., 2] - colours[..., 1], colours[..., 0] - colours[..., 1],
                      ((brightest < SATURATED) & (darkest > DARK)).astype(np.float32)])


@dataclass(frozen=True)
class Motion:
    """Camera motion from one thumbnail to another: turn by ``angle`` (radians) about the
    thumbnail's centre, then shift by (dx, dy) thumbnail pixels."""

    dx: float = 0.0
    dy: float = 0.0
    angle: float = 0.0

    def matrix(self, shape: tuple[int, int]) -> np.ndarray:
        """The 2 x 3 affine map from the first thumbnail's pixels to the second's."""
        h, w = shape
        cx, cy = (w - 1) / 2, (h - 1) / 2
        c, s = np.cos(self.angle), np.sin(self.angle)
        return np.array([[c, -s, cx - c * cx + s * cy + self.dx],
                         [s, c, cy - s * cx - c * cy + self.dy]], np.float32)


def _window(shape: tuple[int, int], cache: dict = {}) -> np.ndarray:  # noqa: B006  # a cache
    if shape not in cache:
        cache[shape] = cv2.createHanningWindow(shape[::-1], cv2.CV_32F)
    return cache[shape]


def _shift(before: np.ndarray, now: np.ndarray) -> tuple[float, float, float]:
    """Translation from ``before`` to ``now`` by phase correlation, and the peak's strength."""
    # copies: OpenCV's phaseCorrelate windows its float32 inputs in place
    (dx, dy), response = cv2.phaseCorrelate(before.copy(), now.copy(), _window(before.shape))
    return dx, dy, response


def camera_motion(before: np.ndarray, now: np.ndarray, turns: tuple[float, ...] = (0.0,)
                  ) -> Motion:
    """Shift and small turn of the camera between two thumbnails, robust to a hand in view.

    Phase correlation gives the shift to the nearest pixel or so (after each of ``turns``,
    radians, keeping the turn that correlates best); a few Gauss-Newton steps on the
    brightness difference then fit the shift to a tenth of a pixel and the turn. Each step
    uses only pixels that already nearly agree, so a hand or a new tile (which differ a lot)
    has no say in where the camera went.
    """
    jacobian = _jacobian(before)
    before, now = before[..., 0], np.ascontiguousarray(now[..., 0])
    motion = max((_turned_shift(before, now, turn) for turn in turns), key=lambda m: m[1])[0]
    h, w = before.shape
    m = MARGIN
    for agree in REFINE_AGREE:
        back = cv2.warpAffine(now, motion.matrix((h, w)), (w, h),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
        residual = (back - before)[m:-m, m:-m].reshape(-1)
        keep = (np.abs(residual) < agree).astype(np.float32)
        if keep.sum() < 100:
            break
        weighted = jacobian * keep
        step = np.linalg.solve(weighted @ jacobian.T + 1e-6 * np.eye(3), -weighted @ residual)
        motion = Motion(motion.dx + float(step[0]), motion.dy + float(step[1]),
                        motion.angle + float(step[2]))
    return motion


def _kept(thumb: np.ndarray, make: Callable[[np.ndarray], T], cache: dict) -> T:
    """``make(thumb)``, kept for the last few thumbnails: the reference and the anchor are
    compared with frame after frame, and what depends on them alone is made once."""
    key = id(thumb)
    if key in cache and cache[key][0] is thumb:
        return cache[key][1]
    value = make(thumb)
    if len(cache) >= 4:
        cache.pop(next(iter(cache)))
    cache[key] = (thumb, value)
    return value


def _jacobian(before: np.ndarray, cache: dict = {}) -> np.ndarray:  # noqa: B006  # a cache
    """How each compared pixel of ``before`` changes with a shift in x, in y, and a turn."""
    return _kept(before, _make_jacobian, cache)


def _make_jacobian(before: np.ndarray) -> np.ndarray:
    h, w = before.shape[:2]
    m = MARGIN
    gy, gx = np.gradient(before[..., 0])
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    ys -= (h - 1) / 2
    xs -= (w - 1) / 2
    return np.ascontiguousarray(
        np.stack([gx, gy, gy * xs - gx * ys])[:, m:-m, m:-m].reshape(3, -1), np.float32)


def _turned_shift(before: np.ndarray, now: np.ndarray, turn: float) -> tuple[Motion, float]:
    """The camera motion with turn ``turn`` whose shift correlates best, and how well."""
    if turn:
        h, w = before.shape
        now = cv2.warpAffine(now, Motion(angle=turn).matrix((h, w)), (w, h),
                             flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                             borderMode=cv2.BORDER_REPLICATE)
    dx, dy, response = _shift(before, now)
    if response < MIN_RESPONSE or max(abs(dx), abs(dy)) > THUMB_WIDTH / 8:
        return Motion(angle=turn), 0.0
    c, s = np.cos(turn), np.sin(turn)  # the shift found is in the turned picture's axes
    return Motion(c * dx - s * dy, s * dx + c * dy, turn), response


def changed_masks(reference: np.ndarray, now: np.ndarray, motion: Motion
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Pixels of ``now`` that differ from ``reference`` once the camera motion is taken out:
    in the contrast alone, and in the contrast or the colour ratios.

    In the reference's pixels, ``MARGIN`` cut off each border (where the moved camera brings
    in picture the reference never had). On an edge a camera motion fitted a little off
    leaves a difference of its error times the edge's steepness, so the level rises there by
    ``SLACK_PX`` times the steepness, where both pictures have an edge: a tile laid on a flat
    cell, or taken off one, changes it at full sensitivity.
    """
    back, diff, meaningful = _difference(reference, now, motion)
    steep = _edges(reference)
    contrast, red, blue = (np.abs(diff[..., c]) > level + SLACK_PX * np.minimum(
        steep[c], _steepness(back[..., c]))
        for c, level in enumerate((DIFF_LEVEL, COLOUR_LEVEL, COLOUR_LEVEL)))
    return contrast, contrast | (meaningful & (red | blue))


def changed_mask(reference: np.ndarray, now: np.ndarray, motion: Motion) -> np.ndarray:
    """Pixels of ``now`` that differ from ``reference`` in contrast or colour (see
    :func:`changed_masks`)."""
    return changed_masks(reference, now, motion)[1]


def _difference(reference: np.ndarray, now: np.ndarray, motion: Motion
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``now`` moved onto the reference, ``MARGIN`` cut off, the difference of their
    first three channels, the colour ratios' overall shift taken out, and where the ratios
    mean something in both pictures.

    The overall shift is measured where the ratios mean something: on a table clipped in
    most of the picture an exposure flicker moves the clipped pixels' ratios (red stays at
    255, green rises), and their shift, taken out of the pixels that did not move, made a
    lamp's bright pool or a whole table look changed."""
    h, w = reference.shape[:2]
    back = cv2.warpAffine(now, motion.matrix((h, w)), (w, h),
                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
    m = MARGIN
    ref, back = reference[m:-m, m:-m], back[m:-m, m:-m]
    diff = back[..., :3] - ref[..., :3]
    meaningful = np.minimum(ref[..., 3], back[..., 3]) > 0.5
    # a lamp's colour, or a white balance that follows it, shifts the ratios everywhere alike
    if meaningful.any():
        diff[..., 1:] -= np.median(diff[..., 1:][meaningful], axis=0)
    return back, diff, meaningful


def _edges(reference: np.ndarray, cache: dict = {}) -> list[np.ndarray]:  # noqa: B006  # a cache
    """:func:`_steepness` of a reference's first three channels, ``MARGIN`` cut off."""
    m = MARGIN
    return _kept(reference, lambda thumb: [_steepness(thumb[m:-m, m:-m, c]) for c in range(3)],
                 cache)


def _steepness(thumb: np.ndarray) -> np.ndarray:
    """How fast the thumbnail changes per pixel, in any direction (a gradient's size bound)."""
    gy, gx = np.gradient(thumb)
    return np.abs(gx) + np.abs(gy)


@dataclass(frozen=True)
class Footprint:
    """Where tiles lie or may be laid next: discs of ``radius`` round the tiles' centres.

    Centres and radius are shares of the frame's width on both axes, so that times
    ``THUMB_WIDTH`` they are thumbnail pixels whatever the frame's size. Discs, not the
    tiles' bounding box: a board that meets the frame edge in one place must not hide an
    arm that crosses the same edge beside it.
    """

    centres: tuple[tuple[float, float], ...]
    radius: float

    def near(self, shape: tuple[int, int], pad: int) -> np.ndarray:
        """Which pixels of a thumbnail of ``shape`` lie within the discs, widened by ``pad``."""
        inside = np.zeros(shape, np.uint8)
        r = round(self.radius * THUMB_WIDTH) + pad
        for x, y in self.centres:
            cv2.circle(inside, (round(x * THUMB_WIDTH), round(y * THUMB_WIDTH)), r, 1, -1)
        return inside.astype(bool)


def arm_over(mask: np.ndarray, footprint: Footprint | None) -> bool:
    """Whether the changed pixels hold an arm: a big blob (its pieces up to ``BRIDGE`` apart)
    crossing the frame edge and reaching ``ARM_DEPTH`` into the picture (a strip along the
    edge is the camera's border moving).

    ``footprint`` is where the tiles lie. An arm crosses the frame edge away from them (by
    more than ``EDGE_BAND``: a tile laid at the rim, shadow and all, may reach the band);
    tiles nudged all over a board that fills the picture make a big blob too, but one that
    meets the edge only where tiles are. None means no tiles yet: any big blob from the edge
    is an arm.
    """
    return bool(_arms(mask, footprint)[1])


def _arms(mask: np.ndarray, footprint: Footprint | None) -> tuple[np.ndarray, list[int]]:
    """The changed pixels' blobs (pieces up to ``BRIDGE`` apart joined) as a label map, and
    the labels of the arms among them (see :func:`arm_over`)."""
    side = 2 * BRIDGE + 1
    blobs = cv2.dilate(mask.astype(np.uint8), np.ones((side, side), np.uint8))
    count, labels = cv2.connectedComponents(blobs)
    area = np.bincount(labels[mask], minlength=count)  # changed pixels, not the bridging
    big = [i for i in range(1, count) if area[i] >= HAND_FRACTION * mask.size]
    if not big:
        return labels, []
    h, w = mask.shape
    edge = np.ones((h, w), bool)
    edge[EDGE_BAND:-EDGE_BAND, EDGE_BAND:-EDGE_BAND] = False
    if footprint is not None:  # the mask has ``MARGIN`` cut off the thumbnail
        m = MARGIN
        edge &= ~footprint.near((h + 2 * m, w + 2 * m), EDGE_BAND + BRIDGE)[m:-m, m:-m]
    d = ARM_DEPTH
    reaching = set(np.unique(labels[d:-d, d:-d])) & set(np.unique(labels[edge]))
    return labels, [i for i in big if i in reaching]


@dataclass
class StableGate:
    """Feed it every frame; it answers True once per new still position worth scanning.

    After a True, :meth:`appeared_at` tells when the change at given pixels began, and
    ``unseen`` whether the change happened out of the camera's sight.
    """

    still_seconds: float = 0.4
    footprint: Footprint | None = None
    """Where the tiles lie (set by the tracker after each scan): an arm crosses the frame
    edge away from them."""
    cell: float = SMALLEST_CELL
    """Side of a tile's cell as a share of the frame width: sets the least change scanned."""
    unseen: bool = False
    """Whether the position last let through changed without the camera seeing it change."""
    _anchor: np.ndarray | None = None
    _last_t: float = 0.0
    _reference: np.ndarray | None = None
    _motion: Motion = field(default_factory=Motion)
    _since: np.ndarray | None = None
    _last: np.ndarray | None = None
    _earlier: np.ndarray | None = None
    """When each pixel took its last lasting change before the reference, in the reference's
    pixels (see :meth:`appeared_at`)."""
    _appeared: tuple[np.ndarray | None, np.ndarray | None, Motion] | None = None
    _moving_frames: int = 0
    _gap: bool = False
    _still_since: float = 0.0
    _done: bool = False
    _searched: bool = False
    _stirred: bool = False
    """Whether the last frame moved against the anchor (see ``JOLT``)."""
    _asked: bool = False
    """Whether this still spell's arm was put to the tracker (:meth:`resolve`)."""
    _ahead: bool = False
    """Whether this still spell was offered for a read ahead of the verdict (:meth:`ripe`)."""
    _doubt: tuple[np.ndarray, float, np.ndarray] | None = None
    """The doubted still picture, its time and its change mask, until resolved."""
    _still: list[np.ndarray] = field(default_factory=list)
    _former: np.ndarray | None = None
    """The reference before the last new position, in the reference's pixels (see
    :meth:`_not_undoing`)."""

    def update(self, image: np.ndarray, t: float) -> bool:
        thumb = thumbnail(image)
        if self._anchor is None or self._anchor.shape != thumb.shape:
            self.reset()
            self._anchor, self._last_t, self._still_since = thumb, t, t
            return False
        self._gap |= t - self._last_t >= OUTAGE_SECONDS
        self._last_t = t
        stirred = changed_mask(self._anchor, thumb, camera_motion(self._anchor, thumb)).mean()
        moving = stirred > MOTION_FRACTION
        restart = moving and (self._stirred or stirred > JOLT * MOTION_FRACTION)
        self._stirred = moving
        # A few pixels changing on a judged still scene are too little to call motion, but
        # enough to look again: the frames may have cut to faint new tiles (an outage).
        if restart or (stirred and self._done):
            self._anchor, self._still_since, self._done = thumb, t, False
            self._moving_frames, self._still = self._moving_frames + 1, []
            self._searched = self._asked = self._ahead = False
        if self._reference is not None and not self._done:
            self._watch(thumb, t)  # a still scene already judged needs no watching
        if moving or self._done:
            return False
        self._still.append(thumb)
        settled = t - self._still_since
        if settled < self.still_seconds:
            return False
        # the still spell's mean: a fifth of the noise and flicker of one frame, for the
        # faint change of two small tiles on a dim table
        thumb = np.mean(self._still[-STILL_FRAMES:], axis=0)
        if self._reference is not None:
            self._motion = camera_motion(self._reference, thumb, self._turns())
            changed, mask = self._change(thumb, self._motion)
            if changed is None:
                self._rebase(thumb, t)  # follows slow light drift and a knocked camera
                self._done = True
                return False
            arm = (changed < GLOBAL_FRACTION and settled < ARM_PATIENCE
                   and arm_over(mask, self.footprint))
            if arm:
                mask = self._not_undoing(mask, thumb)
                arm = arm_over(mask, self.footprint)
            if arm:
                if not self._searched:
                    self._searched = True  # once per still spell: perhaps the camera turned
                    self._motion = camera_motion(self._reference, thumb, TURNS)  # further
                    return False
                if self._asked:
                    return False
                # once per still spell: a move laid out to the frame edge looks the same, and
                # it would wait for good (the next move's arm restarts the spell)
                self._asked, self._doubt = True, (thumb, t, mask)
                return True
        self._let_through(thumb, t)
        return True

    def _change(self, thumb: np.ndarray, motion: Motion
                ) -> tuple[float | None, np.ndarray]:
        """How much of ``thumb`` differs from the reference in contrast (None: too little to
        be worth a scan), and where it differs in contrast or colour."""
        assert self._reference is not None, "change is measured from a still reference"
        contrast, mask = changed_masks(self._reference, thumb, motion)
        # worth a scan by the contrast: colour makes a speck far smaller than the cells
        # look bigger than a tile; or by colour over ``COLOUR_CELLS`` of a cell (small
        # tiles whose grey is the table's show only in colour)
        changed = float(contrast.mean())
        h, w = thumb.shape[:2]
        cell_area = self.cell ** 2 * w / h  # share of the thumbnail
        if (changed < min(CHANGE_FRACTION, TILE_CHANGE * cell_area)
                and mask.mean() < max(CHANGE_FRACTION, COLOUR_CELLS * cell_area)):
            return None, mask
        return changed, mask

    def ripe(self, t: float) -> bool:
        """Whether the still spell under way, ``AHEAD_SHARE`` of ``still_seconds`` old at
        ``t``, already shows a change worth a scan with no arm in it: a picture the caller
        may read ahead of the gate's verdict (once per spell; :attr:`spell` tells the spells
        apart). A read takes about as long as the rest of the spell, so a move whose spell
        the gate then lets through is reported half a spell sooner.

        The verdict stays the gate's: it still waits the whole ``still_seconds``, and a spell
        that stirs before then starts anew (the picture read ahead is then not the still
        one)."""
        if (self._done or self._stirred or self._ahead or not self._still
                or t - self._still_since < AHEAD_SHARE * self.still_seconds):
            return False
        self._ahead = True
        if self._reference is None:
            return True
        thumb = np.mean(self._still[-STILL_FRAMES:], axis=0)
        changed, mask = self._change(thumb, camera_motion(self._reference, thumb,
                                                          self._turns()))
        return changed is not None and not (changed < GLOBAL_FRACTION
                                            and arm_over(mask, self.footprint))

    @property
    def spell(self) -> float:
        """When the still spell under way began (the frame time that opened it)."""
        return self._still_since

    @property
    def still(self) -> bool:
        """Whether nothing stirred since the last still scene was judged: a frame now shows
        that position again (a second picture of it, with its own noise)."""
        return self._done

    @property
    def doubted(self) -> bool:
        """Whether the position last let through may hold an arm: big change crossing the
        frame edge away from the tiles. :meth:`resolve` must answer before the next frame."""
        return self._doubt is not None

    def resolve(self, footprint: Footprint | None) -> bool:
        """Settle a :attr:`doubted` position with where the tiles it shows lie (None: the scan
        could not tell, or it hides known tiles). When they explain the change at the edge it
        was a move laid out to the edge: the position is taken as still, and True returned.
        Otherwise it was an arm, and the gate waits for it to leave."""
        assert self._doubt is not None, "resolve only a doubted position"
        thumb, t, mask = self._doubt
        self._doubt = None
        if footprint is None or arm_over(mask, footprint):
            return False
        self._let_through(thumb, t)
        return True

    def _let_through(self, thumb: np.ndarray, t: float) -> None:
        """Take ``thumb``, seen still at ``t``, as the new still position."""
        self.unseen = self._gap or (self._reference is not None and self._moving_frames <= 2)
        self._appeared = (self._lasting(t), self._earlier, self._motion)
        self._rebase(thumb, t, new_position=True)
        self._done = True

    def _not_undoing(self, mask: np.ndarray, thumb: np.ndarray) -> np.ndarray:
        """``mask`` less where ``thumb`` shows again what the picture before the last position
        let through showed (:attr:`_former`).

        An arm resting at the edge can pass for still for a moment (its reach into the
        picture on the edge of ``ARM_DEPTH``), and then the reference holds it. Once it has
        left, its outline is a change crossing the edge against the reference, still spell
        after still spell: the gate waited for that "arm" to leave, and every later move was
        lost (game 119 of the hardest footage, 41 of 48 moves). Against the picture before,
        an arm really there changes the edge too; an arm gone does not.
        """
        if self._former is None:
            return mask
        return mask & changed_mask(self._former, thumb, self._motion)

    def _watch(self, thumb: np.ndarray, t: float) -> None:
        """Track the camera against the reference and when each pixel started to differ.

        A pixel that differs in one frame and not the next (noise on a faint tile) keeps its
        start; only one that agrees with the reference again for ``SINCE_GAP`` starts anew.
        """
        assert self._reference is not None, "watched only once a still picture is kept"
        self._motion = camera_motion(self._reference, thumb, self._turns())
        mask = changed_mask(self._reference, thumb, self._motion)
        since, last = self._since, self._last
        if since is None or last is None:
            since, last = np.full(mask.shape, np.inf), np.full(mask.shape, -np.inf)
        since[mask] = np.minimum(since[mask], t)
        last[mask] = t
        since[t - last > SINCE_GAP] = np.inf
        self._since, self._last = since, last

    def _turns(self) -> tuple[float, ...]:
        """Turns to try for the camera: none, and the last one found if it was a knock's."""
        angle = self._motion.angle
        return (0.0,) if abs(angle) < KNOCK_TURN else (0.0, angle)

    def _lasting(self, t: float) -> np.ndarray | None:
        """When each pixel began to differ from the reference, where it still differs at
        ``t`` (inf elsewhere); None before any watching."""
        since, last = self._since, self._last
        if since is None or last is None:
            return None
        return np.where(t - last <= SINCE_GAP, since, np.inf)

    def _rebase(self, thumb: np.ndarray, t: float, new_position: bool = False) -> None:
        """Make ``thumb`` the still reference: later change is measured from it. What changed
        for good since the old one joins the earlier changes, moved into ``thumb``'s pixels,
        and so does the picture before the last new position (``new_position``: ``thumb`` is
        one; else it is the same position, the light or the camera drifted)."""
        lasting, earlier = self._lasting(t), self._earlier
        if lasting is not None and earlier is not None:
            lasting = np.where(np.isfinite(lasting), lasting, earlier)
        kept = earlier if lasting is None else lasting
        former = self._reference if new_position else self._former
        if self._reference is not None:
            shape = self._reference.shape[:2]
            if kept is not None:
                kept = _moved(kept, self._motion, shape)
            if former is not None:
                former = cv2.warpAffine(former, self._motion.matrix(shape), shape[::-1],
                                        flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        self._reference, self._motion, self._since, self._earlier = thumb, Motion(), None, kept
        self._former = former
        self._moving_frames, self._gap = 0, False

    def appeared_at(self, points: np.ndarray, shape: tuple[int, ...]) -> list[float | None]:
        """When the picture began to change (and stayed changed) at each pixel of ``points``.

        ``points`` are (x, y) pixels of the frame last let through, of size ``shape``. Where
        nothing changed since the reference, the last lasting change before it: a tile the
        scan missed at an earlier still position (or that the gate took for drift) comes with
        a later move, and it was there before everything that appeared since, as its time
        says. None where the gate has no record: the first position, a photo, or no change
        seen there. The median over the cell's middle counts: one pixel may have changed
        early by chance (a flicker on an edge that then stayed), or late (a tile's middle
        that looks like the table it covers).
        """
        if self._appeared is None:
            return [None] * len(points)
        since, earlier, motion = self._appeared
        r = self._middle()
        return [next((time for times in (since, earlier) if times is not None
                      and (time := _median_near(times, row, col, r)) is not None), None)
                for row, col in _in_reference(points, shape, motion)]

    def under_arm(self, points: np.ndarray, shape: tuple[int, ...]) -> list[bool]:
        """Whether each pixel of ``points`` (of a frame of ``shape``) lies, within a cell's
        middle, in a blob of the :attr:`doubted` position's change that could be an arm:
        big, crossing the frame edge, reaching in (tiles laid there count too).

        A known tile the scan missed there may lie under the arm; one missed elsewhere (in
        the noise specks of a flickering picture, or in the change of tiles that wobble
        left on big tiles away from the edge) was only missed. On a big board the scan
        misses a tile or two in many pictures, and taking that for an arm held back every
        later move laid out to the picture's edge (game 119 of `python -m
        vision.evaluate.replay --styles hardest`: its last three moves).
        """
        assert self._doubt is not None, "only a doubted position has a change to look at"
        labels, arms = _arms(self._doubt[2], None)
        arm = np.isin(labels, arms)
        r = self._middle()
        return [bool(arm[max(row - r, 0):row + r + 1, max(col - r, 0):col + r + 1].any())
                for row, col in _in_reference(points, shape, self._motion)]

    def _middle(self) -> int:
        """Thumbnail pixels round a cell's centre that make its middle (a third of a cell)."""
        return max(1, round(self.cell * THUMB_WIDTH / 3))

    def reset(self) -> None:
        """Forget the last position: the next still scene is scanned whatever it shows."""
        self._anchor = self._reference = self._since = self._appeared = self._earlier = None
        self._former = None
        self._motion, self._moving_frames, self._gap = Motion(), 0, False
        self.unseen = self._done = self._asked = self._stirred = self._ahead = False
        self._doubt = None


def _in_reference(points: np.ndarray, shape: tuple[int, ...], motion: Motion
                  ) -> list[tuple[int, int]]:
    """(row, col) in a reference's pixels (``MARGIN`` cut off) of each (x, y) pixel of a
    frame of ``shape`` that the camera's ``motion`` took the reference to."""
    h, w = shape[:2]
    scale = THUMB_WIDTH / w
    matrix = cv2.invertAffineTransform(motion.matrix((_thumb_rows(h, w), THUMB_WIDTH)))
    found = []
    for x, y in np.asarray(points, float).reshape(-1, 2):
        u, v = matrix @ np.array([x * scale, y * scale, 1.0])
        found.append((round(v) - MARGIN, round(u) - MARGIN))
    return found


def _median_near(times: np.ndarray, row: int, col: int, r: int) -> float | None:
    """The median of the finite ``times`` within ``r`` pixels of (row, col); None if none."""
    patch = times[max(row - r, 0):row + r + 1, max(col - r, 0):col + r + 1]
    finite = patch[np.isfinite(patch)]
    return float(np.median(finite)) if finite.size else None


def _moved(times: np.ndarray, motion: Motion, shape: tuple[int, int]) -> np.ndarray:
    """A map of times in a reference's pixels (``MARGIN`` cut off a thumbnail of ``shape``)
    moved by the camera's ``motion`` into the next reference's; inf where it has none."""
    h, w = shape
    m = MARGIN
    full = np.full((h, w), np.inf)
    full[m:-m, m:-m] = times
    moved = cv2.warpAffine(full, motion.matrix((h, w)), (w, h), flags=cv2.INTER_NEAREST,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=np.inf)
    return moved[m:-m, m:-m]
