"""The app and a joined table for the web tests, as the Flask tutorial's tests have them."""

from __future__ import annotations

import pytest
from webui_support import Table, make_app


@pytest.fixture
def app(tmp_path):
    """A fresh app on its own database, with no camera."""
    return make_app(tmp_path / "games.sqlite3")


@pytest.fixture
def table(app):
    """A client that has joined the table (it sends the CSRF header itself)."""
    return Table(app)
