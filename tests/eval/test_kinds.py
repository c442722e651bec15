"""`python -m eval kinds` and the docstrings-to-Stacks query set, over a small index whose Lean part
links Stacks tags of both halves (0002 and 00A1 are in the test half, 0003 in the training half)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval.__main__ import main
from eval.corpus_queries import docstrings_to_stacks
from eval.kinds import FUSED, SINGLE, KindSet, kind_rows
from eval.querysets import LabelledQuery
from search.index.build import BuildOptions, build_index
from search.index.store import Index
from tests.lean_lines import write_lean_lines

DECLARATIONS = [
    ("RingTheory.ring_def", "A ring is a set with two operations.", ["stacks 0002"]),
    ("Local.lemma", "A local lemma about local rings.", ["stacks 00A1"]),
    ("Undocumented.lemma", None, ["stacks 00A1"]),
    ("Train.lemma", "Every ring is nice.", ["stacks 0003"]),
]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, fixtures_dir: Path) -> Index:
    root = tmp_path_factory.mktemp("kinds")
    lean = write_lean_lines(root / "lean.jsonl", (
        {"name": name, "signature": f"theorem {name} : True", "docstring": doc, "attribute_args": args,
         "attributes": ["stacks"]} for name, doc, args in DECLARATIONS))
    sources = [f"mathlib={lean}", f"stacks={fixtures_dir / 'latex' / 'stackslike'}"]
    build_index(root / "index", BuildOptions(sources=sources, backend="torch", progress=False))
    return Index.load(root / "index")


def test_docstrings_search_stacks_on_the_test_half_only(index: Index) -> None:
    queries = docstrings_to_stacks(index)
    assert [(q.qid, q.query, sorted(q.relevant)) for q in queries] == [
        ("mathlib:Local.lemma", "A local lemma about local rings.", ["stacks:00A1"]),
        ("mathlib:RingTheory.ring_def", "A ring is a set with two operations.", ["stacks:0002"]),
    ]
    assert all(q.filters == {"language": ["latex"]} for q in queries)


def test_each_kind_compares_default_with_its_best_single_signal(index: Index) -> None:
    queries = [
        LabelledQuery("a", "local lemma", frozenset({"stacks:00A1"}), {"style": "words"}),
        LabelledQuery("b", "ring two operations", frozenset({"stacks:0002"}), {"style": "words"}),
        LabelledQuery("c", "Local.lemma", frozenset({"mathlib:Local.lemma"}), {"style": "name"}),
    ]
    rows = kind_rows(index, (KindSet("demo", "both", lambda _: queries, "style"),))
    assert [(r["key"], r["n"]) for r in rows] == [("demo", 3), ("demo-words", 2), ("demo-name", 1)]
    for row in rows:
        means = {name: row["metrics"][name]["nDCG@10"]["mean"] for name in (*SINGLE, FUSED)}
        assert row["best single"] == max(SINGLE, key=means.__getitem__)
        assert row["default - best"]["mean"] == pytest.approx(means[FUSED] - means[row["best single"]])
        diff = row["default - best"]
        assert row["verdict"] == ("at least as good" if diff["mean"] >= 0 else
                                  "worse" if diff["p"] < 0.05 else "lower, not significant")
    assert rows[2]["metrics"][FUSED]["nDCG@10"]["mean"] == 1.0  # an exact name is first under default


def test_the_command_writes_every_row(index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from eval import kinds

    monkeypatch.setattr(kinds, "KINDS", (KindSet("demo", "Stacks", docstrings_to_stacks),))
    assert main(["kinds", "--index", str(index.directory), "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "kinds.json").read_text())
    assert list(report["rows"]) == ["demo"] and report["rows"]["demo"]["n"] == 2
    assert "demo" in capsys.readouterr().out
