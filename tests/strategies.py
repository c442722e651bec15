"""Hypothesis strategies for hostile input: any text (control characters, NUL, lone surrogates,
100 KB), LaTeX and Lean fragments, and JSON of any shape, for the fuzz tests of every entry
point (tests/api/test_fuzz.py, tests/ui/test_page.py)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote_from_bytes

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Bounded, so that CI runs each fuzz test in seconds; no example database written to disk.
FUZZ = settings(
    max_examples=100, deadline=None, database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

#: Inputs worth trying every time, beside the random ones.
SPECIMENS = [
    "", " ", "\t\n", "\x00", "a\x00b", "\x07\x1b[31m", "\u202e\u200b", "\ud800", "\udfff x",
    "$", "$$", "$\\frac{1}{", "\\begin{theorem}", "\\end{proof}}", "\\href{javascript:alert(1)}{x}",
    "⊢", "x : ℕ\n⊢", "theorem foo : ∀ x,", "(x + ⟨", "«", "Real.sin,", '"', '""', ",", ", ,",
    '"sin", Real.cos', "_ * (_ ^ _)", "?a", "#find _", "%FF", "<script>alert(1)</script>",
    "[x](javascript:alert(1))", "Nat.succ_le_succ", "mathlib:mul_comm", "∑ i in range n, i",
    "x" * 2000, "x" * 2001, "🙂" * 2000, "x" * 100_000,
]

any_text = st.text(st.characters(exclude_categories=()), max_size=60)
#: Printable text that makes a real search (words, symbols, LaTeX, Lean notation).
searchable = st.text(st.characters(exclude_categories=("C", "Z")), min_size=1, max_size=40)
texts = st.integers(0, 3).flatmap(lambda pick: (st.sampled_from(SPECIMENS), any_text, searchable, searchable)[pick])
#: Texts short enough to travel in a URL: the HTTP client refuses a URL over 64 KiB, and a GET
#: fuzz test puts up to 13 of them, percent-encoded, in one (tests/api/test_fuzz.py).
url_texts = texts.filter(lambda t: len(quote_from_bytes(t.encode("utf-8", "surrogatepass"))) < 4_000)
numbers = st.one_of(
    st.integers(), st.sampled_from([0, -1, 1, 100, 101, 2**31, 2**63, -(2**63)]),
    st.floats(), st.booleans(),
)
scalars: st.SearchStrategy[Any] = st.one_of(st.none(), numbers, texts)
json_values: st.SearchStrategy[Any] = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)),
    max_leaves=8,
)


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A field's value: mostly of the expected kind (so that requests get past validation to
    the search itself), sometimes any JSON at all."""
    return st.integers(0, 4).flatmap(lambda pick: json_values if pick == 0 else strategy)
