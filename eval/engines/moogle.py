"""Moogle (moogle.ai, by Morph Labs), natural-language search over Mathlib. The service is gone;
the client is kept so that a revived or mirrored instance can be compared, and saved Moogle
answers are read back by `eval.engines.replay` with the same `parse`.

Request: `POST {url}` with the JSON body `[{"isFind": false, "contents": q}]` (as
LeanSearchClient's `#moogle` and the LeanExplore paper's benchmark script sent it).

Answer: `{"data": [hit, ...]}`, every hit with `declarationName`, `declarationCode` (the Lean
source of the declaration), `declarationDocstring` (spelt `declarationDocString` by some
clients; with its comment markers `/-- ... -/`) and `declarationType` (theorem, def, ...).
Moogle has no informal text. As in the LeanExplore paper, comment markers are removed from the
docstring. The service returned its own number of hits; the first k are kept.
"""

from __future__ import annotations

from typing import Any

from eval.engines.base import Hit, listed_hits, text
from eval.engines.http import RemoteEngine


class MoogleClient(RemoteEngine):
    name = "moogle"
    service = "Moogle"
    url_setting = "MOOGLE_URL"

    def request(self, query: str, k: int) -> dict[str, Any]:
        return {"method": "POST", "json_body": [{"isFind": False, "contents": query}]}

    def parse(self, payload: Any) -> list[Hit]:
        return parse(payload)


def parse(payload: Any) -> list[Hit]:
    hits = []
    for item in listed_hits(payload, "data", "Moogle", "declarationName"):
        doc = item.get("declarationDocstring", item.get("declarationDocString"))
        hits.append(Hit(name=text(item["declarationName"]), kind=text(item.get("declarationType")),
                        code=text(item.get("declarationCode")), docstring=strip_comment(text(doc))))
    return hits


def strip_comment(doc: str) -> str:
    """A Lean doc comment without its `/--` (or `/-!`) and `-/` markers."""
    if doc.startswith(("/--", "/-!")) and doc.endswith("-/"):
        doc = doc[3:-2]
    return doc.strip()
