"""A camera for the live tests: it shows what a test puts in front of it; and a game that
disagrees with it."""

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
