"""Lemmas closing or rewriting a goal, matched by structure over a pattern index of a few
hand-written statements (each with look-alikes that must not match)."""

from __future__ import annotations

import numpy as np
import pytest

from search.engine.goal_match import CLOSES, REWRITES, GoalMatcher
from search.engine.goals import read_term
from search.index.patterns import PatternIndex
from search.record import Statement

HEADERS = [
    "theorem add_comm [AddCommMagma G] (a b : G) : a + b = b + a",
    "theorem Int.add_comm (a b : ℤ) : a + b = b + a",
    "theorem add_left_comm [AddCommSemigroup G] (a b c : G) : a + (b + c) = b + (a + c)",
    "theorem Nat.le_succ (n : ℕ) : n ≤ n + 1",
    "theorem le_refl [Preorder α] (a : α) : a ≤ a",
    "theorem two_mul [NonAssocSemiring α] (a : α) : 2 * a = a + a",
    "theorem add_zero [AddZeroClass M] (a : M) : a + 0 = a",
    "theorem Eq.symm' {a b : α} (h : a = b) : b = a",
    "theorem mul_le_mul_left' [Mul α] [LE α] {b c : α} (h : b ≤ c) (a : α) : a * b ≤ a * c",
]


@pytest.fixture(scope="module")
def matcher() -> GoalMatcher:
    statements = [Statement(id=f"t:{i}", source="t", kind="theorem", name=h.split()[1], statement=h, language="lean")
                  for i, h in enumerate(HEADERS)]
    statements.append(Statement(id="t:AddCommMagma", source="t", kind="class", name="AddCommMagma",
                                statement="class AddCommMagma (G : Type u) extends Add G", language="lean"))
    patterns = PatternIndex.build(statements)
    eligible = np.array([s.kind == "theorem" for s in statements])
    pagerank = np.linspace(1.0, 0.1, len(statements))
    return GoalMatcher(patterns, eligible, pagerank, ["AddCommMagma"], lambda written: [])


def names(matcher: GoalMatcher, goal: str, fixed: set[str], kind: int | None = None, exclude=()) -> list[str]:  # type: ignore[no-untyped-def]
    term = read_term(goal)
    found = matcher.match(term, fixed, {"Nat", "HAdd.hAdd", "Eq"}, exclude)
    return [HEADERS[m.position].split()[1] for m in found if kind is None or m.kind == kind]


def test_a_conclusion_matching_the_goal_closes_it_general_lemmas_before_foreign_ones(matcher: GoalMatcher) -> None:
    # Under `a b : ℕ`, `Int.add_comm` mentions `Int`, which the goal state does not; the class
    # `AddCommMagma` counts as nothing foreign.
    assert names(matcher, "a + b = b + a", {"a", "b"}, CLOSES) == ["add_comm", "Int.add_comm"]


def test_hypotheses_are_fixed_terms_only_a_lemma_variable_matches(matcher: GoalMatcher) -> None:
    # `n ≤ n + 1` needs `b` to be `a + 1`; `a ≤ a` needs `b` to be `a`.
    assert names(matcher, "a ≤ b", {"a", "b"}, CLOSES) == []
    assert names(matcher, "a ≤ a", {"a"}, CLOSES) == ["le_refl"]
    assert names(matcher, "x ≤ x + 1", {"x"}, CLOSES) == ["Nat.le_succ"]


def test_the_swapped_sides_of_an_equation_close_it_too(matcher: GoalMatcher) -> None:
    term = read_term("x + x = 2 * x")
    found = [m for m in matcher.match(term, {"x"}, set()) if m.kind == CLOSES]
    assert [(HEADERS[m.position].split()[1], m.reversed) for m in found] == [("two_mul", True)]


def test_a_side_matching_a_subterm_is_a_rewrite(matcher: GoalMatcher) -> None:
    rewrites = names(matcher, "f (y + 0) = f y * 2", {"f", "y"}, REWRITES)
    assert rewrites == ["add_zero"]
    # `a + (b + c)` rewrites, `add_comm`'s bare `a + b` has too few constants to say anything.
    assert names(matcher, "p + (q + r) = r", {"p", "q", "r"}, REWRITES) == ["add_left_comm"]


def test_a_lemma_saying_too_little_is_no_match(matcher: GoalMatcher) -> None:
    assert "Eq.symm'" not in names(matcher, "a + b = b + a", {"a", "b"})
    # A goal with one constant is closed by a lemma with one.
    assert names(matcher, "u ≤ u", {"u"}, CLOSES) == ["le_refl"]


def test_excluded_records_are_never_answered(matcher: GoalMatcher) -> None:
    assert names(matcher, "a + b = b + a", {"a", "b"}, CLOSES, exclude=[0]) == ["Int.add_comm"]


def test_a_goal_under_binders_is_matched_after_intro(matcher: GoalMatcher) -> None:
    assert names(matcher, "∀ n : ℕ, n ≤ n + 1", set(), CLOSES) == ["Nat.le_succ"]
