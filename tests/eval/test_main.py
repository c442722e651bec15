from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

import search.engine.engine
import search.index.store
from eval.__main__ import main
from tests.eval.fakes import FakeEngine, FakeStatement, results


def test_missing_index_says_how_to_build_it(tmp_path: Path, fixtures_dir: Path, capsys) -> None:
    code = main(["retrieval", "--index", str(tmp_path / "index"),
                 "--queries", str(fixtures_dir / "queries" / "mathlibqr_small.json"),
                 "--out", str(tmp_path), "--figures", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and "python -m search build --out" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_malformed_queries_fail_cleanly(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "x"}\n')
    assert main(["retrieval", "--queries", str(bad), "--index", str(tmp_path)]) == 1
    assert f"{bad}:1: 'relevant'" in capsys.readouterr().err


def test_retrieval_command_writes_reports(
    tmp_path: Path, fixtures_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    index = SimpleNamespace(
        records=[FakeStatement("mathlib:LieRing", "LieRing")],
        manifest={"build_date": "2026-08-04", "sources": {"mathlib": {"commit": "feedbeef00"}}},
    )
    script = {v: {"Lie ring": results("mathlib:LieRing")} for v in ("bm25", "default")}
    monkeypatch.setattr(search.index.store, "open_index", lambda spec: index)
    monkeypatch.setattr(search.engine.engine, "Engine", lambda loaded: FakeEngine(script))
    queries = fixtures_dir / "queries" / "mathlibqr_small.json"
    argv = ["retrieval", "--index", "idx", "--queries", str(queries), "--variants", "bm25,default",
            "--out", str(tmp_path / "out"), "--figures", str(tmp_path / "fig"), "--fair-only"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "*LeanFinder (published)*" in printed and "| `default` | 5 |" in printed
    data = json.loads((tmp_path / "out" / "mathlibqr_small_fair.json").read_text())
    assert data["command"].startswith("python -m eval retrieval --index idx")
    assert data["missing_golds"] == [] and data["n_queries"] == 5
    assert (tmp_path / "fig" / "mathlibqr_small_fair_ndcg10_by_style.png").is_file()
    nickname = next(q for q in data["queries"] if q["qid"] == "A1:nickname")
    assert nickname["results"]["default"]["rank"] == 1


def test_settings_make_changed_rankings_and_leave_the_registry_alone() -> None:
    from eval.__main__ import rankings_with_settings
    from search.engine import variants

    assert rankings_with_settings(["bm25", "default"], []) == {"bm25": "bm25", "default": "default"}
    changed = rankings_with_settings(["default"], ["dependents.weight=0.2", "weights.names=0.6"])["default"]
    assert changed.stage("dependents").weight == 0.2 and changed.weights["names"] == 0.6
    assert variants.get("default").stage("dependents").weight == 0.15
    for bad in ("nope=1", "dependents.weight", "dependents.weight=abc", "rrf_k.x=1", "Engine=1"):
        with pytest.raises(ValueError, match="--variants default: setting"):
            rankings_with_settings(["default"], [bad])
    with pytest.raises(ValueError, match="--variants bm25: .* no 'dependents.weight'"):
        rankings_with_settings(["bm25"], ["dependents.weight=0.2"])
    with pytest.raises(ValueError, match="unknown ranking variant 'best'"):
        rankings_with_settings(["best"], [])


def test_worst_groups_rank_styles_and_topics_by_mean_ndcg() -> None:
    from eval.misses import worst_groups

    def query(text: str, style: str, gold: str, ndcg: float, rank: int) -> dict:
        return {"query": text, "relevant": [gold], "group": {"style": style},
                "results": {"default": {"metrics": {"nDCG@10": ndcg}, "rank": rank}}}

    report = {"queries": [
        query("a", "latex", "Nat.x", 0.0, 0), query("b", "latex", "Real.y", 0.5, 3),
        query("c", "lean", "Nat.x", 1.0, 1), query("d", "lean", "Gone.z", 0.0, 0),
    ]}
    groups = worst_groups(report, {"Nat.x": "Data", "Real.y": "Analysis"}, "default", smallest=1)
    labels = [(label, round(mean, 3), len(rows)) for mean, label, rows in groups]
    assert labels[0] in {("topic absent from index", 0.0, 1)}
    assert ("style latex", 0.25, 2) in labels and ("style lean", 0.5, 2) in labels
    assert ("topic Data", 0.5, 2) in labels and ("topic Analysis", 0.5, 1) in labels


def test_misses_write_the_weakest_groups_with_what_came_back(tmp_path: Path, small_index: Path, fixtures_dir: Path) -> None:
    queries = fixtures_dir / "queries" / "mathlibqr_small.json"
    assert main(["retrieval", "--index", str(small_index), "--queries", str(queries), "--variants", "default",
                 "--out", str(tmp_path), "--figures", str(tmp_path)]) == 0
    out = tmp_path / "misses.json"
    assert main(["misses", "--index", str(small_index), "--results", str(tmp_path / "mathlibqr_small.json"),
                 "--smallest", "1", "--groups", "3", "--json", str(out)]) == 0
    groups = json.loads(out.read_text())["groups"]
    assert 1 <= len(groups) <= 3 and [g["nDCG@10"] for g in groups] == sorted(g["nDCG@10"] for g in groups)
    for group in groups:
        assert len(group["examples"]) == min(2, group["missed"])
        assert all(len(example["top"]) <= 3 for example in group["examples"])


def test_lexical_parts_reindex_bm25_and_name_the_report(tmp_path: Path, small_index: Path, fixtures_dir: Path) -> None:
    queries = fixtures_dir / "queries" / "mathlibqr_small.json"
    common = ["retrieval", "--index", str(small_index), "--queries", str(queries), "--variants", "bm25",
              "--out", str(tmp_path), "--figures", str(tmp_path)]
    assert main(common) == 0
    assert main(common + ["--lexical", "kind"]) == 0
    full = json.loads((tmp_path / "mathlibqr_small.json").read_text())
    kind_only = json.loads((tmp_path / "mathlibqr_small_lexical=kind.json").read_text())

    def ndcg(report: dict) -> float:
        row = next(r for r in report["summary"] if r["variant"] == "bm25" and r["key"] == "all")
        return row["metrics"]["nDCG@10"]["mean"]

    assert ndcg(kind_only) < ndcg(full)


def test_unknown_lexical_part_is_refused(tmp_path: Path, capsys) -> None:
    assert main(["retrieval", "--index", str(tmp_path), "--lexical", "name,colour"]) == 2
    assert "choose among name, statement" in capsys.readouterr().err


def test_steps_measure_each_change_against_the_one_before(tmp_path: Path, small_index: Path, fixtures_dir: Path) -> None:
    from eval.steps import STEPS

    queries = fixtures_dir / "queries" / "mathlibqr_small.json"
    assert main(["steps", "--index", str(small_index), "--queries", str(queries), "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "steps.json").read_text())
    assert [row["key"] for row in report["steps"]] == [step.key for step in STEPS if not step.index]
    first, *rest = report["steps"]
    assert "versus" not in first and all("p_value" in row["versus"] for row in rest)
    assert {row["key"]: row["versus"]["step"] for row in rest}["no-dependents"] == "default"
    assert "--lexical name,statement,doc,aliases,place,kind" in first["command"]
    assert 0.0 <= first["metrics"]["nDCG@10"]["mean"] <= 1.0
    assert all(row["median_ms"] > 0 for row in report["steps"])


@pytest.mark.parametrize("other, dense_step", [("adapted", "adapted-dense"), ("sentences", "sentences-dense")])
def test_steps_over_another_index_need_the_same_records(tmp_path: Path, small_index: Path, fixtures_dir: Path,
                                                        capsys, other: str, dense_step: str) -> None:
    from eval.steps import STEPS
    from search.index.build import BuildOptions, build_index

    queries = fixtures_dir / "queries" / "mathlibqr_small.json"
    # An index of the same records stands in for one with other vectors.
    assert main(["steps", "--index", str(small_index), f"--{other}", str(small_index), "--queries", str(queries),
                 "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "steps.json").read_text())
    assert report["others"] == {other: str(small_index)}
    rows = {row["key"]: row for row in report["steps"]}
    assert rows[dense_step]["versus"]["step"] == "dense" and rows[other]["versus"]["step"] == "default"
    assert rows[other]["metrics"] == rows["default"]["metrics"]
    assert rows[other]["command"].startswith(f"python -m eval retrieval --index {small_index}")
    assert not {step.key for step in STEPS if step.index not in ("", other)} & set(rows)
    fewer = tmp_path / "fewer.jsonl"
    fewer.write_text("".join((fixtures_dir / "jsonl" / "mathlib_small.jsonl").read_text().splitlines(True)[:5]))
    different = tmp_path / "different"
    build_index(different, BuildOptions(sources=[f"mathlib={fewer}"], progress=False))
    assert main(["steps", "--index", str(small_index), f"--{other}", str(different), "--queries", str(queries),
                 "--out", str(tmp_path)]) == 2
    assert "holds other records than" in capsys.readouterr().err
