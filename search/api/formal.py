"""Lean declarations in the terms Lean tools exchange: name components, and the hit fields
Loogle's and LeanStateSearch's answers share (their `type` is `lean_text.declaration_type`).
"""

from __future__ import annotations

import re

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
