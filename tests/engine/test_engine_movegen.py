"""Move generation: complete (checked against brute force), exact scores, no duplicates."""

from __future__ import annotations

import itertools
import random

import pytest
from test_engine_rules import SAMPLE_GAME, board, tiles

from engine.board import Board
from engine.movegen import best_move, has_legal_move, legal_moves, scored_moves
from engine.rules import check_move
from engine.selfplay import simulate
from engine.tiles import Tile, full_set


def hand(codes: str) -> list[Tile]:
    return [Tile.from_code(c) for c in codes.split()]


def as_sets(moves: list) -> set[frozenset]:
    return {frozenset(m) for m in moves}


def brute_force(b: Board, held: list[Tile]) -> dict[frozenset, int]:
    """Every legal move, found by trying every ordered choice of distinct tiles at every
    start cell and direction near the board, and asking the rules module."""
    kinds = list(dict.fromkeys(held))
    box = b.bounds() or (0, 0, 0, 0)
    m = len(kinds)
    found: dict[frozenset, int] = {}
    starts = [(0, 0)] if not len(b) else [
        (x, y) for x in range(box[0] - m, box[2] + m + 1) for y in range(box[1] - m, box[3] + m + 1)
    ]
    for size in range(1, m + 1):
        for perm in itertools.permutations(kinds, size):
            for (sx, sy), (dx, dy) in itertools.product(starts, ((1, 0), (0, 1))):
                if (sx, sy) in b or (size == 1 and dy) or (not len(b) and dy):
                    continue
                cells, x, y = [], sx, sy
                while len(cells) < size:
                    if (x, y) not in b:
                        cells.append((x, y))
                    x, y = x + dx, y + dy
                move = tuple((cx, cy, t) for (cx, cy), t in zip(cells, perm, strict=True))
                check = check_move(b, move)
                if check.legal:
                    found[frozenset(move)] = check.score  # type: ignore[assignment]
    return found


def positions(count: int, hand_size: int, seed: int) -> list[tuple[Board, list[Tile]]]:
    """Boards from real (random-strategy) games cut at random points, with random hands."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        record = simulate(2, seed * 1000 + i, "random")
        b = Board()
        for m in record.moves[: rng.randrange(len(record.moves))]:
            b = b.with_tiles(m.tiles)
        out.append((b, rng.sample(full_set(), hand_size)))
    return out


def test_agrees_with_brute_force_on_real_positions() -> None:
    for b, held in positions(6, 3, seed=1):
        got = scored_moves(b, held)
        assert len(got) == len(as_sets([m for _, m in got])), "a move was listed twice"
        assert {frozenset(m): s for s, m in got} == brute_force(b, held), b.to_text()


def test_agrees_with_brute_force_on_a_same_colour_hand() -> None:
    # Related tiles make the many multi-tile moves that random hands rarely have.
    b = Board()
    for _, move, _ in SAMPLE_GAME[:6]:
        b = b.with_tiles(tiles(move))
    held = hand("YCl YCr YSt YDi")
    got = {frozenset(m): s for s, m in scored_moves(b, held)}
    assert got == brute_force(b, held)
    assert len(got) > 20


def test_opening_moves_are_every_line_from_the_hand_in_row_zero() -> None:
    held = hand("RCi RSq BCi GSt")
    got = {frozenset(m): s for s, m in scored_moves(Board(), held)}
    assert got == brute_force(Board(), held)
    # 4 singles; pairs: RCi-RSq, RCi-BCi (2 orders each); triples: none share one attribute.
    assert len(got) == 4 + 4
    assert all(x >= 0 and y == 0 for m in got for x, y, _ in m)


def test_extends_a_line_at_both_ends_at_once() -> None:
    moves = as_sets(legal_moves(board("0,0,RCi 1,0,RSq"), hand("RDi RSt")))
    assert frozenset(tiles("-1,0,RDi 2,0,RSt")) in moves
    assert frozenset(tiles("-1,0,RSt 2,0,RDi")) in moves


def test_fills_a_gap_joining_two_lines() -> None:
    b = Board()
    for _, move, _ in SAMPLE_GAME[:6]:  # through step f
        b = b.with_tiles(tiles(move))
    scored = {frozenset(m): s for s, m in scored_moves(b, hand("GSq"))}
    assert scored[frozenset(tiles("1,2,GSq"))] == 6


def test_builds_a_new_line_crossing_existing_ones() -> None:
    scored = {frozenset(m): s for s, m in scored_moves(board("0,0,RCi 1,0,RSq"), hand("BCi BSq"))}
    assert scored[frozenset(tiles("0,1,BCi 1,1,BSq"))] == 6
    assert scored[frozenset(tiles("0,-1,BCi 1,-1,BSq"))] == 6


def test_every_listed_move_is_legal_with_the_listed_score() -> None:
    for b, held in positions(4, 6, seed=2):
        for points, move in scored_moves(b, held):
            assert check_move(b, move).score == points
        assert has_legal_move(b, held) == bool(legal_moves(b, held))


def test_copies_in_the_hand_add_no_moves() -> None:
    b = board("0,0,RCi 1,0,RSq")
    assert legal_moves(b, hand("RDi RDi RSt")) == legal_moves(b, hand("RDi RSt"))


def test_best_move_is_a_highest_scoring_move() -> None:
    b = board("0,0,RCi 1,0,RSq 2,0,RDi 3,0,RCl")
    points, move = best_move(b, hand("RCr RSt BCi"))  # type: ignore[misc]
    assert points == 12 and len(move) == 2
    assert max(s for s, _ in scored_moves(b, hand("RCr RSt BCi"))) == 12
    points, move = best_move(b, hand("RCr RSt"), keep=lambda m: len(m) == 1)  # type: ignore[misc]
    assert points == 5 and len(move) == 1


def test_empty_hand_and_empty_board() -> None:
    b = board("0,0,RCi 1,0,RSq")
    assert legal_moves(b, []) == []
    assert best_move(b, []) is None
    assert not has_legal_move(b, [])
    assert has_legal_move(Board(), hand("RCi"))


def test_no_move_for_tiles_matching_nothing_around() -> None:
    # A lone red circle: a blue square shares nothing with it.
    b = board("0,0,RCi")
    assert legal_moves(b, hand("BSq GDi")) == []
    assert not has_legal_move(b, hand("BSq GDi"))


@pytest.mark.parametrize(
    ("b", "held", "error", "message"),
    [
        (Board(), hand("RCi") * 7, ValueError, "a hand holds at most 6 tiles, got 7"),
        (Board(), ["RCi"], TypeError, "hand must hold Tile values"),
        (Board(), "RCi", TypeError, "hand must be a sequence of Tile"),
        ("board", hand("RCi"), TypeError, "board must be a Board"),
    ],
)
def test_bad_calls(b: object, held: object, error: type, message: str) -> None:
    for function in (legal_moves, scored_moves, has_legal_move, best_move):
        with pytest.raises(error, match=message):
            function(b, held)  # type: ignore[operator]
