"""One vector-index design, given as a FAISS factory string, measured on synthetic vectors:
build time, memory, single-query latency and recall@10 against exact search.

A design is `FACTORY[@PARAM=V1/V2/...[;PARAM=...]]`: the factory string as FAISS reads it
(`Flat`, `HNSW32`, `IVF4096,SQ8`, `IVF4096_HNSW32,PQ48np`, `LSH,Refine(SQ8)`, ...; one starting
with `B` is a binary index over the sign bits, e.g. `BFlat`, `BIVF1024`), and the search
settings to sweep, every combination of them, cheapest first. Besides FAISS's own parameters
(`nprobe`, `efSearch`, `k_factor_rf` of a `Refine`, ...), `rerank=R` asks the index for R candidates and
re-scores them exactly from the memory-mapped float vectors on disk (needed by binary indexes,
whose Hamming order is coarse); without it the index's own top 10 are taken.

Each query is searched alone (batch of one), as a user's query is. Latency percentiles are
per pass over the queries, the median over `runs` passes reported; a setting whose first pass
is slower than `max_p95_ms` at p95 is reported from that one pass and ends the sweep (the
settings after it are costlier). Memory: `rss_gb` after building and searching, of which
`rss_file_gb` are pages of the memory-mapped vector file (reclaimable page cache, counted in
RSS while mapped); the peak comes from the kernel (`measure.call_in_child`).
"""

from __future__ import annotations

import itertools
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import psutil

from eval.bench.measure import GB, percentiles
from eval.bench.synthetic import BLOCK, blocks, open_vectors

log = logging.getLogger(__name__)

K = 10
#: Training vectors per IVF list (FAISS warns below 39), and the most used for any training.
TRAIN_PER_LIST = 50
TRAIN_MAX = 500_000
TRAIN_MIN = 20_000


@dataclass
class Design:
    """A FAISS factory string and the search settings to sweep over it."""

    factory: str
    sweep: list[dict[str, float]] = field(default_factory=lambda: [{}])

    @property
    def binary(self) -> bool:
        return self.factory.startswith("B")


def parse_design(spec: str) -> Design:
    """`IVF1024,SQ8@nprobe=1/8/64;rerank=100` -> Design("IVF1024,SQ8", [{nprobe: 1, rerank: 100}, ...])."""
    factory, _, sweep = spec.partition("@")
    if not factory.strip():
        raise ValueError(f"design {spec!r}: no factory string before '@'")
    axes: list[list[tuple[str, float]]] = []
    for part in filter(None, (p.strip() for p in sweep.split(";"))):
        name, equals, values = part.partition("=")
        try:
            axes.append([(name.strip(), float(v)) for v in values.split("/") if v.strip()])
        except ValueError:
            raise ValueError(f"design {spec!r}: {part!r} is not NAME=V1/V2/... with numbers") from None
        if not equals or not name.strip() or not axes[-1]:
            raise ValueError(f"design {spec!r}: {part!r} is not NAME=V1/V2/...")
    return Design(factory.strip(), [dict(combo) for combo in itertools.product(*axes)] or [{}])


def measure_design(spec: str, vectors: str, dim: int, queries: str, truth: str, runs: int,
                   max_p95_ms: float, search_threads: int = 1) -> dict[str, Any]:
    """Build the design over the vector file (with every core), then time and score every
    search setting with `search_threads` OpenMP threads."""
    import faiss

    design = parse_design(spec)
    count = open_vectors(vectors, dim).shape[0]
    started = time.perf_counter()
    index, metric = _empty_index(design, dim)
    if not index.is_trained:
        sample = _training_sample(vectors, dim, count, index, design)
        index.train(_encode(design, sample))
        del sample
    train_s = time.perf_counter() - started
    for _, rows in blocks(vectors, dim, block=_add_block(index, dim, design)):
        index.add(_encode(design, rows))
    build_s = time.perf_counter() - started
    log.info("bench scale: %s over %d vectors built in %.0f s", design.factory, count, build_s)

    faiss.omp_set_num_threads(search_threads)
    data = open_vectors(vectors, dim)
    q = np.load(queries)
    gold = np.load(truth)[:, :K]
    settings = []
    for setting in design.sweep:
        faiss_params = {name: value for name, value in setting.items() if name != "rerank"}
        _apply(index, faiss_params, design)
        depth = int(setting.get("rerank", K))
        scored = recall_and_latency(lambda vector: _search(index, design, data, vector, depth), q, gold, runs,
                                    max_p95_ms)
        settings.append({"params": setting, **scored})
        log.info("bench scale: %s %s: recall@10 %.3f, p95 %.1f ms", design.factory, setting,
                 scored["recall_at_10"], scored["p95"])
        if scored["p95"] > max_p95_ms:
            break
    memory = psutil.Process().memory_info()
    return {"design": spec, "factory": design.factory, "metric": metric, "vectors": count, "dim": dim, "queries": len(q),
            "train_s": train_s, "build_s": build_s, "rss_gb": memory.rss / GB, "rss_file_gb": memory.shared / GB,
            "settings": settings, "search_threads": search_threads}


def recall_and_latency(search: Callable[[np.ndarray], np.ndarray], queries: np.ndarray, gold: np.ndarray,
                       runs: int, max_p95_ms: float = float("inf")) -> dict[str, Any]:
    """Each query searched alone, `runs` passes: recall@10 of the first pass against `gold`
    (the exact top 10 ids of each query) and the latency percentiles (ms), the median over
    passes of each pass's; a first pass slower than `max_p95_ms` at p95 is the only one."""
    passes, recall = [], 0.0
    for run in range(runs):
        seconds, found = [], []
        for vector in queries:
            start = time.perf_counter()
            found.append(search(vector))
            seconds.append(time.perf_counter() - start)
        if run == 0:
            recall = float(np.mean([len(set(np.asarray(f).tolist()) & set(g.tolist())) / K
                                    for f, g in zip(found, gold)]))
        passes.append(percentiles(seconds))
        if run == 0 and passes[0]["p95"] > max_p95_ms:
            break
    return {"runs": len(passes), "recall_at_10": recall,
            **{key: float(np.median([p[key] for p in passes])) for key in passes[0]}}


def _empty_index(design: Design, dim: int) -> tuple[Any, str]:
    """The index and its metric: inner product, or L2 for the indexes FAISS builds only for L2
    (`LSH`): on unit vectors both give the same order."""
    import faiss

    if design.binary:
        return faiss.index_binary_factory(dim, design.factory), "Hamming"
    try:
        return faiss.index_factory(dim, design.factory, faiss.METRIC_INNER_PRODUCT), "inner product"
    except RuntimeError as error:
        if "METRIC_L2" not in str(error):
            raise
        return faiss.index_factory(dim, design.factory, faiss.METRIC_L2), "L2"


def _add_block(index: Any, dim: int, design: Design) -> int:
    """Rows added at a time: a design that first projects vectors to more dimensions than it
    reads (`LSH2048r` rotates 384 to 2048) gets smaller blocks, so that the projected block
    takes no more memory than a plain one (a 2048-wide block of BLOCK rows would hold 4.3 GB
    for a moment, the whole peak of a 10M build)."""
    import faiss

    if design.binary:  # binary indexes take the sign bits, never wider than the vectors
        return BLOCK
    base = faiss.downcast_index(getattr(index, "base_index", index))
    width = base.nbits if isinstance(base, faiss.IndexLSH) else dim
    return max(1, BLOCK * dim // max(width, dim))


def _training_sample(vectors: str, dim: int, count: int, index: Any, design: Design) -> np.ndarray:
    """The first rows of the file (its rows are i.i.d., so the first are a random sample),
    TRAIN_PER_LIST per inverted list, within TRAIN_MIN and TRAIN_MAX."""
    import faiss

    lists = getattr(index, "nlist", 0)
    if not design.binary:
        try:
            lists = faiss.extract_index_ivf(index).nlist
        except RuntimeError:  # not an IVF index
            lists = 0
    size = min(count, max(TRAIN_MIN, min(TRAIN_MAX, TRAIN_PER_LIST * lists)))
    return next(blocks(vectors, dim, block=size))[1]


def _encode(design: Design, rows: np.ndarray) -> np.ndarray:
    """What the index stores: the rows themselves, or their sign bits packed for a binary index."""
    if design.binary:
        return np.packbits(rows > 0, axis=1)
    return np.ascontiguousarray(rows, dtype=np.float32)


def _apply(index: Any, params: dict[str, float], design: Design) -> None:
    import faiss

    if not params:
        return
    if design.binary:  # ParameterSpace knows float indexes only; a binary IVF has `nprobe`
        for name, value in params.items():
            if not hasattr(index, name):
                raise ValueError(f"{design.factory} has no search parameter {name!r}")
            setattr(index, name, int(value))
        return
    faiss.ParameterSpace().set_index_parameters(
        index, ",".join(f"{name}={int(v) if float(v).is_integer() else v}" for name, v in params.items())
    )


def _search(index: Any, design: Design, data: np.memmap, vector: np.ndarray, depth: int) -> np.ndarray:
    """The ids of the top K for one query, re-scored exactly from `data` when depth > K."""
    _, ids = index.search(_encode(design, vector[None, :]), depth)
    ids = ids[0][ids[0] >= 0]
    if depth <= K:
        return ids[:K]
    ids = np.sort(ids)
    sims = data[ids] @ vector
    return ids[np.argsort(-sims, kind="stable")[:K]]
