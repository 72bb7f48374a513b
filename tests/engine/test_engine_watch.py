"""The Qwirkle watch: lines of five, the one tile that completes each, and its unseen copies."""

from __future__ import annotations

from collections import Counter

from engine.board import Board
from engine.table import Place, TableGame
from engine.tiles import COLOURS, Tile
from engine.watch import completing_tile, qwirkle_watch


def tiles(*codes: str) -> tuple[Tile, ...]:
    return tuple(Tile.from_code(c) for c in codes)


def row(codes: str, y: int = 0, x0: int = 0) -> list[tuple[int, int, Tile]]:
    return [(x0 + i, y, tile) for i, tile in enumerate(tiles(*codes.split()))]


FULL = Counter({Tile(c, s): 3 for c in COLOURS for s in ("circle", "square", "diamond",
                                                          "clover", "cross", "star")})


def test_completing_tile_of_a_colour_line_and_of_a_shape_line():
    red_line = tiles("RCi", "RSq", "RDi", "RCl", "RCr")
    assert completing_tile(red_line, COLOURS) == Tile("red", "star")
    stars = tiles("RSt", "OSt", "YSt", "GSt", "PSt")
    assert completing_tile(stars, COLOURS) == Tile("blue", "star")
    # A white set: the one-shape line lacks white, not purple.
    white_set = COLOURS[:5] + ("white",)
    five = tiles("RSt", "OSt", "YSt", "GSt", "BSt")
    assert completing_tile(five, white_set) == Tile("white", "star")


def test_no_completing_tile_for_what_is_not_five_of_a_line():
    assert completing_tile(tiles("RCi", "RSq", "RDi", "RCl"), COLOURS) is None
    assert completing_tile(tiles("RCi", "RSq", "RDi", "RCl", "RCl"), COLOURS) is None
    assert completing_tile(tiles("RCi", "OSq", "RDi", "RCl", "RCr"), COLOURS) is None


def test_an_open_line_of_five_is_watched_with_both_ends_and_its_unseen_copies():
    board = Board.from_placed(row("RCi RSq RDi RCl RCr"))
    unseen = Counter(FULL)
    unseen[Tile("red", "star")] = 2
    [watch] = qwirkle_watch(board, unseen, COLOURS)
    assert watch.tile == Tile("red", "star")
    assert watch.cells == tuple((x, 0) for x in range(5))
    assert watch.ends == ((-1, 0), (5, 0))
    assert watch.unseen == 2 and not watch.dead


def test_a_line_whose_tile_is_all_on_the_table_is_dead_and_sorted_last():
    board = Board.from_placed(row("RCi RSq RDi RCl RCr") + row("RSt OSt YSt GSt PSt", y=5))
    unseen = Counter(FULL)
    unseen[Tile("red", "star")] = 0
    watches = qwirkle_watch(board, unseen, COLOURS)
    assert [w.tile for w in watches] == [Tile("blue", "star"), Tile("red", "star")]
    assert [w.dead for w in watches] == [False, True]


def test_an_end_the_rules_forbid_is_not_offered():
    # A green tile sits above the cell after the red line's end: a red star there would make
    # a column of green circle + red star, which shares neither colour nor shape.
    board = Board.from_placed(row("RCi RSq RDi RCl RCr") + [(5, -1, Tile("green", "circle"))])
    [watch] = qwirkle_watch(board, FULL, COLOURS)
    assert watch.ends == ((-1, 0),)
    # Both ends blocked: the line cannot be completed, so it is not watched at all.
    blocked = Board.from_placed(row("RCi RSq RDi RCl RCr") + [(5, -1, Tile("green", "circle")),
                                                              (-1, -1, Tile("green", "square"))])
    assert qwirkle_watch(blocked, FULL, COLOURS) == []


def test_columns_are_watched_and_shorter_or_longer_lines_are_not():
    column = [(7, y, t) for y, t in enumerate(tiles("BCi", "BSq", "BDi", "BCl", "BCr"))]
    board = Board.from_placed(column + row("OCi OSq OSt OCl"))
    [watch] = qwirkle_watch(board, FULL, COLOURS)
    assert watch.cells == tuple((7, y) for y in range(5))
    assert watch.ends == ((7, -1), (7, 5))
    assert qwirkle_watch(Board.from_placed(row("RCi RSq RDi RCl RCr RSt")), FULL, COLOURS) == []


def test_the_watch_follows_a_game_and_its_unseen_counts():
    game = TableGame.new(("Ann", "Bob"))
    game = game.play(Place(tuple(row("RCi RSq RDi RCl RCr"))))
    [watch] = qwirkle_watch(game.board, game.unseen, game.colours)
    assert watch.unseen == 3
    # Bob places a red star below the line: one copy fewer unseen, the line stays open.
    game = game.play(Place(((0, 1, Tile("red", "star")),)))
    [watch] = qwirkle_watch(game.board, game.unseen, game.colours)
    assert watch.unseen == 2
