"""`python -m eval goals`: MathlibMPR's statements read as goal states, recall of the premise
groups, and the command over a small index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval.__main__ import main
from eval.goals import CLIENT_EXAMPLES, GoalQuery, corpus_goals, goal_state, recalls
from search.index.store import Index
from search.index.build import BuildOptions, build_index

STATEMENT = """import Mathlib

open Set

variable {α β : Type*}
  [LinearOrder β] {f : α → β}

/-- helper -/
lemma helper : True := trivial

/-- **Main result.** with `(L := L)` in a binder. -/
theorem Foo.main_result (hab : ∀ x, f x ≤ f x) {S : Set α} (h : F (L := L) S) :
    ∃ c ∈ S, f c ≤ f c := sorry
"""


def test_a_statement_becomes_the_goal_state_of_its_proof() -> None:
    name, state = goal_state(STATEMENT, "Foo.main_result")
    assert name == "Foo.main_result"
    assert state.split("\n") == [
        "α β : Type*", "inst✝ : LinearOrder β", "f : α → β", "hab : ∀ x, f x ≤ f x", "S : Set α",
        "h : F (L := L) S", "⊢ ∃ c ∈ S, f c ≤ f c",
    ]
    # Without the full name: the last theorem, named in its namespaces.
    assert goal_state("namespace N\ntheorem t (x : ℕ) : x = x := rfl\nend N")[0] == "N.t"


def test_recall_counts_a_group_when_all_its_premises_are_listed() -> None:
    query = GoalQuery("q", "r", "⊢ True", [frozenset({"a", "b"}), frozenset({"c"})], frozenset({"a", "b"}))
    measured = recalls(["a", "x"] * 5 + ["b", "c"], query)
    assert measured["group Recall@10"] == 0.0 and measured["premise Recall@10"] == 0.5
    assert measured["group Recall@50"] == 1.0 and measured["premise Recall@50"] == 1.0


def test_the_command_measures_each_variant_and_goal_path(tmp_path: Path, fixtures_dir: Path, capsys) -> None:
    index = tmp_path / "index"
    build_index(index, BuildOptions(sources=[f"mathlib={fixtures_dir / 'api' / 'lean_patterns.jsonl'}"],
                                    backend="torch", progress=False))
    queries = tmp_path / "mpr.json"
    queries.write_text(json.dumps([{
        "id": "q1", "formal_main_result": "tsum_lt_tsum_strict",
        "formal_statement": "theorem tsum_lt_tsum_strict {f g : ι → α} (hi : f i < g i) : ∑' n, f n < ∑' n, g n := sorry",
        "premise_group": [{"kind": "original", "docs": ["tsum_lt_tsum"]},
                          {"kind": "alternative", "docs": ["no_such_lemma"]}],
    }]), encoding="utf-8")
    code = main(["goals", "--index", str(index), "--queries", str(queries), "--variants", "bm25",
                 "--corpus", "5", "--out", str(tmp_path), "--name", "mpr"])
    report = json.loads((tmp_path / "mpr.json").read_text(encoding="utf-8"))
    assert code == 0 and report["premises"] == 2 and report["premises_in_index"] == 1
    assert set(report["variants"]["bm25"]) == {"sharing", "stated", "stated+constants", "structure", "gain"}
    assert report["variants"]["bm25"]["stated"]["premise Recall@10"]["mean"] == pytest.approx(1.0)
    assert report["variants"]["bm25"]["stated"]["group Recall@10"]["mean"] == pytest.approx(0.5)
    assert "| `bm25` | gain |" in capsys.readouterr().out

    # Goal states made from the index's own theorems that refer to other theorems: `Real.mul_self_sqrt`
    # and the like have none here, `tsum_lt_tsum`'s refs name no theorem of the fixture either.
    assert report["corpus"]["n"] == len(corpus_goals(Index.load(index), 5))
    assert [e["state"] for e in report["examples"]] == [state for state, _ in CLIENT_EXAMPLES]


def test_corpus_goals_are_theorems_with_theorem_premises(tmp_path: Path, fixtures_dir: Path) -> None:
    index = tmp_path / "index"
    build_index(index, BuildOptions(sources=[f"mathlib={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}"],
                                    backend="torch", progress=False))
    loaded = Index.load(index)
    made = corpus_goals(loaded, 50)
    theorems = {s.name for s in loaded.records if s.kind in ("theorem", "lemma")}
    for goal in made:
        assert goal.name in theorems and goal.original and goal.original <= theorems and goal.name not in goal.original
        assert goal.state.splitlines()[-1].startswith("⊢ ")
    assert made == corpus_goals(loaded, 50)  # the same draw each time
