"""Uncertainty of metric means: bootstrap intervals, paired tests, breakdowns by query group.

A few hundred queries give means that move by several points between query samples, so every
figure a report prints carries a 95% interval, and variants are compared on the same queries
(paired), which removes the per-query difficulty that dominates the variance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
from scipy import stats

from eval.metrics import PRIMARY

RESAMPLES = 1000
SEED = 0
ALPHA = 0.05
#: The slice of all queries, listed first in every breakdown.
OVERALL = ("all", "all")


@dataclass(frozen=True)
class Estimate:
    """A mean over `n` queries with its bootstrap 95% interval (NaN bounds when n < 2)."""

    mean: float
    low: float
    high: float
    n: int


@dataclass(frozen=True)
class Comparison:
    """Paired difference `variant - baseline` of one metric on the same queries."""

    baseline: str
    variant: str
    metric: str
    diff: Estimate
    p_value: float

    @property
    def significant(self) -> bool:
        return self.p_value < ALPHA

    @property
    def verdict(self) -> str:
        return f"{'significant' if self.significant else 'not significant'} at {ALPHA:g}"


def bootstrap(values: np.ndarray, seed: int = SEED, resamples: int = RESAMPLES) -> list[Estimate]:
    """Mean and percentile-bootstrap 95% interval of each column of `values` (queries x metrics),
    resampling whole queries so that the metrics of one resample come from the same queries."""
    values = np.asarray(values, dtype=np.float64).reshape(len(values), -1)
    n = len(values)
    means = values.mean(axis=0) if n else np.full(values.shape[1], np.nan)
    if n < 2:
        return [Estimate(float(m), float("nan"), float("nan"), n) for m in means]
    interval = stats.bootstrap(
        (values,), np.mean, axis=0, n_resamples=resamples, method="percentile",
        vectorized=True, rng=np.random.default_rng(seed),
    ).confidence_interval
    return [
        Estimate(float(m), float(lo), float(hi), n)
        for m, lo, hi in zip(means, np.atleast_1d(interval.low), np.atleast_1d(interval.high))
    ]


def paired_test(
    baseline_scores: np.ndarray, variant_scores: np.ndarray, *, baseline: str = "baseline",
    variant: str = "variant", metric: str = PRIMARY, seed: int = SEED, resamples: int = RESAMPLES,
) -> Comparison:
    """Two-sided paired permutation test (random swaps within each query's pair) of the mean
    difference `variant - baseline`, with the bootstrap interval of that difference (p and the
    interval NaN for fewer than two pairs)."""
    a = np.asarray(baseline_scores, dtype=np.float64)
    b = np.asarray(variant_scores, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError("a paired test needs two equally long vectors of per-query values")
    (diff,) = bootstrap(b - a, seed, resamples)
    if len(a) < 2:  # no test on fewer than two pairs (a breakdown's slice may hold one query)
        return Comparison(baseline, variant, metric, diff, float("nan"))
    test = stats.permutation_test(
        (b, a), lambda x, y, axis: np.mean(x - y, axis=axis),
        permutation_type="samples", vectorized=True, n_resamples=resamples,
        alternative="two-sided", rng=np.random.default_rng(seed),
    )
    return Comparison(baseline, variant, metric, diff, float(test.pvalue))


def slices(groups: Sequence[Mapping[str, str]]) -> dict[tuple[str, str], np.ndarray]:
    """Query positions of every breakdown: all queries, then each value of each group key
    (keys sorted, values in order of first appearance, e.g. MathlibQR's style order)."""
    out = {OVERALL: np.arange(len(groups))}
    for key in sorted({k for g in groups for k in g}):
        for value in dict.fromkeys(g[key] for g in groups if key in g):
            out[(key, value)] = np.array([i for i, g in enumerate(groups) if g.get(key) == value])
    return out


def summarise(
    scores: Mapping[str, np.ndarray], groups: Sequence[Mapping[str, str]], seed: int = SEED
) -> dict[tuple[str, str], dict[str, Estimate]]:
    """Slice -> metric -> mean with interval, for one variant's per-query `scores`."""
    names = list(scores)
    matrix = np.column_stack([scores[m] for m in names])
    return {
        where: dict(zip(names, bootstrap(matrix[rows], seed)))
        for where, rows in slices(groups).items()
    }
