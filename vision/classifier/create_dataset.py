"""Render the classifier's training data: crops of synthetic tables, reproducible from a seed.

    .venv/bin/python -m vision.classifier.create_dataset            # every set of the config
    .venv/bin/python -m vision.classifier.create_dataset val        # the held-out set only
    .venv/bin/python -m vision.classifier.create_dataset train --scenes 200 --out data/x.npz

The sets (scenes, seed, file) and the mix of scenes come from the model's config,
vision/classifier/configs/tile_classifier.toml; options override it. Each scene is a random
board of 1-40 tiles of one set (purple or white as the sixth colour) rendered with a random
camera, table, light and camera quality by vision.synth.scene, then cut into crops through
the true lattice perturbed as a fitted lattice errs (vision.synth.samples). A share of the
scenes shows a varied set (vision.synth.tiles.varied_tile_set: drifted colours, other stroke
weights, 6-point stars); those draws come from their own random stream, so a share of 0 gives
exactly the scenes of a recipe without variants. Up to `max_empties` empty cells near the
tiles are cut too, as "not a tile" examples. The output holds `crops` (N, 64, 64, 3) uint8
BGR, `shape` and `colour` indices (-1 for empty cells; colour indexes
engine.tiles.ALL_COLOURS), `scene` (crops of one scene share a light) and `variant` (1 for
the crops of a varied set).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from engine.tiles import COLOURS
from vision.classifier import recipe
from vision.synth.samples import Samples, render_samples
from vision.synth.scene import random_layout, random_style, random_view, render_board
from vision.synth.tiles import varied_tile_set

WHITE_SET = COLOURS[:5] + ("white",)


@dataclass(frozen=True)
class Mix:
    """What a set's scenes show (the config's [dataset] table)."""

    white_share: float = 0.5
    variant_share: float = 0.0
    max_empties: int = 6


def scene_samples(rng: np.random.Generator, variants: np.random.Generator,
                  mix: Mix) -> tuple[Samples, bool]:
    """One random scene's crops, and whether its set is a varied one.

    `rng` draws the board, view and style; `variants` alone decides and draws the varied set.
    """
    colours = WHITE_SET if rng.random() < mix.white_share else COLOURS
    count = int(rng.choice([rng.integers(1, 8), rng.integers(8, 41)], p=[0.3, 0.7]))
    layout = random_layout(rng, count, colours)
    view, style = random_view(rng), random_style(rng)
    varied = bool(variants.random() < mix.variant_share)
    if varied:
        style = replace(style, tile_set=varied_tile_set(style.tile_set, variants))
    render = render_board(layout, rng, view=view, style=style)
    return render_samples(render, rng, empties=int(rng.integers(0, mix.max_empties + 1))), varied


def make(scenes: int, seed: int, mix: Mix, progress: bool = False) -> dict[str, np.ndarray]:
    """The crops and labels of `scenes` scenes from `seed`."""
    rng = np.random.default_rng(seed)
    variants = np.random.default_rng([seed, 1])
    parts: dict[str, list[np.ndarray]] = {
        "crops": [], "shape": [], "colour": [], "scene": [], "variant": []}
    start = time.perf_counter()
    for i in range(scenes):
        s, varied = scene_samples(rng, variants, mix)
        parts["crops"].append(s.crops)
        parts["shape"].append(s.shape)
        parts["colour"].append(s.colour)
        parts["scene"].append(np.full(len(s.shape), i, np.int32))
        parts["variant"].append(np.full(len(s.shape), varied, np.int8))
        if progress and (i + 1) % 200 == 0:
            n = sum(len(p) for p in parts["shape"])
            print(f"{i + 1}/{scenes} scenes, {n} crops, {time.perf_counter() - start:.0f} s",
                  flush=True)
    return {k: np.concatenate(v) for k, v in parts.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", help="sets of the config to make (default: all)")
    parser.add_argument("--config", type=Path, default=recipe.TILE_CLASSIFIER)
    parser.add_argument("--scenes", type=int, help="override the set's number of scenes")
    parser.add_argument("--seed", type=int, help="override the set's seed")
    parser.add_argument("--out", type=Path, help="override the set's output file")
    parser.add_argument("--white-share", type=float, help="share of white sets")
    parser.add_argument("--variant-share", type=float, help="share of varied sets")
    parser.add_argument("--max-empties", type=int, help="empty cells per scene, at most")
    args = parser.parse_args(argv)
    config = recipe.load(args.config)["dataset"]
    recipe.fill(args, config)
    mix = Mix(args.white_share, args.variant_share, args.max_empties)
    known = config["sets"]
    names = args.sets or list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error(f"unknown set {', '.join(unknown)} (the config has {', '.join(known)})")
    if len(names) > 1 and (args.scenes, args.seed, args.out) != (None, None, None):
        parser.error("--scenes, --seed and --out apply to one set: name it")
    for name in names:
        spec = known[name]
        scenes = args.scenes if args.scenes is not None else spec["scenes"]
        seed = args.seed if args.seed is not None else spec["seed"]
        out = args.out or Path(spec["out"])
        data: dict[str, Any] = make(scenes, seed, mix, progress=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        np.savez(out, **data)
        print(f"wrote {len(data['shape'])} crops of {scenes} scenes "
              f"({int(data['variant'].sum())} of varied sets) to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
