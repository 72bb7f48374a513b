"""The evaluation modules run as commands (``python -m vision.evaluate.real`` and so on) and
find the real photos beside the repository on their own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine.selfplay import simulate
from vision.evaluate import real, splits
from vision.evaluate.real import REAL_PHOTOS

REPO = Path(__file__).resolve().parents[2]


def test_the_commands_read_the_real_photos_beside_the_repository():
    assert REPO.parent / "shared" / "data" / "real" == REAL_PHOTOS


def test_evaluate_real_scores_rendered_boards_without_the_photos(capsys):
    assert real.main(["--synthetic", "1", "--games", "none"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "== variant: original" and rows[-1].startswith("all ")


def test_evaluate_real_scores_the_boards_from_the_first_seed_asked(capsys):
    assert real.main(["--synthetic", "2", "--first-seed", "27", "--games", "none",
                      "--verbose"]) == 0
    out = capsys.readouterr().out
    # board 27 (three tiles under glare, one found) is the imperfect one; 0 and 1 are not run
    assert "synthetic/27:" in out and "synthetic/0:" not in out
    assert next(r for r in out.splitlines() if r.startswith("all ")).split()[1] == "2"


def test_every_evaluation_and_benchmark_runs_with_python_m():
    modules = ["engine.bench", "vision.bench.scan", "vision.bench.classifier", "vision.bench.live",
               "vision.evaluate.real", "vision.evaluate.replay", "vision.evaluate.sets",
               "vision.evaluate.splits",
               "vision.classifier.create_dataset", "vision.classifier.evaluate",
               "webui.checks.soak", "webui.checks.fuzz_api", "webui.checks.fuzz_files",
               "webui.checks.gamenight"]
    for module in modules:
        done = subprocess.run([sys.executable, "-m", module, "--help"], cwd=REPO,
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0 and "usage:" in done.stdout, (module, done.stderr[-400:])


def test_evaluate_splits_counts_every_pair_of_turns_of_the_games_asked(capsys):
    assert splits.main(["--first-seed", "123", "--games", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    counts = {row.rsplit(None, 3)[0].strip(): int(row.split()[-3]) for row in out[1:]}
    assert counts == {o: splits.tally(range(123, 124))[o] for o in splits.OUTCOMES}
    # every pair of turns by the two players once: a 2-player game alternates
    turns = [m for m in simulate(2, 123).moves if m.kind == "place"]
    assert sum(counts.values()) == int(out[0].split()[0]) == sum(
        a.player != b.player for a, b in zip(turns[1:], turns[2:], strict=False))
