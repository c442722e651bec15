"""What LeanSearchClient (Mathlib's `#leansearch`, `#loogle`, `#statesearch`) sends and reads.

Transcribed from leanprover-community/LeanSearchClient (`LeanSearchClient/Syntax.lean`,
`LoogleSyntax.lean`, `Basic.lean`): the curl arguments become an HTTP request, and the
answer is read field by field as the Lean code does, raising where the Lean code throws.
`escape_uri` is Lean core's `System.Uri.escapeUri`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

#: `leansearchclient.useragent`'s default, sent by curl's `--user-agent`.
USER_AGENT = "LeanSearchClient"
#: `statesearch.revision`'s default is `v{Lean.versionString}`.
LEAN_REVISION = "v4.16.0"
_RESERVED = set(";:?#[]@&=+$,!'()*% ")


class LeanClientError(Exception):
    """Where the Lean code calls `IO.throwServerError`."""


@dataclass
class SearchResult:
    name: str
    type: str | None
    doc: str | None
    doc_url: str | None
    kind: str | None


def escape_uri(text: str) -> str:
    """Reserved characters, controls and non-ASCII (as UTF-8 bytes) become %HH."""
    out = []
    for char in text:
        if char in _RESERVED or char < " ":
            out.append(f"%{ord(char):02X}")
        elif ord(char) < 127:
            out.append(char)
        else:
            out.append("".join(f"%{byte:02X}" for byte in char.encode("utf-8")))
    return "".join(out)


def leansearch_request(query: str, num_results: int = 6) -> dict[str, Any]:
    """`curl -X POST URL --user-agent .. -H "accept: application/json" -H "Content-Type:
    application/json" --data <Json.pretty>`; Lean's JSON objects print their keys sorted."""
    body = json.dumps({"query": [query], "num_results": num_results}, sort_keys=True, ensure_ascii=False)
    return {
        "headers": {"user-agent": USER_AGENT, "accept": "application/json", "content-type": "application/json"},
        "content": body.encode("utf-8"),
    }


def parse_leansearch(text: str) -> list[SearchResult]:
    """`getLeanSearchQueryJson` then `ofLeanSearchJson?` on each hit of the first inner list."""
    try:
        outer = json.loads(text)
    except json.JSONDecodeError as error:
        raise LeanClientError(f"Could not parse response from LeanSearch server, error: {error}") from error
    if not isinstance(outer, list):
        raise LeanClientError(f"Could not obtain outer array from {outer}")
    inner = outer[0]  # `jsArr[0]!`: panics on an empty array
    if not isinstance(inner, list):
        raise LeanClientError(f"Could not obtain inner array from {outer}")
    results = []
    for hit in inner:
        result = hit.get("result") if isinstance(hit, dict) else None
        if not isinstance(result, dict):
            continue
        parts = result.get("name")
        if not (isinstance(parts, list) and all(isinstance(p, str) for p in parts)):
            continue
        doc = _string(result, "docstring")
        results.append(SearchResult(
            name=".".join(parts), type=_string(result, "type"), doc=doc or None,
            doc_url=_string(result, "doc_url"), kind=_string(result, "kind"),
        ))
    return results


def loogle_path(query: str) -> str | None:
    """`getLoogleQueryJson`: comments cut, newlines made spaces; None for an empty query
    (the client shows its usage text and sends nothing)."""
    query = query.split("/-")[0].strip().replace("\n", " ")
    if not query.strip():
        return None
    return f"?q={escape_uri(query)}"


def parse_loogle(text: str, num_results: int = 6) -> tuple[list[SearchResult], str | None, list[str] | None]:
    """(hits, error, suggestions) as `getLoogleQueryJson` reads them."""
    try:
        answer = json.loads(text)
    except json.JSONDecodeError as error:
        raise LeanClientError("Could not contact Loogle server") from error
    hits = answer.get("hits")
    if hits is not None:
        if not isinstance(hits, list):
            raise LeanClientError(f"Could not obtain array from {answer}")
        results = []
        for hit in hits[:num_results]:
            name, type_ = hit.get("name"), hit.get("type")
            if not (isinstance(name, str) and isinstance(type_, str)):
                raise LeanClientError(f"Could not obtain name and type from {hit}")
            results.append(SearchResult(name, type_, _string(hit, "doc"), None, None))
        return results, None, None
    error = answer.get("error")
    if not isinstance(error, str):
        raise LeanClientError(f"Could not obtain hits or error from {answer}")
    suggestions = answer.get("suggestions")
    valid = isinstance(suggestions, list) and all(isinstance(s, str) for s in suggestions)
    return [], error, suggestions if valid else None


def statesearch_path(goal: str, num_results: int = 6, rev: str = LEAN_REVISION) -> str:
    return f"?query={escape_uri(goal)}&results={num_results}&rev={rev}"


def parse_statesearch(text: str) -> list[SearchResult]:
    """`getStateSearchQueryJson` then `ofStateSearchJson?`."""
    try:
        answer = json.loads(text)
    except json.JSONDecodeError as error:
        raise LeanClientError("Could not contact LeanStateSearch server") from error
    if not isinstance(answer, list):
        error, schema = answer.get("error"), answer.get("schema")
        if error is None or not isinstance(schema, dict) or "description" not in schema:
            raise LeanClientError("array expected")
        raise LeanClientError(f"error: {error}\ndescription: {schema['description']}")
    results = []
    for hit in answer:
        if isinstance(hit.get("name"), str):
            doc = _string(hit, "doc")
            results.append(SearchResult(hit["name"], _string(hit, "formal_type"), doc or None, None, _string(hit, "kind")))
    return results


def _string(obj: dict[str, Any], key: str) -> str | None:
    value = obj.get(key)
    return value if isinstance(value, str) else None
