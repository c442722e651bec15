"""What every API shape and MCP tool asks of the index, checked once, in one place.

Each HTTP shape (LeanSearch, Loogle, LeanStateSearch, native) and each MCP tool is a thin
translation of its request into these calls and of their answer into its response, so that
a bound or a filter check cannot differ between doors.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping

import pyarrow.compute as pc
from rapidfuzz import fuzz

from search.api.filters import FilterCatalogue
from search.engine.graph import DependencyGraph
from search.engine.names import nearest
from search.api.validation import MAX_RESULTS, ApiError, check_count, check_variant, clean_query
from search.engine import core, variants
from search.engine.engine import Engine, Result
from search.index.store import Index
from search.record import Statement

#: Characters of statement and doc kept in compact results (MCP, dependency lists).
COMPACT_STATEMENT_CHARS = 600
COMPACT_DOC_CHARS = 300


@dataclass(frozen=True)
class SearchService:
    """The engine with its filter catalogue, its dependency graph and its formal sources."""

    engine: Engine
    filters: FilterCatalogue
    graph: DependencyGraph
    lean_sources: tuple[str, ...]

    @classmethod
    def from_engine(cls, engine: Engine) -> "SearchService":
        records = engine.index.records
        formal = pc.equal(records.table["language"], "lean")  # `Statement.formal` of every record
        return cls(
            engine=engine,
            filters=FilterCatalogue.from_records(records),
            graph=DependencyGraph.from_index(engine.index),
            lean_sources=tuple(sorted(pc.unique(records.table["source"].filter(formal)).to_pylist())),
        )

    @property
    def index(self) -> Index:
        return self.engine.index

    def search(
        self,
        query: str,
        k: int = 10,
        filters: Mapping[str, Any] | None = None,
        variant: str = variants.DEFAULT,
        most: int = MAX_RESULTS,
    ) -> list[Result]:
        """Engine results for a checked query, count (at most `most`), variant and filters."""
        query = clean_query(query)
        check_count(k, "k", most)
        check_variant(variant)
        checked = self.filters.check(filters or {})
        return self.engine.search(query, k=k, filters=checked, variant=variant)

    def formal_search(self, query: str, k: int, kinds: tuple[str, ...] = (),
                      variant: str = variants.DEFAULT, most: int = MAX_RESULTS) -> list[Result]:
        """Lean declarations only (the shapes of the Lean tools), optionally of some kinds."""
        if not self.lean_sources:
            return []
        filters: dict[str, Any] = {"source": list(self.lean_sources)}
        if kinds:
            present = [kind for kind in kinds if kind in self.filters.values["kind"]]
            if not present:
                return []
            filters["kind"] = present
        return self.search(query, k, filters, variant, most)

    def position(self, record_id: str) -> int:
        """The record's position, or ApiError(404) suggesting ids that look alike."""
        position = self.index.position.get(record_id)
        if position is not None:
            return position
        _, _, name = record_id.rpartition(":")
        same_name = self.index.records.column("id", self.index.by_name.get(name.lower(), []))
        suggestions = same_name or nearest(record_id, self.index.position, scorer=fuzz.ratio)
        absent = core.note(self.index.manifest, name)
        raise ApiError(404, f"no statement has the id {record_id!r}" + (f" ({absent})" if absent else ""),
                       suggestions=suggestions)

    def revision(self, source: str) -> str:
        """The upstream commit a source was indexed at ("" when unknown, e.g. a user's data)."""
        return str(self.index.manifest.get("sources", {}).get(source, {}).get("commit") or "")

    def record(self, position: int) -> dict[str, Any]:
        """Every field of the record, with its PageRank and its counts of both directions."""
        statement = self.index.records[position]
        return {
            **dataclasses.asdict(statement),
            "pagerank": float(self.index.pagerank[position]),
            "dependencies_count": len(self.graph.dependencies(position)),
            "dependents_count": int(self.graph.offsets[position + 1] - self.graph.offsets[position]),
        }


def compact(statement: Statement, score: float | None = None) -> dict[str, Any]:
    """A short view of a record for lists: enough to read it and to ask for the rest by id."""
    out: dict[str, Any] = {
        "id": statement.id, "name": statement.name, "kind": statement.kind,
        "source": statement.source, "statement": statement.statement[:COMPACT_STATEMENT_CHARS],
        "doc": statement.doc[:COMPACT_DOC_CHARS], "url": statement.url,
    }
    if score is not None:
        out["score"] = round(score, 6)
    return out
