"""`qwirkle scan`: read the tiles of one or more photos and print them as a grid or JSON.

Each image is handled on its own: one that cannot be read is reported on stderr and the rest
are still scanned; the exit status is then 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.tiles import COLOURS
from webui.commands import add_set_option, colour_list, set_profile

EXAMPLE = """\
examples:
  qwirkle scan table.jpg                       # the board as a grid of tile codes
  qwirkle scan a.jpg b.jpg --json              # one JSON line per image
  qwirkle scan photo.jpg --colours red,orange,yellow,green,blue,white --debug-dir out/
  qwirkle scan photo.jpg --set set-profile.json    # a set learned by qwirkle calibrate

Codes are colour letter + shape letters: RSt = red star, BCi = blue circle, PCr = purple
cross. JSON lines look like
{"image": "a.jpg", "tiles": [{"x": 0, "y": 0, "colour": "red", "shape": "star",
  "confidence": 0.99, "center": [812.5, 604.0]}], "off_board": [], "ms": 41.0}
A tile cut by the picture's edge (60 % or more of it in view) adds "doubtful": true and
"visible": its share in view. "off_board" lists tiles lying apart from the board (a rack,
spare tiles more than one empty cell away): they are never board tiles.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "scan",
        help="find the tiles in photos and print their cells, shapes and colours",
        description="Find every tile in each photo, its grid cell, shape and colour.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo files to scan")
    parser.add_argument("--json", action="store_true", help="one JSON line per image")
    parser.add_argument("--colours", type=colour_list, default=COLOURS, metavar="C1,...,C6",
                        help="the set's six colours (default " + ",".join(COLOURS) + ")")
    add_set_option(parser)
    parser.add_argument("--debug-dir", type=Path, metavar="DIR",
                        help="write an overlay picture per image (lattice, cells, labels)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.classifier import ModelMissingError
    from vision.scan import ImageError, load_image, overlay, scan_image

    profile = set_profile(args)
    adapter = profile.adapter if profile else None
    status = 0
    if args.debug_dir:
        try:
            args.debug_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(f"qwirkle scan: cannot make --debug-dir {args.debug_dir}: {error.strerror}",
                  file=sys.stderr)
            return 2
    for path in args.images:
        try:
            image = load_image(path)
            result = scan_image(image, colours=args.colours, adapter=adapter)
        except ModelMissingError as error:  # no image can be read without it: stop here
            print(f"qwirkle scan: {error}", file=sys.stderr)
            return 1
        except (ValueError, cv2.error, MemoryError) as error:
            # One photo's trouble is reported, and the others are still scanned.
            said = error if isinstance(error, ImageError) else _failed(path, error)
            print(f"qwirkle scan: {said}", file=sys.stderr)
            status = 2
            continue
        if args.json:
            print(json.dumps(_as_json(path, result)), flush=True)
        else:
            print(_as_grid(path, result), flush=True)
        if args.debug_dir:
            target = args.debug_dir / (Path(path).stem + ".overlay.jpg")
            if not cv2.imwrite(str(target), overlay(image, result)):
                print(f"qwirkle scan: cannot write {target}", file=sys.stderr)
                status = 2
    return status


def _failed(path: str, error: BaseException) -> str:
    return f"{path}: could not be scanned ({type(error).__name__}: {error})"


def _as_json(path: str, result) -> dict:
    return {"image": str(path), "tiles": [_tile_json(t) for t in result.tiles],
            "off_board": [_tile_json(t) for t in result.off_board], "ms": round(result.ms, 1)}


def _tile_json(reading) -> dict:
    """One reading; a tile cut by the picture's edge says so, with the share of it in view."""
    entry = {"x": reading.x, "y": reading.y, "colour": reading.guess.tile.colour,
             "shape": reading.guess.tile.shape, "confidence": round(reading.guess.confidence, 4),
             "center": [round(reading.center[0], 1), round(reading.center[1], 1)]}
    if reading.cut:
        entry.update(doubtful=True, visible=round(reading.visible, 2))
    return entry


def _as_grid(path: str, result) -> str:
    """A text grid: one column per cell x, one row per cell y, '.' for an empty cell."""
    if not result.tiles:
        return f"{path}: no tiles found ({result.ms:.0f} ms)"
    codes = {(t.x, t.y): t.guess.tile.code for t in result.tiles}
    xs = [x for x, _ in codes]
    ys = [y for _, y in codes]
    apart = f", {len(result.off_board)} off the board" if result.off_board else ""
    rows = [f"{path}: {len(codes)} tiles{apart} ({result.ms:.0f} ms)"]
    for y in range(min(ys), max(ys) + 1):
        rows.append(" ".join(codes.get((x, y), " . ") for x in range(min(xs), max(xs) + 1)))
    return "\n".join(rows)
