"""Simulated games: dealing, first player, turn rules, the two endings, determinism."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from test_engine_rules import board

from engine.board import Board
from engine.movegen import has_legal_move, scored_moves
from engine.selfplay import (
    GameRecord,
    first_player,
    largest_group,
    play_out,
    simulate,
    table_game,
)
from engine.tiles import Tile, full_set


def hand(codes: str) -> list[Tile]:
    return [Tile.from_code(c) for c in codes.split()]


def test_largest_group_ignores_duplicates() -> None:
    assert largest_group(hand("RCi RCi RSq")) == 2
    assert largest_group(hand("RCi BCi GCi RSq YSt OSt")) == 3
    assert largest_group(hand("RCi BSq GDi YCl OCr PSt")) == 1
    assert largest_group([]) == 0


def test_first_player_has_the_largest_group_ties_by_order() -> None:
    hands = [hand("RCi RSq"), hand("BCi GCi YCi"), hand("RSt OSt PSt")]
    assert first_player(hands) == 1
    assert first_player(hands, order=[2, 0, 1]) == 2
    assert first_player(hands, order=[1, 2, 0]) == 1
    with pytest.raises(ValueError, match="order must list each of the 3 seats once"):
        first_player(hands, order=[0, 0, 1])


def test_same_seed_same_game_and_seeds_differ() -> None:
    assert simulate(3, 11) == simulate(3, 11)
    assert simulate(2, 11, "random") == simulate(2, 11, "random")
    assert simulate(2, 11).moves != simulate(2, 12).moves


@pytest.mark.parametrize(("players", "strategy", "seed"), [(2, "greedy", 1), (6, "random", 2)])
def test_every_turn_follows_the_rules(players: int, strategy: str, seed: int) -> None:
    record = simulate(players, seed, strategy)
    b = Board()
    first = record.moves[0]
    # Nobody's hand changes before their first turn, so the first round shows the deal.
    dealt = {m.player: m.hand for m in record.moves[:players]}
    assert first.player == first_player([dealt[p] for p in range(players)])
    assert len(first.tiles) == largest_group(first.hand)
    for move in record.moves:
        assert len(move.hand) <= 6
        if move.kind == "place":
            assert not Counter(t for _, _, t in move.tiles) - Counter(move.hand)
            if strategy == "greedy":
                assert move.score == max(s for s, _ in scored_moves(b, move.hand))
            b = b.with_tiles(move.tiles)
        else:  # exchange or pass only when nothing can be placed
            assert not has_legal_move(b, move.hand)
    # The table model re-validates every placement, exchange size and pass.
    game = table_game(record)
    assert game.totals == record.scores


def test_tiles_are_conserved() -> None:
    for players, seed in ((2, 3), (5, 4)):
        record = simulate(players, seed, "random")
        on_board = Counter(t for m in record.moves for _, _, t in m.tiles)
        in_hands = Counter(t for h in record.final_hands for t in h)
        assert on_board + in_hands + Counter(record.bag) == Counter(full_set())


def test_going_out_ends_the_game_with_six_more() -> None:
    record = simulate(2, 5)
    assert record.end == "went_out"
    last = record.moves[-1]
    assert record.final_hands[last.player] == () and record.bag == ()
    totals = [0] * record.players
    for m in record.moves:
        totals[m.player] += m.score
    totals[last.player] += 6
    assert list(record.scores) == totals


def test_a_player_who_cannot_place_passes_when_the_bag_is_empty() -> None:
    record = play_out(board("0,0,RCi"), [hand("BSq"), hand("RSq")], [], 0, random.Random(0))
    assert [(m.player, m.kind, m.score) for m in record.moves] == [(0, "pass", 0), (1, "place", 2)]
    assert record.end == "went_out"
    assert record.scores == (0, 8)


def test_stalemate_when_the_bag_is_empty_and_nobody_can_place() -> None:
    record = play_out(board("0,0,RCi"), [hand("BSq"), hand("GDi")], [], 1, random.Random(0))
    assert [(m.player, m.kind) for m in record.moves] == [(1, "pass"), (0, "pass")]
    assert record.end == "stalemate"
    assert record.scores == (0, 0)


def test_a_player_who_cannot_place_exchanges_at_most_the_bag() -> None:
    rng = random.Random(0)
    hands = [hand("BSq GDi YSt"), hand("OCl")]
    record = play_out(board("0,0,RCi"), hands, hand("PCr"), 0, rng)
    first = record.moves[0]
    assert (first.kind, first.count) == ("exchange", 1)
    # Nothing anywhere fits the red circle: a round of exchanges ends it as a stalemate.
    assert record.end == "stalemate"
    held = Counter(t for h in record.final_hands for t in h) + Counter(record.bag)
    assert held == Counter(hand("BSq GDi YSt OCl PCr"))
    assert len(record.bag) == 1


def test_record_round_trips_through_its_json_form() -> None:
    record = simulate(2, 8)
    data = record.to_dict()
    assert set(data) == {"seed", "players", "scores", "end", "moves"}
    assert set(data["moves"][0]) == {"player", "kind", "tiles", "score"}
    back = GameRecord.from_dict(data)
    assert back.scores == record.scores
    assert [(m.player, m.kind, m.tiles, m.score) for m in back.moves] == [
        (m.player, m.kind, m.tiles, m.score) for m in record.moves
    ]
    with pytest.raises(ValueError, match="not a game record"):
        GameRecord.from_dict({"seed": 1})


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((1, 0), "players must be 2 to 6, got 1"),
        ((7, 0), "players must be 2 to 6, got 7"),
        ((2, 0, "clever"), "strategy must be one of greedy, random"),
        ((2, "0"), "seed must be an integer"),
    ],
)
def test_bad_calls(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        simulate(*args)
