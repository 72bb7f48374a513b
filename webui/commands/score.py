"""`qwirkle score` (being written)."""


def register(subparsers) -> None:
    subparsers.add_parser("score", help="(being written)").set_defaults(func=lambda args: 1)
