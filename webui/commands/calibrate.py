"""`qwirkle calibrate`: learn an odd set (another edition, a home-made one) from one photo.

The photo shows one tile of each of the 36 kinds in a 6 x 6 block: a row per colour in the
order of --colours, a column per shape in the order circle, square, diamond, clover, cross,
star. The block may be photographed from any side. The profile it saves is used by
``qwirkle scan --set PROFILE``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.tiles import COLOURS, SHAPES
from webui.commands import colour_list

EXAMPLE = f"""\
examples:
  qwirkle calibrate block.jpg                          # writes set-profile.json
  qwirkle calibrate block.jpg --colours red,orange,yellow,green,blue,white --out white.json
  qwirkle scan table.jpg --set white.json              # then read the table with it

Lay the block out as rows of colours ({", ".join(COLOURS)} by default, or the order of
--colours) and columns of shapes ({", ".join(SHAPES)}).
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="learn a set from a photo of its 36 kinds and save a set profile",
        description="Learn what a set's colours and shapes look like from one photo of all "
                    "36 kinds in a 6 x 6 block, and save it as a set profile.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("image", metavar="PHOTO", help="photo of the 6 x 6 block")
    parser.add_argument("--colours", type=colour_list, default=COLOURS, metavar="C1,...,C6",
                        help="the set's colours, in the order of the block's rows (default "
                             + ",".join(COLOURS) + ")")
    parser.add_argument("--out", type=Path, default=Path("set-profile.json"), metavar="PROFILE",
                        help="where to save the profile (default set-profile.json)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.classifier import ModelMissingError
    from vision.scan import ImageError, load_image
    from vision.setprofile import ProfileError, calibrate, save_profile

    try:
        result = calibrate(load_image(args.image), args.colours)
        save_profile(result.profile, args.out)
    except (ImageError, ProfileError, ModelMissingError, OSError) as error:
        print(f"qwirkle calibrate: {error}", file=sys.stderr)
        return 2
    right = len(result.block) - len(result.misread)
    print(f"{args.image}: the 36 kinds found; the classifier alone read {right} of them right")
    for kind, read in result.misread:
        print(f"  {kind.colour} {kind.shape} was read as {read.colour} {read.shape}")
    print(f"set profile saved to {args.out}")
    return 0
