"""Each turn's id: an exchange or a pass is the like of any other of its count, so only the
id tells a tablet's edit, removal or undo that the turn it asked about is still the one at
that number, after another device removed a turn before it, and across a restart."""

from __future__ import annotations

import pytest
from webui_support import ROW, Table, make_app

EXCHANGE = {"kind": "exchange", "count": 3}


@pytest.fixture
def game(table):
    return table.new_game()


def turns_of(table: Table, game: int) -> list[dict]:
    return table.client.get(f"/api/games/{game}/state").json["turns"]


def exchanges(table: Table, game: int, n: int) -> list[dict]:
    for _ in range(n):
        assert table.post(f"/api/games/{game}/turns", EXCHANGE).status_code == 200
    return turns_of(table, game)


def test_an_edit_of_a_turn_another_device_removed_is_refused_though_its_like_took_its_place(
        table, game):
    """Tablet A opened "Edit turn 2", the second of three exchanges of 3; tablet B removed
    turn 1, and the third exchange, its like, moved into turn 2's place. A's save named the
    turn as it was, which the one now there matched: it rewrote that turn. Its id tells
    them apart: refused, and a save aimed at the turn where it now is works."""
    began = exchanges(table, game, 3)[1]
    assert table.delete(f"/api/games/{game}/turns/0", {"turns": 3}).status_code == 200
    stale = table.put(f"/api/games/{game}/turns/1", {"kind": "exchange", "count": 2,
                                                     "was": began})
    assert stale.status_code == 409 and stale.json["reason_code"] == "turn_changed"
    assert stale.json["error"].startswith("Turn 2 is no longer as it was when the edit began")
    assert [t["count"] for t in turns_of(table, game)] == [3, 3]
    saved = table.put(f"/api/games/{game}/turns/0", {"kind": "exchange", "count": 2,
                                                     "was": began})
    assert saved.status_code == 200
    assert [(t["id"], t["count"]) for t in saved.json["turns"][:1]] == [(began["id"], 2)]
    # a tablet of an older version, whose "was" has no id, is judged by the turn alone
    old = table.put(f"/api/games/{game}/turns/1", {"kind": "exchange", "count": 1,
                                                   "was": EXCHANGE})
    assert old.status_code == 200 and old.json["turns"][1]["count"] == 1


@pytest.mark.parametrize("action", ["remove", "undo"])
def test_a_removal_of_a_turn_another_device_replaced_by_its_like_is_refused(
        table, game, action):
    """Tablet A asked "Remove turn 2?" (or "Undo turn 3?") of three exchanges of 3; before
    its Yes came, tablet B removed that turn and another exchange of 3 was entered. The count
    of turns is as A saw it, and a like exchange is at that number: the id says it is
    another turn, so nothing is taken back; named by its id, the turn asked about still is."""
    turns = exchanges(table, game, 3)
    index = 1 if action == "remove" else 2
    asked = turns[index]
    assert table.delete(f"/api/games/{game}/turns/{index}", {"turns": 3}).status_code == 200
    exchanges(table, game, 1)
    sent = ({"turns": 3, "id": asked["id"]} if action == "remove"
            else {"index": index, "id": asked["id"]})
    refused = (table.delete(f"/api/games/{game}/turns/{index}", sent) if action == "remove"
               else table.post(f"/api/games/{game}/undo", sent))
    assert refused.status_code == 409 and refused.json["reason_code"] == "turn_changed"
    assert refused.json["error"].startswith(f"Turn {index + 1} is no longer the turn you "
                                            "asked about")
    left = turns_of(table, game)
    assert len(left) == 3 and asked["id"] not in [t["id"] for t in left]
    kept = left[0]
    removed = table.delete(f"/api/games/{game}/turns/0", {"turns": 3, "id": kept["id"]})
    assert removed.status_code == 200
    assert kept["id"] not in [t["id"] for t in removed.json["turns"]]


@pytest.mark.parametrize("where, sent", [
    ("was", {"id": "7"}), ("was", {"id": -1}), ("remove", {"id": 1.5}), ("undo", {"id": [2]}),
])
def test_a_malformed_turn_id_is_400_and_changes_nothing(table, game, where, sent):
    turns = exchanges(table, game, 2)
    if where == "was":
        answer = table.put(f"/api/games/{game}/turns/1",
                           {"kind": "exchange", "count": 2, "was": {**turns[1], **sent}})
    elif where == "remove":
        answer = table.delete(f"/api/games/{game}/turns/1", sent)
    else:
        answer = table.post(f"/api/games/{game}/undo", sent)
    assert answer.status_code == 400 and "id must be" in answer.json["error"]
    assert turns_of(table, game) == turns


def test_turn_ids_stay_through_edits_removals_redo_and_a_restart(tmp_path):
    """Ids are the log's own (the seq of the event that recorded the turn), so a restarted
    server, replaying the log, gives each turn the id it had, and an edit begun before the
    restart is judged as it would have been without it. An edit keeps a turn's id, and a
    Redo gives it back; a turn entered anew, or put back without its id, gets a new one."""
    db = tmp_path / "games.sqlite3"
    table = Table(make_app(db))
    game = table.new_game()
    table.place(game, ROW)
    first = exchanges(table, game, 3)
    ids = [t["id"] for t in first]
    assert len(set(ids)) == 4
    edited = table.put(f"/api/games/{game}/turns/0", {
        "kind": "place", "tiles": ROW[:2], "was": first[0]}).json["turns"]
    assert edited[0]["id"] == ids[0]
    for turn in (first[1], EXCHANGE):  # a Redo as the tablet sends it, then from a program
        table.delete(f"/api/games/{game}/turns/1", {"turns": 4})
        redone = table.post(f"/api/games/{game}/redo", {"index": 1, "turn": turn,
                                                        "turns": 3}).json["turns"]
    assert [t["id"] for t in redone][::2] == ids[::2] and redone[1]["id"] not in ids
    # a Redo naming an id another turn holds, or one no event has had yet: a new id
    for taken in ({**first[2], "id": ids[3]}, {**first[2], "id": 10**6}):
        table.delete(f"/api/games/{game}/turns/2", {"turns": 4})
        back = table.post(f"/api/games/{game}/redo", {"index": 2, "turn": taken,
                                                      "turns": 3}).json["turns"]
        assert back[2]["id"] not in (*ids, taken["id"]) and len({t["id"] for t in back}) == 4
    table.delete(f"/api/games/{game}/turns/2", {"turns": 4})  # the second exchange goes

    again = Table(make_app(db))
    after = turns_of(again, game)
    assert after == turns_of(table, game)
    assert [t["id"] for t in after] == [ids[0], redone[1]["id"], ids[3]]
    # the second exchange's edit, begun before the restart, meets its like at turn 3: refused
    stale = again.put(f"/api/games/{game}/turns/2", {"kind": "exchange", "count": 2,
                                                     "was": first[2]})
    assert stale.status_code == 409 and stale.json["reason_code"] == "turn_changed"
