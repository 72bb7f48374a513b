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
    pixel,
    run,
    scan_adding,
    scan_missing,
    tiles,
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


def test_a_start_tile_the_first_picture_missed_completes_the_start_later(monkeypatch):
    """The scan misses a tile inside a diagonal in the first picture: the 23 tiles are the
    start all the same (the other diagonals place it), and the tile read in the next picture
    is the start's, not part of move 1 (which it made "not in one line", and with no start
    every move after it was scored without its bonus)."""
    game = board_game()
    missed = START[8]
    scan_missing(monkeypatch, game[0].centers[missed[:2]], range(1, 2))
    moves = run(MoveTracker(), photos(game.stills()))
    rest = [p for p in START if p != missed]
    assert as_truth([m for m in moves if m.start], START) == [(frozenset(rest), 0),
                                                               (frozenset([missed]), 0)]
    assert as_truth([m for m in moves if not m.start], BOARD_MOVE_1 + BOARD_MOVE_2) == [
        (frozenset(BOARD_MOVE_1), 6), (frozenset(BOARD_MOVE_2), 8)]


def test_a_move_in_line_with_a_start_tile_read_late_is_flagged(monkeypatch):
    """The start's blue diamond at (6, 1), missed in the first picture, is read beside move
    1's blue row: it is the start's, the row scores it, and the move is flagged, since the
    players have not seen that tile yet."""
    game = board_game()
    scan_missing(monkeypatch, game[0].centers[(6, 1)], range(1, 2))
    moves = run(MoveTracker(), photos(game.stills()[:2]))
    assert [len(m.tiles) for m in moves] == [23, 1, 3] and moves[1].start
    assert as_truth(moves[2:], BOARD_MOVE_1) == [(frozenset(BOARD_MOVE_1), 6)]
    assert moves[2].needs_confirmation and "from a move not yet confirmed" in moves[2].reason


def test_a_start_with_a_tile_beside_it_is_the_start_and_the_tile_a_flagged_move(monkeypatch):
    """The first picture also reads a tile at (5, 1), beside the start (one laid early, or
    read where there is none): the rest is the start all the same, with its bonus squares,
    and the tile is a move of its own, flagged, not a reason to read the start as a heap."""
    game = board_game()
    scan_adding(monkeypatch, pixel(game, 0, (5.0, 1.0)), range(1, 2), Tile("blue", "circle"))
    tracker = MoveTracker()
    moves = run(tracker, photos(game.stills()[:1]))
    assert [len(m.tiles) for m in moves] == [24, 1] and moves[0].start
    assert as_truth(moves[:1], START) == [(frozenset(START), 0)]
    assert moves[1].needs_confirmation and "may be a tile" in moves[1].reason
    assert moves[1].tiles[0][2] == Tile("blue", "circle") and len(tracker.bonus) == 48


def test_a_game_opened_over_the_start_is_offered_it_as_the_start_with_no_doubt():
    """The camera saw the start before any game was opened: the new game's empty board is
    offered the start, as its start, and not as tiles "still on the table but in no game"."""
    tracker = MoveTracker()
    run(tracker, photos(board_game().stills()[:1]))
    offers = tracker.accept(Board())
    assert len(offers) == 1 and offers[0].start and offers[0].reoffered
    assert as_truth(offers, START) == [(frozenset(START), 0)]
    assert offers[0].doubts == () and not offers[0].needs_confirmation


def test_a_board_game_in_progress_first_seen_is_its_start_then_its_turns():
    """The camera's first picture shows the board after both moves (the laptop restarted
    mid-game): the start is the start, and the tiles laid on it a move, flagged; a game
    opened over that table is offered both. The diagonals that moves were laid on were taken
    for tiles off the board, the other two for a start."""
    tracker = MoveTracker()
    moves = run(tracker, photos(board_game().stills()[2:]))
    assert tracker.view().off_board == ()
    assert [m.start for m in moves] == [True, False]
    assert as_truth(moves[:1], START) == [(frozenset(START), 0)]
    # both moves lie in one row through a start tile: one legal move to the camera (a row
    # of five, a column of two, a "1" and a "2"), flagged
    truth = START + BOARD_MOVE_1 + BOARD_MOVE_2
    assert as_truth(moves[1:], truth) == [(frozenset(BOARD_MOVE_1 + BOARD_MOVE_2),
                                           5 + 2 + 1 + 2)]
    assert moves[1].needs_confirmation and "did not see these tiles being laid" in moves[1].reason
    # a game opened over that table is offered the same
    offers = tracker.accept(Board())
    assert [m.start for m in offers] == [True, False]
    assert [tiles for tiles, _ in as_truth(offers, truth)] == [
        frozenset(START), frozenset(BOARD_MOVE_1 + BOARD_MOVE_2)]
    assert offers[1].needs_confirmation  # (the app scores it, with its bonus squares)


def test_a_start_with_a_rack_in_view_is_the_start():
    """A player's rack of six tiles lies below the printed board, two cells from it, in the
    first picture: the start is the start (the rack was taken for the board, and the
    diagonals for tiles off it), and move 1 scores its bonus."""
    rack = tiles(*((x, 17, colour, "square") for x, colour in zip(
        range(2, 8), ("red", "orange", "yellow", "green", "blue", "purple"), strict=True)))
    game = board_game(aside=rack)
    moves = run(MoveTracker(), photos(game.stills()[:2]))
    assert as_truth(moves[:1], START) == [(frozenset(START), 0)] and moves[0].start
    assert as_truth(moves[1:], BOARD_MOVE_1) == [(frozenset(BOARD_MOVE_1), 6)]


def test_real_board_games_are_followed_with_their_bonus(real_data, capsys):
    for game, least in (("connect-1", 20), ("connect-2", 20), ("oblique-2", 19)):
        start, tally = _replayed(real_data / game, capsys)
        assert len(start) == 24
        assert tally.exact >= least and tally.wrong_unflagged == 0, tally.notes


def test_a_real_start_with_a_tile_hidden_in_its_first_photo_is_followed(real_data, capsys,
                                                                        tmp_path):
    """connect-1 with one start tile painted over in its first photo, as the table shows
    round it: the start is still the start, the tile joins it when the next photo shows it,
    and every move is read and scored as played."""
    import shutil

    import cv2
    import numpy as np

    from vision.scan import scan_image

    folder = tmp_path / "connect-1"
    shutil.copytree(real_data / "connect-1", folder)
    first = cv2.imread(str(folder / "00.jpg"))
    x, y = np.round(scan_image(first).tiles[5].center).astype(int)
    r = 36  # a tile is about 65 px wide
    ring = np.concatenate([first[y - r - 12:y - r - 4, x - r:x + r].reshape(-1, 3),
                           first[y + r + 4:y + r + 12, x - r:x + r].reshape(-1, 3)])
    first[y - r:y + r, x - r:x + r] = np.median(ring, axis=0)
    cv2.imwrite(str(folder / "00.jpg"), first)
    assert len(scan_image(first).tiles) == 23
    start, tally = _replayed(folder, capsys)
    assert len(start) == 24
    assert tally.exact == 20 and tally.wrong_unflagged == 0, tally.notes


def _replayed(folder, capsys):
    """`qwirkle replay --json` of a real game's photos: its start, and its moves against the
    truth."""
    assert cli.main(["replay", str(folder), "--json",
                     "--colours", "red,orange,yellow,green,blue,white"]) == 0
    out = json.loads(capsys.readouterr().out)
    read = [DetectedMove(tuple((x, y, Tile(c, s)) for x, y, c, s in m["tiles"]),
                         m["score"], m["needs_confirmation"]) for m in out["moves"]]
    return out["start"], compare(read, real_truth(folder), folder.name)


def test_every_real_board_game_picture_is_read_whole_by_a_game_opened_over_it(real_data):
    """A game opened over any picture of the real board games (the start, then a board game
    in progress) reads every tile on the board and none off it; 39 of the 60 pictures lost
    tiles off the board, the start's two diagonals with turns laid on them."""
    from vision.imagefile import load_image
    from vision.reader import PositionReader

    for game in ("connect-1", "connect-2", "oblique-2"):
        truth = json.loads((real_data / game / "game.json").read_text())
        laid = {truth["images"][0]: len(truth["preplaced"])}
        for move in truth["moves"]:
            laid[move["image"]] = max(laid.values()) + len(move["tiles"])
        for image, count in laid.items():
            reader = PositionReader(("red", "orange", "yellow", "green", "blue", "white"))
            position = reader.read(load_image(real_data / game / image), Board(), ())
            assert position is not None, (game, image)
            assert (len(position.registration.new), len(position.off_board)) == (count, 0), (
                game, image)
