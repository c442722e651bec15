"""Lean declarations in the terms Lean tools exchange: name components, the hit fields
Loogle's and LeanStateSearch's answers share (their `type` is `lean_text.declaration_type`),
and what a record says of itself in words (`informal_text`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import BaseModel, Field

from search.record import Statement

#: A dot that separates name components: not inside «guillemets».
_COMPONENT_DOT = re.compile(r"\.(?![^«]*»)")


def name_parts(name: str) -> list[str]:
    """`Nat.succ_le_succ` -> ["Nat", "succ_le_succ"]; `Foo.«a.b»` keeps `«a.b»` whole."""
    return [part for part in _COMPONENT_DOT.split(name) if part]


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
        """The hit's fields; a deprecated declaration's `doc` opens with its deprecation (what
        replaces it), the one place a Loogle client shows besides the name and type."""
        doc = "\n\n".join(part for part in (statement.deprecation, statement.doc) if part)
        return {
            "name": statement.name, "module": statement.module, "doc": doc or None,
            "kind": statement.kind, "id": statement.id, "url": statement.url,
        }


@dataclass(frozen=True)
class InformalText:
    """A record in words: a short title, and a description ("" when the record has none)."""

    name: str
    description: str


def informal_text(statement: Statement) -> InformalText:
    """The informal text every API answer carries for a record: LeanSearch's and Lean Finder's
    `informal_name` and `informal_description`, LeanExplore's `informalization`.

    This is the one function that maps a record to words, so that what the APIs say changes in
    one place. The name is the record's famous title (`aliases`: Mathlib's lists of named
    theorems, "" for most records); the description is its docstring, what its authors say of it
    elsewhere (`Statement.informal`: the module doc's line naming it, the docstring it inherits),
    and its statement said in words by the informaliser (`Statement.informal_statement`), each
    once."""
    parts = [part for part in (statement.doc.strip(), statement.informal.strip(),
                               statement.informal_statement.strip()) if part]
    parts = [p for k, p in enumerate(parts) if not any(p in other for other in parts[:k])]
    return InformalText(name=statement.aliases[0] if statement.aliases else "", description="\n\n".join(parts))
