"""A search as a URL and back; what a URL cannot mean is reported, not trusted."""

from urllib.parse import parse_qsl, urlsplit

from search.ui.share import SearchRequest, from_pairs, to_query_string

KEYS = ("source", "kind", "package", "chapter")


def test_round_trip_keeps_query_filters_count_and_variant() -> None:
    request = SearchRequest("a < b & c?", {"source": ["mathlib", "stacks"], "chapter": ["Étale"]}, 25, "rrf")
    url = to_query_string(request)
    assert url.startswith("?q=a+%3C+b+%26+c%3F&source=mathlib&source=stacks")
    assert from_pairs(parse_qsl(urlsplit(url).query), KEYS) == (request, [])


def test_the_index_chosen_travels_with_a_search_and_a_record() -> None:
    for request in (SearchRequest("mul comm", index="v4.28"), SearchRequest(record="mathlib:mul_comm", index="v4.28")):
        url = to_query_string(request)
        assert "index=v4.28" in url and from_pairs(parse_qsl(urlsplit(url).query), KEYS) == (request, [])


def test_defaults_are_left_out_and_a_record_page_is_its_id() -> None:
    assert to_query_string(SearchRequest("mul comm")) == "?q=mul+comm"
    assert to_query_string(SearchRequest(record="mathlib:mul_comm", query="x")) == "?id=mathlib%3Amul_comm"


def test_unknown_parameters_and_bad_counts_are_reported() -> None:
    request, notes = from_pairs([("q", "x"), ("k", "many"), ("colour", "red"), ("kind", "lemma"), ("kind", "lemma")], KEYS)
    assert request == SearchRequest("x", {"kind": ["lemma"]})
    assert notes == ["k='many' is not a whole number; showing 10 results", "unknown parameter 'colour' ignored"]
