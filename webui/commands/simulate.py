"""`qwirkle simulate` (being written)."""


def register(subparsers) -> None:
    subparsers.add_parser("simulate", help="(being written)").set_defaults(func=lambda args: 1)
