"""Informal text from the authors' prose: module docs, a structure's docstring for its fields,
a definition's docstring for its unfolding lemmas, and `to_additive` docstrings for twins."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from search.corpus.lean import attach_informal, lean_statements
from search.corpus.lean.module_docs import parse_module_docs, read_module_docs
from search.corpus.sources import resolve_source

DOC = """# Split a box along hyperplanes

## Main definitions

* `BoxIntegral.Box.splitLower I i a` and `splitUpper` are these boxes;
* `Prepartition.split` is the partition of `I` made of these two boxes.

## Main results

The main result `exists_iUnion_eq_sdiff` says that any prepartition admits a complement.

## Tags

rectangular box, partition, hyperplane
"""


def test_module_docs_give_title_tags_and_the_line_naming_each_declaration() -> None:
    parsed = parse_module_docs([DOC])
    assert parsed.title == "Split a box along hyperplanes"
    assert parsed.tags == ["rectangular box", "partition", "hyperplane"]
    assert parsed.topic == "Split a box along hyperplanes; rectangular box, partition, hyperplane"
    assert parsed.described["BoxIntegral.Box.splitLower"] == "BoxIntegral.Box.splitLower I i a and splitUpper are these boxes;"
    assert parsed.described["exists_iUnion_eq_sdiff"].startswith("The main result exists_iUnion_eq_sdiff says")


def _row(name: str, kind: str, doc: str | None = None, **extra: object) -> dict:
    return {"name": name, "kind": kind, "signature": f"{kind} {name}", "docstring": doc, "module": "M",
            "namespace": "", "refs": [], "fields": [], "constructors": [], "attributes": [], **extra}


ROWS = [
    _row("Box.splitLower", "def"),
    _row("Box.splitUpper", "def", "The upper box."),
    _row("Monoid.foo", "structure", "A foo is a monoid with a bar.", fields=[{"name": "bar", "type": "Nat"}]),
    _row("card", "def", "The number of elements."),
    _row("card_def", "theorem"),
    _row("card_le", "theorem"),
    _row("mul_bar", "theorem", None, attributes=["to_additive"], attribute_args=["to_additive /-- The sum's bar. -/"]),
    _row("one_bar", "theorem", None, attributes=["to_additive"], attribute_args=["to_additive existing"]),
]


def test_each_place_fills_records_that_say_nothing_and_says_how_many() -> None:
    statements = lean_statements(ROWS, "lib")
    docs = {"M": parse_module_docs(["* `Box.splitLower`: the lower of the two boxes cut by a hyperplane"])}
    counts = attach_informal(statements, docs)
    by_name = {s.name: s for s in statements}
    assert by_name["Box.splitLower"].informal == "Box.splitLower: the lower of the two boxes cut by a hyperplane"
    assert by_name["Monoid.foo.bar"].informal == by_name["Monoid.foo.mk"].informal == "A foo is a monoid with a bar."
    assert by_name["card_def"].informal == "The number of elements." and by_name["card_le"].informal == ""
    assert by_name["Box.splitUpper"].informal == ""  # its own docstring speaks for it
    assert counts == {"module doc": 1, "structure docstring": 2, "definition docstring": 1}
    # `to_additive /-- doc -/` documents the twin; `to_additive existing` makes no record.
    assert by_name["add_bar"].doc == "The sum's bar." and "zero_bar" not in by_name


def test_the_lean_format_reads_module_docs_beside_the_corpus(tmp_path: Path) -> None:
    corpus = tmp_path / "lib.jsonl.gz"
    with gzip.open(corpus, "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row) + "\n" for row in ROWS)
    with gzip.open(tmp_path / "lib_modules.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write(json.dumps({"module": "M", "docs": ["* `Box.splitLower`: the lower box of a cut"]}) + "\n")
    assert read_module_docs(tmp_path / "lib_modules.jsonl.gz")["M"].described
    statements = resolve_source(f"lib={corpus}").load()
    assert {s.name: s.informal for s in statements}["Box.splitLower"] == "Box.splitLower: the lower box of a cut"
