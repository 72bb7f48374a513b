"""Scoring a scan against annotated photos (the ``game.json`` of ``shared/data/real``).

The annotations place tiles on their own grid origin, and a scan picks another origin (and,
for a rotated photo, maybe another orientation), so a scan is compared after the best of the
8 grid symmetries and a translation. Shared by ``scripts/eval_real.py`` and the tests.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import Tile

Cell = tuple[int, int]

SYMMETRIES: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
    (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0),
)
"""The 8 symmetries of the square grid as 2x2 integer matrices (a, b, c, d): (ax+by, cx+dy)."""


@dataclass(frozen=True)
class Photo:
    """One annotated photo: every tile on the table then, labelled where the labels are known."""

    path: Path
    truth: dict[Cell, Tile | None]  # None: a pre-placed tile whose label was not annotated


def load_game(folder: Path) -> list[Photo]:
    """The photos of one game folder with the board accumulated up to each photo."""
    spec = json.loads((folder / "game.json").read_text())
    board: dict[Cell, Tile | None] = {(x, y): None for x, y in spec.get("preplaced", [])}
    by_image: dict[str, list] = {}
    for move in spec["moves"]:
        by_image.setdefault(move["image"], []).append(move)
    photos = []
    for name in spec["images"]:
        for move in by_image.get(name, []):
            for x, y, colour, shape in move["tiles"]:
                board[(x, y)] = Tile(colour, shape)
        photos.append(Photo(folder / name, dict(board)))
    return photos


def game_colours(folder: Path) -> tuple[str, ...]:
    """The six colours a game's set uses, in the default order (white stands in for purple)."""
    spec = json.loads((folder / "game.json").read_text())
    seen = {colour for move in spec["moves"] for _, _, colour, _ in move["tiles"]}
    sixth = "white" if "white" in seen else "purple"
    return ("red", "orange", "yellow", "green", "blue", sixth)


def align(found: Iterable[Cell], truth: Iterable[Cell]) -> dict[Cell, Cell]:
    """Map found cells onto truth cells by the symmetry and shift that match the most.

    Every pair of (found, truth) cells proposes a shift for each symmetry; the proposal with
    the most coincidences wins. Returns found cell -> truth cell for the cells that coincide.
    """
    found, truth = list(found), set(truth)
    best: dict[Cell, Cell] = {}
    for a, b, c, d in SYMMETRIES:
        turned = [(a * x + b * y, c * x + d * y) for x, y in found]
        shifts = Counter((tx - ux, ty - uy) for ux, uy in turned for tx, ty in truth)
        for (sx, sy), votes in shifts.most_common(3):
            if votes <= len(best):
                break
            best = {
                cell: (ux + sx, uy + sy)
                for cell, (ux, uy) in zip(found, turned, strict=True)
                if (ux + sx, uy + sy) in truth
            }
    return best


@dataclass
class Tally:
    """Running counts for detection and labelling, with the confusions seen."""

    truth: int = 0
    found: int = 0
    matched: int = 0
    labelled: int = 0  # matched tiles whose true label is known
    correct: int = 0
    confusions: Counter = field(default_factory=Counter)

    def add(self, truth: Mapping[Cell, Tile | None], found: Mapping[Cell, Tile | None]) -> dict:
        """Score one photo; returns its own counts (and adds them to the running totals).

        A found label of None (a geometry-only run) or an unannotated true label is counted
        for detection only.
        """
        pairs = align(found, truth)
        known = [(truth[t], found[f]) for f, t in pairs.items()
                 if truth[t] is not None and found[f] is not None]
        right = sum(1 for want, got in known if want == got)
        for want, got in known:
            if want != got:
                self.confusions[(want.code, got.code)] += 1
        self.truth += len(truth)
        self.found += len(found)
        self.matched += len(pairs)
        self.labelled += len(known)
        self.correct += right
        return {"truth": len(truth), "found": len(found), "matched": len(pairs),
                "labelled": len(known), "correct": right}

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0

    @property
    def accuracy(self) -> float:
        return self.correct / self.labelled if self.labelled else 1.0


VARIANTS = ("original", "warm", "half", "webcam")
"""Ways to degrade a photo like the living rooms the judging uses: a warm lamp with light
falling off across the table, half the light with sensor noise, and a webcam-sized frame
(960 px long side, strong JPEG)."""


def degrade(image: np.ndarray, variant: str, seed: int = 0) -> np.ndarray:
    """A copy of ``image`` as if shot under ``variant`` conditions (see :data:`VARIANTS`)."""
    if variant == "original":
        return image.copy()
    h, w = image.shape[:2]
    if variant == "warm":
        # ~2700 K lamp: blue and green fall against red; one side of the table darker
        falloff = np.linspace(1.0, 0.75, w, dtype=np.float32)[None, :, None]
        gains = np.array([0.58, 0.82, 1.0], np.float32)[None, None, :]
        return np.clip(image.astype(np.float32) * gains * falloff, 0, 255).astype(np.uint8)
    if variant == "half":
        rng = np.random.default_rng(seed)
        noisy = image.astype(np.float32) * 0.5 + rng.normal(0.0, 6.0, image.shape)
        return np.clip(noisy, 0, 255).astype(np.uint8)
    if variant == "webcam":
        scale = 960 / max(h, w)
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 40])
        return cv2.imdecode(data, cv2.IMREAD_COLOR)
    raise ValueError(f"unknown variant {variant!r}; choose from {', '.join(VARIANTS)}")
