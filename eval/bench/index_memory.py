"""Memory of each index a server loads: `python -m eval.bench.index_memory --index a=DIR --index b=DIR2`.

Loads the indexes one after another as `python app.py --index ...` does (search engine, query
encoder, filter catalogue, dependency graph: `app.load_indexes`), then runs `--queries` searches
on each, and prints after each step the process's anonymous memory (`RssAnon`: memory of its
own) and file-backed resident memory (`RssFile`: mapped files, the OS's page cache, shared by
every process and index mapping the same file and evictable) from /proc/self/status, and the
median time of those searches (`--json FILE` also writes them, for `python -m eval check`). Run it with
`INDEX_MMAP=0` and `INDEX_MMAP=1` (the default) to compare reading the vectors and postings into
memory with mapping them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from search import config

QUERIES = ("fundamental theorem of calculus", "continuous function on a compact set is bounded",
           "Nat.succ_le_succ", "tensor product is right exact", "a * b = b * a")


def memory_mb() -> dict[str, float]:
    """RssAnon and RssFile of this process, in MB."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("RssAnon", "RssFile"):
            fields[key] = int(value.split()[0]) / 1024
    return fields


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", action="append", required=True, help="NAME=DIR, as app.py's --index")
    parser.add_argument("--queries", type=int, default=50, help="searches on each index after loading")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(config.REPO_DIR))
    import app

    print(f"INDEX_MMAP={int(config.INDEX_MMAP)}; start: {_line(memory_mb())}", flush=True)
    loaded, added = [], []
    for spec in args.index:
        before = memory_mb()
        started = time.perf_counter()
        indexes = app.load_indexes(app.named_indexes([spec]))
        loaded.append(indexes)
        after = memory_mb()
        added.append({"index": spec, "anon_mb": after["RssAnon"] - before["RssAnon"],
                      "file_mb": after["RssFile"] - before["RssFile"]})
        print(f"loaded {spec} in {time.perf_counter() - started:.1f} s: {_line(after)} "
              f"(+{after['RssAnon'] - before['RssAnon']:.0f} anon, +{after['RssFile'] - before['RssFile']:.0f} file)",
              flush=True)
    seconds = []
    for indexes in loaded:
        service = indexes.get(None)
        for number in range(args.queries):
            started = time.perf_counter()
            service.search(QUERIES[number % len(QUERIES)], 10)
            seconds.append(time.perf_counter() - started)
    final = memory_mb()
    print(f"after {args.queries} searches on each: {_line(final)}; search time median "
          f"{statistics.median(seconds) * 1000:.0f} ms, of the last half {statistics.median(seconds[len(seconds) // 2:]) * 1000:.0f} ms",
          flush=True)
    if args.json:
        args.json.write_text(json.dumps({
            "mmap": config.INDEX_MMAP, "queries": args.queries, "loaded": added,
            "after": {"anon_mb": final["RssAnon"], "file_mb": final["RssFile"]},
            "search_ms": {"median": statistics.median(seconds) * 1000,
                          "last_half_median": statistics.median(seconds[len(seconds) // 2:]) * 1000},
        }, indent=1))
    return 0


def _line(memory: dict[str, float]) -> str:
    return f"RssAnon {memory['RssAnon']:.0f} MB, RssFile {memory['RssFile']:.0f} MB"


if __name__ == "__main__":
    sys.exit(main())
