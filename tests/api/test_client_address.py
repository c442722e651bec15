"""The client's address behind proxies (search/api/client.py): the entry the trusted proxy
appended to `X-Forwarded-For`, never one the client wrote. These tests act as the proxy: each
request carries a header the client wrote, to which the "proxy" appends the address it saw,
and the requests reach the app from the proxy's own address. The rate limit, the vote cap and
the export's address counts all see the client's real address."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from search.api.client import client_address
from search.api.http import make_api
from search.engine.engine import Engine
from search.feedback.export import labels
from search.feedback.store import FeedbackStore

PROXY = ("10.16.3.80", 41000)  # the socket's peer: the proxy
VISITOR = "203.0.113.7"


def via_proxy(client_written: str | None, seen: str) -> dict[str, str]:
    """The headers a proxy forwards: the client's own `X-Forwarded-For` with the address the
    proxy saw appended (or that address alone when the client wrote none)."""
    return {"X-Forwarded-For": f"{client_written}, {seen}" if client_written else seen}


def _headers(value: str | list[str]) -> list[tuple[bytes, bytes]]:
    values = [value] if isinstance(value, str) else value
    return [(b"host", b"x"), *((b"x-forwarded-for", v.encode()) for v in values)]


@pytest.mark.parametrize(
    "header, proxies, expected",
    [
        ("1.1.1.1, 203.0.113.7", 0, "10.16.3.80"),  # no proxy trusted: the socket's peer
        ("1.1.1.1, 203.0.113.7", 1, "203.0.113.7"),  # one: the rightmost entry
        ("1.1.1.1, 203.0.113.7, 10.0.0.2", 2, "203.0.113.7"),  # two: the second from the right
        (["1.1.1.1, 2.2.2.2", "203.0.113.7"], 1, "203.0.113.7"),  # several headers are one list
        ("203.0.113.7", 2, "10.16.3.80"),  # fewer entries than proxies: nothing to trust
        ("1.1.1.1, not-an-address", 1, "10.16.3.80"),  # an entry that is no address: the peer
        ("1.1.1.1, 203.0.113.7:5123", 1, "203.0.113.7"),  # a port is not part of the address
        ("1.1.1.1, [2001:db8::1]:443", 1, "2001:db8::1"),
        ("1.1.1.1,2001:DB8::1", 1, "2001:db8::1"),  # written as one address is
    ],
)
def test_the_address_is_the_one_the_outermost_trusted_proxy_appended(
    header: str | list[str], proxies: int, expected: str
) -> None:
    assert client_address(_headers(header), PROXY[0], proxies) == expected


def test_without_a_header_the_peer_is_the_client() -> None:
    assert client_address([(b"host", b"x")], "192.0.2.1", 1) == "192.0.2.1"


def test_the_rate_limit_counts_the_proxied_address_not_the_written_one(engine: Engine) -> None:
    """150 requests, each with an `X-Forwarded-For` of its own as an attacker writes it: 50
    answered, 100 refused; a second visitor behind the same proxy keeps their own allowance."""
    proxy = TestClient(make_api(engine, rate_limit=50, trusted_proxies=1), client=PROXY)
    statuses = [proxy.get("/json", params={"q": "Real.sin"}, headers=via_proxy(f"198.51.100.{n % 250}, 10.0.{n}.1",
                                                                                  VISITOR)).status_code
                for n in range(150)]
    assert statuses.count(200) == 50 and statuses.count(429) == 100
    other = proxy.get("/json", params={"q": "Real.sin"}, headers=via_proxy(VISITOR, "203.0.113.8"))
    assert other.status_code == 200  # writing the first visitor's address takes nothing from them


def test_without_a_trusted_proxy_a_written_header_changes_nothing(engine: Engine) -> None:
    direct = TestClient(make_api(engine, rate_limit=3, trusted_proxies=0), client=("192.0.2.9", 1))
    statuses = [direct.get("/json", params={"q": "Real.sin"}, headers=via_proxy(None, f"198.51.100.{n}")).status_code
                for n in range(5)]
    assert statuses == [200, 200, 200, 429, 429]


def _voter(engine: Engine, store: FeedbackStore) -> TestClient:
    return TestClient(make_api(engine, feedback_store=store, rate_limit=0, trusted_proxies=1), client=PROXY,
                      raise_server_exceptions=False)


def test_the_vote_cap_and_the_export_count_proxied_addresses(engine: Engine, tmp_path: Path) -> None:
    """25 votes from one visitor on one query, each under a new session and a new written
    address: 20 stored, 5 refused; three other visitors' votes count as three more addresses."""
    store = FeedbackStore(tmp_path / "votes.sqlite")
    client = _voter(engine, store)

    def vote(written: str, seen: str) -> int:
        headers = via_proxy(written, seen)
        found = client.get("/api/v1/search", params={"q": "sine is bounded", "k": 3}, headers=headers).json()
        top = found["results"][0]
        body = {"session": found["session"], "query": found["query"], "result_id": top["id"], "vote": 1,
                "rank": 1, "filters": found["filters"], "variant": found["variant"]}
        return client.post("/api/v1/feedback", json=body, headers=headers).status_code

    statuses = [vote(f"198.51.100.{n}", VISITOR) for n in range(25)]
    assert statuses.count(200) == 20 and statuses.count(429) == 5
    assert [vote(VISITOR, f"192.0.2.{n}") for n in range(3)] == [200, 200, 200]
    (label,) = labels(store.votes())
    assert (label.votes, label.addresses) == (23, 4)
