"""Fuzz every endpoint of the app: odd paths, queries, headers and bodies, with and without
the table token. Whatever the LAN sends, no answer is a 500 (issue 11), and the games
recorded before read back unchanged afterwards."""

from __future__ import annotations

import json
import random

import pytest
from webui_support import ROW, Table, make_app

ODD_TEXT = ["", " ", "\ud800", "\udfff\ud800", "\x00", "\r\n", "\x1b[2J", "A" * 5000, "🎲" * 50,
            "مريم", "=HYPERLINK(\"x\")", "../../etc/passwd", "%00", "<script>", "null", "-1",
            "1e309", "NaN", "\u202e", "ʼ", "\\", "'\"", "{{7*7}}", "%s%n", "\ufeff"]
ODD_VALUES = [None, True, False, 0, -1, 2**63, -(2**63) - 1, 1.5, float("inf"), [], {}, [[[]]],
              {"a": None}, *ODD_TEXT]
ODD_HEADERS = {
    "Origin": ["http://[", "null", "http://evil.example", "http://localhost", "\xff\xfe"],
    "Authorization": ["Bearer ", "Bearer \xff", "Basic Zm9vOmJhcg==", "Bearer " + "x" * 9000],
    "X-CSRF-Token": ["", "\xff", "x" * 9000],
    "Cookie": ["qwirkle_table=\xff", "qwirkle_table=" + "x" * 4000, "qwirkle_lang=\x00",
               "qwirkle_lang=zz"],
    "Last-Event-ID": ["\xff", "x" * 9000, "-1", "1.2.3"],
    "Accept-Language": ["\xff", "zz-ZZ;q=x", "*;q=2", "ar;q=0.5,hi"],
    "Content-Type": ["application/json; charset=latin-1", "text/plain", "multipart/form-data"],
}
RAW_BODIES = [b"", b"\xff\xfe\x00", b"{", b"[" * 5000 + b"]" * 5000, b'{"players": ["\\ud800"]}',
              b"null", b"1e99999", b'"' + b"x" * 60000 + b'"',
              b'{"tiles": [' + b"{}," * 2000 + b"{}]}"]
PATH_INTS = ["0", "1", "2", "99999999999999999999", "007"]


def odd_payload(rng: random.Random) -> object:
    shape = rng.randrange(6)
    if shape == 0:
        return rng.choice(ODD_VALUES)
    if shape == 1:
        return {"players": [rng.choice(ODD_TEXT) for _ in range(rng.randrange(8))],
                "colours": rng.choice([[rng.choice(ODD_TEXT)] * 6, rng.choice(ODD_VALUES)])}
    if shape == 2:
        tile = {key: rng.choice(ODD_VALUES) for key in ("x", "y", "colour", "shape")}
        return {"tiles": rng.choice([[tile], [dict(ROW[0]), tile], rng.choice(ODD_VALUES)])}
    if shape == 3:
        return {"kind": rng.choice(["place", "exchange", "pass", *ODD_TEXT[:5]]),
                "count": rng.choice(ODD_VALUES), "tiles": rng.choice([ROW, *ODD_VALUES[:6]])}
    if shape == 4:
        return {"pin": rng.choice(ODD_VALUES), "token": rng.choice(ODD_VALUES)}
    return {"went_out": rng.choice(ODD_VALUES), "index": rng.choice(ODD_VALUES)}


def fill(rule: str, rng: random.Random) -> str:
    """A concrete path for a URL rule: odd numbers and words for its parts."""
    path = rule
    while "<" in path:
        start, end = path.index("<"), path.index(">")
        spec = path[start + 1:end]
        if spec.startswith("int:"):
            value = rng.choice(PATH_INTS)
        elif spec.startswith("any("):
            value = rng.choice(spec[4:-1].replace(" ", "").split(","))
        else:
            value = rng.choice(["table", "tablet", "sheet", "status", "x", "%00", "a" * 300,
                                "%F0%9F%8E%B2", "..%2F..", "%ff"])
        path = path[:start] + value + path[end + 1:]
    return path


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path / "games.sqlite3", SSE_MAX_S=0.5)


def test_no_request_anywhere_answers_500(app):
    table = Table(app)
    game = table.new_game(["Ann", "Bob"])
    table.place(game, ROW)
    before = table.client.get(f"/api/games/{game}/state").json
    stranger = app.test_client()
    rng = random.Random(11)
    # Rotation last: it revokes the token the other requests go deeper with.
    rules = sorted(((rule.rule, method) for rule in app.url_map.iter_rules()
                    for method in sorted(rule.methods - {"HEAD", "OPTIONS"})),
                   key=lambda rule: rule[0] == "/api/auth/rotate")
    assert len(rules) >= 20
    answered: dict[int, int] = {}
    for rule, method in rules:
        for case in range(40):
            client = table.client if case % 2 else stranger
            path = fill(rule, rng)
            headers = dict(table.headers) if case % 4 == 1 else {}
            for name in rng.sample(sorted(ODD_HEADERS), rng.randrange(3)):
                headers[name] = rng.choice(ODD_HEADERS[name])
            query = {rng.choice(["next", "code", "t", "view", "last_event_id", "x"]):
                     rng.choice([t for t in ODD_TEXT if "\ud800" not in t and "\udfff" not in t])
                     for _ in range(rng.randrange(3))}
            if case % 3 == 0:
                body = rng.choice(RAW_BODIES)
            else:
                body = json.dumps(odd_payload(rng), allow_nan=True).encode()
            response = client.open(path, method=method, headers=headers, query_string=query,
                                   data=body if method != "GET" else None,
                                   content_type=headers.pop("Content-Type", "application/json"))
            answered[response.status_code] = answered.get(response.status_code, 0) + 1
            assert response.status_code < 500, (method, path, headers, query, body[:200])
            response.close()
            if client is stranger:  # the table's own client may change the game; no one else
                after = table.client.get(f"/api/games/{game}/state").json
                assert after["turns"] == before["turns"], (method, path)
                assert after["players"] == before["players"], (method, path)
            else:
                before = table.client.get(f"/api/games/{game}/state").json
    assert set(answered) - {200, 201, 302, 400, 403, 404, 405, 409, 413, 429}  == set(), answered


def test_the_socket_fuzzer_sends_to_every_route_the_app_serves(tmp_path):
    """`python -m webui.checks.fuzz_api` takes its routes from the app: one added later
    (swap, the table's check) is fuzzed without anyone listing it."""
    from webui.checks.fuzz_api import app_routes, request_bytes

    routes = app_routes(tmp_path)
    assert ("POST", "/api/games/{part}/pending/swap") in routes
    assert ("POST", "/api/games/{part}/table/accept") in routes
    assert ("DELETE", "/api/set") in routes
    assert not any("rotate" in path or "<" in path for _, path in routes)
    rng = random.Random(3)
    sent = {request_bytes(rng, routes, 8000, 1, "t", "").split(b" ")[0] for _ in range(300)}
    assert {b"GET", b"POST", b"PUT", b"DELETE", b"PATCH"} <= sent
