"""`GET /json?q=` in Loogle's shapes, so that Lean's `#loogle` can use this engine.

LeanSearchClient's `#loogle` sends `curl -X GET --user-agent LeanSearchClient
"URL?q=<query>"` (`LEANSEARCHCLIENT_LOOGLE_API_URL`, the query percent-encoded by Lean's
`System.Uri.escapeUri`) and reads either `hits` (each needs a string `name` and `type`, and may
have `doc`) or `error` with optional `suggestions`, which it offers as new `#loogle` queries.
The query forms are answered by `search.engine.loogle`. As in Loogle, an unknown name or a
pattern that cannot be read is an answer with `error` and HTTP 200; a malformed request (no
`q`, an over-long query) is a 400 with the same fields. An empty `q` is answered `{}`, as
Loogle answers it (its page without a query).
"""

from __future__ import annotations

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from search.api.formal import FormalHit
from search.api.service import SearchService
from search.api.validation import MAX_QUERY_CHARS, MAX_RESULTS, clean_query
from search.engine.loogle import LoogleSearch, QueryError
from search.text.lean_text import declaration_type

PATH = "/json"
#: Extra JSON fields of every error of this endpoint, as Loogle answers them.
ERROR_FIELDS: dict[str, list[str]] = {"suggestions": []}


class LoogleHit(FormalHit):
    type: str = Field(description="The statement as a type (`∀ binders, type`), read from the header.")


class LoogleAnswer(BaseModel):
    hits: list[LoogleHit] = Field(description=f"At most {MAX_RESULTS} hits, best first.")
    count: int = Field(description="How many declarations match (may exceed the hits shown).")
    header: str = Field(description="A sentence saying what was found.")


class LoogleError(BaseModel):
    error: str = Field(description="Why the query has no answer.")
    suggestions: list[str] = Field(description="Queries to try instead (names close to an unknown one).")


def router(service: SearchService) -> APIRouter:
    loogle = LoogleSearch(service.engine, service.graph, service.lean_sources)
    api = APIRouter(tags=["Loogle"])

    @api.get(
        PATH,
        response_model=LoogleAnswer,
        responses={200: {"model": LoogleAnswer | LoogleError | dict[str, str]}, 400: {"model": LoogleError}},
        summary="Loogle-compatible search",
        description=(
            "Constant names (declarations referring to the constant, those mentioning it in their "
            'statement first), "name substrings", term patterns (`_ * (_ ^ _)`, `?a * ?b = ?b * ?a`), '
            "conclusion patterns (`⊢ tsum _ = _ * tsum _`), comma-separated (all must hold). Works with "
            "LeanSearchClient: `LEANSEARCHCLIENT_LOOGLE_API_URL=http://HOST:PORT/json`."
        ),
    )
    def loogle_json(
        q: str = Query(
            description=f"The Loogle query, at most {MAX_QUERY_CHARS} characters.",
            examples=["Real.sin", 'Real.sin, "sq"', "_ * (_ ^ _)", "⊢ tsum _ = _ * tsum _"],
        ),
    ) -> LoogleAnswer | JSONResponse:
        if not q.strip():
            return JSONResponse({})
        query = clean_query(q.strip().removeprefix("#find ").replace("\n", " "))
        try:
            found = loogle.find(query, MAX_RESULTS)
        except QueryError as error:
            return JSONResponse(LoogleError(error=error.message, suggestions=error.suggestions).model_dump())
        hits = [LoogleHit(type=declaration_type(s.statement), **FormalHit.fields_of(s)) for s in found.statements]
        return LoogleAnswer(hits=hits, count=found.count, header=found.header)

    return api
