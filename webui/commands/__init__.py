"""One module per `qwirkle` subcommand. Each defines ``register(subparsers)``, which adds its
parser and sets ``func`` to the function that runs it and returns the exit status.

What several commands share lives here: the ``--colours`` option of scan, replay and serve.
"""

from __future__ import annotations

import argparse

from engine.tiles import ALL_COLOURS


def colour_list(text: str) -> tuple[str, ...]:
    """The --colours value: six distinct colour names, comma-separated, e.g. for a white set
    ``red,orange,yellow,green,blue,white``."""
    names = tuple(name.strip().lower() for name in text.split(",") if name.strip())
    unknown = [n for n in names if n not in ALL_COLOURS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown colour(s) {', '.join(unknown)}; choose from {', '.join(ALL_COLOURS)}")
    if len(names) != 6 or len(set(names)) != 6:
        raise argparse.ArgumentTypeError(f"give six different colours, got {text!r}")
    return names
