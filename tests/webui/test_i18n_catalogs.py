"""The translation catalogs are complete: every string the code and templates show is
translated in every language, reviewed (not fuzzy), with its placeholders and plural forms
intact, and compiled into the .mo file the app actually reads.

When a test here fails after a string changed: run ``.venv/bin/python
scripts/update_catalogs.py``, translate what it lists, and run it again.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from webui import i18n

REPO = Path(__file__).resolve().parents[2]
TRANSLATIONS = REPO / "webui" / "translations"
LANGUAGES = ("ar", "af", "vi", "hi")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def po_path(code: str) -> Path:
    return TRANSLATIONS / code / "LC_MESSAGES" / "messages.po"


@pytest.fixture(scope="module")
def source_ids(tmp_path_factory) -> list[str | tuple[str, ...]]:
    """Every msgid in the sources now, extracted exactly as the update script does it."""
    template = tmp_path_factory.mktemp("i18n") / "messages.pot"
    load_script("update_catalogs").extract(template)
    ids = [message.id for message in read_catalog(template) if message.id]
    assert len(ids) > 100, "extraction found too few strings: is babel.cfg still right?"
    return ids


def forms(string: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """A message's singular or plural text as a tuple (read_mo gives plurals as lists)."""
    return tuple(string) if isinstance(string, tuple | list) else (string,)


@pytest.mark.parametrize("code", LANGUAGES)
def test_catalog_holds_every_string_of_the_sources(code, source_ids):
    catalog = read_catalog(po_path(code), code)
    missing = []
    for msgid in source_ids:
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        entry = catalog.get(key)
        if entry is None or entry.id != msgid:
            missing.append(msgid)
    assert not missing, f"{code} lacks {len(missing)} strings, e.g. {missing[:5]}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_translation_is_complete_and_reviewed(code):
    catalog = read_catalog(po_path(code), code)
    assert not catalog.fuzzy, f"the {code} catalog header is marked fuzzy"
    assert catalog.plural_forms == get_plural(code).plural_forms
    problems = []
    for message in catalog:
        if not message.id:
            continue
        strings = forms(message.string)
        if message.fuzzy:
            problems.append(("fuzzy", message.id))
        if not all(s.strip() for s in strings):
            problems.append(("empty", message.id))
        if message.pluralizable and len(strings) != catalog.num_plurals:
            problems.append((f"{len(strings)} plural forms, not {catalog.num_plurals}",
                             message.id))
    assert not problems, f"{code}: {problems[:5]}"


def test_plural_rules_follow_each_language():
    """Arabic has six forms, Hindi and Afrikaans two, Vietnamese one (gettext/CLDR)."""
    counts = {code: read_catalog(po_path(code), code).num_plurals for code in LANGUAGES}
    assert counts == {"ar": 6, "af": 2, "vi": 1, "hi": 2}


@pytest.mark.parametrize("code", LANGUAGES)
def test_translations_keep_their_placeholders(code):
    """A lost or misspelt %(name)s would crash the page or show the wrong number. A plural
    form may leave out %(num)s where the language says the number in words (Arabic "two")."""
    catalog = read_catalog(po_path(code), code)
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        wanted = set(PLACEHOLDER.findall(" ".join(forms(message.id))))
        for string in filter(None, forms(message.string)):  # empty ones fail the test above
            found = set(PLACEHOLDER.findall(string))
            if not found <= wanted or (not message.pluralizable and found != wanted):
                wrong.append((message.id, string))
    assert not wrong, f"{code}: {wrong[:5]}"
    assert [error for _, errors in catalog.check() for error in errors] == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_compiled_catalog_matches_its_source(code):
    """The app reads the .mo file: it must hold what the .po says (run the update script)."""
    source = read_catalog(po_path(code), code)
    with po_path(code).with_suffix(".mo").open("rb") as handle:
        compiled = read_mo(handle)
    expected = {forms(m.id): forms(m.string) for m in source
                if m.id and not m.fuzzy and all(forms(m.string))}
    actual = {forms(m.id): forms(m.string) for m in compiled if m.id}
    assert actual == expected


def test_the_app_offers_every_language():
    assert set(i18n.languages()) == {"en", *LANGUAGES}
    assert i18n.languages()[0] == "en"
