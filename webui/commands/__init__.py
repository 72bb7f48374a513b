"""One module per `qwirkle` subcommand. Each defines ``register(subparsers)``, which adds its
parser and sets ``func`` to the function that runs it and returns the exit status.

What several commands share lives here: the ``--colours`` and ``--set`` options of scan,
replay and serve, and :class:`CommandError` for a command that cannot go on.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from engine.tiles import ALL_COLOURS, is_colour_set

if TYPE_CHECKING:
    from vision.setprofile import SetProfile


class CommandError(Exception):
    """A command cannot go on; ``qwirkle`` prints the message and exits with status 2."""


def colour_list(text: str) -> tuple[str, ...]:
    """The --colours value: six distinct colour names, comma-separated, e.g. for a white set
    ``red,orange,yellow,green,blue,white``."""
    names = tuple(name.strip().lower() for name in text.split(",") if name.strip())
    unknown = [n for n in names if n not in ALL_COLOURS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown colour(s) {', '.join(unknown)}; choose from {', '.join(ALL_COLOURS)}")
    if not is_colour_set(names):
        raise argparse.ArgumentTypeError(f"give six different colours, got {text!r}")
    return names


def add_set_option(parser: argparse.ArgumentParser, use: str = "") -> None:
    """The ``--set PROFILE`` option (``use``: what else the command does with the profile)."""
    parser.add_argument("--set", type=Path, metavar="PROFILE", dest="profile",
                        help="a set profile from `qwirkle calibrate` (its colours replace "
                             f"--colours{use})")


def set_profile(args: argparse.Namespace) -> SetProfile | None:
    """The ``--set`` profile, its colours put in place of ``--colours``; None without one.
    A profile that cannot be read is a :class:`CommandError` saying why."""
    if not args.profile:
        return None
    from vision.setprofile import ProfileError, load_profile

    try:
        profile = load_profile(args.profile)
    except ProfileError as error:
        raise CommandError(str(error)) from None
    args.colours = profile.colours
    return profile
