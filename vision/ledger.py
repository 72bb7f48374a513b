"""The evidence ledger: what every picture so far says about the labels the tracker chose.

A first reading torn between two labels that the rules both allow (white or blue, on a first
move) is settled by the next pictures, and so is a first reading that was plain wrong (a
26-px tile in a blurred video frame). The ledger keeps, for each tile the tracker labelled
itself, the log-probability each picture lent each label. Labels the players confirmed are
not in it: the tracker clears it when told the game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.board import Board, Cell
from engine.rules import check_move
from engine.tiles import Tile
from vision.classifier import TileGuess
from vision.decode import label_table

SETTLED_SHARE = 0.999
"""A label holding this share of a tile's evidence is settled: moves built on it need no flag."""

FLOOR_PROB = 1e-3
"""The least probability a reading lends a label, so one bad look cannot veto it."""


@dataclass
class EvidenceLedger:
    """The labels the tracker chose, weighed by every later picture; ``doubtful`` cells hold
    labels of flagged moves not yet settled."""

    doubtful: set[Cell] = field(default_factory=set)
    _evidence: dict[Cell, dict[Tile, float]] = field(default_factory=dict)

    def record(self, cell: Cell, tile: Tile, guess: TileGuess, doubted: bool) -> None:
        """The tracker labelled ``cell`` as ``tile`` from this first reading."""
        table = label_table(guess)
        self._evidence[cell] = {t: math.log(max(table.get(t, 0.0), FLOOR_PROB))
                                for t in {tile, *table}}
        if doubted:
            self.doubtful.add(cell)

    def weigh(self, seen: Mapping[Cell, TileGuess], board: Board
              ) -> tuple[Board, dict[Cell, tuple[Tile, Tile]]]:
        """Let the new looks at the tiles refine their labels: the board with the labels the
        evidence now favours, and each changed cell's (old, new) label.

        A label no earlier look offered joins as no likelier than the least likely one, so a
        label the later pictures agree on wins even if the first reading did not offer it. A
        change that would break a line is refused; scores do not change (they depend on line
        lengths only). Tiles whose changes are each refused but stand together in one line
        change together: an orange clover first read as yellow, and the orange square laid
        under it forced to yellow to match, are both orange once later pictures say so, and
        neither could change alone (game 121 of `python -m vision.evaluate.replay --styles
        hardest`).
        """
        for cell, guess in seen.items():
            evidence = self._evidence.get(cell)
            if evidence is None:
                continue
            table = label_table(guess)
            least = min(evidence.values())
            for tile in table:
                evidence.setdefault(tile, least)
            for tile in evidence:
                evidence[tile] += math.log(max(table.get(tile, 0.0), FLOOR_PROB))
            best = max(evidence, key=evidence.__getitem__)
            top = evidence[best]
            share = 1.0 / sum(math.exp(v - top) for v in evidence.values())
            if share >= SETTLED_SHARE:
                self.doubtful.discard(cell)
        changed: dict[Cell, tuple[Tile, Tile]] = {}
        labels = {cell: label for cell in self._evidence if (label := board.get(cell))}
        favoured = {cell: max(self._evidence[cell], key=self._evidence[cell].__getitem__)
                    for cell in labels}
        wanted = {cell: best for cell, best in favoured.items() if best != labels[cell]}
        groups = [[cell] for cell in wanted]
        groups += [line for line in _lines(wanted) if len(line) > 1]
        for group in groups:
            if any(cell in changed for cell in group):
                continue
            rest = Board.from_placed(p for p in board.placed() if p[:2] not in group)
            move = [(*cell, wanted[cell]) for cell in group]
            if check_move(rest, move).legal:
                changed.update((cell, (labels[cell], wanted[cell])) for cell in group)
                board = rest.with_tiles(move)
        return board, changed

    def clear(self) -> None:
        """The players confirmed the board: its labels are final."""
        self._evidence.clear()
        self.doubtful.clear()


def _lines(cells: Iterable[Cell]) -> list[list[Cell]]:
    """The cells grouped by row, then by column."""
    rows: dict[tuple[int, int], list[Cell]] = {}
    for x, y in sorted(cells):
        rows.setdefault((0, y), []).append((x, y))
        rows.setdefault((1, x), []).append((x, y))
    return list(rows.values())
