"""Fuzz a running `qwirkle serve` over raw sockets, as a neighbour on the Wi-Fi could.

Starts the server on a temporary database with a game in it, then sends ``--requests`` raw
HTTP requests built from a seed: every route with odd path parts (invalid UTF-8 bytes, huge
numbers, traversal), odd query strings, odd headers (foreign or oversized Host, CR/LF,
Latin-1 bytes, garbage Origin, cookies and tokens) and odd bodies (lone surrogates, control
characters, deep nesting, wrong types, invalid UTF-8), with and without the table token.
Prints the answers by status: a 500, a dropped connection or a timeout counts as a failure.
Then it checks that the game still reads back everywhere (state, list, exports, pages); the
token's holder may have changed it, but nothing sent may have broken it.

    .venv/bin/python -m webui.checks.fuzz_api --requests 3000
"""

from __future__ import annotations

import argparse
import random
import re
import socket
import sys
import tempfile
from collections import Counter
from pathlib import Path

from webui.app import create_app
from webui.checks.server import call, start_server


def app_routes(folder: Path) -> list[tuple[str, str]]:
    """(method, path) of every route the app serves, its variable parts as ``{name}`` holes,
    plus a few it does not: read from the app itself, so a route added later is fuzzed too.
    Token rotation is left out: it is sent last (it revokes the token the others go deeper
    with)."""
    app = create_app({"DB_PATH": folder / "routes.sqlite3"})
    found = [(method, re.sub(r"<[^>]*>", "{part}", rule.rule))
             for rule in app.url_map.iter_rules() if rule.rule != "/api/auth/rotate"
             for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})]
    return sorted(found) + [("PATCH", "/api/games"), ("GET", "/nowhere")]


PARTS = [b"1", b"0", b"99999999999999999999", b"-1", b"%ff%fe", b"\xff\xfe", b"..%2f..",
         b"table", b"tablet", b"sheet", b"status", b"a" * 3000, b"%00", b"%F0%9F%8E%B2"]
TEXT = ["\\ud800", "\\udfff", "\\u0000", "\\u001b[2J", "A" * 5000, "=HYPERLINK(\\\"x\\\")",
        "\\u202e", "مريم", "🎲", "\\r\\n", ""]
BODIES = [
    b'{"players": ["%s", "Bob"]}', b'{"players": ["Ann", "%s"], "colours": ["%s"]}',
    b'{"pin": "%s"}', b'{"token": "%s"}', b'{"tiles": [{"x": 0, "y": 0, "colour": "%s", '
    b'"shape": "star"}]}', b'{"kind": "%s", "count": 1}', b'{"went_out": "%s"}',
]
RAW = [b"", b"{", b"\xff\xfe\xfd", b"[" * 20000, b"null", b"[]", b"1e999999", b'{"a": NaN}',
       b'{"tiles": ' + b"[" * 3000 + b"]" * 3000 + b"}", b"x" * 70000]


def request_bytes(rng: random.Random, routes: list[tuple[str, str]], port: int, game: int,
                  token: str, csrf: str) -> bytes:
    method, route = rng.choice(routes)
    path = route.encode()
    while b"{" in path:
        start, end = path.index(b"{"), path.index(b"}")
        part = str(game).encode() if rng.random() < 0.5 else rng.choice(PARTS)
        path = path[:start] + part + path[end + 1:]
    if rng.random() < 0.4:
        key = rng.choice([b"next", b"code", b"t", b"view", b"last_event_id"])
        path += b"?" + key + b"=" + rng.choice(PARTS + [b"/games%0d%0aX:1", b"en", b"//evil"])
    host = rng.choice([f"127.0.0.1:{port}".encode()] * 6 + [
        b"evil.example:8000", b"a" * 9000, b"localhost", b"\xff", b"[::1", b"127.0.0.1:99999"])
    headers = [b"Host: " + host]
    if rng.random() < 0.5:
        headers.append(f"Authorization: Bearer {token}".encode() if rng.random() < 0.7 else
                       b"Authorization: Bearer " + rng.choice([b"\xff", b"x" * 9000, b""]))
    if rng.random() < 0.3:
        headers.append(f"Cookie: qwirkle_table={token}".encode() if rng.random() < 0.5 else
                       b"Cookie: qwirkle_table=\xff\x00; qwirkle_lang=" + rng.choice(PARTS))
        headers.append(f"X-CSRF-Token: {csrf}".encode() if rng.random() < 0.5 else
                       b"X-CSRF-Token: \xff")
    for name, values in ((b"Origin", [b"http://[", b"null", b"http://evil.example", b"\xff"]),
                         (b"Last-Event-ID", [b"\xff", b"x" * 9000]),
                         (b"Accept-Language", [b"\xff", b"zz;q=x", b"ar"])):
        if rng.random() < 0.15:
            headers.append(name + b": " + rng.choice(values))
    body = b""
    if method != "GET":
        if rng.random() < 0.6:
            template = rng.choice(BODIES)
            body = template % tuple(rng.choice(TEXT).encode() for _ in range(template.count(b"%s")))
        else:
            body = rng.choice(RAW)
        headers.append(b"Content-Type: application/json")
        headers.append(f"Content-Length: {len(body)}".encode())
    return (method.encode() + b" " + path + b" HTTP/1.1\r\n" + b"\r\n".join(headers)
            + b"\r\nConnection: close\r\n\r\n" + body)


def send(port: int, data: bytes, timeout: float) -> int | str:
    """The status of the answer, or what went wrong instead."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(data)
            head = sock.recv(32)  # streams never end: the status line is enough
    except TimeoutError:
        return "timeout"
    except OSError as error:
        return f"connection error ({error.__class__.__name__})"
    if not head.startswith(b"HTTP/1."):
        return "no answer"
    return int(head.split()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, port, token = start_server(Path(folder), "none")
        try:
            call(port, token, "POST", "/api/games", {"players": ["Ann", "Bob"]})
            tiles = [{"x": 0, "y": 0, "colour": "red", "shape": "star"},
                     {"x": 1, "y": 0, "colour": "red", "shape": "circle"}]
            call(port, token, "POST", "/api/games/1/turns", {"kind": "place", "tiles": tiles})
            rng = random.Random(args.seed)
            routes = app_routes(Path(folder))
            answers: Counter[int | str] = Counter()
            for _ in range(args.requests):
                answers[send(port, request_bytes(rng, routes, port, 1, token, ""), 10.0)] += 1
            # Rotation last: it revokes the token the requests above go deeper with.
            rotate = (f"POST /api/auth/rotate HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                      f"Authorization: Bearer {token}\r\nContent-Length: 0\r\n\r\n")
            answers[send(port, rotate.encode(), 10.0)] += 1
            unreadable = [path for path in READS if send(port, get(path, port), 10.0) != 200]
        finally:
            process.kill()
            process.wait()
    failures = sum(n for key, n in answers.items() if not isinstance(key, int) or key >= 500)
    print(f"requests {sum(answers.values())}: answers {dict(sorted(answers.items(), key=str))}")
    print(f"failures (5xx, no answer, timeout): {failures}; game 1 afterwards: "
          + (f"does not read at {', '.join(unreadable)}" if unreadable else "reads everywhere"))
    return 0 if failures == 0 and not unreadable else 1


READS = ("/api/state", "/api/games", "/api/games/1/state", "/api/games/1/export.csv",
         "/api/games/1/export.json", "/games", "/games/1/table", "/games/1/sheet")


def get(path: str, port: int) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()


if __name__ == "__main__":
    sys.exit(main())
