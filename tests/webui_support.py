"""Shared helpers for the web-app tests: an app on a temporary database and a joined client."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from webui.app import create_app

REPO = Path(__file__).resolve().parents[1]

ROW = [{"x": 0, "y": 0, "colour": "red", "shape": "star"},
       {"x": 1, "y": 0, "colour": "red", "shape": "circle"},
       {"x": 2, "y": 0, "colour": "red", "shape": "clover"}]
"""A legal opening move: a red line of three, worth 3."""


def make_app(db: Path, **config: Any) -> Flask:
    return create_app({"DB_PATH": str(db), "SSE_KEEPALIVE_S": 0.2, "SSE_MAX_S": 5.0, **config})


class Table:
    """A test client that has joined the table: it sends the CSRF header by itself."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client: FlaskClient = app.test_client()
        keys = app.extensions["qwirkle_keys"]
        assert self.client.get(f"/join?t={keys.token}").status_code == 200
        self.headers = {"X-CSRF-Token": keys.csrf()}

    def post(self, path: str, payload: Any = None, **kw: Any):
        return self.client.post(path, json=payload, headers=self.headers, **kw)

    def put(self, path: str, payload: Any):
        return self.client.put(path, json=payload, headers=self.headers)

    def delete(self, path: str, payload: Any = None):
        return self.client.delete(path, json=payload, headers=self.headers)

    def new_game(self, players=("Ann", "Bob")) -> int:
        response = self.post("/api/games", {"players": list(players)})
        assert response.status_code == 201, response.json
        return response.json["id"]

    def place(self, game_id: int, tiles: list[dict[str, Any]]) -> dict[str, Any]:
        """Put tiles up as the pending move and confirm them, as the tablet does."""
        assert self.post(f"/api/games/{game_id}/pending", {"tiles": tiles}).status_code == 200
        response = self.post(f"/api/games/{game_id}/pending/confirm")
        assert response.status_code == 200, response.json
        return response.json


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`qwirkle serve` in a subprocess, on a free port; its output goes to a log file (a pipe
    nobody reads would fill up and stall it)."""

    def __init__(self, db: Path, camera: str, options: tuple[str, ...] = ()) -> None:
        self.db, self.camera, self.port = db, camera, free_port()
        self.options = options  # more of `qwirkle serve`'s options
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = db.with_name(f"serve-{self.port}.log")
        self.process: subprocess.Popen | None = None
        self.token = ""
        self.output = ""

    def start(self, timeout: float = 30.0) -> Server:
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "webui.cli", "serve", "--camera", self.camera,
                 "--host", "127.0.0.1", "--port", str(self.port), "--db", str(self.db),
                 *self.options],
                stdout=log, stderr=subprocess.STDOUT, cwd=REPO,
                env=dict(os.environ, PYTHONUNBUFFERED="1"))
        deadline = time.monotonic() + timeout
        while True:
            self.output = self.log.read_text()
            found = re.search(r"Join link: \S+/join\?t=(\S+)", self.output)
            if found:
                try:
                    urllib.request.urlopen(f"{self.base}/api/camera", timeout=2)
                    self.token = found.group(1)
                    return self
                except OSError:
                    pass
            assert self.process.poll() is None, f"the server stopped:\n{self.output}"
            assert time.monotonic() < deadline, f"the server did not start:\n{self.output}"
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no chance to flush or close anything."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def api(self, method: str, path: str, payload: object = None) -> dict:
        """A request as another program would send it, with the bearer token."""
        request = urllib.request.Request(
            f"{self.base}{path}", method=method,
            data=None if payload is None else json.dumps(payload).encode(),
            headers={"Authorization": f"Bearer {self.token}",
                     "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


class Servers:
    """Starts servers for one test and kills whatever still runs at its end."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.started: list[Server] = []

    def start(self, camera: str, db: Path | None = None, options: tuple[str, ...] = ()) -> Server:
        self.started.append(Server(db or self.db, camera, options).start())
        return self.started[-1]

    def close(self) -> None:
        for server in self.started:
            if server.process.poll() is None:
                server.kill()


LAN_NAME = "qwirkle.test"
"""A host name the tests' browser resolves to 127.0.0.1 (tests/webui/conftest.py): pages
opened through it (on a server run with ``--allow-host qwirkle.test``) are those of a device
that has not joined, as on the LAN."""

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's chromium, which the browser tests drive through Playwright."""

SIZES = {"tv": (1920, 1080), "small tv": (1280, 720), "phone": (390, 844),
         "tablet": (800, 1280), "landscape tablet": (1280, 800), "landscape phone": (844, 390)}
"""Screens of a game night: a TV, a laptop on a small TV, a phone and a tablet both ways."""
