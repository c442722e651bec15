"""Query routing and the plain-text form that the lexical signals read."""

import pytest

from search.engine.query import parse_query, plain_text, without_counts


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("Nat.succ_le_succ", "name"),
        ("mul_comm", "name"),
        ("isOpen", "name"),
        ('"succ_le"', "substring"),
        ('"succ", "le"', "substring"),
        ("fundamental theorem of calculus", "natural"),
        ("Group", "natural"),
        ("$a + b = b + a$", "latex"),
        (r"$\int_a^b f' = f(b) - f(a)$", "latex"),
        ("∀ a b : ℕ, a + b = b + a", "lean"),
        ("s ⊆ t → f '' s ⊆ f '' t", "lean"),
        ("every `Algebra R A` is a `LieAlgebra R A`", "lean"),
        ("`IsCoprime f f'` for $f$ separable", "lean"),
        ("x ≤ y and y ≤ z", "natural"),
    ],
)
def test_routing(query: str, kind: str) -> None:
    assert parse_query(query).kind == kind


def test_latex_queries_become_unicode_text() -> None:
    parsed = parse_query(r"$\mu(\emptyset) = 0$ for $\mu : \mathcal{P}(\alpha) \to \mathbb{R}$")
    assert "\\" not in parsed.plain and "$" not in parsed.plain
    assert "ℝ" in parsed.plain and "∅" in parsed.plain
    # The dense signal reads the query as typed: the model has seen LaTeX.
    assert parsed.text.startswith("$\\mu")


def test_plain_text_leaves_prose_and_lean_alone() -> None:
    for text in ("continuous functions on compact sets", "∀ ε > 0, ∃ δ > 0, s \\ t ⊆ u"):
        assert plain_text(text) == text


def test_without_counts_leaves_numbers_that_are_no_count() -> None:
    assert without_counts("the sum of two even numbers is even") == "the sum of even numbers is even"
    assert without_counts("Three points on a line") == "points on a line"
    for text in ("a two-sided inverse", "two_mul", "between two", "2 ≤ p", "twofold"):
        assert without_counts(text) == text
