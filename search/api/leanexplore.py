"""LeanExplore's API (`/leanexplore/api/v2`), so that lean-explore's `ApiClient` and MCP
server can use this engine: set the client's `base_url` to `http://HOST:PORT/leanexplore/api/v2`.

lean-explore's `ApiClient.search` sends `GET {base_url}/search?q=&limit=` (and `packages=Mathlib,
Batteries` when it filters) and reads `results`, each a `SearchResult` (`id`, `name`, `module`,
`docstring`, `source_text`, `source_link`, `dependencies`, `informalization`) and
`processing_time_ms`; `get_by_id` sends `GET {base_url}/declarations/{id}` and takes a 404 as
"no such declaration". A declaration's integer id is its position in the index: the same for
as long as the index is (a rebuilt index may number its records otherwise). `source_text` is
the declaration's header as written (the index keeps no proofs), `dependencies` a JSON array
of the names it refers to, and `informalization` its informal text (`formal.informal_text`)
in LeanExplore's form, `**Title.** description`. `packages` are the first components of the
Lean modules (`Mathlib`, `Batteries`, `PhysLean`), in any case.
"""

from __future__ import annotations

import json
import time
import pyarrow.compute as pc
from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from search.api.formal import InformalText, informal_text
from search.api.indexes import Indexes
from search.api.service import SearchService
from search.api.validation import MAX_QUERY_CHARS, MAX_RESULTS, ApiError
from search.record import Statement

PREFIX = "/leanexplore/api/v2"
#: `ApiClient.search`'s default `limit`.
DEFAULT_LIMIT = 20


class LeanExploreDeclaration(BaseModel):
    """lean-explore's `SearchResult`."""

    id: int = Field(description="The declaration's position in the index: stable for a given index.")
    name: str = Field(description="Full Lean name.")
    module: str = Field(description="Lean module, e.g. `Mathlib.Algebra.Group.Defs`.")
    docstring: str | None = Field(description="The doc comment, or null.")
    source_text: str = Field(description="The declaration's header as written in the source (proofs are not indexed).")
    source_link: str = Field(description="The declaration in its upstream repository, at the indexed commit.")
    dependencies: str | None = Field(description="A JSON array of the names it refers to, or null when none.")
    informalization: str | None = Field(description="Its informal text, `**Title.** description`, or null.")


class LeanExploreAnswer(BaseModel):
    query: str
    results: list[LeanExploreDeclaration] = Field(description="Best first.")
    count: int
    processing_time_ms: int


def informalization(words: InformalText) -> str | None:
    """LeanExplore's form of a record's informal text: a bold title, then the description."""
    if words.name:
        return f"**{words.name}.** {words.description}".rstrip()
    return words.description or None


def router(indexes: Indexes) -> APIRouter:
    """The routes over the default index (LeanExplore's API names no index)."""
    service = indexes.get(None)
    api = APIRouter(prefix=PREFIX, tags=["LeanExplore"])
    packages = _packages(service)

    @api.get("/search", response_model=LeanExploreAnswer, summary="LeanExplore-compatible search")
    def search(
        q: str = Query(max_length=MAX_QUERY_CHARS, description="The query: words, Lean code or a name."),
        limit: int = Query(DEFAULT_LIMIT, ge=1, le=MAX_RESULTS, description=f"Number of results (1 to {MAX_RESULTS})."),
        packages_: str | None = Query(None, alias="packages", max_length=1000,
                                      description="Comma-separated packages: Mathlib, Batteries, PhysLean, ..."),
    ) -> LeanExploreAnswer:
        started = time.perf_counter()
        filters: dict[str, list[str]] = {"source": list(service.lean_sources)}
        if packages_ and packages_.strip():
            filters = {"source": _sources(packages_, packages)}
        results = service.search(q, limit, filters) if service.lean_sources else []
        positions = [service.index.position[r.statement.id] for r in results]
        found = [_declaration(service, p, r.statement) for p, r in zip(positions, results)]
        return LeanExploreAnswer(query=q, results=found, count=len(found),
                                 processing_time_ms=round(1000 * (time.perf_counter() - started)))

    @api.get("/declarations/{declaration_id}", response_model=LeanExploreDeclaration,
             responses={404: {"description": "No Lean declaration has that id."}},
             summary="One declaration by its integer id")
    def declaration(declaration_id: int = Path(description="An id from `/search`.")) -> LeanExploreDeclaration:
        records = service.index.records
        if not 0 <= declaration_id < len(records):
            raise ApiError(404, f"no declaration has the id {declaration_id}; ids run from 0 to {len(records) - 1}")
        statement = records[declaration_id]
        if not statement.formal:
            raise ApiError(404, f"the record with id {declaration_id} is no Lean declaration ({statement.id})")
        return _declaration(service, declaration_id, statement)

    return api


def _packages(service: SearchService) -> dict[str, tuple[str, list[str]]]:
    """Package, lowercased (the first component of a module) -> the package as written and the
    Lean sources having it."""
    table = service.index.records.table
    formal = table.filter(pc.equal(table["language"], "lean"))
    out: dict[str, tuple[str, list[str]]] = {}
    for pair in formal.group_by(["source", "module"]).aggregate([]).to_pylist():
        package = pair["module"].split(".", 1)[0]
        _, sources = out.setdefault(package.lower(), (package, []))
        if package and pair["source"] not in sources:
            sources.append(pair["source"])
    return out


def _sources(text: str, packages: dict[str, tuple[str, list[str]]]) -> list[str]:
    """The Lean sources of the comma-separated packages, or ApiError(400) naming an unknown one."""
    sources: list[str] = []
    for package in (p.strip() for p in text.split(",")):
        if not package:
            continue
        if package.lower() not in packages:
            known = sorted(written for written, _ in packages.values())
            raise ApiError(400, f"no package {package!r} in this index; it has {', '.join(known)}", suggestions=known)
        sources += [s for s in packages[package.lower()][1] if s not in sources]
    return sources


def _declaration(service: SearchService, position: int, statement: Statement) -> LeanExploreDeclaration:
    names = [s.name for s in service.index.records.take(service.graph.dependencies(position))]
    return LeanExploreDeclaration(
        id=position, name=statement.name, module=statement.module, docstring=statement.doc or None,
        source_text=statement.statement, source_link=statement.url,
        dependencies=json.dumps(names, ensure_ascii=False) if names else None,
        informalization=informalization(informal_text(statement)),
    )

