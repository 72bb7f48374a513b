"""Long-lived streams are counted: a cap per client address and in total, with a 503 past it,
so idle streams can never take the threads that serve the game's writes (issue 11)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import urllib.request

import pytest
from webui_support import ROW, Table, make_app

from webui import events
from webui.commands import serve
from webui.streams import StreamGate


def test_the_gate_caps_each_lan_address_and_the_total():
    gate = StreamGate(total=4, per_client=2)
    first = [gate.enter("192.168.1.9") for _ in range(3)]
    assert first[0] and first[1] and first[2] is None  # a neighbour gets two
    assert gate.enter("192.168.1.10") and gate.count() == 3
    assert gate.enter("127.0.0.1") and gate.enter("127.0.0.1") is None  # the total
    first[0]()
    first[0]()  # freeing twice frees one slot only
    assert gate.count() == 3 and gate.count("192.168.1.9") == 1


def test_loopback_is_held_to_the_total_only():
    gate = StreamGate(total=5, per_client=1)
    assert all(gate.enter("::1") for _ in range(5))
    assert gate.enter("::1") is None


@pytest.fixture
def table(tmp_path):
    table = Table(make_app(tmp_path / "games.sqlite3"))
    table.app.extensions["qwirkle_stream_gate"] = StreamGate(total=3, per_client=1)
    return table


def open_from(table: Table, address: str, path: str):
    client = table.app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client.get(path, buffered=False)


@pytest.mark.parametrize("kind", ["events", "preview"])
def test_past_the_cap_a_stream_is_a_clear_503_and_a_closed_one_frees_its_slot(table, kind):
    game = table.new_game()
    path = f"/api/games/{game}/events" if kind == "events" else "/camera.mjpeg"
    mine = open_from(table, "192.168.1.9", path)
    assert mine.status_code == 200
    again = open_from(table, "192.168.1.9", path)
    assert again.status_code == 503 and again.headers["Retry-After"] == "5"
    assert "Too many live views" in again.get_data(as_text=True)
    others = [open_from(table, f"192.168.1.{n}", path) for n in (20, 21)]
    assert [o.status_code for o in others] == [200, 200]
    assert open_from(table, "192.168.1.22", path).status_code == 503  # the total
    # Writes are not streams: they are served however many streams are open.
    table.place(game, ROW)
    mine.close()
    assert open_from(table, "192.168.1.22", path).status_code == 200
    for other in others:
        other.close()


def test_an_event_is_rendered_once_for_all_streams(table, monkeypatch):
    table.app.extensions["qwirkle_stream_gate"] = StreamGate(total=10, per_client=10)
    renders = []
    original = events.table_state
    monkeypatch.setattr(events, "table_state",
                        lambda game: renders.append(1) or original(game))
    game = table.new_game()
    streams = [open_from(table, "192.168.1.9", f"/api/games/{game}/events") for _ in range(5)]
    chunks = [iter(s.response) for s in streams]
    for chunk in chunks:
        assert next(chunk).startswith(b"retry:")
        assert next(chunk).startswith(b"event: hello")
        assert b"event: state" in next(chunk)
    assert len(renders) == 1
    table.place(game, ROW)
    for chunk in chunks:
        text = next(chunk)
        while text.startswith(b":"):
            text = next(chunk)
        assert b'"score": 3' in text
    assert len(renders) <= 3  # the pending move, its confirmation: once each, not per stream
    for stream in streams:
        stream.close()


class BigPreview:
    """A live loop stand-in whose preview frames are large and new each time."""

    def __init__(self) -> None:
        self.frames = 0

    def jpeg(self) -> bytes:
        self.frames += 1
        return bytes(200_000) + self.frames.to_bytes(4, "big")


def test_a_client_that_stops_reading_is_disconnected_and_its_slot_freed(tmp_path, monkeypatch):
    monkeypatch.setattr(serve, "STALLED_S", 1.0)
    app = make_app(tmp_path / "games.sqlite3", PREVIEW_FPS=50.0, SSE_MAX_S=60.0)
    app.extensions["qwirkle_live"] = BigPreview()
    server = serve.make_server(app, "127.0.0.1", 0, cleanup_s=0.5)
    port = server.effective_port

    def run() -> None:
        with contextlib.suppress(OSError):  # close() below pulls the sockets from under select
            server.run()

    threading.Thread(target=run, daemon=True).start()
    try:
        stalled = socket.create_connection(("127.0.0.1", port))
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.sendall(f"GET /camera.mjpeg HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        gate = app.extensions["qwirkle_stream_gate"]
        deadline = time.monotonic() + 30
        while gate.count() != 1:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        # It reads nothing: buffers fill, and then the clean-up ends the connection.
        while gate.count():
            assert time.monotonic() < deadline, "the stalled stream was never ended"
            time.sleep(0.1)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/camera", timeout=10) as reply:
            assert reply.status == 200  # and the server goes on serving
        stalled.close()
    finally:
        server.close()
