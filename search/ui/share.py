"""A search as a URL query string and back, so that a result page can be shared.

`?q=mul+comm&source=mathlib&kind=theorem&k=20&variant=rrf` reruns a search on page load;
`?id=mathlib:mul_comm` shows one record (where the links on cards lead); `index=NAME` picks one
of the indexes a server serves (the default when absent). Values a URL
may carry are never trusted: the page that reads them checks each one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable
from urllib.parse import urlencode

from search.engine.variants import DEFAULT as DEFAULT_VARIANT

#: Query-string keys that are not filters.
QUERY, RECORD, COUNT, VARIANT, INDEX = "q", "id", "k", "variant", "index"


@dataclass
class SearchRequest:
    """What a page shows: a query under filters, or one record by id."""

    query: str = ""
    filters: dict[str, list[str]] = field(default_factory=dict)
    k: int = 10
    variant: str = DEFAULT_VARIANT
    record: str = ""
    #: The index's name on a server with several ("": the default).
    index: str = ""


def to_query_string(request: SearchRequest, default_k: int = 10) -> str:
    """`?...` for the request; defaults are left out, filters keep their order."""
    chosen = [(INDEX, request.index)] if request.index else []
    if request.record:
        return "?" + urlencode([(RECORD, request.record), *chosen])
    pairs: list[tuple[str, str]] = [(QUERY, request.query), *chosen]
    for key, values in request.filters.items():
        pairs.extend((key, v) for v in values)
    if request.k != default_k:
        pairs.append((COUNT, str(request.k)))
    if request.variant != DEFAULT_VARIANT:
        pairs.append((VARIANT, request.variant))
    return "?" + urlencode(pairs)


def from_pairs(pairs: Iterable[tuple[str, str]], filter_keys: Iterable[str]) -> tuple[SearchRequest, list[str]]:
    """A request from query-string pairs, and notes on what was not understood.

    Unknown keys are reported and ignored; `k` must be a whole number (bounds are the page's
    to check). Filter values are kept as given, in order, without duplicates.
    """
    request, notes = SearchRequest(), []
    keys = set(filter_keys)
    for key, value in pairs:
        if key == QUERY:
            request.query = value
        elif key == RECORD:
            request.record = value
        elif key == VARIANT:
            request.variant = value
        elif key == INDEX:
            request.index = value
        elif key == COUNT:
            try:
                request.k = int(value)
            except ValueError:
                notes.append(f"k={value!r} is not a whole number; showing {request.k} results")
        elif key in keys:
            values = request.filters.setdefault(key, [])
            if value not in values:
                values.append(value)
        else:
            notes.append(f"unknown parameter {key!r} ignored")
    return request, notes
