"""Result-like objects and a scripted engine, so the evaluation runs without an index."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class FakeStatement:
    id: str
    name: str


@dataclass
class FakeResult:
    statement: FakeStatement
    members: list[str] = field(default_factory=list)


def result(record_id: str, *members: str) -> FakeResult:
    """A result for record `source:name`, heading a group with `members` (ids)."""
    return FakeResult(FakeStatement(record_id, record_id.split(":", 1)[1]), list(members))


def results(*record_ids: str) -> list[FakeResult]:
    return [result(r) for r in record_ids]


class FakeEngine:
    """Answers `search` from a script {variant: {query: [results]}}; unknown queries get filler."""

    def __init__(self, script: dict[str, dict[str, list[FakeResult]]]) -> None:
        self.script = script
        self.calls: list[tuple[str, int, str]] = []

    def search(self, query: str, k: int = 10, filters: object = None, variant: str = "default") -> list[FakeResult]:
        self.calls.append((query, k, variant))
        answer = self.script[variant].get(query, results("mathlib:Filler.a", "mathlib:Filler.b"))
        return answer[:k]
