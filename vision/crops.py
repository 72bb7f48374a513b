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

import cv2
import numpy as np

from vision.lattice import cell_side

CROP = 64
"""Side of a tile crop in pixels."""

HALF = 0.6
"""Half the crop's side in lattice units."""


def extract_crops(image: np.ndarray, homography: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """Crops (N, CROP, CROP, 3) uint8 of the cells centred at ``cells`` (N, 2; may be fractional).

    ``homography`` maps cell coordinates to ``image`` pixels. Fractional centres let a caller
    centre each crop on where the tile really lies (a nudged tile, a shifted board piece).
    When a cell spans many more pixels than the crop (a phone photo), the image is first
    shrunk with area averaging so the crop does not alias.
    """
    centres = np.asarray(cells, dtype=np.float64).reshape(-1, 2)
    out = np.zeros((len(centres), CROP, CROP, 3), np.uint8)
    if not len(centres):
        return out
    source, homography = _shrunk(image, homography, centres)
    step = 2 * HALF / CROP
    for i, (x, y) in enumerate(centres):
        crop_to_cell = np.array([[step, 0.0, x - HALF + 0.5 * step],
                                 [0.0, step, y - HALF + 0.5 * step],
                                 [0.0, 0.0, 1.0]])
        to_source = homography @ crop_to_cell
        out[i] = cv2.warpPerspective(source, to_source, (CROP, CROP),
                                     flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REPLICATE)
        inside = _inside(to_source, source.shape[:2], _CORNERS)
        if not inside.all():
            out[i] = _mirrored(out[i], _inside(to_source, source.shape[:2], _PIXELS))
    return out


_CORNERS = np.array([[0.0, 0.0], [CROP - 1, 0.0], [0.0, CROP - 1], [CROP - 1, CROP - 1]])
_PIXELS = np.stack(np.meshgrid(np.arange(CROP, dtype=np.float64),
                               np.arange(CROP, dtype=np.float64)), axis=-1).reshape(-1, 2)


def _inside(to_source: np.ndarray, shape: tuple[int, ...], points: np.ndarray) -> np.ndarray:
    """Which crop ``points`` (x, y) sample from inside a picture of ``shape`` (h, w)."""
    src = cv2.perspectiveTransform(points.reshape(-1, 1, 2), to_source).reshape(-1, 2)
    return ((src >= 0) & (src <= np.array(shape[1::-1]) - 1)).all(axis=1)


def _mirrored(crop: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """``crop`` with its pixels from beyond the picture's edge replaced by their mirror images
    across the crop's vertical axis, its horizontal one, or both (the first from inside)."""
    known = inside.reshape(CROP, CROP)
    crop = crop.copy()
    for flip in ((1,), (0,), (0, 1)):
        fill = ~known & np.flip(known, flip)
        crop[fill] = np.flip(crop, flip)[fill]
        known = known | fill
    return crop


def _shrunk(image: np.ndarray, homography: np.ndarray,
            centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The image scaled so a crop samples at most ~2 source pixels per crop pixel."""
    factor = 2.0 * CROP / (2 * HALF * cell_side(homography, centres))
    if factor >= 1.0:
        return image, homography
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return small, np.diag([factor, factor, 1.0]) @ homography
