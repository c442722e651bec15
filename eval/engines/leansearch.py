"""LeanSearch (leansearch.net), natural-language search over Mathlib.

Request: `POST {url}` with the JSON body `{"query": [q], "num_results": k}` (a batch of
queries; we send one). This is what LeanSearchClient (the Lean package behind `#leansearch`)
sends, and what the LeanExplore paper's benchmark script sent.

Answer: one list of hits per query in the batch, so `[[hit, ...]]`, where each hit is
`{"result": {...}, "distance": float}` and `result` holds
- `name`: the full name as a list of components (`["Nat", "succ_le_succ"]`),
- `kind` (`theorem`, `def`, ...), `signature` (binders and type after the name), `type`,
- `module_name` (components), `docstring` (may be null), `doc_url` (may be absent),
- `informal_name` and `informal_description`: LeanSearch's LLM-written informal statement.
As in the LeanExplore benchmark, the code shown is `kind name signature` and the informal
text is the informal name followed by the informal description.
"""

from __future__ import annotations

from typing import Any

from eval.engines.base import EngineFailure, Hit, text
from eval.engines.http import RemoteEngine


class LeanSearchClient(RemoteEngine):
    name = "leansearch"
    service = "LeanSearch"
    url_setting = "LEANSEARCH_URL"

    def request(self, query: str, k: int) -> dict[str, Any]:
        return {"method": "POST", "json_body": {"query": [query], "num_results": k}}

    def parse(self, payload: Any) -> list[Hit]:
        return parse(payload)


def parse(payload: Any) -> list[Hit]:
    """Hits of the first (only) query of a LeanSearch answer."""
    if not (isinstance(payload, list) and payload and isinstance(payload[0], list)):
        raise EngineFailure(f"LeanSearch: expected a list of hit lists, got {type(payload).__name__}")
    hits = []
    for item in payload[0]:
        result = item.get("result") if isinstance(item, dict) else None
        if not isinstance(result, dict):
            raise EngineFailure("LeanSearch: a hit has no 'result' object")
        name = result.get("name")
        full_name = ".".join(str(part) for part in name) if isinstance(name, list) else text(name)
        if not full_name:
            raise EngineFailure("LeanSearch: a hit has no name")
        kind, signature, type_ = (text(result.get(key)) for key in ("kind", "signature", "type"))
        head = " ".join(part for part in (kind, full_name) if part)
        code = f"{head} {signature}" if signature else f"{head} : {type_}" if type_ else head
        informal = "\n".join(p for p in (text(result.get("informal_name")),
                                         text(result.get("informal_description"))) if p)
        hits.append(Hit(name=full_name, kind=kind, code=code, docstring=text(result.get("docstring")),
                        informal=informal, url=text(result.get("doc_url"))))
    return hits
