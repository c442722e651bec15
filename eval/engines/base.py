"""What every engine returns: a `Hit` per result, or an exception that says why there is none.

A judge sees the same fields for every engine (the LeanExplore paper's protocol: code, docstring,
informal description), so each client maps its service's response onto `Hit` and leaves a
field empty when the service has no such thing; the prompt shows an empty field as `N/A`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any, Literal, Mapping, Protocol


@dataclass(frozen=True)
class Hit:
    """One result of an engine, reduced to what a person or a judge compares."""

    name: str
    kind: str = ""
    code: str = ""  # formal statement (Lean code); empty for informal statements
    docstring: str = ""
    informal: str = ""  # natural-language or LaTeX statement or description
    url: str = ""

    def to_dict(self) -> dict[str, str]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Hit":
        return cls(**{key: str(data.get(key) or "") for key in cls.__dataclass_fields__})


class EngineFailure(Exception):
    """The engine gave no usable answer (network error, timeout, server error, malformed body)."""


class QueryRejected(EngineFailure):
    """The service answered, but refused the query (e.g. Loogle cannot parse plain English).

    Unlike other failures this is the service's own answer, so it is shown to a judge as
    that engine's result for the query rather than leaving the query out.
    """


class SearchEngine(Protocol):
    """Anything that answers a query with its top `k` hits.

    `remote` engines are services reached over the network: their answers are cached on disk.
    """

    name: str
    remote: bool

    def search(self, query: str, k: int) -> list[Hit]: ...


Status = Literal["ok", "rejected", "failed"]


@dataclass
class Answer:
    """What one engine said for one query: hits (`ok`), the service's refusal (`rejected`), or
    no answer at all (`failed`, with the reason); `fetched_at` is an ISO 8601 UTC time."""

    engine: str
    query: str
    k: int
    status: Status
    hits: list[Hit] = field(default_factory=list)
    error: str = ""
    fetched_at: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"engine": self.engine, "query": self.query, "k": self.k, "status": self.status,
                "hits": [h.to_dict() for h in self.hits], "error": self.error,
                "fetched_at": self.fetched_at}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Answer":
        status = data.get("status")
        if status not in ("ok", "rejected", "failed"):
            raise ValueError(f"unknown answer status {status!r}")
        return cls(engine=str(data["engine"]), query=str(data["query"]), k=int(data["k"]),
                   status=status, hits=[Hit.from_dict(h) for h in data.get("hits") or []],
                   error=str(data.get("error") or ""), fetched_at=str(data.get("fetched_at") or ""))


def ask(engine: SearchEngine, query: str, k: int) -> Answer:
    """Search once and record the outcome, whatever it is, with the time."""
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    try:
        hits = engine.search(query, k)
    except QueryRejected as error:
        return Answer(engine.name, query, k, "rejected", error=str(error), fetched_at=now)
    except EngineFailure as error:
        return Answer(engine.name, query, k, "failed", error=str(error), fetched_at=now)
    return Answer(engine.name, query, k, "ok", hits=list(hits)[:k], fetched_at=now)


def text(value: Any) -> str:
    """A JSON field as stripped text; missing and null fields become ''."""
    return "" if value is None else str(value).strip()


def listed_hits(payload: Any, key: str, service: str, name_key: str) -> list[dict[str, Any]]:
    """The hits of an answer that holds them as a list under `key`, each an object with a
    non-empty `name_key`; EngineFailure naming the service otherwise."""
    items = payload.get(key) if isinstance(payload, dict) else None
    if not isinstance(items, list):
        raise EngineFailure(f"{service}: expected an object with a '{key}' list")
    for item in items:
        if not isinstance(item, dict) or not text(item.get(name_key)):
            raise EngineFailure(f"{service}: a hit has no {name_key}")
    return items

