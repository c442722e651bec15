"""Lean declarations in the terms Lean tools exchange: name components and a type.

LeanSearch, Loogle and LeanStateSearch answer with a declaration's *type*, which clients paste
into `have : <type> := <name>` suggestions. The records hold the declaration header as written
(`theorem succ_le_succ {n m : ℕ} (h : n ≤ m) : succ n ≤ succ m`); its binders and its type
give the same statement as a type, `∀ {n m : ℕ} (h : n ≤ m), succ n ≤ succ m`. This is
source text, not Lean's elaborated and pretty-printed type: auto-bound implicits are not
added and names are as written.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from search.record import Statement
from search.text.lean_text import signature_type

#: A binder group opens with a bracket after a space (`.{u}` universe lists do not).
_BINDERS = re.compile(r"(?:^|\s)([(\[{⦃])")
#: A dot that separates name components: not inside «guillemets».
_COMPONENT_DOT = re.compile(r"\.(?![^«]*»)")


def name_parts(name: str) -> list[str]:
    """`Nat.succ_le_succ` -> ["Nat", "succ_le_succ"]; `Foo.«a.b»` keeps `«a.b»` whole."""
    return [part for part in _COMPONENT_DOT.split(name) if part]


def declaration_type(header: str) -> str:
    """The header's statement as a type; the header itself when it writes no type
    (`structure Foo (α : Type)`)."""
    head, type_ = signature_type(header)
    if not type_:
        return header
    start = _BINDERS.search(head)
    binders = head[start.start(1):].strip() if start else ""
    return f"∀ {binders}, {type_}" if binders else type_


class FormalHit(BaseModel):
    """The fields Loogle's and LeanStateSearch's hits share, plus this engine's id and link."""

    name: str = Field(description="Full Lean name.")
    module: str = Field(description="Lean module, e.g. `Mathlib.Analysis.SpecialFunctions.Trigonometric.Basic`.")
    doc: str | None = Field(description="The doc comment, or null.")
    kind: str = Field(description="Declaration keyword as written: theorem, lemma, def, ...")
    id: str = Field(description="This engine's record id, for `/api/v1/statement/{id}`.")
    url: str = Field(description="The declaration in its upstream repository, at the indexed commit.")

    @staticmethod
    def fields_of(statement: Statement) -> dict[str, str | None]:
        return {
            "name": statement.name, "module": statement.module, "doc": statement.doc or None,
            "kind": statement.kind, "id": statement.id, "url": statement.url,
        }
