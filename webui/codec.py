"""JSON shapes of tiles and turns, shared by the event log, the API and the exports.

One module decodes every payload that comes from outside (a request body or a stored event),
so a malformed one is refused with the same clear message wherever it enters. A placed tile is
``{"x", "y", "colour", "shape", "code"}`` here; a tile off the board (a runner-up label, an
unseen kind) ``{"colour", "shape"}``. The command line's JSON Lines use the compact row
``[x, y, colour, shape]`` of :func:`engine.board.placed_row`, one encoder for each form.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeGuard, cast

from babel.lists import format_list
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l

from engine.board import Board, Placed, reached
from engine.refusals import Illegal
from engine.table import Exchange, Pass, Place
from engine.tiles import HAND, Tile, TileError, full_set

from .i18n import colour_name

Turn = Place | Exchange | Pass


class PayloadError(ValueError):
    """A request body or stored event that does not have the expected shape (HTTP 400).
    ``code``, when there is one, is the answer's ``reason_code``, for programs."""

    def __init__(self, message: object, code: str = "") -> None:
        super().__init__(message)
        self.code = code


def kind_json(tile: Tile) -> dict[str, Any]:
    """A tile off the board: only what kind it is."""
    return {"colour": tile.colour, "shape": tile.shape}


def tile_json(x: int, y: int, tile: Tile) -> dict[str, Any]:
    return {"x": x, "y": y, **kind_json(tile), "code": tile.code}


def placed_json(placed: Iterable[tuple[int, int, Tile]]) -> list[dict[str, Any]]:
    return [tile_json(x, y, tile) for x, y, tile in placed]


def reading_json(x: int, y: int, tile: Tile, alternatives: Iterable[Tile]) -> dict[str, Any]:
    """A tile as the camera read it: placed, with its runner-up labels, best first (a
    waiting move's tile, or one set aside)."""
    return {**tile_json(x, y, tile), "alternatives": [kind_json(a) for a in alternatives]}


MAX_COORDINATE = 1000
"""No table is this big (108 tiles span at most 108 cells); larger numbers are a client bug."""


def is_whole(value: object) -> TypeGuard[int]:
    """Whether a JSON value is a whole number: bool is an int in Python, but a JSON true is
    no count, coordinate or turn number."""
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: object, what: str, limit: int = MAX_COORDINATE) -> int:
    if not is_whole(value) or abs(value) > limit:
        raise PayloadError(_l("%(what)s must be a whole number from -%(limit)s to %(limit)s",
                              what=what, limit=limit))
    return value


MAX_TILES = len(full_set())
"""Most tiles one list may hold: a whole set (108). Not a turn's 6 (:data:`HAND`): several
moves made while the camera was away come as one waiting move when they do not split into
legal turns, and the tablet's Fix sends that whole move back (``POST .../pending``). No
table holds more tiles than the set, so a longer list is a client bug; the engine refuses a
turn of more than 6 with its own reason."""


def parse_tiles(value: object, colours: Sequence[str] | None = None
                ) -> tuple[tuple[int, int, Tile], ...]:
    """Tiles as ``[{"x": 0, "y": 0, "colour": "red", "shape": "star"}, ...]``. ``colours``,
    the set of the game they are sent for: a tile of another colour is refused, as no tile
    of the table can be it (let in, a white tile typed into a game with purple waited as a
    move that nothing but another fix could take)."""
    if not isinstance(value, list) or not value:
        raise PayloadError(_l("tiles must be a non-empty list"))
    if len(value) > MAX_TILES:
        raise PayloadError(_l("tiles: a move holds at most %(n)s tiles (a whole set), not "
                              "%(count)s", n=MAX_TILES, count=len(value)))
    placed = []
    for item in value:
        if not isinstance(item, dict):
            raise PayloadError(_l("each tile must be an object with x, y, colour and shape"))
        tile = _kind(item)
        if colours is not None and tile.colour not in colours:
            raise _not_in_set(tile.colour, colours)
        placed.append((_int(item.get("x"), "x"), _int(item.get("y"), "y"), tile))
    cells = [(x, y) for x, y, _ in placed]
    if len(set(cells)) != len(cells):
        raise PayloadError(_l("two tiles are on the same cell"))
    return tuple(placed)


def parse_readings(value: object) -> tuple[tuple[Placed, tuple[Tile, ...]], ...]:
    """Tiles as :func:`reading_json` gives them, each with its runner-up labels; a tile
    without any (tiles set aside were stored so before they kept them) has none."""
    placed = parse_tiles(value)
    readings = []
    items = cast(list[dict[str, Any]], value)  # parse_tiles took it: a list of objects
    for tile, item in zip(placed, items, strict=True):
        alternatives = item.get("alternatives", [])
        if not isinstance(alternatives, list) or not all(isinstance(a, dict)
                                                         for a in alternatives):
            raise PayloadError(_l("alternatives must be a list of tiles, each with a colour "
                                  "and a shape"))
        readings.append((tile, tuple(_kind(a) for a in alternatives)))
    return tuple(readings)


def _kind(item: dict[str, Any]) -> Tile:
    """The tile that an object's ``colour`` and ``shape`` name."""
    try:
        return Tile.parse(item.get("colour"), item.get("shape"))
    except TileError as error:
        raise PayloadError(_l("bad tile: %(error)s", error=str(error))) from None


def _not_in_set(colour: str, colours: Sequence[str]) -> PayloadError:
    """A tile of ``colour`` refused for a set of ``colours``: the colour, and the set's own."""
    names = format_list([colour_name(c) for c in colours], locale=get_locale())
    return PayloadError(_l("This set has no %(colour)s tiles; its colours are %(colours)s.",
                           colour=colour_name(colour), colours=names),
                        Illegal.NOT_IN_SET.value)


def check_reach(board: Board, tiles: Sequence[Placed]) -> None:
    """Refuse tiles that lie farther than a turn's reach (:data:`HAND` cells) from the board
    and from every other tile of the list within reach of it.

    A table's tiles hang together: every line is gapless, so a turn, or several laid while
    the camera looked away, touches what lies there. A tile typed in at (1000, 1000) is a
    slip of the finger or a guest's prank, and drawn with the board it made the tablet's
    picture 44,000 px wide. A missed tile between leaves a gap of a few cells, within reach.
    """
    cells = [(x, y) for x, y, _ in tiles]
    near = reached(list(board) or cells[:1], cells, HAND)
    stray = [cell for cell in cells if cell not in near]
    if stray:
        x, y = stray[0]
        raise PayloadError(_l("the tile at (%(x)s, %(y)s) is too far from the other tiles "
                              "to be part of a move", x=x, y=y))


def parse_turn(value: object, colours: Sequence[str] | None = None) -> Turn:
    """A turn as ``{"kind": "place", "tiles": [...]}``, ``{"kind": "exchange", "count": 3}``
    or ``{"kind": "pass"}``; ``colours`` as for :func:`parse_tiles`."""
    if not isinstance(value, dict):
        raise PayloadError(_l("the request body must be a JSON object"))
    kind = value.get("kind")
    if kind == "place":
        return Place(parse_tiles(value.get("tiles"), colours))
    if kind == "exchange":
        count = value.get("count")
        if not is_whole(count) or not 1 <= count <= HAND:
            raise PayloadError(_l("an exchange swaps between 1 and 6 tiles"))
        return Exchange(count)
    if kind == "pass":
        return Pass()
    raise PayloadError(_l("kind must be place, exchange or pass"))


def turn_json(turn: Turn) -> dict[str, Any]:
    """The inverse of :func:`parse_turn`."""
    if isinstance(turn, Place):
        return {"kind": "place", "tiles": placed_json(turn.tiles)}
    if isinstance(turn, Exchange):
        return {"kind": "exchange", "count": turn.count}
    return {"kind": "pass"}
