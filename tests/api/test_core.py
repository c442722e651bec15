"""An index without Lean's core library says so where a user looks a core name up."""

from __future__ import annotations

from fastapi.testclient import TestClient

from search.engine import core
from tests.api.lean_client import USER_AGENT, loogle_path


def test_a_core_name_absent_from_the_index_is_said_to_be_cores(client: TestClient) -> None:
    loogle = client.get(f"/json{loogle_path('List.map_id')}", headers={"user-agent": USER_AGENT}).json()
    assert loogle["error"] == f"Unknown identifier 'List.map_id' ({core.ABSENT})"
    statement = client.get("/api/v1/statement/mathlib:List.map_id").json()
    assert core.ABSENT in statement["error"]
    # A name core does not declare gets no such sentence.
    assert "Lean core" not in client.get("/api/v1/statement/mathlib:Foo.bar").json()["error"]


def test_mentions_of_an_absent_core_constant_say_it_is_not_here(client: TestClient) -> None:
    loogle = client.get(f"/json{loogle_path('Nat.succ')}", headers={"user-agent": USER_AGENT}).json()
    assert loogle["hits"] and f"Nat.succ itself is not a declaration here: {core.ABSENT}." in loogle["header"]
