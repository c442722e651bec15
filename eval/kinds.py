"""`python -m eval kinds`: is `default` at least as good as its best single signal on every kind
of query and every source?

An average over one query set hides a kind of query on which the fusion loses to one of the
signals it fuses (a lexical query that the dense signal pulls down, say). Each query set below
(one entry in `KINDS`) is searched with the single-signal variants (`dense`, `bm25`) and with
`default`; the set as a whole and each value of its group key (MathlibQR's style) is one row:
nDCG@10 and R@10 of each, the best single signal on nDCG@10, and `default` minus that signal,
paired (bootstrap interval and permutation test over the row's queries).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from eval.corpus_queries import CORPUS_QUERIES
from eval.metrics import PRIMARY
from eval.querysets import LabelledQuery, load_queries
from eval.retrieval import run_retrieval
from eval.stats import ALPHA, OVERALL, Estimate, paired_test, slices
from search import config

if TYPE_CHECKING:
    from search.index.store import Index

#: The signals alone (registered variants of search/engine/variants.py), then the fusion.
SINGLE = ("dense", "bm25")
FUSED = "default"
#: Metrics of each row (the primary one decides the best single signal).
METRICS = (PRIMARY, "R@10")


@dataclass(frozen=True)
class KindSet:
    """A query set, where its golds live, and the group key that splits it into kinds."""

    name: str
    target: str
    queries: Callable[["Index"], list[LabelledQuery]]
    group: str | None = None


def _file(path: Path) -> Callable[["Index"], list[LabelledQuery]]:
    return lambda index: load_queries(path)


#: Every query set judged per kind; a new one is one entry.
KINDS = (
    KindSet("mathlibqr-dev", "Mathlib", _file(config.QUERIES_DIR / "mathlibqr_dev.json"), "style"),
    KindSet("named-theorems", "Mathlib", CORPUS_QUERIES["named-theorems"]),
    KindSet("stacks-to-mathlib", "Mathlib", CORPUS_QUERIES["stacks-to-mathlib"]),
    KindSet("mathlib-to-stacks", "Stacks", CORPUS_QUERIES["mathlib-to-stacks"]),
    KindSet("docstrings-to-stacks", "Stacks", CORPUS_QUERIES["docstrings-to-stacks"]),
)


def _estimate(e: Estimate) -> dict[str, float]:
    return {"mean": e.mean, "low": e.low, "high": e.high}


def _verdict(diff: Estimate, p: float) -> str:
    if diff.mean < 0 and p < ALPHA:
        return "worse"
    if diff.mean < 0:
        return "lower, not significant"
    return "at least as good"


def kind_rows(index: "Index", sets: tuple[KindSet, ...] | None = None) -> list[dict[str, Any]]:
    """One row per query set (`KINDS` by default) and per value of its group key."""
    from search.engine.engine import Engine

    engine = Engine(index)
    rows = []
    for kind_set in sets or KINDS:
        queries = kind_set.queries(index)
        run = run_retrieval(engine, queries, (*SINGLE, FUSED))
        # run_retrieval has already summarised every slice of every group key (eval/stats.py `slices`).
        for (key, value), positions in slices([q.group for q in queries]).items():
            if (key, value) != OVERALL and key != kind_set.group:
                continue
            means = {name: run.variants[name].summary[(key, value)] for name in (*SINGLE, FUSED)}
            best = max(SINGLE, key=lambda name: means[name][PRIMARY].mean)
            test = paired_test(run.variants[best].scores[PRIMARY][positions], run.variants[FUSED].scores[PRIMARY][positions],
                               baseline=best, variant=FUSED)
            rows.append({
                "key": kind_set.name if (key, value) == OVERALL else f"{kind_set.name}-{value}",
                "set": kind_set.name, "kind": value, "target": kind_set.target, "n": len(positions),
                "metrics": {name: {m: _estimate(by_metric[m]) for m in METRICS} for name, by_metric in means.items()},
                "best single": best,
                "default - best": {**_estimate(test.diff), "p": test.p_value},
                "verdict": _verdict(test.diff, test.p_value),
            })
    return rows


def _kinds(args: argparse.Namespace) -> int:
    from search.index.store import open_index

    rows = kind_rows(open_index(args.index))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report = {"command": args.command_line, "index": args.index, "rows": {row["key"]: row for row in rows}}
    (out / "kinds.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    for row in rows:
        diff = row["default - best"]
        print(f"{row['key']:<32} n={row['n']:<5} " + " ".join(
            f"{name} {row['metrics'][name][PRIMARY]['mean']:.3f}" for name in (*SINGLE, FUSED))
            + f"  default − {row['best single']} {diff['mean']:+.3f} [{diff['low']:+.3f}, {diff['high']:+.3f}]"
              f" p {diff['p']:.3f}: {row['verdict']}")
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    kinds = commands.add_parser("kinds", help="default against its best single signal, per kind of query and source")
    kinds.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR))
    kinds.add_argument("--out", required=True, help="directory of kinds.json")
    kinds.set_defaults(run=_kinds)
