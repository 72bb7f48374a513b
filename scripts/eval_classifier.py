"""Accuracy figures of the tile classifier (models/tile_classifier.onnx) for models/MODEL.md.

    .venv/bin/python scripts/eval_classifier.py --val data/synth-val.npz \
        --real ../shared/data/real --scenes 40

Reports, each through the runtime path (vision.classifier.classify_crops, one call per frame):
- held-out synthetic crops (scripts/make_dataset.py with another seed);
- fresh synthetic scenes under one condition each: daylight, warm lamp, half light with noise,
  webcam scale with strong JPEG, 45 degree oblique, purple set, white set;
- the 36 tight real crops in ../shared/data/real/crops, padded to the crop contract;
- real photos: tiles located by vision.scan.locate_tiles, cut by vision.crops.extract_crops,
  matched to game.json by vision.evaluation. `--photos` picks games (all by default);
- the same real photos made harder the way a living room does (`--variants`): a 2700 K lamp
  with no white balance, half the light with sensor noise, webcam size (960 px long side,
  JPEG quality 35), and all three at once; `--every N` keeps every Nth photo for these.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.tiles import ALL_COLOURS, COLOURS, SHAPES, Tile  # noqa: E402
from vision import classifier  # noqa: E402
from vision.classifier import classify_crops  # noqa: E402
from vision.synth.samples import render_samples, tight_to_contract  # noqa: E402
from vision.synth.scene import (  # noqa: E402
    Style,
    light_gain,
    random_layout,
    random_style,
    random_view,
    render_board,
)

WHITE_SET = COLOURS[:5] + ("white",)

CONDITIONS = {
    "daylight, overhead": (dict(elevation=90.0), dict(kelvin=6000.0, white_balance=0.8)),
    "warm lamp 2700 K": ({}, dict(kelvin=2700.0, white_balance=0.2)),
    "half light + noise": ({}, dict(brightness=0.5, noise=5.0)),
    "webcam: tiles 33 px, JPEG 35": (dict(pitch_px=33.0), dict(jpeg_quality=35, blur=0.7)),
    "oblique 45 degrees": (dict(elevation=45.0), {}),
    "printed board": ({}, dict(table="board")),
}


class Score:
    """Hits and confusions of (true, guessed) tiles."""

    def __init__(self) -> None:
        self.n = self.shape = self.colour = self.both = 0
        self.confusions: Counter = Counter()

    def add(self, truth: list[Tile], guesses) -> None:
        for want, g in zip(truth, guesses, strict=True):
            self.n += 1
            self.shape += want.shape == g.tile.shape
            self.colour += want.colour == g.tile.colour
            self.both += want == g.tile
            if want != g.tile:
                self.confusions[(want.code, g.tile.code)] += 1

    def row(self, name: str) -> str:
        n = max(self.n, 1)
        worst = ", ".join(f"{a}->{b} x{k}" for (a, b), k in self.confusions.most_common(4))
        return (f"| {name} | {self.n} | {100 * self.shape / n:.2f} | {100 * self.colour / n:.2f} "
                f"| {100 * self.both / n:.2f} | {worst or '-'} |")


def _set_of(colours: np.ndarray) -> tuple[str, ...]:
    return WHITE_SET if ALL_COLOURS.index("white") in colours else COLOURS


def heldout(path: Path) -> Score:
    score = Score()
    with np.load(path) as d:
        crops, shape, colour, scene = d["crops"], d["shape"], d["colour"], d["scene"]
    for s in np.unique(scene):
        idx = np.flatnonzero((scene == s) & (shape >= 0))
        if not len(idx):
            continue
        truth = [Tile(ALL_COLOURS[colour[i]], SHAPES[shape[i]]) for i in idx]
        score.add(truth, classify_crops(crops[idx], _set_of(colour[idx])))
    return score


def condition(view_over: dict, style_over: dict, scenes: int, seed: int,
              colours: tuple[str, ...] | None = None) -> Score:
    rng = np.random.default_rng(seed)
    score = Score()
    for _ in range(scenes):
        set_ = colours or (WHITE_SET if rng.random() < 0.5 else COLOURS)
        layout = random_layout(rng, int(rng.integers(4, 41)), set_)
        view = replace(random_view(rng), **view_over)
        style = replace(random_style(rng), **style_over)
        render = render_board(layout, rng, view=view, style=style)
        samples = render_samples(render, rng, empties=0)
        score.add([t for _, _, t in render.tiles], classify_crops(samples.crops, set_))
    return score


def real_crops(folder: Path) -> Score:
    score = Score()
    truth, crops = [], []
    for colour in WHITE_SET:
        for shape in SHAPES:
            image = cv2.imread(str(folder / "crops" / f"{colour}-{shape}.png"))
            truth.append(Tile(colour, shape))
            crops.append(tight_to_contract(image))
    score.add(truth, classify_crops(np.stack(crops), WHITE_SET))
    return score


def _warm(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    gain = light_gain(Style(kelvin=2700.0, white_balance=0.0))
    return np.clip(image * gain, 0, 255).astype(np.uint8)


def _dim(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noisy = image * 0.5 + rng.normal(0, 4.0, image.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def _webcam(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    f = 960 / max(image.shape[:2])
    small = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    return cv2.imdecode(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 35])[1],
                        cv2.IMREAD_COLOR)


def _all_three(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return _webcam(_dim(_warm(image, rng), rng), rng)


VARIANTS = {"as taken": None, "warm lamp 2700 K": _warm, "half light + noise": _dim,
            "webcam 960 px, JPEG 35": _webcam, "all three at once": _all_three}


def real_photos(folder: Path, games: list[str], variant=None, every: int = 1) -> dict[str, Score]:
    from vision.crops import extract_crops
    from vision.evaluation import align, game_colours, load_game
    from vision.scan import load_image, locate_tiles

    scores = {}
    for game in games:
        score = scores[game] = Score()
        colours = game_colours(folder / game)
        rng = np.random.default_rng(0)
        for photo in load_game(folder / game)[::every]:
            image = load_image(photo.path)
            if variant is not None:
                image = variant(image, rng)
            located = locate_tiles(image)
            if not len(located.cells):
                continue
            crops = extract_crops(image, located.lattice.homography, located.fractional)
            guesses = classify_crops(crops, colours)
            cells = [tuple(int(v) for v in c) for c in located.cells]
            pairs = align(cells, photo.truth)
            keep = [i for i, c in enumerate(cells)
                    if c in pairs and photo.truth[pairs[c]] is not None]
            score.add([photo.truth[pairs[cells[i]]] for i in keep], [guesses[i] for i in keep])
    return scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--val", type=Path, help="held-out synthetic crops (.npz)")
    parser.add_argument("--real", type=Path, help="the real-photo folder")
    parser.add_argument("--photos", nargs="*", default=None,
                        help="games of --real to scan (default: all with a game.json)")
    parser.add_argument("--scenes", type=int, default=40, help="scenes per synthetic condition")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variants", action="store_true",
                        help="also score the real photos under lamp, half light and webcam size")
    parser.add_argument("--every", type=int, default=1, help="every Nth photo for --variants")
    parser.add_argument("--neutralise", type=float, default=classifier.NEUTRALISE,
                        help="share of the light's cast divided out (vision.classifier.NEUTRALISE)")
    args = parser.parse_args()
    classifier.NEUTRALISE = args.neutralise
    print("| data | tiles | shape % | colour % | both % | most frequent errors |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    if args.val:
        print(heldout(args.val).row(f"held-out synthetic ({args.val.name})"), flush=True)
    for i, (name, (view_over, style_over)) in enumerate(CONDITIONS.items()):
        score = condition(view_over, style_over, args.scenes, args.seed + i)
        print(score.row(f"synthetic: {name}"), flush=True)
    for i, set_ in enumerate((COLOURS, WHITE_SET)):
        score = condition({}, {}, args.scenes, args.seed + 100 + i, set_)
        print(score.row(f"synthetic: {set_[-1]} set"), flush=True)
    if args.real:
        print(real_crops(args.real).row("real crops (36, padded)"), flush=True)
        games = args.photos if args.photos is not None else sorted(
            p.parent.name for p in args.real.glob("*/game.json"))
        for name, variant in VARIANTS.items():
            if variant is not None and not args.variants:
                continue
            every = args.every if variant is not None else 1
            for game, score in real_photos(args.real, games, variant, every).items():
                print(score.row(f"real photos, {name}: {game}"), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
