"""An arm resting at the frame edge beside a board that meets that same edge, through the
whole live pipeline: the tiles' bounding box covers where the arm crosses the edge, but no
tile lies near it, so the gate must still see an arm and wait for it to leave."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.board import Board
from engine.rules import check_move
from engine.tiles import COLOURS, SHAPES, Tile
from vision.evaluate.replay import compare
from vision.source import Frame
from vision.synth.footage import HARDEST_STYLE, GameRenders, GameScript, settle_times, video_frames
from vision.synth.scene import View
from vision.tracker import MoveTracker

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

SEED = 3
PITCH_PX = 55.0
ROW = [(x, 5, Tile(colour, SHAPES[-1])) for x, colour in enumerate(COLOURS)]
"""Six stars in a row, the first move ..."""
UP = [(0, y, Tile("red", SHAPES[y])) for y in (4, 3, 2)]
RIM = [(0, y, Tile("red", SHAPES[y])) for y in (1, 0)]
"""... a column up from its first tile, in two moves, to the top rim of the picture: the
tiles' bounding box (and two cells round it) then spans the top edge above the row, where
the resting arm will cross it. (Laid in one move, the column would be a big change from
the edge away from any tile the gate knows of: an arm.)"""
LAST = [(5, 6, Tile(COLOURS[-1], SHAPES[0]))]
"""The move whose arm rests, laid below the row's end."""


def _script() -> GameScript:
    positions, moves, board = [[]], [], Board()
    for move in (ROW, UP, RIM, LAST):
        check = check_move(board, move)
        assert check.legal
        board = board.with_tiles(move)
        positions.append(positions[-1] + move)
        moves.append((tuple(move), check.score))
    return GameScript(positions, moves)


@pytest.fixture(scope="module")
def played():
    # overhead, the lattice's -y up the picture; the column's first tile half a cell from the rim
    view = View(elevation=90.0, azimuth=90.0, roll=0.0, distance=30.0, pitch_px=PITCH_PX,
                target=(2.5, 6.0), size=(960, 720))
    renders = GameRenders(_script(), SEED, view=view)
    final = renders[len(renders) - 1].centers
    top, beside = final[0, 0], final[LAST[0][:2]]
    assert top[1] < PITCH_PX  # the board meets the top edge ...
    # ... and the arm crosses that edge above the row's end, inside the tiles' box (two cells
    # round) but more than four cells from any tile
    entry = (beside[0] / 960, 0.0)
    style = replace(HARDEST_STYLE, empty_reach_every=0, light_change_at=None, knock_at=None,
                    outage_at=None, rest_at=4, rest_seconds=5.0, rest_entry=entry)
    assert min(abs(x - beside[0]) + y for x, y in final.values()) > 4 * PITCH_PX
    tracker = MoveTracker()
    reports = []
    for image, t in video_frames(renders.stills(), style, SEED, renders.target):
        reports += [(t, move) for move in tracker.feed(Frame(image, t, f"{t:.1f}s"))]
    truth = [(frozenset(tiles), score) for tiles, score in renders.script.moves]
    tally = compare(tracker.settled([move for _, move in reports]), truth, "rim")
    return reports, tally, settle_times(len(renders), style, SEED), style


def test_every_move_is_read(played):
    _, tally, _, _ = played
    assert tally.exact == tally.truth == 4, tally.notes


def test_the_resting_arm_holds_the_move_until_it_leaves(played):
    reports, _, settles, style = played
    rest_ends = settles[style.rest_at - 1]
    rest_starts = rest_ends - style.rest_seconds
    assert not [t for t, _ in reports if rest_starts <= t < rest_ends]
    last = [t for t, move in reports if move.tiles]
    assert rest_ends <= last[-1] <= rest_ends + 1.0
