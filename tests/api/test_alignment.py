"""Formal <-> informal alignment: a Stacks statement lists the Mathlib declarations that say they
formalise it first, then the engine's best matches in Lean; a declaration the other way round.
Over a small index whose Lean part links `@[stacks 0003]` to a Stacks-like lemma."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from search.api.http import make_api
from search.engine.alignment import aligned, alignment_query
from search.engine.engine import Engine
from search.index.build import BuildOptions, build_index
from search.index.store import Index
from tests.lean_lines import write_lean_lines

DECLARATIONS = [
    {"name": "PrimeSpectrum.compactSpace", "kind": "theorem", "signature": "theorem compactSpace (R : Type u) [CommRing R] : CompactSpace (PrimeSpectrum R)",
     "docstring": "The prime spectrum of a commutative ring is quasi-compact.", "attribute_args": ["stacks 0003"],
     "attributes": ["stacks"], "module": "Mathlib.AlgebraicGeometry.PrimeSpectrum.Basic", "namespace": "PrimeSpectrum"},
    {"name": "Nat.succ_le_succ", "kind": "theorem", "signature": "theorem succ_le_succ {n m : ℕ} (h : n ≤ m) : succ n ≤ succ m",
     "docstring": None, "attribute_args": [], "attributes": [], "module": "Mathlib.Order.Nat", "namespace": "Nat"},
]


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory, fixtures_dir: Path) -> Engine:
    root = tmp_path_factory.mktemp("aligned")
    lean = write_lean_lines(root / "lean.jsonl", DECLARATIONS)
    sources = [f"mathlib={lean}", f"stacks={fixtures_dir / 'latex' / 'stackslike'}"]
    build_index(root / "index", BuildOptions(sources=sources, backend="torch", progress=False))
    return Engine(Index.load(root / "index"))


def test_links_come_first_then_the_search_in_the_other_language(linked: Engine) -> None:
    lemma = linked.index.get("stacks:0003")
    assert lemma is not None and lemma.links == ["mathlib:PrimeSpectrum.compactSpace"]
    found = aligned(linked, lemma, k=2)
    assert found[0].statement.id == "mathlib:PrimeSpectrum.compactSpace" and found[0].linked
    assert all(a.statement.language == "lean" for a in found)
    assert [a.statement.id for a in found].count("mathlib:PrimeSpectrum.compactSpace") == 1
    back = aligned(linked, linked.index.get("mathlib:PrimeSpectrum.compactSpace"), k=3)
    assert back[0].statement.id == "stacks:0003" and back[0].linked
    assert all(a.statement.language == "latex" for a in back) and not any(a.linked for a in back[1:])


def test_a_statement_is_searched_by_its_own_words() -> None:
    from search.record import Statement

    formal = Statement("m:x", "m", "theorem", "Nat.succ_le_succ", "theorem succ_le_succ (h : n ≤ m) : succ n ≤ succ m",
                       language="lean", doc="Successor is monotone.")
    assert alignment_query(formal) == "nat natural number succ successor le less than or equal succ successor " \
        "Successor is monotone. succ n ≤ succ m"
    informal = Statement("s:1", "s", "lemma", "1", "$x^2 \\geq 0$" * 200, language="latex", doc="")
    assert len(alignment_query(informal)) == 600


def test_native_api_answers_the_alignment(linked: Engine) -> None:
    client = TestClient(make_api(linked, rate_limit=0))
    body = client.get("/api/v1/aligned/stacks:0003", params={"k": 1}).json()
    assert body["language"] == "lean" and body["results"][0]["id"] == "mathlib:PrimeSpectrum.compactSpace"
    assert body["results"][0]["linked"] is True and len(body["results"]) <= 2
    missing = client.get("/api/v1/aligned/stacks:9999")
    assert missing.status_code == 404 and "no statement has the id" in missing.json()["error"]
