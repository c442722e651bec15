"""Where the vote database goes when nobody names one: a persistent disk when mounted (a Space's
/data: tests/hub/test_space_roundtrip.py), else the user's data folder; never the working
directory or the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from search import config
from tests.live_server import free_port


def test_without_a_persistent_disk_votes_go_to_the_data_folder_not_the_working_directory(
        small_index: Path, tmp_path: Path) -> None:
    """`python app.py` with no vote database named, no persistent disk and a fresh home: the vote
    database and its secret appear in platformdirs' data folder, nothing in the working directory
    or the checkout."""
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    env = {key: value for key, value in os.environ.items()
           if key not in ("FEEDBACK_DB", "THEOREM_SEARCH_DATA", "XDG_DATA_HOME")}
    env.update(HOME=str(home), PERSISTENT_DIR=str(tmp_path / "no-disk"), THEOREM_SEARCH_CACHE=str(config.CACHE_DIR))
    before = set(config.REPO_DIR.iterdir())
    port = free_port()
    with (tmp_path / "app.log").open("wb") as log:
        server = subprocess.Popen([sys.executable, str(config.REPO_DIR / "app.py"), "--index", str(small_index),
                                   "--port", str(port)], cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while True:
            assert server.poll() is None, (tmp_path / "app.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "the app did not answer"
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/api/v1/search", params={"q": "mul_comm"}, timeout=5).is_success
                break
            except httpx.HTTPError:
                time.sleep(0.3)
    finally:
        server.kill()
        server.wait()
    data = home / ".local" / "share" / "theorem-search"
    assert {p.name for p in data.iterdir()} >= {"feedback.sqlite", "feedback.sqlite.secret"}
    assert list(work.iterdir()) == [] and set(config.REPO_DIR.iterdir()) == before
