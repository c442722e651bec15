"""Loogle's query forms: how a query splits into filters and what a statement writes."""

from search.engine.loogle import split_filters, writes


def test_query_parsing_helpers() -> None:
    assert split_filters('Real.sin, "two", f (a, b), |- _ < _') == ["Real.sin", '"two"', "f (a, b)", "|- _ < _"]
    assert writes("theorem sin_le_one (x : ℝ) : sin x ≤ 1", "Real.sin")
    assert not writes("theorem sin_le_one (x : ℝ) : sin x ≤ 1", "Real.sin", full=True)
    # The declaration's own name is not a mention.
    assert not writes("noncomputable def sin (x : ℝ) : ℝ", "Real.sin")
