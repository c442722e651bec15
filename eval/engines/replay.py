"""Saved answers of a service read back as an engine: how Moogle, which is gone, stays comparable.

The file is a JSON list in the layout of the LeanExplore paper's benchmark data, one object per
query, `{"query": q, "<service>_results": raw answer, ...}`, or a JSON object
`{query: raw answer}`. A raw answer is what the service returned (its format is documented in
the service's module) and is read by that module's `parse`, so replayed hits match live ones.
A saved `{"error": ...}` or a query without a saved answer is a failure, never an empty list.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from eval.engines import leanexplore, leansearch, loogle, moogle
from eval.engines.base import EngineFailure, Hit

PARSERS: dict[str, Callable[[Any], list[Hit]]] = {
    "leansearch": leansearch.parse,
    "loogle": loogle.parse,
    "moogle": moogle.parse,
    "leanexplore": leanexplore.parse,
}


class ReplayError(ValueError):
    """A saved-answers file that cannot be read."""


class ReplayEngine:
    remote = False

    def __init__(self, service: str, path: Path | str) -> None:
        if service not in PARSERS:
            raise ReplayError(f"cannot replay {service!r}: choose one of {', '.join(PARSERS)}")
        self.service = service
        self.name = f"replay:{service}"
        self.path = Path(path)
        self._parse = PARSERS[service]
        self._saved = load_saved(self.path, service)

    def search(self, query: str, k: int) -> list[Hit]:
        if query not in self._saved:
            raise EngineFailure(f"{self.path.name} has no saved {self.service} answer for this query")
        raw = self._saved[query]
        if raw is None:
            raise EngineFailure(f"{self.path.name} saved no {self.service} answer for this query")
        # The benchmark script saved its failures as {"error": ...}; Loogle's own refusals have
        # the same key and are read by loogle.parse as the service's answer.
        if self.service != "loogle" and isinstance(raw, dict) and "error" in raw:
            raise EngineFailure(f"the saved {self.service} answer is a failure: {raw['error']}")
        return self._parse(raw)[:k]


def load_saved(path: Path, service: str) -> dict[str, Any]:
    """Query -> raw saved answer, from either supported layout."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReplayError(f"{path}: cannot be read as JSON ({error})") from error
    if isinstance(data, dict):
        return {str(q): raw for q, raw in data.items()}
    if isinstance(data, list):
        field = f"{service}_results"
        saved = {str(row["query"]): row.get(field) for row in data
                 if isinstance(row, dict) and "query" in row and field in row}
        if saved or not data:
            return saved
        raise ReplayError(f"{path}: no entry has both 'query' and '{field}'")
    raise ReplayError(f"{path}: expected a JSON list or object")
