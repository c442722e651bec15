"""The fixture index loaded twice into the session's PostgreSQL (`postgres`, tests/conftest.py):
with pg_textsearch's BM25, and with BM25+ kept in process (`--no-textsearch`), the latter also
binary-quantised."""

from __future__ import annotations

from pathlib import Path

import pytest

#: Schemas of the two loads of the fixture index.
TEXTSEARCH_SCHEMA = "fixture_textsearch"
PROCESS_SCHEMA = "fixture_process_binary"


@pytest.fixture(scope="session")
def loaded(postgres: str, small_index: Path) -> dict[str, str]:
    """The fixture index's address per load: `textsearch` and `process` (binary-quantised)."""
    from search.index.postgres.load import load_postgres

    load_postgres(small_index, postgres, schema=TEXTSEARCH_SCHEMA)
    load_postgres(small_index, postgres, binary=True, textsearch=False, schema=PROCESS_SCHEMA)
    return {"textsearch": f"{postgres}#{TEXTSEARCH_SCHEMA}", "process": f"{postgres}#{PROCESS_SCHEMA}"}
