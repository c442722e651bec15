"""What Lean declares besides what is written, for the records of JSON-lines rows, and
Lean's rule for a name that is already taken.

A structure or class declares its fields and a constructor `mk`, an inductive type its
constructors: they become members of the head's StatementGroup. `@[to_additive]` declares
an additive twin (rules in `to_additive`; rows that `parse-lean` wrote list their twins
already). Every derived record says what it comes from in `meta["derived_from"]`.
"""

from __future__ import annotations

from typing import Any, Collection, Iterable

from search.corpus.lean.decl import INDUCTIVE_KINDS, STRUCTURE_KINDS
from search.corpus.lean.records import derived_statement
from search.corpus.lean.attributes import AttributeItem
from search.corpus.lean.to_additive import additive_item, additive_name, additive_signature, twin_name
from search.record import Statement


def members(row: dict[str, Any], head: Statement) -> list[Statement]:
    """Fields and constructor of a structure/class; constructors of an inductive."""
    kind = row["kind"]
    out = []
    if kind in STRUCTURE_KINDS:
        for item in row.get("fields") or []:
            binders = f" {item['binders']}" if item.get("binders") else ""
            name = f"{head.name}.{item['name']}"
            out.append(_member(head, name, "field", f"{name}{binders} : {item['type']}", item.get("modifiers")))
        out.append(_member(head, f"{head.name}.mk", "constructor", f"{head.name}.mk"))
    elif kind in INDUCTIVE_KINDS:
        for ctor in row.get("constructors") or []:
            name = f"{head.name}.{ctor}"
            out.append(_member(head, name, "constructor", name))
    return out


def _member(head: Statement, name: str, kind: str, statement: str, modifiers: list[str] | None = None) -> Statement:
    """A field's `modifiers` (`protected`) go to its meta as a declaration's do
    (search/corpus/lean/records.py), for the lexicon to see."""
    meta: dict[str, Any] = {"derived_from": head.name, "namespace": head.name}
    if modifiers:
        meta["modifiers"] = list(modifiers)
    return derived_statement(head, name, kind=kind, statement=statement, group=head.id, deps=[head.name], meta=meta)


def additive_twin(row: dict[str, Any], head: Statement) -> Statement | None:
    """The declaration `@[to_additive]` on a row generates, named as the attribute names it;
    None when the row has no such attribute, lists its twins already (`parse-lean` output)
    or names an `existing` one."""
    if "to_additive" not in row.get("attributes", []) or "derived_from" in row:
        return None
    item = additive_item(row.get("attribute_args") or []) or AttributeItem("to_additive")
    if item.flags & {"existing", "self", "none"}:
        return None
    twin = derived_statement(
        head, twin_name(head.name, item), statement=additive_signature(head.statement),
        doc=item.doc or "",
        deps=[additive_name(dep) for dep in head.deps],
        attributes=[a for a in head.attributes if a != "to_additive"],
        meta={"derived_from": head.name, "namespace": head.meta.get("namespace", "")},
    )
    twin.group = twin.id
    return twin


def fresh_name(name: str, taken: Collection[str]) -> str:
    """Lean's name for a declaration whose name is taken: `name_1`, `name_2`, ... (the first
    that is free); `name` itself when it is free."""
    fresh, n = name, 0
    while fresh in taken:
        n += 1
        fresh = f"{name}_{n}"
    return fresh


def claim_ids(statements: Iterable[Statement], taken: set[str], rename: bool) -> list[Statement]:
    """The records that get their id, in order, each claiming it in `taken`. A record whose
    id is taken is renamed Lean's way (`_1`, `_2`) when `rename`, else dropped."""
    kept = []
    for statement in statements:
        base = statement.id
        if base in taken:
            if not rename:
                continue
            statement.id = fresh_name(base, taken)
            statement.name = statement.id.split(":", 1)[1]
            statement.group = statement.id
            statement.meta["duplicate_of"] = base
        taken.add(statement.id)
        kept.append(statement)
    return kept
