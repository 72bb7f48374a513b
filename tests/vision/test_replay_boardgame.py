"""The board game followed by `qwirkle replay`: its start is no move, its bonus squares score."""

from __future__ import annotations

import json
from dataclasses import replace

from engine.board import Board
from engine.boardgame import bonus_squares, move_bonus
from engine.rules import check_move
from engine.tiles import COLOURS, SHAPES, Tile
from tests.replay_scenes import as_truth, photos, tiles
from vision.decode import DetectedMove
from vision.evaluate.replay import compare, real_truth
from vision.synth.footage import GameRenders, GameScript
from vision.tracker import MoveTracker
from webui import cli

# four quarters of a printed board, each with a diagonal of six from top right to bottom left;
# the first two tiles of the first diagonal, at (6, 1) and (5, 2), are a blue diamond and a
# red circle, the others any kinds
CELLS = [(qx + 6 - i, qy + 1 + i) for qx in (0, 8) for qy in (0, 8) for i in range(6)]
KINDS = [Tile("blue", "diamond"), Tile("red", "circle"),
         *(Tile(COLOURS[i % 6], SHAPES[i * 5 % 6]) for i in range(2, 24))]
START = [(x, y, tile) for (x, y), tile in zip(CELLS, KINDS, strict=True)]
# blue beside the blue diamond, the last on (9, 1): a "2", the next quarter's corner
MOVE_1 = tiles((7, 1, "blue", "square"), (8, 1, "blue", "star"), (9, 1, "blue", "clover"))
# on (5, 1), a "1" between the diagonal's first two tiles: a row of five, a column of two
MOVE_2 = tiles((5, 1, "blue", "circle"))


def test_the_start_is_no_move_and_the_bonus_squares_score():
    board, bonus, scores = Board.from_placed(START), bonus_squares(CELLS), []
    for move in (MOVE_1, MOVE_2):
        check = check_move(board, move)
        scores.append(check.score + move_bonus(bonus, [(x, y) for x, y, _ in move]))
        board = board.with_tiles(move)
    assert scores == [4 + 2, 5 + 2 + 1]
    script = GameScript([START, START + MOVE_1, START + MOVE_1 + MOVE_2],
                        [(tuple(MOVE_1), 6), (tuple(MOVE_2), 8)])
    renders = GameRenders(script, seed=3)
    renders.style = replace(renders.style, table="board", board_origin=(0, 0))
    tracker = MoveTracker()
    moves = [move for frame in photos(renders.stills()) for move in tracker.feed(frame)]
    assert [len(m.tiles) for m in moves if m.start] == [24]
    read = [m for m in moves if not m.start]
    # (flags may come: the renderer draws each position's bonus squares afresh)
    assert as_truth(read, MOVE_1 + MOVE_2) == [(frozenset(MOVE_1), 6), (frozenset(MOVE_2), 8)]


def test_real_board_games_are_followed_with_their_bonus(real_data, capsys):
    for game, least in (("connect-1", 20), ("connect-2", 18)):
        folder = real_data / game
        assert cli.main(["replay", str(folder), "--json",
                         "--colours", "red,orange,yellow,green,blue,white"]) == 0
        out = json.loads(capsys.readouterr().out)
        spec = json.loads((folder / "game.json").read_text())
        assert len(out["start"]) == len(spec["preplaced"])
        read = [DetectedMove(tuple((x, y, Tile(c, s)) for x, y, c, s in m["tiles"]),
                             m["score"], m["needs_confirmation"]) for m in out["moves"]]
        tally = compare(read, real_truth(folder), game)
        assert tally.exact >= least and tally.wrong_unflagged == 0, tally.notes
