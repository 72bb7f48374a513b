"""Property tests over random and greedy games, against an independent recount.

``recount`` below is a second, deliberately naive statement of the rules (sets of cells,
no shared code with engine.rules) used as the oracle for legality and scores.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board, Cell, Placed
from engine.movegen import legal_moves
from engine.rules import IllegalMove, check_move
from engine.selfplay import GameRecord, simulate, table_game
from engine.table import Exchange, Place, TableGame
from engine.tiles import Tile, full_set, tile_kinds

FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SOME = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def recount(cells: dict[Cell, Tile], move: list[Placed]) -> int | None:
    """The score of ``move`` on a board given as {cell: tile}, or None if it is illegal."""
    placed = [(x, y) for x, y, _ in move]
    if not move or len(set(placed)) < len(placed) or any(c in cells for c in placed):
        return None
    after = {**cells, **{(x, y): t for x, y, t in move}}
    xs, ys = {x for x, _ in placed}, {y for _, y in placed}
    if len(xs) > 1 and len(ys) > 1:
        return None
    span = [(x, min(ys) + i) for x in xs for i in range(max(ys) - min(ys) + 1)] if len(xs) == 1 \
        else [(min(xs) + i, y) for y in ys for i in range(max(xs) - min(xs) + 1)]
    if any(c not in after for c in span):
        return None
    if cells and not any((x + dx, y + dy) in cells
                         for x, y in placed for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0))):
        return None
    lines: set[frozenset[Cell]] = set()
    for x, y in placed:
        for dx, dy in ((1, 0), (0, 1)):
            run = {(x, y)}
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while (cx, cy) in after:
                    run.add((cx, cy))
                    cx, cy = cx + sign * dx, cy + sign * dy
            if len(run) > 1:
                lines.add(frozenset(run))
    for line in lines:
        tiles = [after[c] for c in line]
        if len(tiles) > 6 or len(set(tiles)) < len(tiles):
            return None
        if len({t.colour for t in tiles}) > 1 and len({t.shape for t in tiles}) > 1:
            return None
    return sum(len(line) + (6 if len(line) == 6 else 0) for line in lines) or 1


@lru_cache(maxsize=64)
def game(players: int, seed: int, strategy: str) -> GameRecord:
    return simulate(players, seed, strategy)


games = st.builds(
    game, st.integers(2, 6), st.integers(0, 10_000), st.sampled_from(["greedy", "random"])
)


@FEW
@given(games)
def test_the_108_tiles_are_conserved(record: GameRecord) -> None:
    on_board = Counter(t for m in record.moves for _, _, t in m.tiles)
    in_hands = Counter(t for h in record.final_hands for t in h)
    assert on_board + in_hands + Counter(record.bag) == Counter(full_set())
    assert sum(on_board.values()) == len({(x, y) for m in record.moves for x, y, _ in m.tiles})


@FEW
@given(games)
def test_scores_equal_a_recount_from_the_final_board_and_move_order(record: GameRecord) -> None:
    cells: dict[Cell, Tile] = {}
    totals = [0] * record.players
    for move in record.moves:
        if move.kind == "place":
            assert recount(cells, list(move.tiles)) == move.score
            cells.update({(x, y): t for x, y, t in move.tiles})
        else:
            assert move.score == 0 and move.tiles == ()
        totals[move.player] += move.score
    if record.end == "went_out":
        totals[record.moves[-1].player] += 6
    assert tuple(totals) == record.scores
    # The final board alone is consistent: lifting any tile and putting it back is legal.
    for (x, y), tile in list(cells.items())[:: max(1, len(cells) // 10)]:
        rest = {c: t for c, t in cells.items() if c != (x, y)}
        assert recount(rest, [(x, y, tile)]) is not None


@st.composite
def attempts(draw: st.DrawFn) -> tuple[Board, list[Placed]]:
    """A position from a real game and a placement attempt, legal or not, near its tiles."""
    record = draw(games)
    cut = draw(st.integers(0, len(record.moves)))
    board = Board()
    for m in record.moves[:cut]:
        board = board.with_tiles(m.tiles)
    x0, y0, x1, y1 = board.bounds() or (0, 0, 0, 0)
    kinds = tile_kinds()
    if draw(st.booleans()):
        hand = draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=6))
        moves = legal_moves(board, hand)
        if moves:
            return board, list(draw(st.sampled_from(moves)))
    cell = st.tuples(st.integers(x0 - 2, x1 + 2), st.integers(y0 - 2, y1 + 2))
    items = draw(st.lists(st.tuples(cell, st.sampled_from(kinds)), min_size=0, max_size=4))
    return board, [(x, y, t) for (x, y), t in items]


@SOME
@given(attempts())
def test_no_illegal_placement_is_ever_accepted(attempt: tuple[Board, list[Placed]]) -> None:
    board, move = attempt
    expected = recount({(x, y): t for x, y, t in board.placed()}, move)
    check = check_move(board, move)
    assert check.legal == (expected is not None), check.reason
    assert check.score == expected


@FEW
@given(games, st.data())
def test_corrections_rescore_consistently(record: GameRecord, data: st.DataObject) -> None:
    played = table_game(record)
    turns = [t.turn for t in played.turns]
    index = data.draw(st.integers(0, len(turns) - 1))
    change = data.draw(st.sampled_from(["void", "exchange", "same"]))
    if change == "void":
        corrected = turns[:index] + turns[index + 1:]
    else:
        corrected = list(turns)
        corrected[index] = Exchange(1) if change == "exchange" else turns[index]
    names = played.players
    try:
        rebuilt = TableGame.from_turns(names, corrected, played.first).finish(played.went_out)
    except IllegalMove:
        rebuilt = None
    try:
        fixed = played.void(index) if change == "void" else played.replace(index, corrected[index])
    except IllegalMove:
        assert rebuilt is None  # refused exactly when the corrected list is not a legal game
        return
    assert rebuilt is not None and fixed.totals == rebuilt.totals
    # Each turn's score is the recount of its placement on the corrected board.
    cells: dict[Cell, Tile] = {}
    for turn in fixed.turns:
        if isinstance(turn.turn, Place):
            assert recount(cells, list(turn.turn.tiles)) == turn.score
            cells.update({(x, y): t for x, y, t in turn.turn.tiles})
    if change == "same":
        assert fixed.totals == played.totals == record.scores
