"""Why the rules refuse a placement or the table refuses a turn: a code and its details.

The layers above show a refusal in the reader's language and programs read it from the API,
so a refusal is data, not a sentence: an :class:`Illegal` code plus the cells, tiles, counts
and turn it concerns. :func:`english` is the one place that words it in English (the
exception's message, logs, the ``qwirkle score`` answers); ``webui/reasons.py`` words the
same codes through gettext.

>>> refusal = Refusal(Illegal.GAP, cells=((2, 0),))
>>> english(refusal)
'the placed tiles leave a gap at (2, 0)'
>>> str(IllegalMove(Refusal(Illegal.BAD_TURN, turn=1, player="Bob", cause=refusal)))
'turn 2 (Bob): the placed tiles leave a gap at (2, 0)'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import assert_never

from engine.board import Cell
from engine.tiles import Tile


class Illegal(Enum):
    """The kinds of refusal. The value is the stable ``reason_code`` of the JSON API."""

    # A placement the rules refuse (engine.rules.check_move).
    NO_TILES = "no_tiles"
    CELL_TWICE = "cell_twice"
    """Two tiles of the move on one cell: ``cells`` (the cell)."""
    CELL_OCCUPIED = "cell_occupied"
    """``cells`` (the cell) already holds ``tiles`` (the tile on the board)."""
    NOT_ONE_LINE = "not_one_line"
    """The placed ``cells`` are not in one row or one column."""
    GAP = "gap"
    """An empty cell between the placed tiles: ``cells`` (the gap)."""
    NOT_TOUCHING = "not_touching"
    """None of the placed ``cells`` touches the board."""
    LINE_TOO_LONG = "line_too_long"
    """The line along ``cells`` would be ``count`` long; ``most`` is the longest line."""
    DUPLICATE_IN_LINE = "duplicate_in_line"
    """The line along ``cells`` would hold ``tiles`` (one tile) twice."""
    MIXED_LINE = "mixed_line"
    """The line along ``cells`` holding ``tiles`` shares neither a colour nor a shape."""
    # A turn the table refuses (engine.table.TableGame).
    GAME_ENDED = "game_ended"
    TOO_MANY_TILES = "too_many_tiles"
    """A turn places ``count`` tiles; ``most`` is a full hand."""
    NOT_IN_SET = "not_in_set"
    """``tiles`` (one tile) is not in a set of ``colours``."""
    NO_COPIES_LEFT = "no_copies_left"
    """All ``count`` copies of ``tiles`` (one tile) are already on the table."""
    EXCHANGE_COUNT = "exchange_count"
    """An exchange of ``count`` tiles; it swaps 1 to ``most``."""
    BAG_TOO_SMALL = "bag_too_small"
    """An exchange of ``count`` tiles with only ``bag`` in the bag."""
    PASS_WITH_BAG = "pass_with_bag"
    """A pass while the bag holds ``bag`` tiles."""
    GO_OUT_WITH_BAG = "go_out_with_bag"
    """``player`` cannot go out while the bag holds ``bag`` tiles."""
    GO_OUT_NOT_LAST = "go_out_not_last"
    """``player`` laid no tiles in the last turn, so has not just emptied their hand."""
    # A refusal met while replaying turns: it wraps the ``cause``.
    BAD_TURN = "bad_turn"
    """Turn ``turn`` (an index from 0), by ``player``, is refused for ``cause``."""
    BREAKS_LATER_TURN = "breaks_later_turn"
    """A correction would make the later turn ``turn``, by ``player``, illegal for ``cause``."""
    BREAKS_ENDING = "breaks_ending"
    """A correction would make the recorded ending invalid for ``cause``."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """One refusal: its code and the details the code's docstring names (others stay empty)."""

    code: Illegal
    cells: tuple[Cell, ...] = ()
    tiles: tuple[Tile, ...] = ()
    count: int = 0
    most: int = 0
    bag: int = 0
    turn: int = 0
    player: str = ""
    colours: tuple[str, ...] = ()
    cause: Refusal | None = None


class IllegalMove(ValueError):
    """A turn that breaks the rules. ``refusal`` says why; the message is :func:`english`."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(english(refusal))
        self.refusal = refusal


def _tiles(count: int) -> str:
    """``count`` tiles in English words: "1 tile", "2 tiles"."""
    return f"{count} tile" if count == 1 else f"{count} tiles"


def _cell(cell: Cell) -> str:
    return f"({cell[0]}, {cell[1]})"


def line_place(cells: tuple[Cell, ...]) -> str:
    """Where the line along these cells lies, e.g. ``row y=2 from x=-1 to x=3``."""
    (x0, y0), (x1, y1) = cells[0], cells[-1]
    if y0 == y1:
        return f"row y={y0} from x={x0} to x={x1}"
    return f"column x={x0} from y={y0} to y={y1}"


def english(refusal: Refusal) -> str:
    """The refusal as one English sentence (without a final full stop), fit to show a player.

    >>> english(Refusal(Illegal.BAG_TOO_SMALL, count=3, bag=2))
    'cannot exchange 3 tiles: the bag holds only 2'
    """
    r = refusal
    tile = str(r.tiles[0]) if r.tiles else ""
    match r.code:
        case Illegal.NO_TILES:
            return "the move places no tiles"
        case Illegal.CELL_TWICE:
            return f"cell {_cell(r.cells[0])} is used twice in the move"
        case Illegal.CELL_OCCUPIED:
            return f"cell {_cell(r.cells[0])} already holds {tile}"
        case Illegal.NOT_ONE_LINE:
            return "the placed tiles are not all in one row or one column"
        case Illegal.GAP:
            return f"the placed tiles leave a gap at {_cell(r.cells[0])}"
        case Illegal.NOT_TOUCHING:
            return "no placed tile touches a tile already on the board"
        case Illegal.LINE_TOO_LONG:
            return (f"{line_place(r.cells)} would be {r.count} tiles long; "
                    f"a line holds at most {r.most}")
        case Illegal.DUPLICATE_IN_LINE:
            return f"{line_place(r.cells)} would hold {tile} twice"
        case Illegal.MIXED_LINE:
            tiles = ", ".join(str(t) for t in r.tiles)
            return f"{line_place(r.cells)} would mix colours and shapes: {tiles}"
        case Illegal.GAME_ENDED:
            return "the game has ended; correct or void a turn instead"
        case Illegal.TOO_MANY_TILES:
            return f"a turn places at most {r.most} tiles, not {r.count}"
        case Illegal.NOT_IN_SET:
            return f"{tile} is not in this set (colours: {', '.join(r.colours)})"
        case Illegal.NO_COPIES_LEFT:
            return f"all {r.count} {tile} tiles are already on the table"
        case Illegal.EXCHANGE_COUNT:
            return f"an exchange swaps 1 to {r.most} tiles, not {r.count}"
        case Illegal.BAG_TOO_SMALL:
            return f"cannot exchange {_tiles(r.count)}: the bag holds only {r.bag}"
        case Illegal.PASS_WITH_BAG:
            return (f"a player may pass only once the bag is empty ({_tiles(r.bag)} left); "
                    "exchange instead")
        case Illegal.GO_OUT_WITH_BAG:
            return f"{r.player} cannot go out while the bag holds {_tiles(r.bag)}"
        case Illegal.GO_OUT_NOT_LAST:
            return (f"{r.player} did not lay the last turn's tiles: only the player who laid "
                    "them can have gone out")
        case Illegal.BAD_TURN:
            return f"turn {r.turn + 1} ({r.player}): {_cause(r)}"
        case Illegal.BREAKS_LATER_TURN:
            return (f"this correction would make turn {r.turn + 1} ({r.player}) illegal: "
                    f"{_cause(r)}")
        case Illegal.BREAKS_ENDING:
            return f"this correction would make the ending invalid: {_cause(r)}"
    assert_never(r.code)


def _cause(refusal: Refusal) -> str:
    return english(refusal.cause) if refusal.cause is not None else ""
