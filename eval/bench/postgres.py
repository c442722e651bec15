"""The PostgreSQL backend measured (`python -m eval bench postgres`): the full index served from
PostgreSQL beside its index directory in one run, and synthetic vectors in pgvector.

Full index (`measure_index`), each step on the same server:
- load: `load_postgres` of the index directory (search/index/postgres/load.py) in a child
  process: its stage times, its wall time and peak RSS, the server's processes' PSS at their
  peak during the load and after it, and the size of the schema written.
- latency: one child process opens the index twice, from its directory and from PostgreSQL,
  and answers every query with each in turn, alternating which goes first from query to query
  (A/B in one run: a change in the machine's load hits both alike); percentiles per pass, end
  to end and per stage (`latency.timed_search`), the median over passes.
- throughput: `throughput.measure` with the same server kind serving each index, started afresh
  in turn in each round; the PostgreSQL server's processes' memory is sampled beside the
  PostgreSQL-backed server's.

Synthetic vectors (`measure_synthetic`): random unit vectors of the model's dimension
(synthetic.py) copied into a table `vectors` of a scratch schema by the loader's own COPY
(`copy_vectors`), then the two HNSW indexes the backend builds (`vector_index`: inner product
over the vectors, and Hamming over their binary quantisation), each timed with the server's
processes sampled meanwhile, with the maintenance settings stated in the result. Per index and
`hnsw.ef_search`: recall@10 of the backend's own query (`VectorSignal.rank`, the binary one
re-ranked by the full vectors) against exact search (numpy, blockwise, over the same vectors),
and single-query latency (`ann.recall_and_latency`). The scratch schema is dropped after.

The server's memory is the PSS summed over the postmaster and all its children (shared
buffers split between the processes that touched them), found from the server's data
directory (`SHOW data_directory`, its `postmaster.pid`): measured only for a server on this
machine whose data directory this process can read.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import psutil
import psycopg

from search.index.postgres.connection import Connections, connect, one_line
from search.index.postgres.load import copy_vectors, load_postgres, require_extension, vector_index
from search.index.postgres.schema import quoted
from search.index.postgres.signals import VectorSignal
from search.index.postgres.store import session_settings

from eval.bench import throughput
from eval.bench.ann import K, recall_and_latency
from eval.bench.latency import WARMUP, query_texts, summarise_pass, timed_search
from eval.bench.measure import GB, call_in_child, directory_size, median_of_runs, processes_memory
from eval.bench.synthetic import exact_top_k, open_vectors, random_unit, write_vectors

log = logging.getLogger(__name__)

#: The default model's dimension (all-MiniLM-L6-v2), as the scale part uses.
DIM = 384
SEED = 16
#: The scratch schema of the synthetic vectors (dropped after).
SYNTHETIC_SCHEMA = "bench_synthetic"
#: The two indexes `vector_index` builds, by what the results call them.
KINDS = {"hnsw": False, "binary": True}
#: The two halves of the part, each measured (and kept when the other is rerun) on its own.
HALVES = ("index", "synthetic")


class DatabaseProcesses:
    """The processes of the PostgreSQL server at `dsn`, for their memory: the postmaster named
    by `postmaster.pid` in its data directory, and its children. `found` is False for a server
    this process cannot see (on another machine, or a user without the right to read the
    setting); its memory is then zero processes."""

    def __init__(self, dsn: str) -> None:
        self.data_directory: Path | None = None
        self._postmaster: psutil.Process | None = None
        with connect(dsn) as connection:
            try:
                self.data_directory = Path(connection.execute("SHOW data_directory").fetchone()[0])
                pid = int((self.data_directory / "postmaster.pid").read_text().split()[0])
                self._postmaster = psutil.Process(pid)
            except Exception as error:  # noqa: BLE001 - permission, another machine, a stale file: no figure
                log.warning("bench postgres: the server's processes are not visible here (%s)", error)

    @property
    def found(self) -> bool:
        return self._postmaster is not None

    def memory(self) -> dict[str, int]:
        """As `throughput.Server.memory`: RSS and PSS summed over the server's processes."""
        try:
            members = [self._postmaster, *self._postmaster.children(recursive=True)] if self._postmaster else []
        except psutil.NoSuchProcess:
            members = []
        return processes_memory(members)


def server_facts(dsn: str) -> dict[str, Any]:
    """The server's version, extensions and the settings that bear on the figures."""
    with connect(dsn) as connection:
        version = connection.execute("SHOW server_version").fetchone()[0]
        extensions = dict(connection.execute(
            "SELECT name, default_version FROM pg_available_extensions WHERE name IN ('vector', 'pg_textsearch')"
        ).fetchall())
        settings = {name: connection.execute(f"SHOW {name}").fetchone()[0]
                    for name in ("shared_buffers", "max_parallel_workers", "max_worker_processes")}
    return {"version": version, "extensions": extensions, "settings": settings}


# --- The full index ------------------------------------------------------------------------------


def load(index: str, dsn: str) -> dict[str, Any]:
    """`load_postgres` of the index directory (run in a child process): what it wrote, seconds per step."""
    return dataclasses.asdict(load_postgres(Path(index), dsn))


def _schema_bytes(dsn: str, schema: str) -> int:
    """Bytes on disk of every table of `schema`, with their indexes and TOAST."""
    with connect(dsn) as connection:
        row = connection.execute(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r'", (schema,),
        ).fetchone()
    return int(row[0])


def measure_load(index: Path, dsn: str, database: DatabaseProcesses) -> dict[str, Any]:
    """Load the index into the server: the loader's report and time, and the memory of both sides."""
    log.info("bench postgres: loading %s", index)
    with throughput.Sampler(database) as sampler:
        result, run = call_in_child("eval.bench.postgres:load", {"index": str(index), "dsn": dsn})
    if result is None:
        raise RuntimeError(f"loading {index} into PostgreSQL failed, {run.failure()}")
    after = database.memory()
    out = {**result, "wall_s": run.seconds, "loader_peak_rss_gb": run.peak_rss / GB,
           "server_pss_peak_gb": sampler.peak["pss"] / GB, "server_pss_after_gb": after["pss"] / GB,
           "schema_gb": _schema_bytes(dsn, result["schema"]) / GB}
    if database.data_directory is not None and database.found:
        out["data_directory_gb"] = directory_size(database.data_directory) / GB
    return out


def alternate(indexes: Mapping[str, str], queries: Mapping[str, Any], runs: int,
              variant: str = "default") -> dict[str, Any]:
    """Warm latency of several indexes in one process (run in a child): every query answered by
    each index in turn, which goes first rotating from query to query; per index, the median
    over `runs` passes of each pass's percentiles (end to end and per stage)."""
    from search.engine.engine import Engine
    from search.index.store import open_index

    texts = query_texts(**queries)
    engines, load_s = {}, {}
    for name, spec in indexes.items():
        started = time.perf_counter()
        engines[name] = Engine(open_index(spec))
        engines[name].index.load_embedder()
        load_s[name] = time.perf_counter() - started
    for engine in engines.values():
        for text in texts[:WARMUP]:
            engine.search(text, k=K, variant=variant)
    names = list(engines)
    passes: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for run in range(runs):
        timed: dict[str, list[dict[str, float]]] = {name: [] for name in names}
        for number, text in enumerate(texts):
            for name in names[number % len(names):] + names[:number % len(names)]:
                timed[name].append(timed_search(engines[name], text, variant))
        for name in names:
            passes[name].append(summarise_pass(timed[name]))
        log.info("bench postgres latency: pass %d of %d, p95 %s", run + 1, runs,
                 {name: round(passes[name][-1]["end_to_end"]["p95"], 1) for name in names})
    return {"queries": len(texts), "runs": runs, "variant": variant, "k": K, "warmup": WARMUP,
            "indexes": {name: {"index": str(indexes[name]), "records": len(engines[name].index.records),
                               "load_s": load_s[name], **median_of_runs(passes[name])} for name in names}}


def measure_index(index: Path, dsn: str, database: DatabaseProcesses, queries: Mapping[str, Any], runs: int,
                  kinds: Sequence[str], clients: Sequence[int], seconds: float, spike_requests: int,
                  scratch: Path) -> dict[str, Any]:
    """The full index: its load, A/B latency and throughput, from its directory and from PostgreSQL."""
    loaded = measure_load(index, dsn, database)
    address = f"{dsn}#{loaded['schema']}"
    log.info("bench postgres: latency, %s against %s", index, loaded["schema"])
    latency, run = call_in_child("eval.bench.postgres:alternate", {
        "indexes": {"directory": str(index), "postgres": address}, "queries": dict(queries), "runs": runs})
    if latency is None:
        raise RuntimeError(f"latency over {index} and PostgreSQL failed, {run.failure()}")
    targets = [throughput.Target(f"{kind} {backend}", kind, spec, database if backend == "postgres" else None)
               for kind in kinds for backend, spec in (("directory", str(index)), ("postgres", address))]
    servers = throughput.measure(targets, queries, clients, seconds, runs, scratch, spike_requests=spike_requests)
    for server, target in zip(servers, targets):
        server["backend"] = target.name.split(" ", 1)[1]
    return {"index": str(index), "load": loaded, "latency": latency, "servers": servers}


# --- Synthetic vectors ---------------------------------------------------------------------------


def measure_synthetic(dsn: str, database: DatabaseProcesses, count: int, n_queries: int,
                      ef_searches: Sequence[int], runs: int, scratch: Path, maintenance_work_mem: str,
                      workers: int, dim: int = DIM) -> dict[str, Any]:
    """`count` random unit vectors in pgvector under the backend's two HNSW indexes: build time,
    size and server memory of each, and per `hnsw.ef_search` the recall@10 and latency of the
    backend's query for `n_queries` random queries."""
    vectors, queries_file, truth = scratch / "pg_vectors.f32", scratch / "pg_queries.npy", scratch / "pg_truth.npy"
    s = quoted(SYNTHETIC_SCHEMA)
    notices: list[str] = []
    try:
        log.info("bench postgres: %d random unit vectors and the exact top %d of %d queries", count, K, n_queries)
        write_vectors(str(vectors), count, dim, SEED)
        queries = random_unit(n_queries, dim, np.random.default_rng(SEED + 1))
        np.save(queries_file, queries)
        started = time.perf_counter()
        exact_top_k(str(vectors), str(queries_file), K, dim, str(truth))
        truth_s = time.perf_counter() - started
        gold = np.load(truth)
        with connect(dsn) as connection:
            require_extension(connection, "vector")
            connection.execute(f"DROP SCHEMA IF EXISTS {s} CASCADE")
            connection.execute(f"CREATE SCHEMA {s}")
            connection.add_notice_handler(lambda notice: notices.append(notice.message_primary))
            data = open_vectors(str(vectors), dim)
            started = time.perf_counter()
            copy_vectors(connection, s, dim, np.arange(count), lambda rows: data[rows])
            copy_s = time.perf_counter() - started
            connection.execute(f"ANALYZE {s}.vectors")
            table_bytes = _relation_bytes(connection, f"{s}.vectors")
            connection.execute("SELECT set_config('maintenance_work_mem', %s, false)", (maintenance_work_mem,))
            connection.execute("SELECT set_config('max_parallel_maintenance_workers', %s, false)", (str(workers),))
            indexes = []
            for kind, binary in KINDS.items():
                log.info("bench postgres: building the %s index over %d vectors", kind, count)
                with throughput.Sampler(database) as sampler:
                    started = time.perf_counter()
                    name = vector_index(connection, s, dim, binary)
                    build_s = time.perf_counter() - started
                log.info("bench postgres: %s built in %.0f s", kind, build_s)
                indexes.append({"kind": kind, "index": name, "build_s": build_s,
                                "index_gb": _relation_bytes(connection, f"{s}.{quoted(name)}") / GB,
                                "server_pss_peak_gb": sampler.peak["pss"] / GB,
                                "settings": _sweep(dsn, dim, name, binary, queries, gold, ef_searches, runs)})
            after = database.memory()
    finally:
        with connect(dsn) as connection:
            connection.execute(f"DROP SCHEMA IF EXISTS {s} CASCADE")
        for path in (vectors, queries_file, truth):
            path.unlink(missing_ok=True)
    return {"vectors": count, "dim": dim, "queries": n_queries, "runs": runs, "k": K,
            "maintenance_work_mem": maintenance_work_mem, "max_parallel_maintenance_workers": workers,
            "copy_s": copy_s, "ground_truth_s": truth_s, "table_gb": table_bytes / GB,
            "server_pss_after_gb": after["pss"] / GB, "notices": sorted(set(notices)), "indexes": indexes}


def _relation_bytes(connection: Any, relation: str) -> int:
    return int(connection.execute("SELECT pg_relation_size(%s::regclass)", (relation,)).fetchone()[0])


def _sweep(dsn: str, dim: int, index: str, binary: bool, queries: np.ndarray, gold: np.ndarray,
           ef_searches: Sequence[int], runs: int) -> list[dict[str, Any]]:
    """Per `hnsw.ef_search`: recall@10 and latency of the backend's vector query, one record per
    vector, and how many scans of `index` it made (so a plan that skipped the index shows)."""
    settings = []
    for ef_search in ef_searches:
        connections = Connections(dsn, session_settings(SYNTHETIC_SCHEMA, ef_search))
        signal = VectorSignal(connections, dim, 1, binary)
        try:
            before = _index_scans(connections.get(), index)
            scored = recall_and_latency(lambda vector: signal.rank(vector, K, None)[0], queries, gold, runs)
            scored["index_scans"] = _index_scans(connections.get(), index) - before
        finally:
            connections.get().close()
        settings.append({"ef_search": ef_search, **scored})
        log.info("bench postgres: %s, ef_search %d: recall@10 %.3f, p95 %.1f ms, %d index scans", index, ef_search,
                 scored["recall_at_10"], scored["p95"], scored["index_scans"])
    return settings


def _index_scans(connection: Any, index: str) -> int:
    """Scans of `index` so far, this connection's own included (its pending statistics flushed
    first: a backend reports them when it next goes idle)."""
    connection.execute("SELECT pg_stat_force_next_flush()")
    row = connection.execute("SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes "
                             "WHERE schemaname = %s AND indexrelname = %s", (SYNTHETIC_SCHEMA, index)).fetchone()
    return int(row[0])


# --- The part --------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Settings:
    """What one run of the part measures, and how much of it (the bench's plan and options)."""

    queries: Mapping[str, Any]
    runs: int
    #: Server kinds of the throughput part (`api`, `app`, `workers`) serving each index.
    kinds: Sequence[str]
    clients: Sequence[int]
    seconds: float
    spike_requests: int
    synthetic_count: int
    synthetic_queries: int
    ef_searches: Sequence[int]
    maintenance_work_mem: str
    maintenance_workers: int
    halves: Sequence[str] = HALVES


def measure(index: Path, dsn: str | None, pgdata: Path | None, scratch: Path, settings: Settings) -> dict[str, Any]:
    """The part on the server at `dsn`, or on a local one started now in `pgdata` (kept, the
    server stopped at the end) or a temporary directory (removed)."""
    from search.index.postgres.local import local_server

    try:
        if dsn:
            return _measure_on(dsn, index, scratch, settings)
        directory = pgdata or scratch / "pgdata"
        with local_server(directory, delete=pgdata is None) as local:
            return {"local_server": str(directory), **_measure_on(local, index, scratch, settings)}
    except psycopg.Error as error:
        raise RuntimeError(f"PostgreSQL: {one_line(error)}") from error


def _measure_on(dsn: str, index: Path, scratch: Path, settings: Settings) -> dict[str, Any]:
    database = DatabaseProcesses(dsn)
    out: dict[str, Any] = {"server": {**server_facts(dsn), "memory_measured": database.found}}
    if "index" in settings.halves:
        out["index"] = measure_index(index, dsn, database, settings.queries, settings.runs, settings.kinds,
                                     settings.clients, settings.seconds, settings.spike_requests, scratch)
    if "synthetic" in settings.halves and settings.synthetic_count:
        out["synthetic"] = measure_synthetic(dsn, database, settings.synthetic_count, settings.synthetic_queries,
                                             settings.ef_searches, settings.runs, scratch,
                                             settings.maintenance_work_mem, settings.maintenance_workers)
    return out


def merge(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """The part from an earlier run and one that measured one half of it: the half not
    measured again is kept, each half stamped with the date, load and command of its run."""
    def stamp(part: Mapping[str, Any]) -> dict[str, Any]:
        return {"date": part["machine"]["date"], "load_average": part["machine"]["load_average"],
                "command": part["command"]}

    merged = dict(new)
    for half in HALVES:
        if half in new:
            merged[half] = {"measured": stamp(new), **new[half]}
        elif half in old:
            merged[half] = {"measured": old[half].get("measured", stamp(old)), **old[half]}
    return merged
