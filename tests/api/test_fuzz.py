"""Property-based fuzzing (hypothesis) of every HTTP entry point over the small API index: for
any body or URL, the answer is a clear JSON error with a 4xx, or a normal answer; never a 5xx
and never a traceback."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote, quote_from_bytes, urlencode

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import event, given
from hypothesis import strategies as st

from search.api.feedback import SESSION_PATTERN
from search.api.http import make_api
from search.engine.engine import Engine
from search.engine.variants import names as variant_names
from search.feedback.store import FeedbackStore
from tests.strategies import FUZZ, maybe, texts, url_texts

GET_PATHS = {
    "/json": ["q"],
    "/api/search": ["query", "results", "rev"],
    "/api/v1/search": ["q", "k", "variant", "source", "kind", "package", "module", "filter"],
}
ID_PATHS = ["/api/v1/statement/", "/api/v1/dependencies/", "/api/v1/dependents/"]
FILTER_KEYS = st.sampled_from(["source", "kind", "package", "module", "group", "chapter", "environment"])
FILTER_VALUES = st.sampled_from(["extra", "mathlib", "stackslike", "theorem", "lemma", "Beta Things"])


@pytest.fixture(scope="module")
def fuzzed(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    store = FeedbackStore(tmp_path_factory.mktemp("fuzz") / "votes.sqlite")
    return TestClient(make_api(engine, feedback_store=store, rate_limit=0), raise_server_exceptions=False)


def assert_answered(response: httpx.Response) -> None:
    """A 2xx with JSON, or a 4xx whose JSON `error` says something; nothing else."""
    event(f"HTTP {response.status_code}")  # shown by --hypothesis-show-statistics
    assert response.status_code < 500, (response.status_code, response.text[:500])
    assert "Traceback" not in response.text
    body = response.json()
    if response.status_code >= 400:
        assert isinstance(body["error"], str) and body["error"].strip(), body


def post_json(client: TestClient, path: str, body: Any) -> httpx.Response:
    """`body` as JSON text (lone surrogates as `\\uD800` escapes, NaN as `NaN`), as any client may send it."""
    return client.post(path, content=json.dumps(body).encode(), headers={"content-type": "application/json"})


filter_maps = st.dictionaries(
    st.one_of(FILTER_KEYS, FILTER_KEYS, texts),
    st.one_of(FILTER_VALUES, texts, st.lists(FILTER_VALUES | texts, max_size=3)),
    max_size=2,
)


@FUZZ
@given(body=maybe(st.fixed_dictionaries(
    {"query": maybe(st.lists(texts, min_size=1, max_size=3) | st.lists(texts, max_size=12))},
    optional={"num_results": maybe(st.integers(-3, 120) | st.integers())},
)))
def test_leansearch_post(fuzzed: TestClient, body: Any) -> None:
    assert_answered(post_json(fuzzed, "/search", body))


@FUZZ
@given(body=maybe(st.fixed_dictionaries({"query": maybe(texts)}, optional={
    "k": maybe(st.integers(-3, 120) | st.integers()), "variant": maybe(st.sampled_from(variant_names()) | texts),
    "filters": maybe(filter_maps),
})))
def test_native_post(fuzzed: TestClient, body: Any) -> None:
    assert_answered(post_json(fuzzed, "/api/v1/search", body))


@FUZZ
@given(body=st.fixed_dictionaries({
    "session": maybe(st.sampled_from(["s-1", "abc_DEF.9", "", "a b", "s" * 129]) | st.from_regex(SESSION_PATTERN)),
    "query": maybe(texts), "result_id": maybe(st.sampled_from(["extra:Real.sin", "mathlib:mul_comm"]) | texts),
    "vote": maybe(st.sampled_from([-1, 1])), "rank": maybe(st.integers(1, 100) | st.integers()),
}, optional={"filters": maybe(filter_maps), "variant": maybe(st.sampled_from(variant_names()))}))
def test_feedback_post(fuzzed: TestClient, body: Any) -> None:
    assert_answered(post_json(fuzzed, "/api/v1/feedback", body))


@FUZZ
@given(data=st.data(), path=st.sampled_from(sorted(GET_PATHS)))
def test_get_parameters(fuzzed: TestClient, data: st.DataObject, path: str) -> None:
    keys = st.one_of(st.sampled_from(GET_PATHS[path]), url_texts)
    values = st.one_of(url_texts, st.integers(-3, 120).map(str), st.integers().map(str))
    main = GET_PATHS[path][0]
    pairs = data.draw(st.lists(st.tuples(keys, values), max_size=3))
    pairs = data.draw(st.sampled_from([[(main, data.draw(url_texts))] + pairs, pairs, pairs + pairs]))
    query = urlencode([(k.encode("utf-8", "surrogatepass"), v.encode("utf-8", "surrogatepass")) for k, v in pairs])
    assert_answered(fuzzed.get(f"{path}?{query}"))


@FUZZ
@given(path=st.sampled_from(sorted(GET_PATHS) + ID_PATHS), raw=st.binary(max_size=40), key=st.sampled_from(["q", "query", "x"]))
def test_raw_bytes_in_the_url(fuzzed: TestClient, path: str, raw: bytes, key: str) -> None:
    """Any bytes, percent-encoded: invalid UTF-8 is refused, the rest answered."""
    if path in ID_PATHS:
        url = path + quote_from_bytes(raw, safe="")
    else:
        url = f"{path}?{key}={quote_from_bytes(raw, safe='')}"
    assert_answered(fuzzed.get(url))


@FUZZ
@given(record_id=st.sampled_from(["extra:Real.sin", "mathlib:mul_comm"]) | url_texts,
       limit=maybe(st.integers(-1, 120).map(str)).map(str).filter(lambda text: len(text) < 10_000))
def test_record_ids(fuzzed: TestClient, record_id: str, limit: object) -> None:
    encoded = quote(record_id.encode("utf-8", "surrogatepass"), safe="")
    query = urlencode({"limit": str(limit).encode("utf-8", "surrogatepass")})
    for path in ID_PATHS:
        assert_answered(fuzzed.get(f"{path}{encoded}?{query}"))

