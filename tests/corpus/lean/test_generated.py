"""Every alias form and every attribute that generates declarations, on the fixture tree's
`FakeLib/Generated.lean`, as the source parser makes them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from search.corpus.lean import parse_lean_tree


@pytest.fixture(scope="module")
def generated(fixtures_dir: Path) -> dict[str, dict]:
    records = parse_lean_tree(fixtures_dir / "lean", "fake").records
    return {r["name"]: r for r in records if r["path"] == "FakeLib/Generated.lean"}


def test_every_form_gives_its_records(generated: dict[str, dict]) -> None:
    made = Counter(r["derived_by"] for r in generated.values() if r["derived_by"])
    assert made == {"alias": 10, "to_additive": 6, "to_dual": 3, "to_fun": 1, "reassoc": 3, "elementwise": 1,
                    "to_app": 1, "ext": 4, "mk_iff": 2, "simps": 9, "higher_order": 1}


def test_aliases_state_what_their_target_states(generated: dict[str, dict]) -> None:
    plain = generated["FakeLib.lt_imp_le"]
    assert plain["signature"] == "theorem lt_imp_le {a b : Nat} (h : a < b) : a ≤ b"
    assert (plain["derived_from"], plain["docstring"]) == ("FakeLib.le_of_lt'", "**Alias** of `FakeLib.le_of_lt'`.")
    assert generated["FakeLib.documented_alias"]["docstring"] == "My own words for this alias."
    forward, reverse = generated["FakeLib.succ_le_of_lt'"], generated["FakeLib.lt_of_succ_le'"]
    assert forward["signature"].endswith(": a < b → a + 1 ≤ b")
    assert reverse["signature"].endswith(": a + 1 ≤ b → a < b")
    assert forward["docstring"] == "**Alias** of the forward direction of `FakeLib.lt_iff_succ_le'`."
    assert generated["FakeLib.only_reverse"]["signature"].endswith(": a + 1 ≤ b → a < b")
    assert "FakeLib._" not in generated
    assert "FakeLib.Nat.le_of_lt''" in generated and "rootLevelAlias" in generated


def test_deprecations_say_what_replaces_them(generated: dict[str, dict]) -> None:
    assert generated["FakeLib.old_le_of_lt"]["deprecated"] == {"since": "2025-01-01", "use": "FakeLib.le_of_lt'"}
    assert generated["FakeLib.older_le_of_lt"]["deprecated"] == {"since": "2025-02-02", "use": "FakeLib.lt_imp_le"}
    assert generated["FakeLib.written_deprecated"]["deprecated"] == {
        "since": "2024-06-06", "use": "FakeLib.le_of_lt'"}
    assert generated["FakeLib.lt_imp_le"]["deprecated"] is None


def test_translations_nested_and_hinted(generated: dict[str, dict]) -> None:
    twin = generated["FakeLib.add_nonneg_of'"]
    assert twin["signature"] == "theorem add_nonneg_of' {a b : Nat} (ha : 0 ≤ a) (hb : 0 ≤ b) : 0 ≤ a + b"
    assert twin["attributes"] == ["simp"]
    assert generated["FakeLib.add_comm_imp"]["docstring"] == "Adding is commutative."  # on an alias
    assert generated["FakeLib.add_thing"]["derived_from"] == "FakeLib.mul_thing"  # `attribute [to_additive]`
    # `to_fun (attr := to_additive ...)`: the additive twin of the lemma and of its eta-expanded form
    assert {generated[n]["derived_from"] for n in ("FakeLib.Continuous.add'", "FakeLib.Continuous.fun_mul'")} == {
        "FakeLib.Continuous.mul'"}
    assert generated["FakeLib.Continuous.fun_add'"]["derived_from"] == "FakeLib.Continuous.fun_mul'"
    assert generated["FakeLib.Continuous.fun_add'"]["attributes"] == ["continuity", "fun_prop"]
    assert generated["FakeLib.le_inf_left'"]["signature"].endswith(": a ≥ a ⊓ b")
    assert "FakeLib.inf_le_self" in generated  # an explicit name
    assert "FakeLib.iUnion_Ico_left'" in generated  # after `to_dual_name_hint Left Right`
    assert not {"FakeLib.le_sup_left'_dual", "FakeLib.le_refl'"} & {
        n for n, r in generated.items() if r["derived_by"] == "to_dual"}  # `existing`, `self`


def test_category_and_structure_lemmas(generated: dict[str, dict]) -> None:
    assert generated["FakeLib.comp_eq_assoc"]["signature"].endswith(": ∀ {Z} (h : _ ⟶ Z), f ≫ g ≫ h = f ≫ g ≫ h")
    assert generated["FakeLib.hom_eq_apply"]["derived_by"] == "elementwise"
    assert generated["FakeLib.whisker_eq_app"]["derived_by"] == "to_app"
    # `to_additive (attr := reassoc)`: both lemmas get their `_assoc` form
    assert {"FakeLib.mul_comp_assoc", "FakeLib.add_comp_assoc"} <= set(generated)
    assert generated["FakeLib.Pt.ext"]["signature"].endswith(": x.x = y.x → x.y = y.y → x = y")  # not `same`
    assert generated["FakeLib.Wrap.ext_iff"]["signature"] == "theorem Wrap.ext_iff {a b : Wrap} : a = b ↔ a.val = b.val"
    # premises in the type (after `∀ ...,`) become the right side, not part of the equation
    assert generated["FakeLib.Wrap.ext'_iff"]["signature"].endswith(": a = b ↔ a.val + 0 = b.val")
    assert generated["FakeLib.is_good_iff"]["signature"] == "theorem is_good_iff : FakeLib.IsGood n ↔ 0 < n"
    assert "FakeLib.small_iff" in generated and "FakeLib.pt_iff" not in generated  # propositions only
    assert {"FakeLib.swapEquiv_apply", "FakeLib.swapEquiv_symm_apply", "FakeLib.laterEquiv_apply"} <= set(generated)


def test_simps_without_names_follows_the_types_projections(generated: dict[str, dict]) -> None:
    """`initialize_simps_projections` renames (`toFun → apply`) and puts first (`as_prefix`);
    proofs (`left_inv : Inverse ..`, a `Prop`; `label_ne`, a relation) make no lemma; a parent's
    fields count (`extends`); a type the tree does not declare (`Nat ≃ Nat`) gives nothing."""
    made = {n for n, r in generated.items() if r["derived_by"] == "simps"}
    assert {"FakeLib.plainEquiv_apply", "FakeLib.plainEquiv_symm_apply"} <= made
    assert {"FakeLib.labelled_toFun", "FakeLib.labelled_invFun", "FakeLib.labelled_label"} <= made
    assert "FakeLib.coe_univSub" in made
    assert not {n for n in made if n.endswith(("left_inv", "label_ne")) or "unknownType" in n}
    assert "FakeLib.comp_thing'" in generated
