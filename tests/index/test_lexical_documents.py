from __future__ import annotations

from search.index.build import lexical_documents
from search.record import Statement
from search.text.tokenize import tokenize


def _structure_with_field() -> list[Statement]:
    head = Statement(id="m:Lie", name="LieRing", statement="class LieRing (L : Type)", kind="class",
                     source="m", language="lean", doc="A Lie ring", informal="brackets and Jacobi")
    field = Statement(id="m:Lie.jacobi", name="LieRing.jacobi", statement="⁅x, ⁅y, z⁆⁆ = 0", kind="field",
                      source="m", language="lean", group="m:Lie")
    return [head, field]


def test_every_part_by_default_and_only_the_parts_asked_for() -> None:
    informal, field = tokenize("brackets"), tokenize("⁅x, ⁅y, z⁆⁆")
    full, _ = lexical_documents(_structure_with_field())
    assert set(informal + field + ["ring", "class"]) <= set(full)
    named, _ = lexical_documents(_structure_with_field(), parts=("name",))
    assert "ring" in named and not set(informal + field) & set(named)
