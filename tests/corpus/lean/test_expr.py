"""Terms read as trees: notation desugared for Loogle's patterns, strict errors, both readings."""

from __future__ import annotations

import pytest

from search import config
from search.corpus.lean import notation
from search.corpus.lean.expr import (
    VAR,
    ParseError,
    app,
    const,
    hole,
    literal,
    local,
    parse_declaration,
    parse_expr,
    parse_term,
    pi,
)
from search.corpus.lean.syntax import term_tokens


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
        ("if x = y then x else y", c("ite", c("Eq", x, y), x, y)),
        ("∀ᶠ x in 𝓝 y, f x", c("Filter.Eventually", app(f, x), c("nhds", y))),
        ("fun π => π", local("π")),
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


def test_names_reading_is_unchanged() -> None:
    """Instance naming sees every variable as one `VAR` and no binder types."""
    assert parse_expr(term_tokens("∀ x : ℕ, x = y"), set()) == pi(VAR, c("Eq", VAR, VAR))
    assert parse_expr(term_tokens("2 ∈ s"), set()) == c("Membership.mem", c("OfNat.ofNat", VAR, VAR), VAR)


@pytest.mark.parametrize(
    ("text", "message", "at"),
    [
        ("_ * (_ ^ _", "'(' is not closed", 4),
        ("_ * _)", "')' closes no bracket", 5),
        ("_ ⊞ _", "unknown notation '⊞'", 2),
        ("_ +", "'+' needs a term on its right", 2),
        ("‖_", "'‖' is not closed", 0),
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
