"""The judged comparison end to end: export (ours on a tiny index, two services on local servers),
judging by a local OpenAI-compatible server with scripted verdicts, tables checked by hand."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from eval.__main__ import main
from eval.engines.base import Answer, Hit
from eval.judge.prompt import format_answer
from search import config
from tests.eval.servers import Request, serve

ENGINES = ("ours:default", "leansearch", "leanexplore")
# Scripted rankings per query, in call order (runs 1, 2, 3 and retries); GARBAGE is unreadable.
GARBAGE = "All three are good.\n**Engine A** wins."
SCRIPT = {
    "semigroup": [["leanexplore", "ours:default", "leansearch"],
                  [("ours:default", "leanexplore"), "leansearch"],
                  ["leansearch", "ours:default", "leanexplore"]],
    "successor": [GARBAGE, ["ours:default", ("leansearch", "leanexplore")],  # run 1 needs a retry
                  [("ours:default", "leansearch", "leanexplore")],
                  GARBAGE, GARBAGE, GARBAGE],  # run 3 stays unreadable after 3 attempts
}


def leansearch(request: Request) -> tuple[int, object]:
    query = request.body["query"][0]
    if query == "broken":
        return 404, {"detail": "not found"}
    return 200, [[{"result": {"name": ["LS", query], "kind": "theorem", "signature": ": True"}, "distance": 0.1}]]


def leanexplore(request: Request) -> tuple[int, object]:
    query = request.query["q"][0]
    return 200, {"results": [{"name": f"LE.{query}", "source_text": "theorem x : True", "docstring": None,
                              "informalization": "Something true."}]}


class ScriptedJudge:
    """An OpenAI-compatible chat endpoint that ranks engines as SCRIPT says, reading which label
    each engine got from the prompt (our results are the block with neither marker)."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = {}

    def __call__(self, request: Request) -> tuple[int, object]:
        assert request.path == "/v1/chat/completions" and request.body["model"] == "scripted"
        assert request.headers["Authorization"] == "Bearer judge-key"
        system, user = (m["content"] for m in request.body["messages"])
        assert "Engine A" in system
        query = re.search(r'Query: "(.*)"', user).group(1)
        blocks = dict(re.findall(r"===== (Engine [ABC]) =====\n(.*?)(?=\n===== |\Z)", user, re.S))
        label = {"leansearch": next(l for l, b in blocks.items() if "LS." in b),
                 "leanexplore": next(l for l, b in blocks.items() if "LE." in b)}
        label["ours:default"] = next(l for l in blocks if l not in label.values())
        step = self.calls.get(query, 0)
        self.calls[query] = step + 1
        scripted = SCRIPT[query][step]
        if isinstance(scripted, str):
            content = scripted
        else:
            groups = [group if isinstance(group, tuple) else (group,) for group in scripted]
            content = "Reasons.\n" + ", ".join(" = ".join(label[e] for e in g) for g in groups)
        return 200, {"choices": [{"message": {"role": "assistant", "content": content}}]}


@pytest.fixture(scope="module")
def export_dir(tmp_path_factory: pytest.TempPathFactory, tiny_index: Path) -> Path:
    """One export for the module (searching is the slow part); tests work on copies."""
    tmp_path = tmp_path_factory.mktemp("export")
    queries = tmp_path / "queries.txt"
    queries.write_text("semigroup\nbroken\nsuccessor\n")
    with pytest.MonkeyPatch.context() as monkeypatch, serve(leansearch) as ls, serve(leanexplore) as le:
        monkeypatch.setattr(config, "LEANSEARCH_URL", ls.url + "/search")
        monkeypatch.setattr(config, "LEANEXPLORE_URL", le.url + "/api/v2/search")
        code = main(["judge", "export", "--engines", ",".join(ENGINES), "--queries", str(queries),
                     "--index", str(tiny_index), "--out", str(tmp_path / "judge"), "--cache", str(tmp_path / "cache")])
    assert code == 0
    return tmp_path / "judge"


@pytest.fixture
def exported(export_dir: Path, tmp_path: Path) -> Path:
    """The prompt file of a fresh copy of the export."""
    for path in export_dir.iterdir():
        shutil.copy(path, tmp_path / path.name)
    return tmp_path / "queries.prompts.jsonl"


def test_export_is_blind_records_the_order_and_leaves_out_failed_answers(exported: Path) -> None:
    prompts = [json.loads(line) for line in exported.read_text().splitlines()]
    trials = [json.loads(line) for line in exported.with_name("queries.trials.jsonl").read_text().splitlines()]
    meta = json.loads(exported.with_name("queries.export.json").read_text())
    assert [p["id"] for p in prompts] == [t["id"] for t in trials] == [
        "q001-r1", "q003-r1", "q001-r2", "q003-r2", "q001-r3", "q003-r3"]
    text = json.dumps(prompts)
    assert not any(name in text for name in ("leansearch", "leanexplore", "ours:"))
    assert all(sorted(t["order"]) == ["Engine A", "Engine B", "Engine C"]
               and sorted(t["order"].values()) == sorted(ENGINES) for t in trials)
    assert len({tuple(t["order"].values()) for t in trials}) > 1  # drawn per query and run
    assert meta["skipped"] == [{"query": "broken", "engine": "leansearch", "error": meta["skipped"][0]["error"]}]
    assert "HTTP 404" in meta["skipped"][0]["error"] and meta["engines"] == list(ENGINES)
    user = prompts[0]["messages"][1]["content"]
    assert "Docstring:\nN/A" in user and "Informal description:\nSomething true." in user


def test_judged_comparison_end_to_end(exported: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("JUDGE_API_KEY", "judge-key")
    judge = ScriptedJudge()
    with serve(judge) as server:
        assert main(["judge", "run", "--prompts", str(exported), "--base-url", server.url + "/v1",
                     "--model", "scripted"]) == 0
    assert judge.calls == {"semigroup": 3, "successor": 6}
    printed = capsys.readouterr().out
    assert "| `ours:default` | 50.0 ± 28.9 | 50.0 ± 28.9 | 0.0 ± 0.0 |" in printed
    data = json.loads(exported.with_name("queries.tables.json").read_text())
    assert (data["trials"], data["judged"], data["unjudged"]) == (6, 5, 0)
    assert [u["id"] for u in data["unreadable"]] == ["q003-r3"] and data["judges"] == ["scripted"]
    # Hand computation. Places per run (O = ours, S = LeanSearch, E = LeanExplore):
    # run 1: semigroup E1 O2 S3, successor O1 S2 E2; run 2: semigroup O1 E1 S3, successor all 1st;
    # run 3: semigroup S1 O2 E3 (successor unreadable, so run 3 has one trial).
    places = {row["engine"]: [row[p]["per_run"] for p in ("1st", "2nd", "3rd")] for row in data["places"]}
    assert places == {
        "ours:default": [[50, 100, 0], [50, 0, 100], [0, 0, 0]],
        "leansearch": [[0, 50, 100], [50, 0, 0], [50, 50, 0]],
        "leanexplore": [[50, 100, 0], [50, 0, 0], [0, 0, 100]],
    }
    ours_first = data["places"][0]["1st"]
    assert ours_first["mean"] == pytest.approx(50) and ours_first["se"] == pytest.approx(50 / 3 ** 0.5)
    third = data["places"][2]["3rd"]  # leanexplore: 0, 0, 100
    assert third["mean"] == pytest.approx(100 / 3) and third["se"] == pytest.approx(100 / 3)
    pairs = {(h["first"], h["second"]): [h[k]["per_run"] for k in ("first_wins", "second_wins", "ties")]
             for h in data["head_to_head"]}
    assert pairs == {
        ("ours:default", "leansearch"): [[100, 50, 0], [0, 0, 100], [0, 50, 0]],
        ("ours:default", "leanexplore"): [[50, 0, 100], [50, 0, 0], [0, 100, 0]],
        ("leansearch", "leanexplore"): [[0, 0, 100], [50, 50, 0], [50, 50, 0]],
    }
    markdown = exported.with_name("queries.tables.md").read_text()
    assert "| `leansearch` vs `leanexplore` | `leansearch` wins | 33.3 ± 33.3 |" in markdown
    assert "|  | `leanexplore` wins | 33.3 ± 16.7 |" in markdown

    # The same verdicts imported from a file give the same tables; `tables` rebuilds them offline.
    verdicts = exported.with_name("queries.verdicts.jsonl")
    copy = exported.parent / "elsewhere.jsonl"
    copy.write_text(verdicts.read_text())
    out = exported.parent / "imported"
    assert main(["judge", "import", str(copy), "--prompts", str(exported), "--out", str(out)]) == 0
    again = json.loads((out / "queries.tables.json").read_text())
    assert again["places"] == data["places"] and again["head_to_head"] == data["head_to_head"]
    (out / "queries.tables.json").unlink()
    assert main(["judge", "tables", "--prompts", str(exported), "--verdicts", str(out / "queries.verdicts.jsonl")]) == 0
    assert json.loads((out / "queries.tables.json").read_text())["places"] == data["places"]


def test_judge_run_gives_up_on_a_dead_endpoint_and_resumes(exported: Path, capsys) -> None:
    with serve(lambda r: (400, {"error": {"message": "unknown model"}})) as server:
        assert main(["judge", "run", "--prompts", str(exported), "--base-url", server.url, "--model", "m"]) == 1
    assert "failed 5 trials in a row" in capsys.readouterr().err and len(server.requests) == 5
    saved = exported.with_name("queries.verdicts.jsonl")
    assert [json.loads(line)["error"].startswith("judge: HTTP 400") for line in saved.read_text().splitlines()] == [True] * 5
    answer = {"choices": [{"message": {"content": "Same.\nEngine A = Engine B = Engine C"}}]}
    with serve(lambda r: (200, answer)) as server:
        assert main(["judge", "run", "--prompts", str(exported), "--base-url", server.url, "--model", "m"]) == 0
    assert len(server.requests) == 6  # the five failed trials and the one never judged
    assert len(saved.read_text().splitlines()) == 6
    data = json.loads(exported.with_name("queries.tables.json").read_text())
    assert data["judged"] == 6 and data["places"][0]["1st"]["per_run"] == [100, 100, 100]


def test_export_refuses_a_wrong_number_of_engines_before_searching(tmp_path: Path, capsys) -> None:
    assert main(["judge", "export", "--engines", "ours:default,ours:bm25", "--index", str(tmp_path)]) == 1
    assert "give exactly 3 engines, not 2" in capsys.readouterr().err


def test_import_refuses_foreign_ids(exported: Path, capsys) -> None:
    bad = exported.parent / "bad.jsonl"
    bad.write_text('{"id": "q999-r1", "response": "Engine A, Engine B, Engine C"}\n')
    assert main(["judge", "import", str(bad), "--prompts", str(exported)]) == 1
    assert "'q999-r1' is not a trial of this export" in capsys.readouterr().err
    assert main(["judge", "run", "--prompts", str(exported), "--base-url", "", "--model", ""]) == 1
    assert "give --base-url and --model" in capsys.readouterr().err


def test_tables_skip_without_verdicts_or_export(exported: Path, tmp_path: Path, capsys) -> None:
    assert main(["judge", "tables", "--prompts", str(exported)]) == 0
    assert "skipped, no verdicts at" in capsys.readouterr().out
    assert main(["judge", "tables", "--prompts", str(tmp_path / "none.prompts.jsonl")]) == 0
    assert "skipped, no export at" in capsys.readouterr().out


def test_refusals_are_shown_and_failures_are_not() -> None:
    refused = Answer("loogle", "group", 5, "rejected", error="Loogle: unknown identifier 'group'")
    assert "answered with an error: Loogle: unknown identifier" in format_answer(refused)
    assert format_answer(Answer("x", "q", 5, "ok")) == "The engine returned no results."
    shown = format_answer(Answer("x", "q", 2, "ok", hits=[Hit(name="h1", kind="theorem", code="h1 : True"),
                                                        Hit(name="h2", informal="Two.")]))
    assert shown == ("RESULT 1\nName: h1 (theorem)\nCode:\nh1 : True\nDocstring:\nN/A\nInformal description:\nN/A"
                     "\n\nRESULT 2\nName: h2\nCode:\nN/A\nDocstring:\nN/A\nInformal description:\nTwo.")
    with pytest.raises(ValueError, match="not judged"):
        format_answer(Answer("x", "q", 5, "failed", error="timeout"))


def test_python_m_eval_runs_every_offline_part(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys) -> None:
    import eval.__main__ as cli

    monkeypatch.setattr(cli, "OFFLINE", (("embeddings", "--index", str(tmp_path / "none")),
                                         ("judge", "tables", "--prompts", str(tmp_path / "x.prompts.jsonl"))))
    assert main([]) == 0
    printed = capsys.readouterr().out
    assert "embeddings: skipped" in printed and "judge tables: skipped, no export" in printed
