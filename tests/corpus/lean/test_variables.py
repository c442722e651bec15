"""Which `variable` binders of its section a declaration uses, and the source parser keeping them."""

from __future__ import annotations

from pathlib import Path

from search.corpus.lean.tree import parse_lean_tree
from search.corpus.lean.variables import VariableBinder, bound_in, used_variables, variable_binders

SECTION = ("{M : Type*} [TopologicalSpace M] [Mul M] [ContinuousMul M] {X : Type*} [TopologicalSpace X] "
           "{f g : X → M} {s : Set X} {x : X}")


def test_binder_groups_of_a_variable_command() -> None:
    # `(R)` and `{x y}` change how earlier variables are bound: updates, with no type
    assert variable_binders("{f g : X → M} [TopologicalSpace X] [inst : Fact (1 < n)] (R) {x y}") == [
        VariableBinder("{", ("f", "g"), "X → M"), VariableBinder("[", (), "TopologicalSpace X"),
        VariableBinder("[", ("inst",), "Fact (1 < n)"), VariableBinder("(", ("R",), ""),
        VariableBinder("{", ("x", "y"), "")]
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


def test_a_name_the_statement_binds_is_not_the_sections_where_it_is_bound() -> None:
    binders = variable_binders("{α : Type*} {σ : α → Type*} (a : α) (s : Multiset α) {n : ℕ} {x : ℝ}")
    # Mathlib's `Multiset.sigma`: every `a` is bound (by a binder's type's `∀`, by `fun`)
    assert used_variables(binders, "(t : ∀ a, Multiset (σ a)) : s.sigma t = s.bind fun a => (t a).map (Sigma.mk a)") == (
        "{α : Type*} {σ : α → Type*} (s : Multiset α)")
    # a binder's scope ends with the brackets it is written in
    assert used_variables(binders, ": (∀ a, σ a = σ a) ∧ a = a") == "{α : Type*} {σ : α → Type*} (a : α)"
    assert used_variables(binders, ": {a | a ∈ s} = {a}") == "{α : Type*} (a : α) (s : Multiset α)"
    # after the header's colon, `(n : ℝ)` ascribes a type and binds nothing; a comment mentions nothing
    assert used_variables(binders, ": (n : ℝ) ≤ x -- for every a") == "{n : ℕ} {x : ℝ}"
    # a header's `{n}` binds n; a named argument `(n := 1)` mentions no n
    assert used_variables(binders, "{n} (h : n = n) : f (n := 1) x = x") == "{x : ℝ}"
    # the names a binder binds end where other words begin: `∂μ` is no name `∀ᵐ` binds
    binders = variable_binders("{μ : Measure ℝ} {x : ℝ}")
    assert used_variables(binders, "(h : ∀ᵐ x ∂μ, x = 0) : x = 0") == "{μ : Measure ℝ} {x : ℝ}"


def test_an_update_binds_a_variable_anew_in_its_place() -> None:
    # Mathlib's `variable {𝕜 : Type*} ... variable (𝕜)`: `fderiv 𝕜 f x` takes 𝕜 explicitly
    binders = variable_binders("{𝕜 E : Type*} [NormedField 𝕜] {x : E}") + variable_binders("(𝕜) (y)")
    assert used_variables(binders, "(f : E → E) : E →L[𝕜] E") == "(𝕜 : Type*) {E : Type*} [NormedField 𝕜]"
    # an update of a name never declared changes nothing
    assert used_variables(binders, ": x = x") == "{E : Type*} {x : E}"


def test_a_definition_takes_the_variables_its_body_uses_not_those_it_binds_itself() -> None:
    binders = variable_binders("(R : Type*) [CommRing R] (p : ℕ) {x : R}")
    fields = "where maximalOfPrime : ∀ {p : Ideal R}, p ≠ ⊥ → p.IsPrime → p.IsMaximal"
    # R is used by a field; the field's p is its own, not the section's
    assert used_variables(binders, ": Prop", fields) == "(R : Type*) [CommRing R]"
    assert used_variables(binders, ": Prop", ":= fun x => x = x") == ""
    assert used_variables(binders, ": Prop", ":= x = x") == "(R : Type*) [CommRing R] {x : R}"
    assert bound_in(":= ∃ p k, p ^ k = n") == {"p", "k"}
    assert bound_in("| mk (a : α) (h : p a) : Foo α") == {"a", "h"}
    # a structure instance's fields bind nothing
    assert bound_in("{ toFun := f, map_add' := fun x y => rfl }") == {"x", "y"}
    # a bound or a filter after the names is not bound; a set-builder binds its name
    assert bound_in(":= ∀ x ∈ s, ∃ ε > 0, f x ≤ ε") == {"x", "ε"}
    assert bound_in(":= ∀ᶠ n in atTop, ∑ i ∈ range n, u i ≤ c") == {"n", "i"}
    assert bound_in(":= {x | p x} ⊆ ⋃ i, t i") == {"x", "i"}
    binders = variable_binders("{α : Type*} (s : Set α) (f : α → ℝ)")
    assert used_variables(binders, ": Prop", ":= ∀ x ∈ s, f x = 0") == "{α : Type*} (s : Set α) (f : α → ℝ)"


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

def square : α := a * a

class IsSquare : Prop where
  square_eq : a * a = b

theorem by_proof : True := by have := a; trivial
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
    # a definition and a class take the variables of their value and fields; a theorem's proof adds none
    assert variables["N.square"] == "{α : Type*} [Mul α] {a : α}"
    assert variables["N.IsSquare"] == "{α : Type*} [Mul α] {a b : α}"
    assert variables["N.by_proof"] == ""
