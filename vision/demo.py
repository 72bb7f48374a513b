"""The built-in demo as a frame source: a simulated game rendered as camera footage.

It lives apart from :mod:`vision.source` so that a live camera never loads the synthetic
renderer; only ``--camera demo`` (and the benchmarks) import this module.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from vision.source import Frame, FrameSource, pace
from vision.synth.footage import DEMO_STYLE, GameRenders, game_script, video_frames


class DemoSource(FrameSource):
    """The built-in demo: a simulated game rendered as camera footage, hands and all.

    ``clear``, asked before each frame, answers whether to start the game again from an empty
    table, as players would clear a real one for a new game; the recording's clock runs on.
    ``wait``, asked while the table is still after a move, holds the next move back for as
    long as it answers yes: players trying the demo confirm its moves one by one, and a
    recording that played on regardless piled its moves up unconfirmed; once players set
    one aside ("Not a move"), every later move, built on its tiles, was illegal.
    """

    def __init__(self, seed: int, realtime: bool,
                 clear: Callable[[], bool] | None = None,
                 wait: Callable[[], bool] | None = None) -> None:
        self.description = f"demo game (seed {seed})"
        self.seed, self.realtime, self.clear, self.wait = seed, realtime, clear, wait

    def __iter__(self) -> Iterator[Frame]:
        start = time.monotonic()
        offset = 0.0
        while True:
            renders = GameRenders(game_script(players=2, seed=self.seed), self.seed)
            for image, t in video_frames(renders.stills(), DEMO_STYLE, self.seed,
                                         renders.target, self.wait):
                if self.clear is not None and self.clear():
                    offset += t
                    break
                if self.realtime:
                    pace(start, offset + t)
                yield Frame(image, offset + t, f"{offset + t:.2f}s")
            else:
                return
