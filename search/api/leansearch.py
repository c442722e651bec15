"""`POST /search` in LeanSearch's shapes, so that Lean's `#leansearch` can use this engine.

LeanSearchClient (Mathlib's `#leansearch`, `#search`) posts `{"num_results": 6, "query":
["..."]}` with `curl -X POST URL --user-agent LeanSearchClient -H "accept: application/json"
-H "Content-Type: application/json"` to `LEANSEARCHCLIENT_LEANSEARCH_API_URL`, takes the
*first* inner list of the answer and reads `result.name` (a list of name components it joins
with dots), `result.type`, `result.docstring`, `result.doc_url` and `result.kind` of each hit.
The other fields follow LeanSearch's own response (`module_name`, `signature`, `value`,
`informal_name`, `informal_description`, `distance`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from search.api.formal import informal_text, name_parts
from search.text.lean_text import declaration_type
from search import config
from search.api.validation import MAX_QUERIES, MAX_QUERY_CHARS, numeric_string
from search.api.service import SearchService
from search.engine.engine import Result

QueryString = Annotated[str, Field(max_length=MAX_QUERY_CHARS)]
#: LeanSearch's own bound on `num_results`.
MAX_RESULTS = config.LEANSEARCH_MAX_RESULTS


class LeanSearchRequest(BaseModel):
    """LeanSearch's request body."""

    model_config = ConfigDict(extra="ignore")

    query: list[QueryString] = Field(
        min_length=1,
        max_length=MAX_QUERIES,
        description=f"Query strings (1 to {MAX_QUERIES}, each at most {MAX_QUERY_CHARS} "
        "characters): words, LaTeX, Lean notation or a Lean name.",
        examples=[["If a natural number n is less than m, then the successor of n is less than the successor of m."]],
    )
    num_results: Annotated[int, BeforeValidator(numeric_string)] = Field(
        6, ge=1, le=MAX_RESULTS, strict=True,
        description=f"Hits per query string (1 to {MAX_RESULTS}), a number or a numeric string (`\"5\"`).",
    )


class LeanSearchDeclaration(BaseModel):
    """One declaration, named and typed as LeanSearch does."""

    name: list[str] = Field(description="Name components: `Nat.succ_le_succ` is `[\"Nat\", \"succ_le_succ\"]`.")
    module_name: list[str] = Field(description="Module components, e.g. `[\"Mathlib\", \"Order\", \"Basic\"]`.")
    kind: str = Field(description="Declaration keyword as written: theorem, lemma, def, instance, ...")
    signature: str = Field(description="The declaration header as written in the source.")
    type: str = Field(description="The statement as a type (`∀ binders, type`), read from the header.")
    value: str | None = Field(None, description="Always null: the index does not keep proofs and bodies.")
    docstring: str | None = Field(description="The doc comment, or null.")
    doc_url: str | None = Field(description="The doc-gen4 page, or null.")
    informal_name: str | None = Field(description="A well-known title of the result (Mathlib's lists of famous theorems), or null.")
    informal_description: str | None = Field(description="Its docstring and what its authors say of it elsewhere (`formal.informal_text`), or null.")
    id: str = Field(description="This engine's record id, for `/api/v1/statement/{id}`.")
    url: str = Field(description="The declaration in its upstream repository, at the indexed commit.")


class LeanSearchHit(BaseModel):
    result: LeanSearchDeclaration
    distance: float = Field(
        description="1 - score / (the best hit's score), from 0 (the best hit) to 1: how far behind the "
        "best hit a hit scores under the ranking. Not a cosine distance; it compares hits of one query."
    )


def router(service: SearchService) -> APIRouter:
    api = APIRouter(tags=["LeanSearch"])

    @api.post(
        "/search",
        response_model=list[list[LeanSearchHit]],
        summary="LeanSearch-compatible search",
        description=(
            "One inner list of hits per query string, best first, over the Lean sources only (an empty "
            "one when nothing is found). "
            "Works with LeanSearchClient: `LEANSEARCHCLIENT_LEANSEARCH_API_URL=http://HOST:PORT/search`."
        ),
    )
    def leansearch(request: LeanSearchRequest) -> list[list[LeanSearchHit]]:
        answers = []
        for query in request.query:
            results = service.formal_search(query, request.num_results, most=MAX_RESULTS)
            best = max((r.score for r in results), default=0.0)
            answers.append([_hit(result, best) for result in results])
        return answers

    return api


def _hit(result: Result, best: float) -> LeanSearchHit:
    s = result.statement
    words = informal_text(s)
    return LeanSearchHit(
        result=LeanSearchDeclaration(
            name=name_parts(s.name),
            module_name=s.module.split(".") if s.module else [],
            kind=s.kind,
            signature=s.statement,
            type=declaration_type(s.statement),
            docstring=s.doc or None,
            doc_url=s.doc_url or None,
            informal_name=words.name or None,
            informal_description=words.description or None,
            id=s.id,
            url=s.url,
        ),
        distance=round(1.0 - result.score / best, 6) if best > 0 else 1.0,
    )
