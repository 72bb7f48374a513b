"""Frame sources: one interface over a folder of photos, a video file, a live camera and the demo.

The web app, `qwirkle replay` and the tests all read frames the same way, so whatever works on
a recorded clip works on the camera. A source yields :class:`Frame` objects and raises
:class:`SourceError` with a message a player can act on when it cannot open, or when a camera
stops delivering (unplugged, Wi-Fi camera out of range).
"""

from __future__ import annotations

import contextlib
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
LIVE_FPS = 10.0
"""A live camera's pictures go to the tracker at most this often. The stillness gate's
thresholds and the cost target (issue 10: 15 % of one core) are set for 10 frames a second,
but a webcam gives 30: the others are taken from the driver, so the next picture is fresh, and
never decoded."""
CAMERA_SIZE = (1920, 1080)
"""The picture a webcam (a camera index) is asked for; it gives the nearest it can. Opened as
it is, OpenCV takes the driver's default, 640 x 480 for most USB webcams, in which a table's
tiles come out 10-20 px wide, under what the recognition reads reliably. Compressed frames
(MJPG) are asked for too: uncompressed ones of that size fit only a few a second through
USB 2."""
SMALL_PICTURE = 960
"""A picture whose long side is under this many pixels is worth a word to the players: the
recognition is checked down to webcam-size photos of 960 px with tiles about 35 px wide."""
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
    CANNOT_REACH_CAMERA = "cannot_reach_camera"
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
        Problem.CANNOT_REACH_CAMERA: f"cannot reach camera {target}: is the phone or camera on, "
                                     "streaming, and on this network?",
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
            raise SourceError(_open_problem(target, live), shown)
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
        after ``stall_seconds`` without a frame. The caller always gets the newest picture, at
        most ``LIVE_FPS`` a second, stamped with when it was taken: after a slow scan it sees
        the table as it is now, not the queue of what it missed."""
        newest: queue.Queue[Frame] = queue.Queue(maxsize=1)
        self._reader = threading.Thread(target=self._read_into, args=(newest,),
                                        name="camera-reader", daemon=True)
        self._reader.start()
        while True:
            try:
                yield newest.get(timeout=self.stall_seconds)
            except queue.Empty:
                raise SourceError(Problem.STALLED, self.shown, self.stall_seconds) from None

    def _read_into(self, newest: queue.Queue[Frame]) -> None:
        """The reader thread: it owns the capture while it runs, and releases it at the end.
        It takes every frame the camera sends (``grab``), so none wait in the driver's queue,
        and decodes one (``retrieve``) only when the next is due; a frame the caller has not
        taken yet is replaced by the newer one."""
        start = time.monotonic()
        due = 0.0
        try:
            while not self._stop.is_set():
                if not self.capture.grab():
                    self._stop.wait(0.05)
                    continue
                t = time.monotonic() - start
                if t < due:
                    continue
                ok, image = self.capture.retrieve()
                if not ok or image is None:
                    continue
                due = t + 1.0 / LIVE_FPS
                with contextlib.suppress(queue.Empty):  # the caller has not taken it: too old
                    newest.get_nowait()
                newest.put(Frame(image, t, f"{t:.2f}s"))
        finally:
            self.capture.release()

    def close(self) -> None:
        self._stop.set()
        if self._reader is None:
            self.capture.release()
        else:  # the reader releases it once its read returns (READ_TIMEOUT_MS at most)
            self._reader.join(READ_TIMEOUT_MS / 1000 + 1)


def _is_stream(target: str | int) -> bool:
    return isinstance(target, str) and target.lower().startswith(STREAM_PREFIXES)


def _open_problem(target: str | int, live: bool) -> Problem:
    """Why a capture did not open: a network camera is out of reach (off, or on another
    network), a webcam unplugged or busy, a video file unreadable; each wants its own fix."""
    if not live:
        return Problem.CANNOT_OPEN_VIDEO
    return Problem.CANNOT_REACH_CAMERA if _is_stream(target) else Problem.CANNOT_OPEN_CAMERA


def _open_capture(target: str | int) -> cv2.VideoCapture:
    """OpenCV's capture, with timeouts on opening and on each read of a network camera, and
    a webcam asked for ``CAMERA_SIZE`` (a network camera's picture is set in its own app)."""
    if _is_stream(target):
        return cv2.VideoCapture(target, cv2.CAP_ANY, [
            cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, OPEN_TIMEOUT_MS,
            cv2.CAP_PROP_READ_TIMEOUT_MSEC, READ_TIMEOUT_MS])
    capture = cv2.VideoCapture(target)
    if isinstance(target, int) and capture.isOpened():
        # The format first: some drivers offer the large sizes only in it.
        capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, CAMERA_SIZE[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, CAMERA_SIZE[1])
    return capture


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
    if _is_stream(text):
        return CaptureSource(text, live=True, realtime=True)
    path = Path(text).expanduser()
    if path.is_dir():
        return FolderSource(path)
    if path.is_file():
        return CaptureSource(str(path), live=False, realtime=bool(realtime))
    if path.exists():  # reading a pipe or device as a video could wait for ever
        raise SourceError(Problem.NOT_A_FILE, repr(text))
    raise SourceError(Problem.NO_SUCH_SOURCE, repr(redact_url(text)))
