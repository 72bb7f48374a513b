"""A camera for the live tests: it shows what a test puts in front of it."""

from __future__ import annotations

import queue
import threading

from vision.source import Frame, Problem, SourceError


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
