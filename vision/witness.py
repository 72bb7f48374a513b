"""The change witness: empty cells whose look changed between two still pictures.

The scan can miss a tile (glare, a low score); then a move would be read short and scored
wrong without a word. So the middle of each empty cell beside the tiles is compared with the
last still picture. A change there with a fair "is a tile" reading is a tile (the change is
the second witness); a change with no tile read keeps the cell suspect until a tile is read
there or the players confirm the board, since a tile missed once may be missed again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from engine.board import SIDES, Cell
from engine.tiles import HAND
from vision.adapt import SetAdapter
from vision.classifier import TileGuess, classify_crops
from vision.crops import CROP, extract_crops
from vision.doubts import Doubt, DoubtKind
from vision.register import Registration

CELL_CHANGE = 0.2
"""Mean log-colour change of an empty cell's middle that means something was put there."""

CHANGED_TILE_PROB = 0.9
""""Is a tile" probability that, on a cell whose look changed, counts as a new tile."""

VIEW_CHANGED_SHARE = 0.1
"""Share of the empty cells beside the tiles whose look changed (when more than a move's six
tiles) beyond which the view changed, not the table: a phone walked round a printed board
seen at 30-50 degrees shows the tiles' sides over their neighbours' cells differently from
each side. There the comparison says nothing, and reading those cells found tiles' sides
(oblique-2 of the real photos: 11-72 % of the cells in 15 of its 20 pictures, and 4 of its
20 moves read right; the other real games at most 2 %, and rendered games 110-111 as photos
and 100 and 121 as the hardest videos at most one cell)."""


@dataclass
class ChangeWitness:
    """Compares each still position with the last one; ``suspects`` are the cells that
    changed with no tile read there."""

    suspects: set[Cell] = field(default_factory=set)
    _before: Registration | None = None
    _image: np.ndarray | None = None

    def look(self, reg: Registration, image: np.ndarray, colours: tuple[str, ...],
             adapter: SetAdapter | None = None) -> tuple[Registration, list[Doubt]]:
        """The position with the tiles the change vouches for added to its new readings, and
        a doubt for each changed cell still unread (now a suspect). Remembers the picture."""
        unexplained = _unexplained_change(reg, image, self._before, self._image)
        read = _read_changed(image, reg, [d.cell for d in unexplained if d.cell], colours,
                             adapter)
        read_cells = {cell for cell, _ in read}
        unexplained = [d for d in unexplained if d.cell not in read_cells]
        self.suspects |= {d.cell for d in unexplained if d.cell is not None}
        reg = replace(reg, new=tuple(sorted((*reg.new, *read), key=lambda item: item[0])))
        self._before, self._image = reg, image
        return reg, unexplained

    def unchanged(self, reg: Registration, image: np.ndarray,
                  cells: Sequence[Cell]) -> set[Cell]:
        """Of ``cells``, tiles the scan did not see in this position, those whose look has
        not changed since the last still picture: only missed by the scan, most likely.

        Call before :meth:`look`, which makes this picture the last. Dark purple tiles on a
        dark table drop out of one scan in a few; a move waiting for the players whose tiles
        dropped out was taken for taken back, and vanished from the tablet (a served game's
        video, read while players confirmed a few moves behind: 12 of its tiles lost), and an
        undo offered the undone move again without them.
        """
        if not cells:
            return set()
        changes = _changes(reg, image, self._before, self._image,
                           [*cells, *_empty_beside(reg)])
        if changes is None:
            return set()
        return {cell for cell, change in zip(cells, changes, strict=False)
                if change <= CELL_CHANGE}

    def still_there(self, reg: Registration, image: np.ndarray, cells: Sequence[Cell],
                    colours: tuple[str, ...], adapter: SetAdapter | None = None) -> set[Cell]:
        """Of ``cells``, the tiles that are still on the table though the scan did not see
        them: their cells look as before (:meth:`unchanged`), and their crops still read as
        tiles (:data:`CHANGED_TILE_PROB`).

        The look alone can pass a tile taken away: the middle of connect-2's white clover
        and of the pale printed square under it differ by 0.16 (the real photos 08 and 07,
        move 8 taken back; its orange and red clovers' cells 1.0 and 1.3), and the empty
        cell reads 0.0 as a tile. Held on to, the clover kept "the table is right" from
        taking the move off the game, and came back as a move of its own after an undo.
        """
        same = sorted(self.unchanged(reg, image, cells))
        return {cell for cell, _ in _read_changed(image, reg, same, colours, adapter)}


def _cell_patterns(image: np.ndarray, homography: np.ndarray, cells: Sequence[Cell],
                   offsets: Mapping[Cell, tuple[float, float]]) -> np.ndarray:
    """The middle of each cell as a 6x6 log-colour pattern (N, 6, 6, 3); NaN off the picture.

    The middle is the central 0.4 of a cell (a crop spans 1.2 cells), moved with the tiles
    next to it (``offsets``: where tiles lie off their cell centres) so that a nudged
    neighbour, or a lattice fitted a little off, does not put a tile's edge in it.
    """
    centres = _empty_centres(cells, offsets)
    crops = extract_crops(image, homography, centres)
    middle = crops[:, CROP // 3:2 * CROP // 3, CROP // 3:2 * CROP // 3].astype(np.float32)
    patterns = np.log(np.stack([cv2.resize(m, (6, 6), interpolation=cv2.INTER_AREA)
                                for m in middle]) + 8.0)
    pixels = cv2.perspectiveTransform(np.array([centres], np.float64), homography)[0]
    h, w = image.shape[:2]
    off = (pixels[:, 0] < 0) | (pixels[:, 0] >= w) | (pixels[:, 1] < 0) | (pixels[:, 1] >= h)
    patterns[off] = np.nan
    return patterns


def _empty_centres(cells: Sequence[Cell],
                   offsets: Mapping[Cell, tuple[float, float]]) -> np.ndarray:
    """Where a tile laid on each empty cell would lie: moved with the tiles beside it."""
    centres = []
    for x, y in cells:
        near = [offsets[x + dx, y + dy] for dx, dy in SIDES if (x + dx, y + dy) in offsets]
        dx, dy = np.mean(near, axis=0) if near else (0.0, 0.0)
        centres.append((x + dx, y + dy))
    return np.array(centres, np.float64).reshape(-1, 2)


def _read_changed(image: np.ndarray, reg: Registration, cells: Sequence[Cell],
                  colours: tuple[str, ...], adapter: SetAdapter | None = None
                  ) -> list[tuple[Cell, TileGuess]]:
    """New tiles on cells whose look changed, that the classifier reads as tiles (and, for
    :meth:`ChangeWitness.still_there`, tiles the scan missed on cells that look the same).

    The scan only reads a cell beside the tiles as a tile on the classifier's word when it is
    all but sure (``vision.scan.COMPLETION_TILE_PROB``): it has no "before" to compare with.
    Here the cell's change in the still picture is a second witness, so a fair belief
    (:data:`CHANGED_TILE_PROB`) will do. The crops are read together with the tiles seen, so
    that colours are judged against the frame's other tiles as usual.
    """
    if not cells or reg.homography is None:
        return []
    seen = [(x + dx, y + dy) for (x, y) in reg.seen
            for dx, dy in [reg.offsets.get((x, y), (0.0, 0.0))]]
    centres = np.vstack([_empty_centres(cells, reg.offsets),
                         np.array(seen, np.float64).reshape(-1, 2)])
    guesses = classify_crops(extract_crops(image, reg.homography, centres), colours, adapter)
    return [(cell, guess) for cell, guess in zip(cells, guesses, strict=False)
            if guess.tile_prob >= CHANGED_TILE_PROB]


def _unexplained_change(reg: Registration, image: np.ndarray,
                        before: Registration | None, before_image: np.ndarray | None
                        ) -> list[Doubt]:
    """Empty cells next to the tiles whose look changed although no tile was read there.

    The scan can miss a tile (glare, a low score); then a move would be read short and scored
    wrong without a word. Comparing the middle of each empty neighbouring cell in the two
    pictures, each through its own lattice (so a moved camera does not matter) and after the
    typical change of each colour channel (so a lamp does not matter), catches a tile laid there.
    """
    empty = _empty_beside(reg)
    if len(empty) < 3:
        return []
    change = _changes(reg, image, before, before_image, empty)
    if change is None:
        return []
    changed = [cell for cell, d in zip(empty, change, strict=True) if d > CELL_CHANGE]
    if len(changed) > HAND and len(changed) > VIEW_CHANGED_SHARE * len(empty):
        return []  # the view changed, not the table
    return [Doubt(DoubtKind.CHANGED_UNREAD, cell=cell) for cell in changed]


def _empty_beside(reg: Registration) -> list[Cell]:
    """The empty cells next to the position's tiles."""
    occupied = set(reg.seen) | set(reg.missing) | {cell for cell, _ in reg.new}
    return sorted({(x + dx, y + dy) for x, y in occupied for dx, dy in SIDES} - occupied)


def _changes(reg: Registration, image: np.ndarray, before: Registration | None,
             before_image: np.ndarray | None, cells: Sequence[Cell]) -> np.ndarray | None:
    """How much the middle of each cell changed between the two still pictures, each seen
    through its own lattice (so a moved camera does not matter), beyond the typical change
    of each colour channel over ``cells`` (so a lamp does not matter); NaN off a picture.
    None without a picture before."""
    if (before is None or before_image is None or before.homography is None
            or reg.homography is None):
        return None
    diff = (_cell_patterns(image, reg.homography, cells, reg.offsets)
            - _cell_patterns(before_image, before.homography, cells, before.offsets))
    if np.isnan(diff).all():
        return None
    diff -= np.nanmedian(diff, axis=(0, 1, 2))
    return np.abs(diff).mean(axis=(1, 2, 3))
