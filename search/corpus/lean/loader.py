"""Lean declarations (the shared JSON lines or `parse-lean` output) as Statement records.

The shared files hold one record per declaration *as written*. Lean makes more names than
that, and users search for them: unnamed instances get Lean's synthesised names, structure
fields and constructors become members of their structure's StatementGroup, and
`@[to_additive]` declarations get their additive twin. Everything derived says so in
`meta["derived_from"]`.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable, Iterator

import yaml

from search import config
from search.corpus.lean.instance_names import instance_name
from search.corpus.lean.to_additive import (
    AdditiveSpec,
    additive_name,
    additive_signature,
    explicit_additive_name,
    parse_to_additive,
)
from search.record import Statement

#: Kinds whose declaration block also declares members (fields, constructors).
STRUCTURE_KINDS = {"structure", "class"}
INDUCTIVE_KINDS = {"inductive", "class inductive", "coinductive"}


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """Yield the JSON objects of a `.jsonl` or `.jsonl.gz` file, one per line."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as error:
                    raise ValueError(f"{path}:{number}: not a JSON object ({error.msg})") from error


def docs_url(module: str, name: str) -> str:
    """The doc-gen4 page of a declaration (Mathlib's docs site hosts Batteries too)."""
    return f"{config.MATHLIB_DOCS_URL}/{module.replace('.', '/')}.html#{name}"


def package_of(module: str) -> str:
    """Top-level folder under the library root: `Mathlib.Algebra.Group.Defs` -> `Algebra`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 else parts[0]


def lean_statements(rows: Iterable[dict[str, Any]], source: str | None = None) -> list[Statement]:
    """Turn declaration rows into records: heads, derived members, unique ids.

    Rows from `parse-lean` carry a `derived_from` field and already include the additive
    twins; the shared JSON lines do not, so twins are made here for those only.
    Names as written win: a derived record (field, constructor, additive twin) whose name is
    already taken is dropped, since the written declaration is the real one; a repeated
    written or synthesised instance name gets Lean's `_1`, `_2` suffix.
    """
    written: list[Statement] = []
    derived: list[Statement] = []
    for row in rows:
        head = _head_statement(row, source or row.get("source") or "local")
        head.group = head.id
        written.append(head)
        members = _members(row, head)
        if "to_additive" in row.get("attributes", []) and "derived_from" not in row:
            if not _additive_spec(row).existing:
                members.append(_additive_twin(row, head))
        derived.extend(members)
    taken: Counter[str] = Counter()
    statements = [s for s in written if _make_unique(s, taken, rename=True)]
    statements += [s for s in derived if _make_unique(s, taken, rename=False)]
    _resolve_deps(statements)
    return statements


def load_lean_corpus(path: Path, source: str | None = None) -> list[Statement]:
    """Records of one Lean JSON-lines file (gzip or plain)."""
    return lean_statements(read_jsonl(path), source)


def _head_statement(row: dict[str, Any], source: str) -> Statement:
    namespace = row.get("namespace") or ""
    name = row.get("name") or instance_name(row["signature"], namespace)
    module = row.get("module", "")
    meta: dict[str, Any] = {"namespace": namespace}
    for key in ("modifiers", "attribute_args"):
        if row.get(key):
            meta[key] = row[key]
    if row.get("derived_from"):
        meta["derived_from"] = row["derived_from"]
    if row.get("name") is None:
        meta["synthesised_name"] = True
    stacks = _stacks_tags(row.get("attribute_args") or [])
    if stacks:
        meta["stacks_tags"] = stacks
    return Statement(
        id=f"{source}:{name}",
        source=source,
        kind=row["kind"],
        name=name,
        statement=row["signature"],
        doc=row.get("docstring") or "",
        module=module,
        path=row.get("path", ""),
        line=int(row.get("line") or 0),
        end_line=int(row.get("end_line") or 0),
        url=row.get("url") or "",
        doc_url=docs_url(module, name) if source in ("mathlib", "batteries") else "",
        package=package_of(module),
        deps=list(row.get("refs") or []),
        attributes=list(row.get("attributes") or []),
        meta=meta,
    )


def _stacks_tags(attribute_args: list[str]) -> list[str]:
    """`@[stacks 0ABC "comment"]` -> `["0ABC"]` (the shared files keep no attribute arguments)."""
    tags = []
    for item in attribute_args:
        words = item.split()
        if len(words) >= 2 and words[0] == "stacks":
            tags.append(words[1].strip('"'))
    return tags


def _derived(head: Statement, name: str, **changes: Any) -> Statement:
    """A record Lean generates from `head`: same place and links, its own name and text."""
    base = {
        "id": f"{head.source}:{name}", "name": name, "doc": "", "aliases": [], "links": [],
        "attributes": [], "doc_url": docs_url(head.module, name) if head.doc_url else "",
    }
    return replace(head, **{**base, **changes})


def _member(head: Statement, name: str, kind: str, statement: str) -> Statement:
    return _derived(
        head, name, kind=kind, statement=statement, group=head.id, deps=[head.name],
        meta={"derived_from": head.name, "namespace": head.name},
    )


def _members(row: dict[str, Any], head: Statement) -> list[Statement]:
    """Fields and constructor of a structure/class; constructors of an inductive."""
    kind = row["kind"]
    members = []
    if kind in STRUCTURE_KINDS:
        for item in row.get("fields") or []:
            binders = f" {item['binders']}" if item.get("binders") else ""
            name = f"{head.name}.{item['name']}"
            members.append(_member(head, name, "field", f"{name}{binders} : {item['type']}"))
        members.append(_member(head, f"{head.name}.mk", "constructor", f"{head.name}.mk"))
    elif kind in INDUCTIVE_KINDS:
        for ctor in row.get("constructors") or []:
            name = f"{head.name}.{ctor}"
            members.append(_member(head, name, "constructor", name))
    return members


def _additive_spec(row: dict[str, Any]) -> AdditiveSpec:
    """What the row's `@[to_additive ...]` item asks for (defaults when it names nothing)."""
    for item in row.get("attribute_args") or []:
        spec = parse_to_additive(item)
        if spec is not None:
            return spec
    return AdditiveSpec()


def _additive_twin(row: dict[str, Any], head: Statement) -> Statement:
    """The declaration `@[to_additive]` generates, named as the attribute names it."""
    spec = _additive_spec(row)
    name = explicit_additive_name(head.name, spec.target) if spec.target else additive_name(head.name)
    twin = _derived(
        head, name, statement=additive_signature(head.statement),
        doc=spec.doc or "",
        deps=[additive_name(dep) for dep in head.deps],
        attributes=[a for a in head.attributes if a != "to_additive"],
        meta={"derived_from": head.name, "namespace": head.meta.get("namespace", "")},
    )
    twin.group = twin.id
    return twin


def _make_unique(statement: Statement, taken: Counter[str], rename: bool) -> bool:
    """Claim the record's id; on a clash rename it Lean's way (`_1`, `_2`) or refuse it."""
    base = statement.id
    taken[base] += 1
    if taken[base] == 1:
        return True
    if not rename:
        return False
    statement.id = f"{base}_{taken[base] - 1}"
    statement.name = statement.id.split(":", 1)[1]
    statement.group = statement.id
    statement.meta["duplicate_of"] = base
    taken[statement.id] += 1
    return True


def _resolve_deps(statements: list[Statement]) -> None:
    """Map referenced names to ids of records that exist; drop the rest."""
    ids = {s.id for s in statements}
    for statement in statements:
        resolved = []
        for name in statement.deps:
            candidate = f"{statement.source}:{name}"
            if candidate in ids and candidate != statement.id:
                resolved.append(candidate)
        statement.deps = sorted(set(resolved))


def load_mathlib_aliases(docs_dir: Path) -> dict[str, list[str]]:
    """Famous names from Mathlib's `docs/*.yaml` lists: declaration name -> titles.

    `100.yaml`/`1000.yaml` map an entry to `title` and `decl`/`decls`; `overview.yaml` and
    `undergrad.yaml` are nested topic trees whose leaves map a title to a declaration name
    (leaves that are URLs or empty are skipped).
    """
    aliases: dict[str, list[str]] = {}

    def add(decl: Any, title: str) -> None:
        if isinstance(decl, str) and decl and "://" not in decl and " " not in decl.strip():
            titles = aliases.setdefault(decl.strip(), [])
            if title not in titles:
                titles.append(title)

    for path in sorted(docs_dir.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for entry in data.values():
            if isinstance(entry, dict) and "title" in entry:
                for decl in [entry.get("decl"), *(entry.get("decls") or [])]:
                    add(decl, str(entry["title"]))
            elif isinstance(entry, dict):
                _walk_topics(entry, add)
    return aliases


def _walk_topics(tree: dict[str, Any], add: Any) -> None:
    for title, value in tree.items():
        if isinstance(value, dict):
            _walk_topics(value, add)
        else:
            add(value, str(title))


def attach_aliases(statements: list[Statement], aliases: dict[str, list[str]], source: str) -> int:
    """Store the titles on the named records of `source`; returns how many names were found."""
    by_id = {s.id: s for s in statements}
    found = 0
    for name, titles in aliases.items():
        statement = by_id.get(f"{source}:{name}")
        if statement is not None:
            statement.aliases.extend(t for t in titles if t not in statement.aliases)
            found += 1
    return found
