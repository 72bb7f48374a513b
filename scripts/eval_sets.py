"""Reading an odd set: the network alone, after learning from confirmed tiles, and calibrated.

    .venv/bin/python scripts/eval_sets.py                # 6 rendered games, 6 photos each
    .venv/bin/python scripts/eval_sets.py --games 10 --photos 8

Each game renders one set of the older printing (teal green, sky blue, lime-ish yellow,
lavender purple; 6-point stars) with its own table and light (style seeds 700.., no glare) and
reads photos of 25 random tiles. Figures count the photos after the first: by the network alone,
with what the players confirmed on the earlier photos (vision.adapt), and with a set profile
from one photo of the 36 kinds (`qwirkle calibrate`). --standard does the same with the
standard set, to show learning does not spoil it.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from engine.tiles import COLOURS  # noqa: E402
from vision.learning_trial import Trial, calibration_photo, older_style, play  # noqa: E402
from vision.setprofile import calibrate  # noqa: E402
from vision.synth.scene import random_style  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="rendered games (default 6)")
    parser.add_argument("--photos", type=int, default=6, help="photos per game (default 6)")
    parser.add_argument("--standard", action="store_true", help="the standard set instead")
    args = parser.parse_args(argv)

    total = Trial()
    print(f"{'game':>5} {'tiles':>6} {'alone':>7} {'learned':>8} {'calibrated':>11}")
    for game in range(args.games):
        style = random_style(np.random.default_rng(700 + game))
        style = replace(style, glare=0) if args.standard else older_style(style)
        profile = calibrate(calibration_photo(style, COLOURS), COLOURS).profile.adapter
        trial = play(style, COLOURS, args.photos, profile=profile)
        print(f"{game:>5} {trial.read:>6} {trial.alone:>7} {trial.learned:>8} "
              f"{trial.calibrated:>11}")
        for name in ("read", "alone", "learned", "calibrated"):
            setattr(total, name, getattr(total, name) + getattr(trial, name))
    print(f"labels right over {total.read} tiles: network alone {_share(total.alone, total)}, "
          f"learned from play {_share(total.learned, total)}, calibrated "
          f"{_share(total.calibrated, total)}")
    return 0


def _share(right: int, total: Trial) -> str:
    return f"{100 * right / max(1, total.read):.1f} %"


if __name__ == "__main__":
    sys.exit(main())
