"""How many long-lived streams (event streams, camera preview) the server keeps open.

waitress gives each open response a worker thread of its own for as long as it runs. So
`qwirkle serve` starts enough threads for :data:`STREAMS_TOTAL` streams *plus*
:data:`REQUEST_THREADS` that only ever serve ordinary requests: however many streams are open,
a tablet's write finds a free thread. Past the caps a stream is refused at once with a 503
(the page's script retries), rather than queueing behind the others.

A device on the Wi-Fi may hold :data:`STREAMS_PER_CLIENT` streams (a tablet needs one, a TV
two, a few tabs more), so one neighbour cannot take every slot. The laptop itself
(loopback) is counted in the total only.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

from .auth import LOOPBACK

STREAMS_TOTAL = 160
"""Streams open at once, all clients together (each holds a waitress thread)."""

STREAMS_PER_CLIENT = 32
"""Streams one address on the LAN may hold at once."""

REQUEST_THREADS = 16
"""Threads kept for ordinary requests, never taken by a stream."""



class StreamGate:
    """Counts open streams per client address; thread-safe."""

    def __init__(self, total: int = STREAMS_TOTAL, per_client: int = STREAMS_PER_CLIENT) -> None:
        self.total, self.per_client = total, per_client
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()

    def enter(self, address: str) -> Callable[[], None] | None:
        """A slot for one more stream from ``address``: the function that frees it (call it
        once, when the stream ends), or None when a cap is reached."""
        with self._lock:
            if sum(self._open.values()) >= self.total:
                return None
            if address not in LOOPBACK and self._open[address] >= self.per_client:
                return None
            self._open[address] += 1
        left: list[bool] = []

        def leave() -> None:
            with self._lock:
                if left:
                    return
                left.append(True)
                self._open[address] -= 1
                if self._open[address] <= 0:
                    del self._open[address]

        return leave

    def count(self, address: str | None = None) -> int:
        with self._lock:
            return self._open[address] if address else sum(self._open.values())
