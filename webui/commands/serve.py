"""`qwirkle serve`: the table app. Tablets on the Wi-Fi follow and confirm the game.

With no ``--camera`` it tries the laptop's webcam, and if none opens it runs the built-in
demo: a simulated game rendered as camera footage goes through the same tracker as a real
camera, so a newcomer sees the whole product with one command.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import segno
import waitress

from engine.tiles import COLOURS
from vision.source import FrameSource, SourceError, open_source, redact_url
from vision.tracker import MoveTracker
from webui.app import attach_live, create_app
from webui.commands import colour_list
from webui.games import Games

EXAMPLE = """examples:
  qwirkle serve                                  # webcam 0, or the demo when there is none
  qwirkle serve --camera demo --port 8080
  qwirkle serve --camera http://192.168.1.23:8080/video --colours red,orange,yellow,green,blue,white
  qwirkle serve --camera 1 --db ~/qwirkle-family.sqlite3"""

THREADS = 32
"""Each open page holds one thread for its event stream and the table view one for the camera
preview; 32 serves half a dozen tablets, a TV and their requests with room to spare."""


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
    parser.add_argument("--threads", type=int, default=THREADS, help=argparse.SUPPRESS)
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


def demo_opener(games: Games, colours: tuple[str, ...]) -> Callable[[], FrameSource]:
    """Open the demo on a fresh game: the simulated game starts from an empty table each time
    it opens (at start, after it ends, after an error), so its moves need an empty board."""

    def open_demo() -> FrameSource:
        current = games.current_id()
        table = games.get(current).table if current is not None else None
        if table is None or table.turns or table.ended:
            games.create(DEMO_PLAYERS, colours)
        return open_source("demo")

    return open_demo


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def run(args: argparse.Namespace) -> int:
    db = args.db or default_db()
    db.parent.mkdir(parents=True, exist_ok=True)
    host = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    url = f"http://{host}:{args.port}"
    app = create_app({"DB_PATH": str(db), "COLOURS": args.colours, "PUBLIC_URL": url,
                      "HOST_ADDRESSES": (host,)})
    spec = camera_spec(args.camera)
    games = app.extensions["qwirkle_games"]
    opener = demo_opener(games, args.colours) if spec == "demo" else lambda: open_source(spec)
    loop = None
    if spec != "none":
        loop = attach_live(app, opener, lambda colours: MoveTracker(colours=colours))
    keys = app.extensions["qwirkle_keys"]
    join = f"{url}/join?t={keys.token}"
    if spec == "demo":
        print("Camera: the built-in demo (a simulated game; give --camera for a real one)")
    else:
        print(f"Camera: {redact_url(spec)}")
    print(f"Table view (laptop or TV): {url}/table")
    print(f"Tablets: scan this code, or open {url}/tablet and enter PIN {keys.pin}")
    segno.make(join, error="m").terminal(out=sys.stdout, compact=True)
    print(f"Join link: {join}")
    print(f"Games are kept in {db}", flush=True)
    try:
        waitress.serve(app, host=args.host, port=args.port, threads=args.threads,
                       channel_timeout=60, ident="qwirkle")
    finally:
        if loop is not None:
            loop.stop()
    return 0
