"""Votes exported as qrels and as eval's JSON-lines query set, from Python and the CLI."""

from pathlib import Path

from eval.querysets import load_queries
from search.__main__ import main
from search.feedback.export import query_id, to_jsonl, to_qrels
from search.feedback.store import FeedbackStore, Vote


def _votes() -> list[Vote]:
    return [
        Vote("s1", "mul comm", "mathlib:mul_comm", 1, 1),
        Vote("s2", "mul comm", "mathlib:mul_comm", 1, 2),
        Vote("s1", "mul comm", "mathlib:add_comm", -1, 2),
        Vote("s2", "mul comm", "mathlib:mul_assoc", 1, 3),
        Vote("s3", "mul comm", "mathlib:mul_assoc", -1, 3),  # net 0: judged not relevant
        Vote("s1", "nothing good", "stacks:0001", -1, 1),
    ]


def test_qrels_sum_votes_over_sessions() -> None:
    q, n = query_id("mul comm"), query_id("nothing good")
    assert to_qrels(_votes()) == [
        f"{q} 0 mathlib:mul_comm 1", f"{q} 0 mathlib:add_comm 0", f"{q} 0 mathlib:mul_assoc 0",
        f"{n} 0 stacks:0001 0",
    ]
    assert q == query_id("mul comm") != n and q.startswith("fb-") and len(q) == 15


def test_jsonl_is_a_query_set_that_eval_reads(tmp_path: Path) -> None:
    path = tmp_path / "feedback.jsonl"
    path.write_text("\n".join(to_jsonl(_votes())) + "\n")
    queries = load_queries(path)
    assert [(q.query, sorted(q.relevant), q.group) for q in queries] == [
        ("mul comm", ["mathlib:mul_comm"], {"group": "feedback"})
    ]


def test_cli_exports_from_the_database(tmp_path: Path, capsys) -> None:
    db = tmp_path / "f.sqlite"
    store = FeedbackStore(db)
    for vote in _votes():
        store.vote(vote)
    store.close()
    assert main(["feedback", "export", "--db", str(db)]) == 0
    assert capsys.readouterr().out.splitlines() == to_qrels(_votes())
    out = tmp_path / "f.jsonl"
    assert main(["feedback", "export", "--db", str(db), "--format", "jsonl", "--out", str(out)]) == 0
    assert out.read_text().splitlines() == to_jsonl(_votes())
    assert main(["feedback", "export", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "no feedback database" in capsys.readouterr().err
