"""The corpus formats an index can be built from, each one registered entry.

A format knows how to read a location into records, how to name the upstream commit it was
read at, and whether a file or folder is written in it (so that `NAME=PATH` needs no format
unless the content is ambiguous; `NAME:FORMAT=PATH` names one). The build records each
source's format in the index manifest. A new format is one class with `@corpus_format`.

| format | what |
| --- | --- |
| `lean-jsonl` | Lean declarations as JSON lines (`.jsonl[.gz]`): the shared corpora or `parse-lean` output |
| `statements-jsonl` | `Statement` records as JSON lines: `parse-latex` output, or any tool's |
| `latex` | a folder or `.tar.gz` of `.tex` files (theorem-like environments) |
| `theoremsearch` | the TheoremSearch dataset: a Hugging Face name or a folder of its Parquet files |
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from search import config
from search.record import Statement

if TYPE_CHECKING:
    from search.corpus.sources import Source


class CorpusFormat(Protocol):
    name: ClassVar[str]
    description: ClassVar[str]

    def recognises(self, path: Path) -> bool:
        """Whether `path` holds data written in this format (read cheaply: a first line)."""
        ...

    def load(self, source: "Source") -> list[Statement]: ...

    def commit(self, source: "Source") -> str:
        """The upstream commit the data was read at ("" when unknown)."""
        ...

    def licence(self, source: "Source") -> str:
        """The licence of the data as its provider states it ("" when unknown), for the
        index's manifest and its Hugging Face dataset card (`search/hub/card.py`)."""
        ...


log = logging.getLogger(__name__)

#: Format instances by name, in the order formats are tried on a path.
FORMATS: dict[str, CorpusFormat] = {}
_F = TypeVar("_F", bound=type)


def corpus_format(cls: _F) -> _F:
    """Register a format class under its `name`."""
    FORMATS[cls.name] = cls()
    return cls


def _first_row(path: Path) -> dict[str, Any] | None:
    """The first JSON object of a `.jsonl[.gz]` file, or None when it holds none."""
    if not path.is_file() or not path.name.endswith((".jsonl", ".jsonl.gz")):
        return None
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            line = next((line for line in handle if line.strip()), "")
        row = json.loads(line) if line else None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return row if isinstance(row, dict) else None


@corpus_format
class LeanJsonl:
    """Lean declarations, one a line, with the fields of `../shared/corpora/lean/README.md`.

    Files beside it that share its stem add the authors' own text: `<stem>_docs/*.yaml`
    (Mathlib's lists of named theorems) becomes aliases, and `<stem>_modules.jsonl.gz` (the
    module doc comments of every file) informal text (`search.corpus.lean.informal`).
    """

    name: ClassVar[str] = "lean-jsonl"
    description: ClassVar[str] = "Lean declarations as JSON lines (the shared corpora, parse-lean output)"

    def recognises(self, path: Path) -> bool:
        row = _first_row(path)
        return row is not None and {"kind", "signature"} <= row.keys()

    def load(self, source: "Source") -> list[Statement]:
        from search.corpus.lean import attach_aliases, attach_informal, load_lean_corpus, load_mathlib_aliases
        from search.corpus.lean.module_docs import read_module_docs

        statements = load_lean_corpus(source.path, source.name)
        docs = source.path.with_name(_stem(source.path) + "_docs")
        if docs.is_dir():
            attach_aliases(statements, load_mathlib_aliases(docs), source.name)
        modules = source.path.with_name(_stem(source.path) + "_modules.jsonl.gz")
        counts = attach_informal(statements, read_module_docs(modules) if modules.is_file() else {})
        log.info("%s: informal text for %d records (%s)", source.name, sum(counts.values()),
                 ", ".join(f"{place} {n}" for place, n in counts.items()))
        return statements

    def commit(self, source: "Source") -> str:
        return str((_first_row(source.path) or {}).get("commit") or "")

    def licence(self, source: "Source") -> str:
        """A row's own `licence` field, else the licence `../shared/corpora/lean/README.md`
        gives for the shared corpora (config.LEAN_LICENCES), else unknown."""
        row = _first_row(source.path) or {}
        if row.get("licence"):
            return str(row["licence"])
        shared = source.path.parent.resolve() == config.LEAN_CORPUS_DIR.resolve()
        return config.LEAN_LICENCES.get(source.name, "") if shared else ""


def _stem(path: Path) -> str:
    """`mathlib.jsonl.gz` -> `mathlib`."""
    return path.name.split(".")[0]


@corpus_format
class StatementsJsonl:
    """`Statement` records, one a line with their fields (`parse-latex` writes them). Read
    under another source name, ids and the ids they refer to are renamed with it."""

    name: ClassVar[str] = "statements-jsonl"
    description: ClassVar[str] = "Statement records as JSON lines (parse-latex output)"
    _REQUIRED: ClassVar[frozenset[str]] = frozenset({"id", "source", "kind", "name", "statement", "language"})

    def recognises(self, path: Path) -> bool:
        row = _first_row(path)
        return row is not None and self._REQUIRED <= row.keys()

    def load(self, source: "Source") -> list[Statement]:
        from search.corpus.lean import read_jsonl

        known = {f.name for f in dataclasses.fields(Statement)}
        statements = []
        for number, row in enumerate(read_jsonl(source.path), 1):
            missing, unknown = self._REQUIRED - row.keys(), row.keys() - known
            if missing or unknown:
                raise ValueError(f"{source.path}:{number}: not a statement record "
                                 f"(missing {sorted(missing)}, unknown {sorted(unknown)})")
            statements.append(_renamed(Statement(**row), source.name))
        return statements

    def commit(self, source: "Source") -> str:
        return ""

    def licence(self, source: "Source") -> str:
        return ""


def _renamed(statement: Statement, source: str) -> Statement:
    """The record under `source`: its id and every id it holds of its old source renamed."""
    old = statement.source
    if old == source:
        return statement

    def rename(record_id: str) -> str:
        return f"{source}:{record_id[len(old) + 1:]}" if record_id.startswith(f"{old}:") else record_id

    return dataclasses.replace(
        statement, source=source, id=rename(statement.id), group=rename(statement.group),
        deps=[rename(d) for d in statement.deps], links=[rename(link) for link in statement.links],
    )


@corpus_format
class Latex:
    """A folder or `.tar.gz` of `.tex` files; the upstream commit comes from a
    `manifest.json` beside it (`{source: {"upstream", "commit"}}`), as in `../shared`."""

    name: ClassVar[str] = "latex"
    description: ClassVar[str] = "a folder or .tar.gz of .tex files"

    def recognises(self, path: Path) -> bool:
        if path.is_dir():
            return any(path.rglob("*.tex"))
        return path.is_file() and path.name.endswith((".tar.gz", ".tgz", ".tar"))

    def load(self, source: "Source") -> list[Statement]:
        from search.corpus.latex import parse_latex

        return parse_latex(source.path, source.name)

    def commit(self, source: "Source") -> str:
        from search.corpus.latex import manifest_entry

        return str(manifest_entry(source.path, source.name).get("commit") or "")

    def licence(self, source: "Source") -> str:
        from search.corpus.latex import manifest_entry

        return str(manifest_entry(source.path, source.name).get("licence") or "")


@corpus_format
class TheoremSearch:
    """The TheoremSearch dataset (`uw-math-ai/theorem-search-dataset`): its Hugging Face name,
    or a folder of its Parquet files. Named explicitly (`arxiv`, or `NAME:theoremsearch=...`),
    never recognised: a folder of Parquet files says nothing about its schema."""

    name: ClassVar[str] = "theoremsearch"
    description: ClassVar[str] = "the TheoremSearch dataset (Hugging Face name or local Parquet files)"

    def recognises(self, path: Path) -> bool:
        return False

    def load(self, source: "Source") -> list[Statement]:
        from search.corpus.theoremsearch import load_theoremsearch

        return load_theoremsearch(str(source.path))

    def commit(self, source: "Source") -> str:
        return ""

    def licence(self, source: "Source") -> str:
        """Each paper has its own (the records' `license` metadata); the card says so."""
        return "per paper (each record's `license`)"
