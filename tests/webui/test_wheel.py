"""The wheel works on its own: built from the repository, installed into a fresh virtual
environment outside it, its `qwirkle scan` reads a photo with the model the wheel carries.

The fresh environment sees the test environment's site-packages for the dependencies (numpy,
OpenCV, onnxruntime, Flask), so the test needs no network; the project itself comes only from
the wheel, and runs from a folder outside the repository, with nothing of the repository on
its path.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.tiles import COLOURS
from vision.synth.scene import View, random_layout, random_style, render_board

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "vision", "webui")
# What a build needs; the rest of the checkout (virtual environment, caches, tests, docs, an
# earlier build/ whose stale modules would end up in the wheel) stays out of the copy.
SOURCES = ("pyproject.toml", "README.md", "models", *PACKAGES)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built, without network, from a clean copy of the sources."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(path, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(root / "dist"), str(source)],
        capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    (found,) = (root / "dist").glob("qwirkle_scorekeeper-*.whl")
    return found


def test_the_wheel_holds_every_module_the_model_and_the_app_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {path.relative_to(REPO).as_posix()
               for package in PACKAGES for path in (REPO / package).rglob("*.py")}
    assert modules <= names, f"missing from the wheel: {sorted(modules - names)}"
    assert {"vision/models/tile_classifier.onnx", "vision/models/MODEL.md",
            "webui/templates/base.html", "webui/static/app.js",
            "webui/translations/ar/LC_MESSAGES/messages.mo"} <= names


def photo(path: Path) -> dict[tuple[int, int], str]:
    """Write a rendered table of a few tiles to ``path``; its tiles' codes by cell."""
    rng = np.random.default_rng(5)
    style = replace(random_style(np.random.default_rng(1005)), table="plain", glare=0)
    render = render_board(random_layout(rng, 8, COLOURS), rng,
                          view=View(elevation=90, roll=5, pitch_px=50), style=style)
    cv2.imwrite(str(path), render.image)
    return {(x, y): tile.code for x, y, tile in render.tiles}


def test_qwirkle_scan_runs_from_the_installed_wheel(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # The dependencies from this environment, after the fresh one's own site-packages.
    ours = dict.fromkeys(sysconfig.get_path(kind) for kind in ("purelib", "platlib"))
    Path(site, "test-dependencies.pth").write_text("".join(f"{path}\n" for path in ours))
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-index", "-q", str(wheel)],
        capture_output=True, text=True, check=False)
    assert installed.returncode == 0, installed.stderr

    truth = photo(tmp_path / "table.png")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    scanned = subprocess.run(
        [env_dir / "bin" / "qwirkle", "scan", "table.png", "--json"], cwd=tmp_path, env=env,
        capture_output=True, text=True, check=False, timeout=300)
    assert scanned.returncode == 0, scanned.stderr
    read = {(t["x"], t["y"]) for t in json.loads(scanned.stdout)["tiles"]}
    assert len(read) == len(truth)

    where = subprocess.run(
        [python, "-c", "import vision.classifier as c, webui; print(c.MODEL_PATH, webui.__file__)"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout.split()
    assert all(Path(path).is_relative_to(env_dir) for path in where), where
