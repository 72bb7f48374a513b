"""Score `scan_image` on the annotated real photos: detection, cells and labels.

For every photo of every game folder (each with a game.json) the board up to that photo is the
truth; the scan's cells are matched to it after the best grid symmetry and shift. Pre-placed
tiles of the board games have no labels and count for detection only.

    .venv/bin/python -m vision.evaluate.real                     # ../shared/data/real, as shot
    .venv/bin/python -m vision.evaluate.real --variant all       # also warm, half light, webcam,
                                                                 # purple set, and combinations
    .venv/bin/python -m vision.evaluate.real --geometry --check  # cells only, no classifier
    .venv/bin/python -m vision.evaluate.real --synthetic 40      # also 40 rendered boards
    .venv/bin/python -m vision.evaluate.real --synthetic 200 --first-seed 160 --games none
    .venv/bin/python -m vision.evaluate.real --floors 100 --games none  # seamed floors
    .venv/bin/python -m vision.evaluate.real --oblique 10 --games none   # 30-60 deg oblique
    .venv/bin/python -m vision.evaluate.real --cut 40 --games none       # cut by the edges

--check exits with status 1 when recall, precision or label accuracy is below 99.5 % overall
in any variant run (CI uses it when the photos exist).

The annotations place tiles on their own grid origin, and a scan picks another origin (and,
for a rotated photo, maybe another orientation), so a scan is compared after the best of the
8 grid symmetries and a translation. The loading, aligning, tallying and degrading of photos
here are shared with the other evaluations and the tests.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import COLOURS, Tile
from vision.scan import MIN_VISIBLE, load_image, locate_tiles, scan_image

Cell = tuple[int, int]

REAL_PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "data" / "real"
"""The annotated real photos, ``../shared/data/real`` beside the repository: read in place,
never copied into it."""

SYMMETRIES: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
    (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0),
)
"""The 8 symmetries of the square grid as 2x2 integer matrices (a, b, c, d): (ax+by, cx+dy)."""


@dataclass(frozen=True)
class Photo:
    """One annotated photo: every tile on the table then, labelled where the labels are known."""

    path: Path
    truth: dict[Cell, Tile | None]  # None: a pre-placed tile whose label was not annotated


def load_game(folder: Path) -> list[Photo]:
    """The photos of one game folder with the board accumulated up to each photo."""
    spec = json.loads((folder / "game.json").read_text())
    board: dict[Cell, Tile | None] = {(x, y): None for x, y in spec.get("preplaced", [])}
    by_image: dict[str, list] = {}
    for move in spec["moves"]:
        by_image.setdefault(move["image"], []).append(move)
    photos = []
    for name in spec["images"]:
        for move in by_image.get(name, []):
            for x, y, colour, shape in move["tiles"]:
                board[(x, y)] = Tile(colour, shape)
        photos.append(Photo(folder / name, dict(board)))
    return photos


def game_colours(folder: Path) -> tuple[str, ...]:
    """The six colours a game's set uses, in the default order (white stands in for purple)."""
    spec = json.loads((folder / "game.json").read_text())
    seen = {colour for move in spec["moves"] for _, _, colour, _ in move["tiles"]}
    sixth = "white" if "white" in seen else "purple"
    return ("red", "orange", "yellow", "green", "blue", sixth)


def align(found: Iterable[Cell], truth: Iterable[Cell]) -> dict[Cell, Cell]:
    """Map found cells onto truth cells by the symmetry and shift that match the most.

    Every pair of (found, truth) cells proposes a shift for each symmetry; the proposal with
    the most coincidences wins. Where both are given as mappings of cells to labels, a tie is
    broken by the most equal labels: a straight line of tiles, read the other way round,
    covers the same cells. Returns found cell -> truth cell for the cells that coincide.
    """
    labels = (found, truth) if isinstance(found, Mapping) and isinstance(truth, Mapping) else None
    cells, targets = list(found), set(truth)
    best: dict[Cell, Cell] = {}
    best_key = (0, 0)
    for a, b, c, d in SYMMETRIES:
        turned = [(a * x + b * y, c * x + d * y) for x, y in cells]
        shifts = Counter((tx - ux, ty - uy) for ux, uy in turned for tx, ty in targets)
        for (sx, sy), votes in shifts.most_common(3):
            if votes < best_key[0] or (votes == best_key[0] and labels is None):
                break
            pairs = {
                cell: (ux + sx, uy + sy)
                for cell, (ux, uy) in zip(cells, turned, strict=True)
                if (ux + sx, uy + sy) in targets
            }
            key = (len(pairs), _same_labels(pairs, labels) if labels else 0)
            if key > best_key:
                best, best_key = pairs, key
    return best


def _same_labels(pairs: Mapping[Cell, Cell], labels: tuple[Mapping, Mapping]) -> int:
    """How many aligned cells carry equal labels (None, unknown, equals nothing)."""
    found, truth = labels
    return sum(1 for f, t in pairs.items() if found[f] is not None and found[f] == truth[t])


@dataclass
class Tally:
    """Running counts for detection and labelling, with the confusions seen."""

    truth: int = 0
    found: int = 0
    matched: int = 0
    labelled: int = 0  # matched tiles whose true label is known
    correct: int = 0
    confusions: Counter = field(default_factory=Counter)

    def add(self, truth: Mapping[Cell, Tile | None], found: Mapping[Cell, Tile | None],
            either: Collection[Cell] = ()) -> dict:
        """Score one photo; returns its own counts (and adds them to the running totals).

        A found label of None (a geometry-only run) or an unannotated true label is counted
        for detection only. A true tile in ``either`` counts neither way, found or not (one
        cut by the picture's edge with less than 60 % of its face in view).
        """
        pairs = align(found, truth)
        if either:
            found = {f: g for f, g in found.items() if pairs.get(f) not in either}
            truth = {t: w for t, w in truth.items() if t not in either}
            pairs = {f: t for f, t in pairs.items() if f in found}
        known = [(want, got) for f, t in pairs.items()
                 if (want := truth[t]) is not None and (got := found[f]) is not None]
        right = sum(1 for want, got in known if want == got)
        for want, got in known:
            if want != got:
                self.confusions[(want.code, got.code)] += 1
        self.truth += len(truth)
        self.found += len(found)
        self.matched += len(pairs)
        self.labelled += len(known)
        self.correct += right
        return {"truth": len(truth), "found": len(found), "matched": len(pairs),
                "labelled": len(known), "correct": right}

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0

    @property
    def accuracy(self) -> float:
        return self.correct / self.labelled if self.labelled else 1.0


STEPS = ("purple", "warm", "half", "lifted", "contrasty", "webcam", "phone", "shaken")
"""Single degradations, in the order a combined variant applies them (see :func:`degrade`):
the set, then the light, the camera's tone curve, and how the picture is saved."""

VARIANTS = ("original", "warm", "half", "webcam", "purple", "warm+webcam", "half+purple",
            "purple+webcam", "phone", "lifted")
"""Ways to degrade a photo like the living rooms the judging uses: a warm lamp with light
falling off across the table, half the light with sensor noise, a webcam-sized frame (960 px
long side, strong JPEG), a standard set whose sixth colour is purple (the photographed
set's white symbols recoloured), a phone's full-size photo (4000 px long side), and a
phone's tone curve that lifts the shadows (HDR, a matte look); a "+" combines them."""

HARDER = ("shaken", "contrasty")
"""Variants outside ``all`` and its target, which the photos do not all survive: a camera
shaken by a hand (motion blur along the rows, 9 px on a 1,600-px photo), and a contrasty
tone curve that darkens the mid-tones, under which orange falls towards red."""


def degrade(image: np.ndarray, variant: str, seed: int = 0) -> np.ndarray:
    """A copy of ``image`` as if shot under ``variant`` conditions (see :data:`VARIANTS`).

    The steps of a combined variant apply in the order of :data:`STEPS` whatever the spelling:
    the set is recoloured before the light and the camera change it.
    """
    steps = variant.split("+")
    if variant != "original" and not set(steps) <= set(STEPS):
        raise ValueError(f"unknown variant {variant!r}; choose from {', '.join(VARIANTS)}")
    out = image.copy()
    for step in STEPS:
        if step in steps:
            out = _STEP[step](out, np.random.default_rng(seed))
    return out


def uses_purple(variant: str) -> bool:
    """Whether a variant shows the purple set (so white labels read as purple)."""
    return "purple" in variant.split("+")


def as_purple(truth: Mapping[Cell, Tile | None]) -> dict[Cell, Tile | None]:
    """Ground truth for the recoloured set: every white tile becomes purple."""
    return {cell: Tile("purple", t.shape) if t is not None and t.colour == "white" else t
            for cell, t in truth.items()}


def _warm(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A ~2700 K lamp: blue and green fall against red; one side of the table darker."""
    falloff = np.linspace(1.0, 0.75, image.shape[1], dtype=np.float32)[None, :, None]
    gains = np.array([0.58, 0.82, 1.0], np.float32)[None, None, :]
    return np.clip(image.astype(np.float32) * gains * falloff, 0, 255).astype(np.uint8)


def _half(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Half the light, with the sensor noise a camera adds when it raises its gain."""
    noisy = image.astype(np.float32) * 0.5 + rng.normal(0.0, 6.0, image.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def _lifted(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A tone curve that lifts the shadows, as a phone's HDR or a matte filter saves a photo:
    every level to the power 0.75 (of full scale), so a body at 10 % shows at 18 %, and its
    rim, darker only than the symbol, barely darker than the table round the tile."""
    return _toned(image, 0.75)


def _contrasty(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A contrasty tone curve that darkens the mid-tones: every level to the power 1.4. The
    channels' ratios change with it: an orange whose green is half its full-scale red keeps
    a green of 38 % of it."""
    return _toned(image, 1.4)


def _toned(image: np.ndarray, power: float) -> np.ndarray:
    levels = 255.0 * (np.arange(256) / 255.0) ** power
    return cv2.LUT(image, np.clip(np.round(levels), 0, 255).astype(np.uint8))


def _webcam(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A 960-px frame with strong JPEG compression."""
    return _saved(image, 960, 40)


def _shaken(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A camera moved along the rows while the shutter was open: each pixel the mean of a
    run along its row of 0.56 % of the long side (9 px on a 1,600-px photo)."""
    length = max(3, round(max(image.shape[:2]) / 180)) | 1
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    return cv2.filter2D(image, -1, kernel)


def _phone(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A 12-megapixel phone photo (4000 px long side) as its camera saves it: the tiles
    span 2.5 times the pixels (enlarged, so no finer detail than the photo had)."""
    return _saved(image, 4000, 90)


def _saved(image: np.ndarray, long_side: int, quality: int) -> np.ndarray:
    """``image`` scaled to ``long_side`` and saved as a JPEG of that ``quality``."""
    scale = long_side / max(image.shape[:2])
    scaled = cv2.resize(image, None, fx=scale, fy=scale,
                        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    ok, data = cv2.imencode(".jpg", scaled, [cv2.IMWRITE_JPEG_QUALITY, quality])
    frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert frame is not None, "a JPEG just encoded decodes"
    return frame


PURPLE_HSV = ((272.0, 288.0), (0.5, 0.65), (0.5, 0.62))
"""Ranges of a standard set's purple: hue (degrees), saturation, and reflectance relative to
a white symbol's. A medium violet, clearly darker than the other colours."""


def _purple(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The photographed set's white symbols recoloured purple, shading and light kept.

    A pixel of a white symbol is the light's colour times the shading, so multiplying its
    excess over the black body by the purple's reflectance (per channel) gives what a purple
    symbol would show in the same place, its blurred edge included.
    """
    hue, sat, val = (rng.uniform(lo, hi) for lo, hi in PURPLE_HSV)
    reflect = cv2.cvtColor(np.array([[[hue, sat, val]]], np.float32), cv2.COLOR_HSV2BGR)[0, 0]
    region = white_symbols(image)
    if not region.any():
        return image.copy()
    value = image.max(axis=2)
    body = np.median(image[value < DARK_V], axis=0) if (value < DARK_V).any() else np.zeros(3)
    pixels = image[region].astype(np.float32)
    out = image.copy()
    out[region] = np.clip(body + (pixels - body).clip(0) * reflect, 0, 255).astype(np.uint8)
    return out


DARK_V = 90
"""Tile body in the photographed set: HSV value below this."""


def white_symbols(image: np.ndarray) -> np.ndarray:
    """Boolean mask of the white symbols' pixels (with their blurred edges) in a photo.

    A white symbol is a light, unsaturated blob of symbol size ringed almost all the way
    round by near-black tile body (a glint may open the ring a little). Table, board and
    glare on a table are not ringed by body.
    """
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    light = ((hsv[..., 1] < 80) & (hsv[..., 2] > 140)).astype(np.uint8)
    dark = hsv[..., 2] < DARK_V
    count, labels, stats, _ = cv2.connectedComponentsWithStats(light, connectivity=4)
    side = max(image.shape[:2])
    pad = max(3, side // 200)
    near = np.ones((2 * pad + 1, 2 * pad + 1), np.uint8)
    edge = np.ones((3, 3), np.uint8)
    mask = np.zeros(image.shape[:2], bool)
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if not side / 130 <= max(w, h) <= side / 13 or min(w, h) < 0.3 * max(w, h) \
                or area < 0.2 * w * h:
            continue
        y0, x0 = max(0, y - 2 * pad), max(0, x - 2 * pad)
        y1, x1 = y + h + 2 * pad, x + w + 2 * pad
        blob = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
        ring = cv2.dilate(blob, near) > cv2.dilate(blob, edge)
        if dark[y0:y1, x0:x1][ring].mean() > 0.7:
            mask[y0:y1, x0:x1] |= cv2.dilate(blob, edge, iterations=max(2, pad // 3)) > 0
    return mask


_STEP = {"purple": _purple, "warm": _warm, "half": _half, "lifted": _lifted,
         "contrasty": _contrasty, "webcam": _webcam, "phone": _phone, "shaken": _shaken}


# --------------------------------------------------------------------------- the command


TARGET = 0.995


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", type=Path,
                        default=REAL_PHOTOS,
                        help="folder of game folders (default ../shared/data/real)")
    parser.add_argument("--games", nargs="*", help="only these game folders")
    parser.add_argument("--variant", choices=VARIANTS + HARDER + ("all",), default="original",
                        help="degrade the photos first (all: every variant but "
                             f"{', '.join(HARDER)} in turn)")
    parser.add_argument("--geometry", action="store_true",
                        help="cells only: skip the classifier (label accuracy not measured)")
    parser.add_argument("--check", action="store_true",
                        help=f"exit 1 when a figure is below {TARGET:.1%}".replace("%", "%%"))
    parser.add_argument("--synthetic", type=int, default=0, metavar="N",
                        help="also score N boards rendered by vision.synth (seeds S..S+N-1; "
                        "random views, tables, light and glare; the default colours)")
    parser.add_argument("--oblique", type=int, default=0, metavar="N",
                        help="also score N boards rendered from 30-60 degrees from vertical, "
                        "tiles' sides in view, 600-1600 px (seeds S..S+N-1; no glare)")
    parser.add_argument("--floors", type=int, default=0, metavar="N",
                        help="also score N boards rendered on a floor of planks with dark "
                        "seams, at any angle to the tiles (seeds S..S+N-1)")
    parser.add_argument("--cloths", type=int, default=0, metavar="N",
                        help="also score N boards rendered on a checked tablecloth, at any "
                        "angle to the tiles (seeds S..S+N-1)")
    parser.add_argument("--cut", type=int, default=0, metavar="N",
                        help="also score N boards rendered as --synthetic and cropped through "
                        "tiles on one or two sides (seeds S..S+N-1); a tile with under 60 %% "
                        "of its face in view counts neither way")
    parser.add_argument("--first-seed", type=int, default=0, metavar="S",
                        help="first seed of the rendered boards (default 0; boards looked at "
                        "while tuning lie below 160)")
    parser.add_argument("--verbose", action="store_true", help="one line per imperfect photo")
    args = parser.parse_args(argv)

    folders = sorted(p.parent for p in args.data.glob("*/game.json"))
    if args.games:
        folders = [f for f in folders if f.name in args.games]
    games = [(f.name, game_colours(f), _photos(f)) for f in folders]
    if args.synthetic:
        games.append(("synthetic", COLOURS,
                      _rendered("synthetic", _render, args.synthetic, args.first_seed)))
    if args.floors:
        games.append(("floors", COLOURS,
                      _rendered("floors", floor_render, args.floors, args.first_seed)))
    if args.cloths:
        games.append(("cloths", COLOURS,
                      _rendered("cloths", cloth_render, args.cloths, args.first_seed)))
    if args.cut:
        games.append(("cut", COLOURS, _rendered("cut", cut_render, args.cut, args.first_seed)))
    if args.oblique:
        games += [(f"oblique {low}-{low + 10}", COLOURS,
                   _rendered(f"oblique {(low, low + 10)}",
                             partial(oblique_render, from_vertical=(low, low + 10)),
                             args.oblique, args.first_seed))
                  for low in (30, 40, 50)]
    if not games:
        print(f"no game folders with game.json under {args.data}", file=sys.stderr)
        return 2
    variants = VARIANTS if args.variant == "all" else (args.variant,)
    failed = False
    for variant in variants:
        total = evaluate(games, variant, args.geometry, args.verbose)
        figures = [total.recall, total.precision] + ([] if args.geometry else [total.accuracy])
        failed |= any(f < TARGET for f in figures)
    if args.check and failed:
        print(f"FAILED: a figure is below {TARGET:.1%}")
        return 1
    return 0


Case = tuple[str, Callable[[], tuple]]
"""(name, a function giving the truth (cell -> tile, or None if unknown) and the picture, and
maybe the true cells that count neither way)."""


def _photos(folder: Path) -> list[Case]:
    return [(f"{folder.name}/{p.path.name}", partial(_photo, p)) for p in load_game(folder)]


def _photo(photo: Photo) -> tuple[dict, np.ndarray]:
    return photo.truth, load_image(photo.path)


def _rendered(name: str, render: Callable[[int], tuple], count: int,
              first: int) -> list[Case]:
    """The boards ``render(seed)`` draws for seeds first..first+count-1, named by seed."""
    return [(f"{name}/{seed}", partial(render, seed)) for seed in range(first, first + count)]


def _truth_and_picture(render) -> tuple[dict, np.ndarray]:
    """A rendered board's tiles by cell, and its picture."""
    return {(x, y): tile for x, y, tile in render.tiles}, render.image


def _render(seed: int) -> tuple[dict, np.ndarray]:
    """One board of ``--synthetic``: 3..70 tiles, random settings."""
    from vision.synth.scene import random_layout, render_board

    rng = np.random.default_rng(seed)
    return _truth_and_picture(
        render_board(random_layout(rng, int(rng.integers(3, 71)), COLOURS), rng))


def floor_render(seed: int) -> tuple[dict, np.ndarray]:
    """One board of ``--floors`` (the tests read some too): 3..70 tiles on a floor of planks
    with dark seams, at any angle to the tiles; its tiles by cell, its picture."""
    from dataclasses import replace

    from vision.synth.scene import random_style

    rng = np.random.default_rng(seed)
    style = replace(random_style(rng), table="wood", plank_angle=float(rng.uniform(0, 180)),
                    plank_width=float(rng.uniform(0.5, 2.5)),
                    seam_depth=float(rng.uniform(0.35, 0.7)))
    return _random_board_on(rng, style)


CLOTHS = [((235, 235, 235), (40, 40, 190)), ((235, 235, 235), (170, 90, 30)),
          ((230, 235, 230), (60, 130, 60)), ((235, 235, 235), (35, 35, 35)),
          ((200, 225, 240), (40, 70, 140))]
"""Checked tablecloths, (ground, stripes) in BGR: red, blue, green and black on white, and
brown on cream."""


def cloth_render(seed: int) -> tuple[dict, np.ndarray]:
    """One board of ``--cloths``: 3..70 tiles on a checked tablecloth (checks of 0.4-2.5
    cells, at any angle to the tiles); its tiles by cell, its picture."""
    from dataclasses import replace

    from vision.synth.scene import random_style

    rng = np.random.default_rng(seed)
    ground, ink = CLOTHS[int(rng.integers(len(CLOTHS)))]
    style = replace(random_style(rng), table="cloth", table_bgr=ground, cloth_ink=ink,
                    cloth_check=float(rng.uniform(0.4, 2.5)),
                    plank_angle=float(rng.uniform(0, 90)))
    return _random_board_on(rng, style)


def _random_board_on(rng: np.random.Generator, style) -> tuple[dict, np.ndarray]:
    """3..70 random tiles rendered in ``style`` (its table): their cells, and the picture."""
    from vision.synth.scene import random_layout, render_board

    return _truth_and_picture(render_board(random_layout(rng, int(rng.integers(3, 71)), COLOURS),
                                           rng, style=style))


def cut_render(seed: int) -> tuple[dict, np.ndarray, set[Cell]]:
    """One board of ``--cut``: 8..70 tiles as ``--synthetic`` draws them, the picture then
    cropped on one or two sides through a tile at that side, 10-90 % of its face left in
    view (a close-up missing the board's ends). Its tiles by cell, the picture, and the tiles
    with under :data:`~vision.scan.MIN_VISIBLE` of the face in view, which count neither way.
    """
    from vision.synth.scene import random_layout, render_board

    rng = np.random.default_rng(seed)
    render = render_board(random_layout(rng, int(rng.integers(8, 71)), COLOURS), rng)
    faces = {cell: _face(render, cell) for cell in render.centers}
    height, width = render.image.shape[:2]
    box = [0.0, 0.0, float(width), float(height)]  # left, top, right, bottom
    for side in rng.choice(4, size=int(rng.integers(1, 3)), replace=False):
        axis, outer = side % 2, side < 2  # 0: left, 1: top, 2: right, 3: bottom
        ends = sorted(faces.values(), key=lambda f: f[:, axis].min() if outer
                      else -f[:, axis].max())
        face = ends[int(rng.integers(min(3, len(ends))))][:, axis]
        cut = float(rng.uniform(0.1, 0.9))  # share of that tile's extent cut away
        box[side] = (face.min() + cut * np.ptp(face) if outer else face.max() - cut * np.ptp(face))
    left, top, right, bottom = (int(round(v)) for v in box)
    shown = np.array([[left, top], [right, top], [right, bottom], [left, bottom]], np.float32)
    image = render.image[top:bottom, left:right]
    truth, either = {}, set()
    for x, y, tile in render.tiles:
        face = faces[(x, y)]
        visible = cv2.intersectConvexConvex(face, shown)[0] / cv2.contourArea(face)
        if visible > 0:
            truth[(x, y)] = tile
        if 0 < visible < MIN_VISIBLE:
            either.add((x, y))
    return truth, image, either


def _face(render, cell: Cell) -> np.ndarray:
    """A rendered tile's top face in pixels: a square of the tile's side about its drawn
    centre (its few degrees of twist left out)."""
    inverse = np.linalg.inv(render.homography)
    centre = cv2.perspectiveTransform(np.array([[render.centers[cell]]], np.float32), inverse)[0, 0]
    half = render.style.tile_side / 2
    corners = centre + np.array([[-half, -half], [half, -half], [half, half], [-half, half]],
                                np.float32)
    return cv2.perspectiveTransform(corners[None], render.homography)[0].astype(np.float32)


def oblique_render(seed: int, from_vertical: tuple[int, int]) -> tuple[dict, np.ndarray]:
    """One board of ``--oblique`` (the tests read some too): 10..60 tiles seen from a phone
    beside the table; its tiles by cell, its picture."""
    from dataclasses import replace

    from vision.synth.scene import oblique_view, random_layout, random_style, render_board

    rng = np.random.default_rng(seed)
    layout = random_layout(rng, int(rng.integers(10, 61)), COLOURS)
    style = replace(random_style(rng), glare=0)
    view = oblique_view(rng, layout, style.thickness, from_vertical=from_vertical)
    return _truth_and_picture(render_board(layout, rng, view=view, style=style))


def evaluate(games: list[tuple[str, tuple[str, ...], list[Case]]], variant: str,
             geometry: bool, verbose: bool) -> Tally:
    """Run every picture of every game under one variant, print the table, return the totals."""
    print(f"== variant: {variant}" + (" (geometry only)" if geometry else ""))
    print(f"{'game':<12}{'photos':>7}{'recall':>9}{'precision':>11}{'labels':>9}{'ms':>8}")
    total, times = Tally(), []
    for name, colours, cases in games:
        tally, game_times = Tally(), []
        if uses_purple(variant):  # the set's white symbols are recoloured: read the default set
            colours = tuple("purple" if c == "white" else c for c in colours)
        for number, (label, picture) in enumerate(cases):
            truth, image, *either = picture()
            image = degrade(image, variant, seed=number)
            if uses_purple(variant):
                truth = as_purple(truth)
            start = time.perf_counter()
            found = _scan(image, colours, geometry)
            game_times.append((time.perf_counter() - start) * 1000)
            counts = tally.add(truth, found, *either)
            total.add(truth, found, *either)
            if verbose and (counts["matched"] < max(counts["truth"], counts["found"])
                            or counts["correct"] < counts["labelled"]):
                print(f"  {label}: {counts}")
        times += game_times
        print(_row(name, len(game_times), tally, statistics.median(game_times), geometry))
    print(_row("all", len(times), total, statistics.median(times), geometry))
    if total.confusions:
        print("confusions (truth -> read: count): " + ", ".join(
            f"{a}->{b}: {n}" for (a, b), n in total.confusions.most_common(20)))
    return total


def _scan(image, colours, geometry: bool) -> dict:
    """Cell -> label (None in geometry mode) for one photo."""
    if geometry:
        return {(int(x), int(y)): None for x, y in locate_tiles(image).cells}
    return {(t.x, t.y): t.guess.tile for t in scan_image(image, colours=colours).tiles}


def _row(name: str, photos: int, tally: Tally, ms: float, geometry: bool) -> str:
    labels = "-" if geometry else f"{tally.accuracy:.2%}"
    return (f"{name:<12}{photos:>7}{tally.recall:>9.2%}{tally.precision:>11.2%}{labels:>9}"
            f"{ms:>8.0f}")


if __name__ == "__main__":
    sys.exit(main())
