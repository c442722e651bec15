"""Twenty clients vote through `POST /api/v1/feedback` while `python app.py` is killed with
SIGKILL and started again: every vote the server answered "saved" is in the database after the
last kill, and every row is whole and one that a client sent. Each vote is on a result of a
search the client made just before, under the session that search's answer carried (the
server takes no other). CI kills it twice (once while the votes come in, once at the end);
`-m slow` kills it every few seconds for a minute."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from tests.live_server import ONE_ADDRESS, AppProcess
from tests.ui.fixture_index import ui_index

WRITERS = 20


@dataclass
class Writer:
    """One client: searches, votes on a result of the answer, and sends the vote again (after a
    new search if the server asks for one) until the server says it is saved (a vote whose
    answer was lost may be stored already; sending it again changes nothing)."""

    number: int
    url: str
    stop: threading.Event
    session: str | None = None
    sent: dict[tuple[str, str, str], int] = field(default_factory=dict)
    saved: dict[tuple[str, str, str], int] = field(default_factory=dict)
    refused: int = 0  # attempts that got no success answer (server down, connection cut)

    def search(self, client: httpx.Client, step: int) -> dict[str, object]:
        """The vote of this step, on a result of a search made now (raises when the server is down)."""
        params: dict[str, object] = {"q": f"query {self.number}.{step}", "k": 10, "session": self.session or None}
        if step % 2:
            params["source"] = "mathlib"
        found = client.get(f"{self.url}/api/v1/search", params={k: v for k, v in params.items() if v})
        found.raise_for_status()
        answer = found.json()
        self.session = answer["session"]
        result = answer["results"][step % len(answer["results"])]
        return {"session": answer["session"], "query": answer["query"], "result_id": result["id"],
                "vote": 1 if step % 3 else -1, "rank": result["rank"], "filters": answer["filters"]}

    def run(self) -> None:
        step = 0
        body = None
        with httpx.Client(timeout=10) as client:
            while not self.stop.is_set():
                try:
                    body = body or self.search(client, step)
                    key = (str(body["session"]), str(body["query"]), str(body["result_id"]))
                    self.sent[key] = int(body["vote"])  # type: ignore[call-overload]
                    response = client.post(f"{self.url}/api/v1/feedback", json=body)
                    saved = response.status_code == 200 and response.json()["saved"] is True
                    if response.status_code in (403, 409):  # not served (any more): search again
                        body = None
                except httpx.HTTPError:
                    saved = False
                if saved:
                    self.saved[key] = self.sent[key]
                    step += 1
                    body = None
                else:
                    self.refused += 1
                    time.sleep(0.05)


def rows(db: Path) -> tuple[str, list[tuple]]:
    """SQLite's integrity check and every row, read as a fresh process would after the crash."""
    connection = sqlite3.connect(db)
    try:
        check = connection.execute("PRAGMA integrity_check").fetchone()[0]
        found = connection.execute(
            "SELECT session, query, result_id, vote, rank, filters, variant, index_version, timestamp FROM votes"
        ).fetchall()
    finally:
        connection.close()
    return check, found


def crash_while_voting(tmp_path: Path, index: Path, seconds: float, kills: int) -> None:
    app = AppProcess(index, tmp_path / "votes.sqlite", tmp_path / "app.log", ONE_ADDRESS)
    app.start()
    stop = threading.Event()
    writers = [Writer(n, app.url, stop) for n in range(WRITERS)]
    threads = [threading.Thread(target=w.run, daemon=True) for w in writers]
    try:
        for thread in threads:
            thread.start()
        saved_at_kill = []
        for _ in range(kills):
            time.sleep(seconds / (kills + 1))
            app.kill()
            saved_at_kill.append(sum(len(w.saved) for w in writers))
            app.start()  # same port, same database
        time.sleep(seconds / (kills + 1))
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    finally:
        app.kill()  # the last word is a crash too: nothing is closed or flushed
    saved = {key: vote for w in writers for key, vote in w.saved.items()}
    sent = {key: vote for w in writers for key, vote in w.sent.items()}
    assert sum(w.refused for w in writers) > 0, "no request was cut by a kill: the test proved nothing"
    assert len(saved) > saved_at_kill[-1] > 0, "votes must be saved before the kills and after the last restart"

    check, found = rows(app.feedback_db)
    assert check == "ok"
    stored = {(session, query, result_id): vote for session, query, result_id, vote, *_ in found}
    lost = {key: vote for key, vote in saved.items() if stored.get(key) != vote}
    assert not lost, f"{len(lost)} acknowledged votes missing or changed, e.g. {list(lost.items())[:3]}"
    for session, query, result_id, vote, rank, filters, variant, index_version, timestamp in found:
        assert sent.get((session, query, result_id)) == vote  # a vote some client sent, as it sent it
        assert 1 <= rank <= 10 and json.loads(filters) in ({}, {"source": ["mathlib"]}) and variant == "default"
        assert index_version.startswith("built ") and datetime.fromisoformat(timestamp)
    print(f"saved {len(saved)} votes, {len(stored)} rows, {sum(w.refused for w in writers)} attempts refused "
          f"during {kills} kills and restarts, plus a final kill")


def test_acknowledged_votes_survive_sigkill_and_restart(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    crash_while_voting(tmp_path, ui_index(tmp_path_factory), seconds=4, kills=1)


@pytest.mark.slow
def test_acknowledged_votes_survive_repeated_sigkills_for_a_minute(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    crash_while_voting(tmp_path, ui_index(tmp_path_factory), seconds=60, kills=5)
