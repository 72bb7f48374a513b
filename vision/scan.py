"""One photo in, every tile's cell and label out: detection, lattice, crops, classifier.

:func:`locate_tiles` is the geometry (which cells hold a tile, where, and the lattice);
:func:`scan_image` adds the classifier's reading of each tile's crop. Both accept any BGR
image; one without tiles gives an empty result rather than an error.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import COLOURS
from vision import detect, lattice
from vision.classifier import TileGuess, classify_crops
from vision.crops import extract_crops
from vision.overlay import draw_overlay

RECOVERY_ROUNDS = 3
"""Rounds of looking for glare-hit tiles next to the tiles found so far."""

SYMBOL_SIDE = 0.8
"""A symbol's typical extent as a share of the cell pitch (for a first guess of the pitch)."""

MIN_TILE_PROB = 0.5
"""Below this classifier "is a tile" probability a candidate is not reported."""

DOUBTFUL_TILE_PROB = 0.99
"""The same for a candidate that passed only the loosest recovery test (``Symbol.doubtful``),
checked before it joins the lattice: rendered tiles found so score 0.993 or more, printed
bonus squares between tiles in the real oblique photos up to 0.97."""

NEIGHBOURS = np.array([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy])


class ImageError(ValueError):
    """A file that is missing or cannot be decoded as an image."""


@dataclass(frozen=True)
class Lattice:
    """The fitted grid: ``homography`` maps cell (x, y) to photo pixels.

    ``pitch_px`` is the median side of a tile's cell in photo pixels.
    """

    homography: np.ndarray
    pitch_px: float


@dataclass(frozen=True)
class Located:
    """The geometry of a scan: tiles' integer cells, measured centres and the lattice."""

    cells: np.ndarray  # (N, 2) int
    centers: np.ndarray  # (N, 2) float, photo pixels
    fractional: np.ndarray  # (N, 2) float: the centres in cell units (crop centres)
    lattice: Lattice


@dataclass(frozen=True)
class TileReading:
    """One tile found: its cell, the classifier's guess and its centre in photo pixels."""

    x: int
    y: int
    guess: TileGuess
    center: tuple[float, float]


@dataclass(frozen=True)
class ScanResult:
    """Everything one scan found, and how long it took (milliseconds)."""

    tiles: list[TileReading]
    lattice: Lattice | None
    ms: float


def load_image(path: str | Path) -> np.ndarray:
    """Read a photo as a BGR array, or raise :class:`ImageError` saying what is wrong."""
    path = Path(path)
    if not path.is_file():
        raise ImageError(f"{path}: no such file")
    data = np.fromfile(str(path), dtype=np.uint8)
    if data.size == 0:
        raise ImageError(f"{path}: the file is empty")
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None:
        raise ImageError(f"{path}: not a readable image (corrupt or unsupported format)")
    return image


def locate_tiles(image: np.ndarray) -> Located:
    """Find the tiles' cells and the lattice in a BGR photo (no classification)."""
    work = detect.prepare(image)
    symbols = detect.find_symbols(work)
    if symbols:
        pitch = float(np.median([s.extent for s in symbols])) / SYMBOL_SIDE
        symbols = detect.drop_table_like(work, symbols, pitch)
    if not symbols:
        return Located(np.zeros((0, 2), int), np.zeros((0, 2)), np.zeros((0, 2)),
                       Lattice(np.eye(3), 0.0))
    # the axes and the board's squares hardly change as tiles are dropped or recovered
    points = np.array([s.center for s in symbols])
    extents = np.array([s.extent for s in symbols])
    axes = lattice.axis_directions(work, points, extents)
    squares = detect.find_squares(work, symbols, float(np.median(extents)) / SYMBOL_SIDE)
    grid = _fit(symbols, axes, squares)
    fitting = _symbol_sized(symbols, grid)
    if not fitting.all() and fitting.any():
        symbols = [s for s, ok in zip(symbols, fitting, strict=True) if ok]
        grid = _fit(symbols, axes, squares)
    for _ in range(RECOVERY_ROUNDS):
        extra = _vouched(image, work, grid, _recover(work, symbols, grid))
        if not extra:
            break
        symbols = symbols + extra
        grid = _fit(symbols, axes, squares)
    points = np.array([s.center for s in symbols])[grid.keep]
    homography = _to_photo(work) @ grid.homography
    cells = grid.cells[grid.keep]
    return Located(cells, points / work.scale, grid.to_cells(points),
                   Lattice(homography, lattice.cell_side(homography, cells)))


def _fit(symbols: list[detect.Symbol], axes: np.ndarray, squares: np.ndarray) -> lattice.Grid:
    """The lattice through the symbols' centres."""
    points = np.array([s.center for s in symbols])
    extents = np.array([s.extent for s in symbols])
    return lattice.assign_cells(points, extents, axes, squares)


SYMBOL_AREA = (0.1, 0.8)
"""A symbol's area in cells (a star ~0.2, a circle ~0.5). A patch of board or table hemmed in
by tiles and the dark table edge can pass the enclosure test, but it fills a whole cell."""


def _symbol_sized(symbols: list[detect.Symbol], grid: lattice.Grid) -> np.ndarray:
    """Which symbols have a plausible area once measured in cells rather than pixels."""
    fractional = grid.to_cells(np.array([s.center for s in symbols]))
    origin, right, down = (grid.to_pixels(fractional + step) for step in ([0, 0], [1, 0], [0, 1]))
    u, v = right - origin, down - origin
    cell_area = np.abs(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0])
    area = np.array([s.size ** 2 for s in symbols]) / np.maximum(cell_area, 1e-9)
    return (area >= SYMBOL_AREA[0]) & (area <= SYMBOL_AREA[1])


def _to_photo(work: detect.Work) -> np.ndarray:
    """The homography from working pixels back to the photo's."""
    return np.diag([1 / work.scale, 1 / work.scale, 1.0])


def _vouched(image: np.ndarray, work: detect.Work, grid: lattice.Grid,
             found: list[detect.Symbol]) -> list[detect.Symbol]:
    """``found`` less the doubtful candidates that the classifier does not call a tile.

    They are judged before they join the lattice, so a printed bonus square between tiles
    never pulls the grid, and :func:`locate_tiles` alone gives the final cells.
    """
    doubtful = [s for s in found if s.doubtful]
    if not doubtful:
        return found
    cells = grid.to_cells(np.array([s.center for s in doubtful]))
    guesses = classify_crops(extract_crops(image, _to_photo(work) @ grid.homography, cells))
    vouched = {id(s) for s, g in zip(doubtful, guesses, strict=True)
               if g.tile_prob >= DOUBTFUL_TILE_PROB}
    return [s for s in found if not s.doubtful or id(s) in vouched]


def _recover(work: detect.Work, symbols: list[detect.Symbol],
             grid: lattice.Grid) -> list[detect.Symbol]:
    """Tiles missed by the strict test, looked for in the cells next to the tiles found."""
    points = np.array([s.center for s in symbols])[grid.keep]
    fractional = grid.to_cells(points)
    cells = grid.cells[grid.keep]
    occupied = {tuple(c) for c in cells}
    # each empty neighbour cell, predicted from every found tile next to it (mean position)
    guesses: dict[tuple[int, int], list[np.ndarray]] = {}
    for cell, frac in zip(cells, fractional, strict=True):
        for step in NEIGHBOURS:
            target = (int(cell[0] + step[0]), int(cell[1] + step[1]))
            if target not in occupied:
                guesses.setdefault(target, []).append(frac + step)
    if not guesses:
        return []
    centres = np.array([np.mean(p, axis=0) for p in guesses.values()])
    typical = float(np.median([s.extent for s in symbols]))
    return detect.recover_symbols(work, grid.homography, centres, typical, points)


def scan_image(image: np.ndarray, colours: Sequence[str] = COLOURS) -> ScanResult:
    """Find and classify every tile in a BGR photo.

    The classifier's model is loaded on the first call (not counted in later calls' ``ms``).
    Candidates the classifier judges not to be a tile at all (``tile_prob`` below
    :data:`MIN_TILE_PROB`) are dropped: a last guard against a dark object with a light mark.
    """
    start = time.perf_counter()
    located = locate_tiles(image)
    guesses = []
    if len(located.cells):
        crops = extract_crops(image, located.lattice.homography, located.fractional)
        guesses = classify_crops(crops, colours)
    tiles = [TileReading(int(c[0]), int(c[1]), g, (float(p[0]), float(p[1])))
             for c, p, g in zip(located.cells, located.centers, guesses, strict=True)
             if g.tile_prob >= MIN_TILE_PROB]
    return ScanResult(tiles, located.lattice if tiles else None,
                      (time.perf_counter() - start) * 1000)


def overlay(image: np.ndarray, result: ScanResult) -> np.ndarray:
    """The photo with the scan's lattice, cells and tile codes drawn on it (for --debug-dir)."""
    if result.lattice is None:
        return image.copy()
    cells = np.array([(t.x, t.y) for t in result.tiles])
    centres = np.array([t.center for t in result.tiles])
    labels = [f"{t.guess.tile.code} {t.guess.confidence:.2f}" for t in result.tiles]
    return draw_overlay(image, result.lattice.homography, cells, centres, labels)
