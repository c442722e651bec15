"""JSON over HTTP with bounded timeouts and retries, shared by the remote engines and the judge.

A comparison makes hundreds of requests to services we do not control, so every request has a
timeout, transient failures (connection errors, timeouts, 429 and 5xx) are retried a fixed
number of times with a growing pause, and anything else ends in `EngineFailure` with a message
that names the service, never in an empty result list.

The timeout bounds each attempt as a whole (connect, send, headers and body), not each network
read as httpx's own timeouts do: a server that trickles its answer a byte at a time passes every
read timeout and would hold a caller for minutes. Each attempt runs as an asyncio task under
`asyncio.wait_for`, which cancels it (and closes its connection) when the time is up.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping

import httpx

from search import config

from eval.engines.base import EngineFailure, Hit

#: Seconds to wait for a connection and for each read.
TIMEOUT = 20.0
#: Extra attempts after a transient failure (so at most 1 + RETRIES requests per call).
RETRIES = 2
#: Pause before retry i (0-based) is BACKOFF * 2**i seconds.
BACKOFF = 1.0
TRANSIENT_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})
USER_AGENT = "theorem-search-eval"


@dataclass
class HttpStatusError(EngineFailure):
    """A non-2xx answer, with its status and the start of its body (some services explain there)."""

    service: str
    status: int
    body: Any = None

    def __str__(self) -> str:
        return f"{self.service}: HTTP {self.status}" + (f" ({_clip(self.body)})" if self.body else "")


@dataclass
class JsonClient:
    """One service's endpoint; `request` returns the decoded JSON body of a 2xx answer."""

    service: str
    timeout: float = TIMEOUT
    retries: int = RETRIES
    backoff: float = BACKOFF
    headers: Mapping[str, str] = field(default_factory=dict)
    sleep: Callable[[float], None] = time.sleep

    def request(self, method: str, url: str, *, params: Mapping[str, Any] | None = None,
                json_body: Any = None) -> Any:
        """The decoded JSON body of a 2xx answer, or EngineFailure. Called outside any running
        event loop (the evaluation's command line)."""
        return asyncio.run(self._request(method, url, params, json_body))

    async def _request(self, method: str, url: str, params: Mapping[str, Any] | None, json_body: Any) -> Any:
        headers = {"User-Agent": USER_AGENT, "Accept": "application/json", **self.headers}
        last: EngineFailure | None = None
        async with httpx.AsyncClient(timeout=self.timeout, headers=headers) as client:
            for attempt in range(self.retries + 1):
                if attempt:
                    self.sleep(self.backoff * 2 ** (attempt - 1))
                try:
                    response = await asyncio.wait_for(
                        client.request(method, url, params=params, json=json_body), self.timeout
                    )
                except (httpx.TimeoutException, TimeoutError) as error:
                    detail = f" ({error})" if str(error) else ""
                    last = EngineFailure(f"{self.service}: no answer within {self.timeout:g} s{detail}")
                    continue
                except httpx.HTTPError as error:
                    last = EngineFailure(f"{self.service}: request failed ({type(error).__name__}: {error})")
                    continue
                if response.status_code in TRANSIENT_STATUS:
                    last = HttpStatusError(self.service, response.status_code, _body(response))
                    continue
                if not response.is_success:
                    raise HttpStatusError(self.service, response.status_code, _body(response))
                try:
                    return response.json()
                except (json.JSONDecodeError, UnicodeDecodeError) as error:
                    raise EngineFailure(f"{self.service}: the answer is not JSON ({error}): "
                                        f"{_clip(response.text)}") from error
        assert last is not None
        raise EngineFailure(f"{last} (after {self.retries + 1} attempts)") from last


def _body(response: httpx.Response) -> Any:
    try:
        return response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return response.text


def _clip(value: Any, limit: int = 300) -> str:
    shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= limit else shown[:limit] + "..."


class RemoteEngine:
    """A search service over HTTP: each query is one request, its JSON answer parsed into hits.

    A service is a subclass that names itself (`name`, the engine spec; `service`, in
    messages), the `search.config` setting of its URL, how a query becomes a request, and how
    an answer becomes hits (each module's `parse`, which `eval.engines.replay` also reads).
    """

    name: ClassVar[str]
    service: ClassVar[str]
    url_setting: ClassVar[str]
    remote: ClassVar[bool] = True

    def __init__(self, url: str | None = None, client: JsonClient | None = None) -> None:
        self.url = url or getattr(config, self.url_setting)
        self.client = client or JsonClient(self.service, headers=self.headers())

    def headers(self) -> dict[str, str]:
        """Headers of every request (a key, say)."""
        return {}

    def request(self, query: str, k: int) -> dict[str, Any]:
        """`JsonClient.request`'s arguments besides the URL: `method`, `params`, `json_body`."""
        raise NotImplementedError

    def parse(self, payload: Any) -> list[Hit]:
        raise NotImplementedError

    def search(self, query: str, k: int) -> list[Hit]:
        return self.parse(self.client.request(url=self.url, **self.request(query, k)))[:k]
