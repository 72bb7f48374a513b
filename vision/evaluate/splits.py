"""How often two turns merged into one picture are split into the turns played.

    .venv/bin/python -m vision.evaluate.splits                     # greedy players, games 100-129
    .venv/bin/python -m vision.evaluate.splits --strategy random   # players who lay any move
    .venv/bin/python -m vision.evaluate.splits --first-seed 100 --games 60

Every pair of consecutive turns of a simulated 2-player game (`engine.selfplay`) is given to
:func:`vision.decode.split_moves` as one picture's new tiles, read without doubt, as the
camera gives them when both turns were made while it saw nothing (an outage, a missed pause).
Each pair is counted as split into the turns in the order played, into the turns the other
way round (nothing the camera sees tells, where both orders are legal and score alike), into
other turns, or not split (the tiles of both make one legal move, or no legal split exists).
Only the tiles' cells are compared: the labels are the true ones.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from engine.board import Board, Placed
from engine.selfplay import simulate
from vision.classifier import TileGuess
from vision.decode import split_moves

OUTCOMES = ("in order", "swapped", "other turns", "not split")


def tally(seeds: range, strategy: str = "greedy") -> Counter:
    """The outcomes (:data:`OUTCOMES`) over every pair of consecutive placing turns by two
    different players in the games of ``seeds``."""
    counts: Counter = Counter()
    for seed in seeds:
        board = Board()
        turns = [m for m in simulate(2, seed, strategy).moves if m.kind == "place"]
        for first, second in zip(turns, turns[1:], strict=False):
            if first.player != second.player and len(board):
                counts[_outcome(board, first.tiles, second.tiles)] += 1
            board = board.with_tiles(first.tiles)
    return counts


def _outcome(board: Board, first: tuple[Placed, ...], second: tuple[Placed, ...]) -> str:
    new = sorted(((x, y), TileGuess(tile, 1.0, {}, {})) for x, y, tile in first + second)
    moves = split_moves(board, new)
    if moves is None:
        return "not split"
    parts = [{(x, y) for x, y, _ in move.tiles} for move in moves]
    played = [{(x, y) for x, y, _ in turn} for turn in (first, second)]
    return ("in order" if parts == played else "swapped" if parts == played[::-1]
            else "other turns")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first-seed", type=int, default=100)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--strategy", choices=("greedy", "random"), default="greedy")
    args = parser.parse_args(argv)
    counts = tally(range(args.first_seed, args.first_seed + args.games), args.strategy)
    pairs = sum(counts.values())
    print(f"{pairs} pairs of turns, {args.games} games from seed {args.first_seed}, "
          f"{args.strategy} players")
    for outcome in OUTCOMES:
        print(f"  {outcome:12} {counts[outcome]:5}  {100 * counts[outcome] / max(pairs, 1):5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
