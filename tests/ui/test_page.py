"""The search page's actions over a small real index: search, filters, record pages, votes."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from search.api.indexes import Indexes
from search.api.service import SearchService
from search.engine.engine import Engine
from search.feedback.ballot import Ballot
from search.feedback.store import FeedbackStore
from search.index.store import Index
from search.ui.page import HINT, SearchPage
from search.ui.share import SearchRequest, from_pairs
from tests.strategies import FUZZ, SPECIMENS, texts
from tests.ui.fixture_index import HOSTILE_LATEX, HOSTILE_LEAN, HOSTILE_NAME


@pytest.fixture(scope="module")
def service(ui_index_dir: Path) -> SearchService:
    return SearchService.from_engine(Engine(Index.load(ui_index_dir)))


@pytest.fixture()
def page(service: SearchService, tmp_path: Path) -> SearchPage:
    return SearchPage(Indexes.single(service), Ballot.open(FeedbackStore(tmp_path / "votes.sqlite")))


def test_search_gives_cards_a_status_and_a_shareable_url(page: SearchPage) -> None:
    result, status = page.run(SearchRequest("multiplication is commutative", k=3), "s1")
    assert [c["rank"] for c in result["cards"]] == [1, 2, 3]
    assert result["cards"][0]["id"] == "mathlib:mul_comm" and "mul&#95;comm" in result["cards"][0]["markdown"]
    assert result["url"] == "?q=multiplication+is+commutative&k=3"
    assert status.startswith("3 results for “multiplication is commutative” (default ranking")
    filtered, _ = page.run(SearchRequest("ring", {"source": ["stacks"]}, k=20, variant="bm25"), "s1")
    assert filtered["cards"] and {c["id"].split(":")[0] for c in filtered["cards"]} == {"stacks"}


def test_what_the_index_cannot_answer_is_dropped_with_a_note(page: SearchPage) -> None:
    asked = SearchRequest("x", {"kind": ["lemma", "sonnet"], "colour": ["red"], "source": ["stacks"]}, 500, "magic")
    checked, notes = page.check(asked)
    assert checked == SearchRequest("x", {"kind": ["lemma"], "source": ["stacks"]}, 50, "default")
    assert notes == [
        "500 results asked; showing 50 (from 1 to 50)",
        "unknown ranking 'magic'; using default (dense, bm25, leanexplore, rrf, default exist)",
        "no kind 'sonnet' in this index; filter ignored",
        "unknown filter 'colour' ignored",
    ]
    assert page.check(SearchRequest("x", {"package": ["Algebra"], "source": ["stacks"]}))[0].filters == {"source": ["stacks"]}


def test_bad_or_empty_queries_get_a_message(page: SearchPage) -> None:
    assert page.run(SearchRequest("   "), "s1") == (None, HINT)
    result, status = page.run(SearchRequest("a\x07b"), "s1")
    assert result is None and status.startswith("⚠️") and "control character" in status


def test_record_page_shows_one_record_with_what_it_uses_and_what_uses_it(page: SearchPage) -> None:
    result, status = page.run(SearchRequest(record="stacks:0003"), "s1")
    (card,) = result["cards"]
    assert card["id"] == "stacks:0003" and result["query"] == "" and result["url"] == "?id=stacks%3A0003"
    assert "Uses (1)" in card["markdown"] and "Used by (1)" in card["markdown"]
    assert status.startswith("Record stacks&#58;0003")
    missing, status = page.run(SearchRequest(record="stacks:0O03"), "s1")
    assert missing is None and "stacks&#58;0003" in status  # the nearest id is suggested


def test_hostile_records_render_as_text(page: SearchPage) -> None:
    for record in (HOSTILE_LEAN, HOSTILE_LATEX, HOSTILE_NAME):
        markdown = page.run(SearchRequest(record=record), "s1")[0]["cards"][0]["markdown"]
        # Math keeps \href's text only: `javascript:` reaches the page nowhere.
        assert "<script" not in markdown and "<img" not in markdown and "javascript:" not in markdown


def test_hostile_queries_and_names_reach_the_status_line_as_text(page: SearchPage) -> None:
    query = '<img src=x onerror="window.__xss = 20"> [q](javascript:alert(1)) $\\href{javascript:alert(2)}{q}$ **b**'
    for request in (SearchRequest(query), SearchRequest(record=HOSTILE_NAME), SearchRequest(record=query)):
        status = page.run(request, "s1")[1]
        assert "<img" not in status and "javascript:" not in status and "**" not in status and "[" not in status
        assert "$" not in status.replace("<span>&#36;</span>", "")  # a lone `$` in its own element cannot pair


def test_votes_are_stored_changed_and_shown_again(page: SearchPage) -> None:
    s1, s2 = page.ballot.session(None), page.ballot.session(None)
    result, _ = page.run(SearchRequest("multiplication is commutative", {"source": ["mathlib"]}, k=3), s1)
    first = result["cards"][0]["id"]
    assert page.vote(result, s1, first, 1, "10.0.0.1")[0]
    saved, line = page.vote(result, s1, first, -1, "10.0.0.1")
    assert saved and line.startswith("👎 saved for mul&#95;comm (result 1)")
    (vote,) = page.store.votes()
    assert (vote.query, vote.result_id, vote.vote, vote.rank, vote.filters) == (
        "multiplication is commutative", first, -1, 1, {"source": ["mathlib"]})
    assert vote.index_version == page.index.version and vote.session == s1
    assert vote.address and "10.0.0.1" not in vote.address  # a keyed hash, not the address
    again, _ = page.run(SearchRequest("multiplication is commutative", {"source": ["mathlib"]}, k=3), s1)
    assert again["cards"][0]["vote"] == -1
    assert page.run(SearchRequest("multiplication is commutative", k=3), s2)[0]["cards"][0]["vote"] == 0
    assert not page.vote(result, None, first, 1, "10.0.0.1")[0]
    assert not page.vote(result, s1, "mathlib:not_shown", 1, "10.0.0.1")[0]
    record, _ = page.run(SearchRequest(record=first), s1)
    assert page.vote(record, s1, first, 1, "10.0.0.1") == (False, "⚠️ votes are on the results of a search")
    assert len(list(page.store.votes())) == 1


def test_a_server_with_several_indexes_searches_and_votes_on_the_one_chosen(
    service: SearchService, small_index: Path, tmp_path: Path
) -> None:
    other = SearchService.from_engine(Engine(Index.load(small_index)))
    page = SearchPage(Indexes({"books": service, "mathlib-small": other}),
                      Ballot.open(FeedbackStore(tmp_path / "votes.sqlite")))
    assert page.names == ["books", "mathlib-small"] and "**Indexes:**" in page.version_markdown()
    # Each index of Lean declarations says that Lean core is not among them.
    assert page.version_markdown().count("Lean core (Init, Std, Lean) not included") == 2
    checked, notes = page.check(SearchRequest("ring", {"source": ["stacks"]}, index="mathlib-small"))
    assert checked.index == "mathlib-small" and "source" not in checked.filters  # that index has no Stacks
    assert page.check(SearchRequest("x", index="books"))[0].index == ""  # the default is left out of URLs
    assert page.check(SearchRequest("x", index="v9"))[1] == ["no index 'v9' on this server; using books (books, mathlib-small)"]
    session = page.ballot.session(None)
    result, status = page.run(checked, session)
    assert "” in mathlib&#45;small (default ranking" in status
    assert result["index"] == "mathlib-small" and "index=mathlib-small" in result["url"]
    assert {c["id"] for c in result["cards"]} <= {s.id for s in other.index.records}
    assert page.vote(result, session, result["cards"][0]["id"], 1, "10.0.0.1")[0]
    (vote,) = page.store.votes()
    assert vote.index_version == other.index.version != service.index.version


def test_the_page_votes_only_under_sessions_it_issued_on_results_it_served(page: SearchPage) -> None:
    issued = page.ballot.session(None)
    assert page.ballot.session(issued) == issued and page.ballot.session("made-up") != "made-up"
    request = SearchRequest("multiplication is commutative", {"source": ["mathlib"]}, k=3)
    result, _ = page.run(request, issued)
    first = result["cards"][0]["id"]
    saved, line = page.vote(result, "made-up-session", first, 1, "10.0.0.1")  # a forged browser state
    assert not saved and "not one this server issued" in line
    page.run(request, "made-up-session")
    assert len(page.ballot.served_results) == 1  # only the issued session's list is kept
    other = page.ballot.session(None)  # a real session that was never shown this list
    saved, line = page.vote(result, other, first, 1, "10.0.0.1")
    assert not saved and "search again" in line
    assert list(page.store.votes()) == []


@pytest.mark.parametrize("query", [q for q in SPECIMENS if q.strip()] + ["ring" + "\u0301" * 50])
def test_any_text_in_the_query_box_gets_results_or_a_message(page: SearchPage, query: str) -> None:
    result, status = page.run(page.check(SearchRequest(query, k=5))[0], "s1")
    assert status and (result is not None or status.startswith("⚠️")), status
    assert "<script" not in status and "javascript:" not in status and "<img" not in status


@pytest.mark.parametrize("k", [-3, 0, 51, 10**12])
def test_result_counts_out_of_range_are_brought_back_with_a_note(page: SearchPage, k: int) -> None:
    request, notes = page.check(SearchRequest("ring", k=k))
    assert 1 <= request.k <= 50 and notes == [f"{k} results asked; showing {request.k} (from 1 to 50)"]
    assert len(page.run(request, "s1")[0]["cards"]) <= request.k


url_keys = st.sampled_from(["q", "id", "k", "variant", "source", "kind", "package", "chapter", "section"]) | texts


@FUZZ
@given(pairs=st.lists(st.tuples(url_keys, texts), max_size=5))
def test_any_shared_url_loads_a_page_or_a_message(page: SearchPage, pairs: list[tuple[str, str]]) -> None:
    """What the page does on load with `?...`: read the pairs, check them, run them."""
    asked, notes = from_pairs(pairs, page.filter_keys)
    request, more = page.check(asked)
    result, status = page.run(request, "s1")
    assert isinstance(status, str) and status
    shown = status + "".join(card["markdown"] for card in (result or {}).get("cards", []))
    assert "<script" not in shown and "<img" not in shown
    assert all(isinstance(note, str) for note in notes + more)
