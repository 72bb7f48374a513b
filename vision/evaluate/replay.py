"""Evaluate move inference: real photos, the same as videos with hands, synthetic games.

    .venv/bin/python -m vision.evaluate.replay                 # everything (long: see README)
    .venv/bin/python -m vision.evaluate.replay --games 2 --video-games 1   # a quick look
    .venv/bin/python -m vision.evaluate.replay --no-real --games 10 --video-games 10 \
        --styles hardest --no-photos                        # the hardest setting only

For each game it replays the footage through :class:`vision.tracker.MoveTracker` exactly as
`qwirkle replay` does and compares the moves with the truth: a move is *exact* when its cells
(up to the grid's symmetry and translation, fitted once per game), labels and score all match.
A detected move that is not exact and not flagged ``needs_confirmation`` is an *unflagged
wrong* move: the one error the product must never make. Videos are written to a temporary
folder and deleted; the real photos are never copied. The scoring of moves here is shared
with the tests.

Video styles (``--styles``, see ``vision.synth.footage``): ``clip`` (hands, empty reaches,
shake, drift, a lamp), ``hardest`` (also 1.5-px wobble in every frame, +-8 % flicker, 1-3 s
pauses, a knocked camera, an arm resting 30 s at the edge, two moves during a 10-s outage)
and ``rough`` (1-px wobble, +-5 % flicker, 1.2-s pauses, a knock; used for classic-a).

Targets: classic-a photos 20/20 exact; classic-a video >= 19/20 and rough video 20/20, 0
unflagged wrong; synthetic games >= 99 % exact, 0 unflagged wrong, in every style; videos
processed >= 2x faster than real time; every move reported within 1 s of the table going still.

The tracker's board has its own origin and orientation (the first scan's), so moves are
compared after the one grid symmetry and translation that lays the most detected tiles, with
their labels, onto the true ones. Labels matter here: a line of three tiles is symmetric in
its cells alone, and a mirror image would pass for exact.
"""

from __future__ import annotations

import argparse
import bisect
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from engine.board import Cell, Placed
from engine.tiles import COLOURS, Tile
from vision.decode import DetectedMove
from vision.evaluate.real import REAL_PHOTOS, SYMMETRIES, game_colours
from vision.imagefile import load_image
from vision.source import open_source
from vision.synth.footage import (
    CLIP_STYLE,
    HARDEST_STYLE,
    ROUGH_STYLE,
    FootageStyle,
    GameRenders,
    game_script,
    settle_times,
    video_frames,
    write_photos,
    write_video,
)
from vision.tracker import MoveTracker

TruthMove = tuple[frozenset, int]
"""The tiles a move added, as a frozenset of (x, y, Tile), and its score."""


def align_labelled(found: Iterable[Placed], truth: Iterable[Placed]) -> dict[Cell, Cell]:
    """Found cell -> true cell, by the symmetry and shift matching the most (cell, label) pairs."""
    found, truth = list(found), set(truth)
    by_tile: dict = {}
    for x, y, tile in truth:
        by_tile.setdefault(tile, []).append((x, y))
    best: tuple[int, dict[Cell, Cell]] = (0, {})
    for a, b, c, d in SYMMETRIES:
        turned = [(a * x + b * y, c * x + d * y, t) for x, y, t in found]
        shifts = Counter((tx - ux, ty - uy) for ux, uy, t in turned
                         for tx, ty in by_tile.get(t, ()))
        for (sx, sy), votes in shifts.most_common(1):
            if votes > best[0]:
                best = (votes, {(x, y): (ux + sx, uy + sy)
                                for (x, y, _), (ux, uy, _) in zip(found, turned, strict=True)})
    return best[1]


def in_truth_frame(moves: Iterable[DetectedMove], mapping: dict[Cell, Cell]) -> list[frozenset]:
    """Each move's tiles carried onto the true cells ((None, None) where the map has no cell)."""
    return [frozenset((*mapping.get((x, y), (None, None)), t) for x, y, t in m.tiles)
            for m in moves]


@dataclass
class Tally:
    """Counts for one or more games."""

    truth: int = 0
    exact: int = 0
    exact_flagged: int = 0
    wrong_flagged: int = 0
    wrong_unflagged: int = 0
    seconds: float = 0.0
    footage_seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("truth", "exact", "exact_flagged", "wrong_flagged", "wrong_unflagged",
                     "seconds", "footage_seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.latencies += other.latencies
        self.notes += other.notes

    def line(self, label: str) -> str:
        text = (f"{label}: {self.exact}/{self.truth} moves exact "
                f"({100 * self.exact / max(self.truth, 1):.1f} %), "
                f"{self.wrong_unflagged} wrong unflagged, {self.wrong_flagged} wrong flagged, "
                f"{self.exact_flagged} exact but flagged")
        if self.footage_seconds:
            text += (f"; {self.footage_seconds:.0f} s of video in {self.seconds:.1f} s "
                     f"= {self.footage_seconds / self.seconds:.1f}x real time")
        if self.latencies:
            median = sorted(self.latencies)[len(self.latencies) // 2]
            text += (f"; latency after still: median {median:.2f} s, "
                     f"max {max(self.latencies):.2f} s")
        return text


def compare(detected: list[DetectedMove], truth: list[TruthMove], label: str) -> Tally:
    """Match detected moves to the true ones in order, after one grid alignment per game."""
    tally = Tally(truth=len(truth))
    mapping = align_labelled([p for m in detected for p in m.tiles],
                             [p for tiles, _ in truth for p in tiles])
    pointer = 0
    for move, mapped in zip(detected, in_truth_frame(detected, mapping), strict=True):
        cells = {(x, y) for x, y, _ in mapped}
        match = next((i for i in range(pointer, len(truth))
                      if truth[i] == (mapped, move.score)), None)
        if match is not None:
            tally.exact += 1
            tally.exact_flagged += move.needs_confirmation
            pointer = match + 1
            continue
        if move.needs_confirmation:
            tally.wrong_flagged += 1
        else:
            tally.wrong_unflagged += 1
        flag = f" (flagged: {move.reason})" if move.needs_confirmation else ""
        want = sorted(_show(truth[pointer][0])) if pointer < len(truth) else "-"
        tally.notes.append(f"{label} at {move.at}: read {sorted(_show(mapped))} "
                           f"+{move.score}{flag}; truth {want}")
        while pointer < len(truth) and {(x, y) for x, y, _ in truth[pointer][0]} <= cells:
            pointer += 1  # this read covered the true move (merged or mislabelled): move on
    return tally


def _show(tiles) -> list[str]:
    return [f"{t.code}({x},{y})" for x, y, t in tiles]


# --------------------------------------------------------------------------- the command


VIDEO_WIDTH = 960
STYLES = {"clip": CLIP_STYLE, "hardest": HARDEST_STYLE, "rough": ROUGH_STYLE}


def run_source(spec: str, colours, settle: list[float] | None = None, leaving: float = 0.0
               ) -> tuple[list[DetectedMove], float, list[float]]:
    """Replay a source; returns the moves, the wall time and, for clips, each move's latency.

    A move's latency is the video time from its table going still to when the tracker is done
    with the frame that reports it (:func:`latencies`; ``leaving``: how long an arm takes to
    leave the picture): each frame is taken up when it
    arrives or when the tracker finishes the one before, whichever is later (so a slow scan
    delays the frames behind it), and costs the CPU time the tracker spends on it: CPU time
    rather than wall time, so that other programs sharing the machine do not count.
    """
    tracker = MoveTracker(colours=colours)
    moves: list[DetectedMove] = []
    reports = []
    start = time.perf_counter()
    clock = 0.0  # video time at which the tracker is done with the frame it was given
    for frame in open_source(spec):
        fed = time.process_time()
        # the board game's start is no move (its report is not counted as one, nor timed)
        found = [move for move in tracker.feed(frame) if not move.start]
        clock = max(clock, frame.t) + time.process_time() - fed
        if found:
            reports.append((frame.t, clock))
        moves.extend(found)
    return (tracker.settled(moves), time.perf_counter() - start,
            latencies(reports, settle, leaving) if settle is not None else [])


def latencies(reports: list[tuple[float, float]], settle: list[float],
              leaving: float) -> list[float]:
    """The latency of each report, (the time of the frame that reports moves, the time the
    tracker was done with it), given when the table went still with each move (``settle``,
    in order).

    A report answers the latest still table before its frame that no earlier report
    answered (with any earlier ones: moves merged). A report up to ``leaving`` seconds (an
    arm's way out of the picture, ``FootageStyle.reach``) before the next still table is
    that move, seen still while its arm was leaving the picture's edge: its latency is
    nothing. (Counted from the move before, game 104's move 43 of the clip style, reported a
    frame before its arm was gone, measured 4 s.)

    >>> latencies([(5.3, 5.4), (9.9, 10.0)], [4.8, 10.0], leaving=0.7)
    [0.6000000000000005, 0.0]
    """
    out, answered = [], 0
    for t, done in reports:
        due = bisect.bisect_right(settle, t)
        if due > answered:
            out.append(done - settle[due - 1])
            answered = due
        elif answered < len(settle) and settle[answered] - t <= leaving:
            out.append(max(0.0, done - settle[answered]))
            answered += 1
    return out


def real_truth(folder: Path) -> list[TruthMove]:
    spec = json.loads((folder / "game.json").read_text())
    return [(frozenset((x, y, Tile(c, s)) for x, y, c, s in m["tiles"]), m["score"])
            for m in spec["moves"]]


def real_stills(folder: Path) -> list:
    """A real game's photos, in order, at the videos' width: what a clip of it films."""
    stills = []
    for name in json.loads((folder / "game.json").read_text())["images"]:
        image = load_image(folder / name)
        h, w = image.shape[:2]
        scale = VIDEO_WIDTH / max(h, w)
        stills.append(cv2.resize(image, (round(w * scale), round(h * scale)),
                                 interpolation=cv2.INTER_AREA))
    return stills


def eval_real(tmp: Path, seed: int, styles: list[str], game: str = "classic-a"
              ) -> list[tuple[str, Tally]]:
    """A real game as photos, and as a video in each style (``rough`` always among them).

    The board games' first photo is their start (:mod:`engine.boardgame`), no move; their
    truth scores count the bonus squares. classic-a's first photo already shows move 1."""
    folder = REAL_PHOTOS / game
    spec = json.loads((folder / "game.json").read_text())
    colours = game_colours(folder)
    truth = real_truth(folder)
    moves, seconds, _ = run_source(str(folder), colours)
    photos = compare(moves, truth, f"{game} photos")
    photos.seconds = seconds
    results = [(f"{game} photos", photos)]

    stills = real_stills(folder)
    # classic-a's clip opens on photo 1 (move 1 already made): its first settle is the start
    first = None if "preplaced" in spec else 0.0
    for name in dict.fromkeys(["rough", *styles]):
        video = _video(tmp / f"{game}-{name}.mp4", stills, STYLES[name], seed, colours, truth,
                       f"{game} {name} video", first_settle=first)
        results.append((f"{game} {name} video", video))
    return results


def _video(path: Path, stills, style: FootageStyle, seed: int, colours, truth,
           label: str, target=None, first_settle: float | None = None) -> Tally:
    """Film ``stills`` in ``style``, replay the video and compare with ``truth``."""
    length = write_video(video_frames(stills, style, seed, target), path, style.fps)
    settle = settle_times(len(stills), style, seed, gaps=False)
    if first_settle is not None:
        settle = [first_settle, *settle]
    moves, seconds, delays = run_source(str(path), colours, settle, style.reach)
    path.unlink()
    tally = compare(moves, truth, label)
    tally.seconds, tally.footage_seconds, tally.latencies = seconds, length, delays
    return tally


def eval_synthetic(tmp: Path, seed: int, photos: bool, styles: list[str],
                   limit: int | None) -> dict[str, Tally]:
    """One simulated game as photos (if asked) and as a video in each of ``styles``."""
    script = game_script(2, seed, limit=limit)
    renders = GameRenders(script, seed)
    truth = [(frozenset(tiles), score) for tiles, score in script.moves]
    results = {}
    if photos:
        folder = tmp / f"game-{seed}"
        write_photos(renders.stills(), folder)
        moves, seconds, _ = run_source(str(folder), COLOURS)
        results["photos"] = compare(moves, truth, f"game {seed} photos")
        results["photos"].seconds = seconds
    for name in styles:
        results[name] = _video(tmp / f"game-{seed}-{name}.mp4", renders.stills(), STYLES[name],
                               seed, COLOURS, truth, f"game {seed} {name} video", renders.target)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="synthetic games")
    parser.add_argument("--video-games", type=int, default=10,
                        help="how many of those also as 10-fps videos with hands")
    parser.add_argument("--styles", default="clip,hardest",
                        help="video styles, comma-separated: " + ", ".join(STYLES))
    parser.add_argument("--no-photos", action="store_true",
                        help="skip the synthetic games as photo sequences")
    parser.add_argument("--moves", type=int, default=None, help="cut each synthetic game short")
    parser.add_argument("--seed", type=int, default=100, help="first synthetic game's seed")
    parser.add_argument("--no-real", action="store_true", help="skip the real photos")
    parser.add_argument("--real", default="classic-a",
                        help="the real games, comma-separated folders of ../shared/data/real "
                             "(default: %(default)s; the board games: "
                             "connect-1,connect-2,oblique-2)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every wrong move")
    args = parser.parse_args(argv)
    styles = [name.strip() for name in args.styles.split(",") if name.strip()]
    unknown = [name for name in styles if name not in STYLES]
    if unknown:
        parser.error(f"unknown style {', '.join(unknown)} (choose from {', '.join(STYLES)})")

    results: list[tuple[str, Tally]] = []
    with tempfile.TemporaryDirectory(prefix="eval-replay-") as name:
        tmp = Path(name)
        games = [] if args.no_real else [g.strip() for g in args.real.split(",") if g.strip()]
        for game in games:
            if not (REAL_PHOTOS / game).is_dir():
                print(f"  {game}: no such game in {REAL_PHOTOS}: skipped", flush=True)
                continue
            for label, tally in eval_real(tmp, args.seed, styles, game):
                results.append((label, tally))
                print(tally.line(f"  {label}"), flush=True)
        totals = {kind: Tally() for kind in ["photos", *styles]}
        for i in range(args.games):
            seed = args.seed + i
            found = eval_synthetic(tmp, seed, not args.no_photos,
                                   styles if i < args.video_games else [], args.moves)
            for kind, tally in found.items():
                totals[kind].add(tally)
                print(tally.line(f"  game {seed} {kind}"), flush=True)
        for kind, tally in totals.items():
            if tally.truth:
                count = args.games if kind == "photos" else min(args.games, args.video_games)
                what = "photos" if kind == "photos" else f"{kind} videos"
                results.append((f"synthetic {what} ({count} games)", tally))
    for label, tally in results:
        print(tally.line(label))
        if args.verbose:
            for note in tally.notes:
                print("    " + note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
