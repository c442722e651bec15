"""Collected votes as relevance labels for the evaluation.

Votes on one (query, result) pair from all sessions are summed: a positive sum makes the result
relevant (1), zero or negative judged not relevant (0). Two forms:
- TREC qrels lines `query_id 0 doc_id relevance` (for ranx / trec_eval), with query ids
  `fb-` + the first 12 hex digits of the query's SHA-1, so that they are stable across exports;
- JSON lines `{"query", "relevant": [ids], "group": "feedback", "qid"}`, the format that
  `eval/querysets.py` reads (`python -m eval retrieval --queries FILE`); queries without a
  positive vote have no relevant result and are left out of this form.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from typing import Iterable

from search.feedback.store import Vote

FORMATS = ("qrels", "jsonl")


def query_id(query: str) -> str:
    """A stable id for a query text."""
    return "fb-" + hashlib.sha1(query.encode("utf-8")).hexdigest()[:12]


def net_votes(votes: Iterable[Vote]) -> dict[str, dict[str, int]]:
    """query -> result id -> sum of votes, in first-vote order."""
    table: dict[str, dict[str, int]] = defaultdict(dict)
    for v in votes:
        table[v.query][v.result_id] = table[v.query].get(v.result_id, 0) + v.vote
    return table


def to_qrels(votes: Iterable[Vote]) -> list[str]:
    """TREC qrels lines, one per voted (query, result) pair."""
    return [
        f"{query_id(query)} 0 {result_id} {1 if total > 0 else 0}"
        for query, results in net_votes(votes).items()
        for result_id, total in results.items()
    ]


def to_jsonl(votes: Iterable[Vote]) -> list[str]:
    """eval's JSON-lines query set: one line per query with at least one relevant result."""
    lines = []
    for query, results in net_votes(votes).items():
        relevant = sorted((r for r, total in results.items() if total > 0), key=lambda r: -results[r])
        if relevant:
            row = {"query": query, "relevant": relevant, "group": "feedback", "qid": query_id(query)}
            lines.append(json.dumps(row, ensure_ascii=False))
    return lines


def export(votes: Iterable[Vote], fmt: str) -> list[str]:
    """Lines of the chosen form (`qrels` or `jsonl`)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return to_qrels(votes) if fmt == "qrels" else to_jsonl(votes)
