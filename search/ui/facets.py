"""The sidebar's filter choices, computed once from the index at startup.

Choices are kept per source, so that picking sources narrows the other lists to values those
sources have (Mathlib's top-level folders, the Stacks chapters, ...). A filter key is a record
field (kind, package) or a metadata key named in `config.APP_META_FILTERS` that some record has.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from search import config
from search.record import RecordTable

#: Record fields offered as filters, after `source`.
FIELDS = ("kind", "package")
LABELS = {
    "source": "Source", "kind": "Kind", "package": "Package, top-level folder or chapter",
    "chapter": "Chapter", "section": "Section", "year": "Year",
}


@dataclass(frozen=True)
class Facets:
    """source -> filter key -> the values its records hold (as the engine compares them)."""

    values: dict[str, dict[str, frozenset[str]]]
    keys: tuple[str, ...]

    @classmethod
    def from_records(cls, records: RecordTable, meta_keys: Sequence[str] = config.APP_META_FILTERS) -> "Facets":
        sources, source_codes = records.encode("source")
        found: dict[str, dict[str, set[str]]] = {source: defaultdict(set) for source in sources}
        for key in (*FIELDS, *meta_keys):
            values, codes = records.encode(key) if key in FIELDS else records.encode_meta(key)
            for source, code in np.unique(np.stack([source_codes, codes]), axis=1).T.tolist():
                value = values[code] if code >= 0 else None
                if value is not None and not isinstance(value, (list, dict)):
                    found[sources[source]][key].add(str(value))
        values = {
            source: {key: frozenset(v for v in vals if v) for key, vals in table.items()}
            for source, table in found.items()
        }
        present = {key for table in values.values() for key, vals in table.items() if vals}
        keys = tuple(key for key in (*FIELDS, *meta_keys) if key in present)
        return cls(values, keys)

    @property
    def sources(self) -> list[str]:
        return sorted(self.values)

    def choices(self, key: str, sources: Sequence[str] = ()) -> list[str]:
        """The values of `key` among the chosen sources (all sources when none is chosen)."""
        if key == "source":
            return self.sources
        chosen = [s for s in sources if s in self.values] or self.sources
        return sorted(set().union(*(self.values[s].get(key, frozenset()) for s in chosen)))

    def split(self, key: str, wanted: Sequence[str], sources: Sequence[str] = ()) -> tuple[list[str], list[str]]:
        """`wanted` split into the values that exist (for these sources) and those that do not."""
        known = set(self.choices(key, sources))
        return [v for v in wanted if v in known], [v for v in wanted if v not in known]
