"""Each request gets its language: from Accept-Language at first, from the menu's cookie once a
player has chosen; pages, API errors, plurals and dates follow it, and Arabic runs right to
left."""

from __future__ import annotations

import html
import re
from pathlib import Path

import flask_babel
import pytest
from babel.support import Translations
from webui_support import Table

from webui import i18n

TRANSLATIONS = Path(__file__).resolve().parents[2] / "webui" / "translations"
LANGUAGES = ("en", "ar", "af", "vi", "hi")
RIGHT_TO_LEFT = {"ar"}


def translations(code: str) -> Translations:
    return Translations.load(str(TRANSLATIONS), [code])


def root(response) -> tuple[str, str]:
    """The page's <html lang dir>."""
    found = re.search(r'<html lang="([^"]+)" dir="([^"]+)">', response.text)
    assert found, response.text[:300]
    return found.group(1), found.group(2)


def shows(response, text: str) -> bool:
    return html.escape(text, quote=False) in response.text


@pytest.mark.parametrize("code", LANGUAGES)
def test_accept_language_picks_the_language(app, code):
    response = app.test_client().get("/setup", headers={"Accept-Language": f"{code},en;q=0.5"})
    assert root(response) == (code, "rtl" if code in RIGHT_TO_LEFT else "ltr")
    label = translations(code).gettext("Start the game")
    assert shows(response, label)
    assert code == "en" or not shows(response, "Start the game")


@pytest.mark.parametrize(("header", "code"), [("ar-EG,ar;q=0.9", "ar"), ("hi-IN", "hi"),
                                              ("fr-FR,fr;q=0.9", "en"), ("", "en")])
def test_regional_and_unknown_languages(app, header, code):
    response = app.test_client().get("/setup", headers={"Accept-Language": header})
    assert root(response)[0] == code


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_cookie_wins_over_accept_language(app, code):
    client = app.test_client()
    client.set_cookie(i18n.COOKIE, code)
    other = "vi" if code != "vi" else "ar"
    response = client.get("/games", headers={"Accept-Language": other})
    assert root(response)[0] == code
    assert shows(response, translations(code).gettext("No games yet."))


def test_a_cookie_for_an_unknown_language_is_ignored(app):
    client = app.test_client()
    client.set_cookie(i18n.COOKIE, "xx")
    assert root(client.get("/games", headers={"Accept-Language": "af"}))[0] == "af"


def test_a_pages_parts_come_in_the_pages_language_whatever_the_cookie_says_since(app):
    """Another tab switched the menu to Arabic: this English page's parts, redrawn, came
    back in Arabic inside it. A page asks for its parts in its own language."""
    table = Table(app)
    game = table.new_game()
    table.client.set_cookie(i18n.COOKIE, "ar")  # chosen in another tab
    english = table.client.get(f"/games/{game}/part/pending?view=tablet&lang=en")
    assert shows(english, "No move waiting.")
    arabic = table.client.get(f"/games/{game}/part/pending?view=tablet")
    assert shows(arabic, translations("ar").gettext(
        "No move waiting. No camera is watching the table: enter each move by hand."))
    assert shows(table.client.get(f"/games/{game}/part/pending?view=tablet&lang=zz"),
                 translations("ar").gettext("Enter a move by hand"))


def test_the_menu_remembers_the_choice_and_returns_to_the_page(app):
    client = app.test_client()
    response = client.get("/lang?code=ar&next=/games")
    assert response.status_code == 302
    assert response.headers["Location"] == "/games"
    cookie = client.get_cookie(i18n.COOKIE)
    assert cookie.value == "ar" and cookie.max_age and cookie.max_age > 30 * 24 * 3600
    assert root(client.get("/games", headers={"Accept-Language": "en"})) == ("ar", "rtl")


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "games"])
def test_the_menu_only_returns_to_this_site(app, target):
    response = app.test_client().get("/lang", query_string={"code": "hi", "next": target})
    assert response.headers["Location"] == "/"


def test_the_menu_refuses_an_unknown_language(app):
    client = app.test_client()
    response = client.get("/lang?code=xx&next=/games", headers={"Accept-Language": "af"})
    assert response.status_code == 404
    assert client.get_cookie(i18n.COOKIE) is None
    assert root(response)[0] == "af"  # the error page itself is in the reader's language


@pytest.mark.parametrize("page", ["/setup", "/games", "/scoring"])
def test_every_page_has_the_menu_with_each_language_in_its_own_name(app, page):
    response = app.test_client().get(page, headers={"Accept-Language": "hi"})
    options = re.findall(r'<option value="(\w+)"\s+(selected\s+)?lang="\w+">([^<]+)</option>',
                         response.text)
    assert {code for code, _, _ in options} == set(LANGUAGES)
    assert [code for code, selected, _ in options if selected] == ["hi"]
    names = {code: name for code, _, name in options}
    assert names["ar"] == "العربية" and names["hi"] == "हिन्दी" and names["vi"] == "Tiếng Việt"


@pytest.mark.parametrize("code", ["ar", "hi", "vi"])
def test_api_errors_speak_the_readers_language(app, code):
    table = Table(app)
    table.client.set_cookie(i18n.COOKIE, code)
    response = table.post("/api/games", {"players": "Ann"})
    assert response.status_code == 400
    assert response.json["error"] == translations(code).gettext("players must be a list of names")


@pytest.mark.parametrize("code", ["ar", "hi", "vi", "af"])
def test_an_oversized_request_is_refused_in_the_readers_language(app, code):
    table = Table(app)
    table.client.set_cookie(i18n.COOKIE, code)
    response = table.post("/api/games", {"players": ["Ann", "Bo"], "pad": "x" * 70_000})
    assert response.status_code == 413
    english = "That request is too big: a move or a whole game fits in far less."
    assert response.json["error"] == translations(code).gettext(english) != english


@pytest.mark.parametrize("code", ["en", "ar", "vi", "af"])
def test_archive_dates_are_formatted_for_the_locale(app, code):
    table = Table(app)
    table.new_game()
    table.client.set_cookie(i18n.COOKIE, code)
    response = table.client.get("/games")
    created = app.extensions["qwirkle_games"].rows()[0].created
    with app.test_request_context("/", headers={"Accept-Language": code}):
        expected = flask_babel.format_datetime(created, "medium")
    assert shows(response, expected)


def test_dates_differ_between_locales(app):
    """Guards the test above: it would pass vacuously if every locale wrote the same date."""
    table = Table(app)
    table.new_game()
    created = app.extensions["qwirkle_games"].rows()[0].created
    written = set()
    for code in ("en", "ar", "vi"):
        with app.test_request_context("/", headers={"Accept-Language": code}):
            written.add(flask_babel.format_datetime(created, "medium"))
    assert len(written) == 3


def test_arabic_counts_pick_the_right_plural_form(app):
    """96 tiles in the bag at the start: Arabic's form for 11 to 99 (the fifth of six)."""
    table = Table(app)
    game_id = table.new_game()
    table.client.set_cookie(i18n.COOKIE, "ar")
    response = table.client.get(f"/games/{game_id}/sheet")
    bag = app.extensions["qwirkle_games"].get(game_id).table.bag_size
    assert 11 <= bag % 100 <= 99
    forms = translations("ar")._catalog  # {(msgid, form index): text}
    expected = forms[("%(num)s tile in the bag", 4)] % {"num": bag}
    assert shows(response, expected)


def edit_now(page: str) -> list[str]:
    """What each Edit button tells its dialog the turn is now, newest turn first."""
    return [html.unescape(m) for m in re.findall(r'data-action="edit"[^>]*data-now="([^"]*)"',
                                                 page)]


@pytest.mark.parametrize(("code", "one", "two"), [
    ("en", "Now: 1 tile for 1 point.", "Now: 2 tiles for 4 points."),
    ("ar", "الآن: قطعة واحدة مقابل نقطة واحدة.", "الآن: قطعتان مقابل 4 نقاط."),
])
def test_the_edit_dialog_counts_tiles_and_points_with_plural_forms(app, code, one, two):
    """The dialog's "Now:" line is counted on the server, where each language's plural forms
    are: the script alone wrote "1 tiles for 1 points" in every language."""
    table = Table(app)
    table.client.set_cookie(i18n.COOKIE, code)
    game = table.new_game()
    table.place(game, [{"x": 0, "y": 0, "colour": "red", "shape": "square"}])
    table.place(game, [{"x": 0, "y": 1, "colour": "red", "shape": "circle"},
                       {"x": 1, "y": 1, "colour": "blue", "shape": "circle"}])
    assert edit_now(table.client.get(f"/games/{game}/tablet").text) == [two, one]


def test_the_edit_dialog_counts_an_exchange_of_one_tile(app):
    table = Table(app)
    game = table.new_game()
    exchange = {"kind": "exchange", "count": 1}
    assert table.post(f"/api/games/{game}/turns", exchange).status_code == 200
    assert edit_now(table.client.get(f"/games/{game}/tablet").text) == [
        "Now: an exchange of 1 tile."]
