"""`qwirkle scan` and `qwirkle replay` on odd files (issue 11): each gets a clear message and
exit status 2, never a traceback or a hang, and the bad file costs no memory to refuse."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import warnings
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import detect
from vision.imagefile import ImageError, load_image
from vision.scan import SYMBOL_SIDE, locate_tiles, scan_image
from vision.stable import MAX_THUMB_ROWS, THUMB_WIDTH, thumbnail
from webui.checks.fuzz_files import png_claiming
from webui.cli import main

REPO = Path(__file__).resolve().parents[2]


def jpeg_claiming(width: int, height: int) -> bytes:
    data = bytearray(cv2.imencode(".jpg", np.zeros((32, 32, 3), np.uint8))[1].tobytes())
    at = data.find(b"\xff\xc0")
    data[at + 5:at + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def write_image(path: Path, shape: tuple[int, int]) -> Path:
    cv2.imwrite(str(path), np.full((*shape, 3), 128, np.uint8))
    return path


@pytest.mark.parametrize("shape", [(1, 1), (8, 8), (1, 5000), (5000, 2), (15, 400)])
def test_tiny_images_are_a_clear_error(tmp_path, shape, capsys):
    path = write_image(tmp_path / "tiny.png", shape)
    assert main(["scan", str(path)]) == 2
    err = capsys.readouterr().err
    assert "too small to show a tile" in err and "Traceback" not in err


@pytest.mark.parametrize("make", [lambda: png_claiming(40000, 40000),
                                  lambda: jpeg_claiming(40000, 40000)])
def test_a_giant_picture_is_refused_from_its_header(tmp_path, make):
    path = tmp_path / "giant.img"
    path.write_bytes(make())
    with pytest.raises(ImageError, match="40000x40000 pixels is too big"):
        load_image(path)


def test_a_giant_file_is_refused_by_its_size_without_reading_it(tmp_path):
    path = tmp_path / "huge.jpg"
    with path.open("wb") as sparse:
        sparse.truncate(30 * 2**30)  # 30 GB, no disk used
    with pytest.raises(ImageError, match="too big for a photo"):
        load_image(path)


def test_a_truncated_jpeg_says_so(tmp_path, capsys):
    image = np.random.default_rng(3).integers(0, 256, (300, 400, 3), np.uint8)
    data = cv2.imencode(".jpg", image)[1].tobytes()
    path = tmp_path / "cut.jpg"
    path.write_bytes(data[: len(data) * 2 // 3])
    assert main(["scan", str(path)]) == 2
    assert "cut short" in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need POSIX")
def test_a_named_pipe_is_skipped_not_read(tmp_path, capsys):
    pipe = tmp_path / "photo.jpg"
    os.mkfifo(pipe)
    assert main(["scan", str(pipe), "/dev/null"]) == 2  # would hang if opened
    err = capsys.readouterr().err
    assert err.count("not a photo file (a pipe or device)") == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need POSIX")
def test_replay_skips_a_pipe_among_the_photos_with_a_warning(tmp_path, capsys):
    folder = tmp_path / "game"
    folder.mkdir()
    write_image(folder / "01.png", (120, 160))
    os.mkfifo(folder / "02.jpg")
    assert main(["replay", str(folder)]) == 2  # one plain photo: no move
    err = capsys.readouterr().err
    assert "02.jpg is not a photo file (a pipe or device): skipped" in err
    assert "no move found in one picture" in err
    assert main(["replay", str(folder / "02.jpg")]) == 2
    assert "is a pipe or device" in capsys.readouterr().err


def test_replay_of_a_truncated_photo_says_what_happened(tmp_path, capsys):
    folder = tmp_path / "game"
    folder.mkdir()
    data = cv2.imencode(".jpg", np.full((200, 200, 3), 90, np.uint8))[1].tobytes()
    (folder / "01.jpg").write_bytes(data[:-40])
    assert main(["replay", str(folder)]) == 2
    assert "cannot read photo" in capsys.readouterr().err


def test_output_into_a_closed_pipe_ends_quietly(tmp_path):
    path = write_image(tmp_path / "table.png", (480, 640))
    paths = [str(path)] * 40
    reader = subprocess.Popen(["head", "-c1"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    done = subprocess.run([sys.executable, "-m", "webui.cli", "scan", *paths], cwd=REPO,
                          stdout=reader.stdin, stderr=subprocess.PIPE, timeout=120)
    reader.stdin.close()
    reader.wait(10)
    assert done.stderr == b"" and done.returncode in (0, 1)


def checkerboard(height: int, width: int, square: int) -> np.ndarray:
    board = ((np.indices((height, width)) // square).sum(axis=0) % 2 * 255).astype(np.uint8)
    return cv2.merge([board] * 3)


def test_a_fine_checkerboard_finishes_with_bounded_candidates():
    image = checkerboard(1200, 1600, 8)
    symbols = detect.find_symbols(detect.prepare(image))
    assert len(symbols) <= detect.MAX_SYMBOLS
    located = locate_tiles(image)  # 7.5 GB and a MemoryError before the bound
    assert len(located.cells) <= detect.MAX_SYMBOLS


def test_recovering_tiles_beside_a_checked_cloth_stays_bounded():
    # 5-px squares: every cell beside a detected "tile" passes the relaxed test, and each
    # round of recovery looked beside the last round's finds (3,407 cells, 15 s, 1.3 GB)
    located = locate_tiles(checkerboard(530, 1572, 5))
    assert 0 < len(located.cells) <= detect.MAX_SYMBOLS


def test_noise_gives_a_bounded_number_of_board_squares(monkeypatch):
    # black and white noise (a 1-bit PNG): specks ring holes of a cell's size everywhere,
    # hundreds of "squares", and the lattice's work grows with the square of its points
    specks = (np.random.default_rng(3).random((690, 821)) < 0.5).astype(np.uint8) * 255
    noise = cv2.merge([specks] * 3)
    work = detect.prepare(noise)
    symbols = detect.find_symbols(work)
    pitch = float(np.median([s.extent for s in symbols])) / SYMBOL_SIDE
    squares = detect.find_squares(work, symbols, pitch)
    assert len(squares) == detect.MAX_SQUARES
    monkeypatch.setattr(detect, "MAX_SQUARES", 10**6)
    every = detect.find_squares(work, symbols, pitch)
    assert len(every) > len(squares)  # more were found: the nearest to the tiles are kept
    tiles = np.array([s.center for s in symbols])
    apart = np.linalg.norm(every[:, None] - tiles[None], axis=2).min(axis=1)
    kept = (every[:, None] == squares[None]).all(axis=2).any(axis=1)
    assert kept.sum() == len(squares) and apart[kept].max() <= apart[~kept].min()


def test_a_picture_a_few_pixels_wide_replayed_as_a_video_costs_little(tmp_path, capsys):
    # read as a one-frame video: its thumbnail for the stillness gate, scaled to 160 px
    # wide, had 219,200 rows (2.2 GB and 20 s before the "no move" answer)
    assert thumbnail(np.full((4110, 3, 3), 128, np.uint8)).shape[:2] == (MAX_THUMB_ROWS,
                                                                         THUMB_WIDTH)
    path = write_image(tmp_path / "line.png", (4110, 3))
    assert main(["replay", str(path)]) == 2
    assert "no move found" in capsys.readouterr().err


@pytest.mark.parametrize("seed, side, density", [(46, 400, 0.3), (89, 300, 0.56)])
def test_black_and_white_specks_are_scanned_without_an_error(seed, side, density):
    # two 1-bit pictures that once ended in an error: a lattice fitted to specks that fit
    # none mapped every cell onto one line (a singular matrix), and one whose kept points
    # were all dropped as unfit left no cell to look beside
    specks = np.random.default_rng(seed).random((side * 3 // 4, side)) < density
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nor a division by zero on the way
        scan_image(cv2.merge([specks.astype(np.uint8) * 255] * 3))
