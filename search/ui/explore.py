"""Cards for results and for single records, with the records around them to explore:
dependencies, dependents (from the dependency graph built once at startup), group members
and formal↔informal links. Ids that are not in the index are left out.
"""

from __future__ import annotations

import numpy as np
import pyarrow.compute as pc

from search.engine.graph import DependencyGraph
from search.engine.engine import Result
from search.index.store import Index
from search.record import Statement
from search.ui.cards import REF, RELATED_SHOWN, Card, Related, title


class Explorer:
    """Turns results and record ids into `Card`s."""

    def __init__(self, index: Index, graph: DependencyGraph) -> None:
        self.index = index
        self.graph = graph
        self.labels = _labels(index)

    def result_card(self, result: Result) -> Card:
        members = [self.index.position[m] for m in result.members if m in self.index.position]
        return self._card(result.statement, members, result.rank, result.score, result.signals)

    def record_card(self, record_id: str) -> Card | None:
        """The card of one record (the rest of its group listed), or None if there is none."""
        statement = self.index.get(record_id)
        if statement is None:
            return None
        head = statement.group or statement.id
        group = [self.index.position.get(head), *self._members(head)]
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
            refs=self._refs(statement),
        )

    def _refs(self, statement: Statement) -> dict[str, Related]:
        """The records named by the statement's `\\ref{label}`s: a label as written, or (the
        Stacks Project's references within a chapter) prefixed by its file's name."""
        if statement.formal:
            return {}
        stem = str(statement.meta.get("file") or "").rsplit("/", 1)[-1].removesuffix(".tex")
        found: dict[str, int] = {}
        for label in dict.fromkeys(REF.findall(statement.statement)):
            position = self.labels.get((statement.source, label)) or self.labels.get((statement.source, f"{stem}-{label}"))
            if position is not None:
                found[label] = position
        return dict(zip(found, self._related(list(found.values()))))

    def _members(self, head: str) -> list[int]:
        """Positions of the records of the group headed by `head`, the head left out: a scan of
        the group column (milliseconds) on a single-record page, not a table of every group."""
        positions = np.flatnonzero(pc.equal(self.index.records.table["group"], head).to_numpy())
        ids = self.index.records.column("id", positions)
        return [p for p, record_id in zip(positions.tolist(), ids) if record_id != head]

    def _related(self, positions: list[int]) -> list[Related]:
        return [Related(s.id, title(s), s.source) for s in self.index.records.take(positions)]


def _labels(index: Index) -> dict[tuple[str, str], int]:
    """(source, LaTeX label) -> position of the record it labels, for the LaTeX records
    (their `meta.label`)."""
    records = index.records
    labels, label_codes = records.encode_meta("label")
    sources, source_codes = records.encode("source")
    positions = np.flatnonzero(label_codes >= 0)
    return {
        (sources[source_codes[p]], labels[label_codes[p]]): int(p)
        for p in positions.tolist() if labels[label_codes[p]]
    }
