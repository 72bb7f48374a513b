"""Frame sources: one interface over a folder of photos, a video file, a live camera and the demo.

The web app, `qwirkle replay` and the tests all read frames the same way, so whatever works on
a recorded clip works on the camera. A source yields :class:`Frame` objects and raises
:class:`SourceError` with a message a player can act on when it cannot open, or when a camera
stops delivering (unplugged, Wi-Fi camera out of range).
"""

from __future__ import annotations

import queue
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import cv2
import numpy as np

from vision.imagefile import ImageError, load_image

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
STREAM_PREFIXES = ("http://", "https://", "rtsp://")
STALL_SECONDS = 3.0
"""A camera that delivers no frame for this long is taken to be gone."""
OPEN_TIMEOUT_MS = 4000
"""How long OpenCV may try to reach a network camera before giving up."""
READ_TIMEOUT_MS = 2000
"""How long one read of a network camera may block: a camera that keeps its socket open but
sends nothing would otherwise hold the read for good."""
URL = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>]+")


def redact_url(text: str) -> str:
    """``text`` with the user name and password taken out of every URL in it
    (``http://user:pw@cam/video`` becomes ``http://cam/video``): a camera's address is shown
    on pages anyone on the Wi-Fi can read, and in logs."""

    def clean(found: re.Match[str]) -> str:
        try:
            parts = urlsplit(found.group(0))
        except ValueError:
            return "(an address that cannot be shown)"
        if "@" not in parts.netloc:
            return found.group(0)
        return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))

    return URL.sub(clean, text)


class Problem(StrEnum):
    """Why a source cannot be opened or stopped delivering (the camera's ``code``)."""

    NO_PHOTOS = "no_photos"
    BAD_PHOTO = "bad_photo"
    CANNOT_OPEN_CAMERA = "cannot_open_camera"
    CANNOT_OPEN_VIDEO = "cannot_open_video"
    UNDECODABLE = "video_undecodable"
    STALLED = "camera_stalled"
    NOT_A_FILE = "pipe_or_device"
    NO_SUCH_SOURCE = "no_such_source"


def english(problem: Problem, target: str, seconds: float = 0.0) -> str:
    """The problem in one English sentence, naming the source (``target``)."""
    return {
        Problem.NO_PHOTOS: f"no photos (.jpg, .png, ...) in folder {target}",
        Problem.BAD_PHOTO: f"cannot read photo {target}: not an image or corrupt",
        Problem.CANNOT_OPEN_CAMERA: f"cannot open camera {target}: is it plugged in and not "
                                    "used by another program?",
        Problem.CANNOT_OPEN_VIDEO: f"cannot open video {target}: is it a video file OpenCV "
                                   "can decode?",
        Problem.UNDECODABLE: f"video {target} has no frame that can be decoded (corrupt or not "
                             "a video?)",
        Problem.STALLED: f"camera {target} stopped delivering frames for {seconds:.0f} s "
                         "(unplugged or out of range?)",
        Problem.NOT_A_FILE: f"{target} is a pipe or device, not a video file or folder",
        Problem.NO_SUCH_SOURCE: f"no such camera, file or folder: {target} (give a camera "
                                "index like 0, a URL, a video file, a folder or 'demo')",
    }[problem]


class SourceError(RuntimeError):
    """A source that cannot be opened or stopped delivering: which ``problem``, with which
    source (``target``, credentials removed) and, for a stall, after how many ``seconds``."""

    def __init__(self, problem: Problem, target: str, seconds: float = 0.0) -> None:
        super().__init__(english(problem, target, seconds))
        self.problem, self.target, self.seconds = problem, target, seconds


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


def pace(start: float, t: float) -> None:
    """Sleep until ``t`` seconds after ``start`` (monotonic clock): real-time delivery."""
    delay = start + t - time.monotonic()
    if delay > 0:
        time.sleep(delay)


class FolderSource(FrameSource):
    """The photos of a folder in file-name order, each one a still position after a move.

    A named pipe or device named like a photo is left out (reading it would wait for ever);
    ``skipped`` says which, for the caller to warn about.
    """

    def __init__(self, folder: Path) -> None:
        self.description = f"folder {folder}"
        named = sorted(p for p in folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        self.paths = [p for p in named if p.is_file()]
        self.skipped = [p for p in named if not p.is_file()]
        if not self.paths:
            raise SourceError(Problem.NO_PHOTOS, str(folder))

    def __iter__(self) -> Iterator[Frame]:
        for index, path in enumerate(self.paths):
            try:
                image = load_image(path)
            except ImageError:
                raise SourceError(Problem.BAD_PHOTO, str(path)) from None
            yield Frame(image, float(index), path.name, still=True)


class CaptureSource(FrameSource):
    """Frames from an OpenCV capture: a video file (paced or not) or a live camera.

    A file ends at its last frame. A camera never ends; if it stops delivering for
    ``stall_seconds`` it raises :class:`SourceError`. ``open_capture`` is a parameter so the
    tests can stand in a camera that vanishes.
    """

    def __init__(self, target: str | int, live: bool, realtime: bool,
                 open_capture: Callable[..., Any] | None = None,
                 stall_seconds: float = STALL_SECONDS) -> None:
        shown = self.shown = redact_url(str(target))
        self.description = (f"camera {shown}" if live else f"video {shown}")
        self.live, self.realtime, self.stall_seconds = live, realtime, stall_seconds
        self._stop = threading.Event()
        self._reader: threading.Thread | None = None
        self.capture = (open_capture or _open_capture)(target)
        if not self.capture.isOpened():
            self.capture.release()
            raise SourceError(Problem.CANNOT_OPEN_CAMERA if live else Problem.CANNOT_OPEN_VIDEO,
                              shown)
        fps = 0.0 if live else self.capture.get(cv2.CAP_PROP_FPS)
        self.fps = fps if 1.0 <= fps <= 240.0 else 10.0

    def __iter__(self) -> Iterator[Frame]:
        if self.live:
            yield from self._live_frames()
            return
        start = time.monotonic()
        index = 0
        while True:
            ok, image = self.capture.read()
            if not ok or image is None:
                if index == 0:
                    raise SourceError(Problem.UNDECODABLE, self.shown)
                return
            t = index / self.fps
            if self.realtime:
                pace(start, t)
            yield Frame(image, t, f"{t:.2f}s")
            index += 1

    def _live_frames(self) -> Iterator[Frame]:
        """A camera's frames, read by a thread of their own: a read that blocks (a network
        camera with its socket open and nothing coming) cannot hold the caller, who gives up
        after ``stall_seconds`` without a frame."""
        frames: queue.Queue[np.ndarray] = queue.Queue(maxsize=2)
        self._reader = threading.Thread(target=self._read_into, args=(frames,),
                                        name="camera-reader", daemon=True)
        self._reader.start()
        start = time.monotonic()
        while True:
            try:
                image = frames.get(timeout=self.stall_seconds)
            except queue.Empty:
                raise SourceError(Problem.STALLED, self.shown, self.stall_seconds) from None
            t = time.monotonic() - start
            yield Frame(image, t, f"{t:.2f}s")

    def _read_into(self, frames: queue.Queue[np.ndarray]) -> None:
        """The reader thread: it owns the capture while it runs, and releases it at the end."""
        try:
            while not self._stop.is_set():
                ok, image = self.capture.read()
                if not ok or image is None:
                    self._stop.wait(0.05)
                    continue
                while not self._stop.is_set():
                    try:
                        frames.put(image, timeout=0.1)
                        break
                    except queue.Full:
                        continue
        finally:
            self.capture.release()

    def close(self) -> None:
        self._stop.set()
        if self._reader is None:
            self.capture.release()
        else:  # the reader releases it once its read returns (READ_TIMEOUT_MS at most)
            self._reader.join(READ_TIMEOUT_MS / 1000 + 1)


def _open_capture(target: str | int) -> cv2.VideoCapture:
    """OpenCV's capture, with timeouts on opening and on each read of a network camera."""
    if isinstance(target, str) and target.lower().startswith(STREAM_PREFIXES):
        return cv2.VideoCapture(target, cv2.CAP_ANY, [
            cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, OPEN_TIMEOUT_MS,
            cv2.CAP_PROP_READ_TIMEOUT_MSEC, READ_TIMEOUT_MS])
    return cv2.VideoCapture(target)


def open_source(spec: str | int, realtime: bool | None = None, seed: int = 1) -> FrameSource:
    """Open a camera index ("0"), an http/rtsp URL, a video file, a folder of photos, or "demo".

    ``realtime`` paces a video file (or the demo) at its frame rate, as a camera would
    deliver it; by default only the demo is paced, and recorded footage is read as fast as
    it decodes. ``seed`` picks the demo's game.
    """
    text = str(spec).strip()
    if text == "demo":
        from vision.demo import DemoSource  # the renderer loads only for the demo

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
    if path.exists():  # reading a pipe or device as a video could wait for ever
        raise SourceError(Problem.NOT_A_FILE, repr(text))
    raise SourceError(Problem.NO_SUCH_SOURCE, repr(redact_url(text)))
