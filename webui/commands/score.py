"""`qwirkle score`: check and score placements given as JSON Lines on standard input.

One answer line per input line, so it can sit in a pipe next to other tools; a bad line
gets an ``error`` answer and the rest are still answered (exit status 2 at the end).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from engine.board import Board, Placed, row_placed
from engine.rules import check_move
from engine.tiles import TileError

EXAMPLE = """\
example:
  echo '{"board": [[0, 0, "red", "circle"]], "move": [[1, 0, "red", "star"]]}' | qwirkle score
  {"legal": true, "score": 2, "reason": ""}

Each input line is {"board": [[x, y, colour, shape], ...], "move": [...]} (x right, y down).
Blank lines are skipped. Exit status 2 if any line was malformed, else 0.
"""


class LineError(ValueError):
    """What is wrong with one input line, worded for the answer's "error" field."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score",
        help="check and score placements read as JSON Lines from standard input",
        description="Read one placement per line from standard input and answer, one line "
        "each, whether it is legal, its score, and the reason when it is not.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, stdin: IO[str] | None = None, stdout: IO[str] | None = None
        ) -> int:
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    status = 0
    for number, text in enumerate(stdin, start=1):
        if not text.strip():
            continue
        try:
            answer = answer_line(text)
        except LineError as err:
            answer = {"error": f"line {number}: {err}"}
            status = 2
        stdout.write(json.dumps(answer) + "\n")
        stdout.flush()
    return status


def answer_line(text: str) -> dict[str, Any]:
    """The answer to one input line; LineError says what is malformed."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise LineError(f"not valid JSON ({err.msg} at column {err.colno})") from None
    if not isinstance(data, dict):
        raise LineError('expected a JSON object with "board" and "move"')
    board_items = _placed_list(data, "board")
    move = _placed_list(data, "move")
    try:
        board = Board.from_placed(board_items)
    except ValueError as err:
        raise LineError(f"board: {err}") from None
    check = check_move(board, move)
    return {"legal": check.legal, "score": check.score, "reason": check.reason}


def _placed_list(data: dict[str, Any], key: str) -> list[Placed]:
    if key not in data:
        raise LineError(f'missing "{key}"')
    items = data[key]
    if not isinstance(items, list):
        raise LineError(f'"{key}" must be a list of [x, y, colour, shape]')
    return [_placed(item, key, i) for i, item in enumerate(items, start=1)]


def _placed(item: Any, key: str, index: int) -> Placed:
    try:
        return row_placed(item)
    except TileError as err:
        raise LineError(str(err)) from None
    except ValueError as err:
        raise LineError(f"{key} item {index} {err}, got {json.dumps(item)}") from None
