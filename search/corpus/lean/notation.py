"""Lean and Mathlib notation, and the constants each one elaborates to: the term reader's tables.

`expr` reads a term through these tables. Lean's own instance naming (`instance_names`)
uses the first group only, as it always has; Loogle patterns and the statements they are
matched against (`expr.Reading.TERMS`), and the informaliser (`expr.Reading.WORDS`), use all of
them, so that a pattern written with
notation and one written with constants find the same statements: `∑ x ∈ s, f x` is
`Finset.sum s (fun x => f x)`, `‖x‖` is `Norm.norm x`, `a > b` is `b < a`. docs/loogle.md
("Notation") prints every entry; `tests/corpus/lean/test_expr.py` checks that it does.

Known approximations: a notation Mathlib scopes reads as the one listed (`π` is `Real.pi`,
`#s` is `Finset.card` except where `SCOPED` says otherwise); a name bound in the statement
(`∀ π, ...`) stays a variable.
"""

from __future__ import annotations

from dataclasses import dataclass

# --- Read by every term reader -------------------------------------------------------------------

#: Atoms that elaborate to a constant.
CONSTANTS: dict[str, str] = {
    "ℕ": "Nat", "ℤ": "Int", "ℚ": "Rat", "ℝ": "Real", "ℂ": "Complex", "ℍ": "Quaternion",
    "ℝ≥0": "NNReal", "ℝ≥0∞": "ENNReal", "ℚ≥0": "NNRat", "ℕ∞": "ENat", "ℕ+": "PNat",
    "⊤": "Top.top", "⊥": "Bot.bot", "∅": "EmptyCollection.emptyCollection",
}
#: Postfix operators.
POSTFIX: dict[str, str] = {
    "⁻¹": "Inv.inv", "ᵐᵒᵖ": "MulOpposite", "ᵃᵒᵖ": "AddOpposite", "ᵒᵈ": "OrderDual",
    "ᵒᵖ": "Opposite", "ᵈᵐᵃ": "DomMulAct", "ᵈᵃᵃ": "DomAddAct", "ˣ": "Units", "ᶜ": "HasCompl.compl",
}
#: The arrow: `A → B` is a function type (a `∀` whose variable the body does not use).
ARROW = "→"
#: The ring homomorphism a linear map's ring goes through (`BRACKET_INFIX`).
_ID = "RingHom.id"
#: Binary notation: precedence, right-associative?, constant (or `ARROW`).
INFIX: dict[str, tuple[int, bool, str]] = {
    "→": (25, True, ARROW), "->": (25, True, ARROW),
    "↔": (20, False, "Iff"), "<->": (20, False, "Iff"), "∨": (30, True, "Or"), "∧": (35, True, "And"),
    "=": (50, False, "Eq"), "≠": (50, False, "Ne"), "<": (50, False, "LT.lt"), "≤": (50, False, "LE.le"),
    ">": (50, False, "GT.gt"), "≥": (50, False, "GE.ge"), "∈": (50, False, "Membership.mem"),
    "⊆": (50, False, "HasSubset.Subset"), "⊂": (50, False, "HasSSubset.SSubset"),
    "∣": (50, False, "Dvd.dvd"),
    "≃": (25, True, "Equiv"), "≅": (10, True, "CategoryTheory.Iso"), "⟶": (10, True, "Quiver.Hom"),
    "⥤": (26, True, "CategoryTheory.Functor"), "≌": (10, True, "CategoryTheory.Equivalence"),
    "↪": (25, True, "Function.Embedding"), "→+*": (25, True, "RingHom"), "≃+*": (25, True, "RingEquiv"),
    "→*": (25, True, "MonoidHom"), "→+": (25, True, "AddMonoidHom"), "→*₀": (25, True, "MonoidWithZeroHom"),
    "≃*": (25, True, "MulEquiv"), "≃+": (25, True, "AddEquiv"), "→o": (25, True, "OrderHom"),
    "≃o": (25, True, "OrderIso"), "↪o": (25, True, "OrderEmbedding"), "→₀": (25, True, "Finsupp"),
    "→ᵇ": (25, True, "BoundedContinuousFunction"),
    "×": (35, True, "Prod"), "⊕": (30, True, "Sum"), "×ˢ": (82, True, "SProd.sprod"),
    "+": (65, False, "HAdd.hAdd"), "-": (65, False, "HSub.hSub"), "*": (70, False, "HMul.hMul"),
    "/": (70, False, "HDiv.hDiv"), "%": (70, False, "HMod.hMod"), "•": (73, True, "HSMul.hSMul"),
    "^": (75, True, "HPow.hPow"), "∘": (90, True, "Function.comp"), "∩": (70, False, "Inter.inter"),
    "∪": (65, False, "Union.union"), "⊓": (69, False, "Min.min"), "⊔": (68, False, "Max.max"),
    "⋖": (50, False, "CovBy"), "⩿": (50, False, "WCovBy"), "≈": (50, False, "HasEquiv.Equiv"),
    "\\": (70, False, "SDiff.sdiff"), "⇨": (60, True, "HImp.himp"), "∆": (100, False, "symmDiff"),
    "⊣": (15, False, "CategoryTheory.Adjunction"),
}
#: `M →ₗ[R] N` is `LinearMap (RingHom.id R) M N`, `M ⊗[R] N` is `TensorProduct R M N`: the
#: constant, and the constant the bracket's term goes through ("" for none).
BRACKET_INFIX: dict[str, tuple[str, str]] = {
    "→ₗ[": ("LinearMap", _ID), "≃ₗ[": ("LinearEquiv", _ID), "→L[": ("ContinuousLinearMap", _ID),
    "≃L[": ("ContinuousLinearEquiv", _ID), "→ₗᵢ[": ("LinearIsometry", _ID),
    "≃ₗᵢ[": ("LinearIsometryEquiv", _ID), "→ₛₗ[": ("LinearMap", ""),
    "→SL[": ("ContinuousLinearMap", ""), "→ₐ[": ("AlgHom", ""), "≃ₐ[": ("AlgEquiv", ""),
    "⊗[": ("TensorProduct", ""),
}
#: The precedence of `BRACKET_INFIX`'s notation (right-associative, as Lean's arrows).
BRACKET_PRECEDENCE = 25
#: Function-like notation written glued to its parenthesised arguments: `C(α, β)`.
GLUED_CALLS: dict[str, str] = {
    "C": "ContinuousMap", "C_c": "CompactlySupportedContinuousMap", "C₀": "ZeroAtInftyContinuousMap",
}

# --- Read for Loogle patterns and the statements they match (`Reading.TERMS`) --------------------

#: More atoms. `π` and `∞` are Mathlib's scoped notations for `Real.pi` and `⊤`.
TERM_CONSTANTS: dict[str, str] = {
    "π": "Real.pi", "∞": "Top.top", "𝓝": "nhds", "𝟙": "CategoryTheory.CategoryStruct.id",
    "∠": "EuclideanGeometry.angle", "∡": "EuclideanGeometry.oangle",
}
#: More binary notation (`X ⊗ Y` as the monoidal categories' tensor product of objects, the
#: most common of the notations Mathlib scopes to `⊗`; `l ~ l'` as Lean's `List.Perm`, which
#: a local notation of Mathlib's `Lists` reuses).
TERM_INFIX: dict[str, tuple[int, bool, str]] = {
    "∉": (50, False, "Membership.mem"), "''": (80, False, "Set.image"), "⁻¹'": (80, False, "Set.preimage"),
    "++": (65, False, "HAppend.hAppend"), "::": (67, True, "List.cons"), "≫": (80, True, "CategoryTheory.CategoryStruct.comp"),
    "⋙": (80, True, "CategoryTheory.Functor.comp"), "<$>": (100, True, "Functor.map"),
    "+ᵥ": (65, True, "HVAdd.hVAdd"), "-ᵥ": (65, False, "VSub.vsub"),
    "⊗ₜ": (100, True, "TensorProduct.tmul"), "⊗": (70, True, "CategoryTheory.MonoidalCategoryStruct.tensorObj"),
    "⧸": (35, False, "HasQuotient.Quotient"),
    "◁": (81, True, "CategoryTheory.MonoidalCategoryStruct.whiskerLeft"),
    "▷": (81, False, "CategoryTheory.MonoidalCategoryStruct.whiskerRight"),
    "≍": (50, False, "HEq"), "⤳": (300, False, "Specializes"),
    "~": (50, False, "List.Perm"), "≪": (50, False, "MeasureTheory.Measure.AbsolutelyContinuous"),
    "⟂": (50, False, "Submodule.IsOrtho"),
}
#: Binary notation whose symbol the tokenizer splits, a symbol with glued decorations (`∘ₗ` is
#: `∘` then `ₗ`): the reader joins a run of glued tokens into one of these. Splitting them
#: keeps Lean's instance naming (`instance_names`), which reads none of them, as it was.
#: `⊗ₖ` is left out: Mathlib scopes it to Kronecker products of matrices and to kernels.
#: `f ⁻¹ᵁ U`, the preimage of an open set under a morphism of schemes, is
#: `(Opens.map f.base).obj U`, read as `TopologicalSpace.Opens.map f U` (`.base` and the
#: functor's `obj` left out).
DECORATED_INFIX: dict[str, tuple[int, bool, str]] = {
    "∘ₗ": (80, True, "LinearMap.comp"), "∘L": (80, True, "ContinuousLinearMap.comp"),
    "≃ₜ": (25, False, "Homeomorph"), "≃ᵢ": (25, False, "IsometryEquiv"), "→ₙ*": (25, True, "MulHom"),
    "→ₙ+*": (25, True, "NonUnitalRingHom"), "⬝ᵥ": (72, False, "dotProduct"),
    "*ᵥ": (73, True, "Matrix.mulVec"), "ᵥ*": (73, False, "Matrix.vecMul"),
    "%ₘ": (70, False, "Polynomial.modByMonic"), "/ₘ": (70, False, "Polynomial.divByMonic"),
    "⊗ₘ": (70, False, "CategoryTheory.MonoidalCategoryStruct.tensorHom"), "::ₘ": (67, True, "Multiset.cons"),
    "==": (50, False, "BEq.beq"), "!=": (50, False, "bne"),
    "⁻¹ᵁ": (90, True, "TopologicalSpace.Opens.map"),
    "≪≫": (80, True, "CategoryTheory.Iso.trans"), "~ᵤ": (50, False, "Associated"),
    "<+": (50, False, "List.Sublist"), "<+:": (50, False, "List.IsPrefix"), "<:+": (50, False, "List.IsSuffix"),
    "<:+:": (50, False, "List.IsInfix"), "≪ᵥ": (50, False, "MeasureTheory.VectorMeasure.AbsolutelyContinuous"),
    "∘ₖ": (100, False, "ProbabilityTheory.Kernel.comp"), "→ₛ": (25, True, "MeasureTheory.SimpleFunc"),
    "→ᵤ": (25, True, "UniformFun"),
}
#: What the informaliser's reading makes of `(↑)`: the coercion a statement names, whichever
#: function it elaborates to (no constant of Lean's).
COERCION = "coe"
#: What the informaliser's reading makes of an anonymous constructor `⟨x, hx⟩`: this name applied
#: to its components (the structure it builds is the expected type's, which no reading knows).
ANONYMOUS_CONSTRUCTOR = "anonymousConstructor"
#: `a ≡ b [MOD n]` is `Nat.ModEq n a b`: the word that opens the modulus's bracket, and the relation.
CONGRUENCES: dict[str, str] = {
    "MOD": "Nat.ModEq", "ZMOD": "Int.ModEq", "PMOD": "AddCommGroup.ModEq", "SMOD": "SModEq",
}
#: The symbol of `CONGRUENCES`' notation, and its precedence (as of `=`).
CONGRUENCE = "≡"
CONGRUENCE_PRECEDENCE = 50
#: `![a, b]` is `Matrix.vecCons a (Matrix.vecCons b Matrix.vecEmpty)`: the constants a vector's
#: elements are put together by, as a list's by `List.cons` and `List.nil`.
VECTOR = ("Matrix.vecCons", "Matrix.vecEmpty")
#: `f^[n]` is `Nat.iterate f n`, `f` composed with itself `n` times.
ITERATE = "Nat.iterate"
#: The filter of almost every point for a measure.
AE = "MeasureTheory.ae"
#: Relations along a filter: `f =ᶠ[l] g` is `Filter.EventuallyEq l f g`, `f =ᵐ[μ] g` the same
#: along `MeasureTheory.ae μ`, `f =o[l] g` is `Asymptotics.IsLittleO l f g`: the relation, and
#: the constant the bracket's term goes through ("" for none).
EVENTUALLY: dict[str, tuple[str, str]] = {
    "=ᶠ[": ("Filter.EventuallyEq", ""), "≤ᶠ[": ("Filter.EventuallyLE", ""),
    "=ᵐ[": ("Filter.EventuallyEq", AE), "≤ᵐ[": ("Filter.EventuallyLE", AE),
    "=o[": ("Asymptotics.IsLittleO", ""), "=O[": ("Asymptotics.IsBigO", ""),
    "=Θ[": ("Asymptotics.IsTheta", ""), "~[": ("Asymptotics.IsEquivalent", ""),
}
#: `∀ᵐ x ∂μ, p x` is `Filter.Eventually (fun x => p x) (MeasureTheory.ae μ)` (`volume` without
#: `∂μ`), `∃ᵐ` the same with `Filter.Frequently`; the tokenizer splits them (`∀` `ᵐ`).
ALMOST_EVERYWHERE: dict[str, str] = {"∀ᵐ": "Filter.Eventually", "∃ᵐ": "Filter.Frequently"}
#: The precedence of `EVENTUALLY`'s relations, as of `=`.
EVENTUALLY_PRECEDENCE = 50
#: Notation for a constant that the tokenizer splits or that begins like a binder (`λ_ X` is the
#: left unitor, not `fun _ => X`).
GLUED_CONSTANTS: dict[str, str] = {
    "𝟙_": "CategoryTheory.MonoidalCategoryStruct.tensorUnit",
    "λ_": "CategoryTheory.MonoidalCategoryStruct.leftUnitor", "ρ_": "CategoryTheory.MonoidalCategoryStruct.rightUnitor",
    "α_": "CategoryTheory.MonoidalCategoryStruct.associator", "𝓝ˢ": "nhdsSet",
}
#: Function-like notation written glued to square brackets around its arguments, which the
#: tokenizer splits: `Λ[n, i]` is `SSet.horn n i`, `∂Δ[n]` is `SSet.boundary n` (`Δ[n]` is left
#: out: Mathlib scopes it to the standard simplex, a comonoid's comultiplication and a Laplacian).
GLUED_BRACKETS: dict[str, str] = {"∂Δ[": "SSet.boundary", "Λ[": "SSet.horn"}
#: `𝓝[s] x` is `nhdsWithin x s`.
NHDS_WITHIN = "nhdsWithin"
#: `𝓝[>] x` is `nhdsWithin x (Set.Ioi x)`, `𝓝[≠] x` is `nhdsWithin x {x}ᶜ`: the constants applied
#: to the point, innermost first, that make the set of the side written.
NEIGHBOURHOOD_SIDES: dict[str, tuple[str, ...]] = {
    ">": ("Set.Ioi",), "<": ("Set.Iio",), "≥": ("Set.Ici",), "≤": ("Set.Iic",),
    "≠": ("Singleton.singleton", "HasCompl.compl"),
}
#: More postfix operators (`Kᗮ` is the orthogonal complement of a submodule; `†` is left out:
#: Mathlib's scoped and local notations make it an adjoint, a posterior kernel or a conjugate).
TERM_POSTFIX: dict[str, str] = {
    "ᵀ": "Matrix.transpose", "⁰": "nonZeroDivisors", "ᴴ": "Matrix.conjTranspose", "ᗮ": "Submodule.orthogonal",
}
#: Postfix notation that the tokenizer splits: `R[X]` is `Polynomial R`, `R⟦X⟧` is `PowerSeries R`.
GLUED_POSTFIX: dict[str, str] = {"[X]": "Polynomial", "⟦X⟧": "PowerSeries"}
#: The positive and negative parts, `a⁺` and `a⁻` (`a⁺ᵐ`, `a⁻ᵐ` multiplicatively; `⁻¹` is one
#: token, so a `⁻` glued alone is the negative part), which the tokenizer splits too. Read so only
#: after a bound variable that is no type, or a parenthesised term: other notation glues the same
#: marks to a constant or a type (`log⁺ x`, `𝓕⁻ f`, `K⁺` for a field's maximal real subfield).
PARTS: dict[str, str] = {
    "⁺": "PosPart.posPart", "⁻": "NegPart.negPart", "⁺ᵐ": "OneLePart.oneLePart", "⁻ᵐ": "LeOnePart.leOnePart",
}
#: `F⟮a, b⟯` is `IntermediateField.adjoin F {a, b}`, after a type (`F`, `ℚ`) only.
ADJOIN = "IntermediateField.adjoin"
#: `X⟦n⟧` is `(shiftFunctor _ n).obj X`, `f⟦n⟧'` is `(shiftFunctor _ n).map f`: both read as
#: `CategoryTheory.shiftFunctor _ n X` (the functor's `obj` and `map` left out), after a term
#: that may be no type (as `PARTS`) and by a shift that is no type: other notation glues `⟦` to
#: a type (`R⟦Γ⟧`, Hahn series), or encloses more (`μ⟦s | m⟧`, a conditional expectation).
SHIFT = "CategoryTheory.shiftFunctor"
#: `R[S⁻¹]` is `OreLocalization S R`: a bracket glued after a term that encloses one term with
#: `⁻¹` glued last (`R[T;T⁻¹]`, Laurent polynomials, encloses more).
ORE_LOCALIZATION = "OreLocalization"
#: `xs[i]` is `GetElem.getElem xs i` (its proof left out), `xs[i]?` and `xs[i]!` the same with
#: the constant of the mark glued after the bracket.
INDEXED: dict[str, str] = {"": "GetElem.getElem", "?": "GetElem?.getElem?", "!": "GetElem?.getElem!"}
#: The collections `xs[i]` is read after: a variable bound with one of these types, or a constant
#: of one of these namespaces applied (`(l.set i a)[j]`); after other terms a glued bracket is
#: other notation (`R[a]`, `𝔼[X]`, `μ[f]`), which the reader does not know.
INDEXED_TYPES: frozenset[str] = frozenset(
    {"List", "Array", "Vector", "List.Vector", "Mathlib.Vector", "ByteArray", "FloatArray", "Subarray", "BitVec"}
)
#: Brackets around two terms: opening -> (closing, constant, whether a glued `_𝕜` after the
#: closing bracket is the constant's first argument): `⁅x, y⁆` is `Bracket.bracket x y`,
#: `⟪x, y⟫_𝕜` is `Inner.inner 𝕜 x y`.
PAIRS: dict[str, tuple[str, str, bool]] = {
    "⁅": ("⁆", "Bracket.bracket", False), "⟪": ("⟫", "Inner.inner", True),
}
#: Reducible notation Lean unfolds when it matches (`withReducible`): `a > b` is `b < a`,
#: `a ≥ b` is `b ≤ a`.
SWAPPED: dict[str, str] = {">": "LT.lt", "≥": "LE.le"}
#: Notation another namespace scopes differently: inside `namespace Cardinal` (or opening
#: it), `#α` is `Cardinal.mk α`, not `Finset.card`.
SCOPED: dict[str, tuple[str, str]] = {"Finset.card": ("Cardinal", "Cardinal.mk")}
#: `a ∉ s` is `¬ (a ∈ s)`.
NEGATED: frozenset[str] = frozenset({"∉"})
#: Notation whose arguments come in another order than written: `x ∈ s` is
#: `Membership.mem s x` (Lean 4 core since 2024), `l :: xs`... is as written.
REVERSED: frozenset[str] = frozenset({"∈", "∉"})
#: Prefix notation: constant and the precedence its argument is read at (1024: one argument).
PREFIX: dict[str, tuple[str, int]] = {
    "√": ("Real.sqrt", 100), "#": ("Finset.card", 1024), "⅟": ("Invertible.invOf", 1024),
    "⋃₀": ("Set.sUnion", 110), "⋂₀": ("Set.sInter", 110),
}
#: Brackets that apply a constant to what they enclose: opening -> (closing, {suffix glued to
#: the closing bracket: constant}); `‖x‖₊` is `NNNorm.nnnorm x`, `⌊x⌋₊` is `Nat.floor x`.
ENCLOSING: dict[str, tuple[str, dict[str, str]]] = {
    "‖": ("‖", {"": "Norm.norm", "₊": "NNNorm.nnnorm", "ₑ": "ENorm.enorm"}),
    "|": ("|", {"": "abs", "ₘ": "mabs"}),
    "⌊": ("⌋", {"": "Int.floor", "₊": "Nat.floor"}),
    "⌈": ("⌉", {"": "Int.ceil", "₊": "Nat.ceil"}),
    "⦋": ("⦌", {"": "SimplexCategory.mk"}),
}


@dataclass(frozen=True)
class Binder:
    """A binder notation (`∑ x ∈ s, f x`): the constant it applies, how, and the precedence its
    body is read at.

    `shape` says what the constant is applied to: `"finset"`, the domain then the body
    (`Finset.sum s f`; without `∈ s` the domain is `universe`, and `x < n` is
    `Finset.Iio n`); `"filter"`, the body then the filter (`∀ᶠ x in l, p x` is
    `Filter.Eventually p l`); `"integral"`, `∫`'s forms (`∫ x in a..b, f x`,
    `∫ x in s, f x ∂μ`); `"function"`, the body alone (`∑' x, f x` is `tsum f`), once more for
    each binder predicate (`⋃ i ∈ s, t i` is `⋃ i, ⋃ (_ : i ∈ s), t i`). A function `fun x => b`
    reads as its body `b`, whose bound `x` is a variable.
    """

    constant: str
    shape: str
    body_precedence: int = 0
    universe: str = ""
    #: Whether the symbol binds only when names (and their type) and a comma follow it
    #: (`⨁ i, A i`); else it is other notation the reader does not know (`⨁ f`, a biproduct).
    named: bool = False
    #: The constant of the `integral` shape's interval form (`∫ x in a..b, f x`); "" where the
    #: reader does not know that form (`⨍ x in a..b, f x`, an average over `Ι a b`).
    interval: str = ""


BINDERS: dict[str, Binder] = {
    "∑": Binder("Finset.sum", "finset", 67, "Finset.univ"),
    "∏": Binder("Finset.prod", "finset", 67, "Finset.univ"),
    "∑'": Binder("tsum", "function", 67),
    "∏'": Binder("tprod", "function", 67),
    "∑ᶠ": Binder("finsum", "function", 67),
    "∏ᶠ": Binder("finprod", "function", 67),
    "⋃": Binder("Set.iUnion", "function", 60),
    "⋂": Binder("Set.iInter", "function", 60),
    "⨆": Binder("iSup", "function", 60),
    "⨅": Binder("iInf", "function", 60),
    "⨁": Binder("DirectSum", "function", named=True),
    "∫": Binder("MeasureTheory.integral", "integral", 60, interval="intervalIntegral"),
    "∫⁻": Binder("MeasureTheory.lintegral", "integral", 60),
    "⨍": Binder("MeasureTheory.average", "integral", 60),
    "⨍⁻": Binder("MeasureTheory.laverage", "integral", 60),
    "∀ᶠ": Binder("Filter.Eventually", "filter"),
    "∃ᶠ": Binder("Filter.Frequently", "filter"),
}
#: The measure of an integral written without `∂μ`.
VOLUME = "MeasureTheory.MeasureSpace.volume"
#: The measure after `∂` is a term of this precedence (Mathlib's `∂" μ:70`): `∂μ.restrict s` and
#: `∂const α μ a` are one measure, applied as written.
MEASURE_PRECEDENCE = 70
#: `∫ x in s, f x ∂μ` integrates against `μ.restrict s`.
RESTRICT = "MeasureTheory.Measure.restrict"
#: `∑ x < n` and `∑ x ≤ n` range over these finsets.
BOUNDED_DOMAINS: dict[str, str] = {"<": "Finset.Iio", "≤": "Finset.Iic"}
#: Multi-character symbols of these tables that the tokenizer must keep whole
#: (`syntax.NOTATION` adds them to its vocabulary).
SYMBOLS: tuple[str, ...] = (
    "∑'", "∏'", "∑ᶠ", "∏ᶠ", "∫⁻", "⨍⁻", "∀ᶠ", "∃ᶠ", "⁻¹'", "''", "++", "≫", "⋙", "<$>", "+ᵥ", "-ᵥ",
    "⊗ₜ", "⋃₀", "⋂₀", "//",
)


def _applied(names: tuple[str, ...], x: str) -> str:
    """`("Set.Ioi",)`, `x` -> `(Set.Ioi x)`: constants applied in turn, as Lean writes it."""
    for name in names:
        x = f"({name} {x})"
    return x


def documented() -> list[tuple[str, str]]:
    """Every entry of the tables above as (notation as written, what it reads as), in the
    tables' order: docs/loogle.md's notation table, which a test keeps in step."""
    rows: list[tuple[str, str]] = []
    rows += [(f"`{atom}`", f"`{name}`") for atom, name in {**CONSTANTS, **TERM_CONSTANTS, **GLUED_CONSTANTS}.items()]
    rows += [(f"`x{op}`", f"`{name} x`") for op, name in {**POSTFIX, **TERM_POSTFIX, **GLUED_POSTFIX, **PARTS}.items()]
    rows += [(f"`xs[i]{mark}`", f"`{name} xs i`") for mark, name in INDEXED.items()]
    rows.append(("`F⟮a, b⟯`", f"`{ADJOIN} F {{a, b}}`"))
    rows.append(("`X⟦n⟧`, `f⟦n⟧'`", f"`{SHIFT} _ n X`, `{SHIFT} _ n f`"))
    rows.append(("`R[S⁻¹]`", f"`{ORE_LOCALIZATION} S R`"))
    rows.append(("`f^[n]`", f"`{ITERATE} f n`"))
    rows.append(("`![a, b]`", f"`{VECTOR[0]} a ({VECTOR[0]} b {VECTOR[1]})`"))
    rows += [(f"`a {op} b`", f"`{name} a b`") for op, (_, _, name) in {**INFIX, **TERM_INFIX}.items()
             if name != ARROW and op not in REVERSED]
    rows += [(f"`a {op} b`", f"`{name} a b`") for op, (_, _, name) in DECORATED_INFIX.items()]
    rows += [(f"`f {op}μ] g`", f"`{name} ({via} μ) f g`") if via else (f"`f {op}l] g`", f"`{name} l f g`")
             for op, (name, via) in EVENTUALLY.items()]
    rows += [(f"`{op}x, y{close}{'_𝕜' if field else ''}`", f"`{name}{' 𝕜' if field else ''} x y`")
             for op, (close, name, field) in PAIRS.items()]
    rows += [(f"`a {op} s`", f"`{'Not (' if op in NEGATED else ''}Membership.mem s a{')' if op in NEGATED else ''}`")
             for op in sorted(REVERSED)]
    rows += [(f"`a {op} b`", f"`{name} b a`") for op, name in SWAPPED.items()]
    rows += [(f"`a {CONGRUENCE} b [{word} n]`", f"`{name} n a b`") for word, name in CONGRUENCES.items()]
    rows += [(f"`M {op}R] N`", f"`{name} {f'({via} R)' if via else 'R'} M N`") for op, (name, via) in BRACKET_INFIX.items()]
    rows += [(f"`{op}(α, β)`", f"`{name} α β`") for op, name in GLUED_CALLS.items()]
    rows += [(f"`{op}…]`", f"`{name} …`") for op, name in GLUED_BRACKETS.items()]
    rows.append(("`𝓝[s] x`", f"`{NHDS_WITHIN} x s`"))
    rows += [(f"`𝓝[{side}] x`", f"`{NHDS_WITHIN} x {_applied(names, 'x')}`") for side, names in NEIGHBOURHOOD_SIDES.items()]
    rows += [(f"`{op}x`", f"`{name} x`") for op, (name, _) in PREFIX.items()]
    rows += [(f"`{op}x{close}{suffix}`", f"`{name} x`") for op, (close, names) in ENCLOSING.items()
             for suffix, name in names.items()]
    rows += [(f"`{op} x ∂μ, p x`", f"`{name} (fun x => p x) ({AE} μ)`") for op, name in ALMOST_EVERYWHERE.items()]
    for op, b in BINDERS.items():
        if b.shape == "finset":
            rows.append((f"`{op} x ∈ s, f x`", f"`{b.constant} s (fun x => f x)`"))
        elif b.shape == "filter":
            rows.append((f"`{op} x in l, p x`", f"`{b.constant} (fun x => p x) l`"))
        elif b.shape == "integral":
            interval = f" (`{b.interval}` for `a..b`)" if b.interval else ""
            forms = "`in s`, `in a..b`, `∂μ`" if b.interval else "`in s`, `∂μ`"
            rows.append((f"`{op} x, f x` ({forms})", f"`{b.constant}`{interval}"))
        else:
            rows.append((f"`{op} x, f x`", f"`{b.constant} (fun x => f x)`"))
    return rows


def elaborated() -> frozenset[str]:
    """Every constant the tables above elaborate notation to: full names already, which a
    pattern's reading never resolves again (`search/index/patterns.py`, `ABSOLUTE`)."""
    return frozenset({
        *CONSTANTS.values(), *TERM_CONSTANTS.values(), *GLUED_CONSTANTS.values(), *POSTFIX.values(),
        *TERM_POSTFIX.values(), *GLUED_POSTFIX.values(), *PARTS.values(), *INDEXED.values(),
        ADJOIN, SHIFT, ORE_LOCALIZATION, AE, NHDS_WITHIN, VOLUME, RESTRICT,
        *(head for _, _, head in (*INFIX.values(), *TERM_INFIX.values(), *DECORATED_INFIX.values())),
        *(name for name, _ in BRACKET_INFIX.values()), *GLUED_CALLS.values(), *GLUED_BRACKETS.values(),
        *(c for pair in EVENTUALLY.values() for c in pair if c), *ALMOST_EVERYWHERE.values(),
        *(name for _, name, _ in PAIRS.values()), *SWAPPED.values(), *(name for name, _ in PREFIX.values()),
        *(c for _, constants in ENCLOSING.values() for c in constants.values()),
        *(c for names in NEIGHBOURHOOD_SIDES.values() for c in names),
        *(b.constant for b in BINDERS.values()), *(b.universe for b in BINDERS.values() if b.universe),
        *(b.interval for b in BINDERS.values() if b.interval),
        *BOUNDED_DOMAINS.values(), *CONGRUENCES.values(), *VECTOR, ITERATE,
    }) - {ARROW}
