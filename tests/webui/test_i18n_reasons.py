"""Every way the engine can refuse a move, every doubt the camera can raise and every way the
camera can be lost is said in the reader's language: each is made here (for real where it can
be: through the rules, the table model, the decoder and registration fed with the replay
tests' stand-in readings, and the frame sources with a stand-in capture device), and every
code must be covered."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from live_support import FakeCapture
from replay_fakes import guess, reading
from test_i18n_locale import translations
from webui_support import ROW, Table, make_app

from engine.board import Board
from engine.refusals import Illegal, Refusal
from engine.rules import IllegalMove, check_move
from engine.selfplay import simulate, table_turns
from engine.table import Exchange, Pass, Place, TableGame
from engine.tiles import COLOURS, SHAPES, Tile
from vision.decode import decode_move, split_moves
from vision.doubts import Doubt, DoubtKind, SplitOrder
from vision.register import register
from vision.source import CaptureSource, FolderSource, Problem, SourceError, open_source
from webui import i18n
from webui.reasons import say, say_camera, say_doubts

REDS = [(x, 0, Tile("red", shape)) for x, shape in enumerate(SHAPES)]


def t(code: str) -> Tile:
    return Tile.from_code(code)


def refusal(play) -> Refusal:
    """The engine's refusal when ``play()`` is refused by the table model."""
    with pytest.raises(IllegalMove) as refused:
        play()
    return refused.value.refusal


def rules_reason(board: list, move: list) -> Refusal:
    check = check_move(Board.from_placed(board), move)
    assert not check.legal and check.refusal is not None
    return check.refusal


def late_game() -> tuple[TableGame, TableGame]:
    """From a simulated game: the table when the bag first holds under six tiles, and on
    the very turn that emptied the bag."""
    tables = list(table_turns(simulate(players=2, seed=1)))
    nearly = next(table for table in tables if 0 < table.bag_size < 6)
    return nearly, next(table for table in tables if table.bag_size == 0)


def engine_reasons() -> dict[str, Refusal]:
    fresh = TableGame.new(["Ann", "Bob"])
    opened = fresh.play(Place(tuple(REDS[:3])))
    extended = opened.play(Place(((3, 0, Tile("red", "clover")),)))
    nearly, emptied = late_game()
    last_player = emptied.turns[-1].player
    ended = emptied.finish(last_player)  # the last player went out
    last = len(ended.turns) - 1
    return {
        "no tiles": rules_reason([], []),
        "cell twice": rules_reason([], [(0, 0, t("RCi")), (0, 0, t("RSq"))]),
        "occupied": rules_reason([(0, 0, t("RCi"))], [(0, 0, t("RSq"))]),
        "not in line": rules_reason([], [(0, 0, t("RCi")), (1, 1, t("RSq"))]),
        "gap": rules_reason([], [(0, 0, t("RCi")), (2, 0, t("RSq"))]),
        "not touching": rules_reason([(0, 0, t("RCi"))], [(5, 5, t("RSq"))]),
        "too long": rules_reason(REDS, [(6, 0, t("RCi"))]),
        "duplicate": rules_reason([(0, 0, t("RCi"))], [(1, 0, t("RCi"))]),
        "mixed": rules_reason([(0, 0, t("RCi"))], [(1, 0, t("BSq"))]),
        "ended": refusal(lambda: fresh.finish(None).play(Pass())),
        "seven tiles": refusal(lambda: fresh.play(Place(tuple(
            (x, 0, Tile(colour, "star")) for x, colour in enumerate((*COLOURS, "red")))))),
        "not in set": refusal(lambda: fresh.play(Place(((0, 0, t("WSt")),)))),
        "all copies": refusal(lambda: fresh.play(Place(tuple(
            (0, y, t("RCi")) for y in range(4))))),
        "exchange count": refusal(lambda: fresh.play(Exchange(7))),
        "bag too small": refusal(lambda: nearly.play(Exchange(6))),
        "early pass": refusal(lambda: fresh.play(Pass())),
        "early end": refusal(lambda: fresh.finish(0)),
        "not the last": refusal(lambda: emptied.finish(1 - last_player)),
        "correction": refusal(lambda: extended.replace(0, Place(((0, 0, t("RCi")),
                                                                 (1, 0, t("BSq")))))),
        "later turn": refusal(lambda: extended.replace(0, Place(((9, 9, t("RCi")),)))),
        "ending": refusal(lambda: ended.void(last)),
    }


REASONS = engine_reasons()


def test_every_code_is_made_for_real():
    made = {r.code for r in REASONS.values()}
    assert made == set(Illegal), f"no refusal made for {set(Illegal) - made}"


def camera_doubts() -> dict[str, tuple[Doubt, ...]]:
    """The decoder's doubts, registration's problems and what the move tracker adds, made
    for real where a stand-in reading can make them."""
    reds = Board.from_placed(REDS)
    star = Board.from_placed([(0, 0, t("RSt"))])
    row = Board.from_placed([(0, 0, t("RSt")), (1, 0, t("OSt")), (2, 0, t("YSt")),
                             (3, 0, t("RCi"))])
    scan = [reading(0, 0, guess("red", "star")), reading(1, 0, guess("orange", "star")),
            reading(2, 0, guess("yellow", "clover")),  # was a yellow star
            reading(3, 1, guess("red", "circle")),     # moved down one cell
            reading(0, 0, guess("red", "star"))]       # read twice
    moved = register(row, scan, scan_homography=None)
    gone = register(row, scan[:3], scan_homography=None)
    merged = [((x, 0), guess("red", shape)) for x, shape in enumerate(SHAPES)]
    merged.append(((0, 1), guess("orange", "star")))
    circle = Board.from_placed([(0, 0, t("RSt")), (1, 0, t("RCi"))])
    # The orange square is a doubted reading (the table through a gap?) that breaks the move.
    doubted = [((2, 0), guess("red", "square")),
               ((3, 1), replace(guess("orange", "square"), tile_prob=0.97))]
    # Two moves at once: a red pair in row 0 and an orange pair in column 3 away from it.
    two = [((1, 0), guess("red", "circle")), ((2, 0), guess("red", "square")),
           ((0, 1), guess("orange", "star")), ((0, 2), guess("yellow", "star"))]

    def doubts(board: Board, new: list, flags: list[Doubt] = ()) -> tuple[Doubt, ...]:
        move = decode_move(board, new, flags)
        assert move.needs_confirmation and move.doubts
        return move.doubts

    def kind(k: DoubtKind, **details) -> tuple[Doubt, ...]:
        return (Doubt(k, **details),)

    split = split_moves(star, two, [1.0, 1.0, 3.0, 3.0])
    assert split is not None and len(split) == 2
    return {
        "two moves": doubts(Board(), merged),
        "no legal reading": doubts(star, [((1, 0), guess("orange", "circle"))]),
        "no reading, line too long": doubts(reds, [((6, 0), guess("red", "circle"))]),
        "unsure": doubts(star, [((1, 0), guess("red", "square", 0.55, ("red", "cross", 0.44)))]),
        "barely": doubts(star, [((1, 0), guess("orange", "circle", 0.95,
                                               ("red", "circle", 0.04)))]),
        "registration": doubts(row, moved.new, moved.problems),
        "vanished": tuple(gone.problems),
        "note": (replace(moved.problems[0], elsewhere=True),),
        "left out": doubts(circle, doubted),
        "split": split[0].doubts,
        # The move tracker's own doubts (vision/tracker.py, MoveTracker), made as it makes
        # them: they need a picture sequence, which the replay tests run.
        "maybe a tile": kind(DoubtKind.MAYBE_TILE, cell=(3, 1), tile=t("OSq")),
        "unexplained change": kind(DoubtKind.CHANGED_UNREAD, cell=(2, 1)),
        "unread tile": kind(DoubtKind.UNREAD_EARLIER, cell=(2, 1)),
        "unconfirmed": kind(DoubtKind.UNCONFIRMED, cell=(0, -1), tile=t("YDi")),
        "read late": kind(DoubtKind.LAID_EARLIER, cell=(2, 1), tile=t("GCl")),
        "relabelled": kind(DoubtKind.SETTLED, cell=(1, 0), tile=t("BCi"), other=t("PCi")),
        "unseen laying": kind(DoubtKind.UNSEEN_LAYING),
        "no split": kind(DoubtKind.NO_SPLIT),
        "reoffered": kind(DoubtKind.REOFFERED),
        "taken back": kind(DoubtKind.TAKEN_BACK),
        "cut by the edge": kind(DoubtKind.CUT, cell=(0, 0), tile=t("RSt")),
        "laid after a pause": kind(DoubtKind.AFTER_PAUSE, count=2),
        **{f"split, {order}": kind(DoubtKind.SPLIT, count=1, of=2, order=order)
           for order in SplitOrder},
    }


DOUBTS = camera_doubts()


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("reasons") / "games.sqlite3")


@pytest.mark.parametrize("kind", sorted(REASONS))
@pytest.mark.parametrize("code", ["en", "ar", "af", "vi", "hi"])
def test_every_engine_refusal_is_said_in_the_readers_language(app, kind, code):
    reason = REASONS[kind]
    with app.test_request_context("/", headers={"Accept-Language": code}):
        said = say(reason)
    assert said, f"webui/reasons.py does not say the engine's refusal {reason!r}"
    assert "%(" not in said and "%s" not in said
    if code != "en":
        english = app.test_request_context("/", headers={"Accept-Language": "en"})
        with english:
            assert said != say(reason)
        assert not re.search(r"\b(the|tiles?|line|bag|turn)\b", said), said


@pytest.mark.parametrize(("code", "said"), [
    ("en", "Cannot exchange 1 tile: the bag holds only 0 tiles."),
    ("ar", "لا يمكن تبديل قطعة واحدة: في الكيس 0 قطعة فقط."),
])
def test_an_exchange_refused_counts_both_numbers_with_their_own_plural(app, code, said):
    """It said "Cannot exchange 1 tiles": only the bag's count had plural forms."""
    empty = next(table for table in table_turns(simulate(players=2, seed=1)) if table.bag_size == 0)
    with app.test_request_context("/", headers={"Accept-Language": code}):
        assert say(refusal(lambda: empty.play(Exchange(1)))) == said


def source_failure(make) -> SourceError:
    """The SourceError of making a source and reading its first frame."""
    with pytest.raises(SourceError) as failed:
        next(iter(make()))
    return failed.value


def camera_failures(folder) -> dict[str, SourceError]:
    empty, broken = folder / "empty", folder / "broken"
    empty.mkdir()
    broken.mkdir()
    (broken / "table.jpg").write_bytes(b"not a photo")

    def capture(target, live: bool, opened: bool):
        return lambda: CaptureSource(target, live=live, realtime=False, stall_seconds=0,
                                     open_capture=lambda _: FakeCapture(0, opens=opened))

    return {
        "camera will not open": source_failure(capture(0, True, False)),
        "network camera out of reach": source_failure(capture("http://10.0.0.9:8080/mjpg", True,
                                                              False)),
        "video will not open": source_failure(capture("game.mp4", False, False)),
        "camera stalls": source_failure(capture(0, True, True)),
        "video has no frame": source_failure(capture("game.mp4", False, True)),
        "no photos": source_failure(lambda: FolderSource(empty)),
        "broken photo": source_failure(lambda: FolderSource(broken)),
        "no such source": source_failure(lambda: open_source(str(folder / "nowhere"))),
        "a pipe": SourceError(Problem.NOT_A_FILE, "'/tmp/fifo'"),
    }


def test_every_way_of_losing_the_camera_is_said_in_arabic(app, tmp_path):
    failures = camera_failures(tmp_path)
    assert {e.problem for e in failures.values()} == set(Problem)
    games = app.extensions["qwirkle_games"]
    for kind, error in failures.items():
        games.set_camera("lost", error)
        with app.test_request_context("/", headers={"Accept-Language": "ar"}):
            said = say_camera(games.camera)
        assert said and said != str(error), f"the camera failure {kind} is not said: {error}"
        assert not re.search(r"\b(camera|video|photo|folder|cannot)\b", said), said


@pytest.mark.parametrize("kind", sorted(DOUBTS))
@pytest.mark.parametrize("code", ["en", "ar", "hi"])
def test_every_camera_doubt_is_said_in_the_readers_language(app, kind, code):
    doubts = DOUBTS[kind]
    with app.test_request_context("/", headers={"Accept-Language": code}):
        said = say_doubts(doubts)
    assert said and "%(" not in said
    if code != "en":
        assert not re.search(r"\b(the|tiles?|line|read|seen|move)\b", said), said


def test_a_split_move_does_not_also_say_its_tiles_were_laid_unseen(app):
    """A move split from one picture already says the camera missed where a turn ended."""
    split = Doubt(DoubtKind.SPLIT, count=1, of=2, order=SplitOrder.UNKNOWN_EITHER)
    unseen = Doubt(DoubtKind.UNSEEN_LAYING)
    with app.test_request_context("/"):
        said = say_doubts([split, unseen])
        assert said == say_doubts([split]) and "did not see where one turn ended" in said
        assert "being laid" in say_doubts([unseen])


def test_every_kind_of_doubt_is_said():
    made = {d.kind for doubts in DOUBTS.values() for d in doubts}
    assert made == set(DoubtKind), f"no doubt made for {set(DoubtKind) - made}"


def test_the_move_card_and_the_api_give_the_reason_in_arabic(app):
    table = Table(app)
    table.client.set_cookie(i18n.COOKIE, "ar")
    game = table.new_game()
    table.place(game, ROW)
    table.post(f"/api/games/{game}/pending",
               {"tiles": [{"x": 3, "y": 0, "colour": "blue", "shape": "square"}]})
    mixed = translations("ar").gettext("A line would mix colours and shapes.")
    assert mixed in table.client.get(f"/games/{game}/tablet").text
    refused = table.post(f"/api/games/{game}/pending/confirm")
    assert refused.status_code == 409
    assert refused.json["error"] == mixed


def test_the_move_card_gives_the_cameras_doubt_in_hindi(app):
    table = Table(app)
    table.client.set_cookie(i18n.COOKIE, "hi")
    game = table.new_game()
    doubts = DOUBTS["unsure"]
    app.extensions["qwirkle_games"].detected(((1, 0, t("RSq")),), True, doubts, [()])
    page = table.client.get(f"/games/{game}/tablet").text
    with app.test_request_context("/", headers={"Accept-Language": "hi"}):
        said = say_doubts(doubts)
    card = page.split('class="card pending', 1)[1]
    note = re.search(r'<p class="note">([^<]*)</p>', card).group(1)
    assert note.endswith(said)


def test_the_api_gives_each_refusal_its_code_next_to_the_text(app):
    """A program reads ``reason_code`` (stable, documented in the README) instead of the text."""
    table = Table(app)
    table.client.set_cookie(i18n.COOKIE, "ar")
    game = table.new_game()
    table.place(game, ROW)
    pending = table.post(f"/api/games/{game}/pending",
                         {"tiles": [{"x": 3, "y": 0, "colour": "blue", "shape": "square"}]}).json
    mixed = translations("ar").gettext("A line would mix colours and shapes.")
    assert (pending["pending"]["reason"], pending["pending"]["reason_code"]) == (mixed,
                                                                                 "mixed_line")
    refused = table.post(f"/api/games/{game}/pending/confirm").json
    assert (refused["error"], refused["reason_code"]) == (mixed, "mixed_line")
    fixed = table.post(f"/api/games/{game}/pending",
                       {"tiles": [{"x": 3, "y": 0, "colour": "red", "shape": "square"}]}).json
    assert (fixed["pending"]["reason"], fixed["pending"]["reason_code"]) == ("", None)
    table.post(f"/api/games/{game}/pending/confirm")
    # A correction that breaks a later turn: the code names the outcome, the text the cause.
    refused = table.put(f"/api/games/{game}/turns/0", {"kind": "place", "tiles": ROW[:1]}).json
    assert refused["reason_code"] == "breaks_later_turn"
    assert table.post(f"/api/games/{game}/undo").status_code == 200
    assert table.post(f"/api/games/{game}/undo").status_code == 200
    refused = table.post(f"/api/games/{game}/undo").json
    assert refused["reason_code"] == "no_turn_to_undo"
    refused = table.post(f"/api/games/{game}/pending/dismiss").json
    assert refused["reason_code"] == "no_pending_move"
