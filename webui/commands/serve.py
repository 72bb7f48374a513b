"""`qwirkle serve`: the table app. Tablets on the Wi-Fi follow and confirm the game.

With no ``--camera`` it tries the laptop's webcam, and if none opens it runs the built-in
demo: a simulated game rendered as camera footage goes through the same tracker as a real
camera, so a newcomer sees the whole product with one command.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import segno
import waitress

from engine.board import Placed
from engine.tiles import COLOURS
from vision.source import (
    STREAM_PREFIXES,
    FrameSource,
    Problem,
    SourceError,
    english,
    open_source,
    redact_url,
)
from vision.tracker import MoveTracker
from webui.app import attach_live, create_app
from webui.commands import CommandError, add_set_option, colour_list, set_profile
from webui.games import Games
from webui.streams import REQUEST_THREADS, STREAMS_TOTAL

if TYPE_CHECKING:
    from vision.setprofile import SetProfile

EXAMPLE = """examples:
  qwirkle serve                                  # webcam 0, or the demo when there is none
  qwirkle serve --camera demo --port 8080
  qwirkle serve --camera http://192.168.1.23:8080/video --colours red,orange,yellow,green,blue,white
  qwirkle serve --camera 1 --db ~/qwirkle-family.sqlite3"""

CONNECTIONS = 4 * (STREAMS_TOTAL + REQUEST_THREADS)
"""Open sockets waitress accepts (its default, 100, stops accepting anything, a tablet's
write included, once a hundred idle streams are open)."""

OUTBUF_BYTES = 256 * 1024
"""Bytes waitress buffers for one connection before the thread writing to it waits. Its
default, 16 MB per connection, is what let memory grow by hundreds of MB with a few dozen
streams: a stream that never ends fills its buffer up to that mark (issue 11)."""

STALLED_S = 20.0
"""A connection whose client has read nothing for this long while output waits is closed,
freeing its thread (waitress itself only times out connections with no request running)."""


DEMO_PLAYERS = ("Ann", "Ben")
"""The demo's simulated game is a two-player game."""


def default_db() -> Path:
    data = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return data / "qwirkle" / "games.sqlite3"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve", help="run the table app: live score sheet and move confirmation on tablets",
        description="Serve the table app on the local network: a table view with the camera "
                    "and the score sheet, and a tablet view to confirm or fix each move.",
        epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--camera", help="camera index (0), camera URL (http/rtsp), video file, "
                        "folder of photos, 'demo', or 'none' (moves entered through the API "
                        "only); default: webcam 0, else the demo")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument("--db", type=Path, default=None,
                        help=f"game database (default: {default_db()})")
    parser.add_argument("--colours", type=colour_list, default=COLOURS,
                        help="the set's six colours, comma-separated (default: "
                             f"{','.join(COLOURS)})")
    add_set_option(parser, ", and each game's learning of the set starts from it")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="also answer to this host name (say, a name your router gives "
                             "the laptop); repeat for more. Loopback and the LAN address are "
                             "always allowed; any other Host header is refused (400)")
    parser.set_defaults(func=run)


def camera_spec(requested: str | None) -> str:
    """The source to use: as asked, else webcam 0 if it opens, else the demo."""
    if requested:
        return requested
    # OpenCV warns on stderr about a missing webcam; here a missing webcam is expected.
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        open_source(0).close()
    except SourceError:
        return "demo"
    finally:
        cv2.utils.logging.setLogLevel(level)
    return "0"


def demo_idle(games: Games) -> bool:
    """Whether the demo may play: the table has no game, or a new one with no turn yet, or
    the demo's own game left unfinished by a restart (:func:`demo_resumes`). It never plays
    over a game whose tiles its recording does not show: it would open a game over the
    players' game. A game they finished keeps the table (its winner moment) until they
    start another."""
    return _fresh_table(games) or demo_resumes(games) is not None


def _fresh_table(games: Games) -> bool:
    current = games.current_id()
    return current is None or not games.get(current).table.turns


def demo_resumes(games: Games) -> int | None:
    """The position of the demo's recording that the unfinished game at the table shows
    (its confirmed tiles and those set aside), for the demo to go on from there after a
    restart; None when it shows none of them."""
    from vision.demo import demo_position  # the renderer loads only for the demo

    tiles = _tiles_laid(games)
    return None if tiles is None else demo_position(tiles)


def demo_waiting(games: Games) -> str:
    """The camera's state while the demo waits (:func:`demo_idle` says no): ``played`` once
    the game at the table holds every move of its recording (players end it on the tablet),
    else ``waiting`` for a new game."""
    from vision.demo import demo_played

    tiles = _tiles_laid(games)
    return "played" if tiles is not None and demo_played(tiles) else "waiting"


def _tiles_laid(games: Games) -> list[Placed] | None:
    """The tiles on the table of the unfinished game there, confirmed and set aside, as the
    demo's recording would show them; None when no game is in progress."""
    current = games.current_id()
    if current is None or games.get(current).table.ended:
        return None
    game = games.get(current)
    return [*game.table.board.placed(), *game.set_aside()]


def game_in_play(games: Games) -> bool:
    """Whether a recording may be read: a game is at the table and has not ended. A video is
    read as fast as it decodes, and once; read before players had set up their game, its
    moves all lay on the table when the game began, and came as one first move."""
    current = games.current_id()
    return current is not None and not games.get(current).table.ended


def demo_opener(games: Games, colours: tuple[str, ...]) -> Callable[[], FrameSource]:
    """Open the demo on a game with an empty table: the players' new game if it has no turn
    yet, else a fresh one; or on its own game that a restart left unfinished, where its
    tiles lie (only ever called when :func:`demo_idle`).

    When players start another game while the recording plays, it starts again from an
    empty table for that game; otherwise their first move would be the demo's tiles so far.
    When they bring back an older game of the demo's, it goes on from where that one stood;
    any other game with turns stops it, rather than have it lay its tiles into that game.
    Its next move waits until players have answered the one the camera offered.
    """

    def open_demo() -> FrameSource:
        from vision.demo import DEMO_SEED, STOP, DemoSource  # the renderer: only for the demo

        playing_for = games.current_id()
        if playing_for is None or games.get(playing_for).table.ended:
            playing_for = games.create(DEMO_PLAYERS, colours).row.id
        start = demo_resumes(games) or 0

        def restart() -> int | None:
            nonlocal playing_for
            now = games.current_id()
            if now == playing_for or now is None:
                return None
            playing_for = now
            if _fresh_table(games):
                return 0
            at = demo_resumes(games)
            return STOP if at is None else at

        def move_waits() -> bool:
            return bool(games.get(playing_for).queue)

        return DemoSource(seed=DEMO_SEED, realtime=True, restart=restart, wait=move_waits,
                          start=start)

    return open_demo


def nothing_at(spec: str) -> str | None:
    """What is wrong with a camera given as a file or folder that is not there (a typo),
    said when the server starts: until then only the set-up page said so, below the fold on
    a phone. None for any other camera (a webcam or a URL may come later)."""
    if spec in ("demo", "none") or spec.strip().isdigit() \
            or spec.strip().lower().startswith(STREAM_PREFIXES) or Path(spec).expanduser().exists():
        return None
    return english(Problem.NO_SUCH_SOURCE, repr(spec))


def is_recording(spec: str) -> bool:
    """A video file or a folder of photos: it ends, and is then not read again."""
    return spec not in ("demo", "none") and not spec.isdigit() and Path(spec).expanduser().exists()


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def own_addresses(lan: str) -> tuple[str, ...]:
    """The names this machine is reached by on the LAN: the address printed, its other
    addresses, and its host name (also as ``NAME.local``, as mDNS announces it)."""
    name = socket.gethostname()
    found = [lan, name, f"{name}.local"]
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(name, None, socket.AF_INET)]
    return tuple(dict.fromkeys(n.lower() for n in found if n))


def make_server(app, host: str, port: int, cleanup_s: float = 5.0):
    """waitress, sized for the streams (see webui/streams.py) and with small buffers."""
    server = waitress.create_server(
        app, host=host, port=port, threads=STREAMS_TOTAL + REQUEST_THREADS,
        connection_limit=CONNECTIONS, channel_timeout=60, cleanup_interval=cleanup_s,
        outbuf_high_watermark=OUTBUF_BYTES, outbuf_overflow=OUTBUF_BYTES, ident="qwirkle")
    close_stalled_connections(server)
    return server


def close_stalled_connections(server) -> None:
    """Add to waitress's periodic clean-up: end a connection whose client stopped reading
    while output waits for it. Its thread, blocked until the buffer drains, is then free.

    The socket is shut down, not closed: the clean-up runs while waitress lists the sockets
    to wait on, and closing one there hands it a dead descriptor. A shut-down socket reports
    an error, and waitress closes the connection in its own time."""
    clean_up = server.maintenance

    def maintenance(now: float) -> None:
        clean_up(now)
        for channel in list(server.active_channels.values()):
            if channel.total_outbufs_len and channel.last_activity < now - STALLED_S:
                with contextlib.suppress(OSError):
                    channel.socket.shutdown(socket.SHUT_RDWR)

    server.maintenance = maintenance


def hold_db(db: Path) -> contextlib.AbstractContextManager[object] | None:
    """An exclusive lock on ``db`` for as long as the returned file stays open; None when
    another `qwirkle serve` holds it.

    Two servers on one file each keep their own game in memory and both write turns to it:
    on the next start the game replays both, and a turn lands on the wrong player. The lock
    is the operating system's (``flock``), so a server killed with ``kill -9`` leaves none
    behind. Where there is no ``flock`` (Windows) nothing is locked.
    """
    try:
        import fcntl
    except ImportError:
        return contextlib.nullcontext()
    lock = open(db.with_name(db.name + ".lock"), "a+")  # noqa: SIM115  # held while serving
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        return None
    return lock


def run(args: argparse.Namespace) -> int:
    profile = set_profile(args)
    db = args.db or default_db()
    db.parent.mkdir(parents=True, exist_ok=True)
    lock = hold_db(db)
    if lock is None:
        raise CommandError(f"another qwirkle serve is already using {db}. Use its page, or "
                           "stop it first, or give this one another file with --db.")
    with lock:
        return _serve(args, db, profile)


def _serve(args: argparse.Namespace, db: Path, profile: SetProfile | None) -> int:
    host = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    url = f"http://{host}:{args.port}"
    app = create_app({"DB_PATH": str(db), "COLOURS": args.colours, "PUBLIC_URL": url,
                      "HOST_ADDRESSES": own_addresses(host),
                      "ALLOW_HOSTS": tuple(name.strip().lower() for name in args.allow_host)})
    try:  # before any PIN is shown: a server that cannot listen has no tablets to join
        server = make_server(app, args.host, args.port)
    except OSError as error:
        raise CommandError(f"cannot listen on {args.host} port {args.port} ({error.strerror}): "
                           "another program, perhaps another qwirkle serve, uses it. Give "
                           "another --port.") from None
    spec = camera_spec(args.camera)
    app.config["DEMO_CAMERA"] = spec == "demo"  # the pages word a few things for it
    games = app.extensions["qwirkle_games"]
    if profile is not None:
        games.profile = profile  # for this run; one learned on the set-up page stays kept
    opener = demo_opener(games, args.colours) if spec == "demo" else lambda: open_source(spec)
    loop = None
    if spec != "none":
        recording = is_recording(spec)
        may_open = None
        if spec == "demo":
            may_open = partial(demo_idle, games)
        elif recording:
            may_open = partial(game_in_play, games)
        loop = attach_live(app, opener, lambda colours: MoveTracker(colours=colours),
                           finite=recording, may_open=may_open,
                           waiting=partial(demo_waiting, games) if spec == "demo"
                           else "ready" if recording else "waiting",
                           clears=spec == "demo")
    keys = app.extensions["qwirkle_keys"]
    join = f"{url}/join?t={keys.token}"
    if spec == "demo":
        print("Camera: the built-in demo (a simulated game; give --camera for a real one)")
    else:
        print(f"Camera: {redact_url(spec)}")
        if (missing := nothing_at(spec)) is not None:
            print(f"  Not found: {missing}. The pages say the camera is lost; stop with Ctrl+C "
                  "and start again with the right --camera.")
    print(f"Table view (laptop or TV): {url}/table")
    print(f"Tablets: scan this code, or open {url}/tablet and enter PIN {keys.pin}")
    segno.make(join, error="m").terminal(out=sys.stdout, compact=True)
    print(f"Join link: {join}")
    print(f"Games are kept in {db}", flush=True)
    try:
        server.run()
    finally:
        if loop is not None:
            loop.stop()
    return 0
