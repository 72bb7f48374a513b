"""A short game in the hardest footage setting, through the whole live pipeline (CI's form of
``python -m vision.evaluate.replay --styles hardest``): 1.5-px wobble, +-8 % flicker, pauses
of 1-3 s, a lamp, a knocked camera, an arm resting 30 s at the edge and two moves during an
outage."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.evaluate.replay import compare
from vision.source import Frame
from vision.synth.footage import HARDEST_STYLE, GameRenders, game_script, settle_times, video_frames
from vision.tracker import MoveTracker

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

SEED = 104
STYLE = replace(HARDEST_STYLE, light_change_at=2, knock_at=3, rest_at=4, outage_at=6)
"""Every trap of the hardest setting within eight moves."""


@pytest.fixture(scope="module")
def played():
    script = game_script(2, SEED, limit=8)
    renders = GameRenders(script, SEED)
    tracker = MoveTracker()
    reports = []
    for image, t in video_frames(renders.stills(), STYLE, SEED, renders.target):
        reports += [(t, move) for move in tracker.feed(Frame(image, t, f"{t:.1f}s"))]
    truth = [(frozenset(tiles), score) for tiles, score in script.moves]
    moves = tracker.settled([move for _, move in reports])
    return reports, compare(moves, truth, "hardest"), settle_times(len(renders), STYLE, SEED)


def test_every_move_is_read_and_no_error_passes_silently(played):
    _, tally, _ = played
    assert tally.truth == 8 and tally.wrong_unflagged == 0, tally.notes
    # the two moves made while the camera was out come as one position: split and flagged,
    # and their order is the one thing the pictures cannot tell
    assert tally.exact >= tally.truth - 1, tally.notes


def test_moves_come_within_a_second_of_the_table_going_still(played):
    reports, _, settles = played
    for t, move in reports:
        settled = max(s for s in settles if s <= t)
        assert t - settled <= 1.0, (t, move.tiles)


def test_nothing_is_reported_while_an_arm_rests_at_the_edge(played):
    reports, _, settles = played
    rest_ends = settles[STYLE.rest_at - 1]  # the resting arm leaves: that move's table is still
    rest_starts = rest_ends - STYLE.rest_seconds
    assert not [t for t, _ in reports if rest_starts <= t < rest_ends]


def test_the_outage_moves_are_split_and_flagged(played):
    reports, _, settles = played
    after = [move for t, move in reports if t >= settles[STYLE.outage_at - 1]]
    assert [m.split for m in after[:2]] == [(1, 2), (2, 2)]
    assert all(m.needs_confirmation for m in after[:2])
