"""Learning the set from play: prototypes from confirmed tiles, persisted as JSON."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from engine.tiles import COLOURS, Tile
from vision.adapt import FEATURES, SetAdapter
from vision.evaluate.sets import older_style, play
from vision.synth.scene import random_style


def test_confirmed_tiles_improve_later_reads_of_a_set_with_shifted_colours():
    # an older printing: teal green, sky blue, lime-ish yellow, lavender purple; 6-point stars
    trial = play(older_style(random_style(np.random.default_rng(700))), COLOURS, photos=6)
    assert trial.alone <= trial.read - 5  # the network alone misreads this set
    assert trial.learned >= trial.read - 1 and trial.learned > trial.alone


def test_learning_a_standard_set_does_not_spoil_its_reads():
    style = replace(random_style(np.random.default_rng(701)), glare=0)
    trial = play(style, COLOURS, photos=4)
    assert trial.learned >= trial.alone and trial.learned >= trial.read - 1


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
