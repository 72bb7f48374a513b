"""A game of rendered photos of one odd set, read with and without learning the set.

Shared by ``scripts/eval_sets.py`` (figures) and the tests: each photo is read by the network
alone and with a :class:`vision.adapt.SetAdapter` that has learned from the tiles of every
earlier photo, as the players would have confirmed them (their true labels), or from a set
profile made by calibrating on a photo of the 36 kinds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from engine.tiles import SHAPES, Tile
from vision.adapt import SetAdapter
from vision.evaluation import align
from vision.scan import scan_image
from vision.synth.scene import Style, View, random_layout, render_board


@dataclass
class Trial:
    """Right labels over the photos after the first (the first teaches only), of ``read``."""

    read: int = 0
    alone: int = 0
    learned: int = 0  # with the confirmed tiles of the earlier photos
    calibrated: int = 0  # with a profile from a photo of the 36 kinds (when one was made)


def older_style(base: Style) -> Style:
    """A style with the older printing's colours and 6-point stars, no glare."""
    from vision.synth.tiles import edition

    return replace(base, glare=0, tile_set=edition(base.tile_set, "older", star_points=6))


def calibration_photo(style: Style, colours: tuple[str, ...]) -> np.ndarray:
    """The set's 36 kinds in the documented 6 x 6 block, photographed upside down."""
    block = [(c, r, Tile(colours[r], SHAPES[c])) for r in range(6) for c in range(6)]
    view = View(elevation=85, pitch_px=50, roll=180)
    return render_board(block, np.random.default_rng(5), style=style, view=view).image


def play(style: Style, colours: tuple[str, ...], photos: int, tiles: int = 25,
         profile: SetAdapter | None = None) -> Trial:
    """Read ``photos`` boards of ``tiles`` random tiles rendered with one set and camera."""
    trial, adapter = Trial(), SetAdapter()
    for k in range(photos):
        rng = np.random.default_rng(1000 + k)
        layout = random_layout(rng, tiles, colours)
        image = render_board(layout, rng, style=style,
                             view=View(elevation=80, pitch_px=45)).image
        truth = {(x, y): t for x, y, t in layout}
        matched, right = _read(image, truth, colours, adapter)
        if k:
            trial.read += len(matched)
            trial.learned += right
            trial.alone += _read(image, truth, colours)[1]
            if profile is not None:
                trial.calibrated += _read(image, truth, colours, profile)[1]
        adapter.learn([g for g, _ in matched], [t for _, t in matched])  # the players confirm
    return trial


def _read(image, truth, colours, adapter=None):
    """The readings matched to the truth as (guess, true tile), and how many are right."""
    found = {(t.x, t.y): t.guess for t in scan_image(image, colours, adapter).tiles}
    matched = [(found[f], truth[t]) for f, t in align(set(found), set(truth)).items()]
    return matched, sum(guess.tile == tile for guess, tile in matched)
