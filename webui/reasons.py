"""What the engine and the camera explain, said in the reader's language.

The engine refuses a move with a code and its details (:class:`engine.refusals.Refusal`);
:func:`say` words each code through gettext, for the move card, the API's pending move and its
409 answers. The camera's decoder still explains its doubts in English sentences, and the frame
source why the camera was lost: those phrasings are recognised here and said again through
gettext, and text this module does not know is shown as written. tests/test_i18n_reasons.py
makes every refusal, doubt and camera failure for real and checks that each is said in every
language, so a new code or a reworded phrasing fails a test instead of quietly showing English.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeAlias, assert_never

from flask import Blueprint
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_babel.speaklater import LazyString

from engine.refusals import Illegal, Refusal
from engine.tiles import ALL_COLOURS, SHAPES, Tile

from .i18n import colour_name, shape_name

bp = Blueprint("reasons", __name__)

_TILE = rf"(?:{'|'.join(ALL_COLOURS)}) (?:{'|'.join(SHAPES)})"
_CELL = r"\(-?\d+, -?\d+\)"
_LINE = r"(?:row y=-?\d+ from x=-?\d+ to x=-?\d+|column x=-?\d+ from y=-?\d+ to y=-?\d+)"


class UnknownText(LookupError):
    """Raised inside a phrasing whose nested text is unknown: the whole text is unknown."""


def tile_name(tile: Tile) -> str:
    """The tile as the reader says it (word order and all)."""
    return _("%(colour)s %(shape)s", colour=colour_name(tile.colour),
             shape=shape_name(tile.shape))


def _tile(text: str) -> Tile:
    """The tile an English message names as "red star"."""
    colour, shape = text.split()
    return Tile(colour, shape)


def fields(match: re.Match[str]) -> dict[str, str]:
    """A doubt's details, ready for the translated sentence: the named group ``inner`` (the
    rules' reason quoted in a doubt) or ``note`` (a doubt inside a doubt) becomes ``reason``,
    ``tile`` and ``other`` tile names, ``choices`` the camera's "this tile or that" pairs."""
    found: dict[str, str] = {}
    for key, value in match.groupdict().items():
        if key == "inner":
            found["reason"] = say_quoted(value)
        elif key == "note":
            note = recognise(value, DOUBTS)
            if note is None:
                raise UnknownText(value)
            found["reason"] = note
        elif key in ("tile", "other"):
            found[key] = tile_name(_tile(value))
        elif key == "choices":
            found[key] = ", ".join(
                _("%(tile)s or %(other)s", tile=tile_name(_tile(one)),
                  other=tile_name(_tile(two)))
                for one, two in re.findall(rf"{_CELL} ({_TILE}) or ({_TILE})", value))
        else:
            found[key] = value
    return found


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
            return ngettext("Cannot exchange %(n)s tiles: the bag holds only %(num)s tile.",
                            "Cannot exchange %(n)s tiles: the bag holds only %(num)s tiles.",
                            r.bag, n=r.count)
        case Illegal.PASS_WITH_BAG:
            return ngettext("A player may pass only once the bag is empty (%(num)s tile "
                            "left); exchange instead.",
                            "A player may pass only once the bag is empty (%(num)s tiles "
                            "left); exchange instead.", r.bag)
        case Illegal.GO_OUT_WITH_BAG:
            return ngettext("%(name)s cannot go out while the bag holds %(num)s tile.",
                            "%(name)s cannot go out while the bag holds %(num)s tiles.",
                            r.bag, name=r.player)
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


# Transitional: the decoder (vision/decode.py) still words its doubts in English, and one of
# them quotes the rules' English reason for the likeliest reading. Until it hands over the
# Refusal itself, these patterns read the quoted reason back into one so that say() words it;
# no other engine text is read here.
_QUOTED: list[tuple[str, Callable[[re.Match[str]], Refusal]]] = [
    (r"the move places no tiles", lambda m: Refusal(Illegal.NO_TILES)),
    (rf"cell {_CELL} is used twice in the move", lambda m: Refusal(Illegal.CELL_TWICE)),
    (rf"cell {_CELL} already holds (?P<tile>{_TILE})",
     lambda m: Refusal(Illegal.CELL_OCCUPIED, tiles=(_tile(m["tile"]),))),
    (r"the placed tiles are not all in one row or one column",
     lambda m: Refusal(Illegal.NOT_ONE_LINE)),
    (rf"the placed tiles leave a gap at {_CELL}", lambda m: Refusal(Illegal.GAP)),
    (r"no placed tile touches a tile already on the board",
     lambda m: Refusal(Illegal.NOT_TOUCHING)),
    (rf"{_LINE} would be (?P<n>\d+) tiles long; a line holds at most (?P<max>\d+)",
     lambda m: Refusal(Illegal.LINE_TOO_LONG, count=int(m["n"]), most=int(m["max"]))),
    (rf"{_LINE} would hold (?P<tile>{_TILE}) twice",
     lambda m: Refusal(Illegal.DUPLICATE_IN_LINE, tiles=(_tile(m["tile"]),))),
    (rf"{_LINE} would mix colours and shapes: .+", lambda m: Refusal(Illegal.MIXED_LINE)),
]
QUOTED = [(re.compile(pattern), read) for pattern, read in _QUOTED]


def say_quoted(text: str) -> str:
    """The rules' reason quoted in a decoder doubt, in the reader's language."""
    for pattern, read in QUOTED:
        match = pattern.fullmatch(text)
        if match:
            return say(read(match))
    raise UnknownText(text)


# How to say a phrasing: a sentence with its details, or, where a number decides the grammar,
# a function of the details and that number (``left``).
Say: TypeAlias = LazyString | Callable[[dict[str, str], int], str]

_CHOICE = rf"{_CELL} {_TILE} or {_TILE}"
# What the camera says when it is unsure of a move (vision/decode.py, vision/register.py,
# vision/tracker.py): several of these joined by "; ", those about tiles away from the move
# prefixed "note: ".
_DOUBTS: list[tuple[str, Say]] = [
    (r"note: (?P<note>.+)", _l("Elsewhere on the table: %(reason)s")),
    (r"(?P<n>\d+) new tiles: more than one move\? \(.+\)",
     _l("%(n)s new tiles at once: were two moves made?")),
    (r"no reading of the new tiles is a legal move \((?P<inner>.+)\); read as .+",
     _l("No reading of the new tiles makes a legal move: %(reason)s")),
    (rf"unsure which reading is right: (?P<choices>{_CHOICE}(?:, {_CHOICE})*)",
     _l("It could be %(choices)s.")),
    (rf"tile at {_CELL} read as (?P<tile>{_TILE}) but only (?P<other>{_TILE}) makes the move "
     r"legal", _l("A tile read as %(tile)s makes the move legal only as %(other)s.")),
    (rf"two tiles read in cell {_CELL}", _l("Two tiles were read in one square.")),
    (rf"tile at {_CELL} was (?P<tile>{_TILE}), now reads (?P<other>{_TILE})",
     _l("A tile that was %(tile)s now reads %(other)s.")),
    (rf"(?P<tile>{_TILE}) at {_CELL} is no longer seen, moved to {_CELL}\?",
     _l("The %(tile)s is no longer seen: was it moved?")),
    (rf"(?P<tile>{_TILE}) at {_CELL} is no longer seen", _l("The %(tile)s is no longer seen.")),
    (rf"(?P<tile>{_TILE}) at {_CELL} left out: the move is legal only without it",
     _l("The %(tile)s was left out of the move: the move is legal only without it. Is it "
        "really a tile?")),
    # What the move tracker adds (vision/tracker.py).
    (rf"something at {_CELL} may be a tile \((?P<tile>{_TILE})\?\)",
     _l("Something that may be a tile (%(tile)s?) was not counted as one.")),
    (rf"the picture changed at {_CELL} but no tile was read there",
     _l("The picture changed on an empty square, but no tile was read there: was a tile "
        "missed?")),
    (rf"a tile may lie unread at {_CELL} \(it changed earlier\)",
     _l("A tile may lie unread in the line of this move (the picture changed there "
        "earlier).")),
    (rf"scored with (?P<tile>{_TILE}) at {_CELL}, from a move not yet confirmed",
     _l("The score counts the %(tile)s from an earlier move that is not yet confirmed.")),
    (rf"(?P<tile>{_TILE}) at {_CELL} was laid earlier \(the picture changed there then\) "
     r"but is only read now",
     _l("The %(tile)s was laid in an earlier turn but is only read now; it is not counted in "
        "this move.")),
    (rf"tile at {_CELL} now reads (?P<tile>{_TILE}) \(was read as (?P<other>{_TILE})\)",
     _l("A tile first read as %(other)s is now read as %(tile)s.")),
    (r"these tiles are still on the table but not in the game",
     _l("These tiles are still on the table but not in the game (after an undo, a removed "
        "turn, or a game started over tiles): are they a move?")),
]
DOUBTS = [(re.compile(pattern), say) for pattern, say in _DOUBTS]

# Why the camera was lost (vision/source.py); shown inside "Camera lost: ...".
_CAMERA: list[tuple[str, Say]] = [
    (r"cannot open camera (?P<target>.+?): is it plugged in and not used by another program\?",
     _l("cannot open camera %(target)s (unplugged, or in use by another program)")),
    (r"cannot open video (?P<target>.+?): is it a video file OpenCV can decode\?",
     _l("cannot open the video %(target)s (not a video this program can read)")),
    (r"camera (?P<target>.+?) stopped delivering frames for (?P<n>\d+) s "
     r"\(unplugged or out of range\?\)",
     _l("camera %(target)s sent no picture for %(n)s s (unplugged, or out of range)")),
    (r"video (?P<target>.+?) has no frame that can be decoded \(corrupt or not a video\?\)",
     _l("the video %(target)s has no picture that can be read (damaged, or not a video)")),
    (r"no photos \(\.jpg, \.png, \.\.\.\) in folder (?P<target>.+)",
     _l("there are no photos in the folder %(target)s")),
    (r"cannot read photo (?P<target>.+?): not an image or corrupt",
     _l("cannot read the photo %(target)s (not an image, or damaged)")),
    (r"no such camera, file or folder: (?P<target>.+?) \(give a camera index .+\)",
     _l("there is no camera, file or folder called %(target)s")),
]
CAMERA = [(re.compile(pattern), say) for pattern, say in _CAMERA]


def recognise(reason: str, rules: list[tuple[re.Pattern[str], Say]]) -> str | None:
    """The text in the reader's language, or None when its wording is not one of ``rules``."""
    for pattern, say in rules:
        match = pattern.fullmatch(reason)
        if match:
            try:
                details = fields(match)
            except UnknownText:
                return None
            if isinstance(say, LazyString):
                return str(say) % details
            return say(details, int(details.pop("left")))
    return None


def recognise_doubts(text: str) -> list[str] | None:
    """The camera's doubts, each in the reader's language, or None if some part is unknown.

    The parts are joined by "; ", which an engine reason inside a part may contain too, so
    every split is tried, shortest first part first.
    """
    if not text:
        return []
    ends = [m.start() for m in re.finditer("; ", text)] + [len(text)]
    for end in ends:
        said = recognise(text[:end], DOUBTS)
        if said is None:
            continue
        rest = recognise_doubts(text[end + 2:]) if end < len(text) else []
        if rest is not None:
            return [said, *rest]
    return None


@bp.app_template_filter("doubt")
def translate_doubts(text: str) -> str:
    """Why the camera is unsure, in the reader's language; as written if it is not known."""
    said = recognise_doubts(str(text))
    return " ".join(said) if said is not None else str(text)


@bp.app_template_filter("camera_message")
def translate_camera(message: str) -> str:
    """Why the camera was lost, in the reader's language; as written if it is not known."""
    return recognise(str(message), CAMERA) or str(message)
