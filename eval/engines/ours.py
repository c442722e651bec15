"""Our engine in process, in one ranking variant, as a `SearchEngine`.

Lean records show their declaration as code and their docstring; LaTeX records (Stacks,
textbooks) are informal statements, so their LaTeX goes to the informal text and they have no
code, and they are named by id (`stacks:0BR2`), since a label alone says little. We write no LLM
informalization, so a Lean record's informal text is empty (`N/A`).
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol, Sequence

from search.record import Statement

from eval.engines.base import Hit


class _Result(Protocol):
    statement: Statement


class Searcher(Protocol):
    """The part of `search.engine.engine.Engine` used here."""

    def search(self, query: str, k: int = ..., filters: Mapping[str, Any] | None = ...,
               variant: str = ...) -> Sequence[_Result]: ...


class OurEngine:
    def __init__(self, engine: Searcher, variant: str = "default",
                 filters: Mapping[str, Any] | None = None) -> None:
        self.engine = engine
        self.variant = variant
        self.filters = dict(filters) if filters else None
        self.name = f"ours:{variant}"
        self.remote = False

    def search(self, query: str, k: int) -> list[Hit]:
        results = self.engine.search(query, k=k, filters=self.filters, variant=self.variant)
        return [to_hit(r.statement) for r in results[:k]]


def to_hit(s: Statement) -> Hit:
    url = s.doc_url or s.url
    if s.formal:
        return Hit(name=s.name, kind=s.kind, code=s.statement, docstring=s.doc, url=url)
    return Hit(name=s.id, kind=s.kind, informal=s.statement, url=url)
