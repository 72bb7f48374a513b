"""Text from outside checked at the edge, before it reaches a game or the log.

A request can carry anything: a lone surrogate (valid JSON, not valid UTF-8), a control
character that breaks a CSV or a terminal, a name longer than a score-sheet column. Each is
refused here with a 400 and a reason, so nothing stored can later fail to read back.
"""

from __future__ import annotations

import unicodedata
from typing import Any, NoReturn

from flask import request
from flask.json.provider import DefaultJSONProvider
from flask_babel import lazy_gettext as _l
from werkzeug.routing import IntegerConverter

from .codec import PayloadError

MAX_NAME = 40
"""Longest player name, in characters after trimming."""


def clean_text(value: object, what: str, max_length: int = 200) -> str:
    """``value`` as a string that encodes as UTF-8 and holds no control character; else a
    :class:`PayloadError` naming ``what``."""
    if not isinstance(value, str):
        raise PayloadError(_l("%(what)s must be text", what=what))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise PayloadError(_l("%(what)s is not valid UTF-8 text", what=what)) from None
    # Cc: C0/C1 controls (newline, tab, escape ...); Cs would be a surrogate, caught above.
    if any(unicodedata.category(c) == "Cc" for c in value):
        raise PayloadError(_l("%(what)s must not contain control characters", what=what))
    if len(value) > max_length:
        raise PayloadError(_l("%(what)s is longer than %(n)s characters", what=what,
                              n=max_length))
    return value


def player_name(value: object) -> str:
    """A player's name: 1 to :data:`MAX_NAME` characters once trimmed, at least one of them
    visible."""
    name = clean_text(value, _l("a player's name"), max_length=10 * MAX_NAME).strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise PayloadError(_l("A player's name has 1 to %(n)s characters.", n=MAX_NAME))
    if not any(is_visible(c) for c in name):
        raise PayloadError(_l("A player's name needs a letter, a digit or a sign that shows."))
    if any(c in DIRECTION_CONTROLS for c in name):
        raise PayloadError(_l("A player's name must not turn the writing direction round."))
    return name


DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates. Every page already isolates a name from its neighbours;
inside it, an override still reverses what follows ("Ann\u202eevil" shows as "Annlive"), so a
guest could pass for another player. The marks an Arabic name may carry (U+200E, U+200F) only
nudge neutral characters, and stay."""


BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and a symbol that draw nothing: the Hangul fillers and the blank Braille pattern,
the usual way to an "invisible" name, which is a blank row on the TV like one of spaces."""


def is_visible(char: str) -> bool:
    """A letter, digit, punctuation or symbol that draws something. Format characters (Cf: a
    zero-width space, a right-to-left mark) and lone combining marks draw nothing: a name of
    only those would be a blank row on the TV. They stay inside a name that has visible ones
    (an Arabic name may carry its direction marks)."""
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANKS


IGNORABLE = (("\u034f", "\u034f"), ("\u17b4", "\u17b5"), ("\u180b", "\u180f"),
             ("\u2060", "\u206f"), ("\ufe00", "\ufe0f"), ("\ufff0", "\ufff8"),
             ("\U000e0000", "\U000e0fff"))
"""Ranges of Unicode's default-ignorable characters that are not format characters (Cf):
the combining grapheme joiner, the Khmer inherent vowels, the Mongolian and other variation
selectors (the supplement's 240 too), and reserved ranges that fonts leave blank."""


def draws_nothing(char: str) -> bool:
    """A format character (Cf), a blank (:data:`BLANKS`) or another character that Unicode
    says to ignore in display (:data:`IGNORABLE`): inside a name it changes nothing a player
    sees, so "An\U000e0100n" is Ann."""
    return (unicodedata.category(char) == "Cf" or char in BLANKS
            or any(low <= char <= high for low, high in IGNORABLE))


def is_clean(value: object, max_length: int = 200) -> bool:
    """Whether ``value`` would pass :func:`clean_text` (for secrets: a bad one is simply wrong,
    no reason given)."""
    try:
        clean_text(value, "", max_length)
    except PayloadError:
        return False
    return True


def body() -> dict[str, Any]:
    """The request's JSON object; PayloadError for anything else (no body, a list, bad JSON,
    brackets nested thousands deep)."""
    if not request.is_json:  # the message names what to fix: a client sending text/plain
        raise PayloadError(_l("Send the request body as JSON, with Content-Type: "
                              "application/json."))
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        data = None
    if data is None and request.get_data(cache=True).strip() != b"null":
        raise PayloadError(_l("The request body is not valid JSON."))
    if not isinstance(data, dict):
        raise PayloadError(_l("The request body must be a JSON object."))
    return data


class StrictJSON(DefaultJSONProvider):
    """Flask's JSON without Python's extras NaN, Infinity and -Infinity in what it reads.

    They are not JSON (RFC 8259), and a number that holds one compares false with every
    bound, so a body that carries one is refused as bad JSON before any field sees it.
    """

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        kwargs.setdefault("parse_constant", _no_constant)
        return super().loads(s, **kwargs)


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


class AsciiInt(IntegerConverter):
    """A number in a path written in the digits 0-9 only. Werkzeug's ``\\d`` takes any
    script's digits, so ``/turns/٠`` (an Arabic-Indic zero) acted on turn 0."""

    regex = r"[0-9]+"
