"""What the engine and the camera explain, said in the reader's language.

Every layer says why in codes with their details, never in sentences to be parsed: the
engine refuses a move with a :class:`engine.refusals.Refusal`, the camera doubts a move with
:class:`vision.doubts.Doubt` and loses its source with a :class:`vision.source.Problem`. Here
each code is worded through gettext (:func:`say`, :func:`say_doubt`, :func:`say_camera`) for
the move card, the camera line and the API. tests/webui/test_i18n_reasons.py makes every refusal,
doubt and camera failure for real and checks that each is said in every language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, assert_never

from flask import Blueprint
from flask_babel import gettext as _
from flask_babel import ngettext

from engine.refusals import Illegal, Refusal
from engine.tiles import Tile
from vision.doubts import Doubt, DoubtKind, SplitOrder
from vision.setprofile import BlockProblem
from vision.source import Problem

from .i18n import colour_name, shape_name

bp = Blueprint("reasons", __name__)

def tile_name(tile: Tile) -> str:
    """The tile as the reader says it (word order and all)."""
    return _("%(colour)s %(shape)s", colour=colour_name(tile.colour),
             shape=shape_name(tile.shape))


def say(refusal: Refusal) -> str:
    """The engine's refusal in the reader's language (the English wording is
    :func:`engine.refusals.english`)."""
    r = refusal
    tile = tile_name(r.tiles[0]) if r.tiles else ""
    reason = say(r.cause) if r.cause is not None else ""
    match r.code:
        case Illegal.NO_TILES:
            return _("The move places no tiles.")
        case Illegal.CELL_TWICE:
            return _("Two tiles of the move are on the same square.")
        case Illegal.CELL_OCCUPIED:
            return _("A new tile is on a square that already holds a %(tile)s.", tile=tile)
        case Illegal.NOT_ONE_LINE:
            return _("The new tiles are not all in one row or one column.")
        case Illegal.GAP:
            return _("The new tiles leave a gap in their line.")
        case Illegal.NOT_TOUCHING:
            return _("No new tile touches a tile already on the table.")
        case Illegal.LINE_TOO_LONG:
            return _("A line would be %(n)s tiles long; a line holds at most %(max)s.",
                     n=r.count, max=r.most)
        case Illegal.DUPLICATE_IN_LINE:
            return _("A line would hold the %(tile)s twice.", tile=tile)
        case Illegal.MIXED_LINE:
            return _("A line would mix colours and shapes.")
        case Illegal.GAME_ENDED:
            return _("The game has ended; correct or remove a turn instead.")
        case Illegal.TOO_MANY_TILES:
            return _("A turn places at most %(max)s tiles, not %(n)s.", max=r.most, n=r.count)
        case Illegal.NOT_IN_SET:
            return _("There is no %(tile)s in this set.", tile=tile)
        case Illegal.NO_COPIES_LEFT:
            return _("All %(n)s %(tile)s tiles are already on the table.", n=r.count, tile=tile)
        case Illegal.EXCHANGE_COUNT:
            return _("An exchange swaps 1 to %(max)s tiles.", max=r.most)
        case Illegal.BAG_TOO_SMALL:
            # two counts, each with its own plural form
            return _("Cannot exchange %(tiles)s: the bag holds only %(left)s.",
                     tiles=ngettext("%(num)s tile", "%(num)s tiles", r.count),
                     left=ngettext("%(num)s tile", "%(num)s tiles", r.bag))
        case Illegal.PASS_WITH_BAG:
            return ngettext("A player may pass only once the bag is empty (%(num)s tile "
                            "left); exchange instead.",
                            "A player may pass only once the bag is empty (%(num)s tiles "
                            "left); exchange instead.", r.bag)
        case Illegal.GO_OUT_WITH_BAG:
            return ngettext("%(name)s cannot go out while the bag holds %(num)s tile.",
                            "%(name)s cannot go out while the bag holds %(num)s tiles.",
                            r.bag, name=r.player)
        case Illegal.GO_OUT_NOT_LAST:
            return _("%(name)s did not lay the last turn's tiles: only the player who laid them "
                     "can have gone out.", name=r.player)
        case Illegal.BAD_TURN:
            return _("Turn %(n)s (%(name)s): %(reason)s", n=r.turn + 1, name=r.player,
                     reason=reason)
        case Illegal.BREAKS_LATER_TURN:
            return _("This correction would make turn %(n)s (%(name)s) illegal: %(reason)s",
                     n=r.turn + 1, name=r.player, reason=reason)
        case Illegal.BREAKS_ENDING:
            return _("This correction would make the ending invalid: %(reason)s", reason=reason)
    assert_never(r.code)


@bp.app_template_filter("reason")
def translate(reason: Refusal | str) -> str:
    """An engine refusal in the reader's language; text (already said) as it is."""
    return say(reason) if isinstance(reason, Refusal) else str(reason)


def say_doubt(d: Doubt) -> str:
    """One of the camera's doubts in the reader's language (the English wording is
    :func:`vision.doubts.english`)."""
    tile = tile_name(d.tile) if d.tile is not None else ""
    other = tile_name(d.other) if d.other is not None else ""
    text = _say_doubt(d, tile, other)
    return _("Elsewhere on the table: %(reason)s", reason=text) if d.elsewhere else text


def _say_doubt(d: Doubt, tile: str, other: str) -> str:
    match d.kind:
        case DoubtKind.TOO_MANY:
            return _("%(n)s new tiles at once: were two moves made?", n=d.count)
        case DoubtKind.NO_LEGAL_READING:
            return _("No reading of the new tiles makes a legal move: %(reason)s",
                     reason=say(d.refusal) if d.refusal is not None else "")
        case DoubtKind.NO_SPLIT:
            return _("Nor do they split into moves that are each legal in turn.")
        case DoubtKind.SPLIT:
            return _("Move %(k)s of %(n)s read from one picture: the camera did not see where "
                     "one turn ended.", k=d.count, n=d.of) + " " + _say_order(d.order)
        case DoubtKind.AMBIGUOUS:
            return _("It could be %(choices)s.", choices=", ".join(
                _("%(tile)s or %(other)s", tile=tile_name(a[2]), other=tile_name(b[2]))
                for a, b in d.choices))
        case DoubtKind.ONLY_LEGAL_AS:
            return _("A tile read as %(tile)s makes the move legal only as %(other)s.",
                     tile=tile, other=other)
        case DoubtKind.LEFT_OUT:
            return _("The %(tile)s was left out of the move: the move is legal only without "
                     "it. Is it really a tile?", tile=tile)
        case DoubtKind.TWO_IN_CELL:
            return _("Two tiles were read in one square.")
        case DoubtKind.RELABELLED:
            return _("A tile that was %(tile)s now reads %(other)s.", tile=tile, other=other)
        case DoubtKind.SETTLED:
            return _("A tile first read as %(other)s is now read as %(tile)s.", other=tile,
                     tile=other)
        case DoubtKind.VANISHED:
            return _("The %(tile)s is no longer seen.", tile=tile)
        case DoubtKind.MOVED:
            return _("The %(tile)s is no longer seen: was it moved?", tile=tile)
        case DoubtKind.MAYBE_TILE:
            return _("Something that may be a tile (%(tile)s?) was not counted as one.",
                     tile=tile)
        case DoubtKind.CHANGED_UNREAD:
            return _("The picture changed on an empty square, but no tile was read there: was "
                     "a tile missed?")
        case DoubtKind.UNREAD_EARLIER:
            return _("A tile may lie unread in the line of this move (the picture changed "
                     "there earlier).")
        case DoubtKind.UNCONFIRMED:
            return _("The score counts the %(tile)s from an earlier move that is not yet "
                     "confirmed.", tile=tile)
        case DoubtKind.LAID_EARLIER:
            return _("The %(tile)s was laid in an earlier turn but is only read now; it is not "
                     "counted in this move.", tile=tile)
        case DoubtKind.UNSEEN_LAYING:
            return _("The camera did not see these tiles being laid (no pictures for a while, "
                     "or a sudden change): more than one turn may have passed.")
        case DoubtKind.REOFFERED:
            return _("These tiles are still on the table but not in the game (after an undo, a "
                     "removed turn, a game started over tiles, or a game ended by mistake): are "
                     "they a move?")
        case DoubtKind.TAKEN_BACK:
            return _("Taken back from the tiles set aside.")
        case DoubtKind.CUT:
            return _("The %(tile)s is cut by the edge of the picture: is it read right?",
                     tile=tile)
        case DoubtKind.AFTER_PAUSE:
            return ngettext("%(num)s of these tiles was laid after a pause, while the others "
                            "waited: is it all one turn?",
                            "%(num)s of these tiles were laid after a pause, while the others "
                            "waited: is it all one turn?", d.count)
    assert_never(d.kind)


def _say_order(order: SplitOrder | None) -> str:
    match order:
        case SplitOrder.SEEN:
            return _("It was split in the order the tiles appeared.")
        case SplitOrder.AGAINST:
            return _("The split goes against the order the tiles seemed to appear.")
        case SplitOrder.UNKNOWN_EITHER:
            return _("The order the tiles appeared is not known, and the other order is legal "
                     "too: check whose turn each was.")
    return _("The order the tiles appeared is not known.")


def say_doubts(doubts: Sequence[Doubt]) -> str:
    """All of a move's doubts in the reader's language, one sentence each. Beside a split's
    own words (the camera did not see where one turn ended), "it did not see these tiles
    being laid" says nothing more, and made a phone's warning 70 words long, with the
    move's board below the fold."""
    split = any(d.kind is DoubtKind.SPLIT for d in doubts)
    return " ".join(say_doubt(d) for d in doubts
                    if not (split and d.kind is DoubtKind.UNSEEN_LAYING))


@bp.app_template_filter("camera_message")
def say_camera(camera: dict[str, Any]) -> str:
    """Why the camera was lost (``camera`` as ``GET /api/camera`` gives it), in the reader's
    language; a failure with no code (a fault in this program) as its message says it."""
    target, seconds = camera.get("target", ""), camera.get("seconds", 0)
    match camera.get("code"):
        case Problem.NO_PHOTOS:
            return _("there are no photos in the folder %(target)s", target=target)
        case Problem.BAD_PHOTO:
            return _("cannot read the photo %(target)s (not an image, or damaged)",
                     target=target)
        case Problem.CANNOT_OPEN_CAMERA:
            return _("cannot open camera %(target)s (unplugged, or in use by another program)",
                     target=target)
        case Problem.CANNOT_REACH_CAMERA:
            return _("cannot reach camera %(target)s (switched off, not streaming, or not on "
                     "this Wi-Fi)", target=target)
        case Problem.CANNOT_OPEN_VIDEO:
            return _("cannot open the video %(target)s (not a video this program can read)",
                     target=target)
        case Problem.UNDECODABLE:
            return _("the video %(target)s has no picture that can be read (damaged, or not a "
                     "video)", target=target)
        case Problem.STALLED:
            return _("camera %(target)s sent no picture for %(n)s s (unplugged, or out of "
                     "range)", target=target, n=round(seconds))
        case Problem.NOT_A_FILE:
            return _("%(target)s is a pipe or a device, not a video file or a folder",
                     target=target)
        case Problem.NO_SUCH_SOURCE:
            return _("there is no camera, file or folder called %(target)s", target=target)
    return str(camera.get("message", ""))


def say_block(problem: BlockProblem, found: int) -> str:
    """Why the camera's picture does not teach the set (the English wording is
    :func:`vision.setprofile.english`)."""
    match problem:
        case BlockProblem.TILE_COUNT:
            return ngettext("The camera sees %(num)s tile; lay out the 36 kinds, one tile "
                            "each, in a 6 × 6 block.",
                            "The camera sees %(num)s tiles; lay out the 36 kinds, one tile "
                            "each, in a 6 × 6 block.", found)
        case BlockProblem.NOT_A_BLOCK:
            return _("The 36 tiles are not in one 6 × 6 block: close the gaps between them.")
        case _:
            assert_never(problem)
