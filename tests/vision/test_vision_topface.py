"""Strongly oblique views: the lattice on the tiles' top faces, foreshortened along one axis."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.tiles import COLOURS
from vision import lattice, topface
from vision.evaluate.real import align
from vision.scan import scan_image
from vision.synth.scene import oblique_view, random_layout, random_style, render_board


def _squashed_line_board(squash: float) -> tuple[np.ndarray, np.ndarray]:
    """Symbol centres of a plus-shaped board of lines, one cell 40 px wide and ``squash`` of
    that deep, and a symbol extent of 0.8 of a cell's width each."""
    cells = [(x, 0) for x in range(-4, 5)] + [(0, y) for y in range(-4, 5) if y] \
        + [(3, y) for y in range(1, 5)] + [(x, -3) for x in range(-3, 0)]
    points = np.array(cells, float) * [40.0, 40.0 * squash] + [300.0, 300.0]
    return points, np.full(len(points), 32.0)


def test_neighbours_straight_along_an_axis_measure_its_foreshortened_pitch():
    points, extents = _squashed_line_board(0.55)
    pitches = topface.axis_pitches(points, extents, np.eye(2))
    assert pitches == pytest.approx([40 / 32, 0.55 * 40 / 32], rel=0.02)


def test_a_half_pitch_lattice_explains_fewer_tiles_than_the_true_one():
    points, _ = _squashed_line_board(0.55)
    true = np.array([[40.0, 0, 300], [0, 22.0, 300], [0, 0, 1]])
    half = true @ np.diag([1.0, 0.5, 1.0])
    double = true @ np.diag([1.0, 2.0, 1.0])
    assert topface.explained(points, true) == len(points)
    assert topface.explained(points, half) < 0.6 * len(points)
    assert topface.explained(points, double) < 0.8 * len(points)


def test_the_sketch_finds_the_pitch_of_a_board_squashed_to_half_its_depth():
    points, extents = _squashed_line_board(0.5)
    first = lattice.sketch(points, extents, np.eye(2))
    step = lattice.project(first.homography, np.array([[0.0, 0], [1, 0], [0, 1]]))
    assert np.linalg.norm(step[1] - step[0]) == pytest.approx(40, rel=0.05)
    assert np.linalg.norm(step[2] - step[0]) == pytest.approx(20, rel=0.05)


@pytest.mark.parametrize("seed", [4, 6, 21])
def test_a_board_seen_55_degrees_from_vertical_is_read_on_its_tile_tops(seed):
    """The view of a phone on a holder beside the table: tiles' sides in view, tops squashed."""
    rng = np.random.default_rng(seed)
    layout = random_layout(rng, 30, COLOURS)
    style = replace(random_style(np.random.default_rng(500 + seed)), glare=0)
    view = oblique_view(rng, layout, style.thickness, from_vertical=(55, 55),
                        long_side=(1100, 1400))
    render = render_board(layout, rng, view=view, style=style)
    result = scan_image(render.image, COLOURS)
    found = {(t.x, t.y): t for t in result.tiles}
    truth = {(x, y): tile for x, y, tile in layout}
    pairs = align(found, truth)
    assert len(found) == len(truth) == len(pairs)
    assert sum(found[f].guess.tile == truth[t] for f, t in pairs.items()) >= len(truth) - 1
    # the fitted lattice puts each cell's centre on the tile's top face as drawn
    cells = np.array(list(pairs), float)
    drawn = np.array([render.centers[pairs[tuple(c)]] for c in cells.astype(int)])
    pitch = lattice.cell_side(result.lattice.homography, cells)
    miss = np.linalg.norm(lattice.project(result.lattice.homography, cells) - drawn, axis=1)
    assert miss.max() < 0.15 * pitch
