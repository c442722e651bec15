"""`python -m search learn reranker --index DIR`: train the second stage (`search.engine.rerank`)
on queries made from the corpus, and store it in the index.

For queries made from declarations' own texts (`heldout.corpus_queries`), searched in a copy
of the index without those texts (`heldout.held_out_index`) under the ranking the reranker
will follow (`BASE`, the default without the reranker), the fused top candidates of each
query become rows of features (`search.engine.features`), labelled 1 for the declaration the
text came from. A LightGBM ranker (lambdarank, seeded, deterministic) learns from them and is
written to `DIR/reranker.txt`, which the index manifest then lists.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from search.engine.engine import Engine
from search.engine.features import FEATURES, rows
from search.engine.ranking import Ranking
from search.engine.rerank import MODEL_FILE, LearnedRerank
from search.index.manifest import MANIFEST, sha256
from search.index.store import Index
from search.learn.heldout import corpus_queries, held_out_index

log = logging.getLogger(__name__)

#: LightGBM's settings: small trees, enough of them, every run the same.
PARAMS = {
    "objective": "lambdarank", "metric": "ndcg", "eval_at": [10], "learning_rate": 0.05,
    "num_leaves": 15, "min_data_in_leaf": 20, "feature_fraction": 0.8, "bagging_fraction": 0.8,
    "bagging_freq": 1, "lambdarank_truncation_level": 20, "num_threads": 2, "deterministic": True,
    "force_row_wise": True, "verbose": -1,
}
ROUNDS = 300


@dataclass(frozen=True)
class TrainingSet:
    features: np.ndarray
    labels: np.ndarray
    #: Rows per query, in order (LightGBM's `group`).
    groups: np.ndarray
    #: Queries whose declaration was among the candidates at all.
    found: int
    queries: int


def training_set(engine: Engine, base: Ranking, queries: list, depth: int) -> TrainingSet:
    """Feature rows of the best `depth` fused candidates of every query."""
    features, labels, groups = [], [], []
    found = 0
    for query in queries:
        context, fused = engine.scored(query.text, base, k=depth)
        ranked = sorted(fused.items(), key=lambda item: -item[1])[:depth]
        if not ranked:
            continue
        positions = np.array([p for p, _ in ranked], dtype=np.int64)
        label = (positions == query.position).astype(np.float32)
        found += int(label.any())
        features.append(rows(context, engine.record_arrays, positions, np.array([s for _, s in ranked], dtype=np.float32)))
        labels.append(label)
        groups.append(len(positions))
    return TrainingSet(np.concatenate(features), np.concatenate(labels), np.array(groups), found, len(queries))


def train(index_dir: Path, base: Ranking, count: int = 4000, seed: int = 0, depth: int | None = None) -> dict:
    """Train on `count` corpus queries over the index at `index_dir`, write the model into
    it, list it in the manifest, and return what was done (for the manifest and the log)."""
    import lightgbm

    start = time.perf_counter()
    depth = depth or LearnedRerank.depth
    index = Index.load(index_dir)
    queries = corpus_queries(index, count, seed)
    settings = index.manifest["embedding"]
    held_out = held_out_index(index, [q.position for q in queries], settings["text_chars"], settings["views"])
    log.info("held-out copy of %s made (%d queries) in %.0f s", index_dir, len(queries), time.perf_counter() - start)
    data = training_set(Engine(held_out, base), base, queries, depth)
    log.info("%d queries, %d with their declaration among the top %d candidates", data.queries, data.found, depth)
    keep = np.repeat(np.add.reduceat(data.labels, np.r_[0, np.cumsum(data.groups)[:-1]]) > 0, data.groups)
    groups = data.groups[np.add.reduceat(data.labels, np.r_[0, np.cumsum(data.groups)[:-1]]) > 0]
    dataset = lightgbm.Dataset(data.features[keep], data.labels[keep], group=groups, feature_name=list(FEATURES))
    booster = lightgbm.train({**PARAMS, "seed": seed}, dataset, num_boost_round=ROUNDS)
    booster.save_model(str(index_dir / MODEL_FILE))
    summary = {
        "queries": data.queries, "found_in_candidates": data.found, "depth": depth, "seed": seed,
        "rounds": ROUNDS, "base_ranking": base.to_dict(), "seconds": round(time.perf_counter() - start, 1),
        "origins": _origins(queries),
    }
    _list_in_manifest(index_dir, summary)
    return summary


def _origins(queries: list) -> dict[str, int]:
    counts: dict[str, int] = {}
    for query in queries:
        counts[query.origin] = counts.get(query.origin, 0) + 1
    return counts


def _list_in_manifest(index_dir: Path, summary: dict) -> None:
    """Add the model's checksum and how it was trained to the index manifest."""
    path = index_dir / MANIFEST
    manifest = json.loads(path.read_text())
    model = index_dir / MODEL_FILE
    manifest["files"][MODEL_FILE] = {"bytes": model.stat().st_size, "sha256": sha256(model)}
    manifest["reranker"] = summary
    path.write_text(json.dumps(manifest, indent=2) + "\n")
