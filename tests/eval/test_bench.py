"""The performance benchmark: its measuring pieces on small data, and `--quick` end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from eval.__main__ import main
from eval.bench import profile, report, scale
from eval.bench.ann import parse_design
from eval.bench.cli import QUICK
from eval.bench.measure import median_of_runs, percentiles, run_child
from eval.bench.synthetic import Vocabulary, documents, exact_top_k, write_vectors
from search import config

MB = 1024**2


def test_design_sweeps_every_combination_and_refuses_garbage() -> None:
    design = parse_design("IVF64,PQ48np@nprobe=1/8;rerank=100/1000")
    assert design.factory == "IVF64,PQ48np" and not design.binary
    assert design.sweep == [{"nprobe": 1, "rerank": 100}, {"nprobe": 1, "rerank": 1000},
                            {"nprobe": 8, "rerank": 100}, {"nprobe": 8, "rerank": 1000}]
    assert parse_design("BFlat").binary and parse_design("Flat").sweep == [{}]
    for bad in ("@nprobe=1", "Flat@nprobe", "Flat@nprobe=many"):
        with pytest.raises(ValueError, match="design"):
            parse_design(bad)


def test_percentiles_and_medians_over_runs() -> None:
    assert percentiles([0.001 * i for i in range(1, 101)])["p95"] == pytest.approx(95.05)
    runs = [{"p95": 10.0, "stages": {"embed": {"p95": 4.0}}, "label": "x"},
            {"p95": 30.0, "stages": {"embed": {"p95": 2.0}}},
            {"p95": 20.0, "stages": {"embed": {"p95": 9.0}}}]
    assert median_of_runs(runs) == {"p95": 20.0, "stages": {"embed": {"p95": 4.0}}}


def test_blockwise_ground_truth_is_exact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("eval.bench.synthetic.BLOCK", 300)  # several blocks, the last one short
    vectors, queries = tmp_path / "v.f32", tmp_path / "q.npy"
    write_vectors(str(vectors), 1000, 16, seed=1)
    data = np.fromfile(vectors, dtype=np.float32).reshape(1000, 16)
    assert np.allclose(np.linalg.norm(data, axis=1), 1.0, atol=1e-5)
    q = np.random.default_rng(2).standard_normal((7, 16)).astype(np.float32)
    np.save(queries, q)
    exact_top_k(str(vectors), str(queries), 10, 16, str(tmp_path / "truth.npy"))
    expected = np.argsort(-(q @ data.T), axis=1)[:, :10]
    assert np.array_equal(np.load(tmp_path / "truth.npy"), expected)


def test_synthetic_documents_follow_the_vocabulary() -> None:
    vocabulary = Vocabulary(np.array(["ring", "group", "rare"]), np.array([600, 399, 1]), np.array([3, 5]))
    docs = documents(vocabulary, 2000, seed=0)
    assert len(docs) == 2000 and {len(d) for d in docs} == {3, 5}
    words = [w for d in docs for w in d]
    assert 0.55 < words.count("ring") / len(words) < 0.65


def test_child_peak_memory_is_its_own_and_a_budget_stops_it() -> None:
    allocate = "import numpy as np; x = np.ones({} * 1024**2 // 8); print(x.sum())"
    small = run_child([sys.executable, "-c", allocate.format(10)])
    large = run_child([sys.executable, "-c", allocate.format(300)])
    assert small.ok and large.ok
    assert small.peak_rss < 150 * MB  # not the benchmark process's own size
    assert 300 * MB < large.peak_rss < 400 * MB
    stopped = run_child([sys.executable, "-c", allocate.format(2000) + "; import time; time.sleep(5)"],
                        memory_budget=200 * MB)
    assert stopped.over_budget and not stopped.ok and "budget" in stopped.failure()


def test_targets_pick_the_fastest_design_that_reaches_the_recall() -> None:
    def row(design: str, peak: float, *settings: tuple[float, float]) -> dict:
        return {"design": design, "factory": design, "vectors": 10_000_000, "peak_rss_gb": peak,
                "settings": [{"params": {"nprobe": i}, "recall_at_10": r, "p95": p} for i, (r, p) in enumerate(settings)]}

    rows = [row("IVF,SQ8", 4.0, (0.5, 10.0), (0.96, 300.0)), row("BFlat", 1.0, (0.97, 150.0)),
            row("Flat", 15.0, (1.0, 20.0))]
    text, verdict = report._best_design(rows)
    assert text.startswith("`BFlat`") and verdict == "yes"
    text, verdict = report._best_design(rows[:1])
    assert text.startswith("`IVF,SQ8`") and "p95 300 ms" in text and verdict == "**no**"
    text, verdict = report._best_design([row("IVF,PQ", 1.0, (0.5, 10.0), (0.9, 50.0))])
    assert text.startswith("no setting reaches recall 0.95") and "`IVF,PQ` nprobe=1, recall 0.900" in text
    assert verdict == "**no**"


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory, fixtures_dir: Path, shared_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("bench")
    corpus = fixtures_dir / "jsonl" / "mathlib_small.jsonl"
    assert main(["bench", "--quick", "--out", str(out), "--build-corpus", str(corpus)]) == 0
    return out


@pytest.mark.integration
def test_quick_benchmark_runs_every_part_and_writes_its_outputs(quick_run: Path) -> None:
    data = json.loads((quick_run / "bench.json").read_text())
    parts = data["parts"]
    assert set(parts) == set(report.PARTS)
    for part in parts.values():
        assert part["quick"] and part["machine"]["cores"] >= 1 and part["command"].startswith("python -m eval bench")
    built = parts["build"]["rows"][0]
    assert built["records"] > 0 and built["disk_mb"] > 0 and 0 < built["peak_rss_gb"] < 4
    assert set(built["stages_s"]) == {"parse", "text views", "embed", "FAISS", "BM25", "PageRank"}
    warm = parts["latency"]["warm"]
    assert warm["queries"] == 12 and 0 < warm["end_to_end"]["p50"] <= warm["end_to_end"]["p95"]
    assert parts["latency"]["first_query"]["first_answer_s"] > parts["latency"]["first_query"]["index_loaded_s"]
    server = parts["throughput"]["servers"][0]
    assert [level["clients"] for level in server["levels"]] == [1, 2]
    assert all(level["errors"] == 0 and level["requests_per_s"] > 0 for level in server["levels"])
    designs = {row["factory"]: row for row in parts["scale"]["vectors"]}
    assert designs["Flat"]["settings"][0]["recall_at_10"] == 1.0  # exact search against exact search
    assert all(0 <= s["recall_at_10"] <= 1 for row in designs.values() for s in row["settings"])
    assert parts["scale"]["bm25"][0]["documents"] == 2000 and "failed" not in parts["scale"]["bm25"][0]
    scopes = {scope["scope"]: scope for scope in parts["profile"]["scopes"]}
    assert set(scopes) == {"query", "server", "build"} and scopes["query"]["samples"] > 0
    assert scopes["query"]["inclusive"][0] == ["Engine.search (search/engine/engine.py)", 1.0]
    assert any("build_index (search/index/build.py)" == frame for frame, _ in scopes["build"]["inclusive"])
    pg = parts["postgres"]
    assert pg["index"]["load"]["records"] == warm["records"] and set(pg["index"]["latency"]["indexes"]) == {
        "directory", "postgres"}
    assert [(s["backend"], s["levels"][-1]["errors"]) for s in pg["index"]["servers"]] == [("directory", 0),
                                                                                         ("postgres", 0)]
    assert pg["index"]["servers"][1]["database_processes"] >= 2 and "database_pss_gb" not in pg["index"]["servers"][0]
    assert pg["synthetic"]["vectors"] == QUICK.synthetic_vectors and len(pg["synthetic"]["indexes"]) == 2
    assert pg["synthetic"]["indexes"][0]["settings"][0]["index_scans"] > 0  # the walk, not an exact scan
    markdown = (quick_run / "bench.md").read_text()
    assert "## Postgres" in markdown and "| `vectors_binary_hnsw` | 200 |" in markdown
    assert "## Profile" in markdown and "**server**: the API alone" in markdown
    assert "## Targets" in markdown and "Quick mode" in markdown and "| `Flat` |" in markdown
    assert (quick_run / "bench_scale.png").read_bytes()[:4] == b"\x89PNG"


def test_bad_arguments_fail_cleanly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "scale", "--quick", "--design", "Flat@nprobe"]) == 2
    assert main(["bench", "build", "--quick", "--build-sizes", "ten"]) == 2
    assert main(["bench", "throughput", "--quick", "--clients", "1,many"]) == 2
    assert main(["bench", "latency", "--index", str(tmp_path / "none"), "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "design 'Flat@nprobe'" in err and "Traceback" not in err
    assert f"no index at {tmp_path / 'none'}" in err and not (tmp_path / "bench.json").exists()


def test_a_scale_run_at_some_designs_keeps_the_other_rows() -> None:
    def part(date: str, vectors: list[tuple[int, str]], bm25: list[int]) -> dict:
        failed = {"failed": f"stopped in {date}", "peak_rss_gb": 1.0}
        return {"machine": {"date": date, "load_average": [1.0]}, "command": f"run {date}", "dim": 384,
                "memory_budget_gb": 12.0, "vectors": [{"vectors": n, "design": d, **failed} for n, d in vectors],
                "bm25": [{"documents": n, **failed} for n in bm25]}

    merged = scale.merge(part("d1", [(10, "Flat"), (10, "BFlat")], [5]), part("d2", [(10, "BFlat"), (5, "LSH")], []))
    assert [(r["vectors"], r["design"], r["failed"], r["measured"]["date"]) for r in merged["vectors"]] == [
        (5, "LSH", "stopped in d2", "d2"), (10, "Flat", "stopped in d1", "d1"), (10, "BFlat", "stopped in d2", "d2")]
    assert [(r["documents"], r["measured"]["command"]) for r in merged["bm25"]] == [(5, "run d1")]
    assert "Rows measured at: d1 (load 1.0, `run d1`); d2" in "\n".join(report._scale(merged))


def test_a_build_run_at_one_size_keeps_the_other_sizes() -> None:
    def part(date: str, sizes: list[tuple[str, int]]) -> dict:
        latency = {"end_to_end": {"p50": 1.0, "p95": 2.0}}
        stages = dict.fromkeys(("parse", "text views", "embed", "FAISS", "BM25", "PageRank"), 1.0)
        rows = [{"size": size, "records": records, "vectors": records, "runs": 5, "source": f"{size} in {date}",
                 "wall_s": 60.0, "peak_rss_gb": 1.0, "disk_mb": 5.0, "stages_s": stages, "latency": latency}
                for size, records in sizes]
        return {"machine": {"date": date, "load_average": [0.5]}, "command": f"run {date}", "rows": rows}

    rows = report.merge_rows(part("d1", [("full", 300), ("10", 12)]), part("d2", [("100", 120), ("10", 13)]), "rows",
                             lambda row: row["size"], lambda row: row["records"])
    assert [(r["size"], r["records"], r["measured"]["date"]) for r in rows] == [
        ("10", 13, "d2"), ("100", 120, "d2"), ("full", 300, "d1")]
    assert "Rows measured at: d1 (load 0.5, `run d1`); d2" in "\n".join(report._build({"rows": rows}))


def test_profile_sums_samples_per_function_without_waiting_threads(tmp_path: Path) -> None:
    raw = tmp_path / "raw.txt"
    raw.write_text("\n".join([
        "main (app.py);Engine.search (search/engine/engine.py);Embedder.encode (search/index/embed.py);Session.run (ort.py) 6",
        "main (app.py);Engine.search (search/engine/engine.py);_top (search/engine/engine.py) 2",
        "main (app.py);Engine.search (search/engine/engine.py);_top (search/engine/engine.py);argsort (numpy.py) 2",
        "main (app.py);Index.load (search/index/store.py) 30",
        "worker (threading.py);Queue.get (queue.py);Condition.wait (threading.py) 50",
        "a line that is no sample",
    ]))
    inside = profile.summarise(profile.read_stacks(raw, profile.SEARCH_FRAME))
    assert inside["samples"] == 10
    assert inside["inclusive"][:3] == [["Engine.search (search/engine/engine.py)", 1.0],
                                       ["Embedder.encode (search/index/embed.py)", 0.6],
                                       ["_top (search/engine/engine.py)", 0.4]]
    assert inside["self"][0] == ["Session.run (ort.py)", 0.6] and ["argsort (numpy.py)", 0.2] in inside["self"]
    everything = profile.summarise(profile.read_stacks(raw))
    assert everything["samples"] == 40 and everything["self"][0] == ["Index.load (search/index/store.py)", 0.75]


def test_of_two_functions_with_equal_shares_the_caller_ranks_first_under_any_hash_seed(tmp_path: Path) -> None:
    raw = tmp_path / "raw.txt"
    raw.write_text("main (app.py);Engine.search (search/engine/engine.py);Embedder.encode (search/index/embed.py);"
                   "_encode (search/index/embed.py) 3\n")
    script = ("import json, sys; from pathlib import Path; from eval.bench import profile; "
              "print(json.dumps(profile.summarise(profile.read_stacks(Path(sys.argv[1])))['inclusive']))")
    rankings = {subprocess.run([sys.executable, "-c", script, str(raw)], capture_output=True, text=True, check=True,
                               env={**os.environ, "PYTHONHASHSEED": str(seed)}, cwd=config.REPO_DIR).stdout
                for seed in range(6)}
    assert [json.loads(r) for r in rankings] == [[["Engine.search (search/engine/engine.py)", 1.0],
                                                  ["Embedder.encode (search/index/embed.py)", 1.0],
                                                  ["_encode (search/index/embed.py)", 1.0]]]


def test_index_memory_reports_each_index_loaded_and_the_searches(tiny_index: Path, tmp_path: Path) -> None:
    from eval.bench import index_memory

    out = tmp_path / "memory.json"
    assert index_memory.main(["--index", f"a={tiny_index}", "--index", f"b={tiny_index}",
                              "--queries", "3", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert [entry["index"] for entry in figures["loaded"]] == [f"a={tiny_index}", f"b={tiny_index}"]
    assert figures["after"]["anon_mb"] > 0 and figures["search_ms"]["median"] > 0
