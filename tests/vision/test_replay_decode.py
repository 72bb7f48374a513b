"""Decoding and registration on exact, hand-made readings: the logic without the camera."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from replay_fakes import guess, reading

from engine.board import Board
from engine.tiles import Tile
from vision.decode import decode_move
from vision.doubts import Doubt, DoubtKind
from vision.register import find_grid_map, register

R, OR, Y = "red", "orange", "yellow"


def board_of(*items: tuple[int, int, str, str]) -> Board:
    return Board.from_placed((x, y, Tile(c, s)) for x, y, c, s in items)


def test_first_move_from_an_empty_table_is_scored():
    move = decode_move(Board(), [((0, 0), guess(R, "star")), ((1, 0), guess(OR, "star"))])
    assert move.tiles == ((0, 0, Tile(R, "star")), (1, 0, Tile(OR, "star")))
    assert move.score == 2
    assert not move.needs_confirmation


def test_legal_labelling_wins_over_a_slightly_more_confident_illegal_one():
    board = board_of((0, 0, R, "star"), (1, 0, R, "circle"))
    # The new tile reads orange-square a little more than red-square; only red is legal.
    new = [((2, 0), guess(OR, "square", 0.52, (R, "square", 0.46)))]
    move = decode_move(board, new)
    assert move.tiles == ((2, 0, Tile(R, "square")),)
    assert move.score == 3
    assert not move.needs_confirmation


def test_no_legal_labelling_is_flagged_with_the_engine_reason():
    board = board_of((0, 0, R, "star"))
    move = decode_move(board, [((1, 0), guess(OR, "circle"))])
    assert move.needs_confirmation and move.score is None
    assert "no reading" in move.reason and "mix" in move.reason


def test_two_legal_readings_of_similar_probability_are_flagged():
    board = board_of((0, 0, R, "star"), (0, 1, R, "circle"))
    # (1, 0) next to red star: red square or red cross are both legal.
    move = decode_move(board, [((1, 0), guess(R, "square", 0.55, (R, "cross", 0.44)))])
    assert move.tiles == ((1, 0, Tile(R, "square")),)
    assert move.needs_confirmation and "unsure" in move.reason


def test_a_legal_reading_the_classifier_barely_believed_is_flagged():
    board = board_of((0, 0, R, "star"))
    move = decode_move(board, [((1, 0), guess(OR, "circle", 0.95, (R, "circle", 0.04)))])
    assert move.tiles == ((1, 0, Tile(R, "circle")),)
    assert move.needs_confirmation and "only red circle" in move.reason


def test_more_than_six_new_tiles_are_two_moves_merged():
    new = [((x, 0), guess(R, s)) for x, s in enumerate(
        ["star", "circle", "square", "diamond", "clover", "cross"])]
    new.append(((0, 1), guess(OR, "star")))
    move = decode_move(Board(), new)
    assert move.needs_confirmation and "more than one move" in move.reason


def test_a_doubted_reading_that_makes_the_move_illegal_is_left_out_and_flagged():
    board = board_of((0, 0, R, "star"), (1, 0, R, "circle"))
    # A hole between tiles read as an orange square off the line, half believed to be a tile.
    hole = replace(guess(OR, "square"), tile_prob=0.97)
    new = [((2, 0), guess(R, "square")), ((3, 1), hole)]
    move = decode_move(board, new)
    assert move.tiles == ((2, 0, Tile(R, "square")),)
    assert move.score == 3
    assert move.left_out == ((3, 1),)
    assert move.needs_confirmation and "orange square at (3, 1) left out" in move.reason


def test_a_sure_tile_is_never_left_out_to_make_a_move_legal():
    board = board_of((0, 0, R, "star"), (1, 0, R, "circle"))
    new = [((2, 0), guess(R, "square")), ((3, 1), guess(OR, "square"))]
    move = decode_move(board, new)
    assert move.score is None and not move.left_out
    assert move.needs_confirmation and "no reading" in move.reason


def test_registration_undoes_a_shift_and_finds_the_new_tile():
    board = board_of((0, 0, R, "star"), (1, 0, OR, "star"), (2, 0, Y, "star"))
    # The new scan chose another origin: everything is 5 cells right and 2 down.
    scan = [reading(5, 2, guess(R, "star")), reading(6, 2, guess(OR, "star")),
            reading(7, 2, guess(Y, "star")), reading(7, 3, guess(Y, "circle"))]
    reg = register(board, scan, scan_homography=None)
    assert [cell for cell, _ in reg.new] == [(2, 1)]
    assert not reg.missing and not reg.problems


def test_registration_undoes_a_quarter_turn():
    board = board_of((0, 0, R, "star"), (1, 0, OR, "star"), (2, 0, Y, "star"), (0, 1, R, "circle"))
    # Turned a quarter: board (x, y) seen at scan (y, -x).
    scan = [reading(y, -x, guess(c, s)) for x, y, c, s in
            [(0, 0, R, "star"), (1, 0, OR, "star"), (2, 0, Y, "star"), (0, 1, R, "circle")]]
    grid_map = find_grid_map({(x, y): t for x, y, t in board.placed()}, scan)
    assert [grid_map.apply(r.x, r.y) for r in scan] == [(0, 0), (1, 0), (2, 0), (0, 1)]


def test_pixel_prior_settles_a_one_tile_board():
    board = board_of((0, 0, R, "star"))
    # Scan origin moved; the camera did not: the prior homography (cell -> pixel) decides.
    prior = np.array([[40.0, 0, 100], [0, 40, 100], [0, 0, 1]])
    scan = [reading(3, 3, guess(R, "star"), origin=(-20.0, -20.0)),
            reading(4, 3, guess(R, "circle"), origin=(-20.0, -20.0))]
    reg = register(board, scan, scan_homography=None, prior=prior)
    assert [cell for cell, _ in reg.new] == [(1, 0)]


def test_vanished_moved_and_relabelled_tiles_are_reported():
    board = board_of((0, 0, R, "star"), (1, 0, OR, "star"), (2, 0, Y, "star"), (3, 0, R, "circle"))
    scan = [reading(0, 0, guess(R, "star")), reading(1, 0, guess(OR, "star")),
            reading(2, 0, guess(Y, "clover", 0.99)),           # relabelled
            reading(3, 1, guess(R, "circle"))]                  # moved down one cell
    reg = register(board, scan, scan_homography=None)
    assert Doubt(DoubtKind.RELABELLED, cell=(2, 0), tile=Tile(Y, "star"),
                 other=Tile(Y, "clover")) in reg.problems
    assert Doubt(DoubtKind.MOVED, cell=(3, 1), tile=Tile(R, "circle")) in reg.problems
    move = decode_move(board, reg.new, reg.problems)
    assert move.needs_confirmation and "no longer seen" in move.reason


def test_a_slightly_unsure_old_tile_is_not_a_relabel():
    board = board_of((0, 0, R, "star"), (1, 0, OR, "star"))
    scan = [reading(0, 0, guess(OR, "star", 0.6, (R, "star", 0.4))),
            reading(1, 0, guess(OR, "star"))]
    reg = register(board, scan, scan_homography=None)
    assert not reg.problems and not reg.new


def test_a_reading_whose_cell_disagrees_with_its_pixels_goes_where_its_pixels_are():
    board = board_of((0, 0, R, "star"), (1, 0, OR, "star"), (2, 0, Y, "star"))
    homography = np.array([[40.0, 0, 100], [0, 40, 100], [0, 0, 1]])  # cell -> pixel
    scan = [reading(0, 0, guess(R, "star")), reading(1, 0, guess(OR, "star")),
            reading(2, 0, guess(Y, "star"))]
    # The scan put the new tile five cells off, though its centre lies on cell (3, 0).
    stray = reading(3, 0, guess(Y, "circle"))
    scan.append(type(stray)(8, 0, stray.guess, stray.center))
    reg = register(board, scan, scan_homography=homography)
    assert [cell for cell, _ in reg.new] == [(3, 0)]


def test_later_pictures_settle_a_label_the_first_move_left_open(monkeypatch):
    import vision.tracker as tracker_module
    from vision import reader
    from vision.scan import ScanResult
    from vision.source import Frame

    looks = iter([
        [reading(0, 0, guess("blue", "circle", 0.52, ("white", "circle", 0.45))),
         reading(1, 0, guess(Y, "circle"))],
        [reading(0, 0, guess("white", "circle", 0.9, ("blue", "circle", 0.08))),
         reading(1, 0, guess(Y, "circle"))],
        [reading(0, 0, guess("white", "circle", 0.9, ("blue", "circle", 0.08))),
         reading(1, 0, guess(Y, "circle"))],
    ])
    monkeypatch.setattr(reader, "scan_image",
                        lambda image, colours, **_: ScanResult(next(looks), None, 0.0))
    tracker = tracker_module.MoveTracker(colours=("red", "orange", "yellow", "green", "blue",
                                                  "white"))
    photo = np.zeros((300, 300, 3), np.uint8)
    moves = [m for i in range(3) for m in tracker.feed(Frame(photo, float(i), f"{i}.jpg", True))]
    assert len(moves) == 1 and moves[0].needs_confirmation  # blue or white: both legal
    assert tracker.board.get((0, 0)) == Tile("white", "circle")
    assert tracker.settled(moves)[0].tiles[0] == (0, 0, Tile("white", "circle"))
    tracker.accept(tracker.board)
    assert tracker.board.get((0, 0)) == Tile("white", "circle")


def test_later_pictures_relabel_two_tiles_that_could_not_change_one_at_a_time():
    from vision.ledger import EvidenceLedger

    # A red clover, and an orange clover first read as yellow beside it; the orange square
    # laid under that clover was read orange but only a yellow square matched the column.
    board = board_of((0, 0, R, "clover"), (1, 0, Y, "clover"), (1, 1, Y, "square"))
    ledger = EvidenceLedger()
    ledger.record((1, 0), Tile(Y, "clover"), guess(Y, "clover", 0.55, (OR, "clover", 0.4)), True)
    ledger.record((1, 1), Tile(Y, "square"), guess(OR, "square", 0.9, (Y, "square", 0.05)), True)
    later = {(1, 0): guess(OR, "clover", 0.9, (Y, "clover", 0.08)),
             (1, 1): guess(OR, "square", 0.9, (Y, "square", 0.05))}
    board, changed = ledger.weigh(later, board)
    assert changed == {(1, 0): (Tile(Y, "clover"), Tile(OR, "clover")),
                       (1, 1): (Tile(Y, "square"), Tile(OR, "square"))}
    assert board.get((1, 0)) == Tile(OR, "clover") and board.get((1, 1)) == Tile(OR, "square")
    # a change that breaks a line is still refused, alone or together
    board, changed = ledger.weigh({(1, 1): guess(Y, "star", 0.99)}, board)
    board, changed = ledger.weigh({(1, 1): guess(Y, "star", 0.99)}, board)
    assert not changed and board.get((1, 1)) == Tile(OR, "square")


def test_a_tile_cut_by_the_pictures_edge_flags_the_move(monkeypatch):
    import vision.tracker as tracker_module
    from vision import reader
    from vision.scan import ScanResult
    from vision.source import Frame

    looks = iter([[reading(0, 0, guess(R, "star")), reading(1, 0, guess(R, "circle"))],
                  [reading(0, 0, guess(R, "star")), reading(1, 0, guess(R, "circle")),
                   reading(2, 0, guess(R, "square"), cut=True)]])
    monkeypatch.setattr(reader, "scan_image",
                        lambda image, colours, **_: ScanResult(next(looks), None, 0.0))
    tracker = tracker_module.MoveTracker()
    photo = np.zeros((300, 300, 3), np.uint8)
    first, second = (tracker.feed(Frame(photo, float(i), f"{i}.jpg", True)) for i in range(2))
    assert len(first) == 1 and not first[0].needs_confirmation
    (move,) = second
    assert move.needs_confirmation and move.score == 3
    assert Doubt(DoubtKind.CUT, cell=(2, 0), tile=Tile(R, "square")) in move.doubts
