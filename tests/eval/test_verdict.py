"""The strict ranking-line parser, places with ties, and verdict files."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval.judge.verdict import (
    Verdict, VerdictError, VerdictFileError, parse_ranking, parse_verdict, places, read_verdicts,
)


@pytest.mark.parametrize(("line", "ranking"), [
    ("Engine B, Engine A, Engine C", [["B"], ["A"], ["C"]]),
    ("Engine A = Engine B, Engine C", [["A", "B"], ["C"]]),
    ("Engine A, Engine B = Engine C", [["A"], ["B", "C"]]),
    ("Engine A = Engine B = Engine C", [["A", "B", "C"]]),
    ("Engine C,Engine A  =  Engine B", [["C"], ["A", "B"]]),  # spacing around separators is free
])
def test_valid_lines(line: str, ranking: list[list[str]]) -> None:
    assert parse_ranking(line) == ranking


@pytest.mark.parametrize(("line", "reason"), [
    ("Engine A, Engine B", "leaves out Engine C"),  # missing engine
    ("Engine A, Engine B, Engine A", "Engine A is ranked twice"),  # duplicate
    ("Engine A = Engine A, Engine B, Engine C", "ranked twice"),
    ("Ranking: Engine A, Engine B, Engine C", "'Ranking: Engine A' is not an engine label"),  # stray text
    ("Engine A, Engine B, Engine C.", "'Engine C.' is not an engine label"),
    ("**Engine A**, Engine B, Engine C", "not an engine label"),
    ("Engine A > Engine B > Engine C", "not an engine label"),
    ("engine a, engine b, engine c", "not an engine label"),
    ("Engine A, Engine B, Engine D", "Engine D was not among the engines shown"),
    ("Engine A,, Engine B, Engine C", "empty place"),
    ("Engine A, Engine B = , Engine C", "empty place"),
])
def test_invalid_lines(line: str, reason: str) -> None:
    with pytest.raises(VerdictError, match=reason.replace("*", r"\*")):
        parse_ranking(line)


def test_the_last_non_empty_line_is_the_ranking() -> None:
    text = "Engine A finds the definition first.\nEngine C finds nothing.\n\nEngine A, Engine B = Engine C\n\n"
    assert parse_verdict(text) == [["A"], ["B", "C"]]
    with pytest.raises(VerdictError, match="not an engine label"):
        parse_verdict("Engine A, Engine B, Engine C\nI hope this helps.")  # reasoning after the line
    with pytest.raises(VerdictError, match="empty"):
        parse_verdict("  \n")


def test_places_use_competition_ranking() -> None:
    assert places([["A", "B"], ["C"]]) == {"A": 1, "B": 1, "C": 3}
    assert places([["A"], ["B", "C"]]) == {"A": 1, "B": 2, "C": 2}
    assert places([["C"], ["A"], ["B"]]) == {"C": 1, "A": 2, "B": 3}
    assert places([["A", "B", "C"]]) == {"A": 1, "B": 1, "C": 1}


def test_verdict_files_are_checked_against_the_export(tmp_path: Path) -> None:
    path = tmp_path / "verdicts.jsonl"
    path.write_text('{"id": "q001-r1", "response": "fine\\nEngine A, Engine B, Engine C", "judge": "me"}\n'
                    '{"id": "q002-r1", "error": "endpoint down"}\n')
    verdicts = read_verdicts(path, {"q001-r1", "q002-r1"})
    assert verdicts["q001-r1"].ranking() == [["A"], ["B"], ["C"]] and verdicts["q001-r1"].judge == "me"
    assert not verdicts["q002-r1"].readable
    with pytest.raises(VerdictError, match="endpoint down"):
        verdicts["q002-r1"].ranking()
    with pytest.raises(VerdictFileError, match=r"verdicts.jsonl:1: 'q001-r1' is not a trial"):
        read_verdicts(path, {"q002-r1"})
    path.write_text('{"id": "q001-r1", "response": "x"}\n{"id": "q001-r1", "response": "y"}\n')
    with pytest.raises(VerdictFileError, match=":2: a second verdict for q001-r1"):
        read_verdicts(path, {"q001-r1"})
    assert read_verdicts(path, {"q001-r1"}, repeats=True)["q001-r1"] == Verdict("q001-r1", "y")
    path.write_text('{"id": "q001-r1", "response": 3}\n')
    with pytest.raises(VerdictFileError, match="'response' must be a string"):
        read_verdicts(path, {"q001-r1"})
    path.write_text("not json\n")
    with pytest.raises(VerdictFileError, match=":1: invalid JSON"):
        read_verdicts(path, {"q001-r1"})
