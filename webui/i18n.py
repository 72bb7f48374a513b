"""Language plumbing: which locale a request gets, and which way its text runs.

The browser's Accept-Language picks the language at first; the menu on every page stores a
choice in a cookie, which wins from then on. The languages are those with a catalog under
``webui/translations/`` plus English, the language of the source strings.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel import Locale
from flask import Flask, request
from flask_babel import Babel, get_locale
from flask_babel import lazy_gettext as _l

TRANSLATIONS = Path(__file__).parent / "translations"
DEFAULT = "en"
COOKIE = "qwirkle_lang"


@cache
def languages() -> tuple[str, ...]:
    """Locale codes with a compiled catalog, English first."""
    found = sorted(p.parent.parent.name for p in TRANSLATIONS.glob("*/LC_MESSAGES/messages.mo"))
    return (DEFAULT, *(code for code in found if code != DEFAULT))


def language_names() -> list[tuple[str, str]]:
    """(code, the language's own name) for the menu: a reader finds their language by the
    name they know it by."""
    # Only the first letter is raised: str.capitalize() would also lower the rest
    # ("Tiếng Việt" must not become "Tiếng việt").
    names = [(code, Locale.parse(code).get_display_name(code) or code) for code in languages()]
    return [(code, name[:1].upper() + name[1:]) for code, name in names]


def select_locale() -> str:
    """The page's own language where a request names it (``?lang=``: a page redrawing its
    parts, whose tab another tab's language menu has since changed the cookie under: the
    parts came back in Arabic inside an English page), else the cookie's, else the
    browser's."""
    for chosen in (request.args.get("lang"), request.cookies.get(COOKIE)):
        if chosen in languages():
            return chosen
    return request.accept_languages.best_match(languages()) or DEFAULT


def text_direction() -> str:
    order = Locale.parse(str(get_locale())).character_order
    return "rtl" if order == "right-to-left" else "ltr"


COLOUR_NAMES = {
    "red": _l("red"), "orange": _l("orange"), "yellow": _l("yellow"), "green": _l("green"),
    "blue": _l("blue"), "purple": _l("purple"), "white": _l("white"),
}
SHAPE_NAMES = {
    "circle": _l("circle"), "square": _l("square"), "diamond": _l("diamond"),
    "clover": _l("clover"), "cross": _l("cross"), "star": _l("star"),
}


def colour_name(colour: str) -> str:
    return str(COLOUR_NAMES.get(colour, colour))


def shape_name(shape: str) -> str:
    return str(SHAPE_NAMES.get(shape, shape))


def init_i18n(app: Flask) -> None:
    Babel(app, locale_selector=select_locale,
          default_translation_directories=str(TRANSLATIONS))
    app.jinja_env.globals.update(language_names=language_names, text_direction=text_direction,
                                 get_locale=get_locale, colour_name=colour_name,
                                 shape_name=shape_name)
