"""Soak `qwirkle serve` with idle streams while tablets write: write latency and memory.

Starts the server on a temporary database, opens ``--streams`` long-lived streams (event
streams and camera previews, ``--mjpeg`` of them previews) from clients that never read a
byte (the worst case: everything sent to them waits in buffers) or, with ``--readers``, a
share that reads. Meanwhile ``--writers`` tablets each change the game in a loop (a move put
up for confirmation, then dismissed: every write is an event on every stream). It prints the
write latency (p50, p99, max, timeouts), the server's RSS at the start, its range while
streams were open, and after they closed, plus how many streams were refused (503).

    .venv/bin/python -m webui.checks.soak --streams 100 --seconds 60
    .venv/bin/python -m webui.checks.soak --streams 50 --seconds 600 --readers 0.5
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from webui.checks.server import call, start_server

TILES = [{"x": 0, "y": 0, "colour": "red", "shape": "star"},
         {"x": 1, "y": 0, "colour": "red", "shape": "circle"}]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def open_stream(port: int, path: str, reads: bool, stop: threading.Event) -> int:
    """Open one stream; its HTTP status. A reading client drains it until ``stop``."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    if not reads:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    head = sock.recv(64)
    status = int(head.split()[1]) if head.startswith(b"HTTP/") else 0
    if status != 200:
        sock.close()
        return status

    def drain() -> None:
        sock.settimeout(1.0)
        while not stop.is_set():
            try:
                if not sock.recv(65536):
                    break
            except TimeoutError:
                continue
            except OSError:
                break

    if reads:
        threading.Thread(target=drain, daemon=True).start()
    OPEN.append(sock)
    return status


OPEN: list[socket.socket] = []


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--mjpeg", type=float, default=0.3, help="share of camera previews")
    parser.add_argument("--readers", type=float, default=0.0, help="share of streams that read")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--writers", type=int, default=6)
    parser.add_argument("--camera", default="none", help="the server's --camera (demo: a live "
                        "preview to stream, at the cost of CPU)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, port, token = start_server(Path(folder), args.camera)
        try:
            return soak(args, process, port, token)
        except SystemExit:
            print((Path(folder) / "serve.log").read_text()[-3000:], file=sys.stderr)
            raise
        finally:
            process.kill()
            process.wait()


def soak(args: argparse.Namespace, process: subprocess.Popen, port: int, token: str) -> int:
    if call(port, token, "POST", "/api/games", {"players": ["Ann", "Bob"]}) != 201:
        raise SystemExit("could not create a game")
    game = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state").read())["id"]
    rss = {"start": rss_mb(process.pid)}
    stop = threading.Event()
    statuses: dict[int, int] = {}
    previews = int(args.streams * args.mjpeg)
    readers = int(args.streams * args.readers)
    for index in range(args.streams):
        path = "/camera.mjpeg" if index < previews else f"/api/games/{game}/events"
        status = open_stream(port, path, reads=index % max(1, args.streams) < readers, stop=stop)
        statuses[status] = statuses.get(status, 0) + 1
    latencies: list[float] = []
    failures = [0]
    lock = threading.Lock()

    def tablet() -> None:
        while not stop.is_set():
            for method, path, payload in (("POST", f"/api/games/{game}/pending", {"tiles": TILES}),
                                          ("POST", f"/api/games/{game}/pending/dismiss", None)):
                started = time.monotonic()
                try:  # 409: another tablet dismissed the move first, an answer all the same
                    ok = call(port, token, method, path, payload) in (200, 409)
                except OSError:
                    ok = False
                with lock:
                    latencies.append(time.monotonic() - started)
                    failures[0] += not ok
            time.sleep(0.2)

    writers = [threading.Thread(target=tablet, daemon=True) for _ in range(args.writers)]
    for writer in writers:
        writer.start()
    samples = []
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        time.sleep(min(5.0, max(0.1, end - time.monotonic())))
        samples.append(rss_mb(process.pid))
    stop.set()
    for writer in writers:
        writer.join(15)
    for sock in OPEN:
        sock.close()
    closed = time.monotonic()
    while True:
        if process.poll() is not None:
            raise SystemExit(f"the server stopped (exit status {process.returncode})")
        try:
            if call(port, token, "GET", "/api/state", timeout=30) == 200:
                break
        except OSError:
            time.sleep(0.1)
    recovery = time.monotonic() - closed
    time.sleep(10)
    rss["after"] = rss_mb(process.pid)
    print(f"streams asked {args.streams} ({previews} previews, {readers} reading): "
          f"answers {dict(sorted(statuses.items()))}")
    print(f"writes {len(latencies)} by {args.writers} tablets in {args.seconds:.0f} s: "
          f"p50 {1000 * percentile(latencies, 0.5):.0f} ms, "
          f"p99 {1000 * percentile(latencies, 0.99):.0f} ms, "
          f"max {1000 * max(latencies, default=0):.0f} ms, "
          f"failed or timed out {failures[0]}")
    print(f"RSS MB: start {rss['start']:.0f}, with streams {min(samples):.0f}..{max(samples):.0f} "
          f"(drift {samples[-1] - samples[0]:+.0f} from first to last sample), "
          f"10 s after they closed {rss['after']:.0f}; a read answered "
          f"{recovery:.2f} s after they closed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
