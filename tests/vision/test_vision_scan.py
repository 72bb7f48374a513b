"""scan_image and locate_tiles end to end: real photos, rendered boards, crops, bad input."""

from __future__ import annotations

import warnings
from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine.tiles import COLOURS, Tile
from vision.classifier import TileGuess
from vision.crops import CROP, HALF, cutter, extract_crops
from vision.evaluate.real import (
    Tally,
    align,
    cloth_render,
    degrade,
    floor_render,
    game_colours,
    load_game,
)
from vision.scan import ImageError, _patterned, load_image, locate_tiles, overlay, scan_image
from vision.synth.scene import View, random_layout, random_style, render_board


def _cells(image) -> set[tuple[int, int]]:
    return {(int(x), int(y)) for x, y in locate_tiles(image).cells}


def _exact(found, truth) -> bool:
    return len(found) == len(truth) == len(align(found, truth))


# --------------------------------------------------------------------------- real photos


@pytest.mark.real
@pytest.mark.parametrize("game", ["classic-a", "connect-1", "connect-2", "oblique-2"])
def test_real_photos_give_exactly_the_annotated_cells(real_data, game):
    # an early sparse photo (board games: separate diagonals) and a late full one
    photos = load_game(real_data / game)
    for photo in (photos[1], photos[-1]):
        found = _cells(load_image(photo.path))
        assert _exact(found, set(photo.truth)), photo.path


@pytest.mark.real
def test_upright_photo_keeps_x_right_and_y_down(real_data):
    photo = load_game(real_data / "classic-a")[-1]
    located = locate_tiles(load_image(photo.path))
    found = {(int(x), int(y)) for x, y in located.cells}
    shift = {(tx - fx, ty - fy) for (fx, fy), (tx, ty) in align(found, photo.truth).items()}
    assert len(shift) == 1  # the identity symmetry: only a translation between the two
    right = located.lattice.homography @ np.array([1.0, 0, 0])
    down = located.lattice.homography @ np.array([0, 1.0, 0])
    assert right[0] > abs(right[1]) and down[1] > abs(down[0])


@pytest.mark.real
def test_real_photos_are_read_with_their_labels(real_data):
    tally = Tally()
    for game in ("classic-a", "oblique-2"):
        colours = game_colours(real_data / game)
        for photo in load_game(real_data / game)[-1:]:
            result = scan_image(load_image(photo.path), colours)
            tally.add(photo.truth, {(t.x, t.y): t.guess.tile for t in result.tiles})
    assert tally.recall >= 0.98 and tally.precision >= 0.98 and tally.accuracy >= 0.97


# --------------------------------------------------------------------------- rendered boards


@pytest.mark.parametrize("view,table", [
    (View(elevation=90, roll=10, pitch_px=50), "wood"),
    (View(elevation=90, roll=-25, pitch_px=40), "board"),
    (View(elevation=55, azimuth=60, pitch_px=55), "plain"),
])
def test_a_rendered_board_gives_its_exact_cells_and_labels(view, table):
    rng = np.random.default_rng(3)
    layout = random_layout(rng, 30, COLOURS)
    style = replace(random_style(np.random.default_rng(1003)), table=table, glare=0)
    render = render_board(layout, rng, view=view, style=style)
    result = scan_image(render.image, COLOURS)
    found = {(t.x, t.y): t.guess.tile for t in result.tiles}
    truth = {(x, y): tile for x, y, tile in render.tiles}
    pairs = align(found, truth)
    assert len(found) == len(truth) == len(pairs)
    assert all(found[f] == truth[t] for f, t in pairs.items())


# --------------------------------------------------------------------------- crops


def test_crops_follow_the_contract():
    # 40 px per cell, turned 90 degrees: cell x runs down the image, cell y to the left
    h = np.array([[0.0, -40.0, 300.0], [40.0, 0.0, 100.0], [0.0, 0.0, 1.0]])
    image = np.zeros((400, 400, 3), np.uint8)
    corner = np.round(h @ np.array([-0.3, -0.3, 1.0]))[:2].astype(int)  # cell (0, 0)'s top left
    cv2.circle(image, (int(corner[0]), int(corner[1])), 4, (0, 0, 255), -1)
    crops = extract_crops(image, h, np.array([[0.0, 0.0], [2.0, 1.0]]))
    assert crops.shape == (2, CROP, CROP, 3) and crops.dtype == np.uint8
    red = np.argwhere(crops[0, :, :, 2] > 128).mean(axis=0)  # (row, column)
    # [-0.6, 0.6] maps to 0..64, so -0.3 lies at a quarter: top left in the crop too
    assert np.allclose(red, [CROP / 4, CROP / 4], atol=3)
    assert crops[1].max() == 0
    assert extract_crops(image, h, np.zeros((0, 2))).shape == (0, CROP, CROP, 3)


def test_a_crop_across_a_lattice_s_horizon_is_cut_without_a_warning():
    # a lattice fitted to noise can put its horizon among the cells it is asked to read:
    # points on it lie nowhere in the picture, and the crop shows the picture's edge there
    image = np.full((200, 300, 3), 90, np.uint8)
    image[0] = 30
    step = 2 * HALF / CROP
    x = HALF - 10.5 * step  # the crop's 11th column of samples lies on the horizon, x = 0
    h = np.array([[20.0, 0.0, 150.0], [0.0, 20.0, 100.0], [1.0, 0.0, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        crops = extract_crops(image, h, np.array([[x, 0.0], [3.0, 1.0]]))
    assert crops.shape == (2, CROP, CROP, 3) and crops.min() >= 30


def test_a_crop_of_a_huge_cell_is_smoothed_not_aliased():
    # 400 px per cell (a phone photo up close), stripes one pixel wide: sampled as they are,
    # a crop would show stripes of its own; halved first, it is the stripes' mean grey
    h = np.array([[400.0, 0.0, 800.0], [0.0, 400.0, 800.0], [0.0, 0.0, 1.0]])
    image = np.zeros((1600, 1600, 3), np.uint8)
    image[:, ::2] = 255
    crop = extract_crops(image, h, np.array([[0.0, 0.0]]))[0].astype(float)
    assert abs(crop.mean() - 127.5) < 8 and crop.std() < 8
    # the same crop cut twice from one picture, by one cutter and by extract_crops
    cut = cutter(image, h, np.array([[0.0, 0.0], [1.0, 0.0]]))
    assert (cut(np.array([[0.0, 0.0]]))[0] == crop).all()
    assert cut(np.array([[0.5, 0.5]]), 24).shape == (1, 24, 24, 3)


# --------------------------------------------------------------------------- bad input


def test_missing_empty_and_corrupt_files_raise_a_clear_error(tmp_path):
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "absent.jpg")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(ImageError, match="empty"):
        load_image(empty)
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg")
    with pytest.raises(ImageError, match="not a readable image"):
        load_image(corrupt)


def test_an_image_without_tiles_gives_an_empty_result():
    result = scan_image(np.full((600, 800, 3), (150, 190, 228), np.uint8))
    assert result.tiles == [] and result.lattice is None and result.ms >= 0
    assert overlay(np.zeros((60, 80, 3), np.uint8), result).shape == (60, 80, 3)


def test_noise_gives_few_and_unsure_tiles_and_no_error():
    rng = np.random.default_rng(1)
    result = scan_image(rng.integers(0, 256, (600, 800, 3), dtype=np.uint8))
    assert all(0.0 <= t.guess.confidence <= 1.0 for t in result.tiles)


def test_degraded_variants_keep_the_picture_size_or_shrink_to_webcam():
    image = np.full((1600, 1200, 3), 200, np.uint8)
    assert degrade(image, "warm").shape == image.shape
    assert degrade(image, "half").mean() < 110
    assert max(degrade(image, "webcam").shape[:2]) == 960
    with pytest.raises(ValueError, match="unknown variant"):
        degrade(image, "sepia")


def test_a_tone_curve_moves_the_mid_tones_and_keeps_black_and_white():
    levels = np.array([[[0, 0, 0], [26, 26, 26], [128, 64, 255], [255, 255, 255]]], np.uint8)
    lifted, contrasty = degrade(levels, "lifted"), degrade(levels, "contrasty")
    assert lifted[0, 0].max() == contrasty[0, 0].max() == 0
    assert lifted[0, 3].min() == contrasty[0, 3].min() == 255
    assert lifted[0, 1, 0] == 46  # a tile body at 10 % shows at 18 %
    # darkened mid-tones shift an orange's green further below its red
    assert contrasty[0, 2, 1] / contrasty[0, 2, 2] < 64 / 255 < lifted[0, 2, 1] / lifted[0, 2, 2]


def test_a_shaken_camera_smears_a_point_along_its_row_only():
    image = np.zeros((1600, 1200, 3), np.uint8)
    image[800, 600] = 255
    shaken = degrade(image, "shaken")
    assert shaken.shape == image.shape
    row, column = shaken[800, :, 0], shaken[:, 600, 0]
    assert np.count_nonzero(row) == 9 and np.count_nonzero(column) == 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_board_seen_30_to_40_degrees_from_vertical_gives_its_exact_cells_and_labels(seed):
    from vision.synth.scene import oblique_view

    rng = np.random.default_rng(seed)
    layout = random_layout(rng, 26, COLOURS)
    style = replace(random_style(np.random.default_rng(300 + seed)), glare=0)
    view = oblique_view(rng, layout, style.thickness, from_vertical=(30, 40))
    result = scan_image(render_board(layout, rng, view=view, style=style).image, COLOURS)
    found = {(t.x, t.y): t.guess.tile for t in result.tiles}
    truth = {(x, y): tile for x, y, tile in layout}
    pairs = align(found, truth)
    assert len(found) == len(truth) == len(pairs)
    assert all(found[f] == truth[t] for f, t in pairs.items())


def test_a_lattice_bent_by_a_branch_placed_a_cell_off_is_fitted_again():
    """The 18th photo of rendered game 204: 37 small tiles, turned, on a red-brown cloth. The
    first fit placed one branch of the board a cell off; tiles recovered later joined that
    fit, one was left out, and eight moves were lost. A tile 0.38 cell off its cell's centre
    now calls for a new fit."""
    from vision.synth.footage import GameRenders, game_script

    renders = GameRenders(game_script(2, 204), 204)  # the whole game fixes the camera
    _, jpeg = cv2.imencode(".jpg", renders[18].image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    found = scan_image(cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
    truth = {(x, y): tile for x, y, tile in renders[18].tiles}
    read = {(r.x, r.y): r.guess.tile for r in found.tiles}
    pairs = align(read, truth)
    assert len(read) == len(truth) == len(pairs) == 37
    assert all(read[f] == truth[t] for f, t in pairs.items())


@pytest.mark.parametrize("seed,tiles", [(109, 40), (100, 55)], ids=["diagonals", "faint"])
def test_a_lattice_is_fitted_along_the_tiles_sides_where_they_hardly_show(seed, tiles):
    """Rendered boards of ``--synthetic``. Board 109: 40 tiles of 28 px on dark wood under a
    warm lamp. The edges of its diamonds and of its staircase of tiles outweighed the tiles'
    sides, and a lattice along the diagonals, 1/sqrt(2) as fine, placed every tile on a cell
    of one colour of a checkerboard: 28 tiles found, none labelled right. A board's tiles
    touch side to side, so such a lattice is turned by 45 degrees. Board 100: 55 near-black
    tiles on a near-black cloth, seen from overhead. Their sides hardly showed, and the second
    axis was taken 28 degrees off a right angle: 37 tiles placed right, 13 labelled right.
    Where the sides hardly show, the axes are taken as nearly perpendicular."""
    rng = np.random.default_rng(seed)
    render = render_board(random_layout(rng, int(rng.integers(3, 71)), COLOURS), rng)
    _reads_every_tile({(x, y): tile for x, y, tile in render.tiles}, render.image, tiles)


def _reads_every_tile(truth: dict, image: np.ndarray, tiles: int) -> None:
    """The scan finds all ``tiles`` tiles of ``truth`` (cell -> tile), each on its cell (up
    to the lattice's symmetry and shift) and labelled right, and nothing else."""
    found = {(t.x, t.y): t.guess.tile for t in scan_image(image, COLOURS).tiles}
    pairs = align(found, truth)
    assert len(found) == len(truth) == len(pairs) == tiles
    assert all(found[f] == truth[t] for f, t in pairs.items())


def test_a_lattice_is_fitted_along_the_tiles_not_the_floor_when_their_sides_hardly_show():
    """Board 189 of ``--floors``: near-black tiles on a dark floor of planks with seams at 26
    degrees to them, under two glare spots. Their sides hardly show and the floor's lines
    outweigh them: the first axes explained 12 of 25 symbols, and of the 23 tiles placed, 5
    lay on wrong cells. The symbols' nearest neighbours lie along the tiles' axes, and the
    lattice along them explains 23: every tile placed is placed right."""
    truth, image = floor_render(189)
    found = {(int(x), int(y)) for x, y in locate_tiles(image).cells}
    assert len(align(found, set(truth))) == len(found) >= 25


def test_a_lattice_is_not_sheared_along_a_floors_seams():
    """Board 63 of ``--floors``: 40 tiles on a floor whose seams make the strongest edges and
    a pair of axes 37 degrees apart: a lattice sheared along a diagonal, on which no symbol
    had a neighbour, 50 tiles read and none right. Axes so near are no view of a square
    lattice that a camera above the table gives."""
    _reads_every_tile(*floor_render(63), 40)


def test_a_lattice_along_a_floors_seams_is_known_by_the_symbols_it_draws_out():
    """Board 38 of ``--floors``: 59 dark tiles whose sides hardly show on a dark floor whose
    seams make the strongest edges. A lattice along the seams, its axes 52 degrees apart,
    explained 57 of the 59 symbols and put 20 tiles on wrong cells; it draws the round
    symbols out to 2.6 times as long one way as the other, the tiles' own axes not at all."""
    _reads_every_tile(*floor_render(38), 59)


def test_a_free_cell_framed_by_a_floors_seams_is_not_a_tile():
    """Board 87 of ``--floors``: 24 tiles on a floor whose dark seams, with the tiles' dark
    sides, frame two free cells beside the board like tile body round a symbol. The classifier
    took both for tiles; a cell whose middle has the floor's colour is not one."""
    _reads_every_tile(*floor_render(87), 24)


def test_a_checked_cloth_read_as_tiles_is_left_out_and_the_board_read_again():
    """Board 5 of ``--cloths``: 19 tiles on black checks about a cell wide under a warm lamp.
    Its light checks, ringed by dark ones, read as 86 orange squares, sure they were tiles;
    they bent the lattice and swayed the frame's colours, and 2 of the 19 tiles were read
    right. A set holds three tiles of each kind, so five of a kind side by side are the
    table's pattern: the photo is read again without them, and there the checks farther
    out, read as squares of several colours, less surely tiles than the tiles."""
    truth, image = cloth_render(5)
    result = scan_image(image, COLOURS)
    found = {(t.x, t.y): t.guess.tile for t in result.tiles}
    assert not _patterned(np.array(list(found)), [t.guess for t in result.tiles]).any()
    pairs = align(found, truth)
    right = sum(found[f] == truth[t] for f, t in pairs.items())
    assert right >= 17
    assert len(pairs) == len(found) <= 19  # every reading on a tile's cell


def test_table_lit_by_glare_beside_a_lit_tile_is_no_tile():
    """Board 169 of ``--cloths``: glare lights two tiles and the cloth beside them. A free
    cell beside a tile is judged against that tile's body, lit as it is, so the lit cloth
    passed for tile body; the classifier, sure of a tile there, was unsure of its kind
    (0.23). A cell that is dark only beside a lit tile must be sure of its kind, as one with
    the table's colour in its middle must."""
    truth, image = cloth_render(169)
    found = {(t.x, t.y): t.guess.tile for t in scan_image(image, COLOURS).tiles}
    pairs = align(found, truth)
    assert len(pairs) == len(found) >= len(truth) - 1


def test_a_check_read_as_no_kind_in_particular_is_doubtful_not_a_tile():
    """Board 28 of ``--cloths``: checks at 45° to the tiles beside the board look like tiles
    to the "is a tile" head, but match no kind of the set (their best label at 0.03 to
    0.06). They are kept apart as doubtful; every tile reported lies on a tile's cell."""
    truth, image = cloth_render(28)
    result = scan_image(image, COLOURS)
    found = {(t.x, t.y): t.guess.tile for t in result.tiles}
    pairs = align(found, truth)
    assert len(pairs) == len(truth) and len(found) <= len(truth) + 2
    assert all(t.guess.confidence >= 0.1 for t in result.tiles)
    assert sum(t.guess.confidence < 0.1 for t in result.doubtful) >= 7


def test_more_of_one_kind_than_a_set_holds_are_doubtful_where_unsure():
    """Board 17 of ``--cloths``: checks at 45 degrees to the tiles. Read along the tiles'
    axes, ten black checks beside the board read as purple diamonds (label 0.23-0.85) and
    counted as tiles, where a set holds three of each kind and the board none. Beyond the
    surest three they are doubtful now, and every one of the 26 tiles is still found and
    labelled right."""
    truth, image = cloth_render(17)
    result = scan_image(image, COLOURS)
    found = {(t.x, t.y): t.guess.tile for t in result.tiles}
    pairs = align(found, truth)
    assert sum(found[f] == truth[t] for f, t in pairs.items()) == len(truth) == 26
    assert len(found) <= len(truth) + 6  # 13 before
    purple_diamond = Tile("purple", "diamond")
    assert sum(t.guess.tile == purple_diamond for t in result.tiles) == 3
    assert sum(t.guess.tile == purple_diamond for t in result.doubtful) >= 7
    # a calibration block reads every kind once: many of one reading there are kept, and so
    # they are when the caller knows the board's tiles and judges new ones by the rules
    assert len(scan_image(image, COLOURS, patterns=False).tiles) > len(result.tiles)
    assert len(scan_image(image, COLOURS, known=np.zeros((0, 2))).tiles) > len(result.tiles)


def test_tiles_of_one_kind_side_by_side_are_a_pattern_only_when_many_and_sure():
    """Misreads on a real board give a pair or two of one kind side by side, and the rendered
    sets' random layouts up to four: such tiles stay. Five make a pattern, but only of crops
    the classifier is sure show tiles (a hole between tiles is no tile of the pattern)."""
    guess = TileGuess(Tile("orange", "square"), 0.9, {}, {})
    line = np.array([(x, 0) for x in range(4)])
    assert not _patterned(line, [guess] * 4).any()
    assert _patterned(np.vstack([line, (3, 1)]), [guess] * 5).all()
    assert not _patterned(np.vstack([line, (4, 1)]), [guess] * 5).any()  # diagonal: apart
    unsure = replace(guess, tile_prob=0.6)
    assert not _patterned(np.vstack([line, (3, 1)]), [guess] * 4 + [unsure]).any()


def test_a_calibration_keeps_many_of_one_reading():
    """``qwirkle calibrate`` reads a block of every kind once with the network alone: an odd
    set's colours and shapes may read alike there, and the block must stay whole."""
    _, image = cloth_render(5)
    result = scan_image(image, COLOURS, patterns=False)
    assert _patterned(np.array([(t.x, t.y) for t in result.tiles]),
                      [t.guess for t in result.tiles]).any()


@pytest.mark.parametrize("share,reads", [(0.1, 1), (0.6, 2)])
def test_a_photo_is_read_again_only_when_a_pattern_makes_most_of_it(monkeypatch, share, reads):
    """A lattice follows most of its points: a pattern that makes most of a read bent it, and
    the photo is read again without the pattern; a smaller one is only left out (reading a
    picture of specks twice doubled its cost). Either way its cells are not reported."""
    import vision.scan as scan

    truth, image = floor_render(63)
    calls, marked = [], []

    def counted(*args, **kwargs):
        calls.append(args[1] if len(args) > 1 else kwargs.get("ignore"))
        return locate(*args, **kwargs)

    def pattern(cells, guesses):
        if marked:  # the second read finds none
            return np.zeros(len(cells), bool)
        chosen = np.arange(len(cells)) < int(np.ceil(share * len(cells)))
        marked.extend(map(tuple, cells[chosen].tolist()))
        return chosen

    locate = scan.locate_tiles
    monkeypatch.setattr(scan, "locate_tiles", counted)
    monkeypatch.setattr(scan, "_patterned", pattern)
    found = {(t.x, t.y) for t in scan.scan_image(image, COLOURS).tiles}
    assert len(calls) == reads and (reads == 1 or len(calls[1]) == len(marked))
    if reads == 1:
        assert not found & set(marked)
    assert 0 < len(found) <= len(truth) - len(marked)


def test_the_crops_of_tiles_whose_kind_is_known_are_read_in_one_orientation(monkeypatch):
    """The live loop knows its board's kinds, and tells the scan where those tiles lay: only
    the other crops are read in all eight orientations where unsure. Known tiles half a
    cell away from where they lie (a camera knocked since) are not taken for them."""
    from vision.classifier import infer
    from vision.evaluate.real import oblique_render

    _, image = oblique_render(0, (50, 60))
    tiles = scan_image(image, COLOURS).tiles
    turned: list[int] = []
    original = infer._symmetric_shapes

    def recording(session, lit, shape_p, reread):
        unsure = shape_p.max(axis=1) < infer.SYMMETRY_BELOW
        turned.append(int((unsure & (True if reread is None else reread)).sum()))
        return original(session, lit, shape_p, reread)

    monkeypatch.setattr(infer, "_symmetric_shapes", recording)
    centres = np.array([t.center for t in tiles])
    pitch = scan_image(image, COLOURS).lattice.pitch_px
    again = scan_image(image, COLOURS, known=centres + (0.5 * pitch, 0.0))
    assert turned[-1] >= 3
    assert [t.guess.tile for t in again.tiles] == [t.guess.tile for t in tiles]
    known = scan_image(image, COLOURS, known=centres)
    assert turned[-1] <= len(known.doubtful)  # a crop not taken for a tile is no known one
    assert len(known.tiles) == len(tiles)
