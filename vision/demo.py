"""The built-in demo as a frame source: a simulated game rendered as camera footage.

It lives apart from :mod:`vision.source` so that a live camera never loads the synthetic
renderer; only ``--camera demo`` (and the benchmarks) import this module.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache

from engine.board import Cell, Placed
from engine.tiles import Tile
from vision.evaluate.real import align
from vision.source import Frame, FrameSource, pace
from vision.synth.footage import DEMO_STYLE, GameRenders, GameScript, game_script, video_frames

DEMO_SEED = 1
"""The simulated game the built-in demo plays."""


@lru_cache(maxsize=2)
def demo_script(seed: int = DEMO_SEED) -> GameScript:
    """The demo's game (simulated once: it takes most of a second)."""
    return game_script(players=2, seed=seed)


def demo_position(tiles: Iterable[Placed], seed: int = DEMO_SEED) -> int | None:
    """The position of the demo's recording that shows ``tiles`` (a game's, in the cells the
    camera gave them, so turned and shifted against the script's), or None when none does,
    or when it is the last, which holds nothing more to play. A server restarted over the
    demo's game picks the recording up there.

    Every cell must match, and most labels: players may have fixed a tile or two that the
    camera misread, and the game is still the demo's."""
    seen = {(x, y): tile for x, y, tile in tiles}
    positions = demo_script(seed).positions
    return next((k for k, position in enumerate(positions[:-1]) if _shows(seen, position)),
                None)


def demo_played(tiles: Iterable[Placed], seed: int = DEMO_SEED) -> bool:
    """Whether ``tiles`` show the recording's last position: the demo laid all its moves."""
    return _shows({(x, y): tile for x, y, tile in tiles}, demo_script(seed).positions[-1])


def _shows(seen: dict[Cell, Tile], position: Sequence[Placed]) -> bool:
    """Whether a game's tiles are ``position``'s, as :func:`demo_position` matches them."""
    if len(position) != len(seen) or not seen:
        return False
    truth = {(x, y): tile for x, y, tile in position}
    pairs = align(seen, truth)
    same = sum(seen[a] == truth[b] for a, b in pairs.items())
    return len(pairs) == len(seen) and 2 * same > len(seen)


STOP = -1
"""What :class:`DemoSource`'s ``restart`` answers to end the recording: the game now at the
table is not the demo's, and the demo must not lay its tiles into it."""


class DemoSource(FrameSource):
    """The built-in demo: a simulated game rendered as camera footage, hands and all.

    ``restart``, asked before each frame, answers None to go on, or the position to play
    from again (0, an empty table, as players clear a real one for a new game; where a game
    of the demo's that players brought back stood), or :data:`STOP`; the recording's clock
    runs on.
    ``wait``, asked while the table is still after a move, holds the next move back for as
    long as it answers yes: players trying the demo confirm its moves one by one, and a
    recording that played on regardless piled its moves up unconfirmed; once players set
    one aside ("Not a move"), every later move, built on its tiles, was illegal.
    ``start``: the position (:func:`demo_position`) the first pass begins at.
    """

    def __init__(self, seed: int, realtime: bool,
                 restart: Callable[[], int | None] | None = None,
                 wait: Callable[[], bool] | None = None, start: int = 0) -> None:
        self.description = f"demo game (seed {seed})"
        self.seed, self.realtime, self.restart, self.wait = seed, realtime, restart, wait
        self.start = start

    def __iter__(self) -> Iterator[Frame]:
        start = time.monotonic()
        offset = 0.0
        first = self.start
        while True:
            renders = GameRenders(demo_script(self.seed), self.seed)

            def target(k: int, renders: GameRenders = renders,
                       first: int = first) -> tuple[float, float]:
                return renders.target(k + first)

            for image, t in video_frames(renders.stills(first), DEMO_STYLE, self.seed,
                                         target, self.wait):
                again = self.restart() if self.restart is not None else None
                if again is not None:
                    offset += t
                    break
                if self.realtime:
                    pace(start, offset + t)
                yield Frame(image, offset + t, f"{offset + t:.2f}s")
            else:
                return
            if again == STOP:
                return
            first = again
