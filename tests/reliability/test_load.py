"""Fifty concurrent clients against `python app.py` on loopback: no request fails, the p95
latency is reported, and the server's memory stays flat once warmed up. CI runs a 5-second
load; `-m slow` runs the full minute."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from tests.live_server import AppProcess, app_process
from tests.reliability.load import SPACE_ENV, load
from tests.ui.fixture_index import ui_index

CLIENTS = 50
#: Resident memory the server may gain during a run after its warm-up (threads, allocator
#: arenas and caches are filled by then; what grows per request would show far beyond this).
RSS_GROWTH_MB = 64


def check(app: AppProcess, seconds: float, warmup: float) -> None:
    report = load(app, CLIENTS, seconds, warmup)
    print(json.dumps(asdict(report)))  # the figures, in the test log (-s)
    assert report.failed == 0, report.failures
    assert report.requests >= CLIENTS and set(report.by_kind) >= {"native", "leansearch", "loogle", "statesearch", "page"}
    assert 0 < report.p50_ms <= report.p95_ms <= report.max_ms
    assert report.rss_after_mb - report.rss_before_mb < RSS_GROWTH_MB, report.rss_samples_mb


def test_fifty_clients_for_five_seconds(app: AppProcess) -> None:
    check(app, seconds=5, warmup=2)


@pytest.mark.slow
def test_fifty_clients_for_a_minute(app: AppProcess) -> None:
    check(app, seconds=60, warmup=10)


def test_as_a_space_with_clients_forging_their_address(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Behind one trusted proxy (the load generator), a fifth of the clients writing a new
    `X-Forwarded-For` on every request and sending twelve at once: they are rate-limited (a
    limit of 10 here, which their first burst exceeds), the others, one request every 1.5 s at
    most, never fail."""
    work = tmp_path_factory.mktemp("space")
    env = {**SPACE_ENV, "RATE_LIMIT_PER_MINUTE": "10"}
    with app_process(ui_index(tmp_path_factory), work / "votes.sqlite", work / "app.log", env) as app:
        report = load(app, CLIENTS, seconds=5, warmup=2, forging=0.2, honest_interval=1.5)
    print(json.dumps(asdict(report)))
    assert report.failed == 0, report.failures
    assert report.forging_clients == 10 and report.forging_rate_limited > 0
    assert report.forging_rate_limited < report.forging_requests  # each had its allowance first
