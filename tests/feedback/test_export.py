"""Votes exported as qrels, as eval's JSON-lines query set and as labels, counted per client
address, from Python and the CLI."""

import json
from pathlib import Path

from eval.querysets import load_queries
from search.__main__ import main
from search.feedback.export import export, labels, query_id, to_jsonl, to_qrels
from search.feedback.store import FeedbackStore, Vote


def _votes() -> list[Vote]:
    return [
        Vote("s1", "mul comm", "mathlib:mul_comm", 1, 1, address="a1"),
        Vote("s2", "mul comm", "mathlib:mul_comm", 1, 2, address="a2"),
        Vote("s1", "mul comm", "mathlib:add_comm", -1, 2, address="a1"),
        Vote("s2", "mul comm", "mathlib:mul_assoc", 1, 3, address="a2"),
        Vote("s3", "mul comm", "mathlib:mul_assoc", -1, 3, address="a3"),  # net 0: judged not relevant
        Vote("s1", "nothing good", "stacks:0001", -1, 1, address="a1"),
    ]


def test_qrels_sum_the_verdicts_of_addresses() -> None:
    q, n = query_id("mul comm"), query_id("nothing good")
    assert to_qrels(labels(_votes())) == [
        f"{q} 0 mathlib:mul_comm 1", f"{q} 0 mathlib:add_comm 0", f"{q} 0 mathlib:mul_assoc 0",
        f"{n} 0 stacks:0001 0",
    ]
    assert q == query_id("mul comm") != n and q.startswith("fb-") and len(q) == 15


def test_many_sessions_of_one_address_are_one_voice() -> None:
    """Twenty sessions from one address calling mul_comm relevant to the fundamental theorem
    of calculus weigh as one address, and one real voter from elsewhere outweighs nothing."""
    fake = [Vote(f"s{i}", "fundamental theorem of calculus", "mathlib:mul_comm", 1, 1, address="attacker")
            for i in range(20)]
    (label,) = labels(fake)
    assert (label.score, label.votes, label.addresses, label.single_address) == (1, 20, 1, True)
    assert labels(fake, min_addresses=2) == []
    honest = Vote("h", "fundamental theorem of calculus", "mathlib:mul_comm", -1, 1, address="reader")
    (label,) = labels([*fake, honest])
    assert (label.relevance, label.score, label.addresses) == (0, 0, 2)
    marked = [json.loads(line) for line in export(fake, "labels")]
    assert marked[0]["single_address"] is True and marked[0]["votes"] == 20


def test_votes_from_before_addresses_count_their_session() -> None:
    old = [Vote("s1", "q", "m:x", 1, 1), Vote("s2", "q", "m:x", 1, 1)]
    assert labels(old)[0].addresses == 2


def test_jsonl_is_a_query_set_that_eval_reads(tmp_path: Path) -> None:
    path = tmp_path / "feedback.jsonl"
    path.write_text("\n".join(to_jsonl(labels(_votes()))) + "\n")
    queries = load_queries(path)
    assert [(q.query, sorted(q.relevant), q.group) for q in queries] == [
        ("mul comm", ["mathlib:mul_comm"], {"group": "feedback"})
    ]
    assert json.loads(path.read_text().splitlines()[0])["addresses"] == {"mathlib:mul_comm": 2}


def test_cli_exports_from_the_database(tmp_path: Path, capsys) -> None:
    db = tmp_path / "f.sqlite"
    store = FeedbackStore(db)
    for vote in _votes():
        store.vote(vote)
    store.close()
    assert main(["feedback", "export", "--db", str(db)]) == 0
    printed = capsys.readouterr()
    assert printed.out.splitlines() == to_qrels(labels(_votes()))
    assert "4 labels from at least 1 address(es); 2 of them from a single address" in printed.err
    out = tmp_path / "f.jsonl"
    assert main(["feedback", "export", "--db", str(db), "--format", "jsonl", "--out", str(out)]) == 0
    assert out.read_text().splitlines() == to_jsonl(labels(_votes()))
    assert main(["feedback", "export", "--db", str(db), "--min-addresses", "2"]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{query_id('mul comm')} 0 mathlib:mul_comm 1",
                                                    f"{query_id('mul comm')} 0 mathlib:mul_assoc 0"]
    assert main(["feedback", "export", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "no feedback database" in capsys.readouterr().err
