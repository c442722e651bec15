"""Which corpora an index is built from, and how each one is read into records.

A source is a name of a shared corpus (`mathlib`, `stacks`, ...), `NAME=PATH` for a user's
own data (a `.jsonl[.gz]` of Lean declarations as `parse-lean` writes, or a directory or
`.tar.gz` of LaTeX), or `arxiv` / `arxiv=DIR_OR_HUB_NAME` for the TheoremSearch dataset.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from search import config
from search.record import Statement


@dataclass(frozen=True)
class Source:
    """A named corpus at a location, in one of three formats: lean, latex, theoremsearch."""

    name: str
    path: Path
    format: str

    def load(self) -> list[Statement]:
        if self.format == "theoremsearch":
            from search.corpus.theoremsearch import load_theoremsearch

            return load_theoremsearch(str(self.path))
        if not self.path.exists():
            raise FileNotFoundError(f"source {self.name!r}: {self.path} does not exist")
        if self.format == "lean":
            from search.corpus.lean import load_lean_corpus

            return load_lean_corpus(self.path, self.name)
        from search.corpus.latex import parse_latex

        return parse_latex(self.path, self.name)

    def commit(self) -> str:
        """The upstream commit of a shared corpus ("" for a user's data)."""
        if self.format == "lean" and self.path.name.endswith(".jsonl.gz"):
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
    if spec == "arxiv" or spec.startswith("arxiv="):
        from search.corpus.theoremsearch import DATASET

        return Source("arxiv", Path(spec.partition("=")[2] or DATASET), "theoremsearch")
    if "=" in spec:
        name, raw = spec.split("=", 1)
        path = Path(raw).expanduser()
        lean = path.name.endswith((".jsonl", ".jsonl.gz"))
        return Source(name, path, "lean" if lean else "latex")
    if spec in config.LEAN_SOURCES:
        return Source(spec, config.LEAN_CORPUS_DIR / f"{spec}.jsonl.gz", "lean")
    if spec in config.LATEX_SOURCES:
        return Source(spec, config.LATEX_CORPUS_DIR / f"{spec}.tar.gz", "latex")
    known = ", ".join(config.DEFAULT_SOURCES)
    raise ValueError(f"unknown source {spec!r}: use one of {known}, or NAME=PATH")
