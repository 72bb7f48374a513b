"""Measure the tile classifier (models/tile_classifier.onnx) for models/MODEL.md.

    .venv/bin/python -m vision.classifier.evaluate accuracy --val data/synth-val.npz \
        --scenes 30 --variants --every 2
    .venv/bin/python -m vision.classifier.evaluate accuracy --no-real --scenes 40
    .venv/bin/python -m vision.classifier.evaluate tile-scores      # game seeds 100-109, real
    .venv/bin/python -m vision.classifier.evaluate tile-scores --games 3 --no-real

`accuracy` scores labels, each through the runtime path (vision.classifier.classify_crops, one
call per frame):
- held-out synthetic crops (vision.classifier.create_dataset with another seed), overall and,
  when the file has varied sets, for the standard and the varied sets apart;
- fresh synthetic scenes under one condition each: daylight, warm lamp, half light with noise,
  webcam scale with strong JPEG, 45 degree oblique, printed board, purple set, white set,
  varied sets and the older printing (vision.synth.tiles);
- the 36 tight real crops in the real folder's crops/, padded to the crop contract;
- real photos: tiles located by vision.scan.locate_tiles, cut by vision.crops.extract_crops,
  matched to game.json by vision.evaluate.real.align; with `--variants`, every `--every`-th photo
  also under a warm lamp, half the light, webcam size and all three (vision.evaluate.real.degrade).

`tile-scores` gives the "is a tile" scores behind the runtime's thresholds (vision/scan.py):
- the scan's readings (`scan_image`, tiles and doubtful ones): the lowest score of a real
  tile and the highest score of something that is not one (a hole between tiles);
- the free cells beside the tiles `locate_tiles` found, as `vision.scan` completes a board:
  score and dark share of the tiles the detector missed, and of the free cells that are empty
  (the printed logo, bonus squares, table).
Its pictures are the positions of `qwirkle simulate` games photographed as
`python -m vision.evaluate.replay` does (960 x 720, JPEG 90), and the real photos as shot and
in the warm, half and webcam variants.

The real photos (default ../shared/data/real) are read in place, never copied.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import ALL_COLOURS, COLOURS, SHAPES, Tile
from vision import lattice, scan
from vision.classifier import infer
from vision.classifier.infer import TileGuess, classify_crops
from vision.crops import extract_crops
from vision.evaluate.real import (
    REAL_PHOTOS,
    SYMMETRIES,
    Cell,
    align,
    degrade,
    game_colours,
    load_game,
)
from vision.synth.samples import render_samples, tight_to_contract
from vision.synth.scene import Style, random_layout, random_style, random_view, render_board
from vision.synth.tiles import edition, varied_tile_set

WHITE_SET = COLOURS[:5] + ("white",)

SetLook = Callable[[Style, np.random.Generator], Style]
"""How a condition changes a scene's random style (its set's look, for one)."""


def _varied(style: Style, rng: np.random.Generator) -> Style:
    return replace(style, tile_set=varied_tile_set(style.tile_set, rng))


def _older(style: Style, rng: np.random.Generator) -> Style:
    return replace(style, tile_set=edition(style.tile_set, "older", star_points=6))


CONDITIONS: dict[str, tuple[dict, dict, SetLook | None]] = {
    "daylight, overhead": (dict(elevation=90.0), dict(kelvin=6000.0, white_balance=0.8), None),
    "warm lamp 2700 K": ({}, dict(kelvin=2700.0, white_balance=0.2), None),
    "half light + noise": ({}, dict(brightness=0.5, noise=5.0), None),
    "webcam: tiles 33 px, JPEG 35": (dict(pitch_px=33.0), dict(jpeg_quality=35, blur=0.7), None),
    "oblique 45 degrees": (dict(elevation=45.0), {}, None),
    "printed board": ({}, dict(table="board"), None),
    "varied sets (drifted colours, strokes, stars)": ({}, {}, _varied),
    "older printing, 6-point stars": ({}, {}, _older),
}
"""Synthetic conditions: view and style overrides, and a change of the set's look."""

REAL_VARIANTS = ("warm", "half", "webcam", "warm+half+webcam")
"""Degradations (vision.evaluate.real.degrade) that `accuracy --variants` adds to the photos."""


class Score:
    """Hits and confusions of (true, guessed) tiles."""

    def __init__(self) -> None:
        self.n = self.shape = self.colour = self.both = 0
        self.confusions: Counter = Counter()

    def add(self, truth: Sequence[Tile], guesses: Sequence[TileGuess]) -> None:
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


@dataclass(frozen=True)
class RealPhoto:
    """One real photo, maybe degraded, with its game's truth and colours."""

    game: str
    name: str
    variant: str
    image: np.ndarray
    truth: dict[Cell, Tile | None]
    colours: tuple[str, ...]


def real_photos(folder: Path, variants: Sequence[str] = ("original",),
                every: int = 1) -> Iterator[RealPhoto]:
    """Every photo of every game folder as shot (variant "original"), and every `every`-th
    one under each other variant of `variants`."""
    for game in sorted(p.parent for p in folder.glob("*/game.json")):
        colours = game_colours(game)
        for i, photo in enumerate(load_game(game)):
            image = scan.load_image(photo.path)
            for variant in variants:
                if variant == "original":
                    yield RealPhoto(game.name, photo.path.name, variant, image, photo.truth,
                                    colours)
                elif i % every == 0:
                    yield RealPhoto(game.name, photo.path.name, variant,
                                    degrade(image, variant, seed=i), photo.truth, colours)


# --------------------------------------------------------------------------- accuracy


def _set_of(colours: np.ndarray) -> tuple[str, ...]:
    return WHITE_SET if ALL_COLOURS.index("white") in colours else COLOURS


def heldout(path: Path) -> dict[str, Score]:
    """Scores of a dataset file, each scene as one frame: all, and standard and varied sets
    apart when the file has both."""
    scores = {"": Score(), "standard sets": Score(), "varied sets": Score()}
    with np.load(path) as d:
        crops, shape, colour, scene = d["crops"], d["shape"], d["colour"], d["scene"]
        variant = d["variant"] if "variant" in d.files else np.zeros(len(shape), np.int8)
    for s in np.unique(scene):
        idx = np.flatnonzero((scene == s) & (shape >= 0))
        if not len(idx):
            continue
        truth = [Tile(ALL_COLOURS[colour[i]], SHAPES[shape[i]]) for i in idx]
        guesses = classify_crops(crops[idx], _set_of(colour[idx]))
        scores[""].add(truth, guesses)
        scores["varied sets" if variant[idx[0]] else "standard sets"].add(truth, guesses)
    if not scores["varied sets"].n:
        return {"": scores[""]}
    return scores


def condition(view_over: dict, style_over: dict, look: SetLook | None, scenes: int, seed: int,
              colours: tuple[str, ...] | None = None) -> Score:
    """Fresh scenes (4-40 tiles) with one condition forced, everything else random."""
    rng = np.random.default_rng(seed)
    score = Score()
    for _ in range(scenes):
        set_ = colours or (WHITE_SET if rng.random() < 0.5 else COLOURS)
        layout = random_layout(rng, int(rng.integers(4, 41)), set_)
        view = replace(random_view(rng), **view_over)
        style = replace(random_style(rng), **style_over)
        if look is not None:
            style = look(style, rng)
        render = render_board(layout, rng, view=view, style=style)
        samples = render_samples(render, rng, empties=0)
        score.add([t for _, _, t in render.tiles], classify_crops(samples.crops, set_))
    return score


def real_crops(folder: Path) -> Score:
    """The 36 tight crops of the real set (white as the sixth colour), as one frame."""
    score = Score()
    truth, crops = [], []
    for colour in WHITE_SET:
        for shape in SHAPES:
            path = folder / "crops" / f"{colour}-{shape}.png"
            image = cv2.imread(str(path))
            if image is None:
                raise SystemExit(f"cannot read the real crop {path}")
            truth.append(Tile(colour, shape))
            crops.append(tight_to_contract(image))
    score.add(truth, classify_crops(np.stack(crops), WHITE_SET))
    return score


def real_scores(photos: Iterator[RealPhoto]) -> dict[tuple[str, str], Score]:
    """Label scores per (variant, game) of the tiles `locate_tiles` finds."""
    scores: dict[tuple[str, str], Score] = {}
    for photo in photos:
        score = scores.setdefault((photo.variant, photo.game), Score())
        located = scan.locate_tiles(photo.image)
        if not len(located.cells):
            continue
        crops = extract_crops(photo.image, located.lattice.homography, located.fractional)
        guesses = classify_crops(crops, photo.colours)
        cells = [(int(x), int(y)) for x, y in located.cells]
        pairs = align(cells, photo.truth)
        known = [(tile, guess) for cell, guess in zip(cells, guesses, strict=True)
                 if cell in pairs and (tile := photo.truth[pairs[cell]]) is not None]
        score.add([tile for tile, _ in known], [guess for _, guess in known])
    return scores


def accuracy(args: argparse.Namespace) -> int:
    infer.NEUTRALISE = args.neutralise
    print("| data | tiles | shape % | colour % | both % | most frequent errors |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for path in args.val:
        for part, score in heldout(path).items():
            print(score.row(f"held-out synthetic ({path.name}{', ' + part if part else ''})"),
                  flush=True)
    if args.scenes:
        for i, (name, (view_over, style_over, look)) in enumerate(CONDITIONS.items()):
            score = condition(view_over, style_over, look, args.scenes, args.seed + i)
            print(score.row(f"synthetic: {name}"), flush=True)
        for i, set_ in enumerate((COLOURS, WHITE_SET)):
            score = condition({}, {}, None, args.scenes, args.seed + 100 + i, set_)
            print(score.row(f"synthetic: {set_[-1]} set"), flush=True)
    if args.real is not None:
        print(real_crops(args.real).row("real crops (36, padded)"), flush=True)
        variants = ("original", *REAL_VARIANTS) if args.variants else ("original",)
        scores = real_scores(real_photos(args.real, variants, args.every))
        for (variant, game), score in sorted(scores.items(),
                                             key=lambda item: variants.index(item[0][0])):
            name = "as taken" if variant == "original" else variant
            print(score.row(f"real photos, {name}: {game}"), flush=True)
    return 0


# --------------------------------------------------------------------------- tile scores


def game_photos(seeds: range) -> Iterator[tuple[str, np.ndarray, dict, tuple[str, ...]]]:
    """Every position of `qwirkle simulate` games, photographed (960 x 720, JPEG 90)."""
    from vision.synth.footage import GameRenders, game_script

    for seed in seeds:
        script = game_script(2, seed)
        renders = GameRenders(script, seed)
        for k in range(1, len(script.positions)):
            ok, jpeg = cv2.imencode(".jpg", renders[k].image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            photo = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
            assert photo is not None, "a JPEG just encoded decodes"
            truth = {(x, y): t for x, y, t in script.positions[k]}
            yield f"game {seed}/{k}", photo, truth, COLOURS


def to_truth(found: list[Cell], truth: dict) -> Callable[[int, int], Cell] | None:
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


def tile_scores(args: argparse.Namespace) -> int:
    readings: dict[bool, list] = {True: [], False: []}  # is a tile -> (score, where)
    labels: list = []  # (best label's probability, where) of each tile read
    free: dict[bool, list] = {True: [], False: []}  # is a tile -> (score, dark share, where)
    sources = [game_photos(range(args.seed, args.seed + args.games))]
    if args.real is not None:
        sources.append((f"{p.game}/{p.name} {p.variant}", p.image, p.truth, p.colours)
                       for p in real_photos(args.real, ("original", "warm", "half", "webcam")))
    for source in sources:
        for where, image, truth, colours in source:
            result = scan.scan_image(image, colours)
            found = result.tiles + result.doubtful
            mapping = to_truth([(r.x, r.y) for r in found], truth)
            if mapping is None:
                continue
            for r in found:
                on_tile = mapping(r.x, r.y) in truth
                readings[on_tile].append((r.guess.tile_prob, where))
                if on_tile:
                    labels.append((r.guess.confidence, where))
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
            body, _ = scan._body_levels(extract_crops(image, homography, located.fractional))
            shares = scan._dark_share(crops, body)
            for cell, guess, share in zip(cells[inside], classify_crops(crops), shares,
                                          strict=True):
                free[mapping(*cell) in truth].append((guess.tile_prob, float(share), where))

    tiles, others = sorted(readings[True]), sorted(readings[False], reverse=True)
    print(f"scan readings: {len(tiles)} tiles, lowest scores {[round(p, 3) for p, _ in tiles[:5]]}"
          f" ({', '.join(w for _, w in tiles[:5])})")
    print(f"  {len(others)} not tiles, scores {[round(p, 3) for p, _ in others]}")
    labels.sort()
    print(f"  the tiles' best label (scan.MIN_LABEL_CONFIDENCE): lowest "
          f"{[round(p, 3) for p, _ in labels[:5]]} ({', '.join(w for _, w in labels[:5])})")
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    acc = commands.add_parser("accuracy", help="label accuracy, synthetic and real")
    acc.add_argument("--val", type=Path, nargs="*", default=[],
                     help="held-out synthetic crops (.npz files of create_dataset)")
    acc.add_argument("--scenes", type=int, default=40,
                     help="scenes per synthetic condition (0: none)")
    acc.add_argument("--seed", type=int, default=7)
    acc.add_argument("--variants", action="store_true",
                     help="also score the real photos under lamp, half light and webcam size")
    acc.add_argument("--every", type=int, default=1, help="every Nth photo for --variants")
    acc.add_argument("--neutralise", type=float, default=infer.NEUTRALISE,
                     help="share of the light's cast divided out (infer.NEUTRALISE)")
    acc.set_defaults(run=accuracy)
    scores = commands.add_parser("tile-scores", help='"is a tile" scores behind the thresholds')
    scores.add_argument("--games", type=int, default=10, help="game seeds from --seed on")
    scores.add_argument("--seed", type=int, default=100)
    scores.set_defaults(run=tile_scores)
    for command in (acc, scores):
        command.add_argument("--real", type=Path, default=REAL_PHOTOS,
                             help="the real-photo folder (default ../shared/data/real)")
        command.add_argument("--no-real", dest="real", action="store_const", const=None,
                             help="skip the real photos")
    args = parser.parse_args(argv)
    if args.real is not None and not args.real.is_dir():
        print(f"no real photos at {args.real}: synthetic figures only", file=sys.stderr)
        args.real = None
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
