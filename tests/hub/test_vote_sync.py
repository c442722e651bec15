"""Votes pushed to a Hub dataset repository by huggingface_hub's CommitScheduler
(search/feedback/hub_sync.py), against the local fake Hub (tests/hub/fake_hub.py): the files it
pushes, the restore at start, and `python app.py` killed with SIGKILL on a wiped disk (as a Space
without persistent storage restarts): every vote acknowledged more than one period (plus the
push under way) before the kill is on the Hub and back in the new database."""

from __future__ import annotations

import json
import signal
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from search import config
from search.feedback.hub_sync import FeedbackSyncError, HubVoteSync, read_votes
from search.feedback.store import FeedbackStore, Vote
from tests.hub.conftest import LocalHub
from tests.live_server import AppProcess, ONE_ADDRESS

#: The push period of the app in the kill tests (FEEDBACK_SYNC_MINUTES), and the time a push
#: to the local fake Hub may take on a loaded 2-core machine.
PERIOD_SECONDS = 3.0
PUSH_SECONDS = 2.0


def hub_votes(local_hub: LocalHub, repo: str = "me/votes") -> list[Vote]:
    votes = []
    for name, content in local_hub.hub.files("dataset", repo).items():
        if name.startswith("votes/"):
            votes += [Vote(**json.loads(line)) for line in content.decode().splitlines()]
    return votes


def vote(session: str, result: str, value: int, timestamp: str = "") -> Vote:
    return Vote(session, "a query", result, value, 1, {}, "default", "v1", timestamp, "addr")


def test_votes_are_pushed_as_json_lines_and_restored(local_hub: LocalHub, tmp_path: Path) -> None:
    sync = HubVoteSync.start("hf://datasets/me/votes", tmp_path / "f.sqlite", 60, api=local_hub.api())
    try:
        store = FeedbackStore(tmp_path / "f.sqlite", mirror=sync.append)
        stored = [store.vote(vote("s1", "r1", 1)), store.vote(vote("s1", "r2", -1)), store.vote(vote("s1", "r1", -1))]
        assert read_votes(sync.file) == stored  # on the local disk before each vote returned
        sync.push()
        assert hub_votes(local_hub) == stored  # the whole history, in order
        commits = len(local_hub.hub.repos[("dataset", "me/votes")].commits)
        sync.push()  # nothing new: no commit
        assert len(local_hub.hub.repos[("dataset", "me/votes")].commits) == commits
        fresh = FeedbackStore(tmp_path / "fresh.sqlite")
        assert sync.restore_into(fresh) == 3  # two rows written, then r1 replaced by its later vote
        assert {(v.result_id, v.vote) for v in fresh.votes()} == {("r1", -1), ("r2", -1)}
        assert sync.restore_into(fresh) == 0  # nothing newer the second time
    finally:
        sync.stop()


def test_restore_keeps_the_newest_vote_and_skips_bad_rows(tmp_path: Path) -> None:
    store = FeedbackStore(tmp_path / "f.sqlite")
    store.vote(vote("s", "r", 1, "2026-01-02T00:00:00.000+00:00"))
    older, newer = vote("s", "r", -1, "2026-01-01T00:00:00.000+00:00"), vote("s", "q", -1, "2026-01-03T00:00:00.000+00:00")
    assert store.restore([older, newer, vote("", "r", 1, "2026-01-04T00:00:00.000+00:00")]) == 1
    assert {(v.result_id, v.vote) for v in store.votes()} == {("r", 1), ("q", -1)}


def test_a_torn_last_line_is_skipped(tmp_path: Path) -> None:
    file = tmp_path / "v.jsonl"
    good = vote("s", "r", 1, "t")
    file.write_text(json.dumps(good.__dict__) + "\n" + '{"session": "s", "que')
    assert read_votes(file) == [good]


def test_bad_feedback_repo_stops_the_app_with_a_message(local_hub: LocalHub, tmp_path: Path, small_index: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    for spec, message in (("hf://me/votes", "dataset repository"), ("hf://datasets/a/b/c", "expected hf://")):
        with pytest.raises(FeedbackSyncError, match=message):
            HubVoteSync.start(spec, tmp_path / "f.sqlite", 1, api=local_hub.api())
    import app

    args = ["--index", str(small_index), "--feedback-db", str(tmp_path / "f.sqlite"), "--feedback-repo", "hf://x/y/z/w"]
    assert app.main(args) == 2
    assert "error: FEEDBACK_REPO: hf://x/y/z/w: expected hf://" in capsys.readouterr().err


def test_persistent_disk_holds_the_vote_database(tmp_path: Path) -> None:
    assert config.default_feedback_db(tmp_path, tmp_path / "data") == tmp_path / "feedback.sqlite"
    assert config.default_feedback_db(tmp_path / "absent", tmp_path / "data") == tmp_path / "data" / "feedback.sqlite"


@dataclass
class Voter:
    """One client that searches and votes on a result, noting when each vote was acknowledged."""

    url: str
    acknowledged: list[tuple[float, tuple[str, str, str], int]] = field(default_factory=list)
    session: str | None = None

    def vote_once(self, client: httpx.Client, step: int) -> None:
        params = {"q": f"mul comm {step}", "k": 5, **({"session": self.session} if self.session else {})}
        answer = client.get(f"{self.url}/api/v1/search", params=params).json()
        self.session = answer["session"]
        result = answer["results"][step % len(answer["results"])]
        body = {"session": self.session, "query": answer["query"], "result_id": result["id"],
                "vote": 1 if step % 2 else -1, "rank": result["rank"], "filters": answer["filters"]}
        response = client.post(f"{self.url}/api/v1/feedback", json=body)
        assert response.status_code == 200 and response.json()["saved"] is True, response.text
        self.acknowledged.append((time.monotonic(), (self.session, answer["query"], result["id"]), body["vote"]))

    def vote_for(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        with httpx.Client(timeout=30) as client:
            while time.monotonic() < deadline:
                self.vote_once(client, len(self.acknowledged))


def database_votes(db: Path) -> dict[tuple[str, str, str], int]:
    connection = sqlite3.connect(db)
    try:
        return {(s, q, r): v for s, q, r, v in connection.execute("SELECT session, query, result_id, vote FROM votes")}
    finally:
        connection.close()


def sync_app(small_index: Path, local_hub: LocalHub, db: Path, log: Path) -> AppProcess:
    env = {**local_hub.env, "FEEDBACK_REPO": "hf://datasets/me/votes", **ONE_ADDRESS,
           "FEEDBACK_SYNC_MINUTES": str(PERIOD_SECONDS / 60)}
    return AppProcess(small_index, db, log, env)


def test_sigkill_on_a_wiped_disk_loses_nothing_older_than_one_period(small_index: Path, local_hub: LocalHub,
                                                                    tmp_path: Path) -> None:
    first = sync_app(small_index, local_hub, tmp_path / "one" / "votes.sqlite", tmp_path / "app.log")
    first.start()
    voter = Voter(first.url)
    try:
        voter.vote_for(3 * PERIOD_SECONDS)
    finally:
        killed_at = time.monotonic()
        first.kill()
    old_enough = {key: value for at, key, value in voter.acknowledged if at < killed_at - PERIOD_SECONDS - PUSH_SECONDS}
    sent = {key for _, key, _ in voter.acknowledged}
    assert len(old_enough) >= 5, f"only {len(old_enough)} votes old enough to check; the machine is too slow"
    on_hub = {(v.session, v.query, v.result_id): v.vote for v in hub_votes(local_hub)}
    assert old_enough.items() <= on_hub.items()
    assert set(on_hub) <= sent  # nothing the client did not send
    print(f"\nvotes acknowledged {len(sent)}, acknowledged more than {PERIOD_SECONDS + PUSH_SECONDS:g} s before "
          f"the SIGKILL {len(old_enough)}, on the Hub after it {len(on_hub)}, lost {len(sent - set(on_hub))}")

    # A new server on an empty disk (a Space restarted without persistent storage).
    second = sync_app(small_index, local_hub, tmp_path / "two" / "votes.sqlite", tmp_path / "app.log")
    second.start()
    try:
        restored = database_votes(tmp_path / "two" / "votes.sqlite")
        assert restored == on_hub
        Voter(second.url).vote_for(0.1)  # still takes votes after the restore
    finally:
        second.kill()


def test_a_clean_stop_pushes_every_acknowledged_vote(small_index: Path, local_hub: LocalHub, tmp_path: Path) -> None:
    app = sync_app(small_index, local_hub, tmp_path / "votes.sqlite", tmp_path / "app.log")
    app.env["FEEDBACK_SYNC_MINUTES"] = "60"  # no scheduled push during the test: only the one at exit
    app.start()
    voter = Voter(app.url)
    try:
        voter.vote_for(1.0)
    finally:
        assert app.process is not None
        app.process.send_signal(signal.SIGTERM)  # what a Space's restart sends first
        app.process.wait(timeout=60)
    acknowledged = {key: value for _, key, value in voter.acknowledged}
    assert {(v.session, v.query, v.result_id): v.vote for v in hub_votes(local_hub)} == acknowledged


def test_each_worker_syncs_its_votes_and_a_clean_stop_pushes_them(small_index: Path, local_hub: LocalHub,
                                                                  tmp_path: Path) -> None:
    """`--workers 2` with FEEDBACK_REPO: each worker starts its own sync as it starts serving
    (app.py `make_worker_app`), and SIGTERM to the parent stops the workers, each pushing its votes."""
    app = sync_app(small_index, local_hub, tmp_path / "votes.sqlite", tmp_path / "app.log")
    app.env["FEEDBACK_SYNC_MINUTES"] = "60"  # no scheduled push during the test: only the ones at exit
    app.workers = 2
    app.start()
    voters = [Voter(app.url), Voter(app.url)]
    try:
        for voter in voters:
            voter.vote_for(1.0)
    finally:
        assert app.process is not None
        app.process.send_signal(signal.SIGTERM)
        app.process.wait(timeout=90)
    acknowledged = {key: value for voter in voters for _, key, value in voter.acknowledged}
    assert {(v.session, v.query, v.result_id): v.vote for v in hub_votes(local_hub)} == acknowledged
    assert database_votes(tmp_path / "votes.sqlite") == acknowledged
    log = app.log.read_text()
    assert log.count("votes pushed to the Hub at shutdown") == 2, log[-3000:]

