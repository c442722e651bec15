from __future__ import annotations

import math

import pytest

from eval.querysets import LabelledQuery
from eval.retrieval import run_retrieval
from eval.stats import OVERALL
from tests.eval.fakes import FakeEngine, result, results

QUERIES = [
    LabelledQuery("A:lean", "succ mono", frozenset({"Nat.succ_le_succ"}), {"style": "lean"}),
    LabelledQuery("A:natural", "successor is monotone", frozenset({"Nat.succ_le_succ"}), {"style": "natural"}),
    LabelledQuery("B:lean", "lie ring", frozenset({"mathlib:LieRing"}), {"style": "lean"}),
    LabelledQuery("C:lean", "renamed away", frozenset({"Old.name"}), {"style": "lean"}),
]
ENGINE_SCRIPT = {
    "default": {
        "succ mono": results("mathlib:Nat.succ_le_succ"),
        "successor is monotone": results("mathlib:A", "mathlib:B", "mathlib:Nat.succ_le_succ"),
        "lie ring": [result("mathlib:LieAlgebra"), result("mathlib:LieRing.ofAssoc", "mathlib:LieRing")],
    },
    "bm25": {"succ mono": results("mathlib:A", "mathlib:Nat.succ_le_succ")},
}


@pytest.fixture
def engine() -> FakeEngine:
    return FakeEngine(ENGINE_SCRIPT)


def test_every_query_goes_through_search_with_the_variant(engine: FakeEngine) -> None:
    run_retrieval(engine, QUERIES, ["bm25", "default"], k=100)
    assert len(engine.calls) == 8
    assert {(call[1], call[2]) for call in engine.calls} == {(100, "bm25"), (100, "default")}
    assert [c[0] for c in engine.calls[:4]] == [q.query for q in QUERIES]


def test_per_query_values_first_hits_and_summary(engine: FakeEngine) -> None:
    run = run_retrieval(engine, QUERIES, ["bm25", "default"], k=100)
    default, bm25 = run.variants["default"], run.variants["bm25"]
    assert default.first_hit.tolist() == [1, 3, 2, 0]
    assert default.scores["MRR@10"] == pytest.approx([1, 1 / 3, 1 / 2, 0])
    assert bm25.first_hit.tolist() == [2, 0, 0, 0]
    assert default.summary[OVERALL]["MRR@10"].mean == pytest.approx((1 + 1 / 3 + 1 / 2) / 4)
    assert default.summary[("style", "lean")]["Hit@1"].mean == pytest.approx(1 / 3)
    assert default.summary[("style", "natural")]["Hit@10"].n == 1
    assert len(default.seconds) == 4 and (default.seconds >= 0).all()
    (comparison,) = run.comparisons
    assert (comparison.baseline, comparison.variant, comparison.metric) == ("default", "bm25", "nDCG@10")
    expected = (1 / math.log2(3) - 1 - 0.5 - 1 / math.log2(3)) / 4
    assert comparison.diff.mean == pytest.approx(expected)


def test_golds_absent_from_the_index_are_counted_as_misses(engine: FakeEngine) -> None:
    known = {"Nat.succ_le_succ", "mathlib:LieRing"}
    run = run_retrieval(engine, QUERIES, ["default"], exists=known.__contains__)
    assert run.missing == ["Old.name"] and run.unanswerable == 1
    assert run.variants["default"].scores["R@100"][3] == 0.0
    assert run.comparisons == []  # nothing to compare `default` with
    unchecked = run_retrieval(engine, QUERIES, ["default"])
    assert unchecked.missing is None and unchecked.unanswerable is None
