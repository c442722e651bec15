"""The corpus formats an index can be built from, each one registered entry.

A format knows how to read a location into records, how to name the upstream commit it was
read at, and whether a file or folder is written in it (so that `NAME=PATH` needs no format
unless the content is ambiguous; `NAME:FORMAT=PATH` names one). The build records each
source's format in the index manifest. A new format is one class with `@corpus_format`.

| format | what |
| --- | --- |
| `lean-source` | a Lean project's sources: a folder or `.tar.gz` of `.lean` files (a Lake project, Mathlib) |
| `lean-jsonl` | Lean declarations as JSON lines (`.jsonl[.gz]`): `parse-lean` output, or the shared JSON lines |
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


def _stem(path: Path) -> str:
    """`mathlib.jsonl.gz` -> `mathlib`."""
    return path.name.split(".")[0]


def _lean_companion(path: Path, suffix: str) -> Path | None:
    """A file or folder beside a Lean corpus sharing its stem (`mathlib_docs/`,
    `mathlib_modules.jsonl.gz`), or in the shared Lean folder for a shared source tree (which
    keeps the trees in `src/` and their companions one level up)."""
    name = _stem(path) + suffix
    folders = [path.parent]
    if path.parent.resolve() == config.LEAN_SOURCE_DIR.resolve():
        folders.append(config.LEAN_CORPUS_DIR)
    return next((folder / name for folder in folders if (folder / name).exists()), None)


def _lean_records(rows: Any, source: "Source", module_docs: dict, famous: dict) -> list[Statement]:
    """Records of Lean rows with the authors' own text: famous names as aliases, module docs and
    inherited docstrings as informal text (`search.corpus.lean.informal`)."""
    from search.corpus.lean import attach_aliases, attach_informal, lean_statements
    from search.corpus.lean.tree import without_cyclic_gc

    # Mathlib's 311,423 rows make millions of small objects again (`without_cyclic_gc`)
    with without_cyclic_gc():
        statements = lean_statements(rows, source.name)
        attach_aliases(statements, famous, source.name)
        counts = attach_informal(statements, module_docs)
    log.info("%s: informal text for %d records (%s)", source.name, sum(counts.values()),
             ", ".join(f"{place} {n}" for place, n in counts.items()))
    return statements


def _lean_licence(source: "Source", row: dict[str, Any]) -> str:
    """A row's own `licence` field, else the licence `../shared/corpora/lean/README.md` gives for
    a shared corpus (config.LEAN_LICENCES), else unknown."""
    if row.get("licence"):
        return str(row["licence"])
    from search.corpus.lean.toolchain import release_of

    folder = source.path.parent.resolve()
    shared = folder in (config.LEAN_CORPUS_DIR.resolve(), config.LEAN_SOURCE_DIR.resolve())
    return config.LEAN_LICENCES.get(source.name, "") if shared or release_of(source.path) else ""


@corpus_format
class LeanSource:
    """A Lean project's sources, read by the project's own parser (`search.corpus.lean.tree`):
    every declaration as written, the declarations its attributes generate, its `alias`es and
    its module docs; Mathlib's tree and a user's Lake project alike (`lean_project` finds the
    root of a folder or an archive). A shared source reads only its library's folders
    (config.LEAN_LIBRARIES); Mathlib's lists of named theorems come from the project's
    `docs/*.yaml`, else from `<stem>_docs/` beside it."""

    name: ClassVar[str] = "lean-source"
    description: ClassVar[str] = "a Lean project's sources (a folder or .tar.gz of .lean files)"

    def recognises(self, path: Path) -> bool:
        from search.corpus.lean.project import holds

        return holds(path, ".lean")

    def load(self, source: "Source") -> list[Statement]:
        from search.corpus.lean.aliases import famous_names, load_mathlib_aliases
        from search.corpus.lean.module_docs import parse_module_docs
        from search.corpus.lean.project import open_lean_project
        from search.corpus.lean.tree import parse_lean_project

        project = open_lean_project(source.path)
        commit = project.commit or self.commit(source)
        upstream = config.LEAN_UPSTREAMS.get(source.name)
        folder = config.LEAN_UPSTREAM_FOLDERS.get(source.name, "")
        url_base = f"https://github.com/{upstream}/blob/{commit}/{folder}" if upstream and commit else ""
        tree = parse_lean_project(project, source.name, url_base, config.LEAN_LIBRARIES.get(source.name, ()))
        lists = project.docs_lists()
        docs = None if lists else _lean_companion(source.path, "_docs")
        famous = famous_names(lists) if lists else load_mathlib_aliases(docs) if docs else {}
        module_docs = {module: parse_module_docs(texts) for module, texts in tree.module_docs.items()}
        return _lean_records(tree.records, source, module_docs, famous)

    def commit(self, source: "Source") -> str:
        """The commit `git archive` wrote into an archive, or a toolchain's release for its core."""
        from search.corpus.lean.project import archive_commit
        from search.corpus.lean.toolchain import release_of

        return archive_commit(source.path) if source.path.is_file() else release_of(source.path)

    def licence(self, source: "Source") -> str:
        return _lean_licence(source, {})


@corpus_format
class LeanJsonl:
    """Lean declarations, one a line, with the fields of `../shared/corpora/lean/README.md`.

    Files beside it that share its stem add the authors' own text: `<stem>_docs/*.yaml`
    (Mathlib's lists of named theorems) becomes aliases, and `<stem>_modules.jsonl.gz` (the
    module doc comments of every file) informal text (`search.corpus.lean.informal`).
    """

    name: ClassVar[str] = "lean-jsonl"
    description: ClassVar[str] = "Lean declarations as JSON lines (parse-lean output, the shared JSON lines)"

    def recognises(self, path: Path) -> bool:
        row = _first_row(path)
        return row is not None and {"kind", "signature"} <= row.keys()

    def load(self, source: "Source") -> list[Statement]:
        from search.corpus.lean import load_mathlib_aliases, read_jsonl
        from search.corpus.lean.module_docs import read_module_docs

        docs = _lean_companion(source.path, "_docs")
        modules = _lean_companion(source.path, "_modules.jsonl.gz")
        return _lean_records(read_jsonl(source.path), source, read_module_docs(modules) if modules else {},
                             load_mathlib_aliases(docs) if docs else {})

    def commit(self, source: "Source") -> str:
        return str((_first_row(source.path) or {}).get("commit") or "")

    def licence(self, source: "Source") -> str:
        return _lean_licence(source, _first_row(source.path) or {})


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
        from search.corpus.lean.project import holds

        return holds(path, ".tex")

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
