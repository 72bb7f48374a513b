"""Tile crops: each tile's cell square, warped square to the lattice, at a fixed size.

The contract the classifier is trained on: the square [x-0.6, x+0.6] x
[y-0.6, y+0.6] in lattice units round the tile's centre, warped through the lattice
homography to ``CROP`` x ``CROP`` BGR pixels with the lattice axes along the image axes. The
margin of 0.1 cell each side keeps a nudged or slightly rotated tile whole.

A tile cut by the picture's edge is completed by symmetry: every symbol of the set is
symmetric about the tile's two axes, so what lies beyond the edge is mirrored in from the
other half of the crop (see :func:`_mirrored`).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.detect import halved, other_core
from vision.lattice import cell_side

CROP = 64
"""Side of a tile crop in pixels."""

HALF = 0.6
"""Half the crop's side in lattice units."""


def extract_crops(image: np.ndarray, homography: np.ndarray, cells: np.ndarray,
                  side: int = CROP) -> np.ndarray:
    """Crops (N, side, side, 3) uint8 of the cells centred at ``cells`` (N, 2; may be fractional).

    ``homography`` maps cell coordinates to ``image`` pixels. Fractional centres let a caller
    centre each crop on where the tile really lies (a nudged tile, a shifted board piece).
    When a cell spans many more pixels than the crop (a phone photo), the image is first
    halved, smoothing as it goes, so the crop does not alias. A smaller ``side`` than the
    classifier's ``CROP`` gives a cheap coarse look at the same square.
    """
    centres = np.asarray(cells, dtype=np.float64).reshape(-1, 2)
    if not len(centres):
        return np.zeros((0, side, side, 3), np.uint8)
    return cutter(image, homography, centres)(centres, side)


Cut = Callable[..., np.ndarray]
"""``cut(cells, side=CROP)``: crops of one picture through one lattice (:func:`cutter`)."""


def cutter(image: np.ndarray, homography: np.ndarray, cells: np.ndarray) -> Cut:
    """:func:`extract_crops` for a caller that cuts one picture many times (a scan cuts the
    tiles, the free cells beside them twice over, and tiles off the board).

    The picture is shrunk once, for the cells at ``cells``, rather than at every call.
    """
    source, to_source = _shrunk(image, homography,
                                np.asarray(cells, np.float64).reshape(-1, 2))

    def cut(centres: np.ndarray, side: int = CROP) -> np.ndarray:
        centres = np.asarray(centres, np.float64).reshape(-1, 2)
        offsets = (np.arange(side) + 0.5) * (2 * HALF / side) - HALF
        if len(centres) * side * side < TWO_CORES:
            return _chunked(source, to_source, centres, offsets)
        # a frame's tiles are cut half here and half on the other core: all numpy and OpenCV
        half = (len(centres) + 1) // 2
        other = other_core().submit(_chunked, source, to_source, centres[half:], offsets)
        return np.concatenate([_chunked(source, to_source, centres[:half], offsets),
                               other.result()])

    return cut


TWO_CORES = 16 * CROP * CROP
"""Fewest crop pixels a cut shares between two cores: sixteen tiles. A frame's tiles took 5-7
ms to cut from a phone photo on the 2-core machine, and take 3.4-4.1 ms so (oblique-2/13.jpg,
/19 and connect-2/17.jpg, 61-78 tiles, medians of 40 turn about, session 45). A few free
cells, or even 60 of the completion's coarse crops (``vision.scan.PROBE``, 24 px), are too
little to hand over: shared, those took 0.87 ms instead of 0.77, 16 of them 0.64 instead of
0.39."""

CHUNK = 256
"""Crops sampled by one remap call (its map stays well under OpenCV's 32,767 rows)."""


def _chunked(source: np.ndarray, homography: np.ndarray, centres: np.ndarray,
             offsets: np.ndarray) -> np.ndarray:
    """:func:`_sampled`, at most CHUNK crops a call."""
    side = len(offsets)
    crops = [np.zeros((0, side, side, 3), np.uint8)]
    for first in range(0, len(centres), CHUNK):
        crops.append(_sampled(source, homography, centres[first:first + CHUNK], offsets))
    return np.concatenate(crops)


def _sampled(source: np.ndarray, homography: np.ndarray, centres: np.ndarray,
             offsets: np.ndarray) -> np.ndarray:
    """The crops of ``centres`` from ``source``: every pixel of every crop in one remap.

    ``offsets`` are the cell-unit offsets of a crop's pixel centres from its centre, along
    either axis.
    """
    side = len(offsets)
    u = (centres[:, 0, None] + offsets[None, :]).astype(np.float32)[:, None, :]  # (N, 1, side)
    v = (centres[:, 1, None] + offsets[None, :]).astype(np.float32)[:, :, None]  # (N, side, 1)
    h = homography.astype(np.float32)
    # a point on the horizon of a lattice (one fitted to noise) lies nowhere in the picture:
    # it is put beyond the edge, whose pixels the crop shows there
    with np.errstate(divide="ignore", invalid="ignore"):
        w = 1.0 / (h[2, 0] * u + (h[2, 1] * v + h[2, 2]))
        mx = (h[0, 0] * u + (h[0, 1] * v + h[0, 2])) * w
        my = (h[1, 0] * u + (h[1, 1] * v + h[1, 2])) * w
    nowhere = ~(np.isfinite(mx) & np.isfinite(my))
    mx[nowhere] = my[nowhere] = -1.0
    crops = cv2.remap(source, mx.reshape(-1, side), my.reshape(-1, side), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE).reshape(len(centres), side, side, 3)
    height, width = source.shape[:2]
    inside = (mx >= 0) & (mx <= width - 1) & (my >= 0) & (my <= height - 1)
    for i in np.flatnonzero(~inside.all(axis=(1, 2))):
        crops[i] = _mirrored(crops[i], inside[i])
    return crops


def _mirrored(crop: np.ndarray, known: np.ndarray) -> np.ndarray:
    """``crop`` with its pixels from beyond the picture's edge (``known`` False) replaced by
    their mirror images across the crop's vertical axis, its horizontal one, or both (the
    first that lies inside)."""
    crop = crop.copy()
    for flip in ((1,), (0,), (0, 1)):
        fill = ~known & np.flip(known, flip)
        crop[fill] = np.flip(crop, flip)[fill]
        known = known | fill
    return crop


def _shrunk(image: np.ndarray, homography: np.ndarray,
            centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The image halved (:func:`vision.detect.halved`, which smooths as it halves) while a
    crop of the cells at ``centres`` would still sample at least one of its pixels per crop
    pixel: one to two, so it never aliases and never loses detail a crop can hold. For a
    4000-pixel phone photo an area resize to exactly two took 45-70 ms, halving about 10."""
    factor = 2.0 * CROP / (2 * HALF * cell_side(homography, centres))  # to exactly two
    while factor < 1.0:
        image, homography = halved(image), np.diag([0.5, 0.5, 1.0]) @ homography
        factor *= 2.0
    return image, homography
