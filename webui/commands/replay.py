"""`qwirkle replay` (being written)."""


def register(subparsers) -> None:
    subparsers.add_parser("replay", help="(being written)").set_defaults(func=lambda args: 1)
