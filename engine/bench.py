"""Benchmark the rules engine against the targets of issue 2.

    .venv/bin/python -m engine.bench

Prints three figures:
- median wall time of one full 2-player greedy self-play game (target <= 100 ms);
- median time to list all legal placements of a 6-tile hand on an 80-tile board
  (target <= 2 ms); the boards come from greedy games stopped at 80 tiles, the hands are
  drawn from the tiles not on the board;
- peak resident memory of a child process running `qwirkle simulate --games 100`
  (target < 60 MB), read from the kernel's accounting of that child (os.wait4).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from engine.board import Board
from engine.movegen import legal_moves
from engine.selfplay import simulate
from engine.tiles import Tile, full_set


def bench_games(count: int) -> tuple[float, float]:
    """Median wall and CPU seconds per full 2-player greedy game, over seeds 0..count-1.

    CPU time is printed too because the machine is shared: when other jobs compete for the
    two cores, wall time grows while CPU time stays what the engine itself needs."""
    wall, cpu = [], []
    for seed in range(count):
        start, start_cpu = time.perf_counter(), time.process_time()
        simulate(2, seed, "greedy")
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def board_of(seed: int, tiles: int) -> Board:
    """The board of greedy game ``seed`` after the first move that reaches ``tiles`` tiles."""
    board = Board()
    for move in simulate(2, seed, "greedy").moves:
        if len(board) >= tiles:
            break
        board = board.with_tiles(move.tiles)
    return board


def bench_movegen(boards: int, hands: int) -> tuple[float, float, int, float]:
    """Median wall and CPU seconds for legal_moves, smallest board, median moves found."""
    times, cpu, found, sizes = [], [], [], []
    for seed in range(boards):
        board = board_of(seed, 80)
        sizes.append(len(board))
        pool: list[Tile] = list((Counter(full_set()) - Counter(t for *_, t in board.placed()))
                                .elements())
        rng = random.Random(seed)
        for _ in range(hands):
            hand = rng.sample(pool, 6)
            start, start_cpu = time.perf_counter(), time.process_time()
            moves = legal_moves(board, hand)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            found.append(len(moves))
    return statistics.median(times), statistics.median(cpu), min(sizes), statistics.median(found)


def peak_memory_mb(command: list[str]) -> tuple[float, int]:
    """Peak RSS (MB) of a child running ``command``, and its exit status."""
    with tempfile.TemporaryFile() as errors:
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode:
            errors.seek(0)
            tail = errors.read().decode(errors="replace")[-400:]
            print(f"  {' '.join(command)} failed: {tail}", file=sys.stderr)
    return usage.ru_maxrss / 1024, child.returncode  # ru_maxrss is in KiB on Linux


_SIMULATE_ALONE = """
import argparse, sys
from webui.commands import simulate
parser = argparse.ArgumentParser()
simulate.register(parser.add_subparsers())
args = parser.parse_args(["simulate", *sys.argv[1:]])
sys.exit(args.func(args))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="greedy games to time")
    parser.add_argument("--boards", type=int, default=10, help="80-tile boards for movegen")
    parser.add_argument("--hands", type=int, default=20, help="hands per board")
    args = parser.parse_args()

    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    wall, cpu = bench_games(args.games)
    print(f"full 2-player greedy game: median {wall * 1000:.1f} ms wall, {cpu * 1000:.1f} ms CPU "
          f"over {args.games} seeds (target <= 100 ms)")
    wall, cpu, size, found = bench_movegen(args.boards, args.hands)
    print(f"legal moves, 6-tile hand, {size}+-tile board: median {wall * 1000:.2f} ms wall, "
          f"{cpu * 1000:.2f} ms CPU over {args.boards * args.hands} hands, median {found:g} "
          "moves (target <= 2 ms)")
    qwirkle = Path(sys.executable).with_name("qwirkle")
    mb, status = peak_memory_mb([str(qwirkle), "simulate", "--games", "100"])
    verdict = f"{mb:.1f} MB" if status == 0 else f"failed (exit {status})"
    print(f"peak memory of `qwirkle simulate --games 100`: {verdict} (target < 60 MB)")
    # The same command with only its own module loaded: `qwirkle` imports every
    # subcommand's module to build its parser, so heavy imports elsewhere (OpenCV, Flask)
    # count against the figure above; this line shows what simulating itself costs.
    alone = [sys.executable, "-c", _SIMULATE_ALONE, "--games", "100"]
    mb, status = peak_memory_mb(alone)
    verdict = f"{mb:.1f} MB" if status == 0 else f"failed (exit {status})"
    print(f"peak memory of the simulate subcommand alone, 100 games: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
