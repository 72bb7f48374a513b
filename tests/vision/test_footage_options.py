"""The footage generator's disturbances do what their options say (vision.synth.footage)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.synth.footage import CLIP_STYLE, HARDEST_STYLE, _Noise, settle_times, video_frames

SIZE = (160, 120)
QUIET = replace(CLIP_STYLE, empty_reach_every=0, light_change_at=None, drift_px=0.0, noise=0.0,
                jpeg_quality=None, shake_px=0.0)


def _stills(count: int) -> list[np.ndarray]:
    """Positions told apart by a bright square that moves along; a textured table."""
    rng = np.random.default_rng(0)
    table = rng.integers(60, 120, (SIZE[1], SIZE[0], 3)).astype(np.uint8)
    stills = []
    for k in range(count):
        image = table.copy()
        image[50:70, 20 + 20 * k:40 + 20 * k] = 250
        stills.append(image)
    return stills


def _times(style, count: int = 4) -> list[float]:
    return [t for _, t in video_frames(_stills(count), style, 1)]


def test_pauses_vary_between_their_bounds_and_settle_times_follow_them():
    style = replace(QUIET, hold=1.0, hold_max=3.0)
    settles = settle_times(6, style, seed=1)
    reach = 2 * round(style.reach * 10) + round(style.dwell * 10)
    gaps = np.diff(settles)
    assert all(1.0 + reach / 10 - 0.15 <= g <= 3.0 + reach / 10 + 0.15 for g in gaps)
    assert len(set(np.round(gaps, 1))) > 1  # not all the same
    assert settles == settle_times(6, style, seed=1)  # reproducible from the seed


def test_an_outage_leaves_out_frames_and_its_moves_settle_when_they_return():
    style = replace(QUIET, outage_at=2, outage_moves=2, outage_seconds=10.0)
    times = _times(style)
    jumps = [b - a for a, b in zip(times, times[1:], strict=False) if b - a > 0.15]
    assert len(jumps) == 1 and abs(jumps[0] - 10.1) < 1e-6
    settles = settle_times(4, style, seed=1)
    assert len(settles) == 3 and settles[1] == settles[2] == times[times.index(
        next(t for a, t in zip(times, times[1:], strict=False) if t - a > 5))]
    # the video of it has no gap: its settle times are earlier by the outage
    assert settle_times(4, style, seed=1, gaps=False)[1] == settles[1] - 10.0


def test_a_knock_moves_the_picture_for_good():
    stills = _stills(3)
    style = replace(QUIET, knock_at=2)
    frames = [image for image, _ in video_frames(stills, style, 1)]
    plain = [image for image, _ in video_frames(stills, QUIET, 1)]
    assert np.array_equal(frames[0], plain[0])  # before the knock: the same picture
    assert not np.array_equal(frames[-1], plain[-1])  # after it, the last still differs ...
    assert np.array_equal(frames[-1], frames[-2])  # ... and stays put


def test_a_resting_arm_stays_in_view_for_its_seconds():
    style = replace(QUIET, rest_at=1, rest_seconds=5.0)
    stills = _stills(2)
    frames = list(video_frames(stills, style, 1))
    plain = list(video_frames(stills, QUIET, 1))
    assert abs(len(frames) - len(plain) - 50 - round(style.reach * 10) // 2) <= 1
    # while it rests the picture is not the still: the arm is in it
    middle = frames[len(frames) // 2][0]
    assert not np.array_equal(middle, stills[1]) and not np.array_equal(middle, stills[0])


def test_a_resting_arm_enters_where_asked():
    style = replace(QUIET, rest_at=1, rest_seconds=2.0, rest_entry=(0.75, 0.0))
    stills = _stills(2)
    frames = list(video_frames(stills, style, 1))
    resting = frames[len(frames) // 2][0]
    changed = np.flatnonzero(np.abs(resting[0].astype(int) - stills[1][0]).max(axis=1) > 10)
    # it crosses the top edge within an arm's width (a tenth of the height) of three
    # quarters of the width, and nowhere else
    assert changed.size and abs(np.median(changed) - 0.75 * SIZE[0]) < 0.1 * SIZE[1]
    assert np.ptp(changed) < SIZE[0] / 4


def test_the_hardest_preset_has_every_disturbance():
    style = HARDEST_STYLE
    assert style.wobble_px == 1.5 and style.flicker == 0.08
    assert (style.hold, style.hold_max) == (1.0, 3.0)
    assert None not in (style.knock_at, style.rest_at, style.outage_at, style.light_change_at)
    assert style.rest_seconds >= 30 and style.outage_seconds >= 10 and style.outage_moves == 2
    assert style.empty_reach_every


def test_eight_bit_noise_adds_what_the_float_sum_gives():
    """Frames without an exposure change are made in 8 bits (cheaper for the demo); they must
    be the frames the float sum and truncation give, bar float rounding on a rare pixel."""
    rng = np.random.default_rng(3)
    noise = _Noise.draw(rng, 6.0, (120, 160))
    image = rng.integers(0, 256, (120, 160, 3)).astype(np.uint8)
    image[:10], image[-10:] = 0, 255  # saturation at both ends
    floats = np.clip(image.astype(np.float32) + noise.values, 0, 255).astype(np.uint8)
    eight = cv2.subtract(cv2.add(image, noise.up), noise.down)
    assert (floats != eight).mean() < 1e-4
    assert (floats != image).mean() > 0.5  # the noise is there at all


def test_a_wait_keeps_the_table_still_and_the_next_reach_comes_after_it():
    stills = _stills(3)
    plain = list(video_frames(stills, QUIET, 1))
    answers = iter([False, True, True, True, True, True])  # the first still: no wait

    def wait() -> bool:
        return next(answers, False)

    held = list(video_frames(stills, QUIET, 1, wait=wait))
    assert len(held) == len(plain) + 5
    times = [t for _, t in held]
    assert np.allclose(np.diff(times), 0.1)  # the clock runs on through the wait
    first_reach = next(i for i, (a, b) in enumerate(zip(plain, held, strict=False))
                       if not np.array_equal(a[0], b[0]))
    # the frames that differ are the waiting ones: the table as it stood after move 1
    after_move = stills[1]
    for image, _ in held[first_reach:first_reach + 5]:
        assert np.array_equal(image, after_move)
