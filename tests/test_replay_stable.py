"""The stable-frame gate on its own: which still positions it lets through to the scan."""

from __future__ import annotations

import numpy as np

from vision.stable import StableGate


def _table(tiles: int, seed: int = 0) -> np.ndarray:
    """A dim 960 x 720 table with ``tiles`` 26-px tiles in a row near the middle.

    As in a rendered game whose camera frames the final board: after the thumbnail's blur two
    more tiles change about 0.05 % of it, under the old fixed threshold of 0.1 %.
    """
    rng = np.random.default_rng(seed)
    image = np.empty((720, 960, 3), np.float32)
    image[:] = (50, 70, 130)
    image += rng.normal(0, 6, (720, 1, 1))  # grain along x
    for i in range(tiles):
        x = 470 + 27 * i
        image[347:373, x:x + 26] = (45, 45, 45)
        image[353:367, x + 6:x + 20] = (30, 110, 230)  # an orange square
    return np.clip(image, 0, 255).astype(np.uint8)


def _hand(image: np.ndarray) -> np.ndarray:
    """The table with an arm reaching in from the left edge towards the tiles."""
    arm = image.copy()
    arm[330:400, :450] = (110, 140, 200)
    return arm


def _fires(gate: StableGate, image: np.ndarray, start: float, seconds: float = 1.5) -> int:
    rng = np.random.default_rng(int(start * 10))
    count = 0
    for k in range(int(seconds * 10)):
        noisy = np.clip(image + rng.normal(0, 2.0, image.shape), 0, 255).astype(np.uint8)
        count += gate.update(noisy, start + k / 10)
    return count


def test_two_small_tiles_laid_on_a_quiet_table_are_a_new_position():
    gate = StableGate()
    assert _fires(gate, _table(1), 0.0) == 1  # the first still scene is always scanned
    assert _fires(gate, _table(1), 1.5) == 0  # nothing changed
    assert _fires(gate, _hand(_table(1)), 3.0, 0.3) == 0  # a hand lays two tiles ...
    assert _fires(gate, _table(3), 3.3) == 1  # ... two 26-px tiles more


def test_with_big_cells_the_same_change_is_taken_for_drift():
    gate = StableGate(cell=0.2)  # the tracker measured tiles 190 px wide
    assert _fires(gate, _table(1), 0.0) == 1
    assert _fires(gate, _hand(_table(1)), 1.5, 0.3) == 0
    assert _fires(gate, _table(3), 1.8) == 0
