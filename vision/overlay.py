"""Pictures drawn over the camera's frames: a scan's debug picture (the fitted lattice, each
tile's cell and label) and the live preview (what the tracker knows of the board)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import cv2
import numpy as np

from engine.board import Cell, Placed
from vision.lattice import project

KNOWN = (80, 200, 80)
"""BGR of the dot on a tile already on the board, in the live preview."""

LATEST = (0, 165, 255)
"""BGR of the outline round a tile of the last move, in the live preview."""


def draw_overlay(image: np.ndarray, homography: np.ndarray, cells: np.ndarray,
                 centers: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """The photo with lattice lines over the tiles' span, cell outlines and text per tile.

    Lattice lines come from the homography (so a wrong fit shows as lines off the tile
    edges); each tile's outline is its own cell square shifted to its measured centre, which
    makes the ~0.4-cell shift of a board piece visible too.
    """
    out = image.copy()
    thick = max(1, round(max(image.shape[:2]) / 800))
    if len(cells):
        lo, hi = cells.min(axis=0) - 1, cells.max(axis=0) + 1
        for x in range(lo[0], hi[0] + 2):
            _polyline(out, homography, [(x - 0.5, lo[1] - 0.5), (x - 0.5, hi[1] + 0.5)],
                      (255, 200, 0), thick)
        for y in range(lo[1], hi[1] + 2):
            _polyline(out, homography, [(lo[0] - 0.5, y - 0.5), (hi[0] + 0.5, y - 0.5)],
                      (255, 200, 0), thick)
    inverse = np.linalg.inv(homography) if len(cells) else np.eye(3)
    for cell, centre, text in zip(cells, centers, labels, strict=True):
        fx, fy = project(inverse, np.array([centre]))[0]
        square = [(fx - 0.5, fy - 0.5), (fx + 0.5, fy - 0.5), (fx + 0.5, fy + 0.5),
                  (fx - 0.5, fy + 0.5), (fx - 0.5, fy - 0.5)]
        _polyline(out, homography, square, (0, 255, 0), thick)
        org = (int(centre[0]) - 20 * thick, int(centre[1]) + 4 * thick)
        for colour, width in (((0, 0, 0), 3 * thick), ((255, 255, 255), thick)):
            cv2.putText(out, f"{cell[0]},{cell[1]} {text}", org, cv2.FONT_HERSHEY_SIMPLEX,
                        0.35 * thick, colour, width, cv2.LINE_AA)
    return out


def _polyline(image: np.ndarray, homography: np.ndarray, cell_points, colour, thick) -> None:
    """Draw a polyline given in cell coordinates (a homography keeps lines straight)."""
    pixels = project(homography, np.asarray(cell_points, dtype=np.float64))
    cv2.polylines(image, [np.round(pixels).astype(np.int32)], False, colour, thick, cv2.LINE_AA)


def draw_board(image: np.ndarray, homography: np.ndarray, placed: Sequence[Placed],
               latest: Iterable[Cell]) -> np.ndarray:
    """The live preview: a small dot on each known tile, an outline round each tile of the
    last move, no text. It is seen from across the room on a TV, so it draws little.
    (``homography`` takes board cells to pixels.)"""
    out = image.copy()
    new = set(latest)
    thick = max(1, round(max(image.shape[:2]) / 640))
    for x, y, _ in placed:
        if (x, y) in new:
            square = [(x - 0.5, y - 0.5), (x + 0.5, y - 0.5), (x + 0.5, y + 0.5),
                      (x - 0.5, y + 0.5), (x - 0.5, y - 0.5)]
            _polyline(out, homography, square, LATEST, 2 * thick)
        else:
            u, v = project(homography, np.array([[x, y]], np.float64))[0]
            cv2.circle(out, (int(round(u)), int(round(v))), 2 * thick, KNOWN, -1, cv2.LINE_AA)
    return out
