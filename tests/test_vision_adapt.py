"""Learning the set from play: prototypes from confirmed tiles, persisted as JSON."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from engine.tiles import COLOURS, Tile
from vision.adapt import FEATURES, SetAdapter
from vision.evaluation import align
from vision.scan import scan_image
from vision.synth.scene import View, random_layout, random_style, render_board
from vision.synth.tiles import edition


def _frames(style, count: int):
    """`count` rendered boards of 25 tiles with one set and one camera: (image, truth)."""
    for frame in range(count):
        rng = np.random.default_rng(1000 + frame)
        layout = random_layout(rng, 25, COLOURS)
        render = render_board(layout, rng, style=style, view=View(elevation=80, pitch_px=45))
        yield render.image, {(x, y): t for x, y, t in layout}


def _read(image, truth, adapter=None):
    """(readings matched to the truth, how many are labelled right)."""
    found = {(t.x, t.y): t.guess for t in scan_image(image, COLOURS, adapter).tiles}
    pairs = align(set(found), set(truth))
    matched = [(found[f], truth[t]) for f, t in pairs.items()]
    return matched, sum(guess.tile == tile for guess, tile in matched)


def _game(style, frames: int = 6) -> tuple[int, int, int]:
    """Right labels by the network alone and with the confirmed tiles of the frames before,
    over frames 2 on; and how many were read."""
    adapter = SetAdapter()
    alone = adapted = total = 0
    for k, (image, truth) in enumerate(_frames(style, frames)):
        matched, right = _read(image, truth, adapter)
        if k:
            alone += _read(image, truth)[1]
            adapted += right
            total += len(matched)
        adapter.learn([g for g, _ in matched], [t for _, t in matched])  # the players confirm
    return alone, adapted, total


def test_confirmed_tiles_improve_later_reads_of_a_set_with_shifted_colours():
    # an older printing: teal green, sky blue, lime-ish yellow, lavender purple; 6-point stars
    style = random_style(np.random.default_rng(700))
    style = replace(style, glare=0, tile_set=edition(style.tile_set, "older", star_points=6))
    alone, adapted, total = _game(style)
    assert alone <= total - 5  # the network alone misreads this set
    assert adapted >= total - 1 and adapted > alone


def test_learning_a_standard_set_does_not_spoil_its_reads():
    style = replace(random_style(np.random.default_rng(701)), glare=0)
    alone, adapted, total = _game(style, frames=4)
    assert adapted >= alone and adapted >= total - 1


def test_an_adapter_survives_json_and_an_empty_one_changes_nothing():
    rng = np.random.default_rng(0)
    features = rng.random((10, FEATURES)).astype(np.float32)
    tiles = [Tile(c, s) for c, s in zip(["red", "green"] * 5, ["circle", "star"] * 5,
                                        strict=True)]
    adapter = SetAdapter()
    shape_p = rng.dirichlet(np.ones(6), 4)
    colour_p = rng.dirichlet(np.ones(6), 4)
    same = adapter.adjust(features[:4], shape_p, colour_p, COLOURS)
    assert np.allclose(same[0], shape_p) and np.allclose(same[1], colour_p)
    adapter.learn(features, tiles)
    copy = SetAdapter.from_json(json.loads(json.dumps(adapter.to_json())))
    assert copy.examples == adapter.examples == 10
    for mine, theirs in zip(adapter.adjust(features[:4], shape_p, colour_p, COLOURS),
                            copy.adjust(features[:4], shape_p, colour_p, COLOURS), strict=True):
        assert np.allclose(mine, theirs, atol=1e-6)
        assert np.allclose(mine.sum(axis=1), 1.0)


@pytest.mark.parametrize("data", [None, [], {"version": 2}, {"version": 1, "colour": {
    "pink": {"n": 1, "sum": [0, 0, 0], "squares": 0}}}, {"version": 1, "shape": {"star": {}}}])
def test_a_malformed_profile_is_refused_with_a_clear_error(data):
    with pytest.raises(ValueError, match="set profile"):
        SetAdapter.from_json(data)


def test_learning_needs_one_label_per_reading_with_features():
    adapter = SetAdapter()
    with pytest.raises(ValueError, match="2 examples but 1 labels"):
        adapter.learn(np.zeros((2, FEATURES)), [Tile("red", "star")])
    with pytest.raises(ValueError, match="shape"):
        adapter.learn(np.zeros((1, 5)), [Tile("red", "star")])
    assert adapter.examples == 0
