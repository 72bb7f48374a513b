"""The tiles' top faces seen from a phone beside the table: a lattice squashed along one axis.

From 50-60 degrees off vertical the tops of the tiles are foreshortened to about half their
width along the axis pointing away from the camera, while the symbols on them stay as wide
as ever across it. The lattice's first guess of the pitch measures offsets in units of the
local symbol size and takes a step as 0.85-1.8 of it (:func:`vision.lattice._pitch_ratios`):
along the squashed axis a one-cell step falls below that band, so it either sees only the
two-cell steps or none and borrows the other axis's pitch. Either way the grid's rows land
between the tiles, on their sides, and the tiles are numbered and cropped wrong (`python -m
vision.evaluate.real --oblique 10` before this module: 78 % found at 50-60 degrees).

The tiles of a game lie in lines, so most have a neighbour one cell away along each axis
that their line runs in: the nearest neighbour straight along an axis, whatever the
foreshortening, measures one cell. :func:`axis_pitches` takes the typical such distance; the
lattice uses it where it is clearly shorter than its own guess.
"""

from __future__ import annotations

import numpy as np

ALONG = 0.35
"""Largest sideways offset, as a share of the offset along an axis, for a neighbour to lie
"straight along" it (a tile nudged by a tenth of a cell, perspective bending the axes)."""

SHORTER = 0.8
"""A pitch this much shorter than the symbol-size guess replaces it: below, the two agree
and the guess (tried on every overhead photo) stands."""

MIN_PAIRS = 4
"""Points with a neighbour straight along an axis needed before their pitch is trusted."""


def axis_pitches(points: np.ndarray, scale: np.ndarray, axes: np.ndarray) -> np.ndarray:
    """Cell pitch along each lattice axis in units of the local symbol size (NaN: unknown).

    For every point, the nearest other point straight along the axis (in the affine frame of
    ``axes``, rows: unit vectors in the image) gives one distance; most are one cell, the
    rest whole multiples of it (a gap) . The pitch is the median of those near the lower
    quartile, so gaps and a few missed tiles do not lengthen it.
    """
    inv = np.linalg.inv(axes.T)
    diff = points[None, :, :] - points[:, None, :]
    pair_scale = 0.5 * (scale[:, None] + scale[None, :])
    comps = np.abs(np.einsum("ij,abj->abi", inv, diff)) / pair_scale[..., None]
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


def foreshortened(ratios: np.ndarray, points: np.ndarray, scale: np.ndarray,
                  axes: np.ndarray) -> np.ndarray:
    """``ratios`` (the lattice's pitch per axis, symbol-size units) with an axis that the
    tiles show clearly shorter replaced by what they show (see the module's docstring)."""
    if len(points) < MIN_PAIRS:
        return ratios
    measured = axis_pitches(points, scale, axes)
    shorter = np.isfinite(measured) & (measured < SHORTER * ratios)
    return np.where(shorter, measured, ratios)
