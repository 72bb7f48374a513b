"""Play a real game of ../shared/data/real through a running `qwirkle serve`, as players would.

Its photos are made into a video (``--style``, by default the rough one: 1-px wobble, +-5 %
flicker, 1.2-s pauses, a knocked camera), which a real server on a temporary database takes
as its camera. A game is opened over the table; then, as the tablets would, each move the
server offers is confirmed once it is legal (the board game's start as that start), and at
``--undo-at`` the last turn is undone, with its tiles left on the table, so that it must be
offered again. At the end every turn's score is compared with the game's ``game.json``, and
the server's log is searched for tracebacks and answers of 500.

    .venv/bin/python -m webui.checks.gamenight --game connect-1
    .venv/bin/python -m webui.checks.gamenight --game classic-a --undo-at 0
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from vision.evaluate.real import REAL_PHOTOS, game_colours
from vision.evaluate.replay import STYLES, real_stills
from vision.synth.footage import video_frames, write_video
from webui.checks.server import ask, start_server

POLL_S = 0.3


def play(port: int, token: str, undo_at: int, seconds: float) -> tuple[dict[str, Any], list[str]]:
    """Open a game, confirm every move offered until the recording has ended and nothing
    waits (or ``seconds`` pass); undo turn ``undo_at`` once, right after confirming it. The
    game's last state and what happened, line by line."""
    status, game = ask(port, token, "POST", "/api/games", {"players": ["Ann", "Bob"]})
    if status != 201:
        raise SystemExit(f"could not open a game: {status} {game}")
    path = f"/api/games/{game['id']}"
    said: list[str] = []
    undone = False
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        _, state = ask(port, token, "GET", f"{path}/state")
        waiting = state["pending"]
        if waiting is None:
            if state["camera"]["state"] in ("ended", "lost"):
                break
            time.sleep(POLL_S)
            continue
        if not waiting["legal"]:
            said.append(f"refused as offered ({waiting['reason']}): set aside")
            ask(port, token, "POST", f"{path}/pending/dismiss")
            continue
        status, state = ask(port, token, "POST", f"{path}/pending/confirm",
                            {"shown": waiting["key"]})
        what = "the start" if waiting["start"] else f"turn {len(state['turns'])}"
        flag = ", flagged" if waiting["needs_confirmation"] else ""
        said.append(f"{what}: {status}, {waiting['score']} points{flag}")
        if not undone and not waiting["start"] and len(state["turns"]) == undo_at:
            undone = True
            status, state = ask(port, token, "POST", f"{path}/undo")
            said.append(f"undo turn {undo_at}: {status}")
    _, state = ask(port, token, "GET", f"{path}/state")
    return state, said


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="connect-1", help="a folder of ../shared/data/real")
    parser.add_argument("--style", default="rough", choices=sorted(STYLES))
    parser.add_argument("--seed", type=int, default=7, help="the video's wobble and noise")
    parser.add_argument("--undo-at", type=int, default=5, help="undo this turn once (0: none)")
    args = parser.parse_args(argv)
    folder = REAL_PHOTOS / args.game
    if not (folder / "game.json").is_file():
        parser.error(f"no game at {folder}")
    truth = [move["score"] for move in json.loads((folder / "game.json").read_text())["moves"]]
    style = STYLES[args.style]
    with tempfile.TemporaryDirectory(prefix="gamenight-") as name:
        tmp = Path(name)
        video = tmp / f"{args.game}.mp4"
        length = write_video(video_frames(real_stills(folder), style, args.seed), video,
                             style.fps)
        process, port, token = start_server(
            tmp, str(video), ("--colours", ",".join(game_colours(folder))))
        try:
            state, said = play(port, token, args.undo_at, length + 60)
        finally:
            process.terminate()
            process.wait(10)
        log = (tmp / "serve.log").read_text()
    errors = log.count("Traceback") + log.count('" 500 ')
    for line in said:
        print("  " + line)
    scores = [turn["score"] for turn in state["turns"]]
    right = sum(a == b for a, b in zip(scores, truth, strict=False))
    totals = [player["total"] for player in state["players"]]
    want = [sum(truth[0::2]), sum(truth[1::2])]
    print(f"{args.game} ({args.style} video, {length:.0f} s): {right}/{len(truth)} turns scored "
          f"as the game was ({len(scores)} turns), totals {totals} (truth {want}), start of "
          f"{len(state['start'])} tiles; {errors} tracebacks or 500s in the server's log")
    return 0 if right == len(truth) == len(scores) and totals == want and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
