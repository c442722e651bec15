"""The informaliser and its lexicon on small records written for the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from search.corpus.lean.informaliser import Informaliser, informalise
from search.corpus.lean.lexicon import CORRECTIONS, Lexicon, Phrase, build_lexicon, read_corrections
from search.record import Statement


def lean(name: str, kind: str, statement: str, doc: str = "", **meta) -> Statement:
    return Statement(id=f"m:{name}", source="m", kind=kind, name=name, statement=statement, language="lean",
                     doc=doc, meta=meta)


CONSTANTS = [
    lean("Nat.Prime", "def", "def Prime (p : ℕ)",
         "`Nat.Prime p` means that `p` is a prime number, that is, a natural number at least 2.",
         value="Irreducible p"),
    lean("IsCompact", "def", "def IsCompact (s : Set X)", "A set `s` is compact if for every nontrivial filter ..."),
    lean("Even", "def", "def Even (a : α) : Prop", "An element `a` of a type `α` with addition satisfies `Even a` if"),
    lean("deriv", "def", "def deriv (f : 𝕜 → F) (x : 𝕜)", "Derivative of `f` at the point `x`, if it exists."),
    lean("Polynomial.degree", "def", "def degree (p : R[X]) : WithBot ℕ", "`degree p` is the degree of the polynomial `p`."),
    lean("DifferentiableAt", "def", "def DifferentiableAt (f : E → F) (x : E)"),
    lean("Nat.Coprime", "def", "def Coprime (m n : ℕ) : Prop"),
    lean("CommRing", "class", "class CommRing (α : Type u) extends Ring α, CommMonoid α"),
    lean("Module", "class", "class Module (R : Type u) (M : Type v) [Semiring R] [AddCommMonoid M]"),
    lean("hammingDist", "def", "def hammingDist (x y : ∀ i, β i) : ℕ", value="#{i | x i ≠ y i}"),
    lean("IsNoetherian", "class", "class IsNoetherian (R M) [Semiring R] [AddCommMonoid M] [Module R M] : Prop",
         "`IsNoetherian R M` is the proposition that `M` is a Noetherian `R`-module"),
    lean("IsNoetherian.noetherian", "field", "IsNoetherian.noetherian : ∀ s : Submodule R M, s.FG",
         derived_from="IsNoetherian"),
    lean("Submodule.FG", "def", "def FG (N : Submodule R M) : Prop",
         "A submodule of `M` is finitely generated if it is the span of a finite subset of `M`."),
    lean("PseudoMetricSpace", "class", "class PseudoMetricSpace (α : Type u)"),
    lean("Compacts.lift", "def", "def lift (f : α → β) (K : Compacts α) : Compacts β", "The lift of `f` and `K`."),
    lean("Hamming", "def", "def Hamming (β : ι → Type*) : Type _", value="∀ i, β i"),
    lean("ContDiffWithinAt", "def", "def ContDiffWithinAt (n : WithTop ℕ∞) (f : E → F) (s : Set E) (x : E) : Prop"),
    lean("HasFDerivAt", "def", "def HasFDerivAt (f : E → F) (f' : E →L[𝕜] F) (x : E)"),
    lean("HasSum", "def", "def HasSum (f : β → α) (a : α) : Prop"),
    lean("CategoryTheory.NatTrans", "structure", "structure NatTrans (F G : C ⥤ D) : Type max u₁ v₂"),
    lean("addOrderOf", "def", "def addOrderOf (x : G) : ℕ"),
    lean("IsDomain", "class", "class IsDomain (α : Type u) [Semiring α] : Prop extends IsCancelMulZero α, Nontrivial α"),
    lean("MeasureTheory.Integrable", "def", "def Integrable {α} [TopologicalSpace ε] {_ : MeasurableSpace α} "
         "(f : α → ε) (μ : Measure α := by volume_tac) : Prop"),
    lean("IsIntegral", "def", "def IsIntegral (R) [CommRing R] (x : A) : Prop"),
    lean("ContinuousAt", "def", "def ContinuousAt (f : X → Y) (x : X) : Prop",
         "A function between topological spaces is continuous at a point `x₀` if `f x` tends to `f x₀` when `x` "
         "tends to `x₀`."),
    lean("ProbabilityTheory.Kernel.iIndepFun", "def", "def iIndepFun (f : ∀ x : ι, Ω → β x) (κ : Kernel α Ω) "
         "(μ : Measure α := by volume_tac) : Prop",
         "A family of functions defined on the same space `Ω` and taking values in possibly different spaces, each "
         "with a measurable space structure, is independent if the family of structures they generate is independent."),
    lean("SimpleGraph.IsIsolated", "def", "def IsIsolated (G : SimpleGraph V) (v : V) : Prop",
         "A vertex in a graph is isolated if it's adjacent to no other vertex."),
    lean("Metric.ball", "def", "def ball (x : α) (ε : ℝ) : Set α", "`ball x ε` is the set of all points `y` with "
         "`dist y x < ε`"),
    lean("AEMeasurable", "def", "def AEMeasurable {_m : MeasurableSpace α} (f : α → β) "
         "(μ : Measure α := by volume_tac) : Prop",
         "A function is almost everywhere measurable if it coincides almost everywhere with a measurable function."),
    lean("CategoryTheory.Limits.HasZeroMorphisms", "class",
         "class HasZeroMorphisms (C : Type u) [Category.{v} C] : Type max u (v + 1)"),
    lean("CategoryTheory.Limits.HasColimitsOfSize", "class", "class HasColimitsOfSize (J : Type w) (C : Type u) : Type"),
    lean("CategoryTheory.Category", "class", "class Category (obj : Type u) : Type max u (v + 1)"),
    lean("SSet.N", "structure", "structure N (X : SSet.{u}) : Type u"),
    lean("HasProd", "def", "def HasProd (f : β → α) (a : α) (L := unconditional β) : Prop"),
    lean("Function.Even", "def", "def Function.Even (f : α → β) : Prop", "A function `f` is _even_ if it satisfies"),
    lean("Multipliable", "def", "def Multipliable (f : β → α) (L := unconditional β) : Prop",
         "`f` is multipliable with respect to `L` if it has a product along `L`."),
    lean("ContinuousOn", "def", "def ContinuousOn (f : α → β) (s : Set α) : Prop",
         "A function between topological spaces is continuous on a subset `s` when it's continuous at every point"),
    lean("SimpleGraph.IsRegularOfDegree", "def", "def IsRegularOfDegree (d : ℕ) : Prop",
         "A graph is regular of degree `d` if every vertex has degree `d`."),
    lean("Compacts.map", "def", "def map (f : α → β) (hf : IsCompact f) (K : Compacts α) : Compacts β"),
    lean("SSet.horn", "def", "def horn (n : ℕ) (i : Fin (n + 1)) : (Δ[n] : SSet.{u}).Subcomplex"),
    lean("SSet.boundary", "def", "def boundary (n : ℕ) : (Δ[n] : SSet.{u}).Subcomplex"),
    lean("MeasureTheory.IntegrableOn", "def", "def IntegrableOn (f : α → ε) (s : Set α) (μ : Measure α := by volume_tac) "
         ": Prop", "A function `f` is `IntegrableOn` a set `s` if it is integrable with respect to `μ.restrict s`."),
]


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return build_lexicon(CONSTANTS, corrections={})


@pytest.mark.parametrize(("name", "template", "role", "source"), [
    ("Nat.Prime", "{0} is a prime number", "predicate", "docstring"),
    ("IsCompact", "{0} is compact", "predicate", "docstring"),
    ("Even", "{0} is even", "predicate", "name"),
    ("deriv", "the derivative of {0} at {1}", "function", "docstring"),
    ("Polynomial.degree", "the degree of {0}", "function", "docstring"),
    ("Finset.card", "the number of elements of {0}", "function", "notation"),
    ("DifferentiableAt", "{0} is differentiable at {1}", "predicate", "name"),
    ("Nat.Coprime", "{0} and {1} are coprime", "predicate", "name"),
    ("CommRing", "commutative ring", "class", "name"),
    ("hammingDist", "the hamming distance of {0} and {1}", "function", "name"),
    ("ContDiffWithinAt", "{0} is continuously differentiable within {1} at {2}", "predicate", "name"),
    ("HasFDerivAt", "{0} has Fréchet derivative {1} at {2}", "predicate", "name"),
    ("HasSum", "{0} has sum {1}", "predicate", "name"),
    ("CategoryTheory.NatTrans", "natural transformation", "class", "name"),
    ("addOrderOf", "the additive order of {0}", "function", "name"),
    ("IsDomain", "{0} is domain", "predicate", "name"),
    ("MeasureTheory.Integrable", "{0} is integrable with {1}", "predicate", "name"),
    ("IsIntegral", "{0} is integral", "predicate", "name"),
    # the docstring's subject is no argument: it is the argument the phrase does not say ...
    ("ContinuousOn", "{0} is continuous on {1}", "predicate", "docstring"),
    # ... never one with a default value (`μ := volume`) ...
    ("AEMeasurable", "{0} is almost everywhere measurable", "predicate", "docstring"),
    # ... the one whose type the subject's nouns name (a function's is an arrow), not a noun after them
    ("ProbabilityTheory.Kernel.iIndepFun", "{0} is independent", "predicate", "docstring"),
    ("SimpleGraph.IsIsolated", "{1} is isolated", "predicate", "docstring"),
    # a docstring's `x₀` is the argument `x`
    ("ContinuousAt", "{0} is continuous at {1}", "predicate", "docstring"),
    # a function's phrase that says none of its arguments is not taken: the name's words say them
    ("Metric.ball", "the ball of {0} and {1}", "function", "name"),
    # ... or, when it says them all, a `variable` before the header's arguments (`G.IsRegularOfDegree d`)
    ("SimpleGraph.IsRegularOfDegree", "{0} is regular of degree {1}", "predicate", "docstring"),
    # a constant's name in a docstring is said by its words, a slot's noun left out
    ("MeasureTheory.IntegrableOn", "{0} is integrable on {1}", "predicate", "docstring"),
])
def test_phrases_from_docstrings_and_names(lexicon: Lexicon, name: str, template: str, role: str, source: str) -> None:
    assert lexicon.phrases[name] == Phrase(template, role, source)


def test_arguments_with_a_default_value_are_counted_from_the_end(lexicon: Lexicon) -> None:
    assert [lexicon.phrases[n].optional for n in ("HasProd", "Multipliable", "MeasureTheory.Integrable", "HasSum")] \
        == [1, 1, 1, 0]


def test_a_corrected_phrase_leaves_out_the_arguments_with_a_default_value() -> None:
    corrected = build_lexicon(CONSTANTS, {"Multipliable": Phrase("{0} is multipliable", "predicate", "corrections")})
    assert corrected.phrases["Multipliable"].optional == 1
    said = Informaliser(corrected, {}).sentence(lean("m", "theorem", "theorem m (L : SummationFilter β) : Multipliable f L"))
    assert said is not None and said.text.endswith("f is multipliable.")


def test_notation_and_corrections(tmp_path: Path) -> None:
    corrections = tmp_path / "corrections.tsv"
    corrections.write_text("# a comment\nEven\tpredicate\t{0} is an even number\n", encoding="utf-8")
    lexicon = build_lexicon(CONSTANTS, read_corrections(corrections))
    assert lexicon.phrases["Even"] == Phrase("{0} is an even number", "predicate", "corrections")
    assert lexicon.phrases["LE.le"].template == "{0} is at most {1}"
    corrections.write_text("Even\tadjective\t{0} is even\n", encoding="utf-8")
    with pytest.raises(ValueError, match="corrections.tsv:1: expected constant<TAB>role<TAB>template"):
        read_corrections(corrections)


def test_the_shipped_corrections_say_each_constant_once() -> None:
    """A constant written twice in lexicon_corrections.tsv would be said by its last line only."""
    lines = [line.split("\t", 1)[0] for line in CORRECTIONS.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert len(lines) == len(set(lines)) == len(read_corrections())
    maps_to = lean("Set.MapsTo", "def", "def MapsTo (f : α → β) (s : Set α) (t : Set β) : Prop")
    said = Informaliser(build_lexicon([maps_to]), {}).sentence(
        lean("Set.MapsTo.comp", "theorem", "theorem comp (h₁ : MapsTo g t p) (h₂ : MapsTo f s t) : MapsTo (g ∘ f) s p",
             namespace="Set"))
    assert said is not None and said.text == "If g maps t to p and f maps s to t, then (g composed with f) maps s to p."


@pytest.mark.parametrize(("record", "sentence"), [
    (lean("inner_self_nonneg", "theorem", "theorem inner_self_nonneg {x : E} : 0 ≤ RCLike.re ⟪x, x⟫"),
     "0 is at most the real part of the inner product of x with itself."),
    (lean("List.Sublist.length_le", "theorem", "theorem length_le {l₁ l₂ : List α} (h : l₁ <+ l₂) : "
          "l₁.length ≤ l₂.length"),
     "For lists l₁ and l₂ of α, if l₁ is a sublist of l₂, then the length of l₁ is at most the length of l₂."),
    (lean("MeasureTheory.Measure.AbsolutelyContinuous.trans", "theorem",
          "theorem trans (h1 : μ₁ ≪ μ₂) (h2 : μ₂ ≪ μ₃) : μ₁ ≪ μ₃"),
     "If μ₁ is absolutely continuous with respect to μ₂ and μ₂ is absolutely continuous with respect to μ₃, then "
     "μ₁ is absolutely continuous with respect to μ₃."),
    (lean("Nat.Coprime.gcd_eq_one", "theorem", "theorem gcd_eq_one {m n : ℕ} (h : Nat.Coprime m n) : "
          "Nat.gcd m n = 1"),
     "For natural numbers m and n, if m and n are coprime, then the greatest common divisor of m and n equals 1."),
    (lean("List.map_replicate", "theorem", "theorem map_replicate (h : Function.LeftInverse g f) : "
          "List.map f (List.replicate n a) = List.replicate n (f a)"),
     "If g is a left inverse of f, then the image of the list of n copies of a under f equals the list of n "
     "copies of f a."),
])
def test_the_shipped_corrections_say_core_constants_and_relations(record: Statement, sentence: str) -> None:
    """Lean's core constants (lists, `Nat.gcd`) have no record to make a phrase from: the corrections say them,
    as they say the relations that notation writes (`l₁ <+ l₂`, `μ ≪ ν`)."""
    said = Informaliser(build_lexicon([]), {}).sentence(record)
    assert said is not None and said.text == sentence


def test_the_shipped_corrections_say_structure_fields() -> None:
    """A field is no definition, so the lexicon made from the records has no phrase for it; the
    shipped lines say the projections statements use most (`G.Adj u v`, `M.Indep I`, `K.X i`)."""
    informaliser = Informaliser(build_lexicon([]), {})
    adjacent = lean("SimpleGraph.Adj.symm", "theorem", "theorem Adj.symm {G : SimpleGraph V} (h : G.Adj u v) : G.Adj v u")
    assert informaliser.sentence(adjacent).text == "If u and v are adjacent in G, then v and u are adjacent in G."
    independent = lean("Matroid.Indep.subset", "theorem",
                       "theorem Indep.subset {M : Matroid α} (hJ : M.Indep J) (hIJ : I ⊆ J) : M.Indep I")
    assert informaliser.sentence(independent).text == \
        "If J is independent in M and I is a subset of J, then I is independent in M."
    # (a field's last component, `c.Rel`, is found in the statement's namespace first: `Multiset.Rel` is another)
    objects = lean("ComplexShape.t", "theorem",
                   "theorem t (K : HomologicalComplex V c) (h : c.Rel i j) : IsZero (K.X i)")
    assert informaliser.sentence(objects).text == \
        "If c allows a differential from i to j, then the object of K in degree i is zero."


def test_the_shipped_corrections_make_a_class_that_states_a_property_a_condition() -> None:
    informaliser = Informaliser(build_lexicon([]), {})
    record = lean("ZMod.t", "theorem", "theorem t (n : ℕ) [NeZero n] (f g : Multiset α) (h : Multiset.Rel Associated f g) "
                  ": 0 < n")
    assert informaliser.sentence(record).text == \
        "For a natural number n, if n is not zero and f and g are related elementwise by associated, then 0 is less " \
        "than n."


def test_the_shipped_corrections_say_whose_property_a_name_ending_in_a_preposition_is() -> None:
    """`ConvexOn 𝕜 s f` takes the set before the function, `IsMaxOn f s a` a point after the
    set: the name's words alone would say "s is convex on f" and "s is maximum on a"."""
    informaliser = Informaliser(build_lexicon([]), {})
    convex = lean("ConvexOn.t", "theorem", "theorem t (hf : ConvexOn 𝕜 s f) (hg : IsMaxOn g s a) : Convex 𝕜 s")
    assert informaliser.sentence(convex).text == \
        "If f is convex on s and g attains its maximum on s at a, then s is convex."


def test_field_notation_puts_its_term_where_lean_does() -> None:
    """`s.image f` is `Finset.image f s` and `s.EqOn f g` is `Set.EqOn f g s`: Lean gives the
    term to the first explicit argument of the namespace's type, the section's `variable`s
    counted (`Ideal.map (f : F) (I : Ideal R)`), not to the first argument."""
    lexicon = build_lexicon([
        lean("Finset.image", "def", "def image (f : α → β) (s : Finset α) : Finset β",
             "`image f s` is the forward image of `s` under `f`."),
        lean("Set.EqOn", "def", "def EqOn (f₁ f₂ : α → β) (s : Set α) : Prop"),
        lean("Ideal.map", "def", "def map (I : Ideal R) : Ideal S", variables="(f : F) {R : Type*}"),
        lean("Multiset.count", "def", "def count (a : α) : Multiset α → ℕ"),
    ], corrections={"Set.EqOn": Phrase("{0} and {1} are equal on {2}", "predicate", "corrections")})
    # the arrows of a type are no slots of its phrase (`Multiset.count`), so `s.count a` keeps its order
    assert lexicon.receivers == {"Finset.image": 1, "Set.EqOn": 2, "Ideal.map": 1}
    said = Informaliser(lexicon, {}).sentence(lean("t", "theorem", "theorem t {s : Finset α} {t : Set α} {f g : α → β} "
                                                   "(h : t.EqOn f g) : s.image f = s.image g"))
    assert said.text == "For a finite set s of α, a set t of α and functions f and g, if f and g are equal on t, " \
        "then the forward image of s under f equals the forward image of s under g."


def test_a_written_name_is_found_in_its_namespaces(lexicon: Lexicon) -> None:
    assert lexicon.find("Prime", ("Nat",))[0] == "Nat.Prime"
    assert lexicon.find("card", ("Finset",))[0] == "Finset.card"
    assert lexicon.find("Nat.Prime")[0] == "Nat.Prime"
    assert lexicon.find("NoSuchThing") is None


def test_an_opened_namespace_gives_no_protected_constant_a_name_of_one_component() -> None:
    lexicon = build_lexicon([lean("Equiv.max", "abbrev", "abbrev max [Max β] : Max α", modifiers=["protected"]),
                             lean("Equiv.symm", "def", "def symm (e : α ≃ β) : β ≃ α"),
                             lean("Multiset.sym2", "def", "def sym2 (m : Multiset α) : Multiset (Sym2 α)",
                                  modifiers=["protected"])],
                            corrections={})
    assert lexicon.protected == {"Equiv.max", "Multiset.sym2"}
    # `max a b` under `open Equiv` is `Max.max`, the class's field Lean exports to the root
    assert lexicon.find("max", ("Cardinal",), ("Equiv",)) == ("Max.max", lexicon.phrases["Max.max"])
    assert lexicon.find("Equiv.max", ("Cardinal",), ("Equiv",))[0] == "Equiv.max"
    assert lexicon.find("symm", ("Cardinal",), ("Equiv",))[0] == "Equiv.symm"
    # in the statement's own namespace, `s.sym2` reads as `sym2`; opened, it is found by the name's end
    assert lexicon.find("sym2", ("Multiset",))[0] == "Multiset.sym2"
    assert lexicon.find("sym2", (), ("Multiset",))[0] == "Multiset.sym2"


@pytest.mark.parametrize(("record", "sentence"), [
    (lean("Nat.Prime.two_le", "theorem", "theorem Prime.two_le : ∀ {p : ℕ}, Prime p → 2 ≤ p", namespace="Nat"),
     "For every natural number p, if p is a prime number, then 2 is at most p."),
    (lean("Even.add", "theorem", "lemma Even.add [CommRing α] {a b : α} : Even a → Even b → Even (a + b)"),
     "For a commutative ring α, if a and b are even, then the sum of a and b is even."),
    (lean("deriv_mul", "theorem", "theorem deriv_mul (hc : DifferentiableAt 𝕜 c x) :\n    deriv (c * d) x = "
          "deriv c x * d x + c x * deriv d x"),
     "If c is differentiable at x, then the derivative of the product of c and d at x equals the "
     "derivative of c at x times d x plus c x times the derivative of d at x."),
    (lean("continuous_iff", "theorem", "theorem continuous_iff : ∀ ε > 0, ∃ δ > 0, δ ≤ ε"),
     "For every ε greater than 0, there is δ greater than 0 such that δ is at most ε."),
    (lean("Finset.card_le", "theorem", "theorem card_le (s : Finset α) (n : ℕ) (h : ∑ i ∈ s, f i ≤ n) : s.card ≤ n",
          namespace="Finset"),
     "For a finite set s of α and a natural number n, if the sum of f i over i in s is at most n, then the number "
     "of elements of s is at most n."),
    (lean("hammingDist", "def", "def hammingDist (x y : ∀ i, β i) : ℕ", value="#{i | x i ≠ y i}"),
     "The hamming distance of x and y is the number of elements of the set of i such that x i is not equal to y i."),
    (lean("IsNoetherian", "class", "class IsNoetherian (R M) [Semiring R] [AddCommMonoid M] [Module R M] : Prop"),
     "For a semiring R, an additive commutative monoid M and a module M over R, M is a Noetherian R-module if for "
     "every submodule s of M, s is finitely generated."),
    (lean("Hamming.instPseudoMetricSpace", "instance", "instance : PseudoMetricSpace (Hamming β)"),
     "Hamming β is a pseudo metric space."),
    (lean("MeasureTheory.Integrable.add", "theorem", "theorem Integrable.add (hf : Integrable f μ) (hg : Integrable g) "
          ": Integrable (f + g) μ", namespace="MeasureTheory"),
     "If f is integrable with μ and g is integrable, then the sum of f and g is integrable with μ."),
    # a class named by what its argument has is a condition on it, not a kind of thing ("a has zero morphisms C")
    (lean("CategoryTheory.Limits.zero_comp", "theorem", "theorem zero_comp [HasZeroMorphisms C] [HasColimitsOfSize J C] "
          "(X : C) : X = X", namespace="CategoryTheory.Limits"),
     "If C has zero morphisms and C has colimits of size J, then X equals X."),
    (lean("CategoryTheory.Limits.Foo.instHasZeroMorphisms", "instance", "instance : HasZeroMorphisms (Foo C)",
          namespace="CategoryTheory.Limits"),
     "Foo of C has zero morphisms."),
    (lean("CategoryTheory.MorphismProperty.IsStableUnderBraiding", "class", "class IsStableUnderBraiding "
          "(P : MorphismProperty C) extends P.IsMonoidalStable, Foo P : Type"),
     "P is stable under braiding, extending a foo, such that P is monoidal stable."),
    # an argument with a default value, written or not, is not taken for another's slot
    (lean("HasProd.mul", "theorem", "theorem HasProd.mul (hf : HasProd f a L) (hg : HasProd g b) : "
          "HasProd (f * g) (a * b) L"),
     "If f has prod a and g has prod b, then the product of f and g has prod the product of a and b."),
    (lean("Multipliable.mul", "theorem", "theorem Multipliable.mul (hf : Multipliable f L) (hg : Multipliable g) : "
          "Multipliable (f * g) L"),
     "If f is multipliable with respect to L and g is multipliable, then the product of f and g is multipliable "
     "with respect to L."),
    # a one-letter type's name says nothing of its terms ("for a n x and a n y")
    (lean("SSet.N.dim_lt_of_lt", "theorem", "lemma dim_lt_of_lt {x y : X.N} (h : x < y) : x = y", namespace="SSet.N"),
     "If x is less than y, then x equals y."),
    # a sentence that opens on a variable keeps its letter: "F times g" would be another variable
    (lean("Even.mul_self", "theorem", "theorem Even.mul_self (f g : α) : f * g = g * f"),
     "f * g equals g * f; that is, multiplication is commutative."),
    (lean("Function.Even.add", "theorem", "theorem Function.Even.add (hf : Function.Even f) : Function.Even (f + f)"),
     "If f is even, then the sum of f and f is even."),
    (lean("AEMeasurable.mono", "theorem", "theorem AEMeasurable.mono (h : AEMeasurable f μ) : AEMeasurable f ν"),
     "If f is almost everywhere measurable, then f is almost everywhere measurable."),
    (lean("ContinuousOn.mono", "theorem", "theorem ContinuousOn.mono (hf : ContinuousOn f s) (h : t ⊆ s) : "
          "ContinuousOn f t"),
     "If f is continuous on s and t is a subset of s, then f is continuous on t."),
    (lean("SimpleGraph.IsRegularOfDegree.top", "theorem", "theorem IsRegularOfDegree.top (h : G.IsRegularOfDegree d) : "
          "G.IsRegularOfDegree d", namespace="SimpleGraph"),
     "If G is regular of degree d, then G is regular of degree d."),
    # a proof passed to a function is no object of the sentence ("the map of f and hf and K")
    (lean("Compacts.map_id", "theorem", "theorem map_id (hf : IsCompact f) (K : Compacts α) : Compacts.map f hf K = K"),
     "If f is compact, then the map of f and K equals K."),
    # notation the tokenizer splits, pairs and sections are read, not left as "…"
    (lean("Filter.EventuallyLE.antisymm", "theorem", "theorem antisymm (h : f ≤ᵐ[μ] g) (h' : g ≤ᵐ[μ] f) : f =ᵐ[μ] g"),
     "If f is at most g almost everywhere with respect to μ and g is at most f almost everywhere with respect to μ, "
     "then f equals g almost everywhere with respect to μ."),
    (lean("MeasureTheory.ae_le_of_ae_lt", "theorem", "theorem ae_le_of_ae_lt (h : ∀ᵐ x ∂μ, f x < g x) : "
          "∀ᶠ x in l, f x ≤ g x"),
     "If for almost every x with respect to μ, f x is less than g x, then eventually along l, f x is at most g x."),
    (lean("Filter.EventuallyEq.deriv_eq", "theorem", "theorem deriv_eq (h : f =ᶠ[𝓝 x] g) : deriv f x = deriv g x"),
     "If f equals g eventually along x, then the derivative of f at x equals the derivative of g at x."),
    (lean("real_inner_comm", "theorem", "theorem real_inner_comm (x y : F) : ⟪y, x⟫_ℝ = ⟪x, y⟫_ℝ"),
     "The inner product of y and x equals the inner product of x and y; that is, the inner product is "
     "symmetric."),
    (lean("add_left_injective", "theorem", "theorem add_left_injective (b : G) : Function.Injective (· + b)"),
     "The function x ↦ x + b is injective."),
    (lean("isLittleO_id", "theorem", "theorem isLittleO_id (k : ℝ) : (fun t ↦ t ^ k) =o[atTop] fun t ↦ t ^ (k + 1)"),
     "For a real number k, the function t ↦ t ^ k is little o of the function t ↦ t ^ (k + 1) along infinity."),
    (lean("Ideal.length_quotient", "theorem", "theorem length_quotient (n : ℕ) : "
          "Module.length R (R ⧸ maximalIdeal R ^ n) = n"),
     "For a natural number n, length of R and the quotient of R by (maximal ideal of R) to the power n equals n."),
    (lean("Prod.mem", "theorem", "theorem mem {x : A × B} : x.1 ∈ S ∧ x.2.1 = 0"),
     "For a product x of A and B, the first component of x belongs to S and the first component of the second "
     "component of x equals 0."),
    # a list's element, a positive part and a conjugate transpose are said, not left as "…"
    (lean("List.getElem_mem", "theorem", "theorem getElem_mem {l : List α} {n : ℕ} (h : n < l.length) : l[n] ∈ l"),
     "For a list l of α and a natural number n, if n is less than length of l, then the element of l at index n "
     "belongs to l."),
    (lean("Matrix.posPart_conjTranspose", "theorem", "theorem posPart_conjTranspose (a : α) (A : Matrix m n α) : "
          "a⁺ ≤ a ∧ Aᴴᴴ = A"),
     "For a matrix A, the positive part of a is at most a and the conjugate transpose of the conjugate transpose "
     "of A equals A."),
    # a shift, a preimage under a morphism of schemes and simplicial sets' notation are said too
    (lean("CategoryTheory.Functor.map_comp_shift", "theorem", "theorem map_comp_shift (X : C) (f : X ⟶ X) (n : ℤ) : "
          "(f ≫ f)⟦n⟧' = f⟦n⟧' ≫ f⟦n⟧'"),
     "For a morphism f from X to X and an integer n, the shift functor by n of (f followed by f) equals the shift "
     "functor by n of f followed by the shift functor by n of f."),
    (lean("AlgebraicGeometry.Scheme.preimage_mono", "theorem", "theorem preimage_mono (f : X ⟶ Y) (U V : Opens Y) "
          "(h : U ≤ V) : f ⁻¹ᵁ U ≤ f ⁻¹ᵁ V"),
     "For a morphism f from X to Y, if U is at most V, then the preimage under f of U is at most the preimage under f "
     "of V."),
    (lean("SSet.horn_le_boundary", "theorem", "theorem horn_le_boundary (n : ℕ) (i : Fin (n + 1)) : Λ[n, i] ≤ ∂Δ[n]"),
     "For a natural number n and an element i of Fin (n + 1), the horn of n and i is at most the boundary of n."),
    # an argument given by its name, and a constant of the namespace its type names (`.ok`), are said
    (lean("Result.map_eq_ok", "theorem", "theorem map_eq_ok : x.map f (a := a) = .ok b s"),
     "The map of x and f equals ok of b and s."),
    # a hole is no object of the sentence ("the to of …")
    # a hole in a list of arguments is left out of the list, not with the preposition
    (lean("Compacts.lift_hole", "theorem", "theorem lift_hole : Compacts.lift _ K = K"), "The lift of K equals K."),
    (lean("Category.comp_assoc", "theorem", "theorem comp_assoc : ∀ {Z} (h : _ ⟶ Z), f ≫ h = g ≫ h"),
     "For every Z, for every morphism h to Z, f followed by h equals g followed by h."),
    (lean("IsPushout.of_isInitial", "theorem", "theorem of_isInitial (hI : IsCompact I) : c.inl = hI.to _"),
     "If I is compact, then inl of c equals to of hI."),
    # a variable whose type is an arrow is a function, a sequence, a predicate or a relation
    (lean("Even.comp", "theorem", "theorem Even.comp {f g : α → β} {u : ℕ → ℝ} {v : ℕ → X} (h : Even f) : Even g"),
     "For functions f and g, a sequence u of real numbers and a sequence v in X, if f is even, then g is even."),
    (lean("Even.of_pred", "theorem", "theorem Even.of_pred (p : α → Prop) (r : α → α → Prop) (f : ℝ → ℂ) "
          "(F : ℝ → X → Y) (h : Even p) : Even r"),
     "For a predicate p on α, a relation r on α, a function f from real numbers to complex numbers and a function "
     "F, if p is even, then r is even."),
    # a family of types is no function; `Category* C` is a category (a fresh universe), not a product
    (lean("Even.of_family", "theorem", "theorem Even.of_family (A : ι → Type*) (p : α → Prop) (h : Even p) : Even p"),
     "For a predicate p on α, if p is even, then p is even."),
    (lean("CategoryTheory.Limits.zero_comp'", "theorem", "theorem zero_comp' {C : Type*} [Category* C] "
          "[HasZeroMorphisms C] (X : C) : X = X", namespace="CategoryTheory.Limits"),
     "For a category C, if C has zero morphisms, then X equals X."),
    (lean("Nat.add_pos", "theorem", "theorem add_pos (h : ∀ f : ℕ → ℕ, Even (f 0)) : Even 2", namespace="Nat"),
     "If for every sequence f of natural numbers, f 0 is even, then 2 is even."),
    # a variable that is a proposition, a predicate or a relation makes propositions: a hypothesis
    # on it is a condition, and a variable applied to a variable applied keeps its brackets
    (lean("Subtype.map_eq", "theorem", "theorem map_eq {P : Prop} {p : α → Prop} {f : α → α} (hP : P) "
          "(h₁ : ∀ a : α, p a → p (f a)) : P"),
     "For a predicate p on α and a function f, if P and for every a, if p a, then p (f a), then P."),
    # an anonymous constructor is the value it builds, its proofs left out
    (lean("SimplexCategory.δ_comp_δ", "theorem", "theorem δ_comp_δ (i j : ℕ) (hi : i < n) (hj : j < n) : "
          "δ ⟨i, hi⟩ ≫ δ ⟨j + 1, by lia⟩ = δ ⟨j, hj.le⟩ ≫ ⟨i, j, lt_of_le hi⟩"),
     "For natural numbers i and j, if i and j are less than n, then δ i followed by δ (j + 1) "
     "equals δ j followed by (i, j)."),
    # one of proofs only is a hole, left out of a list of arguments; a variable's argument of several words
    # is in brackets
    (lean("Compacts.lift_proofs", "theorem", "theorem lift_proofs {p : ℕ → Prop} (h : ∃ n, p n) : "
          "p (Nat.find h) ∧ Compacts.lift K ⟨_, fun _ => h.le⟩ = K"),
     "For a predicate p on natural number, if there is n such that p n, then p (find of h) and the lift of K "
     "equals K."),
    # the factorial, Wilson's theorem
    (lean("ZMod.wilsons_lemma", "theorem", "theorem wilsons_lemma (n : ℕ) (hp : Nat.Prime n) : "
          "((n - 1)! : ZMod n) = -1 ∧ n ! ≤ n ^ n"),
     "For a natural number n, if n is a prime number, then the factorial of the difference of n and 1 equals -1 "
     "and the factorial of n is at most n ^ n."),
    # notation's constant applied to more than its phrase says: to what follows
    (lean("Function.iterate_succ_apply", "theorem", "theorem iterate_succ_apply (f : α → α) (n : ℕ) (x : α) : "
          "f^[n.succ] x = (f ∘ f^[n]) x"),
     "For a function f and a natural number n, (f iterated (succ of n) times) x equals "
     "(f composed with (f iterated n times)) x."),
    # sets, lists and vectors written by their elements are said so
    (lean("Finset.pair_comm", "theorem", "theorem pair_comm (a b : α) (l : List α) : ({a, b} : Finset α) = {b, a} ∧ "
          "[a, b] = a :: l ∧ f (![a, b] 1) = f b"),
     "For a list l of α, {a, b} equals {b, a} and [a, b] equals a :: l and f (the vector (a, b) 1) equals f b."),
    # a congruence; what follows a statement's last term and what a term cannot read are said "…",
    # never left out (the statement read as `∃ a b, … ∧ a ^ 2 + b ^ 2` would be another claim)
    (lean("Nat.sq_add_sq_modEq", "theorem", "theorem Nat.sq_add_sq_modEq (p : ℕ) [Fact p.Prime] (x : ℕ) : "
          "∃ a b : ℕ, a ≤ p / 2 ∧ b ≤ p / 2 ∧ a ^ 2 + b ^ 2 ≡ x [MOD p]"),
     "For natural numbers p and x, there is a such that there is b such that a is at most p / 2 and b is at most "
     "p / 2 and the sum of (a ^ 2) and (b ^ 2) is congruent to x modulo p."),
    (lean("dvd_dvd_iff", "theorem", "theorem dvd_dvd_iff (p : ℕ) (hp : Nat.Prime p) {a b : ℕ} : a ∣ b ∧ b ∣ a ↔ a ⊞ b"),
     "For natural numbers p, a and b, if p is a prime number, then …"),
    (lean("eRk_restrict", "theorem", "theorem eRk_restrict (M : Matroid α) (R X : Set α) : (M ↾ R).eRk X = M.eRk X"),
     "For sets R and X of α, e rk of … and X equals e rk of M and X."),
    # instances of one class in a row are one setting, a variable declared again said once
    (lean("Even.add_comm", "theorem", "theorem Even.add_comm (a b : α) (h : Even (a + b)) : Even (b + a)",
          variables="{R S α : Type*} [CommRing R] [CommRing S] [CommRing S] [Module R S]"),
     "For commutative rings R and S and a module S over R, if the sum of a and b is even, then the sum of b and "
     "a is even."),
    # the law an equation or equivalence states is named as a mathematician names it
    (lean("mul_assoc", "theorem", "theorem mul_assoc : ∀ a b c : G, a * b * c = a * (b * c)"),
     "For all a, b and c, a * b * c equals a * (b * c); that is, multiplication is associative."),
    (lean("symm", "theorem", "theorem symm (r : α → α → Prop) (a b : α) : r a b ↔ r b a"),
     "For a relation r on α, r a b if and only if r b a; that is, the relation is symmetric."),
    (lean("union_comm", "theorem", "theorem union_comm (s t : Set α) : s ∪ t = t ∪ s"),
     "For sets s and t of α, the union of s and t equals the union of t and s; that is, union is commutative."),
    (lean("left_distrib", "theorem", "theorem left_distrib (a b c : R) : a * (b + c) = a * b + a * c"),
     "a * (b + c) equals a * b + a * c; that is, multiplication distributes over addition."),
    (lean("mul_right_inj", "theorem", "theorem mul_right_inj (a : G) {b c : G} : a * b = a * c ↔ b = c"),
     "a * b equals a * c if and only if b equals c; that is, multiplication by a is injective."),
    (lean("idem", "theorem", "theorem idem (f : α → α) (x : α) : f (f x) = f x"),
     "For a function f, f (f x) equals f x; that is, f is idempotent."),
    (lean("inv_inv", "theorem", "theorem inv_inv (a : G) : a⁻¹⁻¹ = a"),
     "The inverse of the inverse of a equals a; that is, inversion is an involution."),
    (lean("symm", "theorem", "theorem symm (d : α → α → ℝ) (x y : α) : d x y = d y x"),
     "For a function d, d x y equals d y x; that is, d is symmetric."),
    (lean("not_a_law", "theorem", "theorem not_a_law (a b c : G) : a * b = b * c"), "a * b equals b * c."),
    (lean("pow_mul_comm", "theorem", "theorem pow_mul_comm (a : M) (n : ℕ) : a ^ n * a = a * a ^ n"),
     "For a natural number n, a ^ n * a equals a * a ^ n."),
    (lean("Polynomial.X_mul", "theorem", "theorem X_mul (p : R) : X * p = p * X"), "X * p equals p * X."),
    (lean("Rat.cast_comm", "theorem", "theorem cast_comm (r : ℚ) (a : α) : (r : α) * a = a * r"),
     "For a rational number r, r * a equals a * r."),
    (lean("thrice", "theorem", "theorem thrice (f : α → α) (x : α) : f (f (f x)) = f x"),
     "For a function f, f (f (f x)) equals f x."),
    # ... of variables no hypothesis is about: a class of their type is none
    (lean("mul_add", "theorem", "theorem mul_add [Mul R] [Add R] [LeftDistribClass R] (a b c : R) : "
          "a * (b + c) = a * b + a * c"),
     "For a left distrib class R, a * (b + c) equals a * b + a * c; that is, multiplication distributes over "
     "addition."),
    (lean("Function.Injective.eq_iff", "theorem", "theorem eq_iff (hf : Injective f) {a b : α} : f a = f b ↔ a = b"),
     "If f is injective, then f a equals f b if and only if a equals b; that is, f is injective."),
    # ... only of all values: not of some that a hypothesis picks
    (lean("set_mul_normal_comm", "theorem", "theorem set_mul_normal_comm (S N : Set G) (hN : Normal N) : S * N = N * S"),
     "For sets S and N of G, if N is normal, then S * N equals N * S."),
    # an integral of a function applied to its variable is the function's; a set integral is over the set
    (lean("setIntegral", "theorem", "theorem setIntegral (f : X → E) (s : Set X) : "
          "∫ x in s, f x = ∫ x, f x ∂μ.restrict s + ∫ x, ∫ y, g x y ∂μ ∂μ"),
     "For a function f and a set s of X, the integral of f over s equals the integral of f over s with respect to "
     "μ plus the integral of the function x ↦ the integral of g x with respect to μ with respect to μ."),
    # one property of variables in a row is said once of them all, properties of one variable once of it;
    # a noun is not made plural
    (lean("conjoined", "theorem", "theorem conjoined (hp : Nat.Prime p) (hq : Nat.Prime q) (hs : IsCompact s) "
          "(ht : IsCompact t) (h : Continuous f) (hu : IsCompact u) (hu' : Continuous u) (hu'' : IsCompact u) : "
          "p ≠ q"),
     "If p is a prime number and q is a prime number and s and t are compact and f is continuous and u is "
     "compact and continuous, then p is not equal to q."),
    (lean("inner_self_nonneg", "theorem", "theorem inner_self_nonneg {x : E} : 0 ≤ re ⟪x, x⟫"),
     "0 is at most re of the inner product of x with itself."),
    # ... a variable, not two holes
    (lean("holes", "theorem", "theorem holes : ⟪_, _⟫ = ⟪x, y⟫"),
     "The inner product equals the inner product of x and y."),
])
def test_sentences(lexicon: Lexicon, record: Statement, sentence: str) -> None:
    fields = {"IsNoetherian": [c for c in CONSTANTS if c.name == "IsNoetherian.noetherian"]}
    said = Informaliser(lexicon, fields).sentence(record)
    assert said is not None and said.text == sentence


#: Records whose headers tell types from predicates and nouns from adjectives by how Mathlib
#: uses and names them.
USES = [
    lean("PowerSeries", "def", "def PowerSeries (R : Type*)", value="MvPowerSeries Unit R"),
    lean("PowerSeries.coeff_mk", "theorem", "theorem coeff_mk (p : PowerSeries R) (q : PowerSeries R) : p = q"),
    lean("PowerSeries.ext", "theorem", "theorem ext {p q : PowerSeries R} (h : p = q) : p = q"),
    lean("Differentiable", "def", "def Differentiable (f : E → F)", value="∀ x, DifferentiableAt 𝕜 f x"),
    lean("Differentiable.add", "theorem", "theorem Differentiable.add (hf : Differentiable f) (hg : Differentiable g) "
         ": Differentiable (f + g)"),
    lean("TopologicalSpace", "class", "class TopologicalSpace (X : Type u)"),
    lean("MetricSpace", "class", "class MetricSpace (α : Type u) extends PseudoMetricSpace α"),
    lean("LinearOrderedField", "class", "class LinearOrderedField (α : Type*) extends Field α"),
    lean("Field", "class", "class Field (K : Type u) extends CommRing K"),
    lean("ClosedEmbeddingField", "class", "class ClosedEmbeddingField (K : Type u)"),
    lean("CompactSpace", "class", "class CompactSpace (X : Type*) [TopologicalSpace X] : Prop"),
    lean("IsClosedField", "class", "class IsClosedField (K : Type*) : Prop"),
    lean("NoMaxOrder", "class", "class NoMaxOrder (α : Type*) [LT α] : Prop"),
    lean("PreservesFiniteProducts", "class", "class PreservesFiniteProducts (F : C ⥤ D) : Prop"),
    lean("Inhabited", "class", "class Inhabited (α : Sort u)"),
]


def test_types_and_kinds_are_told_by_how_mathlib_uses_and_names_them() -> None:
    lexicon = build_lexicon(USES, corrections={})
    assert lexicon.phrases["PowerSeries"] == Phrase("power series", "class", "name")
    assert lexicon.phrases["Differentiable"].role == "predicate"
    assert lexicon.phrases["CompactSpace"].template == "{0} is a compact space"
    # "field" ends the names of two kinds of things, so a predicate ending in it names one too.
    assert lexicon.phrases["IsClosedField"].template == "{0} is a closed field"
    assert lexicon.phrases["NoMaxOrder"].template == "{0} has no maximum order"
    assert lexicon.phrases["PreservesFiniteProducts"].template == "{0} preserves finite products"
    informaliser = Informaliser(lexicon)
    # objects of one kind in a row are said together
    assert informaliser.sentence(USES[1]).text == "For power series p and q, p equals q."
    assert informaliser.sentence(lean("Foo.inhabited", "instance", "instance : Inhabited Foo")).text == \
        "Foo is inhabited."
    assert informaliser.sentence(lean("Foo.compact", "theorem", "theorem compact [TopologicalSpace X] "
                                      "[CompactSpace X] (f : X → X) : f = f")).text == \
        "For a topological space X and a function f, if X is a compact space, then f equals f."


def test_the_variables_a_statement_uses_are_said_and_the_setting_goes_before_it_is_cut(lexicon: Lexicon) -> None:
    informaliser = Informaliser(lexicon)
    statement = "theorem Even.add (ha : Even a) (hb : Even b) : Even (a + b)"
    assert informaliser.sentence(lean("Even.add", "theorem", statement)).text == \
        "If a and b are even, then the sum of a and b is even."
    in_section = lean("Even.add", "theorem", statement, variables="{α : Type*} [CommRing α] {a b : α}")
    assert informaliser.sentence(in_section).text == \
        "For a commutative ring α, if a and b are even, then the sum of a and b is even."
    # a constant's universe levels are not said ("a h multiplicative C over category")
    category = lean("Even.add", "theorem", statement, variables="{C : Type u} [CommRing.{u} C] {a b : C}")
    assert informaliser.sentence(category).text == \
        "For a commutative ring C, if a and b are even, then the sum of a and b is even."
    # variables the term reader cannot follow leave the statement as written
    unread = lean("Even.add", "theorem", statement, variables="{A B : GrpCat} (f : A ⟶ B) (g : ⟨)")
    assert informaliser.sentence(unread).text == "If a and b are even, then the sum of a and b is even."
    # a setting that makes the sentence longer than it may be is left out, not the conclusion
    settings = " ".join(f"{{α{k} : Type*}} [{('CommRing', 'Field')[k % 2]} α{k}]" for k in range(30))
    crowded = lean("Even.add", "theorem", statement.replace(") :", ") (h : α0 = α29) :"),
                   variables=f"{settings} {{a b : α0}}")
    assert informaliser.sentence(crowded).text == \
        "If a and b are even and α0 equals α29, then the sum of a and b is even."


def test_a_class_of_a_section_is_said_of_the_variables_it_takes() -> None:
    # `variable (R : Type*) [CommRing R]` then `class Ring.DimensionLEOne : Prop where ...`: the
    # class is applied to R: its sentence has R as its subject, not "it", and so do the statements using it
    dimension = lean("Ring.DimensionLEOne", "class", "class Ring.DimensionLEOne : Prop",
                     "A ring `R` has Krull dimension at most one if all nonzero prime ideals are maximal.",
                     variables="(R : Type*) [CommRing R]")
    user = lean("Ring.foo", "theorem", "theorem foo [Ring.DimensionLEOne R] : R = R",
                variables="(R : Type*) [CommRing R]")
    records = [*CONSTANTS, dimension, user]
    informaliser = Informaliser(build_lexicon(records))
    assert informaliser.sentence(dimension).text == "For a commutative ring R, R is dimension at most one."
    assert informaliser.sentence(user).text == "For a commutative ring R, if R is dimension at most one, then R equals R."


def test_what_cannot_be_read_gets_no_sentence(lexicon: Lexicon) -> None:
    informaliser = Informaliser(lexicon)
    assert informaliser.sentence(lean("odd", "theorem", "theorem odd : x ⊞ y")) is None
    # nor its objects without a condition, when its conclusion cannot be read
    assert informaliser.sentence(lean("odd'", "theorem", "theorem odd' (p : ℕ) : p ⊞ p")) is None
    assert informaliser.sentence(lean("Foo.mk", "constructor", "Foo.mk")) is None
    # "the land is a function" says no more than the name does; what it maps between does
    assert informaliser.sentence(lean("Int.land", "def", "def land : ℤ → ℤ → ℤ")) is None
    assert informaliser.sentence(lean("Real.toNN", "def", "def toNN : ℝ → ℚ")).text == \
        "To nn is a function from real numbers to rational numbers."
    latex = Statement(id="b:1", source="b", kind="theorem", name="1", statement="$x$", language="latex")
    assert informaliser.sentence(latex) is None


def test_informalise_fills_records_and_says_from_where(lexicon: Lexicon) -> None:
    records = [lean("Nat.Prime.two_le", "theorem", "theorem Prime.two_le : ∀ {p : ℕ}, Prime p → 2 ≤ p",
                    namespace="Nat"), lean("odd", "theorem", "theorem odd : x ⊞ y")]
    assert informalise(records, lexicon) == 1
    assert records[0].informal_statement.startswith("For every natural number p")
    assert records[0].meta["informal_statement_from"] == "docstring, notation"
    assert records[1].informal_statement == "" and "informal_statement_from" not in records[1].meta


def test_several_processes_say_the_same(lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    from search.corpus.lean import informaliser

    def records() -> list[Statement]:
        return [lean(f"two_le_{k}", "theorem", "theorem two_le : ∀ {p : ℕ}, Nat.Prime p → 2 ≤ p") for k in range(40)]

    alone, together = records(), records()
    informalise(alone, lexicon)
    monkeypatch.setattr(informaliser, "PARALLEL_FROM", 10)
    assert informalise(together, lexicon, workers=2) == 40
    assert [s.informal_statement for s in together] == [s.informal_statement for s in alone]
    assert together[0].informal_statement == "For every natural number p, if p is a prime number, then 2 is at most p."


def test_a_proposition_the_lexicon_does_not_know_is_said_by_its_name(lexicon: Lexicon) -> None:
    informaliser = Informaliser(lexicon)
    # `List.Sublist` is Lean core's, `G.Adj` a structure's field: where a proposition
    # must stand, the name's words say it, with its arguments; an untyped hypothesis says nothing
    adjacent = lean("SimpleGraph.Adj.symm", "theorem", "theorem Adj.symm {G : SimpleGraph V} (h : G.Adj u v) (hw) : G.Adj v u")
    assert informaliser.sentence(adjacent).text == "If G is adj with u and v, then G is adj with v and u."
    sublist = lean("List.Sublist.trans", "theorem", "theorem Sublist.trans {l₁ l₂ l₃ : List α} (h₁ : l₁.Sublist l₂) "
                   "(h₂ : List.Sublist l₂ l₃) : List.Sublist l₁ l₃")
    assert informaliser.sentence(sublist).text == \
        "For lists l₁, l₂ and l₃ of α, if l₁ is sublist with l₂ and l₂ is sublist with l₃, then l₁ is sublist with l₃."
    # a field's type is no proposition to guess (`Name` is data), nor is a name applied to nothing
    assert informaliser.sentence(lean("Entry.declName", "field", "Entry.declName : Name x")) is None
    assert informaliser.sentence(lean("t", "theorem", "theorem t : foo.IsSelfAdjoint")) is None
    assert informaliser.sentence(lean("t", "theorem", "theorem t (h : Decidable p) : Decidable q")) is None
    # a function's name (lower case) is no proposition; an unread hypothesis is still marked
    assert informaliser.sentence(lean("t", "theorem", "theorem t (a b : ℕ) : Nat.gcd a b")) is None
    unread = lean("u", "theorem", "theorem u (a : ℕ) (h : a ⊞ a) : a = a")
    assert informaliser.sentence(unread).text == "For a natural number a, if …, then a equals a."
