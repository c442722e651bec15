"""The native JSON API: every filter, every ranking variant, every field of a result.

`/api/v1/search` (GET for links, POST for programs) returns `Result.to_dict()` for each hit;
`/api/v1/statement/{id}` a whole record; `/api/v1/dependencies/{id}` and
`/api/v1/dependents/{id}` the two directions of the dependency graph; `/api/v1/aligned/{id}`
the statements of the other language that say the same (formal ↔ informal); `/api/v1/filters` the
filter keys and values this index has; `/api/v1/index` what the index was built from;
`/api/v1/indexes` the indexes this server serves (each route takes `index=NAME`).
Ids contain `:` and may contain `/`, `?` or spaces: percent-encode them in a path.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, ConfigDict, Field

from search.api.indexes import Indexes
from search.api.service import compact
from search.api.validation import MAX_QUERY_CHARS, MAX_RESULTS, ApiError, Variant, clean_query
from search.engine import variants
from search.engine.alignment import aligned
from search.feedback.ballot import Ballot
from search.feedback.sessions import SESSION_PATTERN

FilterValue = str | list[str]
#: Default length of a dependency list (the cap is MAX_RESULTS).
DEPENDENCY_LIMIT = 50


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(max_length=MAX_QUERY_CHARS, description="Words, LaTeX, Lean notation, a Lean name or a quoted \"name substring\".")
    k: int = Field(10, ge=1, le=MAX_RESULTS, strict=True, description=f"Number of results (1 to {MAX_RESULTS}).")
    variant: Variant = Field(variants.DEFAULT, description="Ranking variant: `default` (weighted RRF of every signal) or another that `/api/v1/index` lists.")
    filters: dict[str, FilterValue] = Field(
        default_factory=dict,
        description="Field or metadata key -> value or list of values (any of them): source, kind, "
        "package, module, group, or a metadata key such as chapter, section, tag, namespace. "
        "`/api/v1/filters` lists them.",
        examples=[{"source": ["mathlib"], "kind": ["theorem", "lemma"]}],
    )
    session: str | None = Field(
        None, pattern=SESSION_PATTERN,
        description="A session id from an earlier answer, to vote on this search's results under it; "
        "without one (or with one this server did not issue) the answer carries a new one.",
    )
    index: str | None = Field(None, max_length=100, description="Which index (`/api/v1/indexes` lists them); the default when absent.")


class ResultModel(BaseModel):
    """`Result.to_dict()`: the group's head record, its fused score and what made it."""

    model_config = ConfigDict(extra="allow")

    rank: int
    id: str
    name: str
    kind: str
    source: str
    score: float = Field(description="Fused score under the chosen variant (higher is better).")
    url: str
    doc_url: str
    statement: str
    doc: str
    informal_statement: str = Field("", description="A Lean statement said in English by the informaliser "
                                    "(generated from the statement, not written by its authors).")
    module: str
    package: str
    signals: dict[str, dict[str, float]] = Field(description="Rank and score of this result in each signal that found it.")
    members: list[str] = Field(description="Ids of the other records of its StatementGroup.")
    links: list[str] = Field(description="Ids of formal/informal counterparts.")
    deprecated: dict[str, str] | None = Field(
        None, description="A deprecated Lean declaration's `since`, the name to `use` instead and its message.")


class SearchResponse(BaseModel):
    query: str
    k: int
    variant: str
    filters: dict[str, list[str]] = Field(description="The filters as applied.")
    index: str = Field(description="The name of the index searched.")
    index_version: str
    count: int
    results: list[ResultModel]
    session: str | None = Field(
        None, description="The session this search was served to: name it, with the query, filters, variant, "
        "a result's id and rank, in `POST /api/v1/feedback` to vote (absent when the server takes no votes).",
    )


class AlignedModel(BaseModel):
    id: str
    name: str
    kind: str
    source: str
    statement: str
    doc: str
    url: str
    linked: bool = Field(description="A link the corpus states (Mathlib's `@[stacks TAG]`), shown first.")
    score: float | None = Field(description="The search's fused score; null for a link the search did not rank.")


class Alignment(BaseModel):
    id: str
    language: str = Field(description="The other language, whose statements are listed: `lean` or `latex`.")
    results: list[AlignedModel] = Field(description="Exact links first, then the best search results.")


class Neighbours(BaseModel):
    id: str
    direction: Literal["dependencies", "dependents"]
    count: int = Field(description="How many there are in all (the list may be shorter).")
    results: list[dict[str, Any]] = Field(description="Compact records (id, name, kind, source, statement, doc, url), most central first.")


def router(indexes: Indexes, ballot: Ballot | None = None) -> APIRouter:
    """The native routes over the named indexes (`index=`, the default when absent); with a
    `ballot`, each search is served to a session that may vote on its results."""
    api = APIRouter(prefix="/api/v1", tags=["Native"])
    index_query = Query(None, max_length=100, description=f"Which index (`/api/v1/indexes` lists them; default: {indexes.default}).")

    def run(query: str, k: int, variant: str, filters: dict[str, Any], session: str | None,
            index: str | None) -> SearchResponse:
        service = indexes.get(index)
        checked = service.filters.check(filters)
        results = service.search(query, k, checked, variant)
        served = None
        if ballot is not None:
            served = ballot.session(session)
            ballot.served(served, clean_query(query), checked, variant, ((r.statement.id, r.rank) for r in results))
        return SearchResponse(
            query=query, k=k, variant=variant, filters=checked, index=index or indexes.default,
            index_version=service.index.version, count=len(results),
            results=[ResultModel(**r.to_dict()) for r in results], session=served,
        )

    @api.get("/search", response_model=SearchResponse, summary="Search with every filter (GET)")
    def search_get(
        q: str = Query(max_length=MAX_QUERY_CHARS, description="The query."),
        k: int = Query(10, ge=1, le=MAX_RESULTS, description=f"Number of results (1 to {MAX_RESULTS})."),
        variant: Variant = Query(variants.DEFAULT, description="Ranking variant (`/api/v1/index` lists them)."),
        source: list[str] | None = Query(None, description="Sources (repeat for several)."),
        kind: list[str] | None = Query(None, description="Kinds: theorem, lemma, def, definition, ..."),
        package: list[str] | None = Query(None, description="Packages: Mathlib's top folders, a book's part."),
        module: list[str] | None = Query(None, description="Lean modules or LaTeX files."),
        filter: list[str] | None = Query(
            None, description="Any other filter as `key:value` (repeat for several), e.g. `chapter:Schemes`."
        ),
        session: str | None = Query(
            None, pattern=SESSION_PATTERN, description="A session id from an earlier answer (to vote under it)."
        ),
        index: str | None = index_query,
    ) -> SearchResponse:
        filters: dict[str, list[str]] = {}
        for key, values in (("source", source), ("kind", kind), ("package", package), ("module", module)):
            if values:
                filters[key] = values
        for item in filter or []:
            key, colon, value = item.partition(":")
            if not colon or not key:
                raise ApiError(400, f"filter {item!r} is not `key:value`")
            filters.setdefault(key, []).append(value)
        return run(q, k, variant, filters, session, index)

    @api.post("/search", response_model=SearchResponse, summary="Search with every filter (POST)")
    def search_post(request: SearchRequest) -> SearchResponse:
        return run(request.query, request.k, request.variant, request.filters, request.session, request.index)

    @api.get("/statement/{record_id:path}", summary="One record, every field")
    def statement(record_id: str = Path(description="Record id, e.g. `mathlib:Nat.succ_le_succ`."),
                  index: str | None = index_query) -> dict[str, Any]:
        service = indexes.get(index)
        return service.record(service.position(record_id))

    def neighbours(record_id: str, direction: str, limit: int, index: str | None) -> Neighbours:
        service = indexes.get(index)
        position = service.position(record_id)
        graph = service.graph
        found = graph.dependencies(position) if direction == "dependencies" else graph.dependents(position)
        return Neighbours(
            id=record_id, direction=direction, count=len(found),  # type: ignore[arg-type]
            results=[compact(s) for s in service.index.records.take(found[:limit])],
        )

    limit_query = Query(DEPENDENCY_LIMIT, ge=1, le=MAX_RESULTS, description=f"At most this many (1 to {MAX_RESULTS}).")

    @api.get("/dependencies/{record_id:path}", response_model=Neighbours, summary="What a record refers to")
    def dependencies(record_id: str, limit: int = limit_query, index: str | None = index_query) -> Neighbours:
        return neighbours(record_id, "dependencies", limit, index)

    @api.get("/dependents/{record_id:path}", response_model=Neighbours, summary="What refers to a record")
    def dependents(record_id: str, limit: int = limit_query, index: str | None = index_query) -> Neighbours:
        return neighbours(record_id, "dependents", limit, index)

    @api.get("/aligned/{record_id:path}", response_model=Alignment,
             summary="Statements of the other language that say the same (formal <-> informal)")
    def alignment(record_id: str, k: int = Query(5, ge=1, le=MAX_RESULTS, description="Search results after the links."),
                  index: str | None = index_query) -> Alignment:
        service = indexes.get(index)
        statement = service.index.records[service.position(record_id)]
        found = aligned(service.engine, statement, k)
        return Alignment(
            id=record_id, language="latex" if statement.formal else "lean",
            results=[AlignedModel(**compact(a.statement), linked=a.linked,
                                  score=None if a.score is None else round(a.score, 6)) for a in found],
        )

    @api.get("/filters", summary="Filter keys of this index, with their values when few")
    def filters(index: str | None = index_query) -> dict[str, dict[str, Any]]:
        return indexes.get(index).filters.describe()

    @api.get("/index", summary="What the index was built from, and the API's limits")
    def index(index: str | None = index_query) -> dict[str, Any]:
        service = indexes.get(index)
        manifest = service.index.manifest
        return {
            "name": index or indexes.default, "version": service.index.version, "build_date": manifest.get("build_date"),
            "sources": manifest.get("sources", {}), "counts": manifest.get("counts", {}),
            "total": manifest.get("total"),
            "variants": {name: ranking.description for name, ranking in variants.VARIANTS.items()},
            "limits": {"max_results": MAX_RESULTS, "max_query_chars": MAX_QUERY_CHARS},
        }

    @api.get("/indexes", summary="The indexes this server serves, the default first")
    def served_indexes() -> list[dict[str, Any]]:
        return indexes.describe()

    return api
