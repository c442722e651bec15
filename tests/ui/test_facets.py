"""Sidebar choices: per source, narrowed by the chosen sources, metadata keys only when present."""

from pathlib import Path

from search.record import RecordTable, Statement, read_records, write_records
from search.ui.facets import Facets


def _records(tmp_path: Path) -> RecordTable:
    statements = [
        Statement("mathlib:a", "mathlib", "theorem", "a", "", "lean", package="Algebra"),
        Statement("mathlib:b", "mathlib", "def", "b", "", "lean", package="Topology"),
        Statement("stacks:0001", "stacks", "lemma", "0001", "", language="latex", package="Schemes",
                  meta={"chapter": "Schemes", "section": "Affine schemes", "tag": "0001"}),
        Statement("arxiv:1", "arxiv", "theorem", "1", "", language="latex", package="math.AG",
                  meta={"year": 2021, "authors": ["A", "B"]}),
    ]
    write_records(statements, tmp_path / "records.arrow")
    return read_records(tmp_path / "records.arrow")


def test_choices_follow_the_chosen_sources(tmp_path: Path) -> None:
    facets = Facets.from_records(_records(tmp_path), meta_keys=("chapter", "section", "year", "absent"))
    assert facets.keys == ("kind", "package", "chapter", "section", "year")
    assert facets.sources == ["arxiv", "mathlib", "stacks"]
    assert facets.choices("package") == ["Algebra", "Schemes", "Topology", "math.AG"]
    assert facets.choices("package", ["mathlib"]) == ["Algebra", "Topology"]
    assert facets.choices("kind", ["stacks", "arxiv"]) == ["lemma", "theorem"]
    assert facets.choices("year") == ["2021"] and facets.choices("chapter", ["mathlib"]) == []
    assert facets.split("package", ["Algebra", "Schemes", "Nope"], ["mathlib"]) == (["Algebra"], ["Schemes", "Nope"])
