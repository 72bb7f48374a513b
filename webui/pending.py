"""Moves waiting for confirmation: what the camera saw, judged against the game as it stands.

A waiting move is judged when it is shown, not when it was seen: players may have fixed, set
aside or undone the moves before it in the meantime.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.board import Cell, Placed
from engine.boardgame import start_diagonals, start_gaps
from engine.rules import IllegalMove, MoveCheck, check_move
from engine.table import Place, TableGame
from engine.tiles import Tile
from vision.doubts import Doubt, DoubtKind


def is_start(table: TableGame, tiles: Sequence[Placed]) -> bool:
    """Whether these tiles are the board game's start (:mod:`engine.boardgame`) for a game
    that has neither turns nor a start yet, or tiles its start lacks (the camera missed them
    in the first picture): confirming them lays them out, no turn."""
    cells = {(x, y) for x, y, _ in tiles}
    if table.start:
        return bool(cells) and cells <= start_gaps(table.start)
    return not table.turns and start_diagonals(cells) is not None


def whole_start(table: TableGame, tiles: Sequence[Placed]) -> list[Placed]:
    """The start once these tiles of it (:func:`is_start`) are laid out."""
    return [*table.start.placed(), *tiles]


def evaluate(table: TableGame, tiles: Sequence[Placed]) -> MoveCheck:
    """Whether placing these tiles is legal now, its score and scoring lines, or why not.

    The table game judges legality (it also knows how many copies are left); the rules give
    the lines for the tablet's move card. The board game's start scores nothing; it is
    refused only for a tile the set lacks.
    """
    if is_start(table, tiles):
        try:
            table.with_start(whole_start(table, tiles))
        except IllegalMove as error:
            return MoveCheck(False, None, error.refusal)
        return MoveCheck(True, 0, None)
    try:
        after = table.play(Place(tuple(tiles)))
    except IllegalMove as error:
        return MoveCheck(False, None, error.refusal)
    return MoveCheck(True, after.turns[-1].score, None, check_move(table.board, tiles).lines)


@dataclass(frozen=True)
class PendingMove:
    """A move the camera saw, waiting for a player to confirm, fix or dismiss it."""

    tiles: tuple[Placed, ...]
    verdict: MoveCheck
    needs_confirmation: bool
    # Per tile (same order as tiles): the classifier's runner-up labels, best first, so the
    # Fix menu can offer the likeliest corrections first.
    alternatives: tuple[tuple[Tile, ...], ...] = ()
    # Why the tracker is unsure, when it is (shown on the card).
    doubts: tuple[Doubt, ...] = ()
    detected: bool = True
    # (part, of) when one camera reading held several moves, split into consecutive turns.
    split: tuple[int, int] | None = None
    # Tiles the camera still saw after the game lost them (an undo, a removed turn, tiles
    # taken back from "not a move", a new game over tiles).
    reoffered: bool = False
    # Players fixed its tiles: their labels stand, the camera's runner-ups are not tried.
    fixed: bool = False
    # Tiles players removed from it (set aside): taken back, they return to this move.
    removed: tuple[Placed, ...] = ()
    # Cells of its tiles laid after a pause, while the rest waited (:func:`laid_on`).
    after_pause: tuple[Cell, ...] = ()

    @property
    def key(self) -> str:
        """The move as a tablet shows it, its cells and tiles: a tap on Confirm names the
        move it was meant for, so a double tap, or a second tablet, never confirms the move
        queued behind it unseen.

        >>> from engine.tiles import Tile
        >>> PendingMove(((1, 0, Tile("red", "square")), (0, 0, Tile("red", "circle"))),
        ...             MoveCheck(True, 2, None), True).key
        '0,0,RCi;1,0,RSq'
        """
        return tiles_key(self.tiles)

    def tile_alternatives(self) -> tuple[tuple[Tile, ...], ...]:
        """:attr:`alternatives` for every tile, in the order of :attr:`tiles`: none for a
        tile the camera gave none (a move entered by hand, a tile added to a move)."""
        return (*self.alternatives, *((),) * (len(self.tiles) - len(self.alternatives)))


def tiles_key(tiles: Sequence[Placed]) -> str:
    """Tiles as a tablet was shown them, in a fixed order: what a tap names so that the
    server can tell whether they are still what it would act on."""
    return ";".join(f"{x},{y},{tile.code}" for x, y, tile in sorted(tiles))


REREAD_LABELLINGS = 64
"""Labellings of a waiting move tried against the board players confirmed before it."""


def reread(table: TableGame, move: PendingMove,
           no_news: Mapping[Cell, Tile | None] | None = None) -> PendingMove:
    """A waiting move judged again against the game as players left it.

    The camera chose its labels against the board it expected then; since, players may have
    fixed a tile of the move before it, or set that move aside. If the labels read then no
    longer make a legal move, the classifier's runner-up labels are tried (best first for
    the first tiles), and a legal reading found so is shown, flagged for a look.
    ``no_news``: cells whose "now reads" note no longer tells players anything, each with
    the reading they overruled there, or None for a tile that is not in the game at all
    (set aside).
    """
    move = dataclasses.replace(move, doubts=tuple(
        d for d in move.doubts if not _agreed(d, table, no_news or {})))
    verdict = evaluate(table, move.tiles)
    if verdict.legal or move.fixed or not move.alternatives:
        return _judged(move, verdict)
    options = [(tile, *alts) for (_, _, tile), alts in zip(move.tiles, move.tile_alternatives(),
                                                           strict=True)]
    for labels in itertools.islice(itertools.product(*options), 1, REREAD_LABELLINGS):
        tiles = tuple((x, y, tile) for (x, y, _), tile in zip(move.tiles, labels, strict=True))
        again = evaluate(table, tiles)
        if again.legal:
            return _judged(dataclasses.replace(move, tiles=tiles, needs_confirmation=True,
                                               doubts=_legal_only_as(move, tiles)), again)
    return _judged(move, verdict)


def _legal_only_as(move: PendingMove, tiles: Sequence[Placed]) -> tuple[Doubt, ...]:
    """The move's doubts, its "read as X, legal only as Y" said of the labels ``tiles`` now
    give it. An edit to the turn before a waiting move changed two of its tiles to their
    runner-ups, and the card still said "legal only as red star" beside a red clover. A tile
    back at the label the camera read needs no such word; one moved off it gets one."""
    read = {d.cell: d.tile for d in move.doubts if d.kind is DoubtKind.ONLY_LEGAL_AS}
    said = [Doubt(DoubtKind.ONLY_LEGAL_AS, cell=(x, y), tile=seen, other=now)
            for (x, y, was), (_, _, now) in zip(move.tiles, tiles, strict=True)
            if (seen := read.get((x, y), was)) != now]
    return (*(d for d in move.doubts if d.kind is not DoubtKind.ONLY_LEGAL_AS), *said)


def _judged(move: PendingMove, verdict: MoveCheck) -> PendingMove:
    """``move`` with the game's ``verdict``. A legal one drops the camera's word that no
    reading of its tiles was legal: said against the board the camera expected, before
    players set earlier moves aside, it stood beside "7 points" and a live Confirm. An
    illegal one gives that word the verdict's reason: the camera's own, from that board,
    stood under the card's "Not a legal move:" with another reason (a move set aside by
    "Not a move" left the next one "no tile touches" above "a line would hold X twice")."""
    if verdict.legal:
        move = dataclasses.replace(move, doubts=tuple(
            d for d in move.doubts if d.kind not in (DoubtKind.NO_LEGAL_READING,
                                                      DoubtKind.NO_SPLIT)))
    else:
        move = dataclasses.replace(move, doubts=tuple(
            dataclasses.replace(d, refusal=verdict.refusal)
            if d.kind is DoubtKind.NO_LEGAL_READING else d for d in move.doubts))
    return dataclasses.replace(move, verdict=verdict)


def _agreed(doubt: Doubt, table: TableGame, no_news: Mapping[Cell, Tile | None]) -> bool:
    """Whether a camera's "a tile that was X now reads Y" no longer holds: the game has Y
    there (it was read while players had fixed that tile to X, and they put it back: a red
    square fixed to a star and back left "that was red star" on every later move), players
    overruled Y there ("Keep the game's tiles"), or the tile is not in the game."""
    if doubt.kind is not DoubtKind.RELABELLED or doubt.cell is None:
        return False
    if doubt.cell in no_news:
        return no_news[doubt.cell] in (None, doubt.other)
    return table.board.get(doubt.cell) == doubt.other


Offer = tuple[tuple[Placed, ...], tuple[int, int] | None]
"""Tiles the camera sees that the game holds nowhere, to be offered again as a move, and
which part (k of n) they are of the turns one reading of them splits into (None: one move)."""


def offered(table: TableGame, tiles: Sequence[Placed],
            why: DoubtKind = DoubtKind.REOFFERED,
            alternatives: tuple[tuple[Tile, ...], ...] = (),
            split: tuple[int, int] | None = None) -> PendingMove:
    """Tiles on the table that the game holds nowhere, offered as a move of their own.
    ``why`` is how they came back, as the card says it: the camera still sees them after the
    game lost them, or players took them back from those set aside (the camera's words, "are
    they a move?", read oddly right after players said they are). ``alternatives``: the
    runner-up labels the camera read them with, when they were kept. ``split``: the part
    they are of several turns read from one picture (:data:`Offer`: turns laid while a game
    stood ended, or a game started over two turns' tiles), whose order the camera may not
    have seen: the tablet offers to swap them, where before the only way to the other order
    was "Not a move" and taking the tiles back.

    The board game's start (:func:`is_start`) comes with no doubt: every board game played
    with a camera opens over it, and "still on the table but not in the game: are they a
    move?" on its card contradicted "Confirm the start" below it."""
    start = is_start(table, tiles)
    return PendingMove(tuple(tiles), evaluate(table, tiles), not start,
                       alternatives=alternatives, doubts=() if start else (Doubt(why),),
                       reoffered=True, split=split)


def rejoined(table: TableGame, batches: Sequence[Sequence[Placed]], head: PendingMove | None,
             alternatives: Mapping[Cell, tuple[Tile, ...]]) -> list[PendingMove]:
    """Tiles taken back from "set aside", in the batches they were set aside in, oldest
    first, and the move shown (``head``, if any): those removed from that move return to
    it; the others are offered first, as a move of their own or as the turns they were
    (:func:`taken_back`). Either way each tile brings back the camera's runner-up labels it
    was set aside with (``alternatives``, by cell), so the fix dialog offers them as before.
    Answers what replaces the move shown at the queue's front."""
    def likely(placed: Sequence[Placed]) -> tuple[tuple[Tile, ...], ...]:
        return tuple(alternatives.get((x, y), ()) for x, y, _ in placed)

    removed = set() if head is None else {(x, y) for x, y, _ in head.removed}  # by cell
    back = sorted(t for batch in batches for t in batch if t[:2] in removed)
    alone = [[t for t in batch if t[:2] not in removed] for batch in batches]
    if head is not None and not back and taken_back_alone(head):
        # Tiles taken back a tap or two apart (one tile of a move "not a move" set aside,
        # then the rest) join those still waiting where together they are one legal move,
        # as they would have taken back in one tap: offered apart, one move became two
        # turns, each legal, the second in the next player's name.
        together = sorted([*head.tiles, *(t for batch in alone for t in batch)])
        if evaluate(table, together).legal:
            held = dict(zip(((x, y) for x, y, _ in head.tiles), head.tile_alternatives(),
                            strict=True))
            move = offered(table, together, DoubtKind.TAKEN_BACK,
                           tuple(held.get((x, y), alternatives.get((x, y), ()))
                                 for x, y, _ in together))
            return [dataclasses.replace(move, fixed=head.fixed, removed=head.removed)]
    moves = [offered(table, part, DoubtKind.TAKEN_BACK, likely(part))
             for part in taken_back(table, [batch for batch in alone if batch])]
    if len(moves) > 1:
        moves = [as_part(move, (k, len(moves))) for k, move in enumerate(moves, 1)]
    if head is None:
        return moves
    if back:
        returned = {(x, y) for x, y, _ in back}
        joined = tuple(head.tiles) + tuple(back)
        head = dataclasses.replace(head, tiles=joined, verdict=evaluate(table, joined),
                                   needs_confirmation=True,
                                   alternatives=head.tile_alternatives() + likely(back),
                                   removed=tuple(t for t in head.removed
                                                 if t[:2] not in returned))
    return [*moves, head]


def taken_back_alone(move: PendingMove) -> bool:
    """Whether ``move`` is tiles taken back from "set aside", offered as one move of their
    own (not a part of several turns, nor the board game's start)."""
    return (move.split is None and move.reoffered
            and any(d.kind is DoubtKind.TAKEN_BACK for d in move.doubts))


def taken_back(table: TableGame, batches: Sequence[Sequence[Placed]]) -> list[list[Placed]]:
    """The moves to offer for tiles taken back from "set aside", given in the batches they
    were set aside in (each "Not a move", each tile removed from a move), oldest first:
    one move where they make one legal move, or where they came in one batch; else each
    batch a turn, in an order in which each is legal on the board the ones before it leave
    (at each step the oldest batch that is); else one move, whose card says why it is none.
    Players who called two moves "not a move" and took all back got one heap that no turn
    can be ("a turn places at most 6 tiles"), and only tile by tile could they take back
    one turn at a time. Each move in cell order.

    >>> from engine.tiles import Tile
    >>> game = TableGame.new(("Ann", "Bob")).play(Place(((0, 0, Tile("red", "circle")),)))
    >>> row = [(1, 0, Tile("red", "square")), (2, 0, Tile("red", "star"))]
    >>> stars = [(2, y, Tile(colour, "star")) for y, colour in ((1, "blue"), (2, "green"))]
    >>> [[x for x, _, _ in move] for move in taken_back(game, [stars, row])]
    [[1, 2], [2, 2]]
    >>> far = [(5, 5, Tile("blue", "square"))]
    >>> [len(move) for move in taken_back(game, [row, far])]  # no turn can hold the far tile
    [3]
    """
    tiles = sorted(t for batch in batches for t in batch)
    if len(batches) < 2 or evaluate(table, tiles).legal:
        return [tiles] if tiles else []
    left, turns, after = list(batches), [], table
    while left:
        for batch in left:
            try:
                after = after.play(Place(tuple(batch)))
            except IllegalMove:
                continue
            left.remove(batch)
            turns.append(sorted(batch))
            break
        else:
            return [tiles]
    return turns


def laid_on(table: TableGame, waiting: PendingMove, new: PendingMove) -> PendingMove | None:
    """The move ``waiting`` (alone in the queue) with the camera's ``new`` tiles, where they
    make one legal move together; None where they do not, or where either is not simply
    what the camera saw laid (tiles offered again, parts of a split reading, a move players
    fixed or entered, the board game's start, tiles laid while the camera saw nothing).

    A player who lays a tile, thinks with the hand back at the rack for a second, and lays
    two more has the table still in between: the camera offers the first tile as a move and
    the two others as the next player's, and a tap on Confirm scored one turn as two. Moves
    waiting together are players' turns only when nobody confirmed the first before the
    next player laid theirs, and even then the two make one legal move in few cases (both
    turns in one line, with one attribute: 46 of 1,478 pairs of consecutive greedy turns,
    ``python -m vision.evaluate.splits``). So the tiles join the move waiting, flagged, and
    "Two turns" (:func:`parted`) undoes it.

    >>> from engine.tiles import Tile
    >>> game = TableGame.new(("Ann", "Bob")).play(Place(((0, 0, Tile("red", "circle")),)))
    >>> first = PendingMove(((1, 0, Tile("red", "square")),), MoveCheck(True, 2, None), False)
    >>> more = PendingMove(((2, 0, Tile("red", "star")),), MoveCheck(True, 3, None), False)
    >>> joined = laid_on(game, first, more)
    >>> [x for x, _, _ in joined.tiles], joined.verdict.score, joined.after_pause
    ([1, 2], 3, ((2, 0),))
    >>> laid_on(game, first, PendingMove(((1, 1, Tile("blue", "star")),), MoveCheck(True, 2,
    ...         None), False)) is None  # not in one line with it: another move
    True
    """
    plain = [m.detected and not (m.reoffered or m.fixed or m.removed) and m.split is None
             for m in (waiting, new)]
    unseen = any(d.kind is DoubtKind.UNSEEN_LAYING for d in new.doubts)  # turns may have passed
    joined = one_turn(table, waiting, new) if all(plain) and not unseen else None
    if joined is None:
        return None
    return dataclasses.replace(joined, doubts=(
        *joined.doubts, Doubt(DoubtKind.AFTER_PAUSE, count=len(joined.after_pause))))


def one_turn(table: TableGame, first: PendingMove, second: PendingMove) -> PendingMove | None:
    """Two moves waiting as one turn, flagged, where they make one legal move (else None):
    the tiles of ``second`` count as laid after a pause, so "Two turns" (:func:`parted`)
    gives the two back. Players join them with "One turn" where a move of one player came
    as two: a tile confirmed before its player laid the rest, then undone, is offered again
    ahead of the rest (:mod:`webui.games`). Not two parts of one camera reading: the split
    already weighed them as one move, and "Swap" is what it offers."""
    if is_start(table, first.tiles) or (first.split and second.split):
        return None
    tiles = (*first.tiles, *second.tiles)
    verdict = evaluate(table, tiles)
    if not verdict.legal:
        return None
    # "scored with a tile of a move not yet confirmed": that move is this one now
    cells = {(x, y) for x, y, _ in first.tiles}
    doubts = [d for d in (*first.doubts, *second.doubts)
              if d.kind not in (DoubtKind.AFTER_PAUSE, DoubtKind.REOFFERED, DoubtKind.TAKEN_BACK)
              and not (d.kind is DoubtKind.UNCONFIRMED and d.cell in cells)]
    return dataclasses.replace(
        first, tiles=tiles, verdict=verdict, needs_confirmation=True, doubts=tuple(doubts),
        alternatives=(*first.tile_alternatives(), *second.tile_alternatives()),
        detected=first.detected or second.detected, reoffered=False, split=None,
        removed=(*first.removed, *second.removed),
        after_pause=(*first.after_pause, *((x, y) for x, y, _ in second.tiles)))


def parted(table: TableGame, move: PendingMove) -> list[PendingMove]:
    """"Two turns": a move that tiles laid after a pause joined (:func:`laid_on`) as the two
    moves the camera saw, the tiles laid first, then the others; each flagged, with the
    doubts about its own cells (and those about no cell). A single move where one part is
    gone (its tiles taken off the table)."""
    likely = dict(zip(move.tiles, move.tile_alternatives(), strict=True))
    later = set(move.after_pause)
    parts = []
    for second in (False, True):
        tiles = [t for t in move.tiles if ((t[0], t[1]) in later) is second]
        doubts = tuple(d for d in move.doubts if d.kind is not DoubtKind.AFTER_PAUSE
                       and (d.cell is None or (d.cell in later) is second))
        if tiles:
            parts.append(dataclasses.replace(
                move, tiles=tuple(tiles), verdict=evaluate(table, tiles), doubts=doubts,
                alternatives=tuple(likely[t] for t in tiles), needs_confirmation=True,
                after_pause=()))
    return parts


def as_part(move: PendingMove, split: tuple[int, int]) -> PendingMove:
    """``move`` as part ``split`` of its camera reading: its mark and its doubt say so."""
    doubts = tuple(dataclasses.replace(d, count=split[0], of=split[1])
                   if d.kind is DoubtKind.SPLIT else d for d in move.doubts)
    return dataclasses.replace(move, split=split, doubts=doubts)


def without(queue: Sequence[PendingMove], gone: set[Cell], table: TableGame,
            entered_too: bool = True) -> list[PendingMove]:
    """The queue with the tiles on ``gone`` cells taken out; a move left with none goes.
    ``entered_too`` False leaves the moves entered by hand as they are."""
    kept = []
    for move in queue:
        if not (move.detected or entered_too):
            kept.append(move)
            continue
        keep = [i for i, (x, y, _) in enumerate(move.tiles) if (x, y) not in gone]
        if len(keep) == len(move.tiles):
            kept.append(move)
        elif keep:
            tiles = tuple(move.tiles[i] for i in keep)
            likely = move.tile_alternatives()
            alts = tuple(likely[i] for i in keep)
            kept.append(_after_pause_kept(dataclasses.replace(
                move, tiles=tiles, alternatives=alts, verdict=evaluate(table, tiles))))
    return kept


def _after_pause_kept(move: PendingMove) -> PendingMove:
    """``move`` with its tiles laid after a pause (:func:`laid_on`) still among its tiles:
    where none or all of them are, it is one spell of laying again, and its flag goes."""
    cells = {(x, y) for x, y, _ in move.tiles}
    after = tuple(c for c in move.after_pause if c in cells)
    if after == move.after_pause:
        return move
    spells = 0 < len(after) < len(cells)
    doubts = tuple(Doubt(DoubtKind.AFTER_PAUSE, count=len(after))
                   if d.kind is DoubtKind.AFTER_PAUSE else d for d in move.doubts
                   if spells or d.kind is not DoubtKind.AFTER_PAUSE)
    return dataclasses.replace(move, after_pause=after if spells else (), doubts=doubts)
