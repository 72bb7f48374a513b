"""`qwirkle scan` (being written)."""


def register(subparsers) -> None:
    subparsers.add_parser("scan", help="(being written)").set_defaults(func=lambda args: 1)
