"""One module per `qwirkle` subcommand. Each defines ``register(subparsers)``, which adds its
parser and sets ``func`` to the function that runs it and returns the exit status."""
