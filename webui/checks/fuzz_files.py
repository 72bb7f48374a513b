"""Feed `qwirkle scan` and `qwirkle replay` odd files: count tracebacks, hangs, time, memory.

Makes ``--count`` odd inputs from a seed (tiny and one-pixel-high pictures, noise, black and
white specks of any density and size, 1-bit PNGs, fine checkerboards, truncated JPEGs and
PNGs, random bytes named like photos, headers claiming 40,000 x 40,000 pixels, a sparse
30 GB file, a named pipe, a device, folders with one photo, a pipe or a truncated photo)
and runs the command on each in its own process with a time limit. Prints how many ended in
a traceback or a hang (both must be 0), the exit statuses, the slowest scan of each kind of
picture up to 1,600 px (the ``ms`` the scan reports) and the largest peak memory of one
process.

    .venv/bin/python -m webui.checks.fuzz_files --count 300
"""

from __future__ import annotations

import argparse
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from pathlib import Path

import cv2
import numpy as np


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` (its data is a few bytes)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data)
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b""))


def picture(rng: random.Random) -> tuple[np.ndarray, str]:
    """An odd picture and what it is."""
    kind = rng.choice(["tiny", "line", "noise", "specks", "checker", "flat", "stripes"])
    if kind == "tiny":
        side = rng.randint(1, 15)
        return np.full((side, rng.randint(1, 15), 3), rng.randrange(256), np.uint8), kind
    if kind == "line":
        long = rng.randint(100, 5000)
        shape = (rng.randint(1, 8), long) if rng.random() < 0.5 else (long, rng.randint(1, 8))
        return np.full((*shape, 3), 128, np.uint8), kind
    height, width = rng.randint(16, 1200), rng.randint(16, 1600)
    nprng = np.random.default_rng(rng.randrange(2**32))
    if kind == "noise":
        return nprng.integers(0, 256, (height, width, 3), np.uint8), kind
    if kind == "specks":  # black and white, of any density, in blocks of 1-6 pixels
        block = rng.randint(1, 6)
        small = nprng.random((height // block + 1, width // block + 1)) < rng.uniform(0.15, 0.75)
        specks = np.kron(small, np.ones((block, block), bool))[:height, :width]
        return cv2.merge([specks.astype(np.uint8) * 255] * 3), kind
    if kind == "checker":
        square = rng.randint(2, 16)
        board = ((np.indices((height, width)) // square).sum(axis=0) % 2 * 255).astype(np.uint8)
        return cv2.merge([board] * 3), kind
    if kind == "stripes":
        stripes = (np.arange(width) // rng.randint(1, 6) % 2 * 255).astype(np.uint8)
        return cv2.merge([np.tile(stripes, (height, 1))] * 3), kind
    return np.full((height, width, 3), rng.randrange(256), np.uint8), kind


def make_inputs(folder: Path, count: int, seed: int) -> list[tuple[str, list[str], str]]:
    """(label, command arguments, kind) per input, files written under ``folder``."""
    rng = random.Random(seed)
    cases: list[tuple[str, list[str], str]] = []
    fixed = folder / "fixed"
    fixed.mkdir()
    (fixed / "giant.png").write_bytes(png_claiming(40000, 40000))
    with (fixed / "huge.jpg").open("wb") as sparse:
        sparse.truncate(30 * 2**30)
    os.mkfifo(fixed / "pipe.jpg")
    os.symlink("/dev/zero", fixed / "zero.jpg")
    (fixed / "empty.png").write_bytes(b"")
    one = fixed / "one-photo"
    one.mkdir()
    cv2.imwrite(str(one / "01.jpg"), np.full((480, 640, 3), 150, np.uint8))
    mixed = fixed / "with-pipe"
    mixed.mkdir()
    cv2.imwrite(str(mixed / "01.jpg"), np.full((480, 640, 3), 150, np.uint8))
    os.mkfifo(mixed / "02.jpg")
    for name in ("giant.png", "huge.jpg", "pipe.jpg", "zero.jpg", "empty.png"):
        cases.append((name, ["scan", str(fixed / name)], "fixed"))
    for target in ("one-photo", "with-pipe", "pipe.jpg", "zero.jpg", "huge.jpg"):
        cases.append((f"replay {target}", ["replay", str(fixed / target)], "fixed"))
    for index in range(max(0, count - len(cases))):
        image, kind = picture(rng)
        suffix = rng.choice([".png", ".jpg", ".bmp"])
        path = folder / f"{index:03d}-{kind}{suffix}"
        if rng.random() < 0.15:  # random bytes named like a photo
            path.write_bytes(rng.randbytes(rng.randint(1, 5000)))
            kind = "bytes"
        else:
            params = []
            if suffix == ".png" and rng.random() < 0.3:  # 1 bit per pixel
                image = (cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) > 127).astype(np.uint8) * 255
                params = [cv2.IMWRITE_PNG_BILEVEL, 1]
            data = cv2.imencode(suffix, image, params)[1].tobytes()
            if rng.random() < 0.2:
                data, kind = data[: rng.randint(1, len(data) - 1)], "truncated"
            path.write_bytes(data)
        command = "replay" if rng.random() < 0.1 else "scan"
        cases.append((path.name, [command, str(path)] + (["--json"] if command == "scan"
                                                         else []), kind))
    return cases


def run(args: list[str], limit: float) -> tuple[int | None, str, str, float, float]:
    """(exit status or None on a hang, stdout, stderr, seconds, peak RSS in MB)."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen([sys.executable, "-m", "webui.cli", *args],
                                   stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        deadline = started + limit
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                code: int | None = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() > deadline:
                process.kill()
                _, _, usage = os.wait4(process.pid, 0)
                code = None
                break
            time.sleep(0.05)
        process.returncode = code if code is not None else -9
        out.seek(0)
        err.seek(0)
        return (code, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                time.monotonic() - started, usage.ru_maxrss / 1024)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--limit", type=float, default=60.0, help="seconds before a hang")
    args = parser.parse_args()
    tracebacks: list[str] = []
    hangs: list[str] = []
    statuses: Counter[int | None] = Counter()
    slowest: dict[str, tuple[float, str]] = {}
    peak = (0.0, "")
    with tempfile.TemporaryDirectory() as folder:
        cases = make_inputs(Path(folder), args.count, args.seed)
        for label, command, kind in cases:
            code, out, err, _, rss = run(command, args.limit)
            statuses[code] += 1
            if code is None:
                hangs.append(label)
            if "Traceback" in err:
                tracebacks.append(f"{label}: {err.strip().splitlines()[-1]}")
            for line in out.splitlines():
                if line.startswith("{") and kind not in ("tiny", "line"):
                    slowest[kind] = max(slowest.get(kind, (0.0, "")),
                                        (json.loads(line)["ms"], label))
            peak = max(peak, (rss, label))
    print(f"inputs {len(cases)}: tracebacks {len(tracebacks)}, hangs {len(hangs)}, "
          f"exit statuses {dict(sorted(statuses.items(), key=str))}")
    print("slowest scan of a picture up to 1600 px, by kind: " + ", ".join(
        f"{kind} {ms:.0f} ms ({label})" for kind, (ms, label) in sorted(slowest.items())))
    print(f"largest peak RSS of one process: {peak[0]:.0f} MB ({peak[1]})")
    for line in tracebacks + [f"hang: {label}" for label in hangs]:
        print("  " + line)
    return 1 if tracebacks or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
