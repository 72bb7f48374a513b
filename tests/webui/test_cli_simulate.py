"""`qwirkle simulate`: one JSON line per game in the fixed format, reproducible by seed."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from engine.selfplay import GameRecord, table_game
from webui.commands import simulate


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="qwirkle")
    simulate.register(top.add_subparsers(dest="command"))
    return top


def run_simulate(*argv: str) -> tuple[int, str]:
    args = parser().parse_args(["simulate", *argv])
    out = io.StringIO()
    return args.func(args, stdout=out), out.getvalue()


def test_one_line_per_game_in_the_issue_format() -> None:
    status, text = run_simulate("--games", "3", "--players", "3", "--seed", "40")
    assert status == 0
    games = [json.loads(line) for line in text.splitlines()]
    assert [g["seed"] for g in games] == [40, 41, 42]
    for g in games:
        assert set(g) == {"seed", "players", "scores", "end", "moves"}
        assert g["players"] == 3 and len(g["scores"]) == 3
        assert g["end"] in ("went_out", "stalemate")
        for move in g["moves"]:
            assert set(move) == {"player", "kind", "tiles", "score"}
            assert move["kind"] in ("place", "exchange", "pass")
            assert all(len(t) == 4 for t in move["tiles"])
        # A real, legal game: the table model re-validates it and agrees on the totals.
        assert table_game(GameRecord.from_dict(g)).totals == tuple(g["scores"])


def test_same_seed_same_games_and_strategies_differ() -> None:
    twice = [run_simulate("--games", "2", "--seed", "5") for _ in range(2)]
    assert twice[0] == twice[1]
    assert run_simulate("--seed", "5", "--strategy", "random") != run_simulate("--seed", "5")


def test_sheet_output() -> None:
    status, text = run_simulate("--seed", "3", "--players", "4", "--sheet")
    assert status == 0
    lines = text.strip().splitlines()
    assert lines[0].startswith("game seed 3, greedy, ended: ")
    assert lines[1].split() == ["round", "Player", "1", "Player", "2", "Player", "3", "Player", "4"]
    assert lines[-1].split()[0] == "qwirkle"
    totals = [int(v) for v in lines[-2].split()[1:]]
    record = json.loads(run_simulate("--seed", "3", "--players", "4")[1])
    assert totals == record["scores"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "7"], "must be 2 to 6, got 7"),
        (["--players", "1"], "must be 2 to 6, got 1"),
        (["--games", "0"], "must be at least 1, got 0"),
        (["--strategy", "clever"], "invalid choice: 'clever'"),
        (["--seed", "x"], "invalid int value: 'x'"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as err:
        parser().parse_args(["simulate", *argv])
    assert err.value.code == 2
    assert message in capsys.readouterr().err


def test_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["simulate", "--help"])
    assert "qwirkle simulate --games 2 --players 3 --seed 7" in capsys.readouterr().out
