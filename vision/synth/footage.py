"""Footage of whole games: photo sequences and 10-fps videos with hands, shake and changing light.

The move pipeline must be judged on what a camera over a real table delivers, not on clean
stills: arms reach in and cover tiles, some reaches place nothing, the camera shakes and
drifts, a lamp is switched on, tiles get nudged, and every frame carries sensor and JPEG noise.
This module turns a sequence of still positions (rendered from a simulated game with
:func:`vision.synth.scene.render_board`, or real photos) into such footage, deterministically
from a seed, so a failing clip can be replayed exactly.

Positions are rendered once each; the frames between them are composed in image space (an
arm drawn over the picture, the new position swapped in while the arm hides the tiles).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from engine.board import Placed
from engine.selfplay import simulate
from vision.synth.scene import Render, View, random_style, render_board

SKIN_BGR = ((150, 175, 225), (110, 140, 200), (70, 100, 160), (50, 70, 110))
"""Skin tones from light to dark, BGR."""


@dataclass(frozen=True)
class FootageStyle:
    """The timing and the disturbances of a clip; times in seconds."""

    fps: float = 10.0
    hold: float = 2.0
    """Time each position stays untouched before the next reach."""
    reach: float = 0.7
    """Time an arm takes to come in (and again to leave)."""
    dwell: float = 0.5
    """Time the hand spends over the table, never quite still."""
    empty_reach_every: int = 4
    """Every n-th move is preceded by a reach that places nothing (0: never)."""
    shake_px: float = 2.5
    """Camera shake amplitude while a hand is on the table."""
    drift_px: float = 4.0
    """Slow camera drift over the whole clip (pixels, peak)."""
    light_change_at: int | None = 3
    """Before this move a lamp changes the light over a second, for the rest of the clip."""
    noise: float = 2.5
    jpeg_quality: int = 80


CLIP_STYLE = FootageStyle()
DEMO_STYLE = FootageStyle(hold=3.0, reach=0.9, dwell=0.8, empty_reach_every=5)
"""The demo: slow enough for a person watching the score sheet to follow each move."""


@dataclass(frozen=True)
class GameScript:
    """The positions of a game (an empty table first) and the moves between them."""

    positions: list[list[Placed]]
    moves: list[tuple[tuple[Placed, ...], int]]


def game_script(players: int, seed: int, limit: int | None = None) -> GameScript:
    """The placements of a simulated game as cumulative positions (exchanges and passes skip)."""
    record = simulate(players, seed)
    positions: list[list[Placed]] = [[]]
    moves: list[tuple[tuple[Placed, ...], int]] = []
    for move in record.moves:
        if move.kind != "place":
            continue
        if limit is not None and len(moves) >= limit:
            break
        positions.append(positions[-1] + list(move.tiles))
        moves.append((tuple(move.tiles), move.score))
    return GameScript(positions, moves)


def game_camera(final: Sequence[Placed], rng: np.random.Generator,
                size: tuple[int, int] = (960, 720)) -> View:
    """A camera that keeps the whole final board in the picture, overhead to moderately oblique."""
    xs = [x for x, _, _ in final] or [0]
    ys = [y for _, y, _ in final] or [0]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) + 3
    elevation = float(rng.uniform(60, 90))
    pitch = 0.85 * min(size) / span * math.sin(math.radians(elevation))
    return View(elevation=elevation, azimuth=float(rng.uniform(0, 360)),
                roll=float(rng.normal(0, 5)), distance=float(rng.uniform(20, 35)),
                pitch_px=float(pitch),
                target=((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2), size=size)


class GameRenders(Sequence[Render]):
    """Every position of a game through one camera on one table, rendered when first asked for.

    Lazy so that the demo shows its first frame at once instead of after rendering a whole
    game. Each position draws every tile with its own random offset (up to the style's
    ``nudge``), so between two positions all old tiles move a little, as when the table is bumped.
    """

    def __init__(self, script: GameScript, seed: int, size: tuple[int, int] = (960, 720)) -> None:
        rng = np.random.default_rng(seed)
        self.script, self.seed = script, seed
        self.view = game_camera(script.positions[-1], rng, size)
        self.style = replace(random_style(rng), glare=0, blur=0.0, jpeg_quality=None,
                             table="wood", nudge=0.08, brightness=float(rng.uniform(0.8, 1.1)))
        self._cache: dict[int, Render] = {}

    def __len__(self) -> int:
        return len(self.script.positions)

    def __getitem__(self, k):  # int indices only
        if k not in self._cache:
            rng = np.random.default_rng((self.seed, k))
            self._cache[k] = render_board(self.script.positions[k], rng, view=self.view,
                                          style=self.style)
        return self._cache[k]

    def stills(self) -> Sequence[np.ndarray]:
        return _Images(self)

    def target(self, move: int) -> tuple[float, float]:
        """Where the hand goes for move ``move``: the pixel centre of the tiles it adds."""
        before, after = self[move].centers, self[move + 1].centers
        added = [after[c] for c in after if c not in before]
        return tuple(np.mean(added, axis=0)) if added else (0.0, 0.0)


class _Images(Sequence[np.ndarray]):
    def __init__(self, renders: GameRenders) -> None:
        self.renders = renders

    def __len__(self) -> int:
        return len(self.renders)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self.renders[i].image for i in range(*k.indices(len(self)))]
        return self.renders[k].image


# --------------------------------------------------------------------------- arms


def _arm_mask(shape: tuple[int, int], entry: np.ndarray, tip: np.ndarray,
              width: float) -> np.ndarray:
    """An arm from ``entry`` (on the frame edge) to ``tip``, ending in a hand with fingers."""
    h, w = shape
    mask = np.zeros((h, w), np.uint8)
    cv2.line(mask, tuple(int(v) for v in entry), tuple(int(v) for v in tip), 255,
             max(2, int(width)), cv2.LINE_AA)
    direction = (tip - entry) / (np.linalg.norm(tip - entry) + 1e-6)
    palm = tip + direction * width * 0.3
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    cv2.ellipse(mask, tuple(int(v) for v in palm), (int(width * 0.9), int(width * 0.7)),
                angle, 0, 360, 255, -1, cv2.LINE_AA)
    side = np.array([-direction[1], direction[0]])
    for k in (-1.5, -0.5, 0.5, 1.5):
        base = palm + side * k * width * 0.3
        end = base + direction * width * (1.0 - 0.15 * abs(k))
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in end), 255,
                 max(1, int(width * 0.22)), cv2.LINE_AA)
    return mask


def _draw_arm(image: np.ndarray, mask: np.ndarray, skin: np.ndarray,
              rng: np.random.Generator) -> np.ndarray:
    """Lay a soft shadow, then a shaded skin-coloured arm, over the picture."""
    h, w = mask.shape
    soft = cv2.GaussianBlur(mask, (0, 0), 2).astype(np.float32)[..., None] / 255
    shadow = np.roll(cv2.GaussianBlur(mask, (0, 0), 12), (int(h * 0.03), int(w * 0.02)), (0, 1))
    out = image.astype(np.float32) * (1 - 0.4 * shadow.astype(np.float32)[..., None] / 255)
    shade = cv2.GaussianBlur(mask, (0, 0), 9).astype(np.float32)[..., None] / 255
    arm = skin * (0.7 + 0.3 * shade) + rng.normal(0, 4, image.shape).astype(np.float32)
    return out * (1 - soft) + arm * soft


@dataclass
class _Reach:
    """One arm's trip: where it enters, where its hand goes, how it wobbles."""

    entry: np.ndarray
    tip: np.ndarray
    width: float
    skin: np.ndarray

    @classmethod
    def random(cls, shape: tuple[int, int], target: tuple[float, float] | None,
               rng: np.random.Generator) -> _Reach:
        h, w = shape
        tip = np.array(target if target is not None
                       else (w * rng.uniform(0.3, 0.7), h * rng.uniform(0.3, 0.7)), float)
        edge = int(rng.integers(4))
        along = rng.uniform(0.2, 0.8)
        entry = np.array([(along * w, -10), (w + 10, along * h), (along * w, h + 10),
                          (-10, along * h)][edge], float)
        skin = np.array(SKIN_BGR[int(rng.integers(len(SKIN_BGR)))], np.float32)
        return cls(entry, tip, min(h, w) * rng.uniform(0.07, 0.1), skin * rng.uniform(0.9, 1.1))

    def at(self, reach: float) -> np.ndarray:
        """The hand's tip when the arm is ``reach`` (0 outside the frame, 1 fully in)."""
        return self.entry + (self.tip - self.entry) * reach


# --------------------------------------------------------------------------- the clip


def _timeline(count: int, style: FootageStyle) -> list[tuple]:
    """Segments ('hold', position) and ('reach', from, to) with durations, in order."""
    segments: list[tuple] = [("hold", 0, style.hold)]
    for k in range(1, count):
        if style.empty_reach_every and k % style.empty_reach_every == 0:
            segments += [("reach", k - 1, k - 1, None), ("hold", k - 1, style.hold * 0.6)]
        if style.light_change_at == k:
            segments.append(("light", k - 1, 1.0))
        segments += [("reach", k - 1, k, k - 1), ("hold", k, style.hold)]
    return segments


def _frame_count(segment: tuple, style: FootageStyle) -> int:
    """How many frames a timeline segment lasts."""
    dt = 1.0 / style.fps
    if segment[0] == "reach":
        return 2 * max(1, round(style.reach / dt)) + max(1, round(style.dwell / dt))
    return max(1, round(segment[2] / dt))


def settle_times(count: int, style: FootageStyle) -> list[float]:
    """For each move of a clip through ``count`` positions, when its arm has left the picture.

    The scene is still from then on; a move's report latency is measured from this time.
    """
    times, frames = [], 0
    for segment in _timeline(count, style):
        frames += _frame_count(segment, style)
        if segment[0] == "reach" and segment[3] is not None:
            times.append((frames - 1) / style.fps)
    return times


def video_frames(stills: Sequence[np.ndarray], style: FootageStyle, seed: int,
                 target: Callable[[int], tuple[float, float]] | None = None
                 ) -> Iterator[tuple[np.ndarray, float]]:
    """(frame, t) pairs of a clip that goes through ``stills`` in order, one reach per change.

    ``target(k)`` is where the hand goes to place move k (None: somewhere central).
    """
    rng = np.random.default_rng(seed)
    h, w = stills[0].shape[:2]
    dt = 1.0 / style.fps
    gain = np.ones(3, np.float32)
    lamp = np.array(rng.uniform([0.65, 0.8, 0.95], [0.8, 0.9, 1.1]), np.float32)
    drift_phase = rng.uniform(0, 2 * np.pi, 2)
    t = 0.0
    total = sum(_frame_count(seg, style) for seg in _timeline(len(stills), style)) * dt

    def frame(image: np.ndarray, shake: float) -> tuple[np.ndarray, float]:
        nonlocal t
        drift = style.drift_px * np.sin(2 * np.pi * t / max(total, 1.0) + drift_phase)
        offset = drift + rng.normal(0, shake, 2)
        shift = np.array([[1, 0, offset[0]], [0, 1, offset[1]]], np.float32)
        moved = cv2.warpAffine(image.astype(np.float32), shift, (w, h),
                               borderMode=cv2.BORDER_REFLECT)
        moved = moved * gain + rng.normal(0, style.noise, moved.shape).astype(np.float32)
        ok, buf = cv2.imencode(".jpg", np.clip(moved, 0, 255).astype(np.uint8),
                               [cv2.IMWRITE_JPEG_QUALITY, style.jpeg_quality])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert decoded is not None, "a JPEG just encoded decodes"
        out = (decoded, round(t, 4))
        t += dt
        return out

    for seg in _timeline(len(stills), style):
        kind = seg[0]
        if kind == "hold":
            for _ in range(_frame_count(seg, style)):
                yield frame(stills[seg[1]], 0.0)
        elif kind == "light":
            start, steps = gain.copy(), _frame_count(seg, style)
            for i in range(1, steps + 1):
                gain = start + (lamp - start) * (i / steps)
                yield frame(stills[seg[1]], 0.0)
        else:
            _, before, after, move = seg
            aim = None if move is None or target is None else target(move)
            arm = _Reach.random((h, w), aim, rng)
            n_in, n_dwell = max(1, round(style.reach / dt)), max(1, round(style.dwell / dt))
            path = ([(i + 1) / n_in for i in range(n_in)] + [1.0] * n_dwell
                    + [1 - (i + 1) / n_in for i in range(n_in)])
            for i, reach in enumerate(path):
                under = stills[before] if i < n_in + n_dwell // 2 else stills[after]
                wobble = rng.normal(0, arm.width * 0.15, 2) if reach > 0 else 0.0
                tip = arm.at(reach) + wobble
                image = (_draw_arm(under, _arm_mask((h, w), arm.entry, tip, arm.width),
                                   arm.skin, rng) if reach > 0 else under)
                yield frame(image, style.shake_px)


def write_video(frames: Iterator[tuple[np.ndarray, float]], path: Path, fps: float) -> float:
    """Write frames to an MP4 (mp4v); returns the clip's length in seconds."""
    writer = None
    count = 0
    try:
        for image, _ in frames:
            if writer is None:
                h, w = image.shape[:2]
                writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, (w, h))
                if not writer.isOpened():
                    raise OSError(f"cannot write video {path}")
            writer.write(image)
            count += 1
    finally:
        if writer is not None:
            writer.release()
    return count / fps


def write_photos(stills: Sequence[np.ndarray], folder: Path, quality: int = 90) -> list[Path]:
    """Save positions as numbered JPEGs, leaving out the empty table: a photo follows a move."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(1, len(stills)):
        path = folder / f"{k:03d}.jpg"
        cv2.imwrite(str(path), stills[k], [cv2.IMWRITE_JPEG_QUALITY, quality])
        paths.append(path)
    return paths
