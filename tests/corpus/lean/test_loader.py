"""The Lean JSON-lines loader on a small hand-written file in the shared format."""

from pathlib import Path

import pytest

from search.corpus.crosslinks import link_stacks
from search.corpus.lean import attach_aliases, load_lean_corpus, load_mathlib_aliases
from search.record import Statement


@pytest.fixture()
def records(fixtures_dir: Path) -> dict[str, Statement]:
    loaded = load_lean_corpus(fixtures_dir / "jsonl" / "mathlib_small.jsonl", "mathlib")
    return {s.id: s for s in loaded}


def test_ids_links_and_packages(records: dict[str, Statement]) -> None:
    succ = records["mathlib:Nat.succ_le_succ"]
    assert succ.kind == "theorem" and succ.package == "Order"
    assert succ.doc_url == (
        "https://leanprover-community.github.io/mathlib4_docs/Mathlib/Order/Nat.html#Nat.succ_le_succ"
    )
    assert succ.url.endswith("Mathlib/Order/Nat.lean#L1-L2")
    assert succ.group == succ.id


def test_structure_fields_and_constructor_join_its_group(records: dict[str, Statement]) -> None:
    field = records["mathlib:Semigroup.mul_assoc"]
    assert field.kind == "field" and field.group == "mathlib:Semigroup"
    assert field.statement == "Semigroup.mul_assoc : ∀ a b c : G, a * b * c = a * (b * c)"
    assert records["mathlib:Semigroup.mk"].group == "mathlib:Semigroup"
    assert records["mathlib:Color.red"].group == "mathlib:Color"
    assert records["mathlib:Color.green"].kind == "constructor"


def test_unnamed_instance_gets_leans_name(records: dict[str, Statement]) -> None:
    instance = records["mathlib:instInhabitedColor"]
    assert instance.meta["synthesised_name"] is True
    assert instance.deps == ["mathlib:Color"]


def test_to_additive_twin_and_deps(records: dict[str, Statement]) -> None:
    twin = records["mathlib:add_comm"]
    assert twin.meta["derived_from"] == "mul_comm"
    assert twin.group == "mathlib:add_comm"
    assert "a + b = b + a" in twin.statement and "Type*" in twin.statement and " * " not in twin.statement
    assert records["mathlib:mul_left_comm"].deps == ["mathlib:Semigroup", "mathlib:mul_comm"]
    assert records["mathlib:add_left_comm"].deps == ["mathlib:add_comm"]


def test_repeated_private_names_stay_distinct(records: dict[str, Statement]) -> None:
    assert records["mathlib:helper"].path.endswith("Group/Basic.lean")
    assert records["mathlib:helper_1"].meta["duplicate_of"] == "mathlib:helper"


def test_aliases_from_mathlib_docs(fixtures_dir: Path, records: dict[str, Statement]) -> None:
    aliases = load_mathlib_aliases(fixtures_dir / "mathlib_docs")
    assert aliases["Nat.succ_le_succ"] == ["Successor is monotone"]
    statements = list(records.values())
    assert attach_aliases(statements, aliases, "mathlib") == 2
    assert records["mathlib:mul_comm"].aliases == ["Commutativity of multiplication"]


def test_stacks_attribute_links_both_ways(records: dict[str, Statement]) -> None:
    stacks = Statement(id="stacks:056U", source="stacks", kind="lemma", name="056U", statement="", language="latex")
    statements = [*records.values(), stacks]
    assert link_stacks(statements) == 1
    assert records["mathlib:Finset.card_pos"].links == ["stacks:056U"]
    assert stacks.links == ["mathlib:Finset.card_pos"]


def test_explicit_to_additive_arguments_name_and_document_the_twin() -> None:
    from search.corpus.lean import lean_statements

    base = {"kind": "theorem", "module": "M.A", "namespace": "Foo", "attributes": ["to_additive"]}
    rows = [
        {**base, "name": "Foo.mul_foo", "signature": "theorem mul_foo (a : G) : a * 1 = a",
         "attribute_args": ['to_additive add_foo "Adding zero."']},
        {**base, "name": "Foo.mul_bar", "signature": "theorem mul_bar : True",
         "attribute_args": ["to_additive existing"]},
    ]
    ids = {s.id: s for s in lean_statements(rows, "m")}
    assert ids["m:Foo.add_foo"].doc == "Adding zero."
    assert not any(s.meta.get("derived_from") == "Foo.mul_bar" for s in ids.values())


def test_the_cyclic_collector_is_off_while_rows_become_statements_and_on_after(
    fixtures_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    import search.corpus.lean as lean
    from search.corpus.sources import Source

    enabled_during = []
    read = lean.lean_statements
    monkeypatch.setattr(lean, "lean_statements", lambda *args: enabled_during.append(gc.isenabled()) or read(*args))
    loaded = Source("mathlib", fixtures_dir / "jsonl" / "mathlib_small.jsonl", "lean-jsonl").load()
    assert loaded and enabled_during == [False] and gc.isenabled()
