"""Query latency of `Engine.search` over the MathlibQR and LeanExplore queries, end to end and
per stage (the engine's own stage timings: parse, filters, name, lexical, embed, dense, fusion,
grouping, and any stage it adds; `other` is the rest of the call), warm and first query.

- warm: one process loads the index and the query encoder, answers a few queries to warm up,
  then answers every query `runs` times over; p50/p95/p99 are taken per pass and the median
  over passes is reported. A stage a query does not go through (a quoted name search has no
  dense stage) counts as 0 s for that query. The process's RSS after the passes is its
  serving memory.
- first query: a fresh process per run, timed from its start: imports, `Index.load`, the
  engine's own tables, the first query (which loads the query encoder) and the second.
Both run in child processes so that their memory is theirs alone.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import psutil

from eval.bench.measure import GB, call_in_child, median_of_runs, percentiles, rss_now

log = logging.getLogger(__name__)

STAGES = ("parse", "filters", "name", "lexical", "embed", "dense", "fusion", "grouping")
WARMUP = 5
K = 10


def query_texts(mathlibqr: str | None, leanexplore: str | None, limit: int | None = None) -> list[str]:
    """Every MathlibQR query (all styles) and every LeanExplore query, or `limit` of them
    spread evenly over the list (so both sets stay represented)."""
    from eval.querysets import load_queries

    texts: list[str] = []
    if mathlibqr:
        texts += [q.query for q in load_queries(mathlibqr)]
    if leanexplore:
        texts += [line.strip() for line in Path(leanexplore).read_text(encoding="utf-8").splitlines() if line.strip()]
    if limit is not None and limit < len(texts):
        texts = [texts[int(i)] for i in np.linspace(0, len(texts) - 1, limit)]
    return texts


def warm(index: str, queries: Mapping[str, Any], runs: int, variant: str = "default") -> dict[str, Any]:
    """Warm latency percentiles (median over `runs` passes over every query) and serving RSS."""
    from search.engine.engine import Engine
    from search.index.store import Index

    texts = query_texts(**queries)
    started = time.perf_counter()
    engine = Engine(Index.load(index))
    engine.index.embedder
    load_s = time.perf_counter() - started
    for text in texts[:WARMUP]:
        engine.search(text, k=K, variant=variant)
    passes = []
    for run in range(runs):
        passes.append(summarise_pass([timed_search(engine, text, variant) for text in texts]))
        log.info("bench latency: pass %d of %d, p95 %.1f ms", run + 1, runs, passes[-1]["end_to_end"]["p95"])
    return {
        "records": len(engine.index.records), "queries": len(texts), "runs": runs, "variant": variant,
        "load_s": load_s, "rss_gb": rss_now() / GB, **median_of_runs(passes),
    }


def timed_search(engine: Any, text: str, variant: str = "default") -> dict[str, float]:
    """One `engine.search` of `text`: seconds per stage (the engine's own timings), `other` the
    rest of the call, and `total`."""
    timings: dict[str, float] = {}
    start = time.perf_counter()
    engine.search(text, k=K, variant=variant, timings=timings)
    total = time.perf_counter() - start
    return timings | {"other": max(total - sum(timings.values()), 0.0), "total": total}


def summarise_pass(queries: Sequence[Mapping[str, float]]) -> dict[str, Any]:
    """Percentiles of one pass over the queries (`timed_search` of each): end to end and per
    stage, a stage a query skipped counting as 0 s for it."""
    seen = {n for q in queries for n in q} - {*STAGES, "other", "total"}
    names = [*STAGES, *sorted(seen), "other"]
    return {"end_to_end": percentiles(q["total"] for q in queries),
            "stages": {n: percentiles(q.get(n, 0.0) for q in queries) for n in names}}


def first_query(index: str, query: str) -> dict[str, Any]:
    """Seconds from this process's start to: imports done, index loaded, engine ready, first
    answer (query encoder loaded on the way), second answer; and the first query's stages. The
    engine's tables are made while the files are checked against the manifest, as the servers
    make them (`Index.loading`), so "engine ready" includes the end of that check."""
    since = psutil.Process().create_time()
    marks = {"interpreter_s": time.time() - since}
    from search.engine.engine import Engine
    from search.index.store import Index

    marks["imports_s"] = time.time() - since
    with Index.loading(index) as loaded:
        marks["index_loaded_s"] = time.time() - since
        engine = Engine(loaded)
    marks["engine_ready_s"] = time.time() - since
    timings: dict[str, float] = {}
    start = time.perf_counter()
    engine.search(query, k=K, timings=timings)
    first = time.perf_counter() - start
    marks["first_answer_s"] = time.time() - since
    start = time.perf_counter()
    engine.search(query, k=K)
    return {**marks, "first_query_s": first, "second_query_s": time.perf_counter() - start,
            "first_query_stages_s": timings, "rss_gb": rss_now() / GB}


def warm_in_child(index: Path, queries: Mapping[str, Any], runs: int) -> dict[str, Any]:
    """`warm` in a fresh process, with that process's peak RSS."""
    result, run = call_in_child("eval.bench.latency:warm", {"index": str(index), "queries": dict(queries), "runs": runs})
    if result is None:
        raise RuntimeError(f"latency over {index} failed, {run.failure()}")
    return {**result, "peak_rss_gb": run.peak_rss / GB}


def measure(index: Path, queries: Mapping[str, Any], runs: int, first_runs: int) -> dict[str, Any]:
    """Warm latency over every query, and the first query of `first_runs` fresh processes."""
    texts = query_texts(**queries)
    if not texts:
        raise ValueError("no queries to time")
    firsts = []
    for run in range(first_runs):
        log.info("bench latency: first query, process %d of %d", run + 1, first_runs)
        result, child = call_in_child("eval.bench.latency:first_query", {"index": str(index), "query": texts[0]})
        if result is None:
            raise RuntimeError(f"first query over {index} failed, {child.failure()}")
        firsts.append(result)
    return {
        "index": str(index), "warm": warm_in_child(index, queries, runs),
        "first_query": {"runs": first_runs, "query": texts[0], **median_of_runs(firsts)},
    }

