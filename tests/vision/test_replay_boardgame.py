"""The board game followed by `qwirkle replay`: its start is no move, its bonus squares score."""

from __future__ import annotations

import json

from replay_scenes import (
    BOARD_MOVE_1,
    BOARD_MOVE_2,
    START,
    START_CELLS,
    as_truth,
    board_game,
    photos,
)

from engine.board import Board
from engine.boardgame import bonus_squares, move_bonus
from engine.rules import check_move
from engine.tiles import Tile
from vision.decode import DetectedMove
from vision.evaluate.replay import compare, real_truth
from vision.tracker import MoveTracker
from webui import cli


def test_the_start_is_no_move_and_the_bonus_squares_score():
    board, bonus, scores = Board.from_placed(START), bonus_squares(START_CELLS), []
    for move in (BOARD_MOVE_1, BOARD_MOVE_2):
        check = check_move(board, move)
        scores.append(check.score + move_bonus(bonus, [(x, y) for x, y, _ in move]))
        board = board.with_tiles(move)
    assert scores == [4 + 2, 5 + 2 + 1]
    tracker = MoveTracker()
    moves = [move for frame in photos(board_game().stills()) for move in tracker.feed(frame)]
    assert [len(m.tiles) for m in moves if m.start] == [24]
    read = [m for m in moves if not m.start]
    # (flags may come: the renderer draws each position's bonus squares afresh)
    assert as_truth(read, BOARD_MOVE_1 + BOARD_MOVE_2) == [(frozenset(BOARD_MOVE_1), 6),
                                                          (frozenset(BOARD_MOVE_2), 8)]


def test_real_board_games_are_followed_with_their_bonus(real_data, capsys):
    for game, least in (("connect-1", 20), ("connect-2", 18), ("oblique-2", 19)):
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
