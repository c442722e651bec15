from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from eval.metrics import DEPTH, METRICS, matched_golds, per_query, relevance
from tests.eval.fakes import result, results

GOLD = frozenset({"Nat.succ_le_succ"})


def scores_of(ranked, relevant=GOLD) -> dict[str, float]:
    values = per_query(relevance(ranked, relevant)[None, :], [len(relevant)])
    return {name: float(v[0]) for name, v in values.items()}


def test_gold_at_rank_one() -> None:
    s = scores_of(results("mathlib:Nat.succ_le_succ", "mathlib:Nat.le"))
    assert all(s[m] == 1.0 for m in METRICS)


def test_gold_at_rank_three() -> None:
    s = scores_of(results("mathlib:A", "mathlib:B", "mathlib:Nat.succ_le_succ"))
    assert (s["P@1"], s["Hit@1"], s["nDCG@1"]) == (0.0, 0.0, 0.0)
    assert s["Hit@10"] == s["R@10"] == 1.0
    assert s["MRR@10"] == pytest.approx(1 / 3)
    assert s["nDCG@5"] == s["nDCG@10"] == pytest.approx(1 / math.log2(4))  # = 0.5


def test_gold_absent_and_gold_below_cutoffs() -> None:
    assert all(v == 0.0 for v in scores_of(results("mathlib:A", "mathlib:B")).values())
    deep = scores_of(results(*[f"mathlib:X{i}" for i in range(14)], "mathlib:Nat.succ_le_succ"))
    assert (deep["Hit@10"], deep["MRR@10"], deep["R@10"]) == (0.0, 0.0, 0.0)
    assert (deep["Hit@20"], deep["R@50"]) == (1.0, 1.0)
    assert deep["MRR@20"] == pytest.approx(1 / 15)


def test_group_member_counts_as_the_gold() -> None:
    ranked = [result("mathlib:A"), result("mathlib:Nat.succ_le_succ'", "mathlib:Nat.succ_le_succ")]
    s = scores_of(ranked)
    assert s["MRR@10"] == pytest.approx(0.5)
    assert s["nDCG@10"] == pytest.approx(1 / math.log2(3))


def test_matching_by_id_or_name_but_not_by_prefix() -> None:
    head = result("mathlib:Nat.succ_le_succ_iff", "batteries:Nat.le_of_succ")
    assert matched_golds(head, frozenset({"Nat.succ_le_succ"})) == frozenset()
    assert matched_golds(head, frozenset({"Nat.le_of_succ", "batteries:Nat.le_of_succ"})) == {
        "Nat.le_of_succ", "batteries:Nat.le_of_succ"}
    assert matched_golds(head, frozenset({"mathlib:Nat.succ_le_succ_iff"})) == {"mathlib:Nat.succ_le_succ_iff"}


def test_two_golds_and_a_result_standing_for_both() -> None:
    golds = frozenset({"G1", "G2"})
    s = scores_of(results("mathlib:G1", "mathlib:A", "mathlib:B", "mathlib:G2"), golds)
    assert s["R@10"] == 1.0 and s["P@1"] == 1.0
    assert s["nDCG@10"] == pytest.approx((1 + 1 / math.log2(5)) / (1 + 1 / math.log2(3)))
    both = scores_of([result("mathlib:G1", "mathlib:G2")], golds)
    assert both["R@10"] == 0.5  # one result is credited with one gold only
    assert relevance([result("mathlib:G1"), result("mathlib:G1_alias", "mathlib:G1")], golds)[:2].tolist() == [1, 0]


def test_bad_shapes_are_refused() -> None:
    with pytest.raises(ValueError):
        per_query(np.zeros((2, DEPTH)), [1, 0])
    with pytest.raises(ValueError):
        per_query(np.zeros((2, 10)), [1, 1])


def test_equal_to_ranx_on_random_runs() -> None:
    """The run given to ranx renames each credited result to its gold, every doc once."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from ranx import Qrels, Run, evaluate

    rng = np.random.default_rng(7)
    pool = [f"D{i}" for i in range(150)]
    qrels, run, rel, counts = {}, {}, [], []
    for q in range(40):
        golds = frozenset(rng.choice(pool, size=rng.integers(1, 4), replace=False).tolist())
        ids = rng.choice(pool, size=rng.integers(1, 130), replace=False).tolist()
        ranked = [result(f"src:{d}", *([f"src:{rng.choice(pool)}"] if rng.random() < 0.2 else [])) for d in ids]
        vector = relevance(ranked, golds)
        docs, found = {}, set()
        for rank, r in enumerate(ranked):
            fresh = matched_golds(r, golds) - found
            found.update(sorted(fresh)[:1])
            docs[min(fresh) if fresh else f"other{rank}"] = float(len(ranked) - rank)
        qrels[f"q{q}"] = {g: 1 for g in golds}
        run[f"q{q}"] = docs
        rel.append(vector)
        counts.append(len(golds))
    ours = per_query(np.stack(rel), counts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ranx_run = Run(run)
        evaluate(Qrels(qrels), ranx_run, list(METRICS.values()))
    assert sum(v.sum() for v in ours.values()) > 0
    for label, name in METRICS.items():
        theirs = [ranx_run.scores[name][qid] for qid in run]  # ranx keeps its own query order
        np.testing.assert_allclose(ours[label], theirs, err_msg=label)
