"""The score sheet: what players would write on paper, derived from a :class:`TableGame`.

One row per round (each player once, starting with the first player), one column per
player, then the end bonus and totals. It is recomputed from the game rather than kept up
to date, so a correction to any turn shows up on the sheet without extra bookkeeping.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.table import Exchange, Pass, Place, TableGame, Turn


@dataclass(frozen=True, slots=True)
class SheetCell:
    """One turn on the sheet."""

    turn: int
    """Index of the turn in the game (0-based)."""
    kind: str
    """"place", "exchange" or "pass"."""
    score: int
    qwirkles: int
    tiles: int
    """Tiles placed, or tiles exchanged."""


@dataclass(frozen=True, slots=True)
class SheetRow:
    round: int
    """Round number, from 1."""
    cells: tuple[SheetCell | None, ...]
    """Indexed by player; None where that player has not played this round yet."""


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    players: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    bonus: tuple[int, ...]
    totals: tuple[int, ...]
    qwirkles: tuple[int, ...]
    ended: bool
    went_out: int | None


def turn_kind(turn: Turn) -> str:
    """The kind name used on sheets and in game records."""
    if isinstance(turn, Place):
        return "place"
    if isinstance(turn, Exchange):
        return "exchange"
    if isinstance(turn, Pass):
        return "pass"
    raise TypeError(f"a turn is Place, Exchange or Pass, got {turn!r}")


def score_sheet(game: TableGame) -> ScoreSheet:
    """The sheet for this game: rounds x players, bonus, totals and Qwirkle counts."""
    if not isinstance(game, TableGame):
        raise TypeError(f"score_sheet needs a TableGame, got {type(game).__name__}")
    n = len(game.players)
    rows = []
    for start in range(0, len(game.turns), n):
        cells: list[SheetCell | None] = [None] * n
        for record in game.turns[start:start + n]:
            turn = record.turn
            if isinstance(turn, Place):
                count = len(turn.tiles)
            else:
                count = turn.count if isinstance(turn, Exchange) else 0
            cells[record.player] = SheetCell(
                record.index, turn_kind(turn), record.score, record.qwirkles, count
            )
        rows.append(SheetRow(start // n + 1, tuple(cells)))
    return ScoreSheet(
        players=game.players, rows=tuple(rows), bonus=game.bonus, totals=game.totals,
        qwirkles=game.qwirkles, ended=game.ended, went_out=game.went_out,
    )


def render_sheet(sheet: ScoreSheet) -> str:
    """The sheet as a plain-text table, for the terminal (``qwirkle simulate --sheet``).

    A placement shows its score (``*`` per Qwirkle), an exchange ``x3``, a pass ``-``.

    >>> from engine.tiles import Tile
    >>> game = TableGame.new(["Ann", "Bob"]).play(Place(((0, 0, Tile("red", "star")),)))
    >>> print(render_sheet(score_sheet(game.play(Exchange(2)))))
      round    Ann    Bob
          1      1     x2
      bonus      0      0
      total      1      0
    qwirkle      0      0
    """
    width = max(6, *(len(p) for p in sheet.players))

    def row(label: str, values: list[str]) -> str:
        return f"{label:>7} " + " ".join(f"{v:>{width}}" for v in values)

    lines = [row("round", list(sheet.players))]
    for sheet_row in sheet.rows:
        lines.append(row(str(sheet_row.round), [_cell_text(c) for c in sheet_row.cells]))
    lines.append(row("bonus", [str(b) for b in sheet.bonus]))
    lines.append(row("total", [str(t) for t in sheet.totals]))
    lines.append(row("qwirkle", [str(q) for q in sheet.qwirkles]))
    return "\n".join(lines)


def _cell_text(cell: SheetCell | None) -> str:
    if cell is None:
        return ""
    if cell.kind == "place":
        return f"{cell.score}{'*' * cell.qwirkles}"
    if cell.kind == "exchange":
        return f"x{cell.tiles}"
    return "-"
