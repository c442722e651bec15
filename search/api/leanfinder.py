"""`POST /leanfinder` in Lean Finder's shapes, so that lean-lsp-mcp's `lean_leanfinder` tool can
use this engine (`LEAN_FINDER_URL=http://HOST:PORT/leanfinder`).

lean-lsp-mcp posts `{"inputs": query, "top_k": n, "version": "v4.28.0"}` and reads `results`,
each hit's `formal_name`, `informal_name`, `kind`, `type`, `informal_description` and `path`
(a module path with `/`, which it turns into dots), every one a string; an answer with an
`error` is shown as the tool's error. Lean Finder reads a statement in words or a proof state:
an input with a `⊢` is answered as a goal state (`statesearch.StateSearch`: theorems and lemmas
that close or rewrite it), any other by the engine over every Lean declaration. `version`
picks an index as LeanStateSearch's `rev` does (`Indexes.for_revision`); a version no index
has is answered by the default index, and the answer's `notice` and the `X-Index-Rev` header
say so.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from search.api.formal import informal_text
from search.api.indexes import Indexes
from search.api.statesearch import INDEX_HEADER, REV_HEADER, StateSearch, parse_goal
from search.api.validation import MAX_QUERY_CHARS, MAX_RESULTS, clean_query, numeric_string
from search.engine.engine import Result
from search.text.lean_text import declaration_type

PATH = "/leanfinder"


class LeanFinderRequest(BaseModel):
    """Lean Finder's request body (other fields are ignored, as its server ignores them)."""

    model_config = ConfigDict(extra="ignore")

    inputs: str = Field(max_length=MAX_QUERY_CHARS, description="A statement in words, Lean code, or a proof state (`⊢ goal`).",
                        examples=["commutativity of addition on natural numbers"])
    top_k: Annotated[int, BeforeValidator(numeric_string)] = Field(
        10, ge=1, le=MAX_RESULTS, strict=True, description=f"Number of results (1 to {MAX_RESULTS}).")
    version: str = Field("", max_length=100, description="The Mathlib version (`v4.28.0`) or an index name, tag or commit.")


class LeanFinderHit(BaseModel):
    formal_name: str = Field(description="Full Lean name.")
    informal_name: str = Field(description="A well-known title of the result, or \"\" (`formal.informal_text`).")
    kind: str = Field(description="Declaration keyword as written: theorem, lemma, def, ...")
    type: str = Field(description="The statement as a type (`∀ binders, type`), read from the header.")
    informal_description: str = Field(description="Its docstring and what its authors say of it elsewhere, or \"\".")
    path: str = Field(description="Its module as a path: `Mathlib/Algebra/Group/Defs`.")
    id: str = Field(description="This engine's record id, for `/api/v1/statement/{id}`.")
    url: str = Field(description="The declaration in its upstream repository, at the indexed commit.")


class LeanFinderAnswer(BaseModel):
    results: list[LeanFinderHit] = Field(description="Best first.")
    index: str = Field(description="The name of the index that answered.")
    notice: str | None = Field(None, description="Set when `version` names no index, saying the default answered.")


def router(indexes: Indexes, states: dict[str, StateSearch]) -> APIRouter:
    api = APIRouter(tags=["Lean Finder"])

    @api.post(
        PATH,
        response_model=LeanFinderAnswer,
        summary="Lean Finder-compatible search",
        description="Lean declarations for a statement in words or a proof state. Works with lean-lsp-mcp: "
        "`LEAN_FINDER_URL=http://HOST:PORT/leanfinder`.",
    )
    def leanfinder(request: LeanFinderRequest, response: Response) -> LeanFinderAnswer:
        name, matched = indexes.for_revision(request.version)
        response.headers[INDEX_HEADER] = name
        response.headers[REV_HEADER] = "matched" if matched else "default"
        query = clean_query(request.inputs, "input")
        state = parse_goal(query)
        if state is not None and state.goal:
            results = states[name].search(state, request.top_k)
        else:
            results = indexes.get(name).formal_search(query, request.top_k)
        notice = None
        if request.version.strip() and not matched:
            notice = f"no index is named, tagged or at commit {request.version.strip()!r}; the default index {name!r} answered"
        return LeanFinderAnswer(results=[_hit(r) for r in results], index=name, notice=notice)

    return api


def _hit(result: Result) -> LeanFinderHit:
    s = result.statement
    words = informal_text(s)
    return LeanFinderHit(
        formal_name=s.name, informal_name=words.name, kind=s.kind, type=declaration_type(s.statement),
        informal_description=words.description, path=s.module.replace(".", "/"), id=s.id, url=s.url,
    )
