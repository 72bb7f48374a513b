"""The classifier's training stages: the config's recipe and the dataset it renders.

Training itself needs torch (the [train] extra) and many minutes; models/MODEL.md has the
recipe and its figures. Here: the dataset generator mixes in varied sets as the config says,
reproducibly, and the commands read and override the config.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.tiles import ALL_COLOURS, SHAPES
from vision.classifier import create_dataset, recipe
from vision.classifier.create_dataset import Mix, make


def test_the_config_holds_the_recipe_with_varied_sets():
    config = recipe.load()
    assert {"train", "val"} <= set(config["dataset"]["sets"])
    assert 0 < config["dataset"]["variant_share"] < 1
    assert config["train"]["epochs"] > 0 and config["train"]["out"].endswith(".onnx")


def test_the_dataset_mixes_in_varied_sets_and_keeps_the_other_scenes_as_they_were():
    mixed = make(10, 3, Mix(variant_share=0.5))
    plain = make(10, 3, Mix(variant_share=0.0))
    assert mixed["crops"].shape[1:] == (64, 64, 3) and mixed["crops"].dtype == np.uint8
    tiles = mixed["shape"] >= 0
    assert mixed["shape"].max() < len(SHAPES) and mixed["colour"].max() < len(ALL_COLOURS)
    assert (mixed["colour"][~tiles] == -1).all()
    assert not plain["variant"].any()
    varied = {int(s) for s in np.unique(mixed["scene"][mixed["variant"] == 1])}
    assert 0 < len(varied) < 10
    for scene in range(10):
        a, b = (d["crops"][d["scene"] == scene] for d in (mixed, plain))
        assert (scene in varied) != (a.shape == b.shape and np.array_equal(a, b))
    again = make(10, 3, Mix(variant_share=0.5))
    assert all(np.array_equal(mixed[k], again[k]) for k in mixed)


def test_create_dataset_writes_a_set_of_the_config_with_overrides(tmp_path, capsys):
    out = tmp_path / "val.npz"
    assert create_dataset.main(["val", "--scenes", "3", "--out", str(out),
                                "--variant-share", "1"]) == 0
    with np.load(out) as data:
        assert set(data.files) == {"crops", "shape", "colour", "scene", "variant"}
        assert set(np.unique(data["scene"])) == {0, 1, 2} and data["variant"].all()
    assert "of 3 scenes" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["nowhere"], "unknown set nowhere"),
    (["--scenes", "3"], "apply to one set"),
])
def test_create_dataset_refuses_an_unknown_set_or_an_ambiguous_override(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        create_dataset.main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_a_missing_config_is_reported_clearly(tmp_path):
    with pytest.raises(SystemExit, match="cannot read the config"):
        recipe.load(tmp_path / "none.toml")
