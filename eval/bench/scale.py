"""Scale: 1M and 10M synthetic statements, for the two halves of retrieval that grow with the
corpus.

- Vectors: random unit vectors of the model's dimension (384 for all-MiniLM-L6-v2) written to
  a scratch file; for each vector-index design (`ann`, a FAISS factory string and a sweep of
  search settings) a child process builds it and measures build time, memory, single-query
  p95 latency and recall@10 against exact search (ground truth for `queries` random queries,
  computed blockwise over the file). The file is deleted after its size is done.
- Text: synthetic documents drawn from the vocabulary of a real index's records (its lexical
  text view and tokenizer, with their frequencies and document lengths), indexed with the
  project's BM25+ (`LexicalIndex`) in a child process; build time, memory and the p95 of
  scoring the real MathlibQR/LeanExplore queries (score every document, then the top 200, as
  the engine does). Sizes grow until one does not fit the memory budget; the rest are skipped.

Every child runs under a memory budget (default 12 GB): one that passes it is stopped and
reported as not fitting, with the size it reached.
"""

from __future__ import annotations

import logging
import math
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from eval.bench.latency import query_texts
from eval.bench.measure import GB, call_in_child, percentiles, rss_now
from eval.bench.report import merge_rows
from eval.bench.synthetic import Vocabulary, documents, exact_top_k, random_unit, write_vectors

log = logging.getLogger(__name__)

#: The default model's dimension (all-MiniLM-L6-v2).
DIM = 384
#: Candidates each lexical signal keeps for fusion (the engine's CANDIDATES).
DEPTH = 200
SEED = 6


def default_designs(count: int) -> list[str]:
    """The designs compared at a size: exact search where it fits in RAM, inverted lists with
    scalar and product codes, and sign bits (Hamming) re-scored exactly, each with its knob swept.

    IVF lists grow as ~4 sqrt(N) up to 4096 (more train too slowly on 2 cores), with an HNSW
    coarse quantizer from 1M on (assigning 10M vectors to 4096 centroids exactly takes ~10
    min). PQ is `np` (no polysemous training: it is for a filter not used here, and makes
    training 30 times slower). Sign bits come three times: `BFlat` re-scored from the
    memory-mapped float vectors, `LSH,Refine(SQ8)` re-scored from 8-bit codes held in RAM
    (k_factor_rf x 10 candidates), and `LSH2048r,Refine(SQ8)`, 2,048 sign bits of a random
    rotation, which estimate the angle closely enough to meet the 10M target. HNSW itself only
    up to 200k: its build took 95 s at 100k on this machine under load (so ~20 min at 1M), for
    recall@10 0.13 at efSearch 64 on these vectors."""
    lists = min(4096, 2 ** round(math.log2(4 * math.sqrt(count))))
    probes = "/".join(str(p) for p in (1, 4, 16, 64, 256, 1024) if p <= lists)
    coarse = f"IVF{lists}_HNSW32" if count >= 1_000_000 else f"IVF{lists}"
    designs = [
        f"{coarse},SQ8@nprobe={probes}",
        f"{coarse},PQ48np@nprobe={probes};rerank=100/1000",
        "BFlat@rerank=100/1000/10000/30000",
        "LSH,Refine(SQ8)@k_factor_rf=100/1000/3000/10000/30000",
        "LSH2048r,Refine(SQ8)@k_factor_rf=300/1000/3000",
    ]
    if count <= 200_000:
        designs.insert(0, "HNSW32@efSearch=16/64/256")
    if count * DIM * 4 <= 4 * GB:  # a flat float32 index in RAM; 10M would need 15.4 GB
        designs.insert(0, "Flat")
    return designs


def bm25_at(count: int, vocabulary: str, queries: Mapping[str, Any], runs: int, seed: int = SEED) -> dict[str, Any]:
    """Build the project's BM25+ over `count` synthetic documents and time the real queries."""
    from search.index.lexical import LexicalIndex
    from search.text.tokenize import tokenize

    started = time.perf_counter()
    docs = documents(Vocabulary.load(vocabulary), count, seed)
    generate_s = time.perf_counter() - started
    tokens = sum(len(d) for d in docs)
    started = time.perf_counter()
    index = LexicalIndex.build(docs)
    build_s = time.perf_counter() - started
    del docs
    texts = [tokenize(t) for t in query_texts(**queries)]
    passes = []
    for _ in range(runs):
        seconds = []
        for words in texts:
            start = time.perf_counter()
            scores = index.scores(words)
            np.argpartition(-scores, min(DEPTH, len(scores) - 1))[:DEPTH]
            seconds.append(time.perf_counter() - start)
        passes.append(percentiles(seconds))
    latency = {key: float(np.median([p[key] for p in passes])) for key in passes[0]}
    return {"documents": count, "tokens": tokens, "generate_s": generate_s, "build_s": build_s,
            "queries": len(texts), "runs": runs, "rss_gb": rss_now() / GB, **latency}


def measure(sizes: Sequence[int], scratch: Path, runs: int, queries: Mapping[str, Any],
            bm25_sizes: Sequence[int], records: Path, designs: Callable[[int], list[str]] = default_designs,
            n_queries: int = 100, memory_budget: int = 12 * GB, max_p95_ms: float = 2000.0,
            dim: int = DIM) -> dict[str, Any]:
    """Vector designs at each of `sizes`, then BM25 at each of `bm25_sizes` (until one fails)."""
    out: dict[str, Any] = {"dim": dim, "memory_budget_gb": memory_budget / GB, "vectors": [], "bm25": []}
    for count in sizes:
        out["vectors"].extend(_vectors_at(count, scratch, runs, designs(count), n_queries, memory_budget,
                                          max_p95_ms, dim))
    if not bm25_sizes:
        return out
    vocabulary = scratch / "vocabulary.npz"
    stats, run = call_in_child("eval.bench.synthetic:save_vocabulary",
                               {"records": str(records), "out": str(vocabulary)}, memory_budget)
    if stats is None:
        raise RuntimeError(f"the vocabulary of {records} could not be read, {run.failure()}")
    out["vocabulary"] = {"records": str(records), **stats}
    for count in bm25_sizes:
        log.info("bench scale: BM25 over %d synthetic documents", count)
        result, run = call_in_child("eval.bench.scale:bm25_at", {
            "count": count, "vocabulary": str(vocabulary), "queries": dict(queries), "runs": runs,
        }, memory_budget)
        row = {"documents": count, "peak_rss_gb": run.peak_rss / GB, "wall_s": run.seconds}
        out["bm25"].append({**row, **result} if result else {**row, "failed": run.failure()})
        if result is None:
            break
    vocabulary.unlink(missing_ok=True)
    return out


def _vectors_at(count: int, scratch: Path, runs: int, designs: Sequence[str], n_queries: int,
                memory_budget: int, max_p95_ms: float, dim: int) -> list[dict[str, Any]]:
    vectors, queries, truth = (scratch / f"vectors_{count}.f32", scratch / f"queries_{count}.npy",
                               scratch / f"truth_{count}.npy")
    rows = []
    try:
        log.info("bench scale: writing %d random unit vectors", count)
        started = time.perf_counter()
        write_vectors(str(vectors), count, dim, SEED)
        np.save(queries, random_unit(n_queries, dim, np.random.default_rng(SEED + 1)))
        written_s = time.perf_counter() - started
        started = time.perf_counter()
        exact_top_k(str(vectors), str(queries), 10, dim, str(truth))
        truth_s = time.perf_counter() - started
        for design in designs:
            log.info("bench scale: %s over %d vectors", design, count)
            result, run = call_in_child("eval.bench.ann:measure_design", {
                "spec": design, "vectors": str(vectors), "dim": dim, "queries": str(queries), "truth": str(truth),
                "runs": runs, "max_p95_ms": max_p95_ms,
            }, memory_budget)
            row = {"design": design, "vectors": count, "peak_rss_gb": run.peak_rss / GB, "wall_s": run.seconds,
                   "write_s": written_s, "ground_truth_s": truth_s}
            rows.append({**row, **result} if result else {**row, "failed": run.failure()})
    finally:
        for path in (vectors, queries, truth):
            path.unlink(missing_ok=True)
    return rows


def merge(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """A scale section from an earlier one and a run that re-measured some of its rows: a new
    row replaces the old one of the same size and design (or document count), the others are
    kept. Every row says when and by which command it was measured (`measured`)."""
    merged = {**old, **new,
              "vectors": merge_rows(old, new, "vectors", lambda r: (r["vectors"], r["design"]), lambda r: r["vectors"]),
              "bm25": merge_rows(old, new, "bm25", lambda r: r["documents"], lambda r: r["documents"])}
    if not new["bm25"] and "vocabulary" in old:
        merged["vocabulary"] = old["vocabulary"]
    return merged
