"""The change signal that live pages wait on.

Every change to a game or to the camera bumps one revision; each event stream waits until
the version it last sent is out of date. One condition for the whole server is enough: a
table has a handful of tablets, and a wake-up that finds nothing new costs a comparison.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Notifier:
    """A revision counter with a condition to wait for it (sharing the games' lock, so a
    change and its signal are one step for a waiting stream)."""

    def __init__(self, lock: threading.RLock) -> None:
        self._changed = threading.Condition(lock)
        self.revision = 0

    def touch(self) -> None:
        """Something a page shows has changed: wake every waiting stream."""
        with self._changed:
            self.revision += 1
            self._changed.notify_all()

    def wait_for(self, changed: Callable[[], bool], timeout: float) -> bool:
        """Block until ``changed()`` holds or ``timeout`` seconds pass; whether it holds."""
        with self._changed:
            return self._changed.wait_for(changed, timeout)
