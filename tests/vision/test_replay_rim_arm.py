"""A board at the frame edge through the whole live pipeline.

An arm resting at the frame edge beside a board that meets that same edge: the tiles'
bounding box covers where the arm crosses the edge, but no tile lies near it, so the gate must
still see an arm and wait for it to leave. And a move laid in a line out to the frame edge:
its change is a big blob crossing the edge away from every tile the gate knows of, as an
arm's is, so the gate must ask whether tiles explain it rather than wait for it to leave (it
never would: the next move's arm restarts the wait).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.board import Board, Placed
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
the resting arm will cross it. (Laid in one move, the column is a big change from the edge
away from any tile the gate knows of, as an arm is: see ``test_a_move_out_to_the_edge``.)"""
LAST = [(5, 6, Tile(COLOURS[-1], SHAPES[0]))]
"""The move whose arm rests, laid below the row's end."""
BESIDE = [(1, 4, Tile("orange", SHAPES[4]))]
"""A tile beside the column, laid after it in one move: no blob at the edge."""

QUIET = replace(HARDEST_STYLE, empty_reach_every=0, light_change_at=None, knock_at=None,
                outage_at=None, rest_at=None)
"""The hardest camera (wobble, flicker, noise) with no other event."""


def _renders(*moves: list[Placed]) -> GameRenders:
    """The moves from an empty table, filmed overhead with the lattice's -y up the picture
    and the column's top tile half a cell from the rim."""
    positions, script, board = [[]], [], Board()
    for move in moves:
        check = check_move(board, move)
        assert check.legal
        board = board.with_tiles(move)
        positions.append(positions[-1] + move)
        script.append((tuple(move), check.score))
    view = View(elevation=90.0, azimuth=90.0, roll=0.0, distance=30.0, pitch_px=PITCH_PX,
                target=(2.5, 6.0), size=(960, 720))
    renders = GameRenders(GameScript(positions, script), SEED, view=view)
    assert renders[len(renders) - 1].centers[0, 0][1] < PITCH_PX  # the board meets the top edge
    return renders


def _play(renders: GameRenders, style):
    """Each report with its time, the tally against the script, and when each move settled."""
    tracker = MoveTracker()
    reports = []
    for image, t in video_frames(renders.stills(), style, SEED, renders.target):
        reports += [(t, move) for move in tracker.feed(Frame(image, t, f"{t:.1f}s"))]
    truth = [(frozenset(tiles), score) for tiles, score in renders.script.moves]
    tally = compare(tracker.settled([move for _, move in reports]), truth, "rim")
    return reports, tally, settle_times(len(renders), style, SEED)


@pytest.fixture(scope="module")
def resting():
    renders = _renders(ROW, UP, RIM, LAST)
    final = renders[len(renders) - 1].centers
    beside = final[LAST[0][:2]]
    # the arm crosses the top edge above the row's end, inside the tiles' box (two cells
    # round) but more than four cells from any tile
    style = replace(QUIET, rest_at=4, rest_seconds=5.0, rest_entry=(beside[0] / 960, 0.0))
    assert min(abs(x - beside[0]) + y for x, y in final.values()) > 4 * PITCH_PX
    return (*_play(renders, style), style)


def test_every_move_is_read(resting):
    _, tally, _, _ = resting
    assert tally.exact == tally.truth == 4, tally.notes


def test_the_resting_arm_holds_the_move_until_it_leaves(resting):
    reports, _, settles, style = resting
    rest_ends = settles[style.rest_at - 1]
    rest_starts = rest_ends - style.rest_seconds
    assert not [t for t, _ in reports if rest_starts <= t < rest_ends]
    last = [t for t, move in reports if move.tiles]
    assert rest_ends <= last[-1] <= rest_ends + 1.0


def test_a_move_out_to_the_edge_is_read_within_a_second_and_so_is_the_next():
    reports, tally, settles = _play(_renders(ROW, UP + RIM, BESIDE), QUIET)
    assert tally.exact == tally.truth == 3, tally.notes
    column = next(t for t, move in reports if len(move.tiles) == len(UP + RIM))
    assert settles[1] <= column <= settles[1] + 1.0


def test_a_move_out_to_the_edge_is_read_though_the_scan_misses_a_tile_far_from_it(monkeypatch):
    """An arm hides the tiles under it; a tile missed far from the change at the edge was
    only missed. On a big board the scan misses one somewhere in many pictures, and taking
    that for an arm held back every later move laid out to the edge (game 119 of the
    hardest footage lost its last three moves so)."""
    from vision import reader
    from vision.scan import scan_image

    renders = _renders(ROW, UP + RIM, BESIDE)
    far = renders[1].centers[ROW[-1][:2]]  # the row's last tile, five cells from the column

    def scan_missing_far_tile(image, colours, adapter=None, known=None):
        result = scan_image(image, colours=colours)
        if len(result.tiles) < len(ROW + UP + RIM):
            return result
        return replace(result, tiles=[r for r in result.tiles if abs(r.center[0] - far[0])
                                      + abs(r.center[1] - far[1]) > PITCH_PX / 2])

    monkeypatch.setattr(reader, "scan_image", scan_missing_far_tile)
    reports, tally, settles = _play(renders, QUIET)
    column = [t for t, move in reports if len(move.tiles) == len(UP + RIM)]
    assert column and settles[1] <= column[0] <= settles[1] + 1.0, reports
    assert tally.exact == tally.truth == 3, tally.notes
