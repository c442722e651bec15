"""Shared fixtures: small hand-written data for unit tests, ../shared for integration tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from search import config as search_config

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "integration: runs on the real corpora in ../shared (skipped when absent)"
    )


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not (search_config.SHARED_DIR / "corpora").is_dir():
        pytest.skip(f"the shared corpora are not at {search_config.SHARED_DIR} (set THEOREM_SEARCH_SHARED)")
    return search_config.SHARED_DIR
