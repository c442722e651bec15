"""Each engine client against a local server answering in that service's format; cache; replay;
servers that hang, trickle, fail or answer garbage, for the engines and the judge."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from eval.engines.base import Answer, EngineFailure, Hit, QueryRejected, ask
from eval.engines.cache import AnswerCache, fetch
from eval.engines.http import JsonClient
from eval.engines.leanexplore import LeanExploreClient
from eval.engines.leansearch import LeanSearchClient
from eval.engines.loogle import LoogleClient
from eval.engines.moogle import MoogleClient
from eval.engines.registry import EngineSpecError, make_engines
from eval.engines.replay import ReplayEngine, ReplayError
from eval.judge.backend import ChatJudge, judge_trials
from eval.judge.trials import Trial
from tests.eval.servers import Behaviour, Request, hang, misbehave, not_http, serve, trickle

LEANSEARCH_ANSWER = [[
    {"result": {"module_name": ["Mathlib", "Order", "Basic"], "kind": "theorem",
                "name": ["Nat", "succ_le_succ"], "signature": " {n m : ℕ} (h : n ≤ m) : n.succ ≤ m.succ",
                "type": "∀ {n m : ℕ}, n ≤ m → n.succ ≤ m.succ", "docstring": None,
                "informal_name": "Successor preserves order",
                "informal_description": "If $n \\le m$ then $n+1 \\le m+1$.",
                "doc_url": "https://example.org/Nat.succ_le_succ"}, "distance": 0.12},
    {"result": {"kind": "def", "name": ["Nat", "succ"], "type": "ℕ → ℕ", "docstring": "The successor."},
     "distance": 0.3},
]]
MOOGLE_ANSWER = {"data": [
    {"declarationName": "Group", "declarationCode": "class Group (G : Type u) extends DivInvMonoid G",
     "declarationDocstring": "/-- A group is a monoid with inverses. -/", "declarationType": "class"},
    {"declarationName": "Group.ext", "declarationCode": "theorem Group.ext ...",
     "declarationDocString": "", "declarationType": "theorem"},
]}
LEANEXPLORE_ANSWER = {"query": "group", "count": 1, "processing_time_ms": 12, "results": [
    {"id": 7, "name": "Group", "module": "Mathlib.Algebra.Group.Defs", "docstring": None,
     "source_text": "class Group (G : Type u) extends DivInvMonoid G where", "source_link": "https://github.com/x",
     "dependencies": "[]", "informalization": "A group is a set with an associative operation...",
     "pagerank": 0.01},
]}


def fast(service: str, **kwargs: object) -> JsonClient:
    """A client that does not sleep between retries."""
    return JsonClient(service, sleep=lambda seconds: None, **kwargs)  # type: ignore[arg-type]


def test_leansearch_posts_the_query_batch_and_reads_hits() -> None:
    with serve(lambda r: (200, LEANSEARCH_ANSWER)) as server:
        hits = LeanSearchClient(server.url + "/search", fast("LeanSearch")).search("succ le succ", 5)
    request = server.requests[0]
    assert (request.method, request.path, request.body) == ("POST", "/search", {"query": ["succ le succ"], "num_results": 5})
    assert hits[0] == Hit(name="Nat.succ_le_succ", kind="theorem",
                          code="theorem Nat.succ_le_succ {n m : ℕ} (h : n ≤ m) : n.succ ≤ m.succ",
                          informal="Successor preserves order\nIf $n \\le m$ then $n+1 \\le m+1$.",
                          url="https://example.org/Nat.succ_le_succ")
    assert hits[1].code == "def Nat.succ : ℕ → ℕ" and hits[1].docstring == "The successor."


def test_loogle_hits_and_refusals() -> None:
    def answer(request: Request) -> tuple[int, object]:
        if request.query["q"] == ["Real.sin"]:
            return 200, {"count": 120, "header": "Found 120 ...", "hits": [
                {"name": "Real.sin_zero", "type": "Real.sin 0 = 0", "module": "Mathlib.Analysis.Trig", "doc": None}]}
        return 200, {"error": "unknown identifier 'group'", "suggestions": ["Group"]}

    with serve(answer) as server:
        loogle = LoogleClient(server.url + "/json", fast("Loogle"))
        (hit,) = loogle.search("Real.sin", 5)
        with pytest.raises(QueryRejected, match="unknown identifier 'group'.*suggestions: Group"):
            loogle.search("group definition", 5)
    assert hit.code == "Real.sin_zero : Real.sin 0 = 0" and hit.url.endswith("Mathlib/Analysis/Trig.html#Real.sin_zero")


def test_moogle_body_and_docstring_markers() -> None:
    with serve(lambda r: (200, MOOGLE_ANSWER)) as server:
        hits = MoogleClient(server.url + "/api/search", fast("Moogle")).search("group", 1)
    assert server.requests[0].body == [{"isFind": False, "contents": "group"}]
    assert hits == [Hit(name="Group", kind="class", code="class Group (G : Type u) extends DivInvMonoid G",
                        docstring="A group is a monoid with inverses.")]


def test_leanexplore_sends_limit_and_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEANEXPLORE_API_KEY", "secret")
    with serve(lambda r: (200, LEANEXPLORE_ANSWER)) as server:
        (hit,) = LeanExploreClient(server.url + "/api/v2/search").search("group", 5)
    request = server.requests[0]
    assert request.query == {"q": ["group"], "limit": ["5"]} and request.headers["Authorization"] == "Bearer secret"
    assert hit.informal.startswith("A group is") and hit.code.startswith("class Group") and hit.docstring == ""


def test_transient_errors_are_retried_a_bounded_number_of_times() -> None:
    statuses = iter([503, 429, 200])
    with serve(lambda r: (next(statuses), LEANEXPLORE_ANSWER)) as server:
        assert LeanExploreClient(server.url, fast("LeanExplore", retries=2)).search("group", 5)
    assert len(server.requests) == 3
    with serve(lambda r: (503, {"msg": "busy"})) as server:
        with pytest.raises(EngineFailure, match="HTTP 503.*after 3 attempts"):
            LeanExploreClient(server.url, fast("LeanExplore", retries=2)).search("group", 5)
    assert len(server.requests) == 3


def test_client_errors_bad_bodies_and_timeouts_fail_at_once() -> None:
    with serve(lambda r: (401, {"msg": "invalid key"})) as server:
        with pytest.raises(EngineFailure, match="HTTP 401.*invalid key"):
            LeanExploreClient(server.url, fast("LeanExplore")).search("group", 5)
    assert len(server.requests) == 1
    with serve(lambda r: (200, "<html>maintenance</html>")) as server:
        with pytest.raises(EngineFailure, match="not JSON"):
            LeanSearchClient(server.url, fast("LeanSearch")).search("group", 5)
    with serve(lambda r: (200, {"unexpected": 1})) as server:
        with pytest.raises(EngineFailure, match="expected a list"):
            LeanSearchClient(server.url, fast("LeanSearch")).search("group", 5)

    def slow(request: Request) -> tuple[int, object]:
        time.sleep(0.5)
        return 200, LEANSEARCH_ANSWER

    with serve(slow) as server:
        start = time.perf_counter()
        with pytest.raises(EngineFailure, match="no answer within 0.1 s"):
            LeanSearchClient(server.url, fast("LeanSearch", timeout=0.1, retries=1)).search("group", 5)
        assert time.perf_counter() - start < 1.0


class Counting:
    """A remote engine that records its calls and fails when told to."""

    name = "counting"
    remote = True

    def __init__(self) -> None:
        self.calls = 0
        self.fail = False

    def search(self, query: str, k: int) -> list[Hit]:
        self.calls += 1
        if self.fail:
            raise EngineFailure("service down")
        return [Hit(name=f"{query}.{i}") for i in range(k)]


def test_cache_replays_offline_and_records_failures(tmp_path: Path) -> None:
    engine, cache = Counting(), AnswerCache(tmp_path)
    first = fetch(engine, "group", 2, cache)
    assert first.status == "ok" and first.fetched_at and engine.calls == 1
    again = fetch(engine, "group", 2, AnswerCache(tmp_path), offline=True)  # a new process, offline
    assert again == first and engine.calls == 1
    assert fetch(engine, "group", 3, cache, offline=True).status == "failed"  # k is part of the key

    engine.fail = True
    failed = fetch(engine, "ring", 2, cache)
    assert (failed.status, failed.hits, failed.error) == ("failed", [], "service down")
    assert fetch(engine, "ring", 2, AnswerCache(tmp_path), offline=True) == failed  # recorded as such
    engine.fail = False
    assert fetch(engine, "ring", 2, cache).status == "ok" and engine.calls == 3  # asked again online
    lines = [json.loads(line) for line in cache.path("counting").read_text().splitlines()]
    assert [(row["query"], row["status"]) for row in lines] == [("group", "ok"), ("ring", "failed"), ("ring", "ok")]


def test_replay_reads_saved_benchmark_answers(tmp_path: Path) -> None:
    saved = tmp_path / "search_results.json"
    saved.write_text(json.dumps([
        {"query": "group", "moogle_results": MOOGLE_ANSWER, "leansearch_results": LEANSEARCH_ANSWER},
        {"query": "ring", "moogle_results": {"error": "502 Bad Gateway", "status_code": 502}},
    ]))
    moogle = ReplayEngine("moogle", saved)
    assert [h.name for h in moogle.search("group", 5)] == ["Group", "Group.ext"]
    with pytest.raises(EngineFailure, match="502 Bad Gateway"):
        moogle.search("ring", 5)
    with pytest.raises(EngineFailure, match="no saved moogle answer"):
        moogle.search("field", 5)
    assert ReplayEngine("leansearch", saved).search("group", 1)[0].name == "Nat.succ_le_succ"
    with pytest.raises(ReplayError, match="cannot replay 'bing'"):
        ReplayEngine("bing", saved)


def test_engine_specs_are_checked(tmp_path: Path) -> None:
    with pytest.raises(EngineSpecError, match="unknown ranking variant"):
        make_engines(["ours:best"], tmp_path)
    with pytest.raises(EngineSpecError, match="unknown engine 'google'"):
        make_engines(["google"], tmp_path)
    with pytest.raises(EngineSpecError, match="named twice"):
        make_engines(["loogle", "loogle"], tmp_path)
    assert [e.name for e in make_engines(["leansearch", "moogle"], tmp_path)] == ["leansearch", "moogle"]


def test_answers_round_trip_through_json() -> None:
    answer = Answer("loogle", "group", 5, "rejected", error="unknown identifier", fetched_at="2026-01-01T00:00:00+00:00")
    assert Answer.from_dict(json.loads(json.dumps(answer.to_dict()))) == answer


@pytest.mark.parametrize(
    "behaviour, message",
    [(hang, "no answer within 0.5 s"), (trickle, "no answer within 0.5 s"), (not_http, "request failed")],
)
def test_a_server_that_hangs_trickles_or_speaks_no_http_is_a_recorded_failure_within_the_timeout(
    behaviour: Behaviour, message: str
) -> None:
    """The timeout bounds each attempt as a whole, not each read: a trickling answer whose every
    byte comes quickly is cut off too."""
    with misbehave(behaviour) as url:
        started = time.perf_counter()
        answer = ask(LeanSearchClient(url + "/search", fast("LeanSearch", timeout=0.5, retries=1)), "group", 5)
        elapsed = time.perf_counter() - started
    assert answer.status == "failed" and message in answer.error and "after 2 attempts" in answer.error
    assert elapsed < 2 * 0.5 + 1.0, elapsed  # two attempts, each cut at 0.5 s (slack for a busy machine)


def test_judge_endpoint_failures_are_recorded_verdict_errors_within_the_timeout() -> None:
    trial = Trial("t1", "group", 1, {"Engine A": "x", "Engine B": "y"}, [{"role": "user", "content": "rank"}])
    cases = [
        (misbehave(hang), "no answer within 0.5 s"),
        (misbehave(trickle), "no answer within 0.5 s"),
        (serve(lambda r: (500, {"error": "overloaded"})), "HTTP 500"),
        (serve(lambda r: (200, "<html>not json</html>")), "not JSON"),
        (serve(lambda r: (200, {"choices": []})), "no choices[0].message.content"),
    ]
    for server, message in cases:
        with server as running:
            url = running if isinstance(running, str) else running.url
            judge = ChatJudge(url, "m", client=fast("judge", timeout=0.5, retries=1))
            started = time.perf_counter()
            (verdict,) = judge_trials([trial], judge.complete, "m")
            elapsed = time.perf_counter() - started
        assert verdict.response == "" and message in verdict.error, (message, verdict.error)
        assert elapsed < 2 * 0.5 + 1.0, (message, elapsed)
