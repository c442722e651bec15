"""Which corpora an index is built from, and how each one is read into records.

A source is a name of a shared corpus (`mathlib`, `stacks`, ...) or `NAME=PATH` for a user's
own data: a `.jsonl[.gz]` of Lean declarations (as `parse-lean` writes), or a directory or
`.tar.gz` of LaTeX.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from search import config
from search.record import Statement


@dataclass(frozen=True)
class Source:
    """A named corpus at a path, with the commit it was taken from when known."""

    name: str
    path: Path
    formal: bool

    def load(self) -> list[Statement]:
        if not self.path.exists():
            raise FileNotFoundError(f"source {self.name!r}: {self.path} does not exist")
        if self.formal:
            from search.corpus.lean import load_lean_corpus

            return load_lean_corpus(self.path, self.name)
        from search.corpus.latex import parse_latex

        return parse_latex(self.path, self.name)

    def commit(self) -> str:
        """The upstream commit of a shared corpus ("" for a user's data)."""
        if self.formal and self.path.name.endswith(".jsonl.gz"):
            from search.corpus.lean import read_jsonl

            first = next(read_jsonl(self.path), {})
            return str(first.get("commit") or "")
        manifest = self.path.parent / "manifest.json"
        if manifest.exists():
            entry = json.loads(manifest.read_text()).get(self.name, {})
            return str(entry.get("commit") or "")
        return ""


def resolve_source(spec: str) -> Source:
    """`mathlib` -> the shared Mathlib file; `mine=./decls.jsonl` -> a user's corpus."""
    if "=" in spec:
        name, raw = spec.split("=", 1)
        path = Path(raw).expanduser()
        formal = path.name.endswith((".jsonl", ".jsonl.gz"))
        return Source(name, path, formal)
    if spec in config.LEAN_SOURCES:
        return Source(spec, config.LEAN_CORPUS_DIR / f"{spec}.jsonl.gz", True)
    if spec in config.LATEX_SOURCES:
        return Source(spec, config.LATEX_CORPUS_DIR / f"{spec}.tar.gz", False)
    known = ", ".join(config.DEFAULT_SOURCES)
    raise ValueError(f"unknown source {spec!r}: use one of {known}, or NAME=PATH")
