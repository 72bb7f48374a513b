"""Speed of the scan: median milliseconds per photo and per classifier batch, after start-up.

    .venv/bin/python scripts/bench_scan.py                 # a real 1,600-px photo with ~60 tiles
    .venv/bin/python scripts/bench_scan.py --image x.jpg   # any photo

Targets (issue 3): scan_image <= 150 ms for a 1,600-px photo with 60 tiles, classifier <= 10 ms
for a batch of 60 crops, on the 2-core CI machine. Without the real photos a board of 60 tiles
is rendered with vision.synth instead.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench_classifier import median_ms  # noqa: E402  # scripts/ is on the path when run

from engine.tiles import COLOURS  # noqa: E402
from vision.crops import extract_crops  # noqa: E402
from vision.evaluation import game_colours, load_game  # noqa: E402
from vision.scan import load_image, locate_tiles, scan_image  # noqa: E402

REAL = REPO.parent / "shared" / "data" / "real"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--image", type=Path, help="photo to time (default: see above)")
    parser.add_argument("--runs", type=int, default=15, help="timed runs (default 15)")
    parser.add_argument("--tiles", type=int, default=60, help="tiles wanted (default 60)")
    args = parser.parse_args(argv)

    image, colours, source = _subject(args.image, args.tiles)
    print(f"photo: {source} ({image.shape[1]}x{image.shape[0]})")
    located = locate_tiles(image)
    print(f"tiles found: {len(located.cells)}")
    print(f"locate_tiles: {median_ms(lambda: locate_tiles(image), args.runs):.1f} ms median")
    try:
        scan_image(image, colours)  # start-up: loads the model
    except FileNotFoundError as error:
        print(f"classifier not timed: {error}")
        return 0
    scan_ms = median_ms(lambda: scan_image(image, colours), args.runs)
    print(f"scan_image:   {scan_ms:.1f} ms median")
    from vision.classifier import classify_crops

    crops = extract_crops(image, located.lattice.homography, located.fractional)
    batch = crops[np.arange(args.tiles) % max(1, len(crops))] if len(crops) else crops
    print(f"classify_crops, batch of {len(batch)}: "
          f"{median_ms(lambda: classify_crops(batch, colours), args.runs):.1f} ms median")
    return 0


def _subject(path: Path | None, tiles: int):
    """The photo to time: the given one, a real one with about `tiles` tiles, or a render."""
    if path is not None:
        return load_image(path), COLOURS, str(path)
    photos = [(photo, folder) for folder in sorted(REAL.glob("*/"))
              if (folder / "game.json").is_file() for photo in load_game(folder)]
    if photos:
        photo, folder = min(photos, key=lambda p: abs(len(p[0].truth) - tiles))
        return load_image(photo.path), game_colours(folder), str(photo.path)
    from vision.synth.scene import random_layout, render_board

    rng = np.random.default_rng(0)
    render = render_board(random_layout(rng, tiles, COLOURS), rng)
    return render.image, COLOURS, f"synthetic board of {tiles} tiles"


if __name__ == "__main__":
    sys.exit(main())
