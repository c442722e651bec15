"""`python -m eval check`: paths into JSON, verdicts, tables between markers in the README or a docs page, accepted
values written back, and one real condition rerun (the records of every shared corpus)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eval.__main__ import main
from eval.check import (CONDITIONS, FORMATS, Column, Runner, Condition, Row, _accept, Outcome, load_conditions, lookup,
                        marked_conditions, pages, pages_by_condition, rewrite, verdict)
from search import config

REPORT = {
    "summary": [
        {"variant": "bm25", "key": "all", "metrics": {"nDCG@10": {"mean": 0.4, "low": 0.3, "high": 0.5}}},
        {"variant": "default", "key": "all", "metrics": {"nDCG@10": {"mean": 0.6, "low": 0.5, "high": 0.7}}},
        {"variant": "text and name, best of", "key": "all", "metrics": {"nDCG@10": {"mean": 0.5}}},
    ],
    "latency": [10.0, 20.0],
}


def test_paths_select_list_elements_by_fields_or_position() -> None:
    assert lookup(REPORT, "summary[variant=default,key=all].metrics.nDCG@10")["mean"] == 0.6
    assert lookup(REPORT, "latency[1]") == 20.0
    assert lookup(REPORT, "summary[variant=text and name, best of,key=all].metrics.nDCG@10")["mean"] == 0.5
    for bad in ("summary[variant=rrf].metrics", "nope", "latency[5]", "summary.metrics"):
        with pytest.raises(KeyError):
            lookup(REPORT, bad)


def _condition(expected: dict[str, float], tolerance: float = 0.01) -> Condition:
    return Condition(
        name="demo", reports="a demo", command="python -m eval retrieval --out {out}", output="x.json",
        rows=[Row("bm25", "`bm25`"), Row("default", "**default**")],
        columns=[Column("nDCG@10", "summary[variant={row},key=all].metrics.nDCG@10")],
        expected=expected, tolerance=tolerance,
    )


def test_verdicts_compare_at_the_precision_shown_then_within_tolerance() -> None:
    column = _condition({}).columns[0]
    condition = _condition({"default.nDCG@10": 0.6004, "bm25.nDCG@10": 0.39})
    assert verdict(condition, "default.nDCG@10", {"mean": 0.6}, column) == "OK"
    assert verdict(condition, "default.nDCG@10", {"mean": 0.6, "low": 0.5, "high": 0.7}, column) == "OK"  # by its mean
    assert verdict(condition, "bm25.nDCG@10", {"mean": 0.4}, column) == "within tolerance"
    assert verdict(_condition({"bm25.nDCG@10": 0.3}), "bm25.nDCG@10", {"mean": 0.4}, column) == "FAIL"
    assert verdict(condition, "rrf.nDCG@10", {"mean": 0.4}, column) == "NEW"


def test_a_condition_on_postgresql_says_it_needs_a_server(tmp_path: Path) -> None:
    condition = Condition(name="pg", reports="x", command="python -m eval retrieval --index {postgres} --out {out}",
                          output="x.json", rows=[Row("default", "default")], columns=[Column("n", "a")])
    outcome = Runner(tmp_path, tmp_path).run(condition)
    assert outcome.values == {} and outcome.errors == [
        "needs --postgres DSN: a PostgreSQL server holding the index (docs/postgres.md)"]
    assert condition.command_line(condition.rows[0], tmp_path, tmp_path, {"postgres": "postgresql://h/db"})[5] == "postgresql://h/db"


def test_build_times_read_as_minutes_and_seconds() -> None:
    assert FORMATS["duration"](33.49) == "33.5 s" and FORMATS["duration"](1208.4) == "20 min 8 s"


def test_text_values_are_shown_compared_and_stored_as_text(tmp_path: Path) -> None:
    path = tmp_path / "conditions.yaml"
    path.write_text("- name: demo\n  reports: a demo\n  command: x\n  output: x.json\n  rows: [a]\n  columns:\n"
                    "    pattern: {path: p, format: code}\n    hits: {path: h, format: names}\n")
    demo = load_conditions(path)[0]
    pattern, hits = demo.columns
    measured = {"a.pattern": "|- _ < _", "a.hits": ["mul_comm", "add_comm", "Nat.mul_comm", "x"]}
    _accept(path, [Outcome(demo, measured, 1.0)])
    demo = load_conditions(path)[0]
    assert demo.expected == {"a.pattern": "|- _ < _", "a.hits": ["mul_comm", "add_comm", "Nat.mul_comm", "x"]}
    assert verdict(demo, "a.hits", ["mul_comm", "add_comm", "Nat.mul_comm"], hits) == "OK"  # the first three shown
    assert verdict(demo, "a.hits", ["add_comm", "mul_comm", "Nat.mul_comm"], hits) == "FAIL"
    assert verdict(demo, "a.pattern", "|- _ > _", pattern) == "FAIL"
    assert "| `\\|- _ < _` | `mul_comm`, `add_comm`, `Nat.mul_comm` |" in rewrite(
        "<!-- check:demo -->\n<!-- /check:demo -->", demo, measured)


def test_the_readme_table_between_markers_is_rewritten_and_nothing_else() -> None:
    condition = _condition({})
    text = "intro\n<!-- check:demo -->\nold table\n<!-- /check:demo -->\noutro\n"
    values = {"bm25.nDCG@10": REPORT["summary"][0]["metrics"]["nDCG@10"], "default.nDCG@10": 0.6}
    out = rewrite(text, condition, values)
    assert out.startswith("intro\n<!-- check:demo -->\n|  | nDCG@10 |") and out.endswith("<!-- /check:demo -->\noutro\n")
    assert "| `bm25` | 0.400 [0.300, 0.500] |" in out and "| **default** | 0.600 |" in out and "old table" not in out
    with pytest.raises(ValueError, match="no markers"):
        rewrite("no markers here", condition, values)


def test_accepted_values_are_written_back_and_read_again(tmp_path: Path) -> None:
    path = tmp_path / "conditions.yaml"
    path.write_text(
        "# comment kept\n- name: demo\n  reports: a demo\n  command: x\n  output: x.json\n  rows: [bm25]\n"
        "  columns:\n    n: {path: a}\n  expected:\n    bm25.n: 1\n\n"
        "- name: other\n  reports: b\n  command: y\n  output: y.json\n  rows: [a]\n  columns:\n    n: {path: b}\n"
    )
    demo = load_conditions(path)[0]
    _accept(path, [Outcome(demo, {"bm25.n": 2.5}, 1.0)])
    first, second = load_conditions(path)
    assert first.expected == {"bm25.n": 2.5} and second.name == "other" and second.expected == {}
    assert path.read_text().startswith("# comment kept\n")


def test_a_page_edited_while_a_check_runs_keeps_the_edit_and_gets_each_table(tmp_path: Path) -> None:
    """The first condition's command edits the page (as a person would during a long check); the
    second condition's table is written into the edited page, and both tables are accepted."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("no tables\n")
    page = tmp_path / "docs" / "page.md"
    page.write_text("start\n<!-- check:one -->\n<!-- /check:one -->\n<!-- check:two -->\n<!-- /check:two -->\n")
    (tmp_path / "measure.py").write_text(
        "import json, pathlib, sys\n"
        "out, value = pathlib.Path(sys.argv[1]), float(sys.argv[2])\n"
        "if len(sys.argv) > 3:\n"
        "    page = pathlib.Path(sys.argv[3])\n"
        "    page.write_text(page.read_text().replace('start', 'edited meanwhile'))\n"
        "out.mkdir(parents=True, exist_ok=True)\n"
        "(out / 'x.json').write_text(json.dumps({'a': value}))\n")
    conditions = tmp_path / "conditions.yaml"
    conditions.write_text("".join(
        f"- name: {name}\n  reports: {name}\n  command: python {{index}}/measure.py {{out}} {value}{extra}\n"
        f"  output: x.json\n  rows: [r]\n  columns:\n    n: {{path: a}}\n\n"
        for name, value, extra in [("one", 1.5, f" {page}"), ("two", 2.5, "")]))
    code = main(["check", "--index", str(tmp_path), "--root", str(tmp_path), "--conditions", str(conditions),
                 "--out", str(tmp_path / "out"), "--accept"])
    assert code == 0
    text = page.read_text()
    assert text.startswith("edited meanwhile\n") and "| `r` | 1.5" in text and "| `r` | 2.5" in text
    assert [c.expected for c in load_conditions(conditions)] == [{"r.n": 1.5}, {"r.n": 2.5}]


def test_every_condition_has_markers_in_one_page_and_every_marker_a_condition() -> None:
    names = [c.name for c in load_conditions(CONDITIONS)]
    marked = [name for page in pages() for name in marked_conditions(page.read_text(encoding="utf-8"))]
    assert sorted(marked) == sorted(names)  # each once: pages_by_condition refuses a name in two pages
    where = pages_by_condition()
    assert {page.relative_to(config.REPO_DIR).parts[0] for page in where.values()} <= {"README.md", "docs"}


def test_markers_are_found_in_the_readme_and_in_docs_pages_at_any_depth(tmp_path: Path) -> None:
    (tmp_path / "docs" / "deep").mkdir(parents=True)
    (tmp_path / "README.md").write_text("<!-- check:a -->\n<!-- /check:a -->\n")
    (tmp_path / "docs" / "deep" / "page.md").write_text("x\n<!-- check:b -->\nold\n<!-- /check:b -->\n")
    assert pages_by_condition(tmp_path) == {"a": tmp_path / "README.md", "b": tmp_path / "docs" / "deep" / "page.md"}
    (tmp_path / "docs" / "other.md").write_text("<!-- check:b -->\n<!-- /check:b -->\n")
    with pytest.raises(ValueError, match="condition b has markers in"):
        pages_by_condition(tmp_path)


def test_dry_run_lists_every_condition(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--dry-run"]) == 0
    listed = capsys.readouterr().out
    assert all(f"{c.name}: " in listed and "python -m" in listed for c in load_conditions(CONDITIONS))


@pytest.mark.integration
def test_the_record_counts_check_passes(shared_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rerun on a copy of the pages: the docs page holding the tables is rewritten in place, unchanged
    when the figures are; a page whose table was altered gets it back."""
    root = tmp_path / "pages"
    shutil.copytree(config.REPO_DIR / "docs", root / "docs", symlinks=True)
    shutil.copy(config.REPO_DIR / "README.md", root / "README.md")
    page = pages_by_condition(root)["records-default"]
    assert page.parent.name == "docs"
    original = page.read_text(encoding="utf-8")
    altered = original.replace("| **all** | 346,416 |", "| **all** | 1 |")
    assert altered != original
    page.write_text(altered, encoding="utf-8")
    code = main(["check", "--only", "records-default", "--only", "records-lean-kinds", "--root", str(root),
                 "--out", str(tmp_path / "out")])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "FAIL" not in printed and "NEW" not in printed and printed.count("  OK ") >= 9 + 30
    assert page.read_text(encoding="utf-8") == original
    assert {p.name: p.read_text(encoding="utf-8") for p in pages(root)} == {
        p.name: p.read_text(encoding="utf-8") for p in pages()}
