"""The Space's path end to end, on a local fake Hub (tests/hub/fake_hub.py) that huggingface_hub's
real client talks to over HTTP: `python -m search publish` -> `snapshot_download` ->
`python app.py --index hf://...` in a child process (HF_ENDPOINT, as a Space's environment
would give the real Hub) -> a query answered from the fetched index."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import time

import httpx

from search.index.manifest import read_manifest
from tests.hub.conftest import LocalHub
from tests.live_server import REPO, app_process, free_port


def test_publish_fetch_serve_query(small_index: Path, local_hub: LocalHub, tmp_path: Path) -> None:
    from huggingface_hub import snapshot_download

    published = subprocess.run(
        [sys.executable, "-m", "search", "publish", str(small_index), "hf://datasets/me/theorems", "--tag", "v1"],
        cwd=REPO, env={**os.environ, **local_hub.env}, capture_output=True, text=True, timeout=120,
    )
    assert published.returncode == 0, published.stderr
    fetched = Path(snapshot_download("me/theorems", repo_type="dataset", cache_dir=tmp_path / "fetch"))
    assert read_manifest(fetched)["total"] == read_manifest(small_index)["total"]  # every file checks out

    env = {**local_hub.env, "HF_HUB_CACHE": str(tmp_path / "app-cache")}  # the app fetches on its own
    with app_process("hf://datasets/me/theorems@v1", tmp_path / "votes.sqlite", tmp_path / "app.log", env) as app:
        answer = httpx.get(f"{app.url}/api/v1/search", params={"q": "mul_comm", "k": 3}, timeout=30).json()
        served = httpx.get(f"{app.url}/api/v1/index", timeout=30).json()
    assert answer["results"][0]["id"] == "mathlib:mul_comm"
    assert served["total"] == read_manifest(small_index)["total"]
    assert any((tmp_path / "app-cache").glob("datasets--me--theorems/snapshots/*/manifest.json"))
    assert any(r.startswith("GET /datasets/me/theorems/resolve/") for r in local_hub.hub.requests)


def test_started_as_a_space_starts(small_index: Path, local_hub: LocalHub, tmp_path: Path) -> None:
    """`python app.py` with no argument and a Space's environment: the address and port Spaces
    set (GRADIO_SERVER_NAME, GRADIO_SERVER_PORT), the index from the variable INDEX_DIR, and a
    persistent disk (PERSISTENT_DIR stands for /data) where the vote database goes."""
    from search.hub.publish import publish

    publish(small_index, "hf://datasets/me/theorems", api=local_hub.api())
    disk, port = tmp_path / "data", free_port()
    disk.mkdir()
    env = {**os.environ, **local_hub.env, "INDEX_DIR": "hf://datasets/me/theorems", "PERSISTENT_DIR": str(disk),
           "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port)}
    env.pop("FEEDBACK_DB", None)
    with (tmp_path / "space.log").open("wb") as log:
        space = subprocess.Popen([sys.executable, "app.py"], cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while True:
            assert space.poll() is None, (tmp_path / "space.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "the Space did not answer"
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/v1/search", params={"q": "mul_comm"}, timeout=5)
                break
            except httpx.HTTPError:
                time.sleep(0.3)
        assert answer.json()["results"][0]["id"] == "mathlib:mul_comm"
        assert (disk / "feedback.sqlite").is_file()  # the votes' database is on the persistent disk
    finally:
        space.kill()
        space.wait()
