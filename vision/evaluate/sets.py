"""Reading an odd set: the network alone, after learning from confirmed tiles, and calibrated.

    .venv/bin/python -m vision.evaluate.sets                # 6 rendered games, 6 photos each
    .venv/bin/python -m vision.evaluate.sets --games 10 --photos 8

Each game renders one set of the older printing (teal green, sky blue, lime-ish yellow,
lavender purple; 6-point stars) with its own table and light (style seeds 700.., no glare) and
reads photos of 25 random tiles, every other photo with the camera turned a quarter (so the
tiles lie the other way round in the picture: a 6-point star shows a side where it showed a
point). Each photo is read by the network alone and with a
:class:`vision.adapt.SetAdapter` that has learned from the tiles of every earlier photo, as
the players would have confirmed them (their true labels), and with a set profile made by
calibrating on a photo of the 36 kinds (`qwirkle calibrate`). Figures count the photos after
the first; the calibrated figure counts the games whose calibration photo was read (one the
scan misreads is said, not counted). --standard does the same with the standard set, to show
learning does not spoil it. The trial (:func:`play`) is shared with the tests.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace

import numpy as np

from engine.tiles import COLOURS, SHAPES, Tile
from vision.adapt import SetAdapter
from vision.evaluate.real import align
from vision.scan import scan_image
from vision.setprofile import BlockError, calibrate
from vision.synth.scene import Style, View, random_layout, random_style, render_board


@dataclass
class Trial:
    """Right labels over the photos after the first (the first teaches only), of ``read``."""

    read: int = 0
    alone: int = 0
    learned: int = 0  # with the confirmed tiles of the earlier photos
    calibrated: int = 0  # with a profile from a photo of the 36 kinds (when one was made)
    calibrated_of: int = 0  # tiles read with such a profile


def older_style(base: Style) -> Style:
    """A style with the older printing's colours and 6-point stars, no glare."""
    from vision.synth.tiles import edition

    return replace(base, glare=0, tile_set=edition(base.tile_set, "older", star_points=6))


def calibration_photo(style: Style, colours: tuple[str, ...]) -> np.ndarray:
    """The set's 36 kinds in the documented 6 x 6 block, photographed upside down."""
    block = [(c, r, Tile(colours[r], SHAPES[c])) for r in range(6) for c in range(6)]
    view = View(elevation=85, pitch_px=50, roll=180)
    return render_board(block, np.random.default_rng(5), style=style, view=view).image


def play(style: Style, colours: tuple[str, ...], photos: int, tiles: int = 25,
         profile: SetAdapter | None = None) -> Trial:
    """Read ``photos`` boards of ``tiles`` random tiles rendered with one set and camera."""
    trial, adapter = Trial(), SetAdapter()
    for k in range(photos):
        rng = np.random.default_rng(1000 + k)
        layout = random_layout(rng, tiles, colours)
        image = render_board(layout, rng, style=style,
                             view=View(elevation=80, pitch_px=45, roll=90.0 * (k % 2))).image
        truth = {(x, y): t for x, y, t in layout}
        matched, right = _read(image, truth, colours, adapter)
        if k:
            trial.read += len(matched)
            trial.learned += right
            trial.alone += _read(image, truth, colours)[1]
            if profile is not None:
                trial.calibrated += _read(image, truth, colours, profile)[1]
                trial.calibrated_of += len(matched)
        adapter.learn([g for g, _ in matched], [t for _, t in matched])  # the players confirm
    return trial


def _read(image, truth, colours, adapter=None):
    """The readings matched to the truth as (guess, true tile), and how many are right."""
    found = {(t.x, t.y): t.guess for t in scan_image(image, colours, adapter).tiles}
    matched = [(found[f], truth[t]) for f, t in align(set(found), set(truth)).items()]
    return matched, sum(guess.tile == tile for guess, tile in matched)


# --------------------------------------------------------------------------- the command


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
        try:
            profile = calibrate(calibration_photo(style, COLOURS), COLOURS).profile.adapter
        except BlockError as error:
            profile = None
            print(f"{game:>5} calibration photo not read: {error}")
        trial = play(style, COLOURS, args.photos, profile=profile)
        print(f"{game:>5} {trial.read:>6} {trial.alone:>7} {trial.learned:>8} "
              f"{trial.calibrated if profile is not None else '-':>11}")
        for name in ("read", "alone", "learned", "calibrated", "calibrated_of"):
            setattr(total, name, getattr(total, name) + getattr(trial, name))
    print(f"labels right over {total.read} tiles: network alone "
          f"{_share(total.alone, total.read)}, learned from play "
          f"{_share(total.learned, total.read)}, calibrated "
          f"{_share(total.calibrated, total.calibrated_of)} of {total.calibrated_of}")
    return 0


def _share(right: int, read: int) -> str:
    return f"{100 * right / max(1, read):.1f} %"


if __name__ == "__main__":
    sys.exit(main())
