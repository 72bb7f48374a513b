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
