"""Server-Sent Events: event ids, resuming from Last-Event-ID, keep-alives."""

from __future__ import annotations

import json

import pytest
from webui_support import ROW, Table, make_app

from webui.events import assets_version


class Stream:
    """Reads an event stream chunk by chunk, as a browser would."""

    def __init__(self, table: Table, game: int, last_id: str | None = None, query: bool = False):
        headers = {}
        url = f"/api/games/{game}/events"
        if last_id is not None and query:
            url += f"?last_event_id={last_id}"
        elif last_id is not None:
            headers["Last-Event-ID"] = last_id
        self.response = table.client.get(url, headers=headers, buffered=False)
        assert self.response.status_code == 200
        assert self.response.mimetype == "text/event-stream"
        self.chunks = iter(self.response.response)
        assert next(self.chunks).startswith(b"retry:")
        self.hello = self.next()
        assert self.hello["event"] == "hello"

    def next(self) -> dict:
        """The next message: {"comment": ...} for a keep-alive, else id/event/data."""
        text = next(self.chunks).decode()
        if text.startswith(":"):
            return {"comment": text.strip(": \n")}
        fields = dict(line.split(": ", 1) for line in text.strip().splitlines())
        fields["data"] = json.loads(fields["data"])
        return fields

    def close(self) -> None:
        self.response.close()


def test_first_event_is_the_current_state_with_its_version(table):
    game = table.new_game()
    stream = Stream(table, game)
    event = stream.next()
    assert event["event"] == "state"
    assert event["id"] == event["data"]["version"]
    assert event["data"]["players"][0]["name"] == "Ann"
    assert stream.next() == {"comment": "keep-alive"}  # nothing changed: keep-alive only
    table.place(game, ROW)
    changed = stream.next()
    assert changed["id"] != event["id"]
    assert changed["data"]["players"][0]["score"] == 3
    stream.close()


@pytest.mark.parametrize("query", [False, True])
def test_resume_from_last_event_id(table, query):
    game = table.new_game()
    current = table.client.get("/api/state").json["version"]
    # Up to date: the stream says nothing until something changes.
    stream = Stream(table, game, last_id=current, query=query)
    assert stream.next() == {"comment": "keep-alive"}
    stream.close()
    # A tablet that slept through a move gets the new state at once.
    table.place(game, ROW)
    stream = Stream(table, game, last_id=current, query=query)
    event = stream.next()
    assert event["data"]["players"][0]["score"] == 3
    assert event["id"] != current
    stream.close()


def test_pending_move_changes_are_events_too(table):
    game = table.new_game()
    stream = Stream(table, game)
    stream.next()
    table.post(f"/api/games/{game}/pending", {"tiles": ROW})
    assert stream.next()["data"]["pending"]["score"] == 3
    stream.close()


def test_a_new_game_is_announced_on_the_old_games_stream(table):
    old = table.new_game()
    stream = Stream(table, old)
    assert stream.next()["data"]["current_game"] == old
    new = table.new_game(["Cy", "Di"])
    assert stream.next()["data"]["current_game"] == new
    stream.close()


def test_a_stream_that_reaches_its_bound_says_it_ends(tmp_path):
    """The server ends every stream after SSE_MAX_S (30 min): the last event says so, so that
    a page connects again at once instead of taking the end for a lost connection."""
    table = Table(make_app(tmp_path / "games.sqlite3", SSE_MAX_S=0.5))
    stream = Stream(table, table.new_game())
    assert stream.next()["event"] == "state"
    while (message := stream.next()) == {"comment": "keep-alive"}:
        pass
    assert message == {"event": "end", "data": {}}
    assert next(stream.chunks, None) is None  # and then it ends
    stream.close()


def test_a_stream_first_names_the_script_the_pages_are_served_with(table, tmp_path):
    """A tablet left open through an upgrade learns from its next stream that the server now
    serves another script (and reloads); the digest follows every file the page loads."""
    game = table.new_game()
    page = table.client.get(f"/games/{game}/tablet").data.decode()
    served = Stream(table, game).hello["data"]["assets"]
    assert f'data-assets="{served}"' in page
    for name in ("app.js", "app.css", "rtl.css"):
        (tmp_path / name).write_text("body {}")
    before = assets_version(tmp_path)
    for name in ("app.js", "app.css", "rtl.css"):
        (tmp_path / name).write_text("body { color: red }")
        assert assets_version(tmp_path) != before
        before = assets_version(tmp_path)
