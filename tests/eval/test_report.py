from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval.report import RunInfo, index_info, to_markdown, write_report
from eval.retrieval import RetrievalRun, run_retrieval
from tests.eval.fakes import FakeEngine, results
from tests.eval.test_retrieval import ENGINE_SCRIPT, QUERIES

MANIFEST = {
    "build_date": "2026-08-04T10:00:00+00:00", "code_version": "abc123def456",
    "sources": {"mathlib": {"commit": "0123456789abcdef"}, "stacks": {"commit": ""}},
}


@pytest.fixture(scope="module")
def run() -> RetrievalRun:
    return run_retrieval(FakeEngine(ENGINE_SCRIPT), QUERIES, ["bm25", "default"], exists=lambda g: g != "Old.name")


def info(published: bool) -> RunInfo:
    return RunInfo("small", "tests/fixtures/queries/small.json", "python -m eval retrieval --k 100",
                   index_info(MANIFEST), published)


def test_write_report_writes_markdown_json_and_chart(run: RetrievalRun, tmp_path: Path) -> None:
    paths = write_report(run, info(True), tmp_path / "out", tmp_path / "figures")
    assert paths == [tmp_path / "out" / "small.md", tmp_path / "out" / "small.json",
                     tmp_path / "figures" / "small_ndcg10_by_style.png"]
    assert paths[2].read_bytes().startswith(b"\x89PNG") and paths[2].stat().st_size > 5000
    data = json.loads(paths[1].read_text())
    assert data["index"]["sources"] == {"mathlib": "0123456789abcdef", "stacks": ""}
    assert data["missing_golds"] == ["Old.name"] and data["unanswerable_queries"] == 1
    assert len(data["queries"]) == 4 and data["queries"][1]["results"]["default"]["rank"] == 3
    assert data["queries"][3]["results"]["bm25"]["rank"] is None
    rows = {(r["variant"], r["key"], r["value"]): r for r in data["summary"]}
    assert rows[("default", "style", "natural")]["metrics"]["nDCG@10"]["low"] is None  # one query
    assert rows[("default", "all", "all")]["n"] == 4
    assert data["comparisons"][0]["variant"] == "bm25" and len(data["published"]) == 4


def test_markdown_names_index_command_and_published_figures(run: RetrievalRun) -> None:
    text = to_markdown(run, info(True))
    assert "built 2026-08-04T10:00:00+00:00 from mathlib@01234567, stacks" in text
    assert "Regenerate: `python -m eval retrieval --k 100`" in text
    assert "| *LeanExplore (published)* | 810 | 0.393 | 0.569 |" in text
    assert "| *LeanSearch v2 with reranker (published)* | 810 | 0.623 | 0.780 |" in text
    assert "another corpus snapshot and another query subset" in text
    assert "`Old.name`" in text and "queries with no gold in the index (counted as misses): 1." in text
    assert "## nDCG@10 by style" in text and "| variant | lean (n=3) | natural (n=1) |" in text
    assert "`bm25` − `default`" in text and "not significant at 0.05" in text
    assert "(published)" not in to_markdown(run, info(False))


def test_chart_without_style_shows_all_queries(tmp_path: Path) -> None:
    plain = [q.__class__(q.qid, q.query, q.relevant, {}) for q in QUERIES]
    engine = FakeEngine({"default": {"succ mono": results("mathlib:Nat.succ_le_succ")}})
    paths = write_report(run_retrieval(engine, plain, ["default"]), info(False), tmp_path, tmp_path)
    assert paths[2].name == "small_ndcg10.png" and paths[2].is_file()
    assert "Golds absent from the index: not checked." in paths[0].read_text()
