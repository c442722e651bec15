"""Fifty concurrent clients against `python app.py` on loopback: no request fails, the p95
latency is reported, and the server's memory stays flat once warmed up. CI runs a 5-second
load; `-m slow` runs the full minute."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from tests.live_server import AppProcess
from tests.reliability.load import load

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
