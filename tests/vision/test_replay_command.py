"""`qwirkle replay` end to end: a folder of photos, JSON output, and sources that fail."""

from __future__ import annotations

import json

import cv2
import pytest
from live_support import FakeCapture
from replay_scenes import MOVE_1, MOVE_2, MOVE_3, QUIET, renders

from engine.tiles import Tile
from vision.decode import DetectedMove
from vision.evaluate.replay import align_labelled, compare, latencies
from vision.source import CaptureSource
from vision.synth.footage import video_frames, write_video
from webui import cli
from webui.commands import replay


@pytest.fixture(scope="module")
def game_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("game")
    for k, image in enumerate(renders().stills()[1:], 1):
        cv2.imwrite(str(folder / f"{k:02d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return folder


def test_json_lists_the_moves_scores_and_board(game_folder, capsys):
    assert cli.main(["replay", str(game_folder), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [m["score"] for m in out["moves"]] == [3, 3, 4]
    assert [m["at"] for m in out["moves"]] == ["01.jpg", "02.jpg", "03.jpg"]
    assert not any(m["needs_confirmation"] for m in out["moves"])
    board = [(x, y, Tile(c, s)) for x, y, c, s in out["board"]]
    truth = MOVE_1 + MOVE_2 + MOVE_3
    mapping = align_labelled(board, truth)
    assert {(*mapping[x, y], t) for x, y, t in board} == set(truth)


def test_text_output_has_running_totals(game_folder, capsys):
    assert cli.main(["replay", str(game_folder)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("total")[1].split()[0] for line in lines] == ["3", "6", "10"]


def test_video_file_moves_carry_seconds(tmp_path, capsys):
    game = renders()
    path = tmp_path / "clip.mp4"
    write_video(video_frames(game.stills()[:3], QUIET, 7, game.target), path, QUIET.fps)
    assert cli.main(["replay", str(path), "--json", "--still-seconds", "0.4"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [m["score"] for m in out["moves"]] == [3, 3]
    first, second = (m["at"] for m in out["moves"])
    assert isinstance(first, float) and 0 < first < second


def test_missing_source_is_a_clear_error(tmp_path, capsys):
    assert cli.main(["replay", str(tmp_path / "nothing.mp4")]) == 2
    err = capsys.readouterr().err
    assert "no such camera, file or folder" in err and "Traceback" not in err


def test_bad_colours_are_refused(game_folder, capsys):
    with pytest.raises(SystemExit):
        cli.main(["replay", str(game_folder), "--colours", "red,blue"])
    assert "give six different colours" in capsys.readouterr().err


def test_camera_that_vanishes_keeps_the_moves_found_so_far(monkeypatch, capsys):
    image = renders().stills()[1]

    def fake_open(spec):
        # 1.5 s of a still table at 20 fps (timestamps come from the clock), then nothing.
        return CaptureSource(0, live=True, realtime=True, stall_seconds=0.3,
                             open_capture=lambda _: FakeCapture(30, 0.05, image=image))

    monkeypatch.setattr(replay, "open_source", fake_open)
    assert cli.main(["replay", "0", "--json"]) == 2
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert [m["score"] for m in out["moves"]] == [3]
    assert "camera 0 stopped delivering" in captured.err and "1 moves found" in captured.err


def test_real_photos_classic_a_are_read_exactly(real_data, capsys):
    folder = real_data / "classic-a"
    assert cli.main(["replay", str(folder), "--json",
                     "--colours", "red,orange,yellow,green,blue,white"]) == 0
    out = json.loads(capsys.readouterr().out)
    spec = json.loads((folder / "game.json").read_text())
    truth = [(frozenset((x, y, Tile(c, s)) for x, y, c, s in m["tiles"]), m["score"])
             for m in spec["moves"]]
    read = [DetectedMove(tuple((x, y, Tile(c, s)) for x, y, c, s in m["tiles"]), m["score"],
                         m["needs_confirmation"], m["reason"]) for m in out["moves"]]
    tally = compare(read, truth, "classic-a")
    assert (tally.exact, tally.truth, tally.wrong_unflagged) == (20, 20, 0), tally.notes


def test_a_report_answers_the_latest_still_table_not_yet_answered():
    # settle: the table still with moves 1, 2, 3 at 10, 20 and 30 s of video
    settle = [10.0, 20.0, 30.0]
    # move 1 reported 0.5 s late; move 2 a frame before its arm had left the picture;
    # move 3 long after (the tracker busy with a slow scan)
    assert latencies([(10.4, 10.5), (19.9, 20.0), (31.0, 31.2)], settle, 0.7) == pytest.approx(
        [0.5, 0.0, 1.2])
    # two moves merged in one report answer both tables; a report between still tables
    # (nothing new, or a tile nudged) answers none and leaves the next one to its move
    assert latencies([(20.5, 20.6), (25.0, 25.1), (30.3, 30.4)], settle, 0.7) == pytest.approx(
        [0.6, 0.4])
    assert latencies([(30.5, 30.6), (40.0, 40.1)], settle, 0.7) == pytest.approx([0.6])
