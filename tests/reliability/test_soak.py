"""Ten minutes of fifty clients against the multi-worker server (`python app.py --workers 2`)
over the full default index (`INDEX_DIR`), as a Hugging Face Space sees them: behind one
trusted proxy (`TRUSTED_PROXIES=1`, every bound at its default), each client with an address
of its own, and a fifth of them forging `X-Forwarded-For` and sending twelve requests at once
(tests/reliability/load.py `--as-space`). With every kind of request (the page, the three
imitated APIs, native searches, votes): no request fails but the forgers' deliberate 429s,
the forgers are rate-limited, and the memory of the whole server (PSS summed over its
processes) stays flat over the last half. `-m slow`; the figures are in docs/limits.md."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from search import config
from tests.live_server import app_process
from tests.reliability.load import SPACE_ENV, load

CLIENTS = 50
SECONDS = 600
#: How much the server's memory may move over the last half of the run (samples every 5 s).
FLAT_MB = 64


@pytest.mark.slow
def test_ten_minutes_of_fifty_clients_on_two_workers_as_a_space(tmp_path: Path) -> None:
    index = config.DEFAULT_INDEX_DIR
    if not (index / "manifest.json").is_file():
        pytest.skip(f"no full index at {index} (INDEX_DIR): build one with `python -m search build`")
    with app_process(index, tmp_path / "votes.sqlite", tmp_path / "app.log", SPACE_ENV, workers=2) as app:
        report = load(app, CLIENTS, SECONDS, warmup=30, forging=0.2)
    print(json.dumps(asdict(report)))  # the figures, in the test log (-s)
    assert report.failed == 0, report.failures
    assert report.forging_clients == 10 and report.forging_rate_limited > 0
    assert set(report.by_kind) >= {"native", "leansearch", "loogle", "statesearch", "page", "vote"}
    assert report.last_half_spread_mb <= FLAT_MB, report.rss_samples_mb
