"""What watching the table costs: CPU share of the live loop at 10 fps, 960 px.

    .venv/bin/python -m vision.bench.live              # still table, gate alone, demo, webcam
    .venv/bin/python -m vision.bench.live --seconds 60 --repeat 3

A camera at 10 fps gives a frame every 100 ms; the share of one core the loop takes is its
CPU time per frame times 10. Frames are made before the clock starts (a camera or a video
decoder delivers them), so the figures are the tracker's own work:

- *still table*: a mid-game position filmed with sensor noise, JPEG and a 0.5-px wobble,
  fed to :class:`vision.tracker.MoveTracker` for ``--seconds`` after its first scan;
- *gate alone*: the same frames through :class:`vision.stable.StableGate` only;
- *demo source*: :class:`vision.demo.DemoSource` rendering its game unpaced (the frames a
  player sees when there is no camera), and the demo with the tracker reading it;
- *webcam*: the still table as a 1920 x 1080 MJPG webcam sends it, 30 frames a second in real
  time, read by :class:`vision.source.CaptureSource` (which decodes and passes on at most
  ``LIVE_FPS`` of them) into the tracker: the CPU time of the whole process over the
  wall-clock time, decoding included.

Targets (issue 10): still table <= 15 % of one core, demo <= 30 %. CPU time is
``time.process_time`` (this process, all threads); the best of ``--repeat`` runs counts,
since other programs on the machine only ever add to it.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace

import cv2
import numpy as np

from vision.bench import machine
from vision.demo import DemoSource
from vision.source import CAMERA_SIZE, CaptureSource, Frame, SourceError
from vision.stable import StableGate
from vision.synth.footage import CLIP_STYLE, GameRenders, game_script, video_frames
from vision.tracker import MoveTracker

FPS = 10.0


def still_frames(seconds: float, seed: int) -> list[Frame]:
    """A still mid-game table as a camera delivers it: noise, JPEG, a little wobble."""
    script = game_script(2, seed, limit=20)
    renders = GameRenders(script, seed)
    still = renders.stills()[len(renders) // 2]
    style = replace(CLIP_STYLE, hold=seconds + 2.0, empty_reach_every=0, light_change_at=None,
                    wobble_px=0.5, drift_px=0.0)
    return [Frame(image, t, f"{t:.1f}s") for image, t in video_frames([still], style, seed)]


class Webcam:
    """What OpenCV's capture of an MJPG webcam does, for :class:`CaptureSource`: ``grab``
    waits for the camera's next frame, ``retrieve`` decodes it."""

    def __init__(self, frames: list[Frame], seconds: float, fps: float = 30.0) -> None:
        width, height = CAMERA_SIZE
        self.jpegs = [cv2.imencode(".jpg", _widescreen(f.image, width, height),
                                   [cv2.IMWRITE_JPEG_QUALITY, 85])[1] for f in frames]
        self.period, self.count = 1.0 / fps, round(seconds * fps)
        self.index, self.start = -1, 0.0

    def isOpened(self) -> bool:  # noqa: N802  # OpenCV's name
        return True

    def grab(self) -> bool:
        if self.index < 0:
            self.start = time.monotonic()
        self.index += 1
        if self.index >= self.count:
            return False
        time.sleep(max(0.0, self.start + self.index * self.period - time.monotonic()))
        return True

    def retrieve(self) -> tuple[bool, np.ndarray | None]:
        return True, cv2.imdecode(self.jpegs[self.index % len(self.jpegs)], cv2.IMREAD_COLOR)

    def release(self) -> None:
        self.count = 0


def _widescreen(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """``image`` widened with its own edges to the aspect of ``width`` x ``height``, at that
    size: the same table as a widescreen webcam frames it."""
    h, w = image.shape[:2]
    side = max(0, round((h * width / height - w) / 2))
    wide = cv2.copyMakeBorder(image, 0, 0, side, side, cv2.BORDER_REPLICATE)
    return cv2.resize(wide, (width, height), interpolation=cv2.INTER_CUBIC)


def webcam_share(frames: list[Frame], seconds: float) -> float:
    """CPU seconds per second of watching the still table through a webcam (see above)."""
    tracker = MoveTracker()
    source = CaptureSource(0, live=True, realtime=True, stall_seconds=1.0,
                           open_capture=lambda _: Webcam(frames, seconds + 2.0))
    wall = cpu = 0.0
    try:
        for frame in source:
            if frame.t >= 2.0 and not wall:  # after the first scan of the table
                wall, cpu = time.monotonic(), time.process_time()
            tracker.feed(frame)
    except SourceError:  # the recording of the camera ends
        pass
    finally:
        source.close()
    return (time.process_time() - cpu) / (time.monotonic() - wall)


def cpu_per_frame(step, frames: list, warm: int) -> float:
    """CPU seconds per frame of ``step`` over ``frames`` after the first ``warm`` of them."""
    for frame in frames[:warm]:
        step(frame)
    start = time.process_time()
    for frame in frames[warm:]:
        step(frame)
    return (time.process_time() - start) / max(1, len(frames) - warm)


def share(seconds_per_frame: float) -> str:
    return (f"{100 * seconds_per_frame * FPS:.1f} % of one core "
            f"({1000 * seconds_per_frame:.1f} ms a frame)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of video per run")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each; the best counts")
    parser.add_argument("--seed", type=int, default=3, help="the game filmed")
    args = parser.parse_args(argv)

    print(machine())
    frames = still_frames(args.seconds, args.seed)
    warm = int(2 * FPS)  # the first scan of the table, once per game

    def tracked() -> float:
        tracker = MoveTracker()
        return cpu_per_frame(tracker.feed, frames, warm)

    def gated() -> float:
        gate = StableGate()
        return cpu_per_frame(lambda f: gate.update(f.image, f.t), frames, warm)

    count = int(args.seconds * FPS)

    def demo(with_tracker: bool) -> float:
        tracker = MoveTracker()
        source = iter(DemoSource(args.seed, realtime=False))
        step = ((lambda _: tracker.feed(next(source))) if with_tracker
                else (lambda _: next(source)))
        return cpu_per_frame(step, list(range(count)), 0)

    runs = {
        "still table, tracker (gate, and scans of changed positions only)": tracked,
        "still table, gate alone": gated,
        "demo source, rendering only": lambda: demo(False),
        "demo source read by the tracker": lambda: demo(True),
    }
    for label, run in runs.items():
        best = min(run() for _ in range(args.repeat))
        print(f"{label}: {share(best)}", flush=True)
    best = min(webcam_share(frames, args.seconds) for _ in range(args.repeat))
    print(f"webcam, {CAMERA_SIZE[0]} x {CAMERA_SIZE[1]} MJPG at 30 fps, still table, "
          f"decoding and tracker: {100 * best:.1f} % of one core", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
