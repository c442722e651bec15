"""Index build at growing corpus sizes: wall time, peak RSS, size on disk, seconds per stage.

Each run is `python -m search build` in a child process, exactly as a user runs it (imports,
model loading and the final rename included in the wall time); its peak RSS comes from the
kernel, its stage seconds from the manifest it writes. A size below the full corpus is the
first N declarations of Mathlib's JSON lines (written to a scratch file and built as
`mathlib=PATH`); the loader derives more records than lines (fields, constructors, additive
twins), so each row gives the records and vectors actually indexed. `full` is the default
corpus (every shared source). After the runs of a size, the warm query latency over its last
index is measured too (`latency.warm`), for latency against corpus size.
"""

from __future__ import annotations

import gzip
import json
import logging
import shutil
import sys
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from search import config

from eval.bench import latency
from eval.bench.measure import GB, directory_size, median_of_runs, run_child

log = logging.getLogger(__name__)

#: The stages the build benchmark reports, each from the build's own stage timings (search/index/build.py).
STAGES = {
    "parse": "records",  # read and parse every source, derive records, write records.arrow
    "BM25": "lexical",  # lexical text views, tokenizing and both BM25+ indexes
    "PageRank": "structure",  # dependency graph, PageRank and dependents counts
    "text views": "dense.views",  # the dense text views
    "embed": "dense.embed",  # model loading and embedding every view
    "FAISS": "dense.faiss",  # building the FAISS index (writing it is in `dense` only)
}
MATHLIB = config.LEAN_CORPUS_DIR / "mathlib.jsonl.gz"


def subset_source(lines: int, scratch: Path, corpus: Path = MATHLIB) -> str:
    """`mathlib=PATH` for the first `lines` declarations of a Lean JSON-lines corpus."""
    opener = gzip.open if corpus.name.endswith(".gz") else open
    target = scratch / f"mathlib_first_{lines}.jsonl"
    with opener(corpus, "rt", encoding="utf-8") as source, target.open("w", encoding="utf-8") as out:
        for number, line in enumerate(source):
            if number >= lines:
                break
            out.write(line)
    return f"mathlib={target}"


def build_once(out: Path, sources: Sequence[str] | None, profile: str) -> dict[str, Any]:
    """One `python -m search build` run: wall seconds, peak RSS, disk bytes, stage seconds."""
    argv = [sys.executable, "-m", "search", "build", "--out", str(out), "--quiet", "--profile", profile]
    if sources:
        argv += ["--sources", *sources]
    run = run_child(argv, cwd=config.REPO_DIR)
    if not run.ok:
        raise RuntimeError(f"build of {out} failed, {run.failure()}")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    timings = manifest.get("timings_seconds", {})
    rows = out / "dense" / "rows.npy"
    return {
        "wall_s": run.seconds,
        "peak_rss_gb": run.peak_rss / GB,
        "disk_mb": directory_size(out) / 1024**2,
        "stages_s": {name: float(timings.get(key, 0.0)) for name, key in STAGES.items()},
        "records": int(manifest["total"]),
        "vectors": int(len(np.load(rows))),
    }


def measure(sizes: Sequence[str], runs: int, scratch: Path, queries: Sequence[str], query_runs: int,
            profile: str = "quality", corpus: Path = MATHLIB) -> list[dict[str, Any]]:
    """One row per size (`N` declarations of `corpus`, or `full`): medians over `runs` builds,
    and the warm query latency over the last index built."""
    rows = []
    for size in sizes:
        sources = None if size == "full" else [subset_source(int(size), scratch, corpus)]
        out = scratch / f"index_{size}"
        results = []
        for run in range(runs):
            log.info("bench build: size %s, run %d of %d", size, run + 1, runs)
            results.append(build_once(out, sources, profile))
        row: dict[str, Any] = {
            "size": size, "runs": runs, "profile": profile,
            "source": "default corpus (every shared source)" if size == "full"
            else f"first {int(size):,} declarations of {corpus.name}",
            **median_of_runs(results),
        }
        row["records"], row["vectors"] = results[-1]["records"], results[-1]["vectors"]
        row["latency"] = latency.warm_in_child(out, queries, query_runs)
        shutil.rmtree(out, ignore_errors=True)
        rows.append(row)
    return rows
