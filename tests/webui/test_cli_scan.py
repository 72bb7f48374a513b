"""`qwirkle scan`: grid and JSON output, the debug overlay, and bad input per image."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.evaluate.real import align, game_colours, load_game
from webui.cli import main

WHITE_SET = "red,orange,yellow,green,blue,white"


@pytest.fixture
def blank(tmp_path):
    """A photo of a bare table: no tiles."""
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((480, 640, 3), (150, 190, 228), np.uint8))
    return path


def test_help_shows_an_example(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["scan", "--help"])
    assert exit_.value.code == 0
    assert "qwirkle scan table.jpg" in capsys.readouterr().out


def test_a_corrupt_file_is_reported_and_the_others_still_scanned(tmp_path, blank, capsys):
    corrupt = tmp_path / "broken.jpg"
    corrupt.write_bytes(b"\xff\xd8 not a picture")
    status = main(["scan", str(corrupt), str(tmp_path / "missing.jpg"), str(blank), "--json"])
    out, err = capsys.readouterr()
    assert status == 2
    assert "broken.jpg" in err and "not a readable image" in err
    assert "missing.jpg" in err and "no such file" in err
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines == [{"image": str(blank), "tiles": [], "off_board": [], "ms": lines[0]["ms"]}]


def test_no_tiles_prints_a_clear_line(blank, capsys):
    assert main(["scan", str(blank)]) == 0
    assert "no tiles found" in capsys.readouterr().out


def test_unknown_colours_are_refused(blank, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["scan", str(blank), "--colours", "red,orange,yellow,green,blue,pink"])
    assert exit_.value.code == 2
    assert "pink" in capsys.readouterr().err


@pytest.mark.real
def test_json_lines_give_the_annotated_board(real_data, capsys):
    photo = load_game(real_data / "classic-a")[-1]
    colours = ",".join(game_colours(real_data / "classic-a"))
    assert main(["scan", str(photo.path), "--json", "--colours", colours]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["image"] == str(photo.path) and line["ms"] > 0
    tile = line["tiles"][0]
    assert set(tile) == {"x", "y", "colour", "shape", "confidence", "center"}
    found = {(t["x"], t["y"]) for t in line["tiles"]}
    assert len(found) == len(photo.truth) == len(align(found, photo.truth))


@pytest.mark.real
def test_grid_output_and_debug_overlay(real_data, tmp_path, capsys):
    photo = load_game(real_data / "connect-1")[-1]
    assert main(["scan", str(photo.path), "--colours", WHITE_SET,
                 "--debug-dir", str(tmp_path / "debug")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{photo.path}: {len(photo.truth)} tiles")
    codes = [c for row in out[1:] for c in row.split() if c != "."]
    assert len(codes) == len(photo.truth) and all(len(c) == 3 for c in codes)
    overlay = cv2.imread(str(tmp_path / "debug" / "20.overlay.jpg"))
    assert overlay is not None and overlay.shape == cv2.imread(str(photo.path)).shape
