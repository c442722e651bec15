"""Fifty concurrent clients against `python app.py` on loopback: no request fails, the p95
latency is reported, and the server's memory stays flat once warmed up. CI runs a 5-second
load; `-m slow` runs the full minute."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Iterator

import pytest

from tests.live_server import AppProcess, app_process
from tests.reliability.load import load
from tests.ui.fixture_index import ui_index

CLIENTS = 50
#: Resident memory the server may gain during a run after its warm-up (threads, allocator
#: arenas and caches are filled by then; what grows per request would show far beyond this).
RSS_GROWTH_MB = 64


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    work = tmp_path_factory.mktemp("load")
    with app_process(ui_index(tmp_path_factory), work / "votes.sqlite", work / "app.log",
                     {"RATE_LIMIT_PER_MINUTE": "0"}) as running:  # fifty clients, one address
        yield running


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
