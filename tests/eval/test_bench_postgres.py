"""The PostgreSQL part of the benchmark (eval/bench/postgres.py) on the session's server, at tiny sizes."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval.bench import report
from eval.bench.postgres import (
    SYNTHETIC_SCHEMA, DatabaseProcesses, alternate, measure_load, measure_synthetic, merge, server_facts,
)
from search.index.postgres.connection import connect


@pytest.mark.postgres
def test_synthetic_vectors_are_indexed_and_scored_against_exact_search(postgres: str, tmp_path: Path) -> None:
    database = DatabaseProcesses(postgres)
    assert database.found and database.memory()["processes"] >= 2 and database.memory()["pss"] > 0
    half = measure_synthetic(postgres, database, count=3000, n_queries=20, ef_searches=[10, 40], runs=1,
                             scratch=tmp_path, maintenance_work_mem="256MB", workers=1, dim=32)
    assert half["vectors"] == 3000 and half["maintenance_work_mem"] == "256MB" and half["table_gb"] > 0
    indexes = {index["kind"]: index for index in half["indexes"]}
    assert [indexes[k]["index"] for k in ("hnsw", "binary")] == ["vectors_hnsw", "vectors_binary_hnsw"]
    for index in indexes.values():
        assert index["build_s"] > 0 and index["index_gb"] > 0 and index["server_pss_peak_gb"] > 0
        assert [s["ef_search"] for s in index["settings"]] == [10, 40]
        assert all(0 < s["p50"] <= s["p95"] for s in index["settings"])
        for setting in index["settings"]:  # every query walked the index, or the planner scanned the table exactly
            assert setting["index_scans"] in (0, 20)
            assert setting["index_scans"] == 20 or setting["recall_at_10"] == 1.0
    walk = indexes["hnsw"]["settings"][0]
    assert walk["index_scans"] == 20 and 0.5 <= walk["recall_at_10"] <= 1.0  # a narrow walk finds most of them
    binary = indexes["binary"]["settings"]
    assert all(s["index_scans"] == 20 and s["recall_at_10"] < 0.9 for s in binary)  # 32 sign bits rank coarsely
    with connect(postgres) as connection:  # the scratch schema is dropped, the scratch files deleted
        assert connection.execute("SELECT to_regnamespace(%s)", (SYNTHETIC_SCHEMA,)).fetchone()[0] is None
    assert not list(tmp_path.iterdir())


@pytest.mark.postgres
def test_the_index_is_loaded_and_timed_beside_its_directory(postgres: str, small_index: Path, tmp_path: Path) -> None:
    database = DatabaseProcesses(postgres)
    loaded = measure_load(small_index, postgres, database)
    assert loaded["records"] > 0 and loaded["lexical"] == "pg_textsearch" and loaded["schema_gb"] > 0
    assert set(loaded["seconds"]) == {"records", "vectors", "btree", "bm25", "hnsw"}
    assert loaded["wall_s"] > sum(loaded["seconds"].values()) and loaded["loader_peak_rss_gb"] > 0
    assert loaded["server_pss_peak_gb"] > 0
    queries = tmp_path / "queries.txt"
    queries.write_text("prime numbers are infinite\ncontinuous function on a compact set\nNat.succ_le_succ\n")
    indexes = {"directory": str(small_index), "postgres": f"{postgres}#{loaded['schema']}"}
    latency = alternate(indexes, {"mathlibqr": None, "leanexplore": str(queries)}, runs=2)
    assert latency["queries"] == 3 and set(latency["indexes"]) == {"directory", "postgres"}
    for figures in latency["indexes"].values():
        assert figures["records"] == loaded["records"]
        assert 0 < figures["end_to_end"]["p50"] <= figures["end_to_end"]["p95"]
        assert figures["stages"]["dense"]["p50"] > 0 and "other" in figures["stages"]
    facts = server_facts(postgres)
    assert facts["version"].startswith("18") and "vector" in facts["extensions"]


def test_a_run_of_one_half_keeps_the_other_and_both_render() -> None:
    def part(date: str, **halves: dict) -> dict:
        return {"machine": {"date": date, "load_average": [0.5]}, "command": f"run {date}",
                "server": {"version": "18", "extensions": {"vector": "0.8.1"}, "settings": {}, "memory_measured": True},
                **halves}

    synthetic = {"vectors": 10, "dim": 4, "queries": 2, "runs": 1, "k": 10, "copy_s": 0.1, "table_gb": 0.0,
                 "maintenance_work_mem": "1GB", "max_parallel_maintenance_workers": 1, "notices": [],
                 "indexes": [{"kind": "hnsw", "index": "vectors_hnsw", "build_s": 1.0, "index_gb": 0.0,
                              "server_pss_peak_gb": 0.1, "settings": [{"ef_search": 40, "recall_at_10": 0.5,
                                                                      "p50": 1.0, "p95": 2.0}]}]}
    merged = merge(part("d1", synthetic=synthetic), part("d2", synthetic={**synthetic, "vectors": 20}))
    assert merged["synthetic"]["vectors"] == 20 and merged["synthetic"]["measured"]["date"] == "d2"
    kept = merge(part("d1", synthetic=synthetic), part("d2"))
    assert kept["synthetic"]["vectors"] == 10 and kept["synthetic"]["measured"]["command"] == "run d1"
    text = "\n".join(report._postgres({**kept, "machine": {"date": "d2"}}))
    assert "Measured d1, load average 0.5 at the start, with `run d1`" in text
    assert "| `vectors_hnsw` | 40 | 0.500 | 1.0 | 2.0 | – | 1.0 s |" in text
