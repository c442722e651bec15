"""A tiny real index, built once per test session from the small Mathlib fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

from search.index.build import BuildOptions, build_index


@pytest.fixture(scope="session")
def tiny_index(tmp_path_factory: pytest.TempPathFactory, fixtures_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("eval_index") / "index"
    sources = [f"mathlib={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}"]
    build_index(out, BuildOptions(sources=sources, backend="torch", progress=False))  # torch loads fastest
    return out
