"""Pure Qwirkle rules and game model: tiles, board, validation, scoring, move generation, games.

Nothing here does I/O or depends on numpy, so the rules can be checked, reused and
benchmarked on their own.
"""
