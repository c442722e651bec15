"""Terms read as trees: notation desugared for Loogle's patterns, strict errors, both readings."""

from __future__ import annotations

import pytest

from search import config
from search.corpus.lean import notation
from search.corpus.lean.expr import (
    UNREAD,
    VAR,
    ParseError,
    app,
    const,
    Reading,
    hole,
    lam,
    literal,
    local,
    parse_declaration,
    parse_expr,
    parse_term,
    pi,
)
from search.corpus.lean.syntax import term_tokens
from search.index import patterns


def term(text: str) -> tuple:
    return parse_term(term_tokens(text), strict=True)


def c(name: str, *args: tuple) -> tuple:
    return app(const(name), *args)


x, y, s, t, f = (local(n) for n in "xysTf")
two = c("OfNat.ofNat", literal("2"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("_ * (_ ^ _)", c("HMul.hMul", VAR, c("HPow.hPow", VAR, VAR))),
        ("?a * ?b = ?b * ?a", c("Eq", c("HMul.hMul", hole("a"), hole("b")), c("HMul.hMul", hole("b"), hole("a")))),
        ("(?a → ?b) → List ?a", pi(pi(hole("a"), hole("b")), c("List", hole("a")))),
        ("x^2", c("HPow.hPow", x, two)),
        ("∑ x ∈ s, f x", c("Finset.sum", local("s"), app(f, x))),
        ("∑ x, f x", c("Finset.sum", const("Finset.univ"), app(f, x))),
        ("∑ x < y, f x", c("Finset.sum", c("Finset.Iio", y), app(f, x))),
        ("∑' x, f x", c("tsum", app(f, x))),
        ("∑'[L] x, f x", c("tsum", app(f, x))),
        ("√x * √x", c("HMul.hMul", c("Real.sqrt", x), c("Real.sqrt", x))),
        ("‖x - y‖ ≤ |x|", c("LE.le", c("Norm.norm", c("HSub.hSub", x, y)), c("abs", x))),
        ("‖x‖₊", c("NNNorm.nnnorm", x)),
        ("⌊x⌋₊", c("Nat.floor", x)),
        ("#(s ∪ s)", c("Finset.card", c("Union.union", local("s"), local("s")))),
        ("x⁻¹", c("Inv.inv", x)),
        ("x > y", c("LT.lt", y, x)),
        ("x ∈ s", c("Membership.mem", local("s"), x)),
        ("x ∉ s", c("Not", c("Membership.mem", local("s"), x))),
        ("{x | x ∈ s}", c("setOf", c("Membership.mem", local("s"), x))),
        ("{x ∈ s | x = y}", c("setOf", c("And", c("Membership.mem", local("s"), x), c("Eq", x, y)))),
        ("{x, y}", c("Insert.insert", x, c("Singleton.singleton", y))),
        ("[x, y]", c("List.cons", x, c("List.cons", y, const("List.nil")))),
        ("(x, y)", c("Prod.mk", x, y)),
        ("f '' s", c("Set.image", f, local("s"))),
        ("f ⁻¹' s", c("Set.preimage", f, local("s"))),
        ("f ∘ f", c("Function.comp", f, f)),
        ("x ∣ y", c("Dvd.dvd", x, y)),
        ("∀ x ∈ s, x = x", pi(VAR, pi(c("Membership.mem", local("s"), x), c("Eq", x, x)))),
        ("∃ x > 0, f x", c("Exists", c("And", c("LT.lt", c("OfNat.ofNat", literal("0")), x), app(f, x)))),
        ("∫ x in (0)..π, f x", c("intervalIntegral", app(f, x), c("OfNat.ofNat", literal("0")), const("Real.pi"),
                                  const("MeasureTheory.MeasureSpace.volume"))),
        ("∫ x, f x ∂μ", c("MeasureTheory.integral", local("μ"), app(f, x))),
        # the measure is a term of precedence 70, applied as written; an integral inside another ends at its own `∂`
        ("∫ x, f x ∂y.prod u + x", c("HAdd.hAdd", c("MeasureTheory.integral", c("prod", y, local("u")), app(f, x)), x)),
        ("∫ x, ∫ y, f x y ∂u ∂s", c("MeasureTheory.integral", local("s"),
                                    c("MeasureTheory.integral", local("u"), app(f, x, y)))),
        # relations on lists, measures, submodules and functions along a filter
        ("x <+ y ∧ x <:+: y ∧ x ~ y", c("And", c("List.Sublist", x, y), c("And", c("List.IsInfix", x, y),
                                                                       c("List.Perm", x, y)))),
        ("x ≪ y → f ~[y] x", pi(c("MeasureTheory.Measure.AbsolutelyContinuous", x, y),
                                c("Asymptotics.IsEquivalent", y, f, x))),
        ("⨍ x in s, f x ∂y", c("MeasureTheory.average", c("MeasureTheory.Measure.restrict", y, local("s")),
                                app(f, x))),
        # `⟪x, y⟫` and `⁅x, y⁆` are arguments too
        ("f ⟪x, y⟫ ⁅x, y⁆", app(f, c("Inner.inner", VAR, x, y), c("Bracket.bracket", x, y))),
        ("if x = y then x else y", c("ite", c("Eq", x, y), x, y)),
        ("∀ᶠ x in 𝓝 y, f x", c("Filter.Eventually", app(f, x), c("nhds", y))),
        ("fun π => π", local("π")),
        # decorated operators, which the tokenizer splits (`∘` `ₗ`)
        ("f ∘ₗ f ∘ₗ f", c("LinearMap.comp", f, c("LinearMap.comp", f, f))),
        ("x ⬝ᵥ y = 0", c("Eq", c("dotProduct", x, y), c("OfNat.ofNat", literal("0")))),
        ("f *ᵥ x + y", c("HAdd.hAdd", c("Matrix.mulVec", f, x), y)),
        ("x ᵥ* f", c("Matrix.vecMul", x, f)),
        ("x %ₘ y * x", c("HMul.hMul", c("Polynomial.modByMonic", x, y), x)),
        ("s ≃ₜ s", c("Homeomorph", local("s"), local("s"))),
        ("s →ₙ+* s", c("NonUnitalRingHom", local("s"), local("s"))),
        ("f =ᶠ[𝓝 x] f", c("Filter.EventuallyEq", c("nhds", x), f, f)),
        ("f =ᵐ[μ] f ∧ f ≤ᵐ[μ] f", c("And", c("Filter.EventuallyEq", c("MeasureTheory.ae", local("μ")), f, f),
                                    c("Filter.EventuallyLE", c("MeasureTheory.ae", local("μ")), f, f))),
        ("‖x‖ₑ ≤ |y|ₘ", c("LE.le", c("ENorm.enorm", x), c("mabs", y))),
        ("⅟2 * x", c("HMul.hMul", c("Invertible.invOf", two), x)),
        ("fᵀ", c("Matrix.transpose", f)),
        ("⁅x, y⁆ = -⁅y, x⁆", c("Eq", c("Bracket.bracket", x, y), c("Neg.neg", c("Bracket.bracket", y, x)))),
        ("⟪x, y⟫_ℝ", c("Inner.inner", const("Real"), x, y)),
        ("⟪x, y⟫", c("Inner.inner", VAR, x, y)),
        ("∠ x y x", c("EuclideanGeometry.angle", x, y, x)),
        ("(λ_ x).hom", c("hom", c("CategoryTheory.MonoidalCategoryStruct.leftUnitor", x))),
        ("⅟x y = y", c("Eq", app(c("Invertible.invOf", x), y), y)),
        ("∀ᵐ x ∂μ, f x = y", c("Filter.Eventually", c("Eq", app(f, x), y), c("MeasureTheory.ae", local("μ")))),
        ("∃ᵐ x, f x", c("Filter.Frequently", app(f, x), c("MeasureTheory.ae", const("MeasureTheory.MeasureSpace.volume")))),
        ("f =o[𝓝 x] f ↔ f =O[l] y", c("Iff", c("Asymptotics.IsLittleO", c("nhds", x), f, f),
                                       c("Asymptotics.IsBigO", local("l"), f, y))),
        ("x ⧸ y ^ 2", c("HasQuotient.Quotient", x, c("HPow.hPow", y, two))),
        ("f x[X] = y", c("Eq", app(f, c("Polynomial", x)), y)),
        ("f x⟦X⟧ = y", c("Eq", app(f, c("PowerSeries", x)), y)),
        ("x ::ₘ y", c("Multiset.cons", x, y)),
        ("f ⊗ₘ f", c("CategoryTheory.MonoidalCategoryStruct.tensorHom", f, f)),
        ("f ⁻¹ᵁ f ⁻¹ᵁ s ≤ s⁻¹", c("LE.le", c("TopologicalSpace.Opens.map", f, c("TopologicalSpace.Opens.map", f, s)),
                                     c("Inv.inv", s))),
        ("Λ[x + 1, y] ⟶ ∂Δ[x]", c("Quiver.Hom", c("SSet.horn", c("HAdd.hAdd", x, c("OfNat.ofNat", literal("1"))), y),
                                    c("SSet.boundary", x))),
        ("f ∂Δ[x]", app(f, c("SSet.boundary", x))),
        ("⦋x⦌ ⟶ ⦋y⦌", c("Quiver.Hom", c("SimplexCategory.mk", x), c("SimplexCategory.mk", y))),
        ("⨁ x, f x", c("DirectSum", app(f, x))),
        ("⨁ (x : s) (y : s), f x", c("DirectSum", c("DirectSum", app(f, x)))),
        ("⨁ x : s, f x", c("DirectSum", app(f, x))),
        # the factorial, spaced after a term, glued after a parenthesis
        ("x ! = (x - 1)! * x", c("Eq", c("Nat.factorial", x),
                                 c("HMul.hMul", c("Nat.factorial", c("HSub.hSub", x, c("OfNat.ofNat", literal("1")))), x))),
        # the unit object of a monoidal category, not the identity morphism `𝟙 _`
        ("x ◁ 𝟙_ s = 𝟙 _", c("Eq", c("CategoryTheory.MonoidalCategoryStruct.whiskerLeft", x,
                                      c("CategoryTheory.MonoidalCategoryStruct.tensorUnit", s)),
                              c("CategoryTheory.CategoryStruct.id", VAR))),
        # an iterated function, applied; a tensor product of elements that names its ring
        ("f^[2] x = x ⊗ₜ[s] y", c("Eq", app(c("Nat.iterate", f, two), x), c("TensorProduct.tmul", x, y))),
        # a vector's elements, as a list's; applied to an index
        ("f (![x, y] s) = ![]", c("Eq", app(f, app(c("Matrix.vecCons", x, c("Matrix.vecCons", y, const("Matrix.vecEmpty"))), s)),
                                  const("Matrix.vecEmpty"))),
        # a congruence: its modulus is no argument of the side before it
        ("f x ≡ y [MOD 2] → x ≡ y [ZMOD s * T]", pi(c("Nat.ModEq", two, app(f, x), y),
                                                    c("Int.ModEq", c("HMul.hMul", s, t), x, y))),
        ("x ≪≫ y ≍ x ↔ x ~ᵤ y", c("Iff", c("HEq", c("CategoryTheory.Iso.trans", x, y), x), c("Associated", x, y))),
        # an argument given by its name is not one in order
        ("f (y := x) x", app(f, x)),
        ("f (y := x).foo", c("foo", f)),
        # the `]` of `→ₗ[` closes no parenthesis around it
        ("((x : (s →ₗ[y] s) → s)) = y", c("Eq", x, y)),
        ("s ∈ 𝓝[>] x", c("Membership.mem", c("nhdsWithin", x, c("Set.Ioi", x)), s)),
        ("𝓝[≠] x", c("nhdsWithin", x, c("HasCompl.compl", c("Singleton.singleton", x)))),
        ("(x != y) = (𝓝ˢ s == sᶜ⁰)", c("Eq", c("bne", x, y),
                                        c("BEq.beq", c("nhdsSet", s), c("nonZeroDivisors", c("HasCompl.compl", s))))),
    ],
)
def test_terms_reading_desugars_notation(text: str, expected: tuple) -> None:
    assert term(text) == expected


def test_declaration_binders_are_pis_and_field_notation_follows_the_type() -> None:
    binders = term_tokens("{s : Finset α} (h : 0 < s.card)")
    statement = parse_declaration(binders, term_tokens("s.Nonempty"))
    alpha, s_ = local("α"), local("s")
    assert statement == pi(c("Finset", alpha), pi(c("LT.lt", c("OfNat.ofNat", literal("0")), c("Finset.card", s_)),
                                                  c("Finset.Nonempty", s_)))
    # An `extends` clause is no binder; without a type the conclusion is unknown.
    assert parse_declaration(term_tokens("(G : Type u) extends Mul G"), []) == pi(("s", "Type"), VAR)


def test_words_reading_reads_a_section_as_the_function_it_is() -> None:
    def words(text: str) -> tuple:
        return parse_term(term_tokens(text), reading=Reading.WORDS)

    plus_one = c("HAdd.hAdd", local("x"), c("OfNat.ofNat", literal("1")))
    assert words("Monotone (· + 1)") == c("Monotone", lam("x", plus_one))
    # one variable for each `·`, named by a name the statement does not write
    assert words("(· * ·) = x") == c("Eq", lam("y", lam("z", c("HMul.hMul", local("y"), local("z")))), x)
    # a `·` belongs to the innermost parenthesis around it
    assert words("(f (· + 1) y)") == app(f, lam("x", plus_one), y)
    # the `TERMS` reading keeps a `·` a hole
    assert term("(· + 1)") == c("HAdd.hAdd", VAR, c("OfNat.ofNat", literal("1")))


def test_words_reading_says_what_only_types_would_name() -> None:
    def words(text: str) -> tuple:
        return parse_term(term_tokens(text), reading=Reading.WORDS)

    # a projection's number and a constant of the expected type's namespace
    assert words("x.2.1 = .ofReal y") == c("Eq", c("Prod.fst", c("Prod.snd", x)), c("ofReal", y))
    assert words("Function.Injective ((↑) : s → t)") == c("Function.Injective", const("coe"))
    assert words("IsClosed[t] s") == c("IsClosed", s)
    # a variable whose type is not a pair's (`↥S`, a subtype) has an element, not components
    subtype = parse_declaration(term_tokens("(x : ↥s) (y : A × B)"), term_tokens("x.1 = y.1"), Reading.WORDS)
    assert subtype[3][3] == c("Eq", c("Subtype.val", x), c("Prod.fst", y))
    # the `TERMS` reading cannot tell `Prod.fst` from `Subtype.val`, nor name `.ofReal`: holes
    assert parse_term(term_tokens("x.1 = .ofReal y")) == c("Eq", VAR, app(VAR, const("ofReal"), y))


def test_words_put_the_term_of_field_notation_where_the_constant_takes_it() -> None:
    s, f, a = local("s"), local("f"), local("a")
    receivers = {"Finset.image": 1}

    def read(binders: str, statement: str, reading: Reading) -> tuple:
        tree = parse_declaration(term_tokens(binders), term_tokens(statement), reading, receivers)
        while tree[0] in ("Π", "f"):
            tree = tree[3] if tree[0] == "Π" else tree[2]
        return tree

    assert read("(s : Finset α)", "s.image f = s.card", Reading.WORDS) == \
        c("Eq", c("Finset.image", f, s), c("Finset.card", s))
    # written out, or not applied to the arguments before its place, it stays as read
    assert read("(s : Finset α)", "Finset.image s f = s.image", Reading.WORDS) == \
        c("Eq", c("Finset.image", s, f), c("Finset.image", s))
    # Loogle's patterns (`TERMS`) are matched as before
    assert read("(s : Finset α)", "s.image f = a", Reading.TERMS) == c("Eq", c("Finset.image", s, f), a)


def test_words_read_an_anonymous_constructors_components() -> None:
    tokens = term_tokens("e ⟨x, hx⟩ = ⟨a, b, by simp⟩")
    x, hx, a, b = local("x"), local("hx"), local("a"), local("b")
    anonymous = notation.ANONYMOUS_CONSTRUCTOR
    assert parse_term(tokens, bound={"e", "x", "hx", "a", "b"}, reading=Reading.WORDS) == \
        c("Eq", app(local("e"), c(anonymous, x, hx)), c(anonymous, a, b, c("by", const("simp"))))
    # Loogle's patterns (`TERMS`) know no structure to build: a hole
    assert parse_term(tokens, bound={"e", "x", "hx", "a", "b"}) == c("Eq", app(local("e"), VAR), VAR)


def test_a_binder_groups_colon_follows_its_names() -> None:
    """`[∀ {i j} (f : i ⟶ j), P f]` is an instance binder without a name: the colon inside its
    term names nothing."""
    binders = term_tokens("[∀ {x y} (f : x ⟶ y), P f] [inst : Q s] (g : ∀ x : s, P x)")
    assert parse_declaration(binders, term_tokens("P g")) == \
        pi(pi(VAR, pi(VAR, pi(c("Quiver.Hom", x, y), app(local("P"), f)))),
           pi(app(local("Q"), s), pi(pi(s, app(local("P"), x)), app(local("P"), local("g")))))


def test_words_keep_what_they_cannot_read_apart_from_a_hole() -> None:
    """Unknown notation, inside a term or after the statement's, is `UNREAD`, which the words say
    as such; Loogle's patterns (`TERMS`) read it as the hole `_` is."""
    binders = term_tokens("(M R X : Set α)")
    statement = term_tokens("f (M ↾ R) X = f _ (X ∩ R)")
    assert parse_declaration(binders, statement, Reading.WORDS)[3][3][3] == \
        c("Eq", app(f, UNREAD, local("X")), app(f, VAR, c("Inter.inter", local("X"), local("R"))))
    assert parse_declaration(binders, statement)[2][2][2] == \
        c("Eq", app(f, VAR, local("X")), app(f, VAR, c("Inter.inter", local("X"), local("R"))))
    # `∧ b ∣ a ↔ a ⊞ b` is not read: the statement is not `a ∣ b`
    truncated = term_tokens("a ∣ b ∧ b ∣ a ↔ a ⊞ b")
    assert parse_declaration([], truncated, Reading.WORDS) == UNREAD
    assert parse_declaration([], truncated) == c("Iff", c("And", c("Dvd.dvd", local("a"), local("b")),
                                                         c("Dvd.dvd", local("b"), local("a"))), local("a"))


def test_glued_notation_is_read_only_after_terms_that_have_it() -> None:
    def declaration(binders: str, statement: str) -> tuple:
        tree = parse_declaration(term_tokens(binders), term_tokens(statement))
        while tree[0] == "f":
            tree = tree[2]
        return tree

    l, i, a, b = (local(n) for n in "liab")
    # `xs[i]` after a list, `?` and `!` glued after the bracket, and after a list's function applied
    assert declaration("(l : List α) (i : ℕ)", "l[i]? = some l[i]") == c(
        "Eq", c("GetElem?.getElem?", l, i), app(const("some"), c("GetElem.getElem", l, i)))
    assert declaration("(l : List α) (i : ℕ)", "(l.set i a)[i]! = a") == c(
        "Eq", c("GetElem?.getElem!", c("List.set", l, i, a), i), a)
    # ... not after another term: `R[a]` is other notation, which stays unknown
    with pytest.raises(ParseError, match="unknown notation"):
        parse_term(term_tokens("R[a] ≤ S"), strict=True, bound={"R", "a", "S"})
    # `a⁺`, `a⁻ᵐ` after a bound variable or a parenthesised term
    assert declaration("(a b : α)", "a⁺ = (a ⊔ b)⁻ᵐ") == c(
        "Eq", c("PosPart.posPart", a), c("LeOnePart.leOnePart", c("Max.max", a, b)))
    # ... not after a type (`K⁺`, a local notation for a subfield) or a constant (`log⁺ x`)
    assert declaration("(K : Type*) [Field K]", "IsQuadraticExtension K⁺ K") == c(
        "IsQuadraticExtension", VAR, local("K"))
    assert declaration("(x : ℝ)", "log⁺ x = 0") == c("Eq", app(VAR, x), c("OfNat.ofNat", literal("0")))
    # `F⟮α⟯` after a type only: in `C^n⟮I, M; I', M'⟯` the bracket is another notation's
    assert declaration("(F : Type*) [Field F] (α : E)", "α ∈ F⟮α⟯") == c(
        "Membership.mem", c("IntermediateField.adjoin", local("F"), c("Singleton.singleton", local("α"))), local("α"))
    assert "IntermediateField.adjoin" not in str(declaration("(n : ℕ)", "C^n⟮I, M; I', M'⟯ = 0"))
    # `X⟦n⟧` and `f⟦n⟧'` after a bound variable that is no type or a parenthesised term, by a shift that is no type
    X, n = local("X"), local("n")
    assert declaration("(X : C) (f : X ⟶ X) (n : ℤ)", "f⟦n⟧'⟦n⟧' = (f ≫ f)⟦n⟧'") == c(
        "Eq", c("CategoryTheory.shiftFunctor", VAR, n, c("CategoryTheory.shiftFunctor", VAR, n, f)),
        c("CategoryTheory.shiftFunctor", VAR, n, c("CategoryTheory.CategoryStruct.comp", f, f)))
    assert declaration("(X : C) (n : ℤ)", "X⟦n⟧ ⟶ X") == c(
        "Quiver.Hom", c("CategoryTheory.shiftFunctor", VAR, n, X), X)
    # ... not after a type or by one (`R⟦Γ⟧`, `Rᵃᵒᵖ⟦Γ⟧`: Hahn series), nor around more than a term
    # (`μ⟦s | m⟧`), nor with no term glued before it (`⟦x⟧`, a quotient's class)
    assert declaration("(Γ R : Type*) (x : R)", "x ∈ R⟦Γ⟧ ∨ x ∈ Rᵃᵒᵖ⟦Γ⟧ ∨ x ∈ x⟦ℕ⟧") == c(
        "Or", c("Membership.mem", VAR, x), c("Or", c("Membership.mem", VAR, x), c("Membership.mem", VAR, x)))
    with pytest.raises(ParseError, match="expected '⟧' to close '⟦' after a term, found '|'"):
        parse_term(term_tokens("μ⟦s | m⟧ = 0"), strict=True, bound={"μ", "s", "m"})
    assert declaration("(x : α)", "⟦x⟧ = x ⟦x⟧") == c("Eq", VAR, app(x, VAR))
    # `R[S⁻¹]` when the bracket holds one term with `⁻¹` glued last: `R[T;T⁻¹]` is other notation
    R, S = local("R"), local("S")
    assert declaration("(R : Type*) (S : Submonoid R)", "R[S⁻¹] = R[R⁰⁻¹]") == c(
        "Eq", c("OreLocalization", S, R), c("OreLocalization", c("nonZeroDivisors", R), R))
    with pytest.raises(ParseError, match="unknown notation ';'"):
        parse_term(term_tokens("R[T;T⁻¹]"), strict=True, bound={"R", "T"})
    # `⨁` binds only names followed by a comma: `⨁ f` is a biproduct, other notation; `∫ ... ∂μ` and
    # `⦋n⦌₂` (a truncated simplex) are not read so either
    with pytest.raises(ParseError, match="unknown notation '⨁'"):
        parse_term(term_tokens("⨁ f ⟶ f x"), strict=True, bound={"f", "x"})
    with pytest.raises(ParseError, match="unknown notation '⨁'"):
        parse_term(term_tokens("(⨁ f : C)"), strict=True, bound={"f"})
    with pytest.raises(ParseError, match="unknown notation '₂'"):
        parse_term(term_tokens("⦋0⦌₂"), strict=True)
    # `#α` as an argument is a term of its own, not applied to the next argument
    assert declaration("(α β : Type u)", "max #α #β = 0") == c(
        "Eq", c("max", c("Finset.card", local("α")), c("Finset.card", local("β"))), c("OfNat.ofNat", literal("0")))


def test_names_reading_is_unchanged() -> None:
    """Instance naming sees every variable as one `VAR` and no binder types."""
    assert parse_expr(term_tokens("∀ x : ℕ, x = y"), set()) == pi(VAR, c("Eq", VAR, VAR))
    assert parse_expr(term_tokens("2 ∈ s"), set()) == c("Membership.mem", c("OfNat.ofNat", VAR, VAR), VAR)
    # decorated operators are unknown notation to it, as they were before the term reader knew them
    assert parse_expr(term_tokens("X ≃ₜ Y"), set()) == VAR
    assert parse_expr(term_tokens("f =ᶠ[l] g"), set()) == VAR


def test_an_average_over_an_interval_is_not_read_as_an_integral() -> None:
    assert parse_term(term_tokens("⨍ x in x..y, f x")) == VAR
    assert parse_term(term_tokens("∫ x in x..y, f x")) == c("intervalIntegral", app(f, x), x, y,
                                                          const("MeasureTheory.MeasureSpace.volume"))


@pytest.mark.parametrize(
    ("text", "message", "at"),
    [
        ("_ * (_ ^ _", "'(' is not closed", 4),
        ("_ * _)", "')' closes no bracket", 5),
        ("_ ⊞ _", "unknown notation '⊞'", 2),
        ("_ +", "'+' needs a term on its right", 2),
        ("_ ≡ _", "'≡' needs a modulus", 2),
        ("‖_", "'‖' is not closed", 0),
        ("_ →ₗ[_ _", "'→ₗ[' is not closed", 2),
    ],
)
def test_strict_reading_says_where_it_failed(text: str, message: str, at: int) -> None:
    with pytest.raises(ParseError) as error:
        term(text)
    assert error.value.message.startswith(message)
    assert error.value.token is not None and error.value.token.start == at


def test_the_documentation_prints_every_notation_entry() -> None:
    page = (config.REPO_DIR / "docs" / "loogle.md").read_text(encoding="utf-8")
    for written, reads_as in notation.documented():
        row = f"| {written.replace('|', chr(92) + '|')} | {reads_as.replace('|', chr(92) + '|')} |"
        assert row in page, f"docs/loogle.md's notation table lacks {row}"


def test_every_constant_notation_reads_as_is_a_full_name_to_patterns() -> None:
    """A pattern's reading never resolves a notation's constant again (inside `namespace Matrix`,
    `Aᴴ` is still `Matrix.conjTranspose`, not `Matrix.Matrix.conjTranspose`)."""
    heads = {reads_as.strip("`").removeprefix("Not (").split()[0].strip("`") for _, reads_as in notation.documented()}
    assert heads - {"Membership.mem"} <= notation.elaborated()
    assert notation.elaborated() <= patterns.ABSOLUTE
