"""The built-in demo as a frame source: a simulated game rendered as camera footage.

It lives apart from :mod:`vision.source` so that a live camera never loads the synthetic
renderer; only ``--camera demo`` (and the benchmarks) import this module.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from vision.source import Frame, FrameSource, pace
from vision.synth.footage import DEMO_STYLE, GameRenders, game_script, video_frames


class DemoSource(FrameSource):
    """The built-in demo: a simulated game rendered as camera footage, hands and all."""

    def __init__(self, seed: int, realtime: bool) -> None:
        self.description = f"demo game (seed {seed})"
        self.seed, self.realtime = seed, realtime

    def __iter__(self) -> Iterator[Frame]:
        start = time.monotonic()
        renders = GameRenders(game_script(players=2, seed=self.seed), self.seed)
        for image, t in video_frames(renders.stills(), DEMO_STYLE, self.seed, renders.target):
            if self.realtime:
                pace(start, t)
            yield Frame(image, t, f"{t:.2f}s")
