from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from eval.querysets import QuerySetError, detect_format, load_queries


@pytest.fixture
def queries_dir(fixtures_dir: Path) -> Path:
    return fixtures_dir / "queries"


def test_mathlibqr_one_query_per_present_style(queries_dir: Path) -> None:
    queries = load_queries(queries_dir / "mathlibqr_small.json")
    assert [q.qid for q in queries] == [
        "A1:lean", "A1:latex", "A1:natural", "A1:slogan", "A1:nickname",
        "B7:lean", "B7:latex", "B7:natural", "B7:special_case",
    ]
    first, last = queries[0], queries[-1]
    assert first.relevant == frozenset({"LieRing"})
    assert first.group == {"style": "lean", "difficulty": "Easy", "kind": "class", "fair_subset": "true"}
    assert last.query == "from 2 ≤ 3 get 3 ≤ 4"
    assert last.group == {"style": "special_case", "difficulty": "Hard", "kind": "theorem",
                          "fair_subset": "false"}


def test_fair_only_keeps_the_fair_subset(queries_dir: Path) -> None:
    queries = load_queries(queries_dir / "mathlibqr_small.json", fair_only=True)
    assert {q.qid.split(":")[0] for q in queries} == {"A1"}


def test_jsonl_with_dict_string_and_no_group(queries_dir: Path) -> None:
    queries = load_queries(queries_dir / "small.jsonl")
    assert detect_format((queries_dir / "small.jsonl").read_text()) == "jsonl"
    assert [q.qid for q in queries] == ["line1", "line3", "line4"]  # the blank line 2 is skipped
    assert queries[0].group == {"style": "natural", "source": "feedback"}
    assert queries[1].relevant == frozenset({"LieRing", "LieAlgebra"})
    assert queries[1].group == {"group": "nickname"}
    assert queries[2].group == {}
    with pytest.raises(QuerySetError, match="no queries in the fair subset"):
        load_queries(queries_dir / "small.jsonl", fair_only=True)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("bad.jsonl", '{"query": "a", "relevant": ["x"]}\n{"query": "b", "relevant": [\n', r"bad\.jsonl:2: invalid JSON"),
        ("norel.jsonl", '{"query": "a", "relevant": ["x"]}\n\n{"query": "b", "relevant": []}\n',
         r"norel\.jsonl:3: 'relevant' must be a non-empty list"),
        ("noquery.jsonl", '{"relevant": ["x"]}\n', r"noquery\.jsonl:1: 'query' must be"),
        ("list.json", '[\n {"id": "A1",\n  "full_name": "X",\n  oops}\n]\n', r"list\.json:4: invalid JSON"),
        ("short.json", '[{"id": "A1", "full_name": "X"}]', r"short\.json: entry 1 \(A1\) lacks q1a_lean"),
        ("empty.jsonl", "\n\n", r"empty\.jsonl: no queries"),
    ],
)
def test_malformed_files_name_file_and_line(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(QuerySetError, match=message):
        load_queries(path)


@pytest.mark.integration
def test_real_mathlibqr_dev(shared_dir: Path) -> None:
    queries = load_queries(shared_dir / "queries" / "mathlibqr_dev.json")
    assert len(queries) == 474
    assert len({q.qid.split(":")[0] for q in queries}) == 99
    assert all(len(q.relevant) == 1 for q in queries)
    assert Counter(q.group["style"] for q in queries) == {
        "lean": 98, "latex": 99, "natural": 98, "slogan": 98, "nickname": 68, "special_case": 13,
    }
    assert Counter(q.group["difficulty"] for q in queries).keys() == {"Easy", "Hard"}
    fair = load_queries(shared_dir / "queries" / "mathlibqr_dev.json", fair_only=True)
    assert len(fair) == sum(q.group["fair_subset"] == "true" for q in queries) < 474
