"""The stable-frame gate: decide, cheaply and per frame, when the table shows a new still position.

Scanning a frame costs about a hundred milliseconds; a camera delivers ten or more frames a
second, most of them either identical to the last position or full of moving hands. The gate
looks at a 160-px blurred grey thumbnail, normalised for global brightness and contrast so that
a cloud or a lamp does not count as change, and lets a frame through only when:

- nothing has moved for ``still_seconds``;
- the picture differs from the last position let through (a reach that places nothing, or a
  light that drifts, leaves the thumbnail as it was and costs no scan);
- the difference is not a large blob reaching in from the frame edge over the tiles: an arm
  resting on the table is not a move. If such a blob stays put for ``HAND_PATIENCE`` seconds it
  is let through anyway, since only the scan can tell a cup from an arm.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

THUMB_WIDTH = 160
LIGHT_SCALE = 8.0
"""Thumbnail pixels over which light is taken to vary smoothly (a tile is about 5)."""

DIFF_LEVEL = 0.12
"""A thumbnail pixel has changed when its local log contrast moved this much (~12 %)."""

MOTION_FRACTION = 0.002
"""Between consecutive frames, this share of changed pixels means something is moving."""

CHANGE_FRACTION = 0.001
"""Against the last position, this share of changed pixels is worth a scan (one tile ~ 0.2 %)."""

TILE_CHANGE = 0.1
"""A tenth of a cell's area changed is worth a scan too, when tiles are small in the picture.
A camera framing a whole final board shows an early move's tiles 26 px wide in a 960-px
frame; after the thumbnail's blur two of them change only 0.026 % of it. Otherwise that change
is taken for drift and the move is never scanned. At rest the change measures 0."""

SMALLEST_CELL = 1 / 48
"""The cell side (share of the frame width) assumed until the tracker has measured one."""

HAND_FRACTION = 0.015
"""A changed blob this large (share of the frame) touching the frame edge is an arm."""

GLOBAL_FRACTION = 0.3
"""Beyond this share of changed pixels the camera moved: blobs mean nothing, let the scan judge."""

HAND_PATIENCE = 1.5
"""Seconds an 'arm' may lie still before the gate gives up and lets the scan decide."""


def thumbnail(image: np.ndarray) -> np.ndarray:
    """Small, blurred, grey, with light removed: the local log contrast.

    A light that changes slowly across the table multiplies the picture locally; in log
    space that is an offset, which subtracting the local mean removes.
    """
    h, w = image.shape[:2]
    small = cv2.resize(image, (THUMB_WIDTH, max(1, round(h * THUMB_WIDTH / w))),
                       interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    log = np.log(cv2.GaussianBlur(grey.astype(np.float32), (5, 5), 0) + 8.0)
    return log - cv2.GaussianBlur(log, (0, 0), LIGHT_SCALE)


def changed_mask(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Pixels that differ, after undoing a small camera drift (translation) between the two."""
    (dx, dy), response = cv2.phaseCorrelate(before, now)
    if response > 0.2 and abs(dx) < THUMB_WIDTH / 8 and abs(dy) < THUMB_WIDTH / 8:
        shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
        before = cv2.warpAffine(before, shift, before.shape[::-1], borderMode=cv2.BORDER_REPLICATE)
    return np.abs(now - before) > DIFF_LEVEL


def arm_over(mask: np.ndarray, region: tuple[float, float, float, float] | None) -> bool:
    """Whether the changed pixels hold an arm: a big blob reaching from the frame edge.

    ``region`` (x0, y0, x1, y1, as fractions of the frame) is where the tiles lie. An arm
    crosses the frame edge outside it and reaches into it; tiles nudged all over a board that
    fills the picture make a big blob too, but one that meets the edge only where tiles are.
    None means no tiles yet: any big blob from the edge is an arm.
    """
    blobs = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(blobs)
    h, w = mask.shape
    ys, xs = np.mgrid[0:h, 0:w]
    edge = np.zeros((h, w), bool)
    edge[[0, -1], :] = edge[:, [0, -1]] = True
    if region is not None:
        rx0, ry0, rx1, ry1 = region
        inside = (xs >= rx0 * w) & (xs < rx1 * w) & (ys >= ry0 * h) & (ys < ry1 * h)
        edge &= ~inside
    for i in range(1, count):
        if stats[i, cv2.CC_STAT_AREA] < HAND_FRACTION * h * w:
            continue
        blob = labels == i
        if (blob & edge).any() and (region is None or (blob & inside).any()):
            return True
    return False


@dataclass
class StableGate:
    """Feed it every frame; it answers True once per new still position worth scanning."""

    still_seconds: float = 0.5
    region: tuple[float, float, float, float] | None = None
    cell: float = SMALLEST_CELL
    """Side of a tile's cell as a share of the frame width: sets the least change scanned."""
    _previous: np.ndarray | None = None
    _reference: np.ndarray | None = None
    _still_since: float = 0.0
    _done: bool = False

    def update(self, image: np.ndarray, t: float) -> bool:
        thumb = thumbnail(image)
        previous, self._previous = self._previous, thumb
        if previous is None or previous.shape != thumb.shape:
            self._still_since, self._done = t, False
            return False
        if (np.abs(thumb - previous) > DIFF_LEVEL).mean() > MOTION_FRACTION:
            self._still_since, self._done = t, False
            return False
        settled = t - self._still_since
        if self._done or settled < self.still_seconds:
            return False
        if self._reference is not None:
            mask = changed_mask(thumb, self._reference)
            changed = mask.mean()
            h, w = mask.shape
            if changed < min(CHANGE_FRACTION, TILE_CHANGE * self.cell ** 2 * w / h):
                self._reference, self._done = thumb, True  # follows slow light drift
                return False
            if (changed < GLOBAL_FRACTION and settled < HAND_PATIENCE
                    and arm_over(mask, self.region)):
                return False
        self._reference, self._done = thumb, True
        return True

    def reset(self) -> None:
        """Forget the last position: the next still scene is scanned whatever it shows."""
        self._previous = self._reference = None
        self._done = False
