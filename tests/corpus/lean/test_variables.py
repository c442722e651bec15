"""Which `variable` binders of its section a declaration uses, and the source parser keeping them."""

from __future__ import annotations

from pathlib import Path

from search.corpus.lean.tree import parse_lean_tree
from search.corpus.lean.variables import VariableBinder, used_variables, variable_binders

SECTION = ("{M : Type*} [TopologicalSpace M] [Mul M] [ContinuousMul M] {X : Type*} [TopologicalSpace X] "
           "{f g : X → M} {s : Set X} {x : X}")


def test_binder_groups_of_a_variable_command() -> None:
    assert variable_binders("{f g : X → M} [TopologicalSpace X] [inst : Fact (1 < n)] (R) {x y}") == [
        VariableBinder("{", ("f", "g"), "X → M"), VariableBinder("[", (), "TopologicalSpace X"),
        VariableBinder("[", ("inst",), "Fact (1 < n)")]
    # an instance whose type writes a colon is no named binder
    assert variable_binders("[Fact (p : ℕ).Prime]") == [VariableBinder("[", (), "Fact (p : ℕ).Prime")]


def test_a_statement_uses_what_it_mentions_what_that_needs_and_the_instances_on_it() -> None:
    binders = variable_binders(SECTION)
    # f and g, then X and M that their type mentions, then the instances on X and M; s and x unused
    assert used_variables(binders, "(hf : Continuous f) (hg : Continuous g) : Continuous (f * g)") == (
        "{M : Type*} [TopologicalSpace M] [Mul M] [ContinuousMul M] {X : Type*} [TopologicalSpace X] {f g : X → M}")
    # a name the statement binds itself is its own; one of a group is taken alone
    assert used_variables(binders, "(f : ℕ → ℕ) (hg : g = g) : f = f") == (
        "{M : Type*} [TopologicalSpace M] [Mul M] [ContinuousMul M] {X : Type*} [TopologicalSpace X] {g : X → M}")
    # an instance on a variable the statement does not use is left out; a field of a name is the name's
    assert used_variables(binders, "(h : 0 < x.1) : True") == "{X : Type*} [TopologicalSpace X] {x : X}"
    assert used_variables(binders, ": Nat.succ 0 = 1") == ""


def test_a_later_variable_of_the_same_name_shadows_an_earlier_one() -> None:
    binders = variable_binders("{α : Type*} {x : α} {β : Type*} {x : β}")
    assert used_variables(binders, ": x = x") == "{β : Type*} {x : β}"


def test_the_source_parser_keeps_the_variables_of_each_scope(tmp_path: Path) -> None:
    (tmp_path / "M.lean").write_text("""namespace N

section Outer
variable {α : Type*} [Mul α] {a b : α}

@[to_additive]
theorem mul_self_eq (h : a = b) : a * a = b * b := by rw [h]

alias mul_self_eq' := mul_self_eq

section Inner
variable [CommRing α]

theorem inner_uses (h : a = a) : True := trivial
end Inner

theorem after_inner (h : a = a) : True := trivial

variable (c : α) in
theorem with_prefix : c = c := rfl

theorem no_variable (n : Nat) : n = n := rfl
end Outer

theorem outside : a = a := rfl
end N
""", encoding="utf-8")
    variables = {r["name"]: r["variables"] for r in parse_lean_tree(tmp_path).records}
    assert variables["N.mul_self_eq"] == "{α : Type*} [Mul α] {a b : α}"
    # a translated twin says its variables translated; an alias takes its target's
    assert variables["N.add_self_eq"] == "{α : Type*} [Add α] {a b : α}"
    assert variables["N.mul_self_eq'"] == "{α : Type*} [Mul α] {a b : α}"
    assert variables["N.inner_uses"] == "{α : Type*} [Mul α] {a : α} [CommRing α]"
    assert variables["N.after_inner"] == "{α : Type*} [Mul α] {a : α}"
    assert variables["N.with_prefix"] == "{α : Type*} [Mul α] (c : α)"
    assert variables["N.no_variable"] == variables["N.outside"] == ""
