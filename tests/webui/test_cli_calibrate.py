"""`qwirkle calibrate` and `qwirkle scan --set`: an odd set learned from one photo of its kinds."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from engine.tiles import COLOURS, Tile
from vision.evaluate.real import align
from vision.evaluate.sets import calibration_photo, older_style
from vision.synth.scene import View, random_layout, random_style, render_board
from webui.cli import main

OLDER = older_style(random_style(np.random.default_rng(703)))


def _photo(tmp_path, name: str, layout, view: View) -> str:
    path = tmp_path / name
    cv2.imwrite(str(path), render_board(layout, np.random.default_rng(5), style=OLDER,
                                        view=view).image)
    return str(path)


def _right(line: str, truth) -> int:
    found = {(t["x"], t["y"]): Tile(t["colour"], t["shape"]) for t in json.loads(line)["tiles"]}
    return sum(found[f] == truth[t] for f, t in align(found, truth).items())


def test_a_profile_from_a_photo_of_the_36_kinds_fixes_the_reads_of_an_older_set(tmp_path,
                                                                                 capsys):
    # photographed from the far side of the table: the block lies upside down
    photo = str(tmp_path / "block.png")
    cv2.imwrite(photo, calibration_photo(OLDER, COLOURS))
    profile = tmp_path / "older.json"
    assert main(["calibrate", photo, "--out", str(profile)]) == 0
    out = capsys.readouterr().out
    assert "the 36 kinds found" in out and "of them right" in out and profile.is_file()

    # a layout the network misreads even with its frame's consensus: twelve tiles, as early
    # in a game, too few of a colour for the frame to tell teal greens from sky blues
    rng = np.random.default_rng(2006)
    layout = random_layout(rng, 12, COLOURS)
    table = _photo(tmp_path, "table.png", layout, View(elevation=75, pitch_px=45))
    truth = {(x, y): t for x, y, t in layout}
    assert main(["scan", table, "--json"]) == 0
    alone = _right(capsys.readouterr().out, truth)
    assert main(["scan", table, "--json", "--set", str(profile)]) == 0
    adapted = _right(capsys.readouterr().out, truth)
    assert alone <= 10 and adapted == 12


def test_a_photo_without_a_full_block_is_refused(tmp_path, capsys):
    layout = random_layout(np.random.default_rng(1), 20, COLOURS)
    photo = _photo(tmp_path, "few.png", layout, View(elevation=85, pitch_px=50))
    assert main(["calibrate", photo, "--out", str(tmp_path / "p.json")]) == 2
    assert "found 20 tiles" in capsys.readouterr().err
    assert not (tmp_path / "p.json").exists()
    assert main(["calibrate", str(tmp_path / "absent.jpg")]) == 2
    assert "no such file" in capsys.readouterr().err


@pytest.mark.parametrize("content,message", [
    (None, "no such set profile"),
    ("{not json", "not a set profile"),
    ('{"kind": "something else"}', "not a set profile"),
    ('{"kind": "qwirkle-set-profile", "colours": ["red"], "adapter": {"version": 1}}',
     "six known colours"),
    ('{"kind": "qwirkle-set-profile", "colours": ["red", "orange", "yellow", "green", "blue",'
     ' "purple"], "adapter": {"version": 7}}', "calibrate again"),
])
def test_scan_refuses_a_bad_profile_with_a_clear_message(tmp_path, capsys, content, message):
    profile = tmp_path / "profile.json"
    if content is not None:
        profile.write_text(content)
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), np.full((200, 200, 3), 180, np.uint8))
    assert main(["scan", str(image), "--set", str(profile)]) == 2
    out, err = capsys.readouterr()
    assert message in err and out == ""


def test_calibrate_help_shows_the_layout(capsys):
    with pytest.raises(SystemExit):
        main(["calibrate", "--help"])
    assert "circle, square, diamond, clover, cross, star" in capsys.readouterr().out
