"""Detection under the conditions the judging uses: the purple set, dim light, webcam size.

Real photos are degraded with :func:`vision.evaluate.real.degrade` (the set's white symbols
recoloured purple, a warm lamp, half light, a webcam frame); rendered boards put dark purple
symbols, a dark table in dim light, an empty cell closed in by tiles, a dim warm lamp
without white balance and glare that lifts whole tile bodies in front of the detector with
exact cells known.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine.tiles import COLOURS, Tile
from vision import detect
from vision.evaluate.real import (
    SYMMETRIES,
    Tally,
    align,
    as_purple,
    degrade,
    game_colours,
    load_game,
    uses_purple,
    white_symbols,
)
from vision.scan import load_image, scan_image
from vision.synth.scene import View, random_layout, random_style, render_board


def _cells(image) -> set[tuple[int, int]]:
    """The scan's cells: the classifier is the last judge of doubtful candidates."""
    return {(t.x, t.y) for t in scan_image(image).tiles}


def _exact(found, truth) -> bool:
    return len(found) == len(truth) == len(align(found, truth))


# --------------------------------------------------------------------------- the purple variant


def test_purple_recolours_only_symbols_ringed_by_tile_body():
    image = np.full((800, 800, 3), (225, 225, 225), np.uint8)  # a white table
    cv2.rectangle(image, (100, 100), (160, 160), (30, 30, 30), -1)  # a tile ...
    cv2.circle(image, (130, 130), 18, (235, 235, 235), -1)  # ... with a white circle
    cv2.rectangle(image, (250, 250), (310, 310), (30, 30, 30), -1)  # a tile ...
    cv2.circle(image, (280, 280), 18, (40, 200, 230), -1)  # ... with a yellow circle
    mask = white_symbols(image)
    assert mask[130, 130] and not mask[280, 280] and not mask[20, 20]
    purple = degrade(image, "purple")
    b, g, r = (int(c) for c in purple[130, 130])
    hue = 2 * int(cv2.cvtColor(purple[130:131, 130:131], cv2.COLOR_BGR2HSV)[0, 0, 0])
    assert 265 <= hue <= 295 and g < r < b and max(b, g, r) < 200  # a darker violet
    untouched = ~cv2.dilate(mask.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    assert np.array_equal(purple[untouched], image[untouched])


def test_purple_variants_map_white_labels_and_combine_in_a_fixed_order():
    truth = {(0, 0): Tile("white", "star"), (1, 0): Tile("red", "star"), (2, 0): None}
    assert as_purple(truth) == {(0, 0): Tile("purple", "star"), (1, 0): Tile("red", "star"),
                                (2, 0): None}
    assert uses_purple("half+purple") and not uses_purple("warm+webcam")
    image = np.full((1200, 900, 3), 200, np.uint8)
    assert np.array_equal(degrade(image, "webcam+warm"), degrade(image, "warm+webcam"))
    assert max(degrade(image, "purple+webcam").shape[:2]) == 960
    with pytest.raises(ValueError, match="unknown variant"):
        degrade(image, "warm+sepia")


@pytest.mark.real
@pytest.mark.parametrize("game,index", [("classic-a", 19), ("connect-2", 12),
                                        ("oblique-2", 13)])
def test_real_photos_recoloured_purple_keep_every_cell(real_data, game, index):
    photo = load_game(real_data / game)[index]
    image = load_image(photo.path)
    whites = sum(1 for t in photo.truth.values() if t is not None and t.colour == "white")
    recoloured = cv2.connectedComponents(white_symbols(image).astype(np.uint8))[0] - 1
    unlabelled = sum(1 for t in photo.truth.values() if t is None)
    assert whites <= recoloured <= whites + unlabelled  # every white symbol, nothing else
    for variant in ("purple", "half+purple", "purple+webcam"):
        found = _cells(degrade(image, variant, seed=index))
        assert _exact(found, set(photo.truth)), variant


@pytest.mark.real
def test_real_purple_tiles_are_read_as_purple_with_the_default_colours(real_data):
    colours = tuple("purple" if c == "white" else c for c in game_colours(real_data / "classic-a"))
    assert colours == COLOURS
    tally = Tally()
    for photo in load_game(real_data / "classic-a")[-2:]:
        result = scan_image(degrade(load_image(photo.path), "purple"), colours)
        tally.add(as_purple(photo.truth), {(t.x, t.y): t.guess.tile for t in result.tiles})
    assert tally.recall == 1.0 and tally.precision == 1.0 and tally.accuracy >= 0.97


@pytest.mark.real
def test_a_thin_armed_symbol_at_webcam_size_is_recovered(real_data):
    # connect-2/08 as a webcam frame: a green clover whose arms leave a pixel of body at the
    # tile's edge, on a diagonal where it touches its neighbours only at corners
    photo = load_game(real_data / "connect-2")[8]
    found = _cells(degrade(load_image(photo.path), "webcam", seed=8))
    assert _exact(found, set(photo.truth))


@pytest.mark.real
@pytest.mark.parametrize("index", [3, 9])
def test_a_printed_board_blurred_by_a_shaken_camera_keeps_every_group(real_data, index):
    # 9 px of horizontal motion blur: the board's lines, fainter, ringed too few squares to
    # link the start's diagonals, and 14 tiles of each photo were lost; where the squares
    # are few and leave groups apart they are looked for again among fainter lines
    photo = load_game(real_data / "connect-2")[index]
    found = _cells(degrade(load_image(photo.path), "shaken"))
    assert _exact(found, set(photo.truth))


@pytest.mark.real
@pytest.mark.parametrize("game,index", [("connect-1", 3), ("connect-2", 1)])
def test_a_printed_board_under_a_shadow_lifting_tone_curve_keeps_every_group(real_data, game,
                                                                             index):
    # a phone's HDR lifts the tile bodies: the thickened dark cuts find most symbols and
    # measure them short, the cell taken from them is too small for the board's squares,
    # and the start's diagonals came apart: 6 tiles of connect-2/01 were reported off the
    # board, and connect-1/03 was read off its cells (5 of 33 tiles in their cells)
    photo = load_game(real_data / game)[index]
    found = _cells(degrade(load_image(photo.path), "lifted"))
    assert _exact(found, set(photo.truth))


# --------------------------------------------------------------------------- rendered hard cases


def _board(seed: int, **style) -> tuple[np.ndarray, set[tuple[int, int]]]:
    """A block of 20 tiles in 5 rows with an empty cell closed in on all sides."""
    cells = [(x, y) for y in range(5) for x in range(4) if (x, y) != (1, 2)] + [(4, 2)]
    kinds = [Tile(c, s) for c in COLOURS for s in ("circle", "clover", "cross", "star")]
    placed = [(x, y, kinds[(5 * i + seed) % len(kinds)]) for i, (x, y) in enumerate(cells)]
    rng = np.random.default_rng(seed)
    base = replace(random_style(np.random.default_rng(100 + seed)), glare=0, blur=0.6,
                   jpeg_quality=80)
    view = style.pop("view", View(elevation=90, roll=8, pitch_px=45))
    render = render_board(placed, rng, view=view, style=replace(base, **style))
    return render.image, set(cells)


def test_an_oblique_board_with_a_closed_in_empty_cell_gives_exact_cells():
    image, cells = _board(1, table="board", brightness=1.0,
                          view=View(elevation=50, azimuth=70, pitch_px=45))
    assert _exact(_cells(image), cells)


def test_a_dark_table_in_dim_light_gives_no_table_specks_or_closed_in_cells():
    # the table is nearly as dark as the tiles: all of it reads as "dark", so noise specks
    # and the empty cell closed in by tiles are enclosed light regions with the table's colour
    image, cells = _board(1, table="plain", table_bgr=(40, 40, 45), brightness=0.45, noise=4.0)
    assert _exact(_cells(image), cells)


def test_purple_symbols_nearly_as_dark_as_the_body_are_found():
    style = random_style(np.random.default_rng(7))
    dark_purple = replace(style.tile_set, symbol={**style.tile_set.symbol, "purple": (95, 45, 75)})
    image, cells = _board(2, table="wood", brightness=0.55, tile_set=dark_purple)
    assert _exact(_cells(image), cells)


@pytest.mark.parametrize("seed,table", [(1, "wood"), (10, "plain")])
def test_blue_and_green_symbols_under_a_dim_warm_lamp_are_found(seed, table):
    # 2700 K without white balance at 45 % light: a blue or green symbol is hardly brighter
    # than the body in its brightest channel; the loosest recovery test and the classifier
    # find it
    image, cells = _board(seed, table=table, kelvin=2700, white_balance=0.0, brightness=0.45,
                          noise=4.0)
    assert _exact(_cells(image), cells)


@pytest.mark.parametrize("seed,table", [(0, "board"), (7, "plain")])
def test_tiles_under_strong_glare_are_recovered_beside_the_others(seed, table):
    # four glare spots over the block: where one lies, body and symbol are lifted alike, the
    # body reads half as bright as the table or more and no dark cut rings the symbol; the
    # relaxed test finds those tiles by the difference of middle and rim (3 to 6 of 20 were
    # missed before); the board's bonus squares and the closed-in cell stay empty
    image, cells = _board(seed, table=table, glare=4, brightness=1.0)
    assert _exact(_cells(image), cells)


def test_a_small_board_whose_every_body_glare_lifts_is_still_found():
    # board 23 of `python -m vision.evaluate.real --synthetic`: five tiles in a column on a
    # printed board under a streak of glare; no dark cut encloses a symbol (nothing at all
    # was found before), the span between the darkest and brightest levels near each pixel
    # still rings two, and the lattice through them finds the rest
    rng = np.random.default_rng(23)
    render = render_board(random_layout(rng, int(rng.integers(3, 71)), COLOURS), rng)
    truth = {(x, y): tile for x, y, tile in render.tiles}
    work = detect.prepare(render.image)
    found = np.array([s.center for s in detect.find_symbols(work)]).reshape(-1, 2) / work.scale
    tiles = np.array(list(render.centers.values()))
    assert len(found) >= 2  # and every one on a tile, none on a printed square
    assert (np.linalg.norm(found[:, None] - tiles[None], axis=2).min(axis=1) < 10).all()
    assert _labels_exact(scan_image(render.image), truth)


@pytest.mark.real
@pytest.mark.parametrize("index,variant", [(3, "warm+webcam"), (1, "original"),
                                           (1, "warm")])
def test_oblique_board_photos_keep_exact_cells(real_data, index, variant):
    # 03 as a warm webcam frame: the near board pieces' printed squares, larger than the
    # median cell under perspective, must still link the diagonal groups across the seams;
    # 01: a printed bonus square between tiles passes the loosest recovery test and
    # must be turned down by the classifier
    photo = load_game(real_data / "oblique-2")[index]
    image = degrade(load_image(photo.path), variant, seed=index)
    assert _exact(_cells(image), set(photo.truth))


# --------------------------------------------------------------------------- game photos
# Positions of simulated games as `python -m vision.evaluate.replay` photographs them (960 x
# 720, JPEG quality 90, the camera framing the final board, so tiles are 26-32 px wide).


def _game_photo(seed: int, position: int):
    from vision.synth.footage import GameRenders, game_script

    script = game_script(2, seed)
    image = GameRenders(script, seed)[position].image
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    truth = {(x, y): tile for x, y, tile in script.positions[position]}
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR), truth


def _labels_exact(result, truth) -> bool:
    """Whether the scan's cells and labels are the truth's, under one symmetry and shift.

    Labels take part in the match: a line of three tiles fits its truth both ways round.
    """
    found = {(t.x, t.y): t.guess.tile for t in result.tiles}
    if len(found) != len(truth) or not found:
        return False
    x0, y0 = next(iter(found))
    for a, b, c, d in SYMMETRIES:
        for tx, ty in truth:
            sx, sy = tx - (a * x0 + b * y0), ty - (c * x0 + d * y0)
            moved = {(a * x + b * y + sx, c * x + d * y + sy): tile
                     for (x, y), tile in found.items()}
            if moved == truth:
                return True
    return False


def test_big_circles_on_small_tiles_in_a_warm_dim_light_are_completed_by_the_classifier():
    # two purple circles fill their tiles so that the dark ring round them is a pixel wide:
    # the detector misses them; the classifier reads the free cells beside the tiles
    image, truth = _game_photo(102, 8)
    assert _labels_exact(scan_image(image), truth)


def test_a_hole_ringed_by_tiles_is_doubtful_not_a_tile():
    # the table seen through a gap between four tiles passes the enclosure test and reads as
    # a square of the table's colour, but the classifier doubts it is a tile
    image, truth = _game_photo(101, 36)
    result = scan_image(image)
    assert _labels_exact(result, truth)
    assert len(result.doubtful) == 1


def test_a_first_move_of_three_small_tiles_gets_the_right_pitch():
    # the star's and the cross's symbols are found only in part, so the symbols look small
    # for their spacing; the touching tiles of a first move still give the pitch
    image, truth = _game_photo(106, 1)
    assert _labels_exact(scan_image(image), truth)
