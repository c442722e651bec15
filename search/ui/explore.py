"""Cards for results and for single records, with the records around them to explore:
dependencies, dependents (from the dependency graph built once at startup), group members
and formal↔informal links. Ids that are not in the index are left out.
"""

from __future__ import annotations

from functools import cached_property

from search.api.graph import DependencyGraph
from search.engine.engine import Result
from search.index.store import Index
from search.record import Statement
from search.ui.cards import RELATED_SHOWN, Card, Related


class Explorer:
    """Turns results and record ids into `Card`s."""

    def __init__(self, index: Index, graph: DependencyGraph) -> None:
        self.index = index
        self.graph = graph

    @cached_property
    def _groups(self) -> dict[str, list[int]]:
        """Group head id -> member positions (built on the first single-record page)."""
        groups: dict[str, list[int]] = {}
        for position, s in enumerate(self.index.records):
            if s.group and s.group != s.id:
                groups.setdefault(s.group, []).append(position)
        return groups

    def result_card(self, result: Result) -> Card:
        members = [self.index.position[m] for m in result.members if m in self.index.position]
        return self._card(result.statement, members, result.rank, result.score, result.signals)

    def record_card(self, record_id: str) -> Card | None:
        """The card of one record (the rest of its group listed), or None if there is none."""
        statement = self.index.get(record_id)
        if statement is None:
            return None
        head = statement.group or statement.id
        group = [self.index.position.get(head), *self._groups.get(head, [])]
        own = self.index.position[statement.id]
        return self._card(statement, [p for p in group if p is not None and p != own])

    def _card(
        self,
        statement: Statement,
        members: list[int],
        rank: int | None = None,
        score: float | None = None,
        signals: dict[str, dict[str, float]] | None = None,
    ) -> Card:
        position = self.index.position[statement.id]
        deps = self.graph.dependencies(position)
        users = self.graph.dependents(position)
        links = [self.index.position[i] for i in statement.links if i in self.index.position]
        return Card(
            statement=statement,
            rank=rank,
            score=score,
            signals=signals or {},
            members=self._related(members[:RELATED_SHOWN]),
            members_total=len(members),
            deps=self._related(deps[:RELATED_SHOWN]),
            deps_total=len(deps),
            dependents=self._related(users[:RELATED_SHOWN]),
            dependents_total=len(users),
            links=self._related(links),
        )

    def _related(self, positions: list[int]) -> list[Related]:
        records = self.index.records
        return [Related(records[p].id, records[p].name, records[p].source) for p in positions]
