"""Checks of a running `qwirkle serve` and of the command line under abuse, each run with
``python -m``: :mod:`webui.checks.soak` (idle streams and writing tablets: latency, memory),
:mod:`webui.checks.fuzz_api` (raw HTTP from the LAN) and :mod:`webui.checks.fuzz_files` (odd
files for `qwirkle scan` and `replay`). :mod:`webui.checks.server` starts the server they use."""
