"""A network camera that keeps its socket open but stops sending frames is reported lost
within seconds, and is read again once it comes back (issue 11, item 9)."""

from __future__ import annotations

import http.server
import socket
import threading
import time

import cv2
import numpy as np
import pytest

from vision.source import SourceError, open_source, redact_url


class MjpegCamera:
    """A local MJPEG server: sends ``frames`` pictures, then holds the socket open, silent,
    until stopped (the stall a Wi-Fi camera shows when its sensor hangs)."""

    def __init__(self, frames: int) -> None:
        self.release = threading.Event()
        jpeg = cv2.imencode(".jpg", np.full((120, 160, 3), 90, np.uint8))[1].tobytes()
        camera = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=f")
                self.end_headers()
                try:
                    for _ in range(frames):
                        self.wfile.write(b"--f\r\nContent-Type: image/jpeg\r\nContent-Length: "
                                         + str(len(jpeg)).encode() + b"\r\n\r\n" + jpeg + b"\r\n")
                        self.wfile.flush()
                        time.sleep(0.05)
                except OSError:
                    return
                camera.release.wait(30)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://user:secret@127.0.0.1:{self.server.server_address[1]}/video"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def camera():
    started = MjpegCamera(frames=40)
    yield started
    started.stop()


def test_a_stalled_network_camera_is_lost_within_five_seconds_then_read_again(camera):
    got = 0
    with open_source(camera.url) as source:
        assert "secret" not in source.description
        with pytest.raises(SourceError, match="stopped delivering") as lost:
            for _ in source:
                got += 1
                last = time.monotonic()
        silent_for = time.monotonic() - last
    assert got >= 10 and silent_for <= 5.0, (got, silent_for)
    assert "secret" not in str(lost.value)
    # The camera is back (a new connection gets frames again): it is read again.
    camera.release.set()
    with open_source(camera.url) as again:
        assert next(iter(again)).image.shape == (120, 160, 3)


def test_a_camera_address_that_answers_nothing_is_an_error_not_a_hang():
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        start = time.monotonic()
        address = f"http://127.0.0.1:{silent.getsockname()[1]}/video"
        with pytest.raises(SourceError), open_source(address) as source:
            next(iter(source))
        assert time.monotonic() - start < 15


@pytest.mark.parametrize(("text", "shown"), [
    ("http://user:pw@192.168.1.5:8080/video", "http://192.168.1.5:8080/video"),
    ("camera rtsp://admin:p@ss@cam.local/live stopped", "camera rtsp://cam.local/live stopped"),
    ("http://192.168.1.5/video", "http://192.168.1.5/video"),
    ("no address here", "no address here"),
])
def test_credentials_are_taken_out_of_camera_addresses(text, shown):
    assert redact_url(text) == shown
