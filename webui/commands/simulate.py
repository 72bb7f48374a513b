"""`qwirkle simulate`: play seeded self-play games and write them as JSON Lines.

Each game is written as soon as it is played, so memory stays flat however many games run.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO

from engine.selfplay import STRATEGIES, simulate, table_game
from engine.sheet import render_sheet, score_sheet

EXAMPLE = """\
examples:
  qwirkle simulate --games 2 --players 3 --seed 7
  qwirkle simulate --seed 7 --sheet          # the score sheet of one game, as a table

Game i (from 0) uses seed S+i, so the same seed always gives the same games. Each line is
{"seed": S+i, "players": P, "scores": [...], "end": "went_out"|"stalemate",
 "moves": [{"player": i, "kind": "place"|"exchange"|"pass",
            "tiles": [[x, y, colour, shape], ...], "score": n}, ...]}
"""


def _at_least_one(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _players(text: str) -> int:
    value = int(text)
    if not 2 <= value <= 6:
        raise argparse.ArgumentTypeError(f"must be 2 to 6, got {value}")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play seeded self-play games and write them as JSON Lines",
        description="Play complete, legal games between computer players and write one "
        "JSON line per game: every move with its tiles and score, and the final scores.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=_at_least_one, default=1, metavar="N",
                        help="how many games (default 1)")
    parser.add_argument("--players", type=_players, default=2, metavar="P",
                        help="players per game, 2 to 6 (default 2)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed of the first game (default 0)")
    parser.add_argument("--strategy", choices=STRATEGIES, default="greedy",
                        help="greedy: highest-scoring placement; random: any legal one")
    parser.add_argument("--sheet", action="store_true",
                        help="print each game's score sheet as a text table instead of JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, stdout: IO[str] | None = None) -> int:
    stdout = sys.stdout if stdout is None else stdout
    for i in range(args.games):
        record = simulate(args.players, args.seed + i, args.strategy)
        if args.sheet:
            header = f"game seed {record.seed}, {args.strategy}, ended: {record.end}"
            stdout.write(f"{header}\n{render_sheet(score_sheet(table_game(record)))}\n\n")
        else:
            stdout.write(json.dumps(record.to_dict()) + "\n")
    return 0
