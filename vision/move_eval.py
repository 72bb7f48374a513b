"""Scoring detected moves against the true ones: shared by scripts/eval_replay.py and the tests.

The tracker's board has its own origin and orientation (the first scan's), so moves are
compared after the one grid symmetry and translation that lays the most detected tiles, with
their labels, onto the true ones. Labels matter here: a line of three tiles is symmetric in
its cells alone, and a mirror image would pass for exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.board import Cell, Placed
from vision.decode import DetectedMove
from vision.evaluation import SYMMETRIES

TruthMove = tuple[frozenset, int]
"""The tiles a move added, as a frozenset of (x, y, Tile), and its score."""


def align_labelled(found: Iterable[Placed], truth: Iterable[Placed]) -> dict[Cell, Cell]:
    """Found cell -> true cell, by the symmetry and shift matching the most (cell, label) pairs."""
    found, truth = list(found), set(truth)
    by_tile: dict = {}
    for x, y, tile in truth:
        by_tile.setdefault(tile, []).append((x, y))
    best: tuple[int, dict[Cell, Cell]] = (0, {})
    for a, b, c, d in SYMMETRIES:
        turned = [(a * x + b * y, c * x + d * y, t) for x, y, t in found]
        shifts = Counter((tx - ux, ty - uy) for ux, uy, t in turned
                         for tx, ty in by_tile.get(t, ()))
        for (sx, sy), votes in shifts.most_common(1):
            if votes > best[0]:
                best = (votes, {(x, y): (ux + sx, uy + sy)
                                for (x, y, _), (ux, uy, _) in zip(found, turned, strict=True)})
    return best[1]


def in_truth_frame(moves: Iterable[DetectedMove], mapping: dict[Cell, Cell]) -> list[frozenset]:
    """Each move's tiles carried onto the true cells ((None, None) where the map has no cell)."""
    return [frozenset((*mapping.get((x, y), (None, None)), t) for x, y, t in m.tiles)
            for m in moves]


@dataclass
class Tally:
    """Counts for one or more games."""

    truth: int = 0
    exact: int = 0
    exact_flagged: int = 0
    wrong_flagged: int = 0
    wrong_unflagged: int = 0
    seconds: float = 0.0
    footage_seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("truth", "exact", "exact_flagged", "wrong_flagged", "wrong_unflagged",
                     "seconds", "footage_seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.latencies += other.latencies
        self.notes += other.notes

    def line(self, label: str) -> str:
        text = (f"{label}: {self.exact}/{self.truth} moves exact "
                f"({100 * self.exact / max(self.truth, 1):.1f} %), "
                f"{self.wrong_unflagged} wrong unflagged, {self.wrong_flagged} wrong flagged, "
                f"{self.exact_flagged} exact but flagged")
        if self.footage_seconds:
            text += (f"; {self.footage_seconds:.0f} s of video in {self.seconds:.1f} s "
                     f"= {self.footage_seconds / self.seconds:.1f}x real time")
        if self.latencies:
            median = sorted(self.latencies)[len(self.latencies) // 2]
            text += (f"; latency after still: median {median:.2f} s, "
                     f"max {max(self.latencies):.2f} s")
        return text


def compare(detected: list[DetectedMove], truth: list[TruthMove], label: str) -> Tally:
    """Match detected moves to the true ones in order, after one grid alignment per game."""
    tally = Tally(truth=len(truth))
    mapping = align_labelled([p for m in detected for p in m.tiles],
                             [p for tiles, _ in truth for p in tiles])
    pointer = 0
    for move, mapped in zip(detected, in_truth_frame(detected, mapping), strict=True):
        cells = {(x, y) for x, y, _ in mapped}
        match = next((i for i in range(pointer, len(truth))
                      if truth[i] == (mapped, move.score)), None)
        if match is not None:
            tally.exact += 1
            tally.exact_flagged += move.needs_confirmation
            pointer = match + 1
            continue
        if move.needs_confirmation:
            tally.wrong_flagged += 1
        else:
            tally.wrong_unflagged += 1
        flag = f" (flagged: {move.reason})" if move.needs_confirmation else ""
        want = sorted(_show(truth[pointer][0])) if pointer < len(truth) else "-"
        tally.notes.append(f"{label} at {move.at}: read {sorted(_show(mapped))} "
                           f"+{move.score}{flag}; truth {want}")
        while pointer < len(truth) and {(x, y) for x, y, _ in truth[pointer][0]} <= cells:
            pointer += 1  # this read covered the true move (merged or mislabelled): move on
    return tally


def _show(tiles) -> list[str]:
    return [f"{t.code}({x},{y})" for x, y, t in tiles]
