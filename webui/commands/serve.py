"""`qwirkle serve` (being written)."""


def register(subparsers) -> None:
    subparsers.add_parser("serve", help="(being written)").set_defaults(func=lambda args: 1)
