"""The renderer draws the layout it is given where its homography says, and stays put per style."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine.tiles import COLOURS, SHAPES, Tile
from vision.crops import CROP
from vision.synth import scene
from vision.synth.samples import render_samples, tight_to_contract
from vision.synth.scene import Style, View, random_layout, render_board
from vision.synth.tiles import random_tile_set, shape_polygons

CLEAN = Style(table="plain", table_bgr=(200, 200, 200), nudge=0.0, twist=0.0, noise=0.0,
              glare=0, jpeg_quality=None, kelvin=6500.0)
LAYOUT = [(x, y, Tile(COLOURS[(x + y) % 6], SHAPES[(2 * x + y) % 6]))
          for x in range(-2, 4) for y in range(0, 3)]


def _hue(bgr) -> int:
    return int(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0, 0])


def _at(render, x: float, y: float) -> np.ndarray:
    u, v, w = render.homography @ np.array([x, y, 1.0])
    return render.image[int(round(v / w)), int(round(u / w))].astype(int)


@pytest.mark.parametrize("view", [View(elevation=90, pitch_px=40),
                                  View(elevation=50, azimuth=30, roll=10, pitch_px=70,
                                       distance=14, size=(900, 700))])
def test_homography_maps_cells_onto_the_drawn_symbols(view):
    render = render_board(LAYOUT, np.random.default_rng(0), view=view, style=CLEAN)
    assert {(x, y) for x, y, _ in render.tiles} == {(x, y) for x, y, _ in LAYOUT}
    for x, y, tile in LAYOUT:
        centre, rim = _at(render, x, y), _at(render, x + 0.445, y)
        want = CLEAN.tile_set.bgr(tile.colour)
        assert abs(_hue(centre) - _hue(want)) % 178 <= 4, (x, y, tile, centre, want)
        assert centre.max() > 80
        assert rim.max() < 70, f"({x}, {y}) edge of the tile should be black body, got {rim}"


def test_fitted_size_holds_every_tile_and_given_size_is_kept():
    fitted = render_board(LAYOUT, np.random.default_rng(1), view=View(pitch_px=30), style=CLEAN)
    h, w = fitted.image.shape[:2]
    for u, v in fitted.centers.values():
        assert 0 < u < w and 0 < v < h
    sized = render_board(LAYOUT, np.random.default_rng(1),
                         view=View(pitch_px=30, size=(640, 480)), style=CLEAN)
    assert sized.image.shape == (480, 640, 3) and sized.image.dtype == np.uint8


def test_same_view_and_style_give_the_same_table():
    view = View(elevation=60, pitch_px=35, size=(480, 360), target=(0.0, 1.0))
    style = replace(CLEAN, table="board", texture_seed=5)
    a = render_board(LAYOUT, np.random.default_rng(2), view=view, style=style)
    b = render_board(LAYOUT[:3], np.random.default_rng(3), view=view, style=style)
    assert np.allclose(a.homography, b.homography)
    corner = (slice(0, 40), slice(0, 40))  # far from the tiles: table/board only
    assert np.abs(a.image[corner].astype(int) - b.image[corner]).max() <= 2


def test_rendering_is_reproducible_from_the_seed():
    a = render_board(LAYOUT, np.random.default_rng(9))
    b = render_board(LAYOUT, np.random.default_rng(9))
    assert np.array_equal(a.image, b.image)


def test_the_remembered_table_gives_the_picture_a_fresh_drawing_gives():
    """A game's positions reuse the table drawn for the first: it must not change them, and
    tiles drawn on one position must not stay on the table for the next."""
    view = View(elevation=70, pitch_px=30, size=(320, 240), target=(0.0, 1.0))
    style = replace(CLEAN, table="board", texture_seed=8)
    full = render_board(LAYOUT, np.random.default_rng(4), view=view, style=style)
    few = render_board(LAYOUT[:2], np.random.default_rng(4), view=view, style=style)
    scene._LAST_TABLE.clear()
    fresh = render_board(LAYOUT[:2], np.random.default_rng(4), view=view, style=style)
    assert np.array_equal(few.image, fresh.image)
    assert not np.array_equal(full.image, few.image)


def test_every_shape_has_a_distinct_outline():
    def area(shape: str) -> float:
        mask = np.zeros((200, 200), np.uint8)
        for poly in shape_polygons(shape, 200):
            cv2.fillPoly(mask, [np.round(poly + 100).astype(np.int32)], 1)
        return mask.mean()

    areas = [area(s) for s in SHAPES]
    assert len({round(a, 2) for a in areas}) == len(SHAPES)
    assert all(0.2 < a < 0.6 for a in areas), areas
    with pytest.raises(ValueError, match="unknown shape"):
        shape_polygons("hexagon")


def test_tile_sets_vary_but_keep_colour_order():
    rng = np.random.default_rng(4)
    for _ in range(20):
        s = random_tile_set(rng)
        red, orange, yellow = (_hue(s.bgr(c)) for c in ("red", "orange", "yellow"))
        assert (red > 150 or red < orange) and orange < yellow


def test_bad_view_is_refused():
    with pytest.raises(ValueError, match="elevation"):
        render_board(LAYOUT, np.random.default_rng(0), view=View(elevation=120))


def test_samples_cut_every_tile_and_some_empty_cells():
    rng = np.random.default_rng(5)
    render = render_board(random_layout(rng, 12, COLOURS), rng)
    samples = render_samples(render, rng, empties=3)
    assert samples.crops.shape == (15, CROP, CROP, 3)
    assert list(samples.shape[12:]) == [-1] * 3 and (samples.shape[:12] >= 0).all()


def test_tight_crops_are_padded_to_the_contract():
    tight = np.zeros((50, 56, 3), np.uint8)
    tight[10:40, 12:44] = 255
    crop = tight_to_contract(tight)
    assert crop.shape == (CROP, CROP, 3)
    assert crop[:, :5].max() == 0 and crop[28:36, 28:36].min() == 255


# --------------------------------------------------------------------------- other sets, views


def test_a_six_point_star_and_the_weight_change_the_drawn_symbols():
    from vision.synth.tiles import edition

    star6 = shape_polygons("star", 1.0, points=6)[0]
    assert len(star6) == 12 and len(shape_polygons("star", 1.0)[0]) == 16
    thin, bold = (cv2.contourArea(shape_polygons("cross", 100.0, weight=w)[0].astype(np.float32))
                  for w in (0.8, 1.3))
    assert bold > 1.2 * thin
    older = edition(random_tile_set(np.random.default_rng(0), 0), "older", star_points=6)
    standard = random_tile_set(np.random.default_rng(0), 0)
    assert older.star_points == 6 and older.symbol["red"] == standard.symbol["red"]
    assert _hue(older.symbol["green"]) > _hue(standard.symbol["green"]) + 10  # teal


def test_varied_sets_drift_colours_strokes_and_stars_but_keep_colours_apart():
    from vision.synth.tiles import WEIGHTS, varied_tile_set

    rng = np.random.default_rng(6)
    stars, weights, greens = set(), [], []
    for _ in range(40):
        base = random_tile_set(rng)
        varied = varied_tile_set(base, rng)
        stars.add(varied.star_points)
        weights.append(varied.weight)
        greens.append(_hue(varied.symbol["green"]) - _hue(base.symbol["green"]))
        hues = [_hue(varied.bgr(c)) for c in ("orange", "yellow", "green", "blue", "purple")]
        assert hues == sorted(hues), hues  # no colour crosses into its neighbour's hues
        assert varied.symbol["white"] == base.symbol["white"] and varied.body == base.body
    assert stars == {6, 8}
    assert WEIGHTS[0] <= min(weights) < 0.9 and 1.15 < max(weights) <= WEIGHTS[1]
    assert min(greens) < 0 < 6 < max(greens)  # towards yellow, and towards teal


def test_oblique_views_see_the_tiles_from_30_to_60_degrees_at_600_to_1600_px():
    from vision.synth.scene import oblique_view

    for seed in range(6):
        rng = np.random.default_rng(seed)
        layout = random_layout(rng, 20, COLOURS)
        view = oblique_view(rng, layout, 0.3)
        assert 30 <= 90 - view.elevation <= 60
        render = render_board(layout, rng, view=view, style=replace(CLEAN, thickness=0.3))
        assert 590 <= max(render.image.shape[:2]) <= 1610


def test_oblique_views_need_no_lens_wider_than_a_phones():
    """Drawn close to a sprawling board, a view is moved back until a phone's widest lens
    takes it, so the tiles fill the picture rather than a corner of it."""
    from vision.synth.scene import WIDEST_LENS, lens_angle, oblique_view

    for seed in range(8):
        rng = np.random.default_rng(seed)
        layout = random_layout(rng, 60, COLOURS)
        view = oblique_view(rng, layout, 0.3, from_vertical=(55, 60), long_side=(600, 700))
        render = render_board(layout, rng, view=view, style=replace(CLEAN, thickness=0.3))
        height, width = render.image.shape[:2]
        assert lens_angle(render.camera, (width, height)) <= WIDEST_LENS + 1


def test_a_checked_cloth_shows_ground_half_tone_and_full_checks_at_its_angle():
    view = View(elevation=90, pitch_px=30, size=(480, 360), target=(0.0, 1.0))
    style = replace(CLEAN, table="cloth", table_bgr=(230, 230, 230), cloth_ink=(30, 30, 30),
                    cloth_check=2.0, plank_angle=0.0, texture_seed=3)
    render = render_board(LAYOUT[:1], np.random.default_rng(1), view=view, style=style)
    # away from the one tile (cell -2, 0): ground where neither stripe runs, half ink where
    # one does, full ink where both cross
    levels = np.array([_at(render, x + 0.5, y + 0.5).mean()
                       for x in range(1, 7) for y in range(-3, 5)])
    assert levels.max() > 190 and levels.min() < 60
    assert ((levels > 90) & (levels < 170)).any()
    turned = render_board(LAYOUT[:1], np.random.default_rng(1), view=view,
                          style=replace(style, plank_angle=45.0))
    assert not np.array_equal(turned.image, render.image)  # not the table drawn before
