"""Render whole tables: tiles on a lattice, seen through a perspective camera, lit and degraded.

The classifier is trained only on these pictures, so they must span what a living room
produces: overhead to ~45 degree oblique views (tile sides visible), webcam to phone scale,
beech, reddish or plain tables and printed boards with their own grid lines and "1"/"2" bonus
squares, lamp to daylight colour casts, half light with sensor noise, glare, blur and JPEG.

World frame: x right and y down along the lattice, in cells (tile (x, y) sits centred on the
integer point), z *into* the table, so the tile tops lie on the plane z = -thickness. The
camera is an ideal pinhole. `Render.homography` maps lattice cells on the tile-top plane to
pixels, which is exactly what a lattice fitted to a photo estimates, so crops warped with it
match the crops the runtime makes.

Replay and the web-app demo render whole games with this: pass the same `View` (with a
`target` and a `size`, else the camera follows the tiles) and the same `Style` (plain frozen
dataclasses) for every frame, and the table, light and camera stay put.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from engine.tiles import Tile, tile_kinds
from vision.synth.tiles import TileSet, random_tile_set, rounded_square, shape_polygons

Placed = tuple[int, int, Tile]
Cell = tuple[int, int]

MAX_SIDE = 4000
"""Largest picture side when the size is fitted to the layout."""

_SUBPIXEL_BITS = 4
_SUB = float(1 << _SUBPIXEL_BITS)


@dataclass(frozen=True)
class View:
    """Where the camera is. Angles in degrees; lengths in cells unless named _px."""

    elevation: float = 90.0
    """Angle of the line of sight above the table: 90 is straight down, 45 strongly oblique."""
    azimuth: float = 90.0
    """Direction (in the table plane, from the target) where the camera stands; 90 = +y side."""
    roll: float = 0.0
    """Turn of the picture about the line of sight."""
    distance: float = 25.0
    """Camera distance from the target; smaller means stronger perspective."""
    pitch_px: float = 60.0
    """Size of one cell of the tile tops at the target, in pixels."""
    target: tuple[float, float] | None = None
    """The lattice point the camera looks at; None = centre of the tiles."""
    size: tuple[int, int] | None = None
    """(width, height) of the picture; None = fitted around the tiles (with a margin)."""


@dataclass(frozen=True)
class Style:
    """How the table, the tiles, the light and the camera look."""

    table: str = "wood"
    """'wood', 'plain', 'board' (a printed 16x16 board in four pieces on a wooden table) or
    'cloth' (a checked tablecloth: ``table_bgr`` ground, ``cloth_ink`` stripes)."""
    table_bgr: tuple[int, int, int] = (150, 190, 228)
    texture_seed: int = 0
    """Seed of the table's texture, so every frame of one game shows the same table."""
    board_origin: tuple[int, int] = (0, 0)
    """Lattice cell of the board's top-left square (table 'board' only)."""
    tile_set: TileSet = field(default_factory=lambda: random_tile_set(np.random.default_rng(0), 0))
    tile_side: float = 0.95
    """Side of a tile's top face in cells (below 1: small gaps between touching tiles)."""
    thickness: float = 0.3
    nudge: float = 0.04
    """Largest offset of a tile from its lattice point, in cells."""
    twist: float = 3.0
    """Largest turn of a tile about its centre, degrees."""
    kelvin: float = 5500.0
    """Colour temperature of the light; the camera's white balance removes `white_balance` of it."""
    white_balance: float = 0.7
    tint: float = 0.0
    """Green (+) or magenta (-) cast left by the camera."""
    brightness: float = 1.0
    """Overall exposure: 0.5 is half the light (noisier), 1 a well-exposed photo."""
    noise: float = 2.0
    """Sensor noise standard deviation at full light, in grey levels."""
    blur: float = 0.0
    """Gaussian blur sigma in pixels (focus or motion)."""
    glare: int = 0
    """Number of glare spots."""
    jpeg_quality: int | None = 90
    plank_angle: float = 0.0
    """Degrees from the lattice's x axis to the planks of a 'wood' or 'board' table, or to the
    checks of a 'cloth': a board is seldom laid square to the floor."""
    seam_depth: float = 1.0
    """Brightness of the seams between planks (and their end joints) as a share of the wood's:
    1 none, 0.4 the dark gaps of a parquet or bamboo floor."""
    plank_width: float | None = None
    """Width of a plank in cells; None: 1.5-4, drawn with the texture (a floor's strips are
    0.5-1 cell)."""
    cloth_ink: tuple[int, int, int] = (40, 40, 200)
    """Colour (BGR) of a checked cloth's stripes; where two cross it is full, elsewhere half."""
    cloth_check: float = 1.5
    """Side of a checked cloth's checks, in cells."""


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: pixel = K (R world + t)."""

    K: np.ndarray
    R: np.ndarray
    t: np.ndarray

    @property
    def position(self) -> np.ndarray:
        return -self.R.T @ self.t

    def project(self, world: np.ndarray) -> np.ndarray:
        """Pixels (N, 2) of world points (N, 3)."""
        cam = world @ self.R.T + self.t
        px = cam @ self.K.T
        return px[:, :2] / px[:, 2:3]

    def plane_homography(self, z: float) -> np.ndarray:
        """Homography from (x, y) on the plane at height z to pixels."""
        m = np.column_stack([self.R[:, 0], self.R[:, 1], self.R[:, 2] * z + self.t])
        h = self.K @ m
        return h / h[2, 2]


@dataclass
class Render:
    """A rendered picture and its ground truth."""

    image: np.ndarray
    """BGR uint8."""
    homography: np.ndarray
    """Lattice cell (x, y) on the tile-top plane -> pixel (3x3)."""
    tiles: list[Placed]
    centers: dict[Cell, tuple[float, float]]
    """Pixel centre of each tile's top face as drawn (nudges included)."""
    camera: Camera
    view: View
    style: Style


# --------------------------------------------------------------------------- random settings


def random_view(rng: np.random.Generator, *, pitch_px: tuple[float, float] = (28, 95),
                elevation: tuple[float, float] = (42, 90)) -> View:
    """A camera anywhere from overhead to ~45 degrees, at webcam to phone scale.

    Two in five views are (nearly) overhead: that is how a scorekeeping webcam is mounted.
    """
    elev = 90 - abs(rng.normal(0, 6)) if rng.random() < 0.4 else rng.uniform(*elevation)
    return View(
        elevation=float(np.clip(elev, *elevation)),
        azimuth=float(rng.uniform(0, 360)),
        roll=float(rng.uniform(-180, 180) if rng.random() < 0.3 else rng.normal(0, 8)),
        distance=float(rng.uniform(10, 35)),
        pitch_px=float(np.exp(rng.uniform(*np.log(pitch_px)))),
    )


def oblique_view(rng: np.random.Generator, placed: Sequence[Placed], thickness: float, *,
                 from_vertical: tuple[float, float] = (30, 60),
                 long_side: tuple[int, int] = (600, 1600)) -> View:
    """A phone on a holder beside the table: 30-60 degrees from vertical, the tiles' sides in
    view, the picture 600-1600 px on its long side (the tiles framed with the usual margin).

    The pitch is chosen so that the fitted picture gets the drawn long side: the frame grows
    in proportion to the pitch, so one projection without drawing tells the factor.
    """
    view = View(elevation=90.0 - float(rng.uniform(*from_vertical)),
                azimuth=float(rng.uniform(0, 360)), roll=float(rng.normal(0, 5)),
                distance=float(rng.uniform(8, 20)), pitch_px=50.0)
    cells = np.array([(x, y) for x, y, _ in placed], float).reshape(-1, 2)
    centre = tuple(cells.mean(0))
    lo, hi = cells.min(0) - 0.6, cells.max(0) + 0.6
    box = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                    for z in (0.0, -thickness)])
    while True:
        camera, size = _fit_frame(make_camera(view, centre, thickness), view,
                                  np.vstack([[*centre, -thickness], box]))
        if lens_angle(camera, size) <= WIDEST_LENS:
            break
        view = replace(view, distance=view.distance * 1.1)
    want = float(rng.uniform(*long_side))
    return replace(view, pitch_px=view.pitch_px * want / max(size))


WIDEST_LENS = 120.0
"""Widest diagonal field of view (degrees) a phone's camera takes: its ultra-wide lens (13 mm
equivalent; a main lens takes about 80). A view drawn closer than that allows is moved back
along its line of sight until its picture fits such a lens: drawn 8 cells from a sprawling
board, 60 degrees from vertical, a picture needed 177 degrees and showed the tiles 7-10 px
tall in a corner of 1550 x 3107 px of bare table, a picture no lens takes."""


def lens_angle(camera: Camera, size: tuple[int, int]) -> float:
    """The diagonal field of view (degrees) a lens needs to take a picture of ``size`` from
    ``camera``: twice the angle between the line of sight and the farthest corner's ray (a
    picture fitted round tiles is a crop whose centre need not be the line of sight's)."""
    w, h = size
    corners = np.array([[0, 0], [w, 0], [0, h], [w, h]], float) - camera.K[:2, 2]
    return float(2 * np.degrees(np.arctan(np.linalg.norm(corners, axis=1).max()
                                          / camera.K[0, 0])))


_WOODS = [(150, 190, 228), (120, 165, 215), (70, 95, 150), (60, 80, 130), (45, 70, 110),
          (110, 150, 190)]
_PLAINS = [(235, 235, 235), (200, 205, 210), (80, 80, 80), (60, 110, 60), (150, 110, 70),
           (70, 70, 160), (180, 200, 215), (40, 40, 45)]


def random_style(rng: np.random.Generator, *, tile_set: TileSet | None = None) -> Style:
    """A random table, set, light and camera quality, spanning the conditions of a living room."""
    table = str(rng.choice(["wood", "plain", "board"], p=[0.4, 0.25, 0.35]))
    base = _PLAINS if table == "plain" else _WOODS
    colour = np.array(base[int(rng.integers(len(base)))], float) * rng.uniform(0.85, 1.1, 3)
    dim = rng.random() < 0.3
    b, g, r = (int(c) for c in np.clip(colour, 0, 255))
    return Style(
        table=table,
        table_bgr=(b, g, r),
        texture_seed=int(rng.integers(1 << 30)),
        board_origin=(int(rng.integers(-12, 1)), int(rng.integers(-12, 1))),
        tile_set=tile_set or random_tile_set(rng),
        tile_side=float(rng.uniform(0.88, 0.985)),
        thickness=float(rng.uniform(0.22, 0.36)),
        nudge=float(rng.uniform(0.0, 0.08)),
        twist=float(rng.uniform(0.0, 5.0)),
        kelvin=float(rng.uniform(2500, 7500)),
        white_balance=float(rng.uniform(0.0, 0.9)),
        tint=float(rng.normal(0, 0.04)),
        brightness=float(rng.uniform(0.4, 0.7) if dim else rng.uniform(0.75, 1.15)),
        noise=float(rng.uniform(1.0, 6.0) if dim else rng.uniform(0.5, 3.0)),
        blur=float(rng.choice([0.0, rng.uniform(0.3, 1.6)], p=[0.4, 0.6])),
        glare=int(rng.choice([0, 1, 2, 4], p=[0.45, 0.25, 0.2, 0.1])),
        jpeg_quality=int(rng.choice([rng.integers(25, 60), rng.integers(60, 96)])),
    )


def random_layout(rng: np.random.Generator, count: int, colours: Sequence[str]) -> list[Placed]:
    """A connected board of `count` random tiles grown by short lines, like a game's board.

    The tiles are random kinds, not a legal game: the classifier must not learn neighbours.
    """
    kinds = tile_kinds(tuple(colours))
    cells: dict[Cell, Tile] = {}
    x = y = 0
    while len(cells) < count:
        if cells:
            x, y = list(cells)[int(rng.integers(len(cells)))]
        dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][int(rng.integers(4))]
        for _ in range(int(rng.integers(1, 6))):
            if len(cells) >= count:
                break
            cells.setdefault((x, y), kinds[int(rng.integers(len(kinds)))])
            x, y = x + dx, y + dy
    return [(cx, cy, t) for (cx, cy), t in sorted(cells.items())]


# --------------------------------------------------------------------------- camera


def make_camera(view: View, centre: tuple[float, float], thickness: float) -> Camera:
    """Camera looking at `centre` on the tile-top plane, from `view`'s direction and distance."""
    el, az, roll = np.radians([view.elevation, view.azimuth, view.roll])
    target = np.array([centre[0], centre[1], -thickness])
    ground = np.array([np.cos(az), np.sin(az), 0.0])
    to_cam = np.cos(el) * ground + np.array([0, 0, -np.sin(el)])
    position = target + view.distance * to_cam
    forward = -to_cam
    down = ground - forward * (ground @ forward)
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    c, s = np.cos(roll), np.sin(roll)
    right, down = c * right + s * down, -s * right + c * down
    R = np.stack([right, down, forward])
    f = view.pitch_px * view.distance
    K = np.array([[f, 0, 0], [0, f, 0], [0, 0, 1.0]])
    return Camera(K=K, R=R, t=-R @ position)


def _fit_frame(camera: Camera, view: View, points: np.ndarray) -> tuple[Camera, tuple[int, int]]:
    """Put the principal point so that `points` fit in the picture (or centre it, given a size)."""
    if view.size is not None:
        w, h = view.size
        px = camera.project(points[:1])[0]
        offset = np.array([w / 2, h / 2]) - px
    else:
        px = camera.project(points)
        margin = 2.0 * view.pitch_px
        lo, hi = px.min(0) - margin, px.max(0) + margin
        w, h = (int(min(MAX_SIDE, np.ceil(v))) for v in hi - lo)
        offset = -lo
    K = camera.K.copy()
    K[0, 2] += offset[0]
    K[1, 2] += offset[1]
    return replace(camera, K=K), (w, h)


# --------------------------------------------------------------------------- table


def _noise(rng: np.random.Generator, shape: tuple[int, int], cells: float) -> np.ndarray:
    """Smooth noise in [-1, 1]: random values on a coarse grid, upsampled with cubic filtering."""
    h, w = shape
    gh, gw = max(2, int(h / cells)), max(2, int(w / cells))
    coarse = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)


def _wood(rng: np.random.Generator, shape: tuple[int, int], ppc: float, bgr,
          style: Style) -> np.ndarray:
    """Planks along ``style.plank_angle`` with grain lines bent by smooth noise, and dark seams
    between them where ``style.seam_depth`` is below 1."""
    h, w = shape
    yy: np.ndarray  # across the planks, in cells
    if style.plank_angle:
        turn = np.radians(style.plank_angle)
        yy = ((np.arange(h, dtype=np.float32)[:, None] * np.float32(np.cos(turn))
               - np.arange(w, dtype=np.float32)[None, :] * np.float32(np.sin(turn))) / ppc)
    else:
        yy = np.arange(h, dtype=np.float32)[:, None] / ppc
    plank_w = rng.uniform(1.5, 4.0)  # drawn whatever the style, so the rest stays the same
    plank_w = plank_w if style.plank_width is None else style.plank_width
    across = yy / plank_w + rng.uniform(0, 1)
    plank = np.floor(across)
    shade = 1 + 0.08 * np.sin(plank * 12.9898 + rng.uniform(0, 6))
    bend = _noise(rng, shape, 6 * ppc) * 2.5 + _noise(rng, shape, 1.5 * ppc) * 0.4
    grain = np.sin((yy * rng.uniform(3, 7) + bend) * 2 * np.pi)
    value = shade * (1 + 0.05 * grain + 0.04 * _noise(rng, shape, 0.4 * ppc))
    if style.seam_depth < 1:
        value = value * _seams(rng, across, plank_w, ppc, style, shape)
    return value[..., None] * np.array(bgr, np.float32)


def _seams(rng: np.random.Generator, across: np.ndarray, plank_w: float, ppc: float,
           style: Style, shape: tuple[int, int]) -> np.ndarray:
    """The brightness factor of a floor's seams: a gap of 0.03-0.08 cell between planks
    (``across``: position across them, in planks), and end joints every 6-15 cells along
    each, staggered from plank to plank."""
    h, w = shape
    gap = rng.uniform(0.03, 0.08) / plank_w  # in planks
    joint_every = rng.uniform(6.0, 15.0)
    turn = np.radians(style.plank_angle)
    along = ((np.arange(w, dtype=np.float32)[None, :] * np.float32(np.cos(turn))
              + np.arange(h, dtype=np.float32)[:, None] * np.float32(np.sin(turn))) / ppc)
    plank = np.floor(across)
    joint = (along / joint_every + plank * 0.37) % 1.0 < gap * plank_w / joint_every
    seam = (across - plank < gap) | joint
    return np.where(seam, np.float32(style.seam_depth), np.float32(1.0))


def _gingham(rng: np.random.Generator, shape: tuple[int, int], ppc: float,
             style: Style) -> np.ndarray:
    """A checked cloth (gingham): stripes of ``cloth_ink`` both ways over the ground colour,
    at ``plank_angle`` to the lattice; with a slight shading, as cloth lies unevenly."""
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32) / (ppc * style.cloth_check)
    turn = np.radians(style.plank_angle)
    along = np.floor(xx * np.cos(turn) + yy * np.sin(turn)) % 2
    across = np.floor(yy * np.cos(turn) - xx * np.sin(turn)) % 2
    ink = (0.5 * (along + across))[..., None]
    ground, stripes = np.array(style.table_bgr, np.float32), np.array(style.cloth_ink, np.float32)
    shade = 1 + 0.03 * _noise(rng, shape, 4 * ppc)
    return (ground * (1 - ink) + stripes * ink) * shade[..., None]


def _plain(rng: np.random.Generator, shape: tuple[int, int], ppc: float, bgr) -> np.ndarray:
    value = 1 + 0.04 * _noise(rng, shape, 4 * ppc) + 0.02 * _noise(rng, shape, 0.3 * ppc)
    return value[..., None] * np.array(bgr, np.float32)


_BOARD_PAPER = np.array((222, 240, 228), np.float32)
_BOARD_LINE = (60, 160, 40)
_BONUS_FRAME = (40, 140, 245)
_BONUS_TEXT = (50, 40, 220)


def _draw_board(rng: np.random.Generator, tex: np.ndarray, to_tex: np.ndarray,
                origin: tuple[int, int]) -> None:
    """A printed 16x16 board in four 8x8 pieces, each slightly shifted, onto the texture.

    Squares are centred on lattice points; ~1 in 8 squares is a bonus square with an orange
    frame and a red "1" or "2" at a random angle; faint decorations sit under the grid.
    """
    def pt(x: float, y: float) -> tuple[int, int]:
        p = to_tex @ np.array([x, y, 1.0])
        return int(round(p[0] * _SUB)), int(round(p[1] * _SUB))

    ppc = to_tex[0, 0]
    line = max(1, int(round(0.035 * ppc)))
    for qx in (0, 8):
        for qy in (0, 8):
            sx, sy = rng.uniform(-0.12, 0.12, 2)
            x0, y0 = origin[0] + qx - 0.5 + sx, origin[1] + qy - 0.5 + sy
            paper = tuple(float(c) for c in _BOARD_PAPER * rng.uniform(0.96, 1.02))
            cv2.rectangle(tex, pt(x0, y0), pt(x0 + 8, y0 + 8), paper, -1, cv2.LINE_AA,
                          _SUBPIXEL_BITS)
            for _ in range(3):
                c = pt(x0 + rng.uniform(1, 7), y0 + rng.uniform(1, 7))
                r = int(rng.uniform(0.6, 1.5) * ppc * _SUB)
                faint = tuple(float(v) for v in np.array(paper) * (0.92, 0.97, 0.92))
                cv2.circle(tex, c, r, faint, -1, cv2.LINE_AA, _SUBPIXEL_BITS)
            for i in range(9):
                width = 2 * line if i in (0, 8) else line
                cv2.line(tex, pt(x0 + i, y0), pt(x0 + i, y0 + 8), _BOARD_LINE, width,
                         cv2.LINE_AA, _SUBPIXEL_BITS)
                cv2.line(tex, pt(x0, y0 + i), pt(x0 + 8, y0 + i), _BOARD_LINE, width,
                         cv2.LINE_AA, _SUBPIXEL_BITS)
            for cx in range(8):
                for cy in range(8):
                    if rng.random() < 0.12:
                        _bonus(rng, tex, pt, x0 + cx + 0.5, y0 + cy + 0.5, ppc)


def _bonus(rng, tex, pt, cx: float, cy: float, ppc: float) -> None:
    h = 0.4
    frame = max(1, int(round(0.07 * ppc)))
    cv2.rectangle(tex, pt(cx - h, cy - h), pt(cx + h, cy + h), (245, 245, 248), -1,
                  cv2.LINE_AA, _SUBPIXEL_BITS)
    cv2.rectangle(tex, pt(cx - h, cy - h), pt(cx + h, cy + h), _BONUS_FRAME, frame,
                  cv2.LINE_AA, _SUBPIXEL_BITS)
    size = max(8, int(0.6 * ppc))
    glyph = np.zeros((size, size), np.uint8)
    text = str(rng.choice(["1", "2"]))
    scale = size / 30
    cv2.putText(glyph, text, (int(size * 0.25), int(size * 0.82)), cv2.FONT_HERSHEY_SIMPLEX,
                scale, 255, max(1, int(size / 9)), cv2.LINE_AA)
    rot = cv2.getRotationMatrix2D((size / 2, size / 2), float(rng.choice([0, 45, -45, 90, 180])), 1)
    glyph = cv2.warpAffine(glyph, rot, (size, size))
    x, y = (int(v / _SUB - size / 2) for v in pt(cx, cy))
    if x < 0 or y < 0 or y + size > tex.shape[0] or x + size > tex.shape[1]:
        return
    alpha = glyph[..., None].astype(np.float32) / 255
    roi = tex[y:y + size, x:x + size]
    roi[:] = (roi * (1 - alpha) + alpha * np.array(_BONUS_TEXT, np.float32)).astype(np.uint8)


_LAST_TABLE: dict[tuple, np.ndarray] = {}
"""The last table drawn: every position of a game shows the same one, and drawing it is
half the cost of a board (the demo renders one per move while it runs)."""


def _table(style: Style, camera: Camera, size: tuple[int, int], pitch_px: float,
           centre: tuple[float, float]) -> np.ndarray:
    """The table (and board) as seen by the camera, BGR uint8, unlit: a copy to draw on."""
    key = (style.table, style.table_bgr, style.texture_seed, style.board_origin,
           style.plank_angle, style.seam_depth, style.plank_width, style.cloth_ink,
           style.cloth_check,
           camera.K.tobytes(), camera.R.tobytes(), camera.t.tobytes(), size, pitch_px, centre)
    table = _LAST_TABLE.get(key)
    if table is None:
        table = _draw_table(style, camera, size, pitch_px, centre)
        _LAST_TABLE.clear()
        _LAST_TABLE[key] = table
    return table.copy()


def _draw_table(style: Style, camera: Camera, size: tuple[int, int], pitch_px: float,
                centre: tuple[float, float]) -> np.ndarray:
    """Drawing happens on 8-bit images because OpenCV anti-aliases only those."""
    w, h = size
    rng = np.random.default_rng(style.texture_seed)
    to_img = camera.plane_homography(0.0)
    # The table area the picture shows, at most `lim` cells round the centre: a corner above
    # the horizon (its ray never meets the table) stands for the whole limit.
    lim, mid = 40.0, np.array(centre, float)
    to_table = np.linalg.inv(to_img)
    centre_px = to_img @ np.array([*centre, 1.0])
    front = np.sign((to_table @ (centre_px / centre_px[2]))[2])
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], float)
    world = corners @ to_table.T
    if (world[:, 2] * front > 1e-9).all():
        pts = np.clip(world[:, :2] / world[:, 2:3], mid - lim, mid + lim)
    else:
        pts = np.array([mid - lim, mid + lim])
    lo, hi = np.floor(pts.min(0)) - 1, np.ceil(pts.max(0)) + 1
    extent = hi - lo
    ppc = float(min(pitch_px, 24.0 if style.table != "board" else 40.0, 2400 / extent.max()))
    th, tw = (int(np.ceil(extent[1] * ppc)), int(np.ceil(extent[0] * ppc)))
    tex = (_plain(rng, (th, tw), ppc, style.table_bgr) if style.table == "plain"
           else _gingham(rng, (th, tw), ppc, style) if style.table == "cloth"
           else _wood(rng, (th, tw), ppc, style.table_bgr, style))
    tex = np.clip(tex, 0, 255).astype(np.uint8)
    to_tex = np.array([[ppc, 0, -lo[0] * ppc], [0, ppc, -lo[1] * ppc], [0, 0, 1]])
    if style.table == "board":
        _draw_board(rng, tex, to_tex, style.board_origin)
    m = to_img @ np.linalg.inv(to_tex)
    wall = tuple(0.5 * c for c in style.table_bgr)  # beyond the table: a dim background
    return cv2.warpPerspective(tex, m, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=wall)


# --------------------------------------------------------------------------- tiles


@dataclass
class _Pose:
    x: float
    y: float
    angle: float
    tile: Tile
    cell: Cell


def _outline(pose: _Pose, face: np.ndarray, z: float) -> np.ndarray:
    c, s = np.cos(pose.angle), np.sin(pose.angle)
    x = pose.x + c * face[:, 0] - s * face[:, 1]
    y = pose.y + s * face[:, 0] + c * face[:, 1]
    return np.column_stack([x, y, np.full(len(face), z)])


def _fill(img: np.ndarray, px: np.ndarray, colour) -> None:
    cv2.fillPoly(img, [np.round(px * _SUB).astype(np.int32)], colour, cv2.LINE_AA,
                 _SUBPIXEL_BITS)


_LIGHT_DIR = np.array([-0.5, -0.7, -0.5]) / np.linalg.norm([-0.5, -0.7, -0.5])


def _draw_tile(img: np.ndarray, camera: Camera, style: Style, pose: _Pose,
               body_face: np.ndarray, rng: np.random.Generator) -> None:
    """One tile: visible side faces, the top face with a lighter rim, then the symbol."""
    top_z, side = -style.thickness, style.tile_side
    top = _outline(pose, body_face, top_z)
    bottom = _outline(pose, body_face, 0.0)
    top_px, bottom_px = camera.project(top), camera.project(bottom)
    body = np.array(style.tile_set.body, float) * rng.uniform(0.85, 1.15)
    eye = camera.position
    n = len(body_face)
    for i in range(n):
        j = (i + 1) % n
        edge = top[j] - top[i]
        normal = np.array([edge[1], -edge[0], 0.0])
        normal /= np.linalg.norm(normal) + 1e-9
        mid = (top[i] + bottom[j]) / 2
        if normal @ (eye - mid) <= 0:
            continue
        shade = 0.55 + 0.45 * max(0.0, -(normal @ _LIGHT_DIR))
        quad = np.array([top_px[i], top_px[j], bottom_px[j], bottom_px[i]])
        _fill(img, quad, tuple(body * shade))
    _fill(img, top_px, tuple(body))
    rim = tuple(np.minimum(body * 1.6 + 12, 255))
    cv2.polylines(img, [np.round(top_px * _SUB).astype(np.int32)], True, rim,
                  1, cv2.LINE_AA, _SUBPIXEL_BITS)
    colour = np.array(style.tile_set.bgr(pose.tile.colour), float) * rng.uniform(0.95, 1.05)
    tile_set = style.tile_set
    for poly in shape_polygons(pose.tile.shape, side, points=tile_set.star_points,
                               weight=tile_set.weight):
        _fill(img, camera.project(_outline(pose, poly, top_z)), tuple(np.minimum(colour, 255)))


def _shadows(img: np.ndarray, camera: Camera, poses: list[_Pose], body_face: np.ndarray,
             pitch_px: float) -> None:
    """Soft contact shadows of the tiles on the table, offset away from the light."""
    mask = np.zeros(img.shape[:2], np.float32)
    shift = -_LIGHT_DIR[:2] * 0.12
    for pose in poses:
        moved = _Pose(pose.x + shift[0], pose.y + shift[1], pose.angle, pose.tile, pose.cell)
        _fill(mask, camera.project(_outline(moved, body_face * 1.05, 0.0)), 1.0)
    sigma = max(1.0, 0.12 * pitch_px)
    mask = cv2.GaussianBlur(mask, (0, 0), sigma)
    img[:] = (img * (1 - 0.45 * mask)[..., None]).astype(np.uint8)


# --------------------------------------------------------------------------- light and camera


def _kelvin_gain(kelvin: float) -> np.ndarray:
    """BGR gains of a light of this colour temperature relative to daylight (6500 K).

    From a coarse table of black-body colours; linear interpolation is plenty for augmentation.
    """
    ks = [2000, 2700, 3500, 4500, 5500, 6500, 8000]
    table = np.array([[0.18, 0.54, 1.0], [0.33, 0.66, 1.0], [0.52, 0.77, 1.0],
                      [0.72, 0.88, 1.0], [0.88, 0.95, 1.0], [1.0, 1.0, 1.0],
                      [1.0, 0.92, 0.84]])
    gain = np.array([np.interp(kelvin, ks, table[:, c]) for c in range(3)])
    return gain / gain.mean()


def light_gain(style: Style) -> np.ndarray:
    """The BGR gain the light and the camera's partial white balance leave on the picture."""
    gain = _kelvin_gain(style.kelvin) ** (1 - style.white_balance)
    gain = gain * np.array([1.0, 1.0 + style.tint, 1.0])
    return gain / gain.mean()


def _glare(img: np.ndarray, rng: np.random.Generator, spots: int, centres: list,
           pitch_px: float) -> None:
    h, w = img.shape[:2]
    for _ in range(spots):
        if centres and rng.random() < 0.8:
            u, v = centres[int(rng.integers(len(centres)))]
            u, v = u + rng.normal(0, 0.4) * pitch_px, v + rng.normal(0, 0.4) * pitch_px
        else:
            u, v = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = pitch_px * rng.uniform(0.15, 1.5, 2)
        x0, x1 = int(max(0, u - 3 * sx)), int(min(w, u + 3 * sx))
        y0, y1 = int(max(0, v - 3 * sy)), int(min(h, v + 3 * sy))
        if x1 <= x0 or y1 <= y0:
            continue
        xx = (np.arange(x0, x1) - u) / sx
        yy = (np.arange(y0, y1) - v) / sy
        blob = np.exp(-0.5 * (yy[:, None] ** 2 + xx[None, :] ** 2))
        img[y0:y1, x0:x1] += (blob * rng.uniform(60, 230))[..., None]


def _camera_effects(img: np.ndarray, style: Style, rng: np.random.Generator) -> np.ndarray:
    if style.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), style.blur)
    sigma = style.noise / max(style.brightness, 0.3) ** 0.5
    if sigma > 0:
        # OpenCV's generator is several times faster than numpy's; seeding it from `rng`
        # keeps renders reproducible.
        cv2.setRNGSeed(int(rng.integers(1 << 31)))
        grain = np.empty(img.shape[:2], np.float32)
        cv2.randn(grain, 0.0, sigma)
        colour_grain = np.empty(img.shape, np.float32)
        cv2.randn(colour_grain, (0.0, 0.0, 0.0), (sigma * 0.5,) * 3)
        img += grain[..., None]
        img += colour_grain
    out = np.clip(img, 0, 255).astype(np.uint8)
    if style.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(style.jpeg_quality)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


# --------------------------------------------------------------------------- the scene


def render_board(placed: Sequence[Placed], rng: np.random.Generator, *,
                 view: View | None = None, style: Style | None = None) -> Render:
    """Render tiles at their lattice cells on a table; random view and style when not given.

    The same `view` and `style` give the same camera, table and tile set on every call, so
    consecutive frames of a game line up; `rng` only drives per-frame variation (tile nudges,
    glare positions, noise). Raises ValueError for an impossible view.
    """
    view = view or random_view(rng)
    style = style or random_style(rng)
    if not 5 <= view.elevation <= 90:
        raise ValueError(f"elevation must be between 5 and 90 degrees, not {view.elevation}")
    if view.pitch_px <= 0 or view.distance <= 1:
        raise ValueError("pitch_px must be positive and distance above 1 cell")
    cells = np.array([(x, y) for x, y, _ in placed], float).reshape(-1, 2)
    centre = view.target or (tuple(cells.mean(0)) if len(cells) else (0.0, 0.0))
    camera = make_camera(view, centre, style.thickness)
    extent_pts = cells if len(cells) else np.array([centre])
    lo, hi = extent_pts.min(0) - 0.6, extent_pts.max(0) + 0.6
    box = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                    for z in (0.0, -style.thickness)])
    camera, size = _fit_frame(camera, view, np.vstack([[*centre, -style.thickness], box]))

    img = _table(style, camera, size, view.pitch_px, centre)
    nudges = rng.uniform(-style.nudge, style.nudge, (len(placed), 2))
    twists = np.radians(rng.uniform(-style.twist, style.twist, len(placed)))
    poses = [_Pose(x + n[0], y + n[1], a, tile, (x, y))
             for (x, y, tile), n, a in zip(placed, nudges, twists, strict=True)]
    body_face = rounded_square(style.tile_side, 0.09 * style.tile_side)
    _shadows(img, camera, poses, body_face, view.pitch_px)
    eye = camera.position
    poses.sort(key=lambda p: -np.hypot(p.x - eye[0], p.y - eye[1]))
    for pose in poses:
        _draw_tile(img, camera, style, pose, body_face, rng)

    centers: dict[Cell, tuple[float, float]] = {}
    for p in poses:
        u, v = camera.project(np.array([[p.x, p.y, -style.thickness]]))[0]
        centers[p.cell] = (float(u), float(v))
    img = img.astype(np.float32)
    h, w = img.shape[:2]
    # Uneven light belongs to the room, so it comes from the style's seed, not the frame's rng.
    room = np.random.default_rng(style.texture_seed + 1)
    ramp = (1 + 0.25 * _noise(room, (h, w), max(w, h) / 2.5)) * style.brightness
    img *= ramp[..., None]
    img *= light_gain(style).astype(np.float32)
    _glare(img, rng, style.glare, list(centers.values()), view.pitch_px)
    image = _camera_effects(img, style, rng)
    return Render(image=image, homography=camera.plane_homography(-style.thickness),
                  tiles=[(x, y, t) for x, y, t in placed], centers=centers, camera=camera,
                  view=view, style=style)
