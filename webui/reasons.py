"""What the engine and the camera explain in English, said again in the reader's language.

The engine (pure rules, no I/O) explains an illegal move in one English sentence built from
a fixed set of phrasings; the camera's decoder says why it is unsure of a move the same way,
and the frame source why the camera was lost. The move card, the camera line and the API's
409 answers show these to players, so here each phrasing is recognised and said again through
gettext. Text this module does not know is shown as written; tests/test_i18n_reasons.py makes
every kind of refusal, doubt and camera failure for real and checks that each is recognised,
so a new or reworded phrasing fails a test instead of quietly showing English.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from flask import Blueprint
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_babel.speaklater import LazyString

from engine.tiles import ALL_COLOURS, SHAPES, Tile

from .pages import colour_name, shape_name

bp = Blueprint("reasons", __name__)

_TILE = rf"(?:{'|'.join(ALL_COLOURS)}) (?:{'|'.join(SHAPES)})"
_CELL = r"\(-?\d+, -?\d+\)"
_LINE = r"(?:row y=-?\d+ from x=-?\d+ to x=-?\d+|column x=-?\d+ from y=-?\d+ to y=-?\d+)"


class UnknownText(LookupError):
    """Raised inside a phrasing whose nested text is unknown: the whole text is unknown."""


def tile_name(text: str) -> str:
    """ "red star" as the reader says it (word order and all)."""
    colour, shape = text.split()
    tile = Tile(colour, shape)
    return _("%(colour)s %(shape)s", colour=colour_name(tile.colour),
             shape=shape_name(tile.shape))


def fields(match: re.Match[str]) -> dict[str, str]:
    """A reason's details, ready for the translated sentence: the named group ``inner`` (an
    engine reason inside a reason) or ``note`` (a doubt inside a doubt) becomes ``reason``,
    ``tile`` and ``other`` tile names, ``who`` a ``name``, ``choices`` the camera's "this
    tile or that" pairs."""
    found: dict[str, str] = {}
    for key, value in match.groupdict().items():
        if key == "inner":
            found["reason"] = translate(value)
        elif key == "note":
            note = recognise(value, DOUBTS)
            if note is None:
                raise UnknownText(value)
            found["reason"] = note
        elif key in ("tile", "other"):
            found[key] = tile_name(value)
        elif key == "who":
            found["name"] = value
        elif key == "choices":
            found[key] = ", ".join(
                _("%(tile)s or %(other)s", tile=tile_name(one), other=tile_name(two))
                for one, two in re.findall(rf"{_CELL} ({_TILE}) or ({_TILE})", value))
        else:
            found[key] = value
    return found


# The engine's phrasings and how to say them: a sentence with the reason's details, or, where
# a number decides the grammar, a function of the details and that number (``left``).
Say = LazyString | Callable[[dict[str, str], int], str]
_TABLE: list[tuple[str, Say]] = [
    (r"turn (?P<n>\d+) \((?P<who>.+?)\): (?P<inner>.+)",
     _l("Turn %(n)s (%(name)s): %(reason)s")),
    (r"this correction would make turn (?P<n>\d+) \((?P<who>.+?)\) illegal: (?P<inner>.+)",
     _l("This correction would make turn %(n)s (%(name)s) illegal: %(reason)s")),
    (r"this correction would make the ending invalid: (?P<inner>.+)",
     _l("This correction would make the ending invalid: %(reason)s")),
    (r"the move places no tiles", _l("The move places no tiles.")),
    (r"cell \(-?\d+, -?\d+\) is used twice in the move",
     _l("Two tiles of the move are on the same square.")),
    (rf"cell \(-?\d+, -?\d+\) already holds (?P<tile>{_TILE})",
     _l("A new tile is on a square that already holds a %(tile)s.")),
    (r"the placed tiles are not all in one row or one column",
     _l("The new tiles are not all in one row or one column.")),
    (r"the placed tiles leave a gap at \(-?\d+, -?\d+\)",
     _l("The new tiles leave a gap in their line.")),
    (r"no placed tile touches a tile already on the board",
     _l("No new tile touches a tile already on the table.")),
    (rf"{_LINE} would be (?P<n>\d+) tiles long; a line holds at most (?P<max>\d+)",
     _l("A line would be %(n)s tiles long; a line holds at most %(max)s.")),
    (rf"{_LINE} would hold (?P<tile>{_TILE}) twice", _l("A line would hold the %(tile)s twice.")),
    (rf"{_LINE} would mix colours and shapes: .+", _l("A line would mix colours and shapes.")),
    (r"the game has ended; correct or void a turn instead",
     _l("The game has ended; correct or remove a turn instead.")),
    (r"a turn places at most (?P<max>\d+) tiles, not (?P<n>\d+)",
     _l("A turn places at most %(max)s tiles, not %(n)s.")),
    (rf"(?P<tile>{_TILE}) is not in this set \(colours: .+\)",
     _l("There is no %(tile)s in this set.")),
    (rf"all (?P<n>\d+) (?P<tile>{_TILE}) tiles are already on the table",
     _l("All %(n)s %(tile)s tiles are already on the table.")),
    (r"an exchange swaps 1 to (?P<max>\d+) tiles, not .+",
     _l("An exchange swaps 1 to %(max)s tiles.")),
    (r"cannot exchange (?P<n>\d+) tiles: the bag holds only (?P<left>\d+)",
     lambda f, left: ngettext("Cannot exchange %(n)s tiles: the bag holds only %(num)s tile.",
                              "Cannot exchange %(n)s tiles: the bag holds only %(num)s tiles.",
                              left, **f)),
    (r"a player may pass only once the bag is empty \((?P<left>\d+) tiles left\); "
     r"exchange instead",
     lambda f, left: ngettext("A player may pass only once the bag is empty (%(num)s tile "
                              "left); exchange instead.",
                              "A player may pass only once the bag is empty (%(num)s tiles "
                              "left); exchange instead.", left, **f)),
    (r"(?P<who>.+) cannot go out while the bag holds (?P<left>\d+) tiles",
     lambda f, left: ngettext("%(name)s cannot go out while the bag holds %(num)s tile.",
                              "%(name)s cannot go out while the bag holds %(num)s tiles.",
                              left, **f)),
]
RULES = [(re.compile(pattern), say) for pattern, say in _TABLE]

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


def recognise(reason: str, rules: list[tuple[re.Pattern[str], Say]] = RULES) -> str | None:
    """The reason in the reader's language, or None when its wording is not one of ``rules``."""
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


@bp.app_template_filter("reason")
def translate(reason: str) -> str:
    """The engine's reason in the reader's language; as written if it is not known."""
    return recognise(str(reason)) or str(reason)


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
