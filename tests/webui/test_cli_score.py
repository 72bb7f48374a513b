"""`qwirkle score`: one answer per line, errors per line, exit status 2 on any bad line."""

from __future__ import annotations

import argparse
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.selfplay import simulate
from webui.commands import score


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="qwirkle")
    score.register(top.add_subparsers(dest="command"))
    return top


def run_score(text: str) -> tuple[int, list[dict]]:
    args = parser().parse_args(["score"])
    out = io.StringIO()
    status = args.func(args, stdin=io.StringIO(text), stdout=out)
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


def line(board: list, move: list) -> str:
    return json.dumps({"board": board, "move": move})


def test_legal_and_illegal_answers() -> None:
    text = "\n".join([
        line([[0, 0, "red", "circle"]], [[1, 0, "red", "star"], [2, 0, "red", "square"]]),
        line([[0, 0, "red", "circle"]], [[1, 0, "blue", "star"]]),
        line([], [[0, 0, "White", " Cross "]]),
    ])
    status, answers = run_score(text + "\n")
    assert status == 0
    assert answers == [
        {"legal": True, "score": 3, "reason": ""},
        {"legal": False, "score": None,
         "reason": "row y=0 from x=0 to x=1 would mix colours and shapes: red circle, blue star"},
        {"legal": True, "score": 1, "reason": ""},
    ]


def test_an_unknown_shape_is_an_error_for_its_line_only() -> None:
    good = line([], [[0, 0, "red", "circle"]])
    text = "\n".join([good, good, line([], [[0, 0, "red", "hexagon"]]), good]) + "\n"
    status, answers = run_score(text)
    assert status == 2
    assert answers[2] == {"error": "line 3: unknown shape 'hexagon'"}
    assert answers[0] == answers[1] == answers[3] == {"legal": True, "score": 1, "reason": ""}


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("{not json", "line 1: not valid JSON (Expecting property name enclosed in double quotes"
                      " at column 2)"),
        ("[1, 2]", 'line 1: expected a JSON object with "board" and "move"'),
        ('{"board": []}', 'line 1: missing "move"'),
        ('{"board": {}, "move": []}', 'line 1: "board" must be a list of [x, y, colour, shape]'),
        ('{"board": [], "move": [[0, 0, "red"]]}',
         'line 1: move item 1 must be [x, y, colour, shape], got [0, 0, "red"]'),
        ('{"board": [], "move": [[0.5, 0, "red", "circle"]]}',
         'line 1: move item 1 needs integer x and y, got [0.5, 0, "red", "circle"]'),
        ('{"board": [], "move": [[0, 0, "pink", "circle"]]}', "line 1: unknown colour 'pink'"),
        ('{"board": [], "move": [[0, 0, 3, "circle"]]}', "line 1: colour must be a string, not 3"),
        ('{"board": [[0, 0, "red", "circle"], [0, 0, "red", "star"]], "move": []}',
         "line 1: board: cell (0, 0) already holds red circle"),
    ],
)
def test_malformed_lines(text: str, error: str) -> None:
    status, answers = run_score(text + "\n" + line([], [[0, 0, "red", "circle"]]) + "\n")
    assert status == 2
    assert answers == [{"error": error}, {"legal": True, "score": 1, "reason": ""}]


def test_blank_lines_are_skipped_and_numbering_follows_the_input() -> None:
    text = "\n" + line([], []) + "\n\n" + "oops\n"
    status, answers = run_score(text)
    assert status == 2
    assert answers == [
        {"legal": False, "score": None, "reason": "the move places no tiles"},
        {"error": "line 4: not valid JSON (Expecting value at column 1)"},
    ]


def test_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["score", "--help"])
    assert "| qwirkle score" in capsys.readouterr().out


@settings(max_examples=5, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10_000), st.sampled_from(["greedy", "random"]))
def test_replaying_a_simulated_game_reproduces_its_scores(
    players: int, seed: int, strategy: str
) -> None:
    record = simulate(players, seed, strategy).to_dict()
    board: list = []
    lines, expected = [], []
    for move in record["moves"]:
        if move["kind"] == "place":
            lines.append(line(board, move["tiles"]))
            expected.append(move["score"])
            board = board + move["tiles"]
    status, answers = run_score("\n".join(lines) + "\n")
    assert status == 0
    assert [a["score"] for a in answers] == expected
    assert all(a["legal"] for a in answers)
    bonus = 6 if record["end"] == "went_out" else 0
    assert sum(expected) + bonus == sum(record["scores"])
