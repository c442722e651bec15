"""Which filters an index can answer, and the check that refuses the others by name.

The engine reads a filter key as a record field (source, kind, package, module, group) or a
metadata key (chapter, tag, namespace, ...), and a key or value that no record has simply
matches nothing. An API caller is told instead, with the nearest valid spellings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from search.engine.names import nearest
from search.api.validation import ApiError
from search.engine.engine import RECORD_FILTERS
from search.record import RecordTable

#: `describe` lists the values of a filter with at most this many (module has thousands).
LISTED_VALUES = 200


@dataclass(frozen=True)
class FilterCatalogue:
    """Every filter key of an index with the set of values its records hold (as strings,
    as the engine compares them)."""

    values: dict[str, frozenset[str]]

    @classmethod
    def from_records(cls, records: RecordTable) -> "FilterCatalogue":
        """Read the distinct values of each field and metadata key. Metadata keys whose
        values are lists (`modifiers`) are left out: the engine compares scalar values only."""
        found: dict[str, set[str]] = {key: set(records.distinct(key)) for key in RECORD_FILTERS}
        listed: set[str] = set()
        for key in records.meta_keys:
            values, _ = records.encode_meta(key)
            scalars = [value for value in values if not isinstance(value, (list, dict))]
            if len(scalars) < len(values):
                listed.add(key)
            found.setdefault(key, set()).update(map(str, scalars))
        for key in listed - set(RECORD_FILTERS):
            found.pop(key, None)
        return cls({key: frozenset(v for v in values if v) for key, values in found.items()})

    def check(self, filters: Mapping[str, Any]) -> dict[str, list[str]]:
        """`filters` as the engine takes them, or ApiError(400) naming the unknown key or value.

        A value is a string (numbers and booleans are read as their text) or a list of them,
        meaning any of them; empty values are dropped.
        """
        clean: dict[str, list[str]] = {}
        for key, wanted in filters.items():
            if key not in self.values:
                raise ApiError(
                    400,
                    f"unknown filter {key!r}; the filters of this index are {', '.join(sorted(self.values))}",
                    suggestions=nearest(key, self.values),
                )
            items = wanted if isinstance(wanted, (list, tuple)) else [wanted]
            strings = []
            for item in items:
                if item is None or isinstance(item, (dict, list, tuple)):
                    raise ApiError(
                        400, f"filter {key!r} takes a string or a list of strings, not {item!r}"
                    )
                text = str(item)
                if not text:
                    continue
                if text not in self.values[key]:
                    raise ApiError(
                        400,
                        f"no record has {key} = {text!r}",
                        suggestions=nearest(text, self.values[key]),
                    )
                strings.append(text)
            if strings:
                clean[key] = strings
        return clean

    def describe(self) -> dict[str, dict[str, Any]]:
        """Each filter key with its number of values, and the values themselves when few."""
        return {
            key: {
                "count": len(values),
                "values": sorted(values) if len(values) <= LISTED_VALUES else None,
            }
            for key, values in sorted(self.values.items())
        }
