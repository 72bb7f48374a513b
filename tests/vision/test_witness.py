"""The change witness tells a tile laid on an empty cell from a view that changed."""

from __future__ import annotations

import numpy as np

from vision.register import Registration
from vision.witness import _empty_beside, _unexplained_change

PITCH = 40.0
# board cells -> picture pixels: 40 px a cell, cell (0, 0) centred at (100, 100)
HOMOGRAPHY = np.array([[PITCH, 0, 100], [0, PITCH, 100], [0, 0, 1]], np.float64)
ROW = Registration(None, HOMOGRAPHY, seen={(x, 0): None for x in range(5)})  # type: ignore[arg-type]


def table(changed: list[tuple[int, int]], seed: int = 0) -> np.ndarray:
    """A plain grey table with a little noise, a patch of its own colour on each ``changed``
    cell (each differently: one colour everywhere would pass for a lamp)."""
    rng = np.random.default_rng(seed)
    image = rng.normal(150, 3, (400, 480, 3)).clip(0, 255)
    for x, y in changed:
        cx, cy = 100 + PITCH * x, 100 + PITCH * y
        image[int(cy - 12):int(cy + 12), int(cx - 12):int(cx + 12)] = rng.uniform(0, 255, 3)
    return image.astype(np.uint8)


def test_a_few_changed_cells_are_tiles_to_look_for_and_most_of_them_a_moved_view():
    empty = _empty_beside(ROW)
    assert len(empty) == 12  # above and below the row, and its two ends
    laid = _unexplained_change(ROW, table(empty[:2], seed=1), ROW, table([]))
    assert sorted(d.cell for d in laid) == sorted(empty[:2])
    # every empty cell looks different (a phone walked round a board seen from the side):
    # the picture says nothing of the table
    assert _unexplained_change(ROW, table(empty, seed=1), ROW, table([])) == []
