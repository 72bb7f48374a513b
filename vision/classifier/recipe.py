"""A model's recipe: its config file (TOML), and command-line options that override it.

One file per model keeps the data and training settings that made the shipped model in one
place, next to the code that uses them (chesscog keeps a YAML file per stage the same way).
"""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

CONFIGS = Path(__file__).resolve().parent / "configs"
TILE_CLASSIFIER = CONFIGS / "tile_classifier.toml"


def load(path: Path = TILE_CLASSIFIER) -> dict[str, Any]:
    """The config at `path`; a clear error when it is missing or not TOML."""
    try:
        with path.open("rb") as file:
            return tomllib.load(file)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SystemExit(f"cannot read the config {path}: {exc}") from exc


def fill(args: argparse.Namespace, section: Mapping[str, Any],
         paths: tuple[str, ...] = ()) -> argparse.Namespace:
    """`args` with every option the command line left unset (None) taken from `section`;
    the options named in `paths` become Paths."""
    for key, value in section.items():
        if not isinstance(value, Mapping) and getattr(args, key, None) is None:
            setattr(args, key, value)
    for key in paths:
        if getattr(args, key, None) is not None:
            setattr(args, key, Path(getattr(args, key)))
    return args
