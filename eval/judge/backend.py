"""An OpenAI-compatible chat endpoint as judge (OpenAI, OpenRouter, vLLM, llama.cpp, Ollama...).

Request: `POST {base_url}/chat/completions` with `{"model", "messages"}` (and `temperature`
when one is given), the key as a bearer token; the verdict is `choices[0].message.content`.
A verdict whose last line is not a readable ranking is asked again, up to a fixed number of
attempts, and then kept as it is, to be counted as unreadable: it is never guessed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from eval.engines.base import EngineFailure
from eval.engines.http import JsonClient
from eval.judge.trials import Trial
from eval.judge.verdict import Verdict, VerdictError, parse_verdict

#: Attempts per trial while the verdict has no readable ranking line.
ATTEMPTS = 3
#: Judges think aloud before ranking: allow a long read.
TIMEOUT = 120.0
#: A run stops after this many trials in a row without any answer from the endpoint.
GIVE_UP_AFTER = 5

log = logging.getLogger(__name__)


@dataclass
class ChatJudge:
    base_url: str
    model: str
    api_key: str = ""
    temperature: float | None = None
    client: JsonClient | None = None

    def __post_init__(self) -> None:
        if self.client is None:
            headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
            self.client = JsonClient("judge", timeout=TIMEOUT, headers=headers)

    def complete(self, messages: list[dict[str, str]]) -> str:
        body: dict[str, Any] = {"model": self.model, "messages": messages}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        assert self.client is not None
        payload = self.client.request("POST", self.base_url.rstrip("/") + "/chat/completions", json_body=body)
        try:
            content = payload["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as error:
            raise EngineFailure(f"judge: no choices[0].message.content in the answer ({error})") from error
        if not isinstance(content, str):
            raise EngineFailure("judge: the message content is not text")
        return content


def judge_trials(trials: Iterable[Trial], complete: Callable[[list[dict[str, str]]], str],
                 judge_name: str, attempts: int = ATTEMPTS) -> Iterable[Verdict]:
    """A verdict per trial, as each arrives (so that a caller can save progress). Raises
    `EngineFailure` when the endpoint has failed GIVE_UP_AFTER trials in a row."""
    failures = 0
    for trial in trials:
        letters = sorted(trial.letters)
        response, error = "", ""
        for attempt in range(1, attempts + 1):
            try:
                response = complete(trial.messages)
            except EngineFailure as failure:
                response, error = "", str(failure)
                log.warning("%s: %s", trial.id, failure)
                break
            try:
                parse_verdict(response, letters)
                error = ""
                break
            except VerdictError as unreadable:
                error = f"unreadable after {attempt} attempt(s): {unreadable}"
                log.info("%s: attempt %d unreadable (%s)", trial.id, attempt, unreadable)
        yield Verdict(trial.id, response, error, judge_name, attempt)
        failures = failures + 1 if not response else 0
        if failures >= GIVE_UP_AFTER:
            raise EngineFailure(f"the judge endpoint failed {failures} trials in a row; last: {error}")
