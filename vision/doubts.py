"""Why the camera is unsure of a move: each doubt a code with its details, not a sentence.

The tracker, the registration and the decoder say what they doubt in these terms; the table
app says it again in the reader's language from the code (``webui.reasons``), and
:func:`english` gives the English sentence that ``qwirkle replay`` prints. Nothing parses
the text back.

>>> from engine.tiles import Tile
>>> english(Doubt(DoubtKind.VANISHED, cell=(2, 0), tile=Tile("red", "star")))
'red star at (2, 0) is no longer seen'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.board import Cell, Placed
from engine.refusals import Refusal
from engine.refusals import english as english_refusal
from engine.tiles import Tile


class DoubtKind(StrEnum):
    """The kinds of doubt; the values are the API's ``doubt_codes``."""

    TOO_MANY = "too_many_tiles"
    NO_LEGAL_READING = "no_legal_reading"
    NO_SPLIT = "no_legal_split"
    SPLIT = "split"
    AMBIGUOUS = "ambiguous_reading"
    ONLY_LEGAL_AS = "only_legal_as"
    LEFT_OUT = "left_out"
    TWO_IN_CELL = "two_tiles_in_cell"
    RELABELLED = "relabelled"
    SETTLED = "read_again"
    VANISHED = "vanished"
    MOVED = "moved"
    MAYBE_TILE = "maybe_tile"
    CHANGED_UNREAD = "changed_unread"
    UNREAD_EARLIER = "unread_earlier"
    UNCONFIRMED = "unconfirmed_neighbour"
    LAID_EARLIER = "laid_earlier"
    UNSEEN_LAYING = "unseen_laying"
    REOFFERED = "reoffered"
    TAKEN_BACK = "taken_back"
    CUT = "cut_by_edge"
    AFTER_PAUSE = "laid_after_pause"


class SplitOrder(StrEnum):
    """How a split into several moves was ordered (:attr:`DoubtKind.SPLIT`)."""

    SEEN = "seen"
    UNKNOWN = "unknown"
    UNKNOWN_EITHER = "unknown_either"
    AGAINST = "against"


@dataclass(frozen=True)
class Doubt:
    """One doubt: its kind and the details a sentence about it needs.

    ``cell`` is where (the tile's cell, or the empty cell); ``tile`` and ``other`` the tiles
    it concerns (the label read and the one that makes the move legal, the old label and the
    new one); ``count`` and ``of`` numbers (new tiles; part k of n); ``refusal`` the rules'
    reason; ``choices`` the rival readings; ``elsewhere`` a doubt about a tile away from the
    move (noted once, without a flag).
    """

    kind: DoubtKind
    cell: Cell | None = None
    tile: Tile | None = None
    other: Tile | None = None
    count: int = 0
    of: int = 0
    order: SplitOrder | None = None
    refusal: Refusal | None = None
    choices: tuple[tuple[Placed, Placed], ...] = ()
    elsewhere: bool = False


def _at(cell: Cell | None) -> str:
    return f"({cell[0]}, {cell[1]})" if cell is not None else "?"


_ORDER = {
    SplitOrder.SEEN: "in the order the tiles appeared",
    SplitOrder.UNKNOWN: "the order the tiles appeared is not known",
    SplitOrder.UNKNOWN_EITHER: "the order the tiles appeared is not known; the other order is "
                               "legal too: check whose turn each was",
    SplitOrder.AGAINST: "against the order the tiles seemed to appear",
}


def english(doubt: Doubt) -> str:
    """The doubt as one English sentence (``qwirkle replay``, logs)."""
    d, at = doubt, _at(doubt.cell)
    text = {
        DoubtKind.TOO_MANY: lambda: f"{d.count} new tiles: more than one move?",
        DoubtKind.NO_LEGAL_READING: lambda: "no reading of the new tiles is a legal move ("
        + (english_refusal(d.refusal) if d.refusal else "?") + ")",
        DoubtKind.NO_SPLIT: lambda: "nor do they split into consecutive legal moves",
        DoubtKind.SPLIT: lambda: f"move {d.count} of {d.of} read from one still picture: the "
        f"camera did not see where one turn ended (split by the rules, "
        f"{_ORDER[d.order or SplitOrder.UNKNOWN]})",
        DoubtKind.AMBIGUOUS: lambda: "unsure which reading is right: " + ", ".join(
            f"{_at(a[:2])} {a[2]} or {b[2]}" for a, b in d.choices),
        DoubtKind.ONLY_LEGAL_AS: lambda: f"tile at {at} read as {d.tile} but only {d.other} "
        "makes the move legal",
        DoubtKind.LEFT_OUT: lambda: f"{d.tile} at {at} left out: the move is legal only "
        "without it",
        DoubtKind.TWO_IN_CELL: lambda: f"two tiles read in cell {at}",
        DoubtKind.RELABELLED: lambda: f"tile at {at} was {d.tile}, now reads {d.other}",
        DoubtKind.SETTLED: lambda: f"tile at {at} now reads {d.other} (was read as {d.tile})",
        DoubtKind.VANISHED: lambda: f"{d.tile} at {at} is no longer seen",
        DoubtKind.MOVED: lambda: f"{d.tile} is no longer seen, moved to {at}?",
        DoubtKind.MAYBE_TILE: lambda: f"something at {at} may be a tile ({d.tile}?)",
        DoubtKind.CHANGED_UNREAD: lambda: f"the picture changed at {at} but no tile was read "
        "there",
        DoubtKind.UNREAD_EARLIER: lambda: f"a tile may lie unread at {at} (it changed earlier)",
        DoubtKind.UNCONFIRMED: lambda: f"scored with {d.tile} at {at}, from a move not yet "
        "confirmed",
        DoubtKind.LAID_EARLIER: lambda: f"{d.tile} at {at} was laid earlier (the picture "
        "changed there then) but is only read now",
        DoubtKind.UNSEEN_LAYING: lambda: "the camera did not see these tiles being laid (no "
        "pictures for a while, or a sudden change): more than one turn may have passed",
        DoubtKind.REOFFERED: lambda: "these tiles are still on the table but not in the game",
        DoubtKind.TAKEN_BACK: lambda: "these tiles were set aside as not a move, then taken back",
        DoubtKind.CUT: lambda: f"{d.tile} at {at} is cut by the picture's edge",
        DoubtKind.AFTER_PAUSE: lambda: f"{d.count} of these tiles were laid after a pause, "
        "while the rest waited: one turn, or the next player's too?",
    }[d.kind]()
    return f"note: {text}" if d.elsewhere else text


def describe(doubts: tuple[Doubt, ...] | list[Doubt]) -> str:
    """All the doubts of a move in English, joined by "; "."""
    return "; ".join(english(d) for d in doubts)
