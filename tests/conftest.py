"""Shared test fixtures: where the real photos live, and a skip when they are absent."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
REAL_DATA = REPO.parent / "shared" / "data" / "real"


@pytest.fixture
def real_data() -> Path:
    """The folder of real photos beside the repository; tests that need it skip without it."""
    if not REAL_DATA.is_dir():
        pytest.skip(f"real photos are absent: {REAL_DATA} does not exist")
    return REAL_DATA


CHROMIUM = Path("/usr/bin/chromium")
"""Debian's chromium, which the browser tests drive through Playwright."""

SIZES = {"tv": (1920, 1080), "small tv": (1280, 720), "phone": (390, 844),
         "tablet": (800, 1280), "landscape tablet": (1280, 800)}
"""Screens of a game night: a TV, a laptop on a small TV, a phone and a tablet both ways."""


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run"])
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser):
    """A page at one of SIZES; uncaught script errors fail the test."""
    contexts, errors = [], []

    def opener(size: str, url: str):
        width, height = SIZES[size]
        context = browser.new_context(viewport={"width": width, "height": height},
                                      has_touch=width < 1000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        return page

    yield opener
    for context in contexts:
        context.close()
    assert errors == []
