from __future__ import annotations

import math

import numpy as np
import pytest

from eval.stats import OVERALL, bootstrap, paired_test, slices, summarise


def test_bootstrap_interval_brackets_the_mean_and_is_reproducible() -> None:
    values = np.random.default_rng(3).random((200, 2))
    first = bootstrap(values)
    assert first == bootstrap(values)
    for column, estimate in enumerate(first):
        assert estimate.mean == pytest.approx(values[:, column].mean()) and estimate.n == 200
        assert estimate.low < estimate.mean < estimate.high
        assert estimate.high - estimate.low < 0.2  # about 4 standard errors of a U(0,1) mean
    (constant,) = bootstrap(np.ones(10))
    assert (constant.low, constant.high) == (1.0, 1.0)
    (single,) = bootstrap(np.array([0.5]))
    assert single.mean == 0.5 and math.isnan(single.low) and math.isnan(single.high)


def test_paired_test_flags_a_clearly_better_variant() -> None:
    rng = np.random.default_rng(0)
    baseline = (rng.random(80) < 0.4).astype(float)
    better = np.maximum(baseline, (rng.random(80) < 0.5).astype(float))
    comparison = paired_test(baseline, better, baseline="default", variant="rrf", metric="Hit@1")
    assert comparison.significant and comparison.p_value < 0.01
    assert comparison.verdict == "significant at 0.05"
    assert 0 < comparison.diff.low < comparison.diff.mean < comparison.diff.high
    assert comparison.diff.mean == pytest.approx((better - baseline).mean())
    assert (comparison.baseline, comparison.variant, comparison.metric) == ("default", "rrf", "Hit@1")
    assert paired_test(better, baseline).diff.mean < 0 and paired_test(better, baseline).significant


def test_paired_test_does_not_flag_identical_or_noisy_variants() -> None:
    values = np.random.default_rng(1).random(100)
    same = paired_test(values, values.copy())
    assert same.p_value == 1.0 and not same.significant and same.diff.mean == 0.0
    assert same.verdict == "not significant at 0.05"
    shuffled = paired_test(values, np.random.default_rng(2).permutation(values))
    assert not shuffled.significant
    one = paired_test(np.array([0.2]), np.array([0.5]))  # one pair: its difference, no test
    assert one.diff.mean == pytest.approx(0.3) and np.isnan(one.p_value) and not one.significant


def test_slices_and_summary_per_group() -> None:
    groups = [{"style": "lean", "kind": "def"}, {"style": "latex", "kind": "def"}, {"style": "lean"}]
    parts = slices(groups)
    assert list(parts) == [OVERALL, ("kind", "def"), ("style", "lean"), ("style", "latex")]
    assert parts[("style", "lean")].tolist() == [0, 2] and parts[("kind", "def")].tolist() == [0, 1]
    summary = summarise({"m": np.array([1.0, 0.0, 0.5])}, groups)
    assert summary[OVERALL]["m"].mean == 0.5 and summary[("style", "lean")]["m"].mean == 0.75
    assert summary[("style", "latex")]["m"].n == 1
