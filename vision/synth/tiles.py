"""Tile faces for the renderer: symbol outlines and the colours of a set.

Every outline is a list of polygons in *face units*: the tile's top face is the square
[-0.5, 0.5]^2 scaled by the tile side, x right, y down. Polygons (rather than bitmaps) let the
scene renderer project them through any camera and fill them with anti-aliasing at whatever
size the tile has in the picture, so a 30-px webcam tile and a 90-px phone tile are equally sharp.

The proportions were measured on the real set in ../shared/data/real/crops: the 4-point "cross"
points at the corners of the tile, the 4-lobed "clover" lies along the axes, the square is
axis-aligned and the diamond is a square turned 45 degrees.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.tiles import ALL_COLOURS, SHAPES

Polygon = np.ndarray
"""An (N, 2) float array of points in face units."""

TILE_BGR_RANGE = (14, 52)
"""Grey level range of the black tile bodies (their paint is never fully black)."""


def _circle(cx: float, cy: float, r: float, n: int = 40) -> Polygon:
    t = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


def _star(points: int, outer: float, inner: float, phase: float) -> Polygon:
    """A straight-edged star; `phase` is the angle of the first point."""
    t = phase + np.arange(2 * points) * np.pi / points
    r = np.where(np.arange(2 * points) % 2 == 0, outer, inner)
    return np.stack([r * np.cos(t), r * np.sin(t)], axis=1)


def _cross(tip: float, waist: float, n: int = 10) -> list[Polygon]:
    """The 4-point star: tips on the diagonals, sides bowed inwards through `waist` on the axes.

    Each side is a quadratic Bezier curve from one tip to the next whose middle passes
    through the waist point, which gives the concave sides of the real tiles.
    """
    tips = [np.array([np.cos(a), np.sin(a)]) * tip for a in np.pi / 4 + np.arange(4) * np.pi / 2]
    pts = []
    s = np.linspace(0.0, 1.0, n, endpoint=False)[:, None]
    for k in range(4):
        a, b = tips[k], tips[(k + 1) % 4]
        mid_dir = (a + b) / np.linalg.norm(a + b)
        control = 2.0 * waist * mid_dir - 0.5 * (a + b)
        pts.append((1 - s) ** 2 * a + 2 * (1 - s) * s * control + s**2 * b)
    return [np.concatenate(pts)]


def shape_polygons(shape: str, scale: float = 1.0, *, points: int = 8,
                   weight: float = 1.0) -> list[Polygon]:
    """The outline of `shape` on a tile of side 1 (before `scale`), as polygons to fill.

    The defaults draw the standard set. Other editions and home-made sets differ: `points`
    is the starburst's number of points (6 on some sets), `weight` thickens (above 1) or thins
    the strokes: the star's and cross's waists and the clover's lobes.
    """
    if shape == "circle":
        polys = [_circle(0, 0, 0.41)]
    elif shape == "square":
        h = 0.32
        polys = [np.array([[-h, -h], [h, -h], [h, h], [-h, h]])]
    elif shape == "diamond":
        h = 0.43
        polys = [np.array([[0, -h], [h, 0], [0, h], [-h, 0]])]
    elif shape == "clover":
        lobe, off = 0.185 * weight, 0.25
        polys = [_circle(dx * off, dy * off, lobe, 28)
                 for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))]
        polys.append(_circle(0, 0, 0.2, 24))
    elif shape == "cross":
        polys = _cross(0.54, 0.22 * weight)
    elif shape == "star":
        polys = [_star(points, 0.43, 0.2 * weight, -np.pi / 2)]
    else:
        raise ValueError(f"unknown shape {shape!r}; expected one of {SHAPES}")
    return [p * scale for p in polys]


def rounded_square(side: float, radius: float, per_corner: int = 5) -> Polygon:
    """The outline of a tile body: a square of `side` with rounded corners, clockwise on screen."""
    h = side / 2 - radius
    pts = []
    for k, (cx, cy) in enumerate(((h, h), (-h, h), (-h, -h), (h, -h))):
        start = k * np.pi / 2
        t = start + np.linspace(0, np.pi / 2, per_corner)
        pts.append(np.stack([cx + radius * np.cos(t), cy + radius * np.sin(t)], axis=1))
    return np.concatenate(pts)


# Base symbol colours in HSV (OpenCV ranges: H 0-179, S and V 0-255). The "real" values were
# measured on the photographed set; the others follow the usual printed Qwirkle colours.
_BASE_HSV: dict[str, list[tuple[float, float, float]]] = {
    "red": [(176, 183, 205), (178, 215, 215), (1, 220, 205)],
    "orange": [(7, 185, 205), (10, 220, 240), (12, 210, 235)],
    "yellow": [(28, 225, 190), (26, 220, 230), (24, 200, 240)],
    "green": [(68, 238, 115), (62, 200, 150), (72, 170, 140)],
    "blue": [(103, 245, 188), (106, 220, 190), (100, 200, 210)],
    "purple": [(140, 150, 140), (145, 120, 150), (135, 170, 120)],
    "white": [(102, 22, 240), (20, 15, 235), (0, 5, 245)],
}


# Older printings and home-made sets (HSV as above): a lime-ish yellow, a teal green, a sky
# blue and a lavender purple, as issue 13 saw on photos of other editions.
PALETTES: dict[str, dict[str, tuple[float, float, float]]] = {
    "older": {"yellow": (36, 215, 225), "green": (84, 210, 150), "blue": (97, 150, 235),
              "purple": (138, 85, 215)},
}


@dataclass(frozen=True)
class TileSet:
    """The look of one physical set: body grey, the BGR colour of each symbol colour, and the
    drawing of its symbols (see :func:`shape_polygons`)."""

    body: tuple[int, int, int]
    symbol: dict[str, tuple[int, int, int]]
    star_points: int = 8
    weight: float = 1.0

    def bgr(self, colour: str) -> tuple[int, int, int]:
        return self.symbol[colour]


def _hsv_to_bgr(h: float, s: float, v: float) -> tuple[int, int, int]:
    px = np.array([[[round(h) % 180, np.clip(s, 0, 255), np.clip(v, 0, 255)]]], np.uint8)
    b, g, r = (int(c) for c in cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0])
    return b, g, r


def random_tile_set(rng: np.random.Generator, jitter: float = 1.0) -> TileSet:
    """A plausible set: one of the base tones per colour, nudged in hue, saturation and value.

    Every colour of ALL_COLOURS gets a value, so a scene may use purple or white as the
    sixth colour. `jitter` 0 gives the first base tone of each colour exactly.
    """
    symbol = {}
    for colour in ALL_COLOURS:
        tones = _BASE_HSV[colour]
        h, s, v = tones[int(rng.integers(len(tones)))] if jitter else tones[0]
        dh = 2.5 if colour in ("red", "orange", "yellow") else 5.0
        h += jitter * rng.uniform(-dh, dh)
        s *= 1 + jitter * rng.uniform(-0.12, 0.08)
        v *= 1 + jitter * rng.uniform(-0.12, 0.1)
        symbol[colour] = _hsv_to_bgr(h, s, v)
    grey = int(rng.integers(*TILE_BGR_RANGE)) if jitter else 30
    tint = rng.integers(-3, 4, size=3) if jitter else np.zeros(3, int)
    b, g, r = (int(np.clip(grey + t, 0, 255)) for t in tint)
    return TileSet(body=(b, g, r), symbol=symbol)


def edition(base: TileSet, palette: str = "older", *, star_points: int = 8,
            weight: float = 1.0) -> TileSet:
    """`base` recoloured with a named palette of :data:`PALETTES` (the colours it names) and
    drawn with other symbols: another edition or a home-made set."""
    symbol = {**base.symbol, **{c: _hsv_to_bgr(*hsv) for c, hsv in PALETTES[palette].items()}}
    return TileSet(body=base.body, symbol=symbol, star_points=star_points, weight=weight)


DRIFT: dict[str, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = {
    "red": ((-3, 3), (0.85, 1.05), (0.9, 1.15)),
    "orange": ((-3, 3), (0.85, 1.05), (0.9, 1.15)),
    "yellow": ((-2, 10), (0.8, 1.05), (0.9, 1.15)),
    "green": ((-4, 9), (0.75, 1.05), (0.9, 1.5)),
    "blue": ((-5, 4), (0.6, 1.05), (0.95, 1.25)),
    "purple": ((-8, 8), (0.5, 1.05), (0.9, 1.6)),
    "white": ((0, 0), (1.0, 1.0), (1.0, 1.0)),
}
"""How far a printing's colours drift from the standard set's: ranges of the hue shift (OpenCV
units, 2 degrees), and of the saturation and value factors, per colour. Wide enough to span the
older printing (lime yellow, teal green, sky blue, lavender purple) and home-made sets, narrow
enough that neighbours never swap: the greenest blue stays bluer than the bluest green."""

WEIGHTS = (0.8, 1.25)
"""Range of stroke weight of a varied set's symbols (see :func:`shape_polygons`)."""


def varied_tile_set(base: TileSet, rng: np.random.Generator) -> TileSet:
    """`base` as another printing or a home-made set might look: every colour drifted within
    :data:`DRIFT`, strokes thinner or thicker within :data:`WEIGHTS`, and half the time 6-point
    stars. The classifier's training data mixes such sets in, so that other editions read
    right without learning them first."""
    symbol = {}
    for colour, bgr in base.symbol.items():
        (h0, h1), (s0, s1), (v0, v1) = DRIFT[colour]
        h, s, v = cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0].astype(float)
        symbol[colour] = _hsv_to_bgr(h + rng.uniform(h0, h1), s * rng.uniform(s0, s1),
                                     v * rng.uniform(v0, v1))
    return TileSet(body=base.body, symbol=symbol, star_points=int(rng.choice([6, 8])),
                   weight=float(rng.uniform(*WEIGHTS)))
