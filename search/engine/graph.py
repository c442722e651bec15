"""Dependencies and dependents of a record, both directions answered from memory.

The index stores each record's `deps` and only a count of its dependents; the reverse lists
are built once here, as a compressed sparse row table (two integer arrays), so that "what
uses `mul_comm`?" costs a slice, not a scan of 300k records.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow.compute as pc

from search.index.store import Index


@dataclass(frozen=True)
class DependencyGraph:
    """`users[offsets[p]:offsets[p + 1]]` are the positions of the records whose deps hold p."""

    index: Index
    offsets: np.ndarray
    users: np.ndarray

    @classmethod
    def from_index(cls, index: Index) -> "DependencyGraph":
        records = index.records.table
        targets = pc.index_in(pc.list_flatten(records["deps"]), value_set=records["id"])
        known = pc.is_valid(targets)
        target_array = pc.filter(targets, known).to_numpy().astype(np.int64)
        sources = pc.filter(pc.list_parent_indices(records["deps"]), known).to_numpy().astype(np.int64)
        order = np.argsort(target_array, kind="stable")
        counts = np.bincount(target_array, minlength=len(index.records))
        offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        return cls(index, offsets, sources[order])

    def dependencies(self, position: int) -> list[int]:
        """Positions of the records `position` refers to, most central (PageRank) first."""
        [deps] = self.index.records.column("deps", [position])
        found = [self.index.position[d] for d in deps if d in self.index.position]
        return self._by_pagerank(found)

    def dependents(self, position: int) -> list[int]:
        """Positions of the records that refer to `position`, most central first."""
        users = self.users[self.offsets[position] : self.offsets[position + 1]]
        return self._by_pagerank(users.tolist())

    def _by_pagerank(self, positions: list[int]) -> list[int]:
        pagerank = self.index.pagerank
        names = self.index.records.column("name", positions)
        ranked = sorted(zip(positions, names), key=lambda pair: (-float(pagerank[pair[0]]), pair[1]))
        return [p for p, _ in ranked]
