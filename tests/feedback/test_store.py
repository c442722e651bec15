"""The vote store: one vote per session, result and query; WAL mode; votes survive a kill."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from search.feedback.store import FeedbackError, FeedbackStore, TooManyVotes, Vote


def _vote(**changes) -> Vote:
    fields = dict(
        session="s1", query="mul comm", result_id="mathlib:mul_comm", vote=1, rank=1,
        filters={"source": ["mathlib"]}, variant="default", index_version="built today",
    )
    return Vote(**{**fields, **changes})


def test_second_click_changes_the_vote(tmp_path: Path) -> None:
    store = FeedbackStore(tmp_path / "f.sqlite")
    store.vote(_vote())
    store.vote(_vote(vote=-1, rank=3))
    store.vote(_vote(session="s2"))  # another session
    store.vote(_vote(query="commutativity"))  # another query
    store.vote(_vote(result_id="mathlib:add_comm", vote=-1, rank=2))  # another result
    votes = list(store.votes())
    assert len(votes) == 4
    first = [v for v in votes if (v.session, v.query, v.result_id) == ("s1", "mul comm", "mathlib:mul_comm")]
    assert [(v.vote, v.rank) for v in first] == [(-1, 3)]
    assert first[0].filters == {"source": ["mathlib"]} and first[0].index_version == "built today"
    assert first[0].timestamp.endswith("+00:00")
    assert store.session_votes("s1", "mul comm") == {"mathlib:mul_comm": -1, "mathlib:add_comm": -1}
    assert store.session_votes("s3", "mul comm") == {}


def test_wal_mode_and_schema_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite"
    FeedbackStore(path).vote(_vote())
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    columns = [row[1] for row in db.execute("PRAGMA table_info(votes)")]
    assert columns == [
        "session", "query", "result_id", "vote", "rank", "filters", "variant", "index_version", "timestamp",
        "address",
    ]
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2


def test_a_version_1_database_gains_the_address_column_and_keeps_its_votes(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE votes (session TEXT NOT NULL, query TEXT NOT NULL, result_id TEXT NOT NULL,"
        " vote INTEGER NOT NULL CHECK (vote IN (-1, 1)), rank INTEGER NOT NULL, filters TEXT NOT NULL,"
        " variant TEXT NOT NULL, index_version TEXT NOT NULL, timestamp TEXT NOT NULL,"
        " PRIMARY KEY (session, query, result_id))"
    )
    db.execute("INSERT INTO votes VALUES ('s', 'q', 'm:x', 1, 1, '{}', 'default', 'v', '2025-01-01T00:00:00+00:00')")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    store = FeedbackStore(path)
    assert [(v.session, v.result_id, v.address) for v in store.votes()] == [("s", "m:x", "")]
    store.vote(_vote(address="k1"))
    assert {v.address for v in store.votes()} == {"", "k1"}


def test_an_address_may_cast_so_many_new_votes_on_a_query(tmp_path: Path) -> None:
    store = FeedbackStore(tmp_path / "f.sqlite")
    for n in range(3):
        store.vote(_vote(session=f"s{n}", address="k1"), per_address=3)
    with pytest.raises(TooManyVotes, match="has 3 votes on this query already; at most 3"):
        store.vote(_vote(session="s9", address="k1"), per_address=3)
    store.vote(_vote(session="s0", address="k1", vote=-1), per_address=3)  # changing one's own vote
    store.vote(_vote(session="s9", address="k2"), per_address=3)  # another address
    store.vote(_vote(session="s9", address="k1", query="other"), per_address=3)  # another query
    assert len(list(store.votes())) == 5 and [v.vote for v in store.votes() if v.session == "s0"] == [-1]


@pytest.mark.parametrize(
    "changes, message",
    [({"vote": 2}, r"\+1 or -1"), ({"query": "  "}, "query"), ({"session": ""}, "session"),
     ({"rank": 0}, "rank"), ({"result_id": "x" * 5000}, "longer")],
)
def test_bad_votes_are_refused_with_a_reason(tmp_path: Path, changes: dict, message: str) -> None:
    store = FeedbackStore(tmp_path / "f.sqlite")
    with pytest.raises(FeedbackError, match=message):
        store.vote(_vote(**changes))
    assert list(store.votes()) == []


def test_acknowledged_vote_survives_a_killed_process(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite"
    script = (
        "import sys, time\n"
        "from search.feedback.store import FeedbackStore, Vote\n"
        f"FeedbackStore({str(path)!r}).vote(Vote('s', 'q', 'mathlib:x', 1, 1))\n"
        "print('ack', flush=True)\n"
        "time.sleep(60)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "ack"
    finally:
        process.kill()  # SIGKILL: no cleanup, no close
        process.wait()
    assert [(v.query, v.result_id, v.vote) for v in FeedbackStore(path).votes()] == [("q", "mathlib:x", 1)]


def test_workers_forked_from_one_store_share_its_votes_and_cap(tmp_path: Path) -> None:
    """The multi-worker server builds the store in its parent and forks workers from it
    (search/api/workers.py): each child writes through its own connection, the cap per address
    counts every process's votes, and the parent reads them all."""
    store = FeedbackStore(tmp_path / "f.sqlite")
    store.vote(_vote(session="parent", address="a"))  # the parent used it before forking
    children = []
    for n in range(3):
        pid = os.fork()
        if pid == 0:  # a worker: three votes from address "a", capped at 4 over all processes
            code = 0
            try:
                for m in range(3):
                    try:
                        store.vote(_vote(session=f"w{n}-{m}", address="a"), per_address=4)
                    except TooManyVotes:
                        code += 1
            finally:
                os._exit(code)
        children.append(pid)
    refused = sum(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children)
    votes = list(store.votes())
    assert len(votes) == 4 and refused == 6
    assert sqlite3.connect(tmp_path / "f.sqlite").execute("PRAGMA integrity_check").fetchone() == ("ok",)
