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
from dataclasses import dataclass, field, replace
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
    jpeg_quality: int | None = 80
    """None: no JPEG round trip (the demo, which nobody decodes from a file)."""
    wobble_px: float = 0.0
    """Camera jitter in every frame (standard deviation, pixels): a wobbly phone holder."""
    flicker: float = 0.0
    """Exposure flicker: each frame's brightness is scaled by a draw from 1 +- this."""
    hold_max: float | None = None
    """When set, each hold lasts between ``hold`` and this: pauses of varying length."""
    knock_at: int | None = None
    """The arm of this move knocks the camera (``KNOCK_PX``, ``KNOCK_DEGREES``); it stays so."""
    rest_at: int | None = None
    """After laying this move the arm rests at the frame edge for ``rest_seconds``."""
    rest_seconds: float = 30.0
    rest_entry: tuple[float, float] | None = None
    """Where that arm enters the picture, as shares of its width and height (a point on its
    edge: (0.6, 0.0) is on the top edge); None: anywhere, as every other arm. An arm resting
    beside a board that meets the frame edge, on the same edge, needs it."""
    outage_at: int | None = None
    """From this move on, ``outage_moves`` moves are made while no frame comes for
    ``outage_seconds`` (a camera dropping out; a video of the clip simply cuts)."""
    outage_moves: int = 2
    outage_seconds: float = 10.0
    take_back_at: int | None = None
    """This move is laid, left for a hold, taken back off the table, then laid again."""


CLIP_STYLE = FootageStyle()
DEMO_STYLE = FootageStyle(hold=3.0, reach=0.9, dwell=0.8, empty_reach_every=5, drift_px=0.0,
                          jpeg_quality=None, light_change_at=None)
"""The demo: slow enough for a person watching the score sheet to follow each move; no drift,
lamp nor JPEG, so that a still table costs one noise frame added in 8 bits (a lamp's gain
would need the float path in every later frame: a fifth of the demo's cost, ``python -m
vision.bench.live``)."""

HARDEST_STYLE = replace(CLIP_STYLE, hold=1.0, hold_max=3.0, wobble_px=1.5, flicker=0.08,
                        light_change_at=3, knock_at=5, rest_at=7, outage_at=9)
"""Everything the live loop must survive at once: 1.5-px wobble in every frame, +-8 %
flicker, pauses of 1-3 s, a lamp, reaches that place nothing, a knocked camera, an arm
resting at the edge for 30 s and two moves made during a 10-s outage."""

ROUGH_STYLE = replace(CLIP_STYLE, hold=1.2, wobble_px=1.0, flicker=0.05, knock_at=10)
"""A rough real game night: 1-px wobble, +-5 % flicker, 1.2-s pauses, a knocked camera."""


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

    def __init__(self, script: GameScript, seed: int, size: tuple[int, int] = (960, 720),
                 view: View | None = None) -> None:
        """``view``: the camera; None: one framing the whole final board (:func:`game_camera`)."""
        rng = np.random.default_rng(seed)
        self.script, self.seed = script, seed
        self.view = game_camera(script.positions[-1], rng, size) if view is None else view
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

    def stills(self, start: int = 0) -> Sequence[np.ndarray]:
        """The positions' pictures from ``start`` on, each rendered when first asked for."""
        return _Images(self, start)

    def target(self, move: int) -> tuple[float, float]:
        """Where the hand goes for move ``move``: the pixel centre of the tiles it adds."""
        before, after = self[move].centers, self[move + 1].centers
        added = [after[c] for c in after if c not in before]
        return tuple(np.mean(added, axis=0)) if added else (0.0, 0.0)


class _Images(Sequence[np.ndarray]):
    def __init__(self, renders: GameRenders, start: int = 0) -> None:
        self.renders, self.start = renders, start

    def __len__(self) -> int:
        return len(self.renders) - self.start

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self.renders[i + self.start].image for i in range(*k.indices(len(self)))]
        return self.renders[k + self.start if k >= 0 else len(self.renders) + k].image


# --------------------------------------------------------------------------- arms

ARM_OUTSIDE_PX = 10
"""An arm starts this far outside the frame, so that it crosses the edge whole."""


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


def _draw_arm(image: np.ndarray, mask: np.ndarray, skin: np.ndarray) -> np.ndarray:
    """Lay a soft shadow, then a shaded skin-coloured arm, over the picture.

    Only the box round the arm and its shadow is redrawn, and the wide blurs (shadow,
    shading) are made at a quarter of the size: they are smooth anyway, and at full size
    they cost more than the rest of a frame together.
    """
    h, w = mask.shape
    dy, dx = int(h * 0.03), int(w * 0.02)
    ys, xs = np.nonzero(mask[::4, ::4])
    if not len(ys):
        return image
    pad = 40
    y0, y1 = max(0, 4 * ys.min() - pad), min(h, 4 * ys.max() + pad + dy + 4)
    x0, x1 = max(0, 4 * xs.min() - pad), min(w, 4 * xs.max() + pad + dx + 4)
    box = mask[y0:y1, x0:x1]
    bh, bw = box.shape
    small = cv2.resize(box, (max(1, bw // 4), max(1, bh // 4)), interpolation=cv2.INTER_AREA)

    def smooth(sigma: float) -> np.ndarray:
        blurred = cv2.GaussianBlur(small, (0, 0), sigma / 4)
        return cv2.resize(blurred, (bw, bh)).astype(np.float32)[..., None] / 255

    soft = cv2.GaussianBlur(box, (0, 0), 2).astype(np.float32)[..., None] / 255
    shadow = np.zeros_like(soft)
    shadow[dy:, dx:] = smooth(12)[:bh - dy, :bw - dx]
    out = image[y0:y1, x0:x1].astype(np.float32) * (1 - 0.4 * shadow)
    arm = skin * (0.7 + 0.3 * smooth(9))
    drawn = image.copy()
    drawn[y0:y1, x0:x1] = np.clip(out * (1 - soft) + arm * soft, 0, 255).astype(np.uint8)
    return drawn


def edge_entry(point: tuple[float, float], shape: tuple[int, int]) -> np.ndarray:
    """Where an arm enters the picture at ``point`` on its edge (shares of the width and
    height): that pixel, moved ``ARM_OUTSIDE_PX`` out of the frame."""
    h, w = shape
    share = np.array(point, float)
    return share * (w, h) + ARM_OUTSIDE_PX * ((share >= 1).astype(float) - (share <= 0))


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
        entry = edge_entry([(along, 0.0), (1.0, along), (along, 1.0), (0.0, along)][edge], shape)
        skin = np.array(SKIN_BGR[int(rng.integers(len(SKIN_BGR)))], np.float32)
        return cls(entry, tip, min(h, w) * rng.uniform(0.07, 0.1), skin * rng.uniform(0.9, 1.1))

    def at(self, reach: float) -> np.ndarray:
        """The hand's tip when the arm is ``reach`` (0 outside the frame, 1 fully in)."""
        return self.entry + (self.tip - self.entry) * reach


# --------------------------------------------------------------------------- the clip

KNOCK_PX = 14.0
KNOCK_DEGREES = 1.5
"""A knocked camera: shifted and turned this much, and left like that."""

REST_REACH = 0.3
"""How far in a resting arm stays (0 at the frame edge, 1 over its move's tiles)."""

NOISE_FRAMES = 6
"""Frames of sensor noise drawn per clip and reused at random."""

TREMOR_PX = 1.0
"""How much a resting hand still moves, frame to frame."""


@dataclass(frozen=True)
class _Segment:
    """A stretch of a clip: the table held still, a light change, a reach, or an outage."""

    kind: str
    """'hold', 'light', 'reach' or 'gap' (no frames at all for ``seconds``)."""
    before: int
    """The position shown (during a reach: before its tiles are laid)."""
    after: int = -1
    """During a reach: the position when the hand has left; otherwise unused."""
    seconds: float = 0.0
    move: int | None = None
    """The move whose tiles the hand goes to (None: a reach that places nothing)."""
    settles: bool = False
    """Whether the table shows a move made for good once this segment ends."""
    rest: float = 0.0
    knock: bool = False


def _timeline(count: int, style: FootageStyle, seed: int = 0) -> list[_Segment]:
    """The segments of a clip through ``count`` positions, in order."""
    rng = np.random.default_rng((seed, 1))

    def hold(k: int, share: float = 1.0) -> _Segment:
        long = style.hold if style.hold_max is None else rng.uniform(style.hold, style.hold_max)
        return _Segment("hold", k, seconds=float(long) * share)

    segments = [hold(0)]
    k = 1
    while k < count:
        if style.empty_reach_every and k % style.empty_reach_every == 0:
            segments += [_Segment("reach", k - 1, k - 1), hold(k - 1, 0.6)]
        if style.light_change_at == k:
            segments.append(_Segment("light", k - 1, seconds=1.0))
        if style.outage_at == k:
            last = min(k - 1 + style.outage_moves, count - 1)
            # one gap, and a settle for each move made in it
            segments += [_Segment("gap", last, settles=True,
                                  seconds=style.outage_seconds if i == k else 0.0)
                         for i in range(k, last + 1)]
            segments.append(hold(last))
            k = last + 1
            continue
        if style.take_back_at == k:
            segments += [_Segment("reach", k - 1, k, move=k - 1), hold(k),
                         _Segment("reach", k, k - 1, move=k - 1), hold(k - 1)]
        segments += [_Segment("reach", k - 1, k, move=k - 1, settles=True,
                              rest=style.rest_seconds if style.rest_at == k else 0.0,
                              knock=style.knock_at == k), hold(k)]
        k += 1
    return segments


def _reach_path(style: FootageStyle, rest: float) -> list[float]:
    """How far in the arm is in each frame of a reach (see :meth:`_Reach.at`)."""
    dt = 1.0 / style.fps
    n_in, n_dwell = max(1, round(style.reach / dt)), max(1, round(style.dwell / dt))
    path = [(i + 1) / n_in for i in range(n_in)] + [1.0] * n_dwell
    top = 1.0
    if rest:
        back = max(1, n_in // 2)
        path += [1 - (1 - REST_REACH) * (i + 1) / back for i in range(back)]
        path += [REST_REACH] * round(rest / dt)
        top = REST_REACH
    return path + [top * (1 - (i + 1) / n_in) for i in range(n_in)]


def _frame_count(segment: _Segment, style: FootageStyle) -> int:
    """How many frames a timeline segment lasts."""
    if segment.kind == "gap":
        return 0
    if segment.kind == "reach":
        return len(_reach_path(style, segment.rest))
    return max(1, round(segment.seconds * style.fps))


def settle_times(count: int, style: FootageStyle, seed: int = 0,
                 gaps: bool = True) -> list[float]:
    """For each move of a clip through ``count`` positions, when the table is still with it.

    That is when its arm has left the picture (or, for moves made during an outage, when the
    frames come back); a move's report latency is measured from this time. ``gaps=False``
    gives the times in a video file of the clip, which has no gap where the outage was.
    """
    times, t = [], 0.0
    for segment in _timeline(count, style, seed):
        frames = _frame_count(segment, style)
        t += frames / style.fps
        if gaps and segment.kind == "gap":
            t += segment.seconds
        if segment.settles:
            times.append(t if segment.kind == "gap" else t - 1 / style.fps)
    return times


@dataclass(frozen=True)
class _Noise:
    """One frame of sensor noise, as drawn and as whole levels up and down.

    The picture is truncated to 8 bits after the noise is added, so on a whole-level picture
    the noise counts by its floor: adding ``up`` and taking away ``down`` (saturating) gives
    what the float sum gives.
    """

    values: np.ndarray
    up: np.ndarray
    down: np.ndarray

    @classmethod
    def draw(cls, rng: np.random.Generator, sigma: float, shape: tuple[int, int]) -> _Noise:
        values = rng.normal(0, sigma, (*shape, 3)).astype(np.float32)
        levels = np.clip(np.floor(values), -255, 255).astype(np.int16)
        return cls(values, np.maximum(levels, 0).astype(np.uint8),
                   np.maximum(-levels, 0).astype(np.uint8))


@dataclass
class _Camera:
    """Where the camera points in each frame: drift, a knock that stays, jitter, flicker."""

    style: FootageStyle
    rng: np.random.Generator
    size: tuple[int, int]
    length: float
    gain: np.ndarray = field(default_factory=lambda: np.ones(3, np.float32))
    knock: np.ndarray = field(default_factory=lambda: np.zeros(2))
    angle: float = 0.0
    _noise: list[_Noise] | None = None

    def __post_init__(self) -> None:
        self.phase = self.rng.uniform(0, 2 * np.pi, 2)

    def knocked(self) -> None:
        direction = self.rng.uniform(0, 2 * np.pi)
        self.knock = KNOCK_PX * np.array([np.cos(direction), np.sin(direction)])
        self.angle = KNOCK_DEGREES * float(self.rng.choice([-1.0, 1.0]))

    def _noise_frame(self, shape: tuple[int, int]) -> _Noise:
        if self._noise is None:
            self._noise = [_Noise.draw(self.rng, self.style.noise, shape)
                           for _ in range(NOISE_FRAMES)]
        return self._noise[int(self.rng.integers(NOISE_FRAMES))]

    def shoot(self, image: np.ndarray, t: float, shake: float) -> np.ndarray:
        """The picture the camera takes of ``image`` at ``t``, JPEG noise and all.

        Sensor noise comes from a few frames of it drawn once (``NOISE_FRAMES``), one
        picked at random per frame: drawing two million numbers a frame would cost more
        than everything else the camera does. Without a change of exposure the frame is
        made in 8 bits, a fifth of the float work (the demo's cost, ``vision.bench.live``).
        """
        style, (w, h) = self.style, self.size
        drift = style.drift_px * np.sin(2 * np.pi * t / max(self.length, 1.0) + self.phase)
        offset = drift + self.knock + (self.rng.normal(0, shake, 2) if shake else 0.0)
        if style.wobble_px:
            offset = offset + self.rng.normal(0, style.wobble_px, 2)
        moved = image
        if self.angle or np.any(np.abs(offset) > 1e-3):
            matrix = cv2.getRotationMatrix2D((w / 2, h / 2), self.angle, 1.0)
            matrix[:, 2] += offset
            moved = cv2.warpAffine(image, matrix, (w, h), borderMode=cv2.BORDER_REFLECT)
        gain = self.gain
        if style.flicker:
            gain = gain * np.float32(1 + self.rng.uniform(-style.flicker, style.flicker))
        noise = self._noise_frame((h, w)) if style.noise else None
        if np.any(gain != 1):
            lit = moved.astype(np.float32) * gain
            if noise is not None:
                lit += noise.values
            out = np.clip(lit, 0, 255, out=lit).astype(np.uint8)
        elif noise is not None:  # whole levels on whole levels: saturating 8-bit sums do
            out = cv2.subtract(cv2.add(moved, noise.up), noise.down)
        else:
            out = moved.copy()  # never the caller's own picture
        if style.jpeg_quality is None:
            return out
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, style.jpeg_quality])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert decoded is not None, "a JPEG just encoded decodes"
        return decoded


def video_frames(stills: Sequence[np.ndarray], style: FootageStyle, seed: int,
                 target: Callable[[int], tuple[float, float]] | None = None,
                 wait: Callable[[], bool] | None = None
                 ) -> Iterator[tuple[np.ndarray, float]]:
    """(frame, t) pairs of a clip that goes through ``stills`` in order, one reach per change.

    ``target(k)`` is where the hand goes to place move k (None: somewhere central). During
    an outage no frame comes and ``t`` jumps. ``wait``, asked at the end of each stretch of
    still table, keeps the table still (more frames of it) for as long as it answers yes.
    """
    rng = np.random.default_rng(seed)
    h, w = stills[0].shape[:2]
    dt = 1.0 / style.fps
    lamp = np.array(rng.uniform([0.65, 0.8, 0.95], [0.8, 0.9, 1.1]), np.float32)
    timeline = _timeline(len(stills), style, seed)
    camera = _Camera(style, rng, (w, h), sum(_frame_count(s, style) for s in timeline) * dt)
    t = 0.0
    for seg in timeline:
        if seg.kind == "gap":
            t += seg.seconds
        elif seg.kind == "hold":
            count = _frame_count(seg, style)
            while count or (wait is not None and wait()):
                yield camera.shoot(stills[seg.before], t, 0.0), round(t, 4)
                t += dt
                count = max(count - 1, 0)
        elif seg.kind == "light":
            start, steps = camera.gain.copy(), _frame_count(seg, style)
            for i in range(1, steps + 1):
                camera.gain = start + (lamp - start) * (i / steps)
                yield camera.shoot(stills[seg.before], t, 0.0), round(t, 4)
                t += dt
        else:
            aim = None if seg.move is None or target is None else target(seg.move)
            arm = _Reach.random((h, w), aim, rng)
            if seg.rest and style.rest_entry is not None:
                arm.entry = edge_entry(style.rest_entry, (h, w))
            if seg.knock:
                camera.knocked()
            path = _reach_path(style, seg.rest)
            swap = max(1, round(style.reach / dt)) + max(1, round(style.dwell / dt)) // 2
            for i, reach in enumerate(path):
                under = stills[seg.before] if i < swap else stills[seg.after]
                resting = seg.rest and reach == REST_REACH
                sway = TREMOR_PX if resting else arm.width * 0.15
                tip = arm.at(reach) + (rng.normal(0, sway, 2) if reach > 0 else 0.0)
                image = (_draw_arm(under, _arm_mask((h, w), arm.entry, tip, arm.width),
                                   arm.skin) if reach > 0 else under)
                yield camera.shoot(image, t, 0.0 if resting else style.shake_px), round(t, 4)
                t += dt


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
