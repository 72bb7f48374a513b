"""The app and a joined table for the web tests, as the Flask tutorial's tests have them, and
the browser for the tests that drive Debian's chromium."""

from __future__ import annotations

import pytest
from webui_support import CHROMIUM, LAN_NAME, SIZES, Table, make_app


@pytest.fixture
def app(tmp_path):
    """A fresh app on its own database, with no camera."""
    return make_app(tmp_path / "games.sqlite3")


@pytest.fixture
def table(app):
    """A client that has joined the table (it sends the CSRF header itself)."""
    return Table(app)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run",
                  # a name for the test server that is no loopback name: a page opened
                  # through it is a device on the LAN, which must join with the PIN
                  f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"])
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
