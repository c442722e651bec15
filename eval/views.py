"""`python -m eval views`: dense text views compared without building an index, on a pool.

A dense view is what a record is embedded from (search/text/views.py). Choosing one means
re-embedding every record, which a full build makes expensive to try; this command measures the
dense signal alone on a pool instead: MathlibQR's dev golds plus N Lean records drawn at random
(seeded) from an index, each embedded under every view of `VIEWS`, a record scored by the best
of the views a variant takes (as the index does over its views), each query ranked over the
pool. Every variant is paired against the first (the index's own text view) by query.
`--model NAME` adds a variant: the text view embedded by another model (the index's backend),
which measures a model without building an index with it.

A new view is one entry of `VIEWS`; a new combination, one of `VARIANTS`.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from search import config
from search.record import Statement
from search.text.views import name_view, sentence_view, text_view

from eval.metrics import DEPTH, per_query
from eval.stats import bootstrap, paired_test


@dataclass(frozen=True)
class View:
    """A record's text under a view (""when it has none), the tokens its embedding reads and
    the model that embeds it (None: the index's)."""

    text: Callable[[Statement], str]
    max_length: int
    model: str | None = None


VIEWS: dict[str, View] = {
    "text": View(lambda s: text_view(s, 120), 48),
    "text, 200 characters": View(lambda s: text_view(s, 200), 64),
    "name": View(name_view, 48),
    "sentence": View(sentence_view, 64),
    "sentence for undocumented": View(lambda s: text_view(s, 120) if s.doc or not s.informal_statement
                                      else sentence_view(s, 120), 48),
}
#: Label -> the views whose best similarity scores a record; the first is the baseline.
VARIANTS: dict[str, tuple[str, ...]] = {
    "text (the default index)": ("text",),
    "text at 200 characters": ("text, 200 characters",),
    "sentence for undocumented records": ("sentence for undocumented",),
    "sentence alone": ("sentence",),
    "text and name, best of": ("text", "name"),
    "text and sentence, best of": ("text", "sentence"),
}


def run_views(index_dir: Path, queries_path: Path, pool_size: int, seed: int, models: Sequence[str] = ()) -> dict:
    from search.index.embed import Embedder
    from search.index.store import Index

    from eval.querysets import load_queries

    index = Index.load(index_dir)
    queries = load_queries(queries_path)
    golds = {g for q in queries for g in q.relevant}
    records = [s for s in index.records if s.formal]
    by_name = {s.name: s for s in records}
    others = [s for s in records if s.name not in golds and s.kind not in ("field", "constructor")]
    pool = [by_name[g] for g in sorted(golds) if g in by_name] + random.Random(seed).sample(
        others, min(pool_size, len(others)))
    names = [s.name for s in pool]
    views = {**VIEWS, **{f"text by {m}": View(VIEWS["text"].text, VIEWS["text"].max_length, m) for m in models}}
    variants = {**VARIANTS, **{f"text, embedded by {m}": (f"text by {m}",) for m in models}}
    similarity: dict[str, np.ndarray] = {}
    seconds: dict[str, float] = {}
    for view_name in {v for chosen in variants.values() for v in chosen}:
        view = views[view_name]
        embedder = Embedder(view.model or index.manifest.get("model", config.DEFAULT_MODEL),
                            index.manifest.get("embedding", {}).get("backend", "onnx-int8"), view.max_length)
        texts = [view.text(s) for s in pool]
        start = time.perf_counter()
        vectors = embedder.encode([t or " " for t in texts])
        seconds[view_name] = time.perf_counter() - start
        sims = vectors @ embedder.encode([q.query for q in queries]).T
        sims[[k for k, t in enumerate(texts) if not t]] = -1.0
        similarity[view_name] = sims
    runs = {}
    for label, chosen in variants.items():
        best = np.max(np.stack([similarity[v] for v in chosen]), axis=0)
        rel = np.zeros((len(queries), DEPTH))
        for i, q in enumerate(queries):
            top = np.argsort(-best[:, i], kind="stable")[:DEPTH]
            rel[i, :len(top)] = [names[p] in q.relevant for p in top]
        runs[label] = per_query(rel, [len(q.relevant) for q in queries])
    baseline = next(iter(VARIANTS))
    rows = []
    for label, scores in runs.items():
        ndcg, recall = bootstrap(np.column_stack([scores["nDCG@10"], scores["R@10"]]))
        row = {"variant": label, "views": list(variants[label]), "nDCG@10": vars(ndcg), "R@10": vars(recall),
               "embedding_seconds": round(sum(seconds[v] for v in variants[label]), 1)}
        if label != baseline:
            test = paired_test(runs[baseline]["nDCG@10"], scores["nDCG@10"], baseline=baseline, variant=label)
            row["versus"] = {"diff": vars(test.diff), "p_value": test.p_value}
        rows.append(row)
    return {"index": str(index_dir), "queries": len(queries), "pool": len(pool), "seed": seed, "variants": rows}


def _views(args: argparse.Namespace) -> int:
    report = {"command": args.command_line,
              **run_views(Path(args.index), Path(args.queries), args.pool, args.seed, args.model)}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "views.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    for row in report["variants"]:
        versus = row.get("versus")
        change = f"  {versus['diff']['mean']:+.3f} p={versus['p_value']:.3f}" if versus else ""
        print(f"{row['variant']:36} nDCG@10 {row['nDCG@10']['mean']:.3f}  R@10 {row['R@10']['mean']:.3f}"
              f"  {row['embedding_seconds']:.0f} s{change}")
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    views = commands.add_parser("views", help="dense text views compared on a pool, without building an index",
                                description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    views.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR))
    views.add_argument("--queries", default=str(config.QUERIES_DIR / "mathlibqr_dev.json"))
    views.add_argument("--pool", type=int, default=10_000, help="random Lean records beside the golds")
    views.add_argument("--seed", type=int, default=0)
    views.add_argument("--model", action="append", default=[], metavar="NAME",
                       help="another embedding model (a packaged name or a path): adds the text view embedded by it")
    views.add_argument("--out", required=True, help="directory of views.json")
    views.set_defaults(run=_views)
