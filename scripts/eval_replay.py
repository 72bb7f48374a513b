"""Evaluate move inference (issue 4): real photos, the same as a video with hands, synthetic games.

    .venv/bin/python scripts/eval_replay.py                 # everything (about 28 minutes)
    .venv/bin/python scripts/eval_replay.py --games 2 --video-games 1   # a quick look

For each game it replays the footage through :class:`vision.tracker.MoveTracker` exactly as
`qwirkle replay` does and compares the moves with the truth: a move is *exact* when its cells
(up to the grid's symmetry and translation, fitted once per game), labels and score all match.
A detected move that is not exact and not flagged ``needs_confirmation`` is an *unflagged
wrong* move: the one error the product must never make. Videos are written to a temporary
folder and deleted; the real photos are never copied.

Targets: classic-a photos 20/20 exact; classic-a video >= 19/20 exact and 0 unflagged wrong;
synthetic games >= 99 % exact, 0 unflagged wrong; videos processed >= 2x faster than real
time; every move reported within 1 s of the scene becoming still.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import cv2

from engine.tiles import COLOURS, Tile
from vision.decode import DetectedMove
from vision.evaluation import game_colours
from vision.move_eval import Tally, TruthMove, compare
from vision.source import open_source
from vision.synth.footage import (
    CLIP_STYLE,
    GameRenders,
    game_script,
    settle_times,
    video_frames,
    write_photos,
    write_video,
)
from vision.tracker import MoveTracker

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real"
VIDEO_WIDTH = 960

def run_source(spec: str, colours, settle: list[float] | None = None
               ) -> tuple[list[DetectedMove], float, list[float]]:
    """Replay a source; returns the moves, the wall time and, for clips, each move's latency."""
    tracker = MoveTracker(colours=colours)
    moves: list[DetectedMove] = []
    latencies = []
    start = time.perf_counter()
    for frame in open_source(spec):
        fed = time.perf_counter()
        found = tracker.feed(frame)
        if found and settle is not None:
            spent = time.perf_counter() - fed
            done = [s for s in settle if s <= frame.t]
            if done:
                latencies.append(frame.t - done[-1] + spent)
        moves.extend(found)
    return tracker.settled(moves), time.perf_counter() - start, latencies


def real_truth(folder: Path) -> list[TruthMove]:
    spec = json.loads((folder / "game.json").read_text())
    return [(frozenset((x, y, Tile(c, s)) for x, y, c, s in m["tiles"]), m["score"])
            for m in spec["moves"]]


def eval_real(tmp: Path, seed: int) -> tuple[Tally, Tally]:
    folder = REAL / "classic-a"
    colours = game_colours(folder)
    truth = real_truth(folder)
    moves, seconds, _ = run_source(str(folder), colours)
    photos = compare(moves, truth, "classic-a photos")
    photos.seconds = seconds

    stills = []
    for name in json.loads((folder / "game.json").read_text())["images"]:
        image = cv2.imread(str(folder / name))
        h, w = image.shape[:2]
        scale = VIDEO_WIDTH / max(h, w)
        stills.append(cv2.resize(image, (round(w * scale), round(h * scale)),
                                 interpolation=cv2.INTER_AREA))
    path = tmp / "classic-a.mp4"
    length = write_video(video_frames(stills, CLIP_STYLE, seed), path, CLIP_STYLE.fps)
    # The clip opens on photo 1 (move 1 already made): its first settle is the clip's start.
    settle = [0.0] + settle_times(len(stills), CLIP_STYLE)
    moves, seconds, latencies = run_source(str(path), colours, settle)
    video = compare(moves, truth, "classic-a video")
    video.seconds, video.footage_seconds, video.latencies = seconds, length, latencies
    return photos, video


def eval_synthetic(tmp: Path, seed: int, video: bool, limit: int | None) -> tuple[Tally, Tally]:
    script = game_script(2, seed, limit=limit)
    renders = GameRenders(script, seed)
    truth = [(frozenset(tiles), score) for tiles, score in script.moves]
    folder = tmp / f"game-{seed}"
    write_photos(renders.stills(), folder)
    moves, seconds, _ = run_source(str(folder), COLOURS)
    photos = compare(moves, truth, f"game {seed} photos")
    photos.seconds = seconds
    clip = Tally()
    if video:
        path = tmp / f"game-{seed}.mp4"
        length = write_video(video_frames(renders.stills(), CLIP_STYLE, seed, renders.target),
                             path, CLIP_STYLE.fps)
        moves, seconds, latencies = run_source(str(path), COLOURS,
                                               settle_times(len(renders), CLIP_STYLE))
        clip = compare(moves, truth, f"game {seed} video")
        clip.seconds, clip.footage_seconds, clip.latencies = seconds, length, latencies
    return photos, clip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="synthetic games (photo sequences)")
    parser.add_argument("--video-games", type=int, default=10,
                        help="how many of those also as 10-fps videos with hands")
    parser.add_argument("--moves", type=int, default=None, help="cut each synthetic game short")
    parser.add_argument("--seed", type=int, default=100, help="first synthetic game's seed")
    parser.add_argument("--no-real", action="store_true", help="skip the real photos")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every wrong move")
    args = parser.parse_args(argv)

    results: list[tuple[str, Tally]] = []
    with tempfile.TemporaryDirectory(prefix="eval-replay-") as name:
        tmp = Path(name)
        if not args.no_real and (REAL / "classic-a").is_dir():
            photos, video = eval_real(tmp, args.seed)
            results += [("classic-a photos", photos), ("classic-a video with hands", video)]
            print(photos.line("  classic-a photos"), flush=True)
            print(video.line("  classic-a video"), flush=True)
        synth_photos, synth_video = Tally(), Tally()
        for i in range(args.games):
            photos, clip = eval_synthetic(tmp, args.seed + i, i < args.video_games, args.moves)
            synth_photos.add(photos)
            synth_video.add(clip)
            print(photos.line(f"  game {args.seed + i} photos"), flush=True)
            if clip.truth:
                print(clip.line(f"  game {args.seed + i} video"), flush=True)
        results += [(f"synthetic photos ({args.games} games)", synth_photos)]
        if synth_video.truth:
            results += [(f"synthetic videos ({args.video_games} games)", synth_video)]
    for label, tally in results:
        print(tally.line(label))
        if args.verbose:
            for note in tally.notes:
                print("    " + note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
