"""The stable-frame gate on its own: which still positions it lets through to the scan."""

from __future__ import annotations

import cv2
import numpy as np

from vision.stable import (
    MARGIN,
    THUMB_WIDTH,
    Footprint,
    Motion,
    StableGate,
    arm_over,
    changed_mask,
    thumbnail,
)


def _table(tiles: int, seed: int = 0, wood: tuple[int, int, int] | None = None) -> np.ndarray:
    """A dim 960 x 720 table with ``tiles`` 26-px tiles in a row near the middle.

    As in a rendered game whose camera frames the final board: after the thumbnail's blur two
    more tiles change about 0.05 % of it, under the old fixed threshold of 0.1 %. A ``wood``
    colour gives a lighter table with grain in both directions, as a real one has.
    """
    rng = np.random.default_rng(seed)
    image = np.empty((720, 960, 3), np.float32)
    image[:] = (50, 70, 130) if wood is None else wood
    image += rng.normal(0, 6, (720, 1, 1))  # grain along x
    if wood is not None:  # knots and rings across it too
        image += cv2.GaussianBlur(rng.normal(0, 60, (720, 960)), (0, 0), 3)[..., None]
    for i in range(tiles):
        x = 470 + 27 * i
        image[347:373, x:x + 26] = (45, 45, 45)
        image[353:367, x + 6:x + 20] = (30, 110, 230)  # an orange square
    return np.clip(image, 0, 255).astype(np.uint8)


def _hand(image: np.ndarray) -> np.ndarray:
    """The table with an arm reaching in from the left edge towards the tiles."""
    arm = image.copy()
    arm[330:400, :450] = (110, 140, 200)
    return arm


def _let_through(gate: StableGate, image: np.ndarray, t: float,
                 tiles: Footprint | None = None, asked: list[float] | None = None) -> bool:
    """Whether the gate lets ``image`` through at ``t``. A picture it doubts (an arm?) is
    settled as the tracker would: by where the tiles read in it lie, ``tiles`` (None: no new
    tiles explain the change); ``asked`` collects the times of such doubts."""
    if not gate.update(image, t):
        return False
    if not gate.doubted:
        return True
    if asked is not None:
        asked.append(round(t, 1))
    return gate.resolve(tiles)


def _fires(gate: StableGate, image: np.ndarray, start: float, seconds: float = 1.5) -> int:
    rng = np.random.default_rng(int(start * 10))
    count = 0
    for k in range(int(seconds * 10)):
        noisy = np.clip(image + rng.normal(0, 2.0, image.shape), 0, 255).astype(np.uint8)
        count += _let_through(gate, noisy, start + k / 10)
    return count


def test_two_small_tiles_laid_on_a_quiet_table_are_a_new_position():
    gate = StableGate()
    assert _fires(gate, _table(1), 0.0) == 1  # the first still scene is always scanned
    assert _fires(gate, _table(1), 1.5) == 0  # nothing changed
    assert _fires(gate, _hand(_table(1)), 3.0, 0.3) == 0  # a hand lays two tiles ...
    assert _fires(gate, _table(3), 3.3) == 1  # ... two 26-px tiles more


def test_with_big_cells_the_same_change_is_taken_for_drift():
    gate = StableGate(cell=0.2)  # the tracker measured tiles 190 px wide
    assert _fires(gate, _table(1), 0.0) == 1
    assert _fires(gate, _hand(_table(1)), 1.5, 0.3) == 0
    assert _fires(gate, _table(3), 1.8) == 0


# --------------------------------------------------------------------------- a camera that moves


def _shoot(image: np.ndarray, rng: np.random.Generator, wobble: float = 1.5,
           flicker: float = 0.08, shift: tuple[float, float] = (0.0, 0.0),
           turn: float = 0.0) -> np.ndarray:
    """The table through a wobbly camera: jitter, a lasting shift and turn, flicker, noise."""
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0)
    matrix[:, 2] += np.array(shift) + rng.normal(0, wobble, 2)
    moved = cv2.warpAffine(image.astype(np.float32), matrix, (w, h),
                           borderMode=cv2.BORDER_REFLECT)
    moved *= 1 + rng.uniform(-flicker, flicker)
    return np.clip(moved + rng.normal(0, 2.5, moved.shape), 0, 255).astype(np.uint8)


def _film(gate: StableGate, scenes: list[tuple[np.ndarray, float]], rng, start: float = 0.0,
          tiles: Footprint | None = None, asked: list[float] | None = None,
          ripe: list[float] | None = None, **camera) -> list[float]:
    """Feed each (scene, seconds) at 10 fps; the times at which the gate let a frame through
    (``tiles`` and ``asked``: see :func:`_let_through`). ``ripe`` collects the times of the
    other frames the gate offers to read ahead of its verdict, as the tracker asks."""
    fired, t = [], start
    for image, seconds in scenes:
        for _ in range(round(seconds * 10)):
            if _let_through(gate, _shoot(image, rng, **camera), t, tiles, asked):
                fired.append(round(t, 1))
            elif ripe is not None and gate.ripe(t):
                ripe.append(round(t, 1))
            t += 0.1
    return fired


def test_wobble_and_flicker_are_not_change_and_a_one_second_pause_is_enough():
    rng = np.random.default_rng(1)
    gate = StableGate()
    table = _table(1)
    scenes = [(table, 2.0)]
    for tiles in (3, 5, 7):  # two tiles a move, a reach, then a pause of one second
        scenes += [(_hand(table), 1.0), (_table(tiles), 1.0)]
        table = _table(tiles)
    fired = _film(gate, scenes, rng)
    # the first still scene, then each move, reported within a second of the hand leaving
    assert len(fired) == 4
    assert all(gate.still_seconds <= round(f - settle, 1) < 1.0
               for f, settle in zip(fired[1:], (3.0, 5.0, 7.0), strict=True)), fired


def test_a_still_spell_that_shows_a_move_is_offered_for_reading_halfway_through():
    """The read of a late board takes about as long as the gate's still spell: read halfway
    through it, the move is reported half a spell sooner. Only a spell that will show a move
    is offered: not a reach that places nothing, not a knock, not an arm resting at the edge
    (each a read of half a second wasted)."""
    rng = np.random.default_rng(1)
    gate = StableGate()
    gate.footprint = _footprint([(470 + 13 + 27 * i, 360) for i in range(7)], pitch=27)
    resting = _table(5)
    resting[300:420, 860:] = (110, 140, 200)  # an arm from the right edge, off the tiles
    scenes = [(_table(1), 2.0), (_hand(_table(1)), 1.0), (_table(1), 1.5),  # an empty reach
              (_hand(_table(1)), 1.0), (_table(3), 1.5),
              (_hand(_table(3)), 1.0), (_table(5), 1.5), (resting, 5.0)]
    ripe: list[float] = []
    fired = _film(gate, scenes, rng, ripe=ripe, wobble=0.5)
    knocked = _film(gate, [(_table(5), 3.0)], rng, start=fired[-1] + 7.0, ripe=ripe,
                    shift=(14.0, -5.0), turn=1.5, wobble=0.5)
    assert len(fired) == 3 and not knocked  # the first scene and the two moves
    assert len(ripe) == 3, (ripe, fired)
    for early, verdict in zip(ripe, fired, strict=True):
        assert round(verdict - early, 1) == round(gate.still_seconds / 2, 1)


def test_a_speckle_in_single_frames_does_not_hold_the_position_back():
    # flicker on a partly clipped table speckles one frame now and then just past the share
    # of change that means motion; restarting the still spell on each held a report 1.3 s
    rng = np.random.default_rng(9)
    gate = StableGate()
    speckled = _table(3)
    patch = speckled[100:140, 100:140].astype(np.float32) * 1.5  # a 40-px speckle, ~0.3 %
    speckled[100:140, 100:140] = np.clip(patch, 0, 255).astype(np.uint8)
    assert _film(gate, [(_table(1), 2.0)], rng, wobble=0.5) == [gate.still_seconds]
    fired = _film(gate, [(_hand(_table(1)), 1.0)] + [(_table(3), 0.3), (speckled, 0.1)] * 4,
                  rng, start=2.0, wobble=0.5)
    assert len(fired) == 1 and fired[0] - 3.0 < 1.0, fired


def test_colour_noise_in_a_dark_corner_does_not_hold_the_position_back():
    """A video's compression errs by a few levels in colour where the picture is dark: the
    blue of a dark wooden table's shaded corner went from 25 to 33 between frames (game 111
    of the hardest footage). Each such frame changed colour past the motion share, the still
    spell restarted, and moves were reported up to 1.96 s after the table went still."""
    rng = np.random.default_rng(4)
    gate = StableGate()

    def cornered(tiles: int, blue: int) -> np.ndarray:
        image = _table(tiles)
        image[:200, 660:] = (blue, 57, 104)
        return image

    assert _film(gate, [(cornered(1, 28), 2.0)], rng, wobble=0.5) == [gate.still_seconds]
    # 28-36 stays clear of both thresholds, the old and the new, through 8 % flicker
    blues = (28, 36, 29, 35, 28, 34, 30, 36, 28, 33, 29, 36, 30, 35, 28)
    fired = _film(gate, [(_hand(cornered(1, 28)), 1.0)]
                  + [(cornered(3, blue), 0.1) for blue in blues], rng, start=2.0, wobble=0.5)
    assert len(fired) == 1 and fired[0] - 3.0 < 1.0, fired


def test_the_thumbnail_trusts_colour_ratios_only_where_no_channel_is_clipped_or_dark():
    # thirds of a picture: a lamp's pool with only red clipped, a mid-grey wooden table, a
    # shadow where only blue is nearly black (a warm light); one channel decides each
    image = np.zeros((720, 960, 3), np.uint8)
    image[:, :320] = (120, 140, 255)
    image[:, 320:640] = (90, 120, 160)
    image[:, 640:] = (12, 90, 130)
    trusted = thumbnail(image)[..., 3]
    assert set(np.unique(trusted)) <= {0.0, 1.0}
    third = THUMB_WIDTH // 3
    assert trusted[:, :third - 3].max() == 0  # the thumbnail's blur softens the borders
    assert trusted[:, third + 3:2 * third - 3].min() == 1
    assert trusted[:, 2 * third + 3:].max() == 0
    # a grey camera's frame: every channel the same, so only its level decides
    grey = np.full((720, 960), 128, np.uint8)
    assert thumbnail(grey)[..., 3].min() == 1


def test_flicker_on_a_table_clipped_in_most_of_the_picture_is_no_change():
    # red far past white on a warm-lit table, but for a shadowed third: as the exposure
    # flickers the clipped pixels' colour ratios move (red stays, green follows the gain),
    # and their shift must not be taken out of the shadow's ratios, which did not move
    rng = np.random.default_rng(8)
    table = np.empty((720, 960, 3), np.float32)
    table[:] = (120, 205, 300)
    table[:, :300] = (80, 140, 170)
    table += cv2.GaussianBlur(rng.normal(0, 40, (720, 960)), (0, 0), 3)[..., None]

    def shot(gain: float) -> np.ndarray:
        return np.clip(table * gain + rng.normal(0, 2.5, table.shape), 0, 255).astype(np.uint8)

    assert changed_mask(thumbnail(shot(0.96)), thumbnail(shot(1.08)), Motion()).mean() == 0


def test_a_knocked_camera_that_stays_shifted_and_turned_costs_no_scan():
    rng = np.random.default_rng(2)
    gate = StableGate()
    assert _film(gate, [(_table(3), 2.0)], rng) == [gate.still_seconds]
    knocked = _film(gate, [(_table(3), 3.0)], rng, start=2.0, shift=(14.0, -5.0), turn=1.5)
    assert knocked == []
    # and a move after the knock is still seen
    moved = _film(gate, [(_hand(_table(3)), 1.0), (_table(5), 1.5)], rng, start=5.0,
                  shift=(14.0, -5.0), turn=1.5)
    assert len(moved) == 1


def test_an_arm_resting_at_the_edge_is_never_still():
    rng = np.random.default_rng(3)
    gate = StableGate()
    gate.footprint = _footprint([(483 + 27 * i, 360) for i in range(3)], pitch=27)
    resting = _table(3)
    resting[300:420, 860:] = (110, 140, 200)  # an arm from the right edge, off the tiles
    assert _film(gate, [(_table(1), 2.0)], rng, wobble=0.5) == [gate.still_seconds]
    asked: list[float] = []
    assert _film(gate, [(resting, 30.0)], rng, start=2.0, asked=asked, wobble=0.5) == []
    assert len(asked) == 1  # the tracker reads the resting arm's picture once, not 300 times
    assert len(_film(gate, [(_table(3), 1.5)], rng, start=32.0, wobble=0.5)) == 1


def test_a_move_laid_out_to_the_frame_edge_is_let_through_when_its_tiles_explain_it():
    rng = np.random.default_rng(5)
    gate = StableGate()
    gate.footprint = _footprint([(483 + 27 * i, 360) for i in range(3)], pitch=27)
    column = [(510, y) for y in range(333, 0, -27)]  # from the row's last tile up to the rim
    laid = _table(3)
    for x, y in column:
        laid[max(y - 13, 0):y + 13, x - 13:x + 13] = (45, 45, 45)
        laid[max(y - 6, 0):y + 6, x - 6:x + 6] = (30, 110, 230)
    assert _film(gate, [(_table(3), 2.0)], rng, wobble=0.5) == [gate.still_seconds]
    asked: list[float] = []
    tiles = _footprint([(483 + 27 * i, 360) for i in range(3)] + column, pitch=27)
    fired = _film(gate, [(_hand(laid), 1.0), (laid, 2.0)], rng, start=2.0, tiles=tiles,
                  asked=asked, wobble=0.5)
    # the hand resting as it lays them is doubted too, but no tile explains where it crosses
    # the edge; the column, still, is let through within a second
    assert len(asked) == 2 and fired == asked[1:] and fired[0] < 4.0
    # nothing more to see once it is taken as the still position
    assert _film(gate, [(laid, 2.0)], rng, start=5.0, tiles=tiles, wobble=0.5) == []


def test_an_arm_taken_for_still_does_not_hold_back_every_later_move_once_it_has_left():
    """An arm let through as still (here, read tiles seemed to explain it) is in the still
    reference. Gone, it left an arm-shaped change at the edge against that reference, and
    the gate waited for it to leave, move after move: game 119 of the hardest footage lost
    41 of its 48 moves so."""
    rng = np.random.default_rng(7)
    gate = StableGate()
    row = [(483 + 27 * i, 360) for i in range(3)]
    gate.footprint = _footprint(row, pitch=27)
    assert _film(gate, [(_table(3), 2.0)], rng, wobble=0.5) == [gate.still_seconds]
    resting = _table(3)
    resting[300:420, 860:] = (110, 140, 200)  # an arm from the right edge, off the tiles
    misread = _footprint([(x, y) for x in range(870, 960, 27) for y in range(150, 600, 27)],
                         pitch=27)
    assert len(_film(gate, [(resting, 2.0)], rng, start=2.0, tiles=misread, wobble=0.5)) == 1
    gate.footprint = _footprint(row, pitch=27)
    for start, tiles in ((4.0, 5), (7.0, 7)):  # the arm has gone; two moves, a second apart
        placed = _footprint([(483 + 27 * i, 360) for i in range(tiles)], pitch=27)
        fired = _film(gate, [(_hand(_table(tiles - 2)), 1.0), (_table(tiles), 2.0)], rng,
                      start=start, tiles=placed, wobble=0.5)
        assert len(fired) == 1 and fired[0] - (start + 1.0) < 1.0, (start, fired)


# --------------------------------------------------------------------------- a board at the rim

PITCH = 30
COLUMN = [(150, 20 + PITCH * k) for k in range(10)]
"""A line of tiles from the top rim of a 960 x 720 frame down to ..."""
ROW = [(150 + PITCH * k, 290) for k in range(1, 19)]
"""... a line across: the tiles' bounding box (two cells round) spans the top edge from
x = 90 to 750, but the board meets that edge only at x = 150."""


def _footprint(centres: list[tuple[int, int]], pitch: float = PITCH) -> Footprint:
    """As the tracker sets it: two cells round each tile of a 960-px-wide frame."""
    return Footprint(tuple((x / 960, y / 960) for x, y in centres), 2 * pitch / 960)


def _strip(x0: int, x1: int, y1: int) -> np.ndarray:
    """A changed strip from the top edge of a 960 x 720 frame, as the gate's mask has it."""
    scale = THUMB_WIDTH / 960
    mask = np.zeros((120 - 2 * MARGIN, THUMB_WIDTH - 2 * MARGIN), bool)
    mask[:round(y1 * scale) - MARGIN, round(x0 * scale) - MARGIN:round(x1 * scale) - MARGIN] = True
    return mask


def test_an_arm_is_told_from_tiles_by_where_it_crosses_the_edge():
    board = _footprint(COLUMN + ROW)
    # an arm from the top edge beside the board: inside the tiles' box, far from any tile
    assert arm_over(_strip(570, 630, 250), board)
    # the same blob where the board meets the edge is the board's own change (tiles nudged)
    assert not arm_over(_strip(120, 180, 250), board)
    # no tiles yet: anything big from the edge is an arm
    assert arm_over(_strip(120, 180, 250), None)


def test_an_arm_seen_only_in_pieces_is_still_an_arm():
    # a flat arm on a table of about its colour: the change shows along one side of the arm,
    # from the edge, and on the hand's shaded side, a few pixels apart (game 109, hardest)
    mask = np.zeros((120 - 2 * MARGIN, THUMB_WIDTH - 2 * MARGIN), bool)
    mask[:10, 64:67] = True  # the strip is too small to be an arm ...
    mask[13:27, 54:68] = True  # ... and the hand does not reach the edge
    assert arm_over(mask, None)
    # pieces further apart are not one blob: a tile laid beyond a strip of border
    mask[10:, :] = False
    mask[20:34, 54:68] = True
    assert not arm_over(mask, None)


def _rim_table(extra: bool = False) -> np.ndarray:
    """The board of ``COLUMN`` and ``ROW`` on a plain table, one tile more if ``extra``."""
    image = np.full((720, 960, 3), (60, 100, 140), np.uint8)
    for x, y in COLUMN + ROW + ([(150 + PITCH * 19, 290)] if extra else []):
        image[max(y - 13, 0):y + 13, x - 13:x + 13] = (45, 45, 45)
        image[max(y - 6, 0):y + 6, x - 6:x + 6] = (30, 110, 230)
    return image


def test_an_arm_resting_beside_a_board_that_meets_the_frame_edge_is_never_still():
    rng = np.random.default_rng(6)
    gate = StableGate()
    assert _film(gate, [(_rim_table(), 1.0)], rng, wobble=0.5) == [gate.still_seconds]
    gate.footprint = _footprint(COLUMN + ROW)
    resting = _rim_table(extra=True)
    resting[:250, 570:630] = (110, 140, 200)  # the arm that laid the tile, resting
    assert _film(gate, [(resting, 5.0)], rng, start=1.0, wobble=0.5) == []
    assert len(_film(gate, [(_rim_table(extra=True), 1.5)], rng, start=6.0, wobble=0.5)) == 1


def test_the_gate_records_the_order_in_which_tiles_appeared():
    rng = np.random.default_rng(4)
    gate = StableGate()
    light = (60, 100, 140)

    def table(tiles: int) -> np.ndarray:
        return _table(tiles, wood=light)

    _film(gate, [(table(1), 1.0)], rng, wobble=0.5)
    # a hand lays tile 2, goes, and tile 3 follows with no pause worth the name
    _film(gate, [(_hand(table(1)), 0.5), (table(2), 0.3), (_hand(table(2)), 0.5)], rng,
          start=1.0, wobble=0.5)
    assert _film(gate, [(table(3), 1.0)], rng, start=2.3, wobble=0.5)
    second, third = gate.appeared_at(np.array([[470 + 27 + 13, 360], [470 + 54 + 13, 360]]),
                                     (720, 960))
    assert second is not None and third is not None and second + 0.5 < third
    assert not gate.unseen


def test_a_tile_let_through_before_keeps_its_time():
    # the tracker may read a position short (a tile missed), and the tile then comes with the
    # next move: it appeared before that move's tiles, though it did not change since
    rng = np.random.default_rng(7)
    gate = StableGate()
    light = (60, 100, 140)
    _film(gate, [(_table(1, wood=light), 1.0)], rng, wobble=0.5)
    assert _film(gate, [(_hand(_table(1, wood=light)), 0.5), (_table(2, wood=light), 1.0)],
                 rng, start=1.0, wobble=0.5)
    assert _film(gate, [(_hand(_table(2, wood=light)), 0.5), (_table(3, wood=light), 1.0)],
                 rng, start=2.5, wobble=0.5)
    second, third = gate.appeared_at(np.array([[470 + 27 + 13, 360], [470 + 54 + 13, 360]]),
                                     (720, 960))
    assert second is not None and third is not None
    assert 1.0 <= second < 2.5 <= third < 3.5


def test_a_position_that_changed_unseen_is_marked():
    rng = np.random.default_rng(5)
    gate = StableGate()
    wood = (60, 100, 140)
    _film(gate, [(_table(1, wood=wood), 1.0)], rng)
    # frames stop for ten seconds, and four tiles more lie there when they come back
    assert _film(gate, [(_table(5, wood=wood), 1.0)], rng, start=11.0)
    assert gate.unseen
    appeared = gate.appeared_at(np.array([[470 + 27 * k + 13, 360] for k in (1, 4)]), (720, 960))
    assert appeared == [11.0, 11.0]  # together: the frames give no order
