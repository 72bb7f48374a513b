"""The "How scoring works" page: the rules as this app applies them, in the reader's language.

Every example on the page is built here as a real board and scored by the engine, so the
page can never disagree with what the tablet shows during a game: change a rule in the
engine and the examples change with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from babel.numbers import get_plus_sign_symbol
from flask import Blueprint, render_template
from flask_babel import format_decimal, get_locale

from engine.board import Board, Placed
from engine.rules import MAX_LINE, QWIRKLE_BONUS, MoveCheck, check_move
from engine.selfplay import simulate, table_game
from engine.table import TableGame
from engine.tiles import Tile

from .codec import placed_json

bp = Blueprint("scoring", __name__)

END_EXAMPLE_SEED = 1
"""The simulated game whose ending the page shows (any seed whose game ends by going out)."""


@dataclass(frozen=True)
class Example:
    """A board, the tiles one move adds to it, and the engine's verdict on that move."""

    board: list[dict[str, Any]]
    move: list[dict[str, Any]]
    check: MoveCheck


def tiles(*cells: tuple[int, int, str]) -> list[Placed]:
    """Tiles from ``(x, y, code)`` triples, codes as in ``Tile.from_code`` (``RCi``)."""
    return [(x, y, Tile.from_code(code)) for x, y, code in cells]


def example(board: list[Placed], move: list[Placed]) -> Example:
    verdict = check_move(Board.from_placed(board), move)
    return Example(placed_json(board), placed_json(move), verdict)


@cache
def examples() -> dict[str, Example]:
    """The worked moves: one line, new tiles apart with an old one between them, a tile in
    two lines, a Qwirkle, and a move the rules refuse."""
    two_reds = tiles((0, 0, "RCi"), (1, 0, "RSq"))
    return {
        "line": example(two_reds, tiles((2, 0, "RDi"), (3, 0, "RCl"))),
        "apart": example(tiles((1, 0, "BSq")), tiles((0, 0, "BCi"), (2, 0, "BSt"))),
        "double": example(two_reds + tiles((1, 1, "BSq"), (2, 1, "BDi")),
                          tiles((2, 0, "RDi"))),
        "qwirkle": example(tiles((0, 0, "GCi"), (1, 0, "GSq"), (2, 0, "GDi"), (2, 1, "YDi")),
                           tiles((3, 0, "GCl"), (4, 0, "GCr"), (5, 0, "GSt"))),
        "illegal": example(two_reds, tiles((2, 0, "BDi"))),
    }


@cache
def ending() -> TableGame:
    """A complete simulated game replayed on the table model and ended by its last player
    going out: the engine's own account of the end bonus."""
    record = simulate(players=2, seed=END_EXAMPLE_SEED)
    return table_game(record, [str(seat + 1) for seat in range(record.players)])


@bp.app_template_filter()
def signed(number: int) -> str:
    """A bonus as "+6", with the locale's own plus sign (Arabic's carries a direction mark so
    the sign stays before the digits in right-to-left text)."""
    return f"{get_plus_sign_symbol(get_locale())}{format_decimal(number)}"


@bp.get("/scoring")
def scoring():
    return render_template("scoring.html", view="scoring", examples=examples(), ending=ending(),
                           line_max=MAX_LINE, bonus=QWIRKLE_BONUS)
