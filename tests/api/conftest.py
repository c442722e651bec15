"""One small real index for every API test: Mathlib fixture, a trigonometry fixture whose
`refs` tell statement uses from proof uses, and a Stacks-like LaTeX book; and one of Lean
declarations (`lean_patterns.jsonl`) for Loogle's patterns, each with look-alikes they must
not match."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from search.api.http import make_api
from search.engine.engine import Engine
from search.index.build import BuildOptions, build_index
from search.index.store import Index
from tests.client_venv import client_venv
from tests.live_server import live_server


@pytest.fixture(scope="package")
def api_index(tmp_path_factory: pytest.TempPathFactory, fixtures_dir: Path) -> Index:
    out = tmp_path_factory.mktemp("api") / "index"
    sources = [
        f"mathlib={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}",
        f"extra={fixtures_dir / 'api' / 'lean_trig.jsonl'}",
        f"stackslike={fixtures_dir / 'latex' / 'stackslike'}",
    ]
    build_index(out, BuildOptions(sources=sources, backend="torch", progress=False))  # torch loads fastest
    return Index.load(out)


@pytest.fixture(scope="package")
def engine(api_index: Index) -> Engine:
    return Engine(api_index)


def expected_names(engine: Engine, query: str, k: int, kinds: tuple[str, ...] = ()) -> list[str]:
    """What the engine itself ranks for the Lean tools' endpoints: Lean sources, maybe kinds.
    The tests compare with it rather than fix a ranking that is still being tuned."""
    filters: dict[str, list[str]] = {"source": ["extra", "mathlib"]}
    if kinds:
        filters["kind"] = list(kinds)
    return [r.statement.name for r in engine.search(query, k=k, filters=filters)]


@pytest.fixture(scope="package")
def api(engine: Engine) -> FastAPI:
    """Without a rate limit: these tests send hundreds of requests from one client within a
    minute (test_guard.py tests the limit)."""
    return make_api(engine, rate_limit=0)


@pytest.fixture(scope="package")
def client(api: FastAPI) -> TestClient:
    """Without `with`: the MCP session manager's lifespan is not needed by these routes."""
    return TestClient(api, raise_server_exceptions=False)


@pytest.fixture(scope="package")
def pattern_engine(tmp_path_factory: pytest.TempPathFactory, fixtures_dir: Path) -> Engine:
    out = tmp_path_factory.mktemp("patterns") / "index"
    build_index(out, BuildOptions(sources=[f"mathlib={fixtures_dir / 'api' / 'lean_patterns.jsonl'}"],
                                  backend="torch", progress=False))
    return Engine(Index.load(out))


@pytest.fixture(scope="package")
def pattern_client(pattern_engine: Engine) -> TestClient:
    return TestClient(make_api(pattern_engine, rate_limit=0), raise_server_exceptions=False)


@pytest.fixture(scope="package")
def pattern_server(pattern_engine: Engine) -> Iterator[str]:
    """The patterns fixture's API served live by uvicorn, for the real clients' tests."""
    with live_server(make_api(pattern_engine, rate_limit=0), start_timeout=30) as url:
        yield url


@pytest.fixture(scope="module")
def client_env(request: pytest.FixtureRequest) -> Path:
    """The virtual environment holding the test module's `REQUIREMENT`, a client package others
    wrote (tests/client_venv.py: made once, skipped when it cannot be installed)."""
    return client_venv(request.config, request.module.REQUIREMENT)
