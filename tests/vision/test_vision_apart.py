"""Tiles apart from the board (a rack beside the play area) and tiles cut by the picture's edge."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine.tiles import COLOURS
from vision.crops import extract_crops
from vision.evaluate.real import align
from vision.scan import MIN_VISIBLE, scan_image
from vision.synth.scene import View, random_layout, random_style, render_board
from webui.cli import main


def _rack_scene(seed: int, gap: int):
    """A board of 20 tiles and a rack of six more, `gap` empty cells below its lowest tile."""
    rng = np.random.default_rng(seed)
    board = random_layout(rng, 20, COLOURS)
    left = min(x for x, _, _ in board)
    below = max(y for _, y, _ in board) + gap + 1
    rack = [(left + i, below, t) for i, (_, _, t) in enumerate(random_layout(rng, 6, COLOURS))]
    style = replace(random_style(np.random.default_rng(100 + seed)), glare=0, table="wood")
    render = render_board(board + rack, rng, view=View(elevation=80, pitch_px=45), style=style)
    return render, board, rack


@pytest.mark.parametrize("seed", [2, 3])
def test_a_rack_beside_the_board_is_reported_apart_and_never_as_board_tiles(seed):
    render, board, rack = _rack_scene(seed, gap=3)
    result = scan_image(render.image, COLOURS)
    found = {(t.x, t.y): t.guess.tile for t in result.tiles}
    truth = {(x, y): t for x, y, t in board}
    pairs = align(found, truth)
    assert len(found) == len(truth) == len(pairs)
    assert all(found[f] == truth[t] for f, t in pairs.items())
    assert sorted(t.guess.tile.code for t in result.off_board) == sorted(t.code for *_, t in rack)


def test_a_tile_one_empty_cell_from_the_board_stays_on_it():
    render, board, rack = _rack_scene(2, gap=1)
    result = scan_image(render.image, COLOURS)
    assert result.off_board == [] and len(result.tiles) == len(board) + len(rack)


def test_a_rack_a_cell_beyond_the_printed_board_is_off_it():
    """The board game's start on its printed board, a rack one empty row below the board's
    last row: the board's squares end there, so the rack is off the board, not linked to it
    through the squares (until session 39 the squares took in tiles 2.5 cells away)."""
    from replay_scenes import START, board_game, tiles

    rack = tiles(*((x, 17, colour, "square")
                   for x, colour in zip(range(2, 8), COLOURS, strict=True)))
    result = scan_image(board_game(aside=rack).stills()[0], COLOURS)
    assert len(result.tiles) == len(START)
    assert sorted(t.guess.tile.code for t in result.off_board) == sorted(t.code for *_, t in rack)


def _cut_block(seed: int):
    """An 8 x 6 block of tiles, its top row 65 % in view and its bottom row 45 %."""
    rng = np.random.default_rng(seed)
    kinds = [t for *_, t in random_layout(rng, 48, COLOURS)]
    layout = [(x, y, kinds[x * 6 + y]) for x in range(8) for y in range(6)]
    style = replace(random_style(np.random.default_rng(100 + seed)), glare=0, table="wood")
    render = render_board(layout, rng, view=View(elevation=90, pitch_px=50), style=style)
    h = render.homography
    top, bottom = ((h @ [3.0, y, 1.0])[1] / (h @ [3.0, y, 1.0])[2] for y in (-0.5, 5.5))
    return render.image[int(top + 0.35 * 50):int(bottom - 0.55 * 50)], layout


@pytest.mark.parametrize("seed", [0, 3])
def test_tiles_cut_by_the_edge_are_reported_when_mostly_in_view_and_flagged(seed):
    image, layout = _cut_block(seed)
    result = scan_image(image, COLOURS)
    found = {(t.x, t.y): t for t in result.tiles}
    truth = {(x, y): t for x, y, t in layout}
    pairs = align(set(found), set(truth))
    assert len(pairs) == len(found) == 40  # rows 0-4; row 5 is under MIN_VISIBLE
    assert all(found[f].guess.tile == truth[t] for f, t in pairs.items())
    cut = {t[1] for f, t in pairs.items() if found[f].cut}
    assert cut == {0}
    assert all(MIN_VISIBLE <= found[f].visible < 0.8 for f, t in pairs.items() if t[1] == 0)


def test_scan_json_lists_cut_tiles_as_doubtful_and_the_rack_off_board(tmp_path, capsys):
    image, _ = _cut_block(0)
    render, _, rack = _rack_scene(2, gap=3)
    paths = [tmp_path / "cut.png", tmp_path / "rack.png"]
    cv2.imwrite(str(paths[0]), image)
    cv2.imwrite(str(paths[1]), render.image)
    assert main(["scan", "--json", *map(str, paths)]) == 0
    cut, racked = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    doubtful = [t for t in cut["tiles"] if t.get("doubtful")]
    assert len(doubtful) == 8 and all(0.6 <= t["visible"] < 0.8 for t in doubtful)
    assert len(racked["off_board"]) == len(rack) and len(racked["tiles"]) == 20


def test_a_crop_cut_by_the_edge_is_completed_by_mirroring():
    # a white disc centred on cell (0, 0); the picture ends 0.2 cell right of the centre
    h = np.array([[50.0, 0.0, 40.0], [0.0, 50.0, 60.0], [0.0, 0.0, 1.0]])
    image = np.zeros((120, 50, 3), np.uint8)
    cv2.circle(image, (40, 60), 18, (255, 255, 255), -1)
    crop = extract_crops(image, h, np.zeros((1, 2)))[0, :, :, 0].astype(int)
    assert np.abs(crop - crop[:, ::-1]).mean() < 8  # both halves alike: the disc is whole
