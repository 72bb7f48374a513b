"""Render the classifier's training data: crops of synthetic tables, reproducible from a seed.

    .venv/bin/python scripts/make_dataset.py --scenes 4000 --seed 1 --out data/synth-train.npz

Each scene is a random board of 1-40 tiles of one set (purple or white as the sixth colour)
rendered with a random camera, table, light and camera quality by vision.synth.scene, then cut
into crops through the true lattice perturbed as a fitted lattice errs (vision.synth.samples).
Up to six empty cells near the tiles are cut too, as "not a tile" examples. The output holds
`crops` (N, 64, 64, 3) uint8 BGR, `shape` and `colour` indices (-1 for empty cells; colour
indexes engine.tiles.ALL_COLOURS) and `scene` (crops of one scene share a light).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.tiles import COLOURS  # noqa: E402
from vision.synth.samples import render_samples  # noqa: E402
from vision.synth.scene import random_layout, render_board  # noqa: E402

WHITE_SET = COLOURS[:5] + ("white",)


def scene_samples(rng: np.random.Generator):
    """One random scene's crops: a board of a random size in a random set."""
    colours = WHITE_SET if rng.random() < 0.5 else COLOURS
    count = int(rng.choice([rng.integers(1, 8), rng.integers(8, 41)], p=[0.3, 0.7]))
    render = render_board(random_layout(rng, count, colours), rng)
    return render_samples(render, rng, empties=int(rng.integers(0, 7)))


def make(scenes: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    parts: dict[str, list[np.ndarray]] = {"crops": [], "shape": [], "colour": [], "scene": []}
    start = time.perf_counter()
    for i in range(scenes):
        s = scene_samples(rng)
        parts["crops"].append(s.crops)
        parts["shape"].append(s.shape)
        parts["colour"].append(s.colour)
        parts["scene"].append(np.full(len(s.shape), i, np.int32))
        if (i + 1) % 200 == 0:
            n = sum(len(p) for p in parts["shape"])
            print(f"{i + 1}/{scenes} scenes, {n} crops, {time.perf_counter() - start:.0f} s",
                  flush=True)
    return {k: np.concatenate(v) for k, v in parts.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    data = make(args.scenes, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, **data)
    print(f"wrote {len(data['shape'])} crops of {args.scenes} scenes to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
