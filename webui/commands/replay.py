"""`qwirkle replay`: read a recorded game (photos or video) or a camera, print the moves and scores.

It runs the same pipeline as the live table (:class:`vision.tracker.MoveTracker`), without a
person to confirm: every move is taken as read, and the ones that need a person's eye are
marked so. If the source fails half-way, the moves found so far are still printed.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.board import placed_row
from engine.tiles import COLOURS
from vision.adapt import SetAdapter
from vision.decode import DetectedMove
from vision.source import SourceError, open_source
from vision.tracker import MoveTracker
from webui.commands import add_set_option, colour_list, set_profile

EXAMPLE = """example:
  qwirkle replay ../shared/data/real/classic-a --colours red,orange,yellow,green,blue,white
  qwirkle replay game.mp4 --json --still-seconds 0.7"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "replay", help="read the moves and scores of a recorded game or a camera",
        description="Find every move in a folder of photos (one per move, in file-name order), "
                    "a video file, a camera index or URL, or 'demo', and score it. A first "
                    "picture showing the board game's start (diagonals of six tiles on a "
                    "printed board) is taken as that start, and its bonus squares are scored.",
        epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="folder of photos, video file, camera index, URL or 'demo'")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--colours", type=colour_list, default=COLOURS,
                        help="the set's six colours, comma-separated (default: %(default)s)")
    add_set_option(parser)
    parser.add_argument("--still-seconds", type=float, default=0.4,
                        help="how long the table must be still before it is read (video/camera)")
    parser.set_defaults(func=run)


def replay(source_spec: str, colours, still_seconds: float, adapter: SetAdapter | None = None
           ) -> tuple[list[DetectedMove], MoveTracker, str]:
    """All moves of a source, the tracker (for the final board) and an error message or ""
    (also when nothing was found: "0 moves" alone would read as a game without moves)."""
    tracker = MoveTracker(colours=colours, still_seconds=still_seconds, adapter=adapter)
    moves: list[DetectedMove] = []
    frames = 0
    try:
        with open_source(source_spec) as source:
            for skipped in getattr(source, "skipped", ()):
                print(f"qwirkle replay: {skipped} is not a photo file (a pipe or device): "
                      "skipped", file=sys.stderr)
            for frame in source:
                frames += 1
                moves.extend(tracker.feed(frame))
    except SourceError as err:
        return tracker.settled(moves), tracker, str(err)
    moves = tracker.settled(moves)
    if not moves:
        what = "one picture" if frames == 1 else f"{frames} pictures"
        hint = (": a game is read from a photo after each move" if frames <= 1
                else " (no tiles seen, or the table never held still)")
        return moves, tracker, f"no move found in {what} of {source_spec}{hint}"
    return moves, tracker, ""


def print_moves(moves: list[DetectedMove]) -> None:
    total = number = 0
    started = False
    for move in moves:
        tiles = " ".join(f"{tile.code}({x},{y})" for x, y, tile in move.tiles) or "(no new tiles)"
        if move.start:
            print(f"start  {len(move.tiles)} tiles of the board game, laid before move 1 (its "
                  f"bonus squares count): {tiles}" if not started else
                  f"start  {len(move.tiles)} more of its tiles, missed until now: {tiles}")
            started = True
            continue
        number += 1
        total += move.score or 0
        score = "?" if move.score is None else f"+{move.score}"
        at = move.at if isinstance(move.at, str) else f"{move.at:.1f}s"
        print(f"{number:3d}  {at:>8}  {score:>4}  total {total:4d}  {tiles}")
        if move.needs_confirmation:
            print(f"{'':15}check: {move.reason}")


def run(args: argparse.Namespace) -> int:
    profile = set_profile(args)
    moves, tracker, error = replay(args.source, args.colours, args.still_seconds,
                                   profile.adapter if profile else None)
    if args.json:
        print(json.dumps({
            "start": [placed_row(p) for m in moves if m.start for p in m.tiles],
            "moves": [{"tiles": [placed_row(p) for p in m.tiles], "score": m.score,
                       "needs_confirmation": m.needs_confirmation, "reason": m.reason,
                       "doubt_codes": [d.kind.value for d in m.doubts], "at": m.at}
                      for m in moves if not m.start],
            "board": [placed_row(p) for p in tracker.board.placed()],
        }))
    else:
        print_moves(moves)
    if error:
        found = f" ({len(moves)} moves found before that)" if moves else ""
        print(f"qwirkle replay: {error}{found}", file=sys.stderr)
        return 2
    return 0
