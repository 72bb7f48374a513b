"""Frame sources: one interface over a folder of photos, a video file, a live camera and the demo.

The web app, `qwirkle replay` and the tests all read frames the same way, so whatever works on
a recorded clip works on the camera. A source yields :class:`Frame` objects and raises
:class:`SourceError` with a message a player can act on when it cannot open, or when a camera
stops delivering (unplugged, Wi-Fi camera out of range).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
STREAM_PREFIXES = ("http://", "https://", "rtsp://")
STALL_SECONDS = 3.0
"""A camera that delivers no frame for this long is taken to be gone."""


class SourceError(RuntimeError):
    """A source that cannot be opened or stopped delivering; the message says which and why."""


@dataclass(frozen=True)
class Frame:
    """One picture of the table.

    ``t`` is seconds since the source started (or the photo's index in a folder), ``name`` a
    label for reports (the photo's file name). ``still`` marks a picture that is already a
    settled position, a photo, which needs no stable-frame gate.
    """

    image: np.ndarray
    t: float
    name: str
    still: bool = False


class FrameSource:
    """Iterate it for frames; close it when done (or use it as a context manager)."""

    description = "source"

    def __iter__(self) -> Iterator[Frame]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the device or file; closing twice is harmless."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _pace(start: float, t: float) -> None:
    """Sleep until ``t`` seconds after ``start`` (monotonic clock): real-time delivery."""
    delay = start + t - time.monotonic()
    if delay > 0:
        time.sleep(delay)


class FolderSource(FrameSource):
    """The photos of a folder in file-name order, each one a still position after a move."""

    def __init__(self, folder: Path) -> None:
        self.description = f"folder {folder}"
        self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        if not self.paths:
            raise SourceError(f"no photos (.jpg, .png, ...) in folder {folder}")

    def __iter__(self) -> Iterator[Frame]:
        for index, path in enumerate(self.paths):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise SourceError(f"cannot read photo {path}: not an image or corrupt")
            yield Frame(image, float(index), path.name, still=True)


class CaptureSource(FrameSource):
    """Frames from an OpenCV capture: a video file (paced or not) or a live camera.

    A file ends at its last frame. A camera never ends; if it stops delivering for
    ``stall_seconds`` it raises :class:`SourceError`. ``open_capture`` is a parameter so the
    tests can stand in a camera that vanishes.
    """

    def __init__(self, target: str | int, live: bool, realtime: bool,
                 open_capture: Callable[..., Any] = cv2.VideoCapture,
                 stall_seconds: float = STALL_SECONDS) -> None:
        self.description = (f"camera {target}" if live else f"video {target}")
        self.live, self.realtime, self.stall_seconds = live, realtime, stall_seconds
        self.capture = open_capture(target)
        if not self.capture.isOpened():
            self.capture.release()
            hint = ("is it plugged in and not used by another program?" if live
                    else "is it a video file OpenCV can decode?")
            raise SourceError(f"cannot open {self.description}: {hint}")
        fps = 0.0 if live else self.capture.get(cv2.CAP_PROP_FPS)
        self.fps = fps if 1.0 <= fps <= 240.0 else 10.0

    def __iter__(self) -> Iterator[Frame]:
        start = time.monotonic()
        last_good = start
        index = 0
        while True:
            ok, image = self.capture.read()
            now = time.monotonic()
            if ok and image is not None:
                last_good = now
                t = now - start if self.live else index / self.fps
                if self.realtime and not self.live:
                    _pace(start, t)
                yield Frame(image, t, f"{t:.2f}s")
                index += 1
            elif not self.live:
                if index == 0:
                    raise SourceError(f"{self.description} has no frame that can be decoded "
                                      "(corrupt or not a video?)")
                return
            elif now - last_good >= self.stall_seconds:
                raise SourceError(f"{self.description} stopped delivering frames "
                                  f"for {self.stall_seconds:.0f} s (unplugged or out of range?)")
            else:
                time.sleep(0.05)

    def close(self) -> None:
        self.capture.release()


class DemoSource(FrameSource):
    """The built-in demo: a simulated game rendered as camera footage, hands and all."""

    def __init__(self, seed: int, realtime: bool) -> None:
        self.description = f"demo game (seed {seed})"
        self.seed, self.realtime = seed, realtime

    def __iter__(self) -> Iterator[Frame]:
        from vision.synth.footage import DEMO_STYLE, GameRenders, game_script, video_frames

        start = time.monotonic()
        renders = GameRenders(game_script(players=2, seed=self.seed), self.seed)
        for image, t in video_frames(renders.stills(), DEMO_STYLE, self.seed, renders.target):
            if self.realtime:
                _pace(start, t)
            yield Frame(image, t, f"{t:.2f}s")


def open_source(spec: str | int, realtime: bool | None = None, seed: int = 1) -> FrameSource:
    """Open a camera index ("0"), an http/rtsp URL, a video file, a folder of photos, or "demo".

    ``realtime`` paces a video file (or the demo) at its frame rate, as a camera would
    deliver it; by default only the demo is paced, and recorded footage is read as fast as
    it decodes. ``seed`` picks the demo's game.
    """
    text = str(spec).strip()
    if text == "demo":
        return DemoSource(seed, realtime=True if realtime is None else realtime)
    if isinstance(spec, int) or text.isdigit():
        return CaptureSource(int(text), live=True, realtime=True)
    if text.lower().startswith(STREAM_PREFIXES):
        return CaptureSource(text, live=True, realtime=True)
    path = Path(text).expanduser()
    if path.is_dir():
        return FolderSource(path)
    if path.is_file():
        return CaptureSource(str(path), live=False, realtime=bool(realtime))
    raise SourceError(f"no such camera, file or folder: {text!r} "
                      "(give a camera index like 0, a URL, a video file, a folder or 'demo')")
