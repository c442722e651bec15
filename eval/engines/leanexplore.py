"""LeanExplore (leanexplore.com), hybrid search over Mathlib, Batteries, PhysLean and Lean core.

Request: `GET {url}?q=QUERY&limit=K`, the v2 API that the `lean-explore` Python package's
`ApiClient.search` calls; an API key, when the environment holds one, is sent as a bearer token.

Answer: `{"query": str, "results": [hit, ...], "count": n, "processing_time_ms": int}` where a
hit has `id`, `name` (full name), `module`, `docstring` (may be null), `source_text` (the
declaration's Lean source), `source_link` (GitHub URL), `dependencies`, `informalization`
(LeanExplore's LLM-written informal statement, may be null) and `pagerank`. Errors come back
as non-2xx answers (401 without a valid key, 429 when rate-limited), which are failures.
"""

from __future__ import annotations

import os
from typing import Any

from search import config

from eval.engines.base import Hit, listed_hits, text
from eval.engines.http import RemoteEngine


class LeanExploreClient(RemoteEngine):
    name = "leanexplore"
    service = "LeanExplore"
    url_setting = "LEANEXPLORE_URL"

    def headers(self) -> dict[str, str]:
        key = os.environ.get(config.LEANEXPLORE_KEY_ENV)
        return {"Authorization": f"Bearer {key}"} if key else {}

    def request(self, query: str, k: int) -> dict[str, Any]:
        return {"method": "GET", "params": {"q": query, "limit": k}}

    def parse(self, payload: Any) -> list[Hit]:
        return parse(payload)


def parse(payload: Any) -> list[Hit]:
    hits = []
    for item in listed_hits(payload, "results", "LeanExplore", "name"):
        hits.append(Hit(name=text(item["name"]), code=text(item.get("source_text")),
                        docstring=text(item.get("docstring")), informal=text(item.get("informalization")),
                        url=text(item.get("source_link"))))
    return hits
