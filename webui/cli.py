"""The `qwirkle` console command: one parser with a subcommand per job.

Each subcommand lives in its own module under :mod:`webui.commands`, so a newcomer finds the
code for ``qwirkle scan`` in ``webui/commands/scan.py``. Only the chosen subcommand's module is
imported: ``qwirkle score`` and ``qwirkle simulate`` stay light (no Flask, OpenCV or ONNX), which
keeps their start-up fast and their memory small.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from webui.commands import CommandError

SUBCOMMANDS = ("score", "simulate", "scan", "calibrate", "replay", "serve")


def build_parser(names: Sequence[str] = SUBCOMMANDS) -> argparse.ArgumentParser:
    """A parser that knows the subcommands in ``names`` (all of them for ``--help``)."""
    parser = argparse.ArgumentParser(
        prog="qwirkle",
        description="Scorekeeper for a physical Qwirkle table.",
        epilog="Run `qwirkle COMMAND --help` for each command's options and an example.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in names:
        importlib.import_module(f"webui.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = argv[:1] if argv and argv[0] in SUBCOMMANDS else SUBCOMMANDS
    args = build_parser(chosen).parse_args(argv)
    try:
        return args.func(args)
    except CommandError as error:
        print(f"qwirkle {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`qwirkle scan a.jpg | head -c1`): stop quietly. Python would
        # otherwise complain again when it flushes stdout on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
