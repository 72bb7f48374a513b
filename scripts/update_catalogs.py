"""Refresh the translation catalogs: extract the strings, merge them into every language, compile.

The compiled ``.mo`` files are kept in the repository so that a fresh install works offline
without this step; run it whenever a string in the code or a template changes, translate
what it reports as missing, and run it again so the ``.mo`` files match the ``.po`` files.

    .venv/bin/python scripts/update_catalogs.py            # extract, update, compile, report
    .venv/bin/python scripts/update_catalogs.py --compile  # only compile the .po files
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parents[1]
TRANSLATIONS = REPO / "webui" / "translations"
TEMPLATE = TRANSLATIONS / "messages.pot"
# English is the language of the source strings; its catalog only carries the plural rule.
LANGUAGES = ("en", "ar", "af", "vi", "hi")


def pybabel(*args: str) -> None:
    """Run one pybabel command in this process (the same Babel the app uses)."""
    CommandLineInterface().run(["pybabel", "-q", *args])


def catalog_path(code: str) -> Path:
    return TRANSLATIONS / code / "LC_MESSAGES" / "messages.po"


def extract(output: Path = TEMPLATE) -> None:
    """Collect every translatable string of the code and templates into ``output``.

    The tests call this too, so the check that the catalogs are complete looks at exactly
    what this script would extract. Source locations come out relative to the working
    directory (the repository, when run as a script).
    """
    pybabel("extract", "-F", str(REPO / "babel.cfg"), "-k", "_l", "-c", "TRANSLATORS:",
            "--project", "qwirkle-scorekeeper", "--no-wrap", "-o", str(output),
            os.path.relpath(REPO))


def merge(code: str) -> None:
    """Bring one catalog in line with the template (create it the first time)."""
    if catalog_path(code).exists():
        pybabel("update", "-i", str(TEMPLATE), "-d", str(TRANSLATIONS), "-l", code,
                "--ignore-obsolete", "--no-wrap")
    else:
        pybabel("init", "-i", str(TEMPLATE), "-d", str(TRANSLATIONS), "-l", code, "--no-wrap")


def compile_all() -> None:
    pybabel("compile", "-d", str(TRANSLATIONS))


def missing(code: str) -> list[str]:
    """The msgids this catalog still lacks a reviewed translation for."""
    with catalog_path(code).open("rb") as handle:
        catalog = read_po(handle)
    return [str(m.id) for m in catalog
            if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple)
                                            else (m.string,)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compile", action="store_true", help="only compile the .po files")
    args = parser.parse_args(argv)
    os.chdir(REPO)  # source locations in the catalogs are relative to the repository
    if not args.compile:
        extract()
        for code in LANGUAGES:
            merge(code)
    compile_all()
    untranslated = 0
    for code in LANGUAGES[1:]:
        gaps = missing(code)
        untranslated += len(gaps)
        print(f"{code}: {len(gaps)} untranslated or fuzzy")
        for msgid in gaps:
            print(f"    {msgid!r}")
    return 1 if untranslated else 0


if __name__ == "__main__":
    sys.exit(main())
