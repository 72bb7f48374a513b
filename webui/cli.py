"""The `qwirkle` console command: one parser with a subcommand per job.

Each subcommand lives in its own module under :mod:`webui.commands`, so a newcomer finds the
code for ``qwirkle scan`` in ``webui/commands/scan.py``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = ("score", "simulate", "scan", "replay", "serve")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="qwirkle",
        description="Scorekeeper for a physical Qwirkle table.",
        epilog="Run `qwirkle COMMAND --help` for each command's options and an example.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"webui.commands.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
