"""Time the tile classifier on a batch of crops and the renderer on a webcam-size frame.

    .venv/bin/python -m vision.bench.classifier --tiles 60 --repeat 50

Targets: a batch of 60 crops in at most 10 ms (median, after start-up); a 960 x 720 frame
with 60 tiles rendered in well under 100 ms (the web-app demo renders live).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from engine.tiles import COLOURS
from vision.bench import machine
from vision.classifier import classify_crops
from vision.synth.samples import render_samples
from vision.synth.scene import View, random_layout, random_style, render_board


def median_ms(fn, repeat: int) -> float:
    """Median wall time of ``fn()`` in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiles", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    layout = random_layout(rng, args.tiles, COLOURS)
    view = View(elevation=70, pitch_px=34, size=(960, 720))
    styles = [random_style(rng) for _ in range(args.repeat)]
    render = render_board(layout, rng, view=view, style=styles[0])
    crops = render_samples(render, rng, empties=0).crops
    classify_crops(crops)  # start-up: loads the model
    print(machine())
    ms = median_ms(lambda: classify_crops(crops), args.repeat)
    print(f"classify_crops: {len(crops)} crops in {ms:.1f} ms (median of {args.repeat})")
    it = iter(styles * 2)
    ms = median_ms(lambda: render_board(layout, rng, view=view, style=next(it)), args.repeat)
    print(f"render_board: 960x720 frame, {args.tiles} tiles, {ms:.1f} ms (median)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
