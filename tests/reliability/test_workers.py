"""The multi-worker server (`python app.py --workers 2`, search/api/workers.py): every kind of
request and votes under load with no failure, the votes of all workers in one store, and the
index swapped under load (`POST /api/v1/admin/index`) with no request lost."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import httpx
import psutil
import pytest

from search.index.build import BuildOptions, build_index
from tests.live_server import AppProcess, ONE_ADDRESS, app_process
from tests.reliability.load import load
from tests.ui.fixture_index import FIXTURES, ui_index

SECRET = "a test admin secret"
ENV = {**ONE_ADDRESS, "ADMIN_SECRET": SECRET}


@pytest.fixture(scope="module")
def second_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Another index (the Mathlib fixture alone), to swap to."""
    out = tmp_path_factory.mktemp("second") / "index"
    build_index(out, BuildOptions(sources=[f"mathlib={FIXTURES / 'jsonl' / 'mathlib_small.jsonl'}"],
                                  views=("name", "text"), progress=False))
    return out


def _version(app: AppProcess) -> str:
    return httpx.get(f"{app.url}/api/v1/index", timeout=10).json()["version"]


def test_workers_answer_every_kind_and_share_one_vote_store(tmp_path_factory: pytest.TempPathFactory,
                                                            tmp_path: Path) -> None:
    with app_process(ui_index(tmp_path_factory), tmp_path / "votes.sqlite", tmp_path / "app.log", ENV,
                     workers=2) as app:
        assert len(psutil.Process(app.process.pid).children()) == 2  # two workers under one parent
        report = load(app, clients=20, seconds=5, warmup=1)
        assert report.failed == 0, report.failures
        assert set(report.by_kind) >= {"native", "leansearch", "loogle", "statesearch", "page", "vote"}
        # a session issued by one worker is taken by the other: every vote sent was saved
        votes = sqlite3.connect(tmp_path / "votes.sqlite").execute("SELECT COUNT(*) FROM votes").fetchone()[0]
        assert 0 < votes <= report.by_kind["vote"] * 2  # warm-up votes count too; a replaced vote is one row
        refused = httpx.post(f"{app.url}/api/v1/admin/index", json={"index": str(tmp_path)},
                             headers={"Authorization": "Bearer not the secret"}, timeout=10)
        assert refused.status_code == 403


@pytest.mark.slow
def test_the_index_is_swapped_under_load_with_no_failed_request(tmp_path_factory: pytest.TempPathFactory,
                                                                 second_index: Path, tmp_path: Path) -> None:
    """Long (about 20 s), hence `slow`. Connection resets during the swap, which made it fail now
    and then, came from asyncio dropping connections accepted as the old workers' servers were
    closed (search/api/workers.py `DrainingServer._drain`)."""
    with app_process(ui_index(tmp_path_factory), tmp_path / "votes.sqlite", tmp_path / "app.log", ENV,
                     workers=2) as app:
        old = _version(app)
        answers, swapped_at = asyncio.run(_load_while_swapping(app, second_index, clients=16, seconds=14, swap_after=3))
        new = _version(app)
        failed = [a for a in answers if a[1] != 200]
        assert not failed, failed[:5]
        assert new != old and new.endswith("from mathlib@abc123")
        versions = [(done, version) for done, _, version in answers]
        assert {v for _, v in versions} == {old, new}
        # the old workers went on answering after the swap was asked for (requests in flight and
        # those already on their connections), and at the end every answer is the new index's
        assert any(v == old and done > swapped_at for done, v in versions)
        assert all(v == new for done, v in versions if done > max(d for d, _ in versions) - 2)


async def _load_while_swapping(app: AppProcess, index: Path, clients: int, seconds: float, swap_after: float
                               ) -> tuple[list[tuple[float, int, str]], float]:
    """(completion time, status, index version) of every search, and when the swap was asked."""
    answers: list[tuple[float, int, str]] = []
    started = time.monotonic()
    deadline = started + seconds

    async def client(number: int) -> None:
        async with httpx.AsyncClient(base_url=app.url, timeout=60) as http:
            step = 0
            while time.monotonic() < deadline:
                step += 1
                try:
                    reply = await http.get("/api/v1/search", params={"q": f"ring {number}x{step}", "k": 5})
                    version = reply.json().get("index_version", "") if reply.status_code == 200 else reply.text[:200]
                    answers.append((time.monotonic() - started, reply.status_code, version))
                except httpx.HTTPError as error:
                    answers.append((time.monotonic() - started, 0, f"{type(error).__name__} {error}"))

    async def swap() -> float:
        await asyncio.sleep(swap_after)
        async with httpx.AsyncClient(base_url=app.url, timeout=30) as http:
            reply = await http.post("/api/v1/admin/index", json={"index": str(index)},
                                    headers={"Authorization": f"Bearer {SECRET}"})
        assert reply.status_code == 202, reply.text
        return time.monotonic() - started

    *_, swapped_at = await asyncio.gather(*(client(n) for n in range(clients)), swap())
    return answers, swapped_at
