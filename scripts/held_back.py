"""Which readings the kind count holds back on rendered boards, and whether they were right.

    .venv/bin/python scripts/held_back.py cloths 0 40
    .venv/bin/python scripts/held_back.py oblique-50 160 80    # also oblique-30, oblique-40
    .venv/bin/python scripts/held_back.py synthetic 160 200    # and floors 0 100

The rendered boards' random layouts are no set: they may hold four or more of one kind, where
``vision.scan.COPIES`` holds back readings that were right. This sorts every reading held
back into: right, of a kind the layout holds more than three times (no set does); right, of
a kind it holds three times or fewer (a real loss); a misreading; a reading on no tile.
"""

from __future__ import annotations

import sys
from collections import Counter
from functools import partial

from engine.tiles import COLOURS
from vision import scan
from vision.evaluate import real

RENDERS = {"cloths": real.cloth_render, "floors": real.floor_render, "synthetic": real._render,
           **{f"oblique-{low}": partial(real.oblique_render, from_vertical=(low, low + 10))
              for low in (30, 40, 50)}}


def main(kind: str, first: int, count: int) -> None:
    totals: Counter = Counter()
    for seed in range(first, first + count):
        truth, image = RENDERS[kind](seed)
        result = scan.scan_image(image, colours=COLOURS)
        readings = result.tiles + [r for r in result.doubtful if scan._sure(r.guess)]
        flags = scan._beyond_the_set([r.guess for r in readings])
        held = [r for r, flag in zip(readings, flags, strict=True) if flag]
        if not held:
            continue
        found = {(r.x, r.y): r.guess.tile for r in result.tiles + held}
        pairs = real.align(found, truth)
        copies = Counter(truth.values())
        for r in held:
            cell = (r.x, r.y)
            if cell not in pairs:
                verdict = "on no tile"
            elif truth[pairs[cell]] != r.guess.tile:
                verdict = "misreading"
            elif copies[r.guess.tile] > scan.COPIES:
                verdict = "right, kind more than three times in the layout"
            else:
                verdict = "RIGHT, kind three times or fewer: a real loss"
            totals[verdict] += 1
            print(f"board {seed} cell {cell}: {r.guess.tile} at {r.guess.confidence:.2f}: "
                  f"{verdict}")
    print(f"{kind}: {dict(totals)}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
