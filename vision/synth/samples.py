"""Classifier samples: crops of rendered scenes, cut the way the runtime cuts them.

At runtime a crop is the cell square [x-0.6, x+0.6]^2 in lattice units warped through a
*fitted* lattice homography, which is never exact: it is off by a fraction of a cell, turned by
a few degrees and a few per cent out of scale, and the tile itself sits nudged on its cell.
Training crops are therefore warped through the render's true homography composed with such
an error, so train and runtime crops look alike, neighbouring tiles at the borders included.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.tiles import ALL_COLOURS, SHAPES
from vision.crops import CROP, extract_crops
from vision.synth.scene import Render


@dataclass(frozen=True)
class LatticeError:
    """How far a fitted lattice and the runtime's tile centres are off, at most."""

    offset: float = 0.12
    """Error of a crop's centre, in cells."""
    turn: float = 6.0
    """Error of the lattice's orientation, degrees."""
    scale: float = 0.10
    """Relative error of the lattice's pitch."""


def fitted_lattice(homography: np.ndarray, centre: np.ndarray, rng: np.random.Generator,
                   err: LatticeError) -> np.ndarray:
    """A random similarity about `centre` (cells): the fitted lattice's map to the true one."""
    a = np.radians(rng.uniform(-err.turn, err.turn))
    s = 1 + rng.uniform(-err.scale, err.scale)
    c, sn = np.cos(a) * s, np.sin(a) * s
    x, y = centre
    similarity = np.array([[c, -sn, x - c * x + sn * y], [sn, c, y - sn * x - c * y], [0, 0, 1]])
    return homography @ similarity


@dataclass
class Samples:
    """Crops and labels; shape and colour are -1 for crops of empty cells (not a tile)."""

    crops: np.ndarray
    shape: np.ndarray
    colour: np.ndarray


def _empty_cells(render: Render, occupied: set, reach: int) -> list:
    """Free cells at most `reach` cells (king moves) from a tile whose crop lies in the picture."""
    steps = range(-reach, reach + 1)
    cells = sorted({(x + dx, y + dy) for x, y in occupied for dx in steps for dy in steps}
                   - occupied)
    if not cells:
        return []
    corners = np.array([(x + dx, y + dy, 1.0) for x, y in cells for dx in (-0.6, 0.6)
                        for dy in (-0.6, 0.6)]) @ render.homography.T
    px = (corners[:, :2] / corners[:, 2:3]).reshape(len(cells), 4, 2)
    h, w = render.image.shape[:2]
    inside = ((px >= 0) & (px < [w, h])).all(axis=(1, 2))
    return [c for c, ok in zip(cells, inside, strict=True) if ok]


def render_samples(render: Render, rng: np.random.Generator, *, empties: int = 2,
                   err: LatticeError = LatticeError()) -> Samples:
    """Crops of every tile of `render`, plus up to `empties` empty cells near the tiles.

    Half the empty cells touch a tile (a crop full of neighbours' edges), the others lie up to
    three cells away (bare table, board squares, bonus marks).
    """
    occupied = {(x, y) for x, y, _ in render.tiles}
    near, far = _empty_cells(render, occupied, 1), _empty_cells(render, occupied, 3)
    picks = [near[i] for i in rng.permutation(len(near))[: (empties + 1) // 2]]
    picks += [far[i] for i in rng.permutation(len(far))[: empties - len(picks)]
              if far[i] not in picks]
    cells = np.array([(x, y) for x, y, _ in render.tiles] + picks, float).reshape(-1, 2)
    if not len(cells):
        empty = np.zeros(0, np.int64)
        return Samples(np.zeros((0, CROP, CROP, 3), np.uint8), empty, empty)
    lattice = fitted_lattice(render.homography, cells.mean(0), rng, err)
    # Where each tile (as drawn, nudged) or empty cell centre lies in the fitted lattice's
    # coordinates, then found with an error.
    true_px = np.column_stack([cells, np.ones(len(cells))]) @ render.homography.T
    true_px = true_px[:, :2] / true_px[:, 2:3]
    for i, (x, y, _) in enumerate(render.tiles):
        true_px[i] = render.centers[(x, y)]
    true_px = np.column_stack([true_px, np.ones(len(cells))])
    in_fit = true_px @ np.linalg.inv(lattice).T
    centres = in_fit[:, :2] / in_fit[:, 2:3] + rng.uniform(-err.offset, err.offset, cells.shape)
    crops = extract_crops(render.image, lattice, centres)
    n_empty = len(cells) - len(render.tiles)
    shape = [SHAPES.index(t.shape) for _, _, t in render.tiles] + [-1] * n_empty
    colour = [ALL_COLOURS.index(t.colour) for _, _, t in render.tiles] + [-1] * n_empty
    return Samples(crops=crops, shape=np.array(shape, np.int64), colour=np.array(colour, np.int64))


def tight_to_contract(image: np.ndarray, tile_side: float = 0.95) -> np.ndarray:
    """A crop cut tight round one tile (like ../shared/data/real/crops) made contract-like.

    Such a crop spans about one tile side; a contract crop spans 1.2 cells, so the picture is
    padded (edge pixels repeated: tile body or the neighbours' dark sides) and resized.
    """
    h, w = image.shape[:2]
    side = max(h, w) * 1.2 / tile_side
    pad_y, pad_x = int(round((side - h) / 2)), int(round((side - w) / 2))
    padded = cv2.copyMakeBorder(image, pad_y, pad_y, pad_x, pad_x, cv2.BORDER_REPLICATE)
    return cv2.resize(padded, (CROP, CROP), interpolation=cv2.INTER_AREA)
