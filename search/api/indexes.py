"""Several indexes in one server, by name (`python app.py --index v4.28=DIR --index latest=hf://...`).

Lean users are pinned to a Mathlib version, so one server may serve an index per version. The
first index named is the default; the native API and the MCP tools take an optional `index`
name, and LeanStateSearch's `rev` (the Lean version or commit LeanSearchClient sends) picks the
index whose name, Hub revision or Lean source commit matches it (`for_revision`).
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any

from search import config
from search.api.service import SearchService
from search.api.validation import ApiError

log = logging.getLogger(__name__)

#: The name of an index given without one (`--index DIR`).
DEFAULT_NAME = "default"
#: The shortest prefix of a commit hash that `rev` may give.
MIN_COMMIT_PREFIX = 7


@dataclass(frozen=True)
class Indexes:
    """Named search services, the first the default; `tags` are further names of an index
    that `rev` may give (the revision of its `hf://...@REVISION` address)."""

    services: dict[str, SearchService]
    tags: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.services:
            raise ValueError("no index to serve")

    @classmethod
    def single(cls, service: SearchService) -> "Indexes":
        return cls({DEFAULT_NAME: service})

    @property
    def default(self) -> str:
        return next(iter(self.services))

    def get(self, name: str | None) -> SearchService:
        """The named index (the default for None or ""), or ApiError(404) listing the names."""
        if not name:
            return self.services[self.default]
        if name not in self.services:
            raise ApiError(404, f"no index named {name!r}; this server has {', '.join(self.services)}",
                           suggestions=list(self.services))
        return self.services[name]

    def for_revision(self, rev: str) -> tuple[str, bool]:
        """The index `rev` names (its name, a tag, or a prefix of at least 7 characters of one of
        its Lean sources' commits) and True; else the default and False."""
        rev = rev.strip()
        if rev:
            for name, service in self.services.items():
                if rev == name or rev in self.tags.get(name, ()):
                    return name, True
            if len(rev) >= MIN_COMMIT_PREFIX:
                for name, service in self.services.items():
                    if any(service.revision(source).startswith(rev) for source in service.lean_sources):
                        return name, True
        return self.default, False

    def load_encoders(self, threads: int = config.SEARCH_THREADS) -> None:
        """Load the query encoder of every index now, and make each search run on `threads`
        threads, in the encoder and in FAISS (`config.SEARCH_THREADS`)."""
        import faiss

        faiss.omp_set_num_threads(threads)
        started = time.perf_counter()
        for service in self.services.values():
            service.index.load_embedder(threads)
        log.info("embedding model loaded in %.1f s (process %d)", time.perf_counter() - started, os.getpid())

    def describe(self) -> list[dict[str, Any]]:
        """Name, version, build date, record count and Lean commits of each index."""
        return [
            {"name": name, "default": name == self.default, "version": service.index.version,
             "build_date": service.index.manifest.get("build_date"), "total": service.index.manifest.get("total"),
             "tags": list(self.tags.get(name, ())),
             "lean_commits": {source: service.revision(source) for source in service.lean_sources}}
            for name, service in self.services.items()
        ]
