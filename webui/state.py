"""What a game looks like from outside: the JSON of ``GET /api/state`` and the exports.

The pages, the live stream and other programs all read these same shapes, so what a tablet
shows is exactly what the API reports.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from engine.board import SIDES, Cell, Placed
from engine.boardgame import move_bonus
from engine.refusals import Illegal, Refusal
from engine.sheet import score_sheet
from engine.table import TableGame
from engine.tiles import SHAPES

from .codec import kind_json, placed_json, reading_json, tile_json, turn_json
from .games import Game, camera_key, games
from .pending import PendingMove, is_start, one_turn
from .reasons import say, say_doubts


def reason_cells(table: TableGame, tiles: Sequence[Placed], refusal: Refusal | None
                 ) -> list[Cell]:
    """The cells a refusal of the move ``tiles`` is about, for the move card to ring: the line
    it names; in a line that would hold a tile twice, the two; for "all 3 copies are on the
    table", where those copies lie (one of them is often an earlier tile misread, which
    players then find at a glance)."""
    if refusal is None:
        return []
    held = {(x, y): tile for x, y, tile in table.board.placed()}
    if refusal.code is Illegal.NO_COPIES_LEFT and refusal.tiles:
        return sorted(cell for cell, tile in held.items() if tile == refusal.tiles[0])
    if refusal.code is Illegal.DUPLICATE_IN_LINE and refusal.tiles:
        held.update(((x, y), tile) for x, y, tile in tiles)
        return [cell for cell in refusal.cells if held.get(cell) == refusal.tiles[0]]
    return list(refusal.cells)


def beside_aside(tiles: Sequence[Placed], aside: Sequence[Placed]) -> list[Cell]:
    """The tiles set aside that the move ``tiles`` lies against. The move is read and scored
    without them: a later move laid against a real move called "Not a move" came as "no new
    tile touches a tile already on the table" beside a tile that plainly touched, or scored
    short, with nothing on its card to say that taking those tiles back was the way on."""
    cells = {(x, y) for x, y, _ in tiles}
    return [(x, y) for x, y, _ in sorted(aside)
            if any((x + dx, y + dy) in cells for dx, dy in SIDES)]


def pending_json(pending: PendingMove | None, table: TableGame,
                 aside: Sequence[Placed] = ()) -> dict[str, Any] | None:
    """The move shown for confirmation; ``aside``: the game's tiles set aside."""
    if pending is None:
        return None
    verdict = pending.verdict
    cells = [(x, y) for x, y, _ in pending.tiles]
    start = is_start(table, pending.tiles)
    return {
        "tiles": [reading_json(x, y, tile, alts) for (x, y, tile), alts
                  in zip(pending.tiles, pending.tile_alternatives(), strict=True)],
        "legal": verdict.legal,
        "score": verdict.score,
        "reason": say(verdict.refusal) if verdict.refusal is not None else "",
        "reason_code": verdict.refusal.code.value if verdict.refusal is not None else None,
        "reason_cells": [list(c) for c in reason_cells(table, pending.tiles, verdict.refusal)],
        "lines": [
            {"cells": [list(c) for c in line.cells], "points": line.points,
             "qwirkle": line.is_qwirkle, "codes": [t.code for t in line.tiles]}
            for line in verdict.lines
        ],
        "needs_confirmation": pending.needs_confirmation,
        "doubt": say_doubts(pending.doubts),
        "doubt_codes": [d.kind.value for d in pending.doubts],
        "detected": pending.detected,
        "split": None if pending.split is None else {"part": pending.split[0],
                                                     "of": pending.split[1]},
        "reoffered": pending.reoffered,
        # laid in two spells (or joined by players): "Two turns" parts it
        "two_spells": bool(pending.after_pause),
        "key": pending.key,
        "start": start,
        # tiles of a start laid out already, which the camera missed in the first picture
        "start_lacking": start and bool(table.start),
        "bonus": move_bonus(table.squares, cells) if verdict.legal else 0,
        "beside_aside": [list(c) for c in beside_aside(pending.tiles, aside)],
    }


def camera_board_json(game: Game, view: tuple[Sequence[Placed], Sequence[Placed]] | None
                      ) -> dict[str, Any] | None:
    """What the camera sees next to what the game holds, for "the table is right".

    ``extra`` lies on the table but nowhere in the game (nor set aside); ``missing`` is in
    the game (confirmed or waiting) but not on the table; ``relabelled`` are the camera's
    readings of tiles the game holds as another tile, each with the game's tile as ``held``
    (not those players overruled, :meth:`Game.disputed`); ``held`` is the game's board with
    the moves waiting, as the camera should see it. None before the camera's first look.
    """
    if view is None:
        return None
    tiles, off_board = view
    held = game.expected_board()
    extra = [p for p in tiles if (p[0], p[1]) not in held]
    relabelled = [(x, y, read, was)
                  for (x, y), (read, was) in sorted(game.disputed(tiles).items())]
    missing = game.unseen(tiles)
    return {"tiles": placed_json(tiles), "off_board": placed_json(off_board),
            "held": placed_json(held.placed()),
            "extra": placed_json(extra), "missing": placed_json(missing),
            "relabelled": [dict(tile_json(x, y, read), held=kind_json(was))
                           for x, y, read, was in relabelled],
            "agrees": not extra and not missing and not relabelled,
            "key": camera_key(tiles, held)}


def game_json(game: Game) -> dict[str, Any]:
    """Everything about one game: ``GET /api/games/<id>/state``."""
    table, aside = game.table, game.set_aside()
    return {
        "id": game.row.id,
        "created": game.row.created.isoformat(),
        "colours": list(table.colours),
        "players": [
            {"seat": seat, "name": name, "score": table.scores[seat],
             "bonus": table.bonus[seat], "total": table.totals[seat],
             "qwirkles": table.qwirkles[seat]}
            for seat, name in enumerate(table.players)
        ],
        "current_player": None if table.ended else table.current_player,
        "ended": table.ended,
        "went_out": table.went_out,
        "turns": [
            dict(turn_json(record.turn), id=game.turn_ids[record.index], index=record.index,
                 player=record.player, score=record.score, qwirkles=record.qwirkles,
                 bag_before=table.bag_before(record.index))
            for record in table.turns
        ],
        "pending": pending_json(game.pending, game.table, aside),
        "ignored": placed_json(aside),
        "more_pending": max(0, len(game.queue) - 1),
        # the move shown and the next make one legal move: "One turn" joins them
        "joins_next": len(game.queue) > 1 and one_turn(game.table, *game.queue[:2]) is not None,
        "board": placed_json(table.board.placed()),
        "start": placed_json(table.start.placed()),
        "bonus_squares": [[x, y, points] for (x, y), points in sorted(table.squares.items())],
        "bag_size": table.bag_size,
        # the one player who may have gone out (the end dialog offers only them), or None
        "went_out_seat": table.went_out_seat,
        "unseen": [
            dict(kind_json(tile), count=count)
            for tile, count in sorted(table.unseen.items(),
                                      key=lambda kv: (table.colours.index(kv[0].colour),
                                                      SHAPES.index(kv[0].shape)))
        ],
    }


def table_state(game: Game) -> dict[str, Any]:
    """The game plus what is not part of it, as every page, stream and API answer show it:
    the camera, what it sees (for the game at the table), the game now at the table (a page
    showing another one follows it there) and the version (the SSE event id)."""
    store = games()
    at_table = game.row.id == store.current_id()
    return dict(game_json(game), camera=store.camera, current_game=store.current_id(),
                camera_board=camera_board_json(game, store.view) if at_table else None,
                version=store.version(game.row.id))


def sheet_csv(game: Game) -> bytes:
    """The score sheet as a spreadsheet would hold it: a row per round, a column per player.

    A placement is its points, an exchange ``x3``, a pass ``-``; then the bonus and totals.
    UTF-8 with a byte-order mark, without which Excel reads Arabic names and emoji as
    mojibake.
    """
    sheet = score_sheet(game.table)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["round", *(inert(name) for name in sheet.players)])
    for row in sheet.rows:
        writer.writerow([row.round, *(_csv_cell(cell) for cell in row.cells)])
    writer.writerow(["bonus", *sheet.bonus])
    writer.writerow(["total", *sheet.totals])
    writer.writerow(["qwirkles", *sheet.qwirkles])
    return out.getvalue().encode("utf-8-sig")


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert(text: str) -> str:
    """Text a spreadsheet shows as written: one starting like a formula (``=HYPERLINK(...)``)
    gets a leading apostrophe, which the spreadsheet hides."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _csv_cell(cell: Any) -> str:
    if cell is None:
        return ""
    if cell.kind == "place":
        return str(cell.score)
    return f"x{cell.tiles}" if cell.kind == "exchange" else "-"
