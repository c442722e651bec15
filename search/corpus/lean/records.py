"""One row of Lean JSON lines (a shared corpus, or `parse-lean` output) as a Statement."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from search import config
from search.record import Statement


def docs_url(module: str, name: str) -> str:
    """The doc-gen4 page of a declaration (Mathlib's docs site hosts Batteries and Lean core too)."""
    return f"{config.MATHLIB_DOCS_URL}/{module.replace('.', '/')}.html#{name}"


def package_of(module: str) -> str:
    """Top-level folder under the library root: `Mathlib.Algebra.Group.Defs` -> `Algebra`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 else parts[0]


def head_statement(row: dict[str, Any], source: str, name: str) -> Statement:
    """The record of a declaration as written, named `name` (a synthesised name for an
    unnamed instance); its `deps` are still the referenced names, not ids."""
    namespace = row.get("namespace") or ""
    module = row.get("module", "")
    meta: dict[str, Any] = {"namespace": namespace}
    for key in ("modifiers", "attribute_args", "opens"):
        if row.get(key):
            meta[key] = row[key]
    for key in ("derived_from", "derived_by", "deprecated", "value", "variables"):
        if row.get(key):
            meta[key] = row[key]
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
        language="lean",
        doc=row.get("docstring") or "",
        module=module,
        path=row.get("path", ""),
        line=int(row.get("line") or 0),
        end_line=int(row.get("end_line") or 0),
        url=row.get("url") or "",
        doc_url=docs_url(module, name) if source in ("mathlib", "batteries", config.LEAN_CORE_SOURCE) else "",
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


def derived_statement(head: Statement, name: str, **changes: Any) -> Statement:
    """A record Lean generates from `head`: same place and links, its own name and text."""
    base = {
        "id": f"{head.source}:{name}", "name": name, "doc": "", "aliases": [], "links": [],
        "attributes": [], "doc_url": docs_url(head.module, name) if head.doc_url else "",
    }
    return replace(head, **{**base, **changes})
