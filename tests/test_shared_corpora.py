"""Integration: the real corpora in ../shared, loaded and indexed end to end."""

from pathlib import Path

import pytest

from search.corpus.lean import load_lean_corpus
from search.engine.engine import Engine
from search.index.build import BuildOptions, build_index
from search.index.store import Index

pytestmark = pytest.mark.integration

#: Written declarations per file, from corpora/lean/README.md.
WRITTEN = {"mathlib": 254_489, "batteries": 3_275, "physlean": 7_608}


@pytest.mark.parametrize("source", ["batteries", "physlean", "mathlib"])
def test_every_written_declaration_becomes_a_record(shared_dir: Path, source: str) -> None:
    records = load_lean_corpus(shared_dir / "corpora" / "lean" / f"{source}.jsonl.gz", source)
    written = [r for r in records if "derived_from" not in r.meta]
    assert len(written) == WRITTEN[source]
    assert len({r.id for r in records}) == len(records)
    assert all(r.group for r in records)


def test_small_real_index_answers_by_name_and_by_meaning(
    shared_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    out = tmp_path_factory.mktemp("real") / "index"
    build_index(out, BuildOptions(sources=["batteries", "hott"], progress=False))
    index = Index.load(out)
    assert set(index.manifest["counts"]) == {"batteries", "hott"}
    assert index.manifest["sources"]["hott"]["commit"].startswith("578b85cc")
    engine = Engine(index)
    assert engine.search("List.interleave_append_left", k=1)[0].statement.name == (
        "List.interleave_append_left"
    )
    univalence = engine.search("univalence axiom", k=5, filters={"source": "hott"})
    assert any("univalence" in r.statement.statement.lower() for r in univalence)
