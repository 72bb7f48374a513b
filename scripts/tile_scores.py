"""The "is a tile" scores behind the runtime's thresholds (models/MODEL.md, vision/scan.py).

    .venv/bin/python scripts/tile_scores.py               # game seeds 100-109 and real photos
    .venv/bin/python scripts/tile_scores.py --games 3 --no-real

Two kinds of reading are scored against the truth:

- the scan's readings (`scan_image`, tiles and doubtful ones): the lowest score of a real
  tile and the highest score of something that is not one (a hole between tiles);
- the free cells beside the tiles `locate_tiles` found, as `vision.scan._completed` reads
  them: score and dark share of the tiles the detector missed, and of the free cells that
  are empty (the printed logo, bonus squares, table).

Game photos are the positions of `qwirkle simulate` games photographed as
`scripts/eval_replay.py` does (960 x 720, JPEG 90); real photos are read as shot and in the
warm, half and webcam variants. The real photos are never copied.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.tiles import COLOURS  # noqa: E402
from vision import lattice, scan  # noqa: E402
from vision.classifier import classify_crops  # noqa: E402
from vision.crops import extract_crops  # noqa: E402
from vision.evaluation import SYMMETRIES, align, degrade, game_colours, load_game  # noqa: E402
from vision.synth.footage import GameRenders, game_script  # noqa: E402

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real"
VARIANTS = ("original", "warm", "half", "webcam")


def game_photos(seeds: range) -> Iterator[tuple[str, np.ndarray, dict, tuple[str, ...]]]:
    for seed in seeds:
        script = game_script(2, seed)
        renders = GameRenders(script, seed)
        for k in range(1, len(script.positions)):
            ok, jpeg = cv2.imencode(".jpg", renders[k].image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            truth = {(x, y): t for x, y, t in script.positions[k]}
            yield f"game {seed}/{k}", cv2.imdecode(jpeg, cv2.IMREAD_COLOR), truth, COLOURS


def real_photos() -> Iterator[tuple[str, np.ndarray, dict, tuple[str, ...]]]:
    for folder in sorted(p.parent for p in REAL.glob("*/game.json")):
        colours = game_colours(folder)
        for i, photo in enumerate(load_game(folder)):
            image = scan.load_image(photo.path)
            for variant in VARIANTS:
                seen = image if variant == "original" else degrade(image, variant, i)
                yield f"{folder.name}/{photo.path.name} {variant}", seen, photo.truth, colours


def to_truth(found: list, truth: dict):
    """The symmetry and shift that put the found cells on the truth's (None if unsure)."""
    pairs = align(found, truth)
    if len(pairs) < 2:
        return None
    for a, b, c, d in SYMMETRIES:
        shifts = {(tx - (a * x + b * y), ty - (c * x + d * y))
                  for (x, y), (tx, ty) in pairs.items()}
        if len(shifts) == 1:
            (sx, sy), turn = shifts.pop(), (a, b, c, d)
            return lambda x, y: (turn[0] * x + turn[1] * y + sx, turn[2] * x + turn[3] * y + sy)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="game seeds from --seed on")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--no-real", action="store_true", help="skip the real photos")
    args = parser.parse_args(argv)

    readings = {True: [], False: []}  # is a tile -> (score, where)
    free = {True: [], False: []}  # is a tile -> (score, dark share, where)
    sources = [game_photos(range(args.seed, args.seed + args.games))]
    if not args.no_real and REAL.is_dir():
        sources.append(real_photos())
    for source in sources:
        for where, image, truth, colours in source:
            result = scan.scan_image(image, colours)
            found = result.tiles + result.doubtful
            mapping = to_truth([(r.x, r.y) for r in found], truth)
            if mapping is None:
                continue
            for r in found:
                readings[mapping(r.x, r.y) in truth].append((r.guess.tile_prob, where))
            located = scan.locate_tiles(image)
            if len(located.cells) < 2:
                continue
            homography = located.lattice.homography
            cells, centres = scan._free_neighbours(located.cells, located.fractional, scan.SIDES)
            pixels = lattice.project(homography, centres)
            h, w = image.shape[:2]
            inside = (pixels >= 0).all(axis=1) & (pixels[:, 0] < w) & (pixels[:, 1] < h)
            if not inside.any():
                continue
            crops = extract_crops(image, homography, centres[inside])
            body = scan._body_level(extract_crops(image, homography, located.fractional))
            dark = scan._dark_share(crops, body)
            for cell, guess, share in zip(cells[inside], classify_crops(crops), dark,
                                          strict=True):
                free[mapping(*cell) in truth].append((guess.tile_prob, float(share), where))

    tiles, others = sorted(readings[True]), sorted(readings[False], reverse=True)
    print(f"scan readings: {len(tiles)} tiles, lowest scores {[round(p, 3) for p, _ in tiles[:5]]}"
          f" ({', '.join(w for _, w in tiles[:5])})")
    print(f"  {len(others)} not tiles, scores {[round(p, 3) for p, _ in others]}")
    missed = sorted(free[True])
    print(f"free cells holding a tile the detector missed: {len(missed)}; scores "
          f"{min(p for p, *_ in missed):.4f}-{max(p for p, *_ in missed):.4f}, "
          f"dark share {min(s for _, s, _ in missed):.2f}-{max(s for _, s, _ in missed):.2f}"
          if missed else "free cells holding a tile the detector missed: none")
    empty = free[False]
    dark = [p for p, s, _ in empty if s >= scan.COMPLETION_DARK_SHARE]
    light = [(p, s, w) for p, s, w in empty if s < scan.COMPLETION_DARK_SHARE]
    print(f"empty free cells: {len(empty)}; highest score with a dark middle "
          f"(>= {scan.COMPLETION_DARK_SHARE}): {max(dark, default=0):.4f}")
    if light:
        p, s, w = max(light)
        print(f"  highest score with a light middle: {p:.4f} (dark share {s:.2f}, {w})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
