"""Loogle's term patterns through `GET /json`, read back as LeanSearchClient's `#loogle` reads
them: the eight patterns of docs/loogle.md, and bad patterns answered with a message."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from search.engine import patterns
from tests.api.lean_client import USER_AGENT, loogle_path, parse_loogle


def loogle(client: TestClient, query: str, num_results: int = 10):  # type: ignore[no-untyped-def]
    path = loogle_path(query)
    assert path is not None
    response = client.get(f"/json{path}", headers={"user-agent": USER_AGENT})
    assert response.status_code == 200, response.text
    return response.json(), parse_loogle(response.text, num_results)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # `pow_succ`'s `a ^ n * a` has no power on the right of `*`.
        ("_ * (_ ^ _)", ["mul_pow", "Real.cos_two_mul"]),
        # `mul_left_comm`'s `a * (b * c) = b * (a * c)` is no instance of it.
        ("?a * ?b = ?b * ?a", ["mul_comm"]),
        ("(?a → ?b) → List ?a → List ?b", ["List.modifyLast"]),
        # `√(a * a)` is not `√a * √a`.
        ("Real.sqrt ?a * Real.sqrt ?a", ["Real.mul_self_sqrt"]),
        # `tsum_mul_right`'s conclusion is `tsum _ * _`.
        ("⊢ tsum _ = _ * tsum _", ["tsum_mul_left"]),
        # the hypothesis `f i < g i` is not the last; `tsum_le_tsum` concludes `≤`.
        ("|- _ < _ → tsum _ < tsum _", ["tsum_lt_tsum"]),
        ('Real.sin, "two"', ["Real.sin_two_mul"]),
        # `#(s ∪ t)` and `(s ∪ t).card` alike; inside `namespace Cardinal`, `#` is `Cardinal.mk`.
        ("Finset.card (_ ∪ _)", ["Finset.card_union_le", "Finset.card_union_add_card_inter"]),
    ],
)
def test_the_readme_patterns_as_lean_reads_them(pattern_client: TestClient, query: str, expected: list[str]) -> None:
    body, (hits, error, _) = loogle(pattern_client, query)
    assert error is None
    assert [h.name for h in hits] == expected
    assert body["count"] == len(expected) and body["header"].startswith("Found ")
    assert all(h.type for h in hits) and {"name", "type", "module", "doc"} <= set(body["hits"][0])


def test_mixed_filters_and_the_header(pattern_client: TestClient) -> None:
    body, (hits, _, _) = loogle(pattern_client, 'Real.sin, "two", _ * _, |- _ = _')
    assert [h.name for h in hits] == ["Real.sin_two_mul"]
    assert body["header"] == ("Found one declaration mentioning Real.sin, HMul.hMul and Eq.\n"
                              'Of these, one has a name containing "two".\nOf these, one matches your pattern(s).')
    # Without constants, the name fragments give the candidates.
    body, _ = loogle(pattern_client, '"union", ?f (?g _ _)')
    assert body["header"] == ('Found 3 declarations whose name contains "union".\n'
                              "Of these, 3 match your pattern(s).")


@pytest.mark.parametrize(
    ("query", "message", "suggestion"),
    [
        ("_ * (_ ^ _", "at character 5: '(' is not closed", None),
        ("_ * _)", "at character 6: ')' closes no bracket", None),
        ("_ ⊞ _", "at character 3: unknown notation '⊞'", None),
        ("sqrt ?a * sqrt ?a", "Unknown identifier 'sqrt'", "Real.sqrt ?a * sqrt ?a"),
        ("x * y = y * x", "unknown identifier 'x'", "?x * y = y * x"),
        ("?a → ?b", "Cannot search: No constants", None),
        ("_", "Cannot search for _", None),
        (" ".join(["_"] * 1000), "tokens; at most 200 are read", None),
        ("(" * 30 + "_ * _" + ")" * 30, "nests brackets more than 24 deep", None),
        ("(" * 500 + "_" + ")" * 500, "tokens; at most 200 are read", None),
        (" ^ ".join(["_"] * 150), "tokens; at most 200 are read", None),
    ],
)
def test_bad_patterns_get_a_message_never_a_500(pattern_client: TestClient, query: str, message: str,
                                                suggestion: str | None) -> None:
    _, (hits, error, suggestions) = loogle(pattern_client, query)
    assert hits == [] and error is not None and message in error
    if suggestion is not None:
        assert suggestions and suggestions[0] == suggestion


def test_a_pattern_too_general_is_stopped(pattern_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(patterns, "MAX_ATTEMPTS", 3)
    _, (_, error, _) = loogle(pattern_client, "?f _ = _")
    assert error is not None and "too general" in error
