"""Loogle's query forms: how a query splits into filters of each kind."""

import pytest

from search.engine.loogle import Filter, QueryError, parse_filters, split_filters


def test_query_splits_at_top_level_commas_with_offsets() -> None:
    query = 'Real.sin, "two", f (a, b), |- _ < _'
    assert split_filters(query) == [(0, "Real.sin"), (10, '"two"'), (17, "f (a, b)"), (27, "|- _ < _")]
    # The comma ending a binder's variables separates nothing.
    assert split_filters('∀ x, ∀ y, _ = _, tsum') == [(0, "∀ x, ∀ y, _ = _"), (17, "tsum")]
    assert split_filters('⊢ ∑ x ∈ _, ?f x = _, "a,b"') == [(0, "⊢ ∑ x ∈ _, ?f x = _"), (21, '"a,b"')]


def test_filters_of_each_kind() -> None:
    assert parse_filters('Real.sin, "two", tsum, _ * _, ⊢ _ < _ → _, |- tsum _ = _') == [
        Filter("constant", "Real.sin", 0), Filter("substring", "two", 11), Filter("constant", "tsum", 17),
        Filter("pattern", "_ * _", 23), Filter("conclusion", "_ < _ → _", 32), Filter("conclusion", "tsum _ = _", 46),
    ]


@pytest.mark.parametrize("query", ['""', '"."', "Real.sin,", "_"])
def test_filters_too_general_or_empty_are_errors(query: str) -> None:
    with pytest.raises(QueryError):
        parse_filters(query)
