"""A real `qwirkle serve` on a temporary database, and plain HTTP calls to it, for the checks
of this package (soak, fuzz_api): they talk to the server over its sockets, as the tablets
and the neighbours on the Wi-Fi do, not through Flask's test client."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(folder: Path, camera: str, options: tuple[str, ...] = ()
                 ) -> tuple[subprocess.Popen, int, str]:
    """Start `qwirkle serve --camera CAMERA` (and ``options``) with its database and log in
    `folder`; the process, its port and the table token, once it answers."""
    port = free_port()
    log = (folder / "serve.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "webui.cli", "serve", "--camera", camera, "--host", "127.0.0.1",
         "--port", str(port), "--db", str(folder / "games.sqlite3"), *options],
        stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = re.search(r"/join\?t=(\S+)", (folder / "serve.log").read_text())
        if found:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/camera", timeout=2)
                return process, port, found.group(1)
            except OSError:
                pass
        time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start:\n" + (folder / "serve.log").read_text())


def call(port: int, token: str, method: str, path: str, payload: object = None,
         timeout: float = 10.0) -> int:
    return ask(port, token, method, path, payload, timeout)[0]


def ask(port: int, token: str, method: str, path: str, payload: object = None,
        timeout: float = 10.0) -> tuple[int, Any]:
    """The status of one API call as a program with the table token makes it, and the JSON
    it answered (None when it answered none)."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method=method,
        data=None if payload is None else json.dumps(payload).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, _json(response.read())
    except urllib.error.HTTPError as error:
        return error.code, _json(error.read())


def _json(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return None
