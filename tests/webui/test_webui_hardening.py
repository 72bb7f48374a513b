"""What a careless or hostile neighbour on the Wi-Fi can send (issue 11): odd text, a stored
bad row, a foreign Host, PIN guessing, leaked secrets, spreadsheet formulas. Each is refused
with a clear answer, and nothing already recorded is lost or hidden."""

from __future__ import annotations

import json
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request

import pytest
from webui_support import REPO, ROW, Table, free_port, make_app

from webui.auth import COOKIE, PIN_LOCKOUT_S, PIN_TRIES, TableKeys
from webui.history import aliases


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


@pytest.fixture
def app(db):
    return make_app(db)


@pytest.fixture
def table(app):
    return Table(app)


def send(client, path: str, payload: object, headers: dict | None = None):
    """POST JSON as a program would write it: ASCII with \\u escapes, so a lone surrogate
    reaches the server as JSON allows (the test client would refuse to encode it)."""
    return client.post(path, data=json.dumps(payload), content_type="application/json",
                       headers=headers or {})


# --- text at the edge ------------------------------------------------------------------------

@pytest.mark.parametrize("players", [
    ["\ud800", "Bob"],                 # a lone surrogate: valid JSON, not UTF-8
    ["Ann\x00", "Bob"],                # control characters
    ["Ann\nBob", "Cy"],
    ["\x1b[31mAnn", "Bob"],
    ["A" * 41, "Bob"],                 # longer than 40 once trimmed
    ["Ann", 7],
    ["\u200b", "Bob"],                 # only invisible format characters: a blank TV row
    ["\u200f\u2069 ", "Bob"],
    ["\u0301", "Bob"],                 # a lone combining accent
    ["Ann\u202eevil", "Bob"],          # an override: shows as "Annlive"
    ["\u2067Ann\u2069", "Bob"],         # an isolate
    ["Ann", "Bob", "ann "],            # one player twice, as the history counts players
    ["\u3164", "Bob"],                 # a Hangul filler: a letter that draws nothing
    ["\u2800\u2800", "Bob"],           # the blank Braille pattern
    ["Ann", "Ann\u200b"],              # one name twice, one with a zero-width space
    ["Ann", "A\u00adnn"],              # ... a soft hyphen
    ["Ann", "An\U000e0100n"],          # ... a variation selector of the supplement
    ["Ann", "A\u17b4nn"],              # ... a Khmer inherent vowel, which draws nothing
    ["Ann", "Ann\u180b"],              # ... a Mongolian variation selector
    ["Ann", "Ａnn"],                    # ... a full-width A
    ["Zoë", "Zoe\u0308"],              # ... the accent as a character of its own
])
def test_bad_names_are_400_with_a_reason_and_store_nothing(table, players):
    response = send(table.client, "/api/games", {"players": players}, table.headers)
    assert response.status_code == 400 and response.json["error"]
    assert table.client.get("/api/games").json == []


def test_names_are_trimmed_and_forty_characters_fit(table):
    game = table.new_game(["  Ann  ", "B" * 40 + "   ", "مريم 🎲"])
    names = [p["name"] for p in table.client.get(f"/api/games/{game}/state").json["players"]]
    assert names == ["Ann", "B" * 40, "مريم 🎲"]


def test_names_keep_their_direction_marks_and_a_repeat_is_named(table):
    game = table.new_game(["\u200fمريم", "Ann\u200e", "Zoë"])
    names = [p["name"] for p in table.client.get(f"/api/games/{game}/state").json["players"]]
    assert names == ["\u200fمريم", "Ann\u200e", "Zoë"]
    twice = table.post("/api/games", {"players": ["Ann", "Bob", "BOB"]}).json["error"]
    assert "Seats 2 and 3 are both called BOB" in twice


def test_a_refused_name_names_its_seat_as_the_setup_form_numbers_it(table):
    """The set-up form sends a field per seat, blank ones too. "A player's name has 1 to 40
    characters" left players to find which of six fields was meant: each refusal names the
    seat, counting the blank ones, which the players close up round once the names pass."""
    long = table.post("/api/games", {"players": ["Ann", "", "C" * 41]}).json["error"]
    assert long == "Seat 3: A player's name has 1 to 40 characters."
    blank = table.post("/api/games", {"players": ["Ann", "\u200b"]}).json["error"]
    assert blank.startswith("Seat 2: A player's name needs a letter")
    twice = table.post("/api/games", {"players": ["Ann", " ", "Bob", "", "ANN"]}).json["error"]
    assert twice.startswith("Seats 1 and 5 are both called ANN: tell them apart")
    game = table.new_game(["Ann", "", "Cy"])
    names = [p["name"] for p in table.client.get(f"/api/games/{game}/state").json["players"]]
    assert names == ["Ann", "Cy"]


def test_a_name_with_an_invisible_character_is_the_same_player(table):
    """A guest typing "Ann" and a zero-width space does not start a second Ann: the history
    counts one player, as it does for "ann "."""
    for players in (["Ann", "Bob"], ["Ann\u200b", "Cy"], ["ANN\u2060", "Di"]):
        game = table.new_game(players)
        table.post(f"/api/games/{game}/finish", {"went_out": None})
    page = table.client.get("/players").data.decode()
    assert page.count("<tr data-player=") == 4  # Ann, Bob, Cy, Di
    assert '<tr data-player="ANN\u2060"><th scope="row">' in page


@pytest.mark.parametrize(("name", "status"), [
    ("\udc00", 400), ("x" * 60_000, 400), ("a\u0000b", 400), ("\u200b", 400), (7, 400),
    ("Nobody", 404),
])
def test_a_merge_of_a_bad_or_unknown_name_is_refused_and_stores_no_alias(table, name, status):
    game = table.new_game(["Ann", "Bob"])
    table.post(f"/api/games/{game}/finish", {"went_out": None})
    for payload in ({"name": name, "into": "Ann"}, {"name": "Bob", "into": name}):
        response = send(table.client, "/api/players/merge", payload, table.headers)
        assert response.status_code == status and response.json["error"], payload
    with table.app.app_context():
        assert aliases() == {}


def test_a_lone_surrogate_as_colour_is_400(table):
    response = send(table.client, "/api/games", {"players": ["A", "B"], "colours": ["\udfff"] * 6},
                    table.headers)
    assert response.status_code == 400


@pytest.mark.parametrize("payload", [{"pin": "\ud800"}, {"token": "\ud800\udc00x"},
                                     {"pin": "12\x003456"}, {"token": "x" * 5000}])
def test_odd_pins_and_tokens_are_refused_not_500(app, payload):
    response = send(app.test_client(), "/api/join", payload)
    assert response.status_code == 403 and response.json["error"]


def test_odd_cookies_csrf_and_bearer_are_403(table):
    game = table.new_game()
    path = f"/api/games/{game}/turns"
    # Header bytes reach the app decoded as Latin-1: any byte, never a surrogate.
    for headers in ({"Authorization": "Bearer \xff\xfe"}, {"X-CSRF-Token": "\xc3\x00"},
                    {"Authorization": "Bearer " + "y" * 10000}):
        response = table.client.post(path, json={"kind": "pass"}, headers=headers)
        assert response.status_code == 403
    cookie = {"Cookie": f"{COOKIE}=\xff\x01", **table.headers}
    assert table.app.test_client().post(path, json={"kind": "pass"},
                                        headers=cookie).status_code == 403


# --- one bad row never takes the archive down -------------------------------------------

def test_a_bad_stored_row_leaves_the_rest_readable_even_after_a_restart(db, table):
    good = table.new_game()
    table.place(good, ROW)
    with sqlite3.connect(db) as raw:  # what an older version stored from {"players": ["\ud800"]}
        raw.execute("INSERT INTO games (created, players, colours) VALUES (?, ?, ?)",
                    ("2026-01-01T00:00:00+00:00", json.dumps(["\ud800", "Bob"]),
                     json.dumps(["red", "orange", "yellow", "green", "blue", "purple"])))
        raw.execute("INSERT INTO games (created, players, colours) VALUES (?, ?, ?)",
                    ("not a date", "[]", "[]"))
        raw.execute("INSERT INTO games (created, players, colours) VALUES (?, ?, ?)",
                    ("2026-01-01T00:00:00+00:00", '["Solo"]', '["pink", "red"]'))
        events = [(good, 99, "2026-01-01T00:00:00+00:00", "play", "{not json"),
                  (good, 100, "not a date", "play", "{}"),
                  (good, 101, "2026-01-01T00:00:00+00:00", "play",
                   json.dumps({"turn": {"kind": "place", "tiles": [
                       {"x": 0, "y": 1, "colour": ["red"], "shape": {"a": 1}}]}}))]
        raw.executemany("INSERT INTO events (game_id, seq, at, kind, payload) "
                        "VALUES (?, ?, ?, ?, ?)", events)
    again = Table(make_app(db))
    for path in ("/api/state", "/api/games", f"/api/games/{good}/state", "/games", "/setup",
                 f"/games/{good}/table", f"/games/{good}/sheet",
                 f"/api/games/{good}/export.csv", f"/api/games/{good}/export.json"):
        assert again.client.get(path).status_code == 200, path
    assert [g["id"] for g in again.client.get("/api/games").json] == [good]
    assert again.client.get("/api/state").json["players"][0]["score"] == 3


# --- the Host header (DNS rebinding) -------------------------------------------------------

@pytest.mark.parametrize("host", ["evil.example:8000", "evil.example", "a" * 5000,
                                  "localhost.evil.example", "127.0.0.1.nip.io:8000"])
def test_a_foreign_host_gets_400_and_no_secret(app, host):
    client = app.test_client()
    for path in ("/setup", "/table", "/api/state", "/join?t=x"):
        response = client.get(path, headers={"Host": host})
        assert response.status_code == 400, path
        assert "Set-Cookie" not in response.headers
        assert app.extensions["qwirkle_keys"].pin not in response.get_data(as_text=True)
    response = client.post("/api/games", json={"players": ["A", "B"]},
                           headers={"Host": host, "Origin": f"http://{host}"})
    assert response.status_code == 400
    assert response.json["status"] == 400 and "Host" in response.json["error"]  # JSON, as /api


def test_allowed_hosts_and_the_lan_address_are_served(db):
    app = make_app(db, HOST_ADDRESSES=("192.168.1.20",), ALLOW_HOSTS=("qwirkle.lan",))
    client = app.test_client()
    for host in ("localhost:8000", "127.0.0.1:8000", "192.168.1.20:8000", "qwirkle.lan"):
        assert client.get("/setup", headers={"Host": host}).status_code == 200, host


@pytest.mark.parametrize("host", ["LOCALHOST", "LocalHost:8000", "QWIRKLE.LAN"])
def test_a_host_name_in_capitals_is_this_server(db, host):
    """Host names are case-insensitive: a name typed in capitals reaches the same server
    (it was refused as a stranger), joins the laptop by itself when it is a loopback name,
    and the changes its pages send are not taken for another site's."""
    app = make_app(db, ALLOW_HOSTS=("qwirkle.lan",))
    client = app.test_client()
    response = client.get("/setup", headers={"Host": host})
    assert response.status_code == 200
    assert ("Set-Cookie" in response.headers) == host.lower().startswith("localhost")
    headers = {"Host": host, "Origin": f"http://{host}",
               "Authorization": f"Bearer {app.extensions['qwirkle_keys'].token}"}
    response = client.post("/api/games", json={"players": ["Ann", "Bob"]}, headers=headers)
    assert response.status_code == 201, response.json


def test_language_link_with_cr_lf_or_a_long_target_stays_on_this_site(table):
    for target in ("/games\r\nSet-Cookie: x=1", "/\tx",
                   "/\\evil.example", "/" + "a" * 5000):
        response = table.client.get("/lang", query_string={"code": "en", "next": target})
        assert response.status_code == 302 and response.headers["Location"] == "/"


# --- PIN guessing, rotation, hashed token ------------------------------------------------

def join_from(app, address: str, pin: str):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client.post("/api/join", json={"pin": pin})


def test_a_guessing_neighbour_locks_out_only_their_own_address(app):
    pin = app.extensions["qwirkle_keys"].pin
    wrong = f"{(int(pin) + 1) % 10**6:06d}"
    codes = [join_from(app, "192.168.1.66", wrong).status_code for _ in range(PIN_TRIES)]
    assert codes == [403] * PIN_TRIES
    assert join_from(app, "192.168.1.66", pin).status_code == 429
    assert join_from(app, "192.168.1.30", pin).status_code == 200


def test_each_lockout_in_a_row_lasts_longer(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr("webui.auth.time.monotonic", lambda: clock[0])
    keys = TableKeys([], lambda hashes: None)
    wrong = f"{(int(keys.pin) + 1) % 10**6:06d}"

    def lock_out() -> None:
        for _ in range(PIN_TRIES):
            assert keys.try_pin("10.0.0.9", wrong) is False

    lock_out()
    clock[0] += PIN_LOCKOUT_S + 1
    lock_out()
    clock[0] += PIN_LOCKOUT_S + 1
    assert keys.try_pin("10.0.0.9", keys.pin) is None  # the second lockout is twice as long
    clock[0] += PIN_LOCKOUT_S
    assert keys.try_pin("10.0.0.9", keys.pin) is True


def test_rotation_gives_a_new_pin_and_link_and_revokes_every_other_device(app, table):
    other = Table(app)
    game = table.new_game()
    old_pin, old_token = app.extensions["qwirkle_keys"].pin, app.extensions["qwirkle_keys"].token
    assert app.test_client().post("/api/auth/rotate").status_code == 403  # needs the token
    response = table.post("/api/auth/rotate")
    assert response.status_code == 200
    fresh = response.json
    assert fresh["pin"] != old_pin and old_token not in fresh["join_url"]
    assert "/join?t=" in fresh["join_url"]
    # The other tablet is out; the one that rotated goes on with the new CSRF token.
    assert other.post(f"/api/games/{game}/pending", {"tiles": ROW}).status_code == 403
    table.headers = {"X-CSRF-Token": fresh["csrf"]}
    assert table.post(f"/api/games/{game}/pending", {"tiles": ROW}).status_code == 200
    assert app.test_client().post("/api/join", json={"pin": old_pin}).status_code == 403
    assert app.test_client().get(f"/join?t={old_token}").status_code == 403
    assert app.test_client().post("/api/join", json={"pin": fresh["pin"]}).status_code == 200


def test_a_device_put_out_by_a_new_pin_is_told_so_and_led_to_the_pin_box(app, table):
    """After another device's New PIN, a tablet's tap answers reason_code not_joined (its
    page then asks for the PIN again), and the old QR code's page leads to the tablet view,
    where the PIN box is: it led to the TV's view, which has none."""
    other = Table(app)
    game = table.new_game()
    old_token = app.extensions["qwirkle_keys"].token
    table.post("/api/auth/rotate")
    refused = other.post(f"/api/games/{game}/pending", {"tiles": ROW})
    assert refused.status_code == 403 and refused.json["reason_code"] == "not_joined"
    page = app.test_client().get(f"/join?t={old_token}", environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert page.status_code == 403
    assert 'class="button" href="/tablet"' in page.data.decode()


def test_the_database_holds_no_raw_token_or_pin(db, table):
    keys = table.app.extensions["qwirkle_keys"]
    raw = db.read_bytes() + b"".join(p.read_bytes() for p in db.parent.glob("*-wal"))
    assert keys.token.encode() not in raw and keys.pin.encode() not in raw
    # A restart shows a new link; the tablet that joined before stays joined.
    again = make_app(db)
    assert again.extensions["qwirkle_keys"].token != keys.token
    assert again.test_client().get(f"/join?t={keys.token}").status_code == 200


def test_an_old_database_with_a_raw_token_is_hashed_and_keeps_its_tablets(db):
    with sqlite3.connect(db) as raw:
        raw.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        raw.execute("INSERT INTO settings VALUES ('token', 'old-raw-token'), ('pin', '123456')")
    app = make_app(db)
    assert app.test_client().get("/join?t=old-raw-token").status_code == 200
    with sqlite3.connect(db) as raw:
        assert "old-raw-token" not in str(raw.execute("SELECT * FROM settings").fetchall())


# --- secrets and spreadsheets ---------------------------------------------------------------

def test_camera_credentials_are_never_shown(app, table):
    games = app.extensions["qwirkle_games"]
    games.set_camera("lost", "cannot open camera http://admin:hunter2@192.168.1.9:8080/video")
    remote = app.test_client()
    remote.environ_base["REMOTE_ADDR"] = "192.168.1.50"
    for path in ("/api/camera", "/setup", "/part/camera"):
        text = remote.get(path).get_data(as_text=True)
        assert "192.168.1.9:8080" in text and "hunter2" not in text and "admin" not in text


def test_csv_export_neutralises_formulas_and_has_a_bom(table):
    game = table.new_game(['=HYPERLINK("http://x","y")', "+1", "-2", "@cmd", "مريم 🎲"])
    table.place(game, ROW)
    data = table.client.get(f"/api/games/{game}/export.csv").data
    assert data.startswith(b"\xef\xbb\xbf")
    header = data.decode("utf-8-sig").splitlines()[0]
    assert header == ("round,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",'+1,'-2,'@cmd,"
                      "مريم 🎲")


# --- the real server: Host names and idle streams ------------------------------------------

def raw_get(port: int, path: str, host: str, timeout: float = 10.0) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        return int(sock.recv(64).split()[1])


def test_serve_answers_its_own_names_and_stays_writable_behind_idle_streams(tmp_path):
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "webui.cli", "serve", "--camera", "none", "--host", "127.0.0.1",
         "--port", str(port), "--db", str(tmp_path / "games.sqlite3"),
         "--allow-host", "Qwirkle.LAN"], stdout=log, stderr=subprocess.STDOUT, cwd=REPO)
    idle = []
    try:
        deadline = time.monotonic() + 60
        while True:  # until it prints the link and answers
            assert server.poll() is None and time.monotonic() < deadline
            try:
                if raw_get(port, "/api/camera", f"127.0.0.1:{port}") == 200:
                    break
            except OSError:
                time.sleep(0.2)
        token = re.search(r"/join\?t=(\S+)", (tmp_path / "serve.log").read_text()).group(1)
        assert raw_get(port, "/api/camera", "qwirkle.lan") == 200
        assert raw_get(port, "/setup", "evil.example:8000") == 400
        # More idle streams than the 32 threads that used to serve everything.
        for _ in range(40):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(f"GET /camera.mjpeg HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            idle.append(sock)
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/games", method="POST",
            data=json.dumps({"players": ["Ann", "Bob"]}).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 201
    finally:
        for sock in idle:
            sock.close()
        server.kill()
        server.wait()


def test_a_set_of_one_colour_six_times_is_400_in_plain_words(table):
    response = table.post("/api/games", {"players": ["Ann", "Bob"], "colours": ["red"] * 6})
    assert response.status_code == 400
    assert response.json["error"] == "colours must be a list of six colour names"
    assert table.client.get("/api/games").json == []


@pytest.mark.parametrize("count", ["2", 2.5, True, 0, 7, None])
def test_an_exchange_of_a_bad_count_names_the_real_range(table, count):
    game = table.new_game()
    response = table.post(f"/api/games/{game}/turns", {"kind": "exchange", "count": count})
    assert response.status_code == 400
    assert response.json["error"] == "an exchange swaps between 1 and 6 tiles"
    assert table.client.get(f"/api/games/{game}/state").json["turns"] == []


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json_and_store_nothing(table, constant):
    """Python's reader takes them; RFC 8259 does not, and no field should ever see one."""
    body = '{"players": ["Ann", "Bob"], "seats": ' + constant + '}'
    response = table.client.post("/api/games", data=body, content_type="application/json",
                                 headers=table.headers)
    assert response.status_code == 400
    assert response.json["error"] == "The request body is not valid JSON."
    assert table.client.get("/api/games").json == []


@pytest.mark.parametrize(("data", "content_type", "error"), [
    ('{"players": ["Ann", "Bob"]}', "text/plain", "Send the request body as JSON, with "
                                                  "Content-Type: application/json."),
    ('{"players": ["Ann", "Bob"', "application/json", "The request body is not valid JSON."),
    ("null", "application/json", "The request body must be a JSON object."),
    ('["Ann", "Bob"]', "application/json", "The request body must be a JSON object."),
])
def test_a_body_that_is_no_json_object_says_what_is_wrong_with_it(table, data, content_type,
                                                                  error):
    response = table.client.post("/api/games", data=data, content_type=content_type,
                                 headers=table.headers)
    assert response.status_code == 400 and response.json["error"] == error
    assert table.client.get("/api/games").json == []


@pytest.mark.parametrize("digit", ["%D9%A0", "%EF%BC%90", "%E0%A5%A6"])  # ٠, full-width 0, ०
def test_a_turn_number_in_another_scripts_digits_is_no_address(table, digit):
    """Werkzeug's ``\\d`` took them: DELETE .../turns/٠ acted on turn 0."""
    game = table.new_game()
    table.place(game, ROW)
    response = table.delete(f"/api/games/{game}/turns/{digit}", {})
    assert response.status_code == 404 and response.json["status"] == 404
    assert len(table.client.get(f"/api/games/{game}/state").json["turns"]) == 1


@pytest.mark.parametrize("index", [-1, -7, "0", 0.5, True, [0]])
def test_an_undo_naming_a_turn_no_game_has_is_400_with_a_reason(table, index):
    """A negative or ill-typed turn index is a malformed request, answered 400 and said
    why; it was 409 "the turns changed since you asked", as if another device had acted."""
    game = table.new_game()
    table.place(game, ROW)
    response = table.post(f"/api/games/{game}/undo", {"index": index})
    assert response.status_code == 400
    assert response.json["error"] in ("index must be a whole number",
                                      f"index must be 0 or more, not {index}")
    assert len(table.client.get(f"/api/games/{game}/state").json["turns"]) == 1


def test_a_negative_count_of_turns_seen_is_400_and_a_stale_one_409(table):
    """"turns" (how many turns the tablet showed) below 0 is malformed; a whole number the
    game has since moved past is what a tablet overtaken by another sends, and keeps the
    409 that makes it look again."""
    game = table.new_game()
    table.place(game, ROW)
    refused = table.delete(f"/api/games/{game}/turns/0", {"turns": -1})
    assert refused.status_code == 400 and refused.json["error"] == "turns must be 0 or more, not -1"
    stale = table.post(f"/api/games/{game}/undo", {"index": 1})
    assert stale.status_code == 409 and stale.json["reason_code"] == "turns_changed"
    assert table.post(f"/api/games/{game}/undo", {"index": 0}).status_code == 200
