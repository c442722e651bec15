"""Collected votes as relevance labels for the evaluation.

A label is a (query, result) pair that someone voted on. Votes are counted per client
address, not per session, since one client can hold many sessions: an address's sessions
add up to one verdict (+1, -1 or 0) and the label's score is the sum of the addresses'
verdicts. A positive score makes the result relevant (1), zero or negative judged not
relevant (0). Each label says from how many distinct addresses its votes came; labels from
fewer than `min_addresses` are left out, and labels from a single address are marked.
Votes stored before addresses were kept count their session as their address.

Three forms:
- TREC qrels lines `query_id 0 doc_id relevance` (for ranx / trec_eval), with query ids
  `fb-` + the first 12 hex digits of the query's SHA-1, so that they are stable across exports;
- JSON lines `{"query", "relevant": [ids], "group": "feedback", "qid", "addresses"}`, the
  format that `eval/querysets.py` reads (`python -m eval retrieval --queries FILE`); queries
  without a relevant result are left out of this form;
- JSON lines of the labels themselves `{"qid", "query", "result_id", "relevance", "score",
  "votes", "addresses", "single_address"}`, to see what the labels rest on.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Iterable

from search.feedback.store import Vote

FORMATS = ("qrels", "jsonl", "labels")


@dataclass(frozen=True)
class Label:
    """What the votes on one result for one query add up to."""

    qid: str
    query: str
    result_id: str
    relevance: int
    score: int
    votes: int
    addresses: int

    @property
    def single_address(self) -> bool:
        return self.addresses == 1


def query_id(query: str) -> str:
    """A stable id for a query text."""
    return "fb-" + hashlib.sha1(query.encode("utf-8")).hexdigest()[:12]


def labels(votes: Iterable[Vote], min_addresses: int = 1) -> list[Label]:
    """One label per voted (query, result), in first-vote order, those from fewer than
    `min_addresses` distinct addresses left out."""
    table: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for v in votes:
        table[(v.query, v.result_id)][v.address or f"session:{v.session}"] += v.vote
        counts[(v.query, v.result_id)] += 1
    out = []
    for (query, result_id), by_address in table.items():
        if len(by_address) < min_addresses:
            continue
        score = sum((net > 0) - (net < 0) for net in by_address.values())
        out.append(Label(query_id(query), query, result_id, int(score > 0), score,
                         counts[(query, result_id)], len(by_address)))
    return out


def to_qrels(found: Iterable[Label]) -> list[str]:
    """TREC qrels lines, one per label."""
    return [f"{label.qid} 0 {label.result_id} {label.relevance}" for label in found]


def to_jsonl(found: Iterable[Label]) -> list[str]:
    """eval's JSON-lines query set: one line per query with at least one relevant result,
    most supported first, with the number of addresses behind each."""
    by_query: dict[str, list[Label]] = defaultdict(list)
    for label in found:
        if label.relevance:
            by_query[label.query].append(label)
    lines = []
    for query, relevant in by_query.items():
        relevant.sort(key=lambda label: -label.score)
        row = {"query": query, "relevant": [label.result_id for label in relevant], "group": "feedback",
               "qid": query_id(query), "addresses": {label.result_id: label.addresses for label in relevant}}
        lines.append(json.dumps(row, ensure_ascii=False))
    return lines


def to_labels(found: Iterable[Label]) -> list[str]:
    """Every label as a JSON line, `single_address` marking those from one address."""
    return [json.dumps({**asdict(label), "single_address": label.single_address}, ensure_ascii=False)
            for label in found]


def export(votes: Iterable[Vote], fmt: str, min_addresses: int = 1) -> list[str]:
    """Lines of the chosen form (`qrels`, `jsonl` or `labels`)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    found = labels(votes, min_addresses)
    return {"qrels": to_qrels, "jsonl": to_jsonl, "labels": to_labels}[fmt](found)
