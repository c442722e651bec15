"""Loogle (loogle.lean-lang.org), search of Mathlib by constants, name parts and type patterns.

Request: `GET {url}?q=QUERY` (the JSON endpoint that LeanSearchClient's `#loogle` calls).

Answer: either `{"count": n, "header": str, "hits": [{"name", "type", "module", "doc"}, ...]}`
(`doc` may be null; `count` counts all matches, `hits` holds the first ones), or, when
Loogle cannot read the query (plain English usually fails: "unknown identifier"),
`{"error": str, "suggestions": [str, ...]}`. The latter is Loogle's own answer to the query,
so it becomes `QueryRejected`, not an empty list. Loogle has no informal text; the code
shown is `name : type`, as Loogle itself prints a hit.
"""

from __future__ import annotations

from typing import Any

from search import config

from eval.engines.base import EngineFailure, Hit, QueryRejected, text
from eval.engines.http import RemoteEngine


class LoogleClient(RemoteEngine):
    name = "loogle"
    service = "Loogle"
    url_setting = "LOOGLE_URL"

    def request(self, query: str, k: int) -> dict[str, Any]:
        return {"method": "GET", "params": {"q": query}}

    def parse(self, payload: Any) -> list[Hit]:
        return parse(payload)


def parse(payload: Any) -> list[Hit]:
    if not isinstance(payload, dict):
        raise EngineFailure(f"Loogle: expected a JSON object, got {type(payload).__name__}")
    if payload.get("hits") is None:
        if "error" in payload:
            suggestions = payload.get("suggestions") or []
            hint = f" (suggestions: {'; '.join(map(str, suggestions))})" if suggestions else ""
            raise QueryRejected(f"Loogle: {text(payload['error'])}{hint}")
        raise EngineFailure("Loogle: the answer has neither 'hits' nor 'error'")
    hits = []
    for item in payload["hits"]:
        if not isinstance(item, dict) or not text(item.get("name")):
            raise EngineFailure("Loogle: a hit has no name")
        name, type_, module = text(item["name"]), text(item.get("type")), text(item.get("module"))
        url = f"{config.MATHLIB_DOCS_URL}/{module.replace('.', '/')}.html#{name}" if module else ""
        hits.append(Hit(name=name, code=f"{name} : {type_}" if type_ else name,
                        docstring=text(item.get("doc")), url=url))
    return hits
