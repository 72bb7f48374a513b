"""Cameras for the live tests: one that shows what a test puts in front of it, and an OpenCV
capture that stands in for a webcam or a video file; the app watching such a camera; and a
game that disagrees with a camera."""

from __future__ import annotations

import queue
import threading
import time
from contextlib import contextmanager

import numpy as np

from vision.source import Frame, Problem, SourceError


class FakeCapture:
    """What ``vision.source.CaptureSource`` needs of an OpenCV capture: ``frames`` pictures,
    one every ``interval`` seconds, then nothing (an unplugged webcam, or a file's end);
    with ``opens=False`` a device that will not open.

    It counts the frames taken from it (``grabbed``) and decoded (``decoded``). Without an
    ``image`` each picture is a small grey one that carries its number in its first pixel."""

    def __init__(self, frames: int, interval: float = 0.0, opens: bool = True,
                 image: np.ndarray | None = None) -> None:
        self.left, self.interval, self.opens = frames, interval, opens
        self.image, self.numbered = image, image is None
        if image is None:
            self.image = np.full((48, 64, 3), 90, np.uint8)
        self.grabbed = self.decoded = 0
        self.released = False

    def isOpened(self) -> bool:  # noqa: N802  # OpenCV's name
        return self.opens

    def grab(self) -> bool:
        if self.left <= 0:
            return False
        time.sleep(self.interval)
        self.left -= 1
        self.grabbed += 1
        return True

    def retrieve(self) -> tuple[bool, np.ndarray]:
        self.decoded += 1
        image = self.image.copy()
        if self.numbered:
            image[0, 0, 0] = self.grabbed % 256
        return True, image

    def read(self) -> tuple[bool, np.ndarray | None]:
        return self.retrieve() if self.grab() else (False, None)

    def get(self, _prop: int) -> float:
        return 0.0

    def release(self) -> None:
        self.released = True


class ScriptedCamera:
    """A camera that shows what the test puts in front of it, each picture once.

    ``show`` returns when the live loop has finished with the picture (it asks for the next
    one only then), so a test can look at the state right after. ``unplug`` makes the camera
    fail; ``end`` ends it as a recording ends.
    """

    def __init__(self) -> None:
        self.pictures: queue.Queue = queue.Queue()
        self.asked = 0
        self.opened = 0
        self._done = threading.Condition()

    def __call__(self):
        self.opened += 1
        return self.frames()

    def frames(self):
        while True:
            with self._done:
                self.asked += 1
                self._done.notify_all()
            picture = self.pictures.get()
            if isinstance(picture, Exception):
                raise picture
            if picture is None:
                return
            yield Frame(picture, float(self.asked), f"{self.asked:02d}.jpg", still=True)

    def show(self, picture, timeout: float = 60.0) -> None:
        with self._done:
            before = self.asked
            self.pictures.put(picture)
            assert self._done.wait_for(lambda: self.asked > before, timeout), "not read"

    def unplug(self) -> None:
        self.pictures.put(SourceError(Problem.STALLED, "0", 3))

    def end(self) -> None:
        self.pictures.put(None)


@contextmanager
def served(db, finite: bool = False):
    """The app on ``db`` (a ``webui_support.Table``) and a scripted camera, watched by the
    live loop with the real tracker; the loop stops and the camera ends on leaving. Served
    again on the same database, it is a restart. ``finite``: the camera is a recording."""
    from webui_support import Table, make_app

    from vision.tracker import MoveTracker
    from webui.app import attach_live

    app = make_app(db, CAMERA_RETRY_S=0.05)
    camera = ScriptedCamera()
    loop = attach_live(app, camera, lambda c: MoveTracker(colours=c), finite=finite)
    try:
        yield Table(app), camera
    finally:
        loop.stop(timeout=1.0)
        camera.end()


def confirm(table, game: int) -> dict:
    """Confirm the move a game's tablets show (on a ``webui_support.Table``); its state."""
    response = table.post(f"/api/games/{game}/pending/confirm")
    assert response.status_code == 200, response.json
    return response.json


def confirm_a_phantom(table, camera: ScriptedCamera, stills) -> tuple[int, dict]:
    """A new game (on a ``webui_support.Table``) whose first move a careless fix gave a
    phantom tile, confirmed: 4 points where the table shows 3, so the game and the camera
    disagree. The game's id and the phantom tile."""
    game = table.new_game()
    camera.show(stills[0])
    camera.show(stills[1])
    pending = table.client.get("/api/state").json["pending"]["tiles"]
    xs, ys = {tile["x"] for tile in pending}, {tile["y"] for tile in pending}
    x, y = (max(xs) + 1, min(ys)) if len(ys) == 1 else (min(xs), max(ys) + 1)
    phantom = dict(pending[0], x=x, y=y, shape="cross", code=pending[0]["code"][0] + "Cr")
    table.post(f"/api/games/{game}/pending", {"tiles": [*pending, phantom]})
    confirmed = table.post(f"/api/games/{game}/pending/confirm").json
    assert confirmed["players"][0]["score"] == 4
    return game, phantom
