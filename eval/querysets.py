"""Labelled query sets: one `LabelledQuery` per query, whatever file format it came in.

Two formats are read, told apart by content so that a file needs no flag:
- MathlibQR (a JSON list, one object per target declaration, up to six query styles each;
  the gold is the bare declaration name `full_name`);
- JSON lines, one `{"query": ..., "relevant": [ids or names], "group": str or dict}` a line,
  for hand-made sets and collected feedback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eval.jsonlines import json_objects

#: MathlibQR query fields and the short style names used in reports.
MATHLIBQR_STYLES = {
    "q1a_lean": "lean",
    "q1b_latex": "latex",
    "q1c_natural": "natural",
    "q2_slogan": "slogan",
    "q3_nickname": "nickname",
    "q4_special_case": "special_case",
}


class QuerySetError(ValueError):
    """A query file that cannot be read; the message names the file and the line or entry."""


@dataclass
class LabelledQuery:
    """One query with its gold answers.

    `relevant` holds record ids (`mathlib:Nat.succ_le_succ`) or bare names (`Nat.succ_le_succ`);
    `group` holds the labels that reports break results down by (style, difficulty, ...).
    """

    qid: str
    query: str
    relevant: frozenset[str]
    group: dict[str, str] = field(default_factory=dict)
    #: Filters the query is searched with (`{"language": ["lean"]}`: formal statements only).
    filters: dict[str, list[str]] = field(default_factory=dict)


def detect_format(text: str) -> str:
    """`"mathlibqr"` for a JSON list, `"jsonl"` otherwise (JSON lines start with an object)."""
    return "mathlibqr" if text.lstrip().startswith("[") else "jsonl"


def load_queries(path: Path | str, fair_only: bool = False) -> list[LabelledQuery]:
    """Every query of a MathlibQR or JSON-lines file.

    By default all queries are kept (for MathlibQR's dev half: 99 targets, 474 queries);
    `fair_only` keeps the queries labelled `fair_subset=true`, the targets the published
    MathlibQR comparison is restricted to.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise QuerySetError(f"{path}: cannot be read ({error})") from error
    if detect_format(text) == "mathlibqr":
        queries = _mathlibqr(path, text)
    else:
        queries = _jsonl(path, text)
    if fair_only:
        queries = [q for q in queries if q.group.get("fair_subset") == "true"]
    if not queries:
        raise QuerySetError(f"{path}: no queries" + (" in the fair subset" if fair_only else ""))
    return queries


def _mathlibqr(path: Path, text: str) -> list[LabelledQuery]:
    try:
        entries = json.loads(text)
    except json.JSONDecodeError as error:
        raise QuerySetError(f"{path}:{error.lineno}: invalid JSON ({error.msg})") from error
    queries = []
    for number, entry in enumerate(entries, 1):
        where = f"{path}: entry {number}"
        if not isinstance(entry, dict):
            raise QuerySetError(f"{where} is not a JSON object")
        missing = [k for k in ("id", "full_name", *MATHLIBQR_STYLES) if k not in entry]
        if missing:
            raise QuerySetError(f"{where} ({entry.get('id', '?')}) lacks {', '.join(missing)}")
        labels = {
            "difficulty": str(entry.get("difficulty", "")),
            "kind": str(entry.get("kind", "")),
            "fair_subset": "true" if entry.get("fair_subset") else "false",
        }
        for key, style in MATHLIBQR_STYLES.items():
            if str(entry[key]).strip():
                queries.append(
                    LabelledQuery(
                        qid=f"{entry['id']}:{style}",
                        query=str(entry[key]).strip(),
                        relevant=frozenset([str(entry["full_name"])]),
                        group={"style": style, **labels},
                    )
                )
    return queries


def _jsonl(path: Path, text: str) -> list[LabelledQuery]:
    queries = []
    for number, row in json_objects(text, path, QuerySetError):
        where = f"{path}:{number}"
        query, relevant = row.get("query"), row.get("relevant")
        if not isinstance(query, str) or not query.strip():
            raise QuerySetError(f"{where}: 'query' must be a non-empty string")
        if not isinstance(relevant, list) or not relevant or not all(isinstance(r, str) for r in relevant):
            raise QuerySetError(f"{where}: 'relevant' must be a non-empty list of ids or names")
        queries.append(
            LabelledQuery(f"line{number}", query.strip(), frozenset(relevant), _group(where, row.get("group")))
        )
    return queries


def _group(where: str, value: Any) -> dict[str, str]:
    """A JSON-lines `group`: a dict of labels, or a single label filed under `group`."""
    if value is None:
        return {}
    if isinstance(value, str):
        return {"group": value}
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    raise QuerySetError(f"{where}: 'group' must be a string or an object")
