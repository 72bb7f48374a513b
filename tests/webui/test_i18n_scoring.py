"""The "How scoring works" page: its examples obey the rules it explains, the points it shows
are the engine's, and it reads in every language."""

from __future__ import annotations

import re

import pytest
from test_i18n_locale import LANGUAGES, root, shows, translations
from webui_support import make_app

from engine.rules import MAX_LINE, QWIRKLE_BONUS
from webui.scoring import ending, examples


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path / "games.sqlite3").test_client()


def new_cells(name: str) -> set[tuple[int, int]]:
    return {(t["x"], t["y"]) for t in examples()[name].move}


def test_a_line_scores_one_point_per_tile_in_it():
    check = examples()["line"].check
    (line,) = check.lines
    assert new_cells("line") < set(line.cells)  # the move extends tiles already there
    assert check.score == len(line.cells) < MAX_LINE


def test_new_tiles_apart_are_joined_by_a_tile_already_there():
    check = examples()["apart"].check
    (left, right) = sorted(new_cells("apart"))
    assert right[0] - left[0] == 2  # not touching each other
    (line,) = check.lines
    assert check.score == len(line.cells) == 3


def test_a_tile_in_two_lines_scores_in_both():
    check = examples()["double"].check
    (cell,) = new_cells("double")
    assert len(check.lines) == 2 and all(cell in line.cells for line in check.lines)
    assert check.score == sum(len(line.cells) for line in check.lines)


def test_a_qwirkle_scores_its_tiles_and_the_bonus():
    check = examples()["qwirkle"].check
    assert check.qwirkles == 1
    assert check.score == MAX_LINE + QWIRKLE_BONUS


def test_the_unsure_example_is_refused_by_the_rules():
    check = examples()["illegal"].check
    assert not check.legal and check.reason


def test_the_ending_gives_the_bonus_to_the_one_who_went_out():
    table = ending()
    assert table.ended and table.went_out is not None
    assert table.bonus[table.went_out] == QWIRKLE_BONUS and sum(table.bonus) == QWIRKLE_BONUS
    assert table.totals == tuple(s + b for s, b in zip(table.scores, table.bonus, strict=True))


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_page_shows_the_engines_points_in_every_language(client, code):
    response = client.get("/scoring", headers={"Accept-Language": code})
    assert response.status_code == 200
    assert root(response)[0] == code
    assert shows(response, translations(code).gettext("How scoring works"))
    shown = re.findall(r'data-example-score="(\d*)"', response.text)
    engine = [str(e.check.score) if e.check.legal else "" for e in examples().values()]
    assert shown == engine
    for total in ending().totals:
        assert f"<td>{total}</td>" in response.text


def test_every_page_links_to_the_scoring_page(client):
    for page in ("/setup", "/games"):
        assert 'href="/scoring"' in client.get(page).text
