"""Votes on results, kept in SQLite in WAL mode so that an acknowledged vote is never lost.

One row per (session, query, result): a second click by the same anonymous session on the same
result for the same query replaces the first. `synchronous=FULL` makes each commit
reach the disk before `vote` returns, so a vote survives the server being killed right after
the user saw it acknowledged. Each row also keeps a keyed hash of the client's address
(search/feedback/sessions.py), so that the votes of one address on one query can be capped
and the export can count addresses rather than sessions.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

from search.feedback.connection import ProcessConnection, UsesProcessConnection

#: Bumped when the table changes shape; stored in SQLite's `user_version`. Version 2 added
#: `address` (rows of version 1 have "" there).
SCHEMA_VERSION = 2
#: Longest query, session id and result id accepted (the app cuts queries shorter).
MAX_TEXT = 2000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS votes (
    session TEXT NOT NULL,
    query TEXT NOT NULL,
    result_id TEXT NOT NULL,
    vote INTEGER NOT NULL CHECK (vote IN (-1, 1)),
    rank INTEGER NOT NULL,
    filters TEXT NOT NULL,
    variant TEXT NOT NULL,
    index_version TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (session, query, result_id)
)
"""
_ADDRESS_INDEX = "CREATE INDEX IF NOT EXISTS votes_by_address ON votes (address, query)"
_COLUMNS = "session, query, result_id, vote, rank, filters, variant, index_version, timestamp, address"
_UPSERT = (
    f"INSERT INTO votes ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (session, query, result_id) DO UPDATE SET vote = excluded.vote,"
    " rank = excluded.rank, filters = excluded.filters, variant = excluded.variant,"
    " index_version = excluded.index_version, timestamp = excluded.timestamp,"
    " address = excluded.address"
)


class FeedbackError(ValueError):
    """A vote that cannot be stored as given (the message says which field is wrong)."""


class TooManyVotes(FeedbackError):
    """The client's address has voted on this query as many times as one address may."""


@dataclass(frozen=True)
class Vote:
    """One thumb: who (anonymous session), on what (query, filters, result at rank), which way."""

    session: str
    query: str
    result_id: str
    vote: int
    rank: int
    filters: dict[str, Any] = field(default_factory=dict)
    variant: str = "default"
    index_version: str = ""
    timestamp: str = ""
    #: The keyed hash of the client's address ("" for votes from before it was kept).
    address: str = ""


class FeedbackStore(UsesProcessConnection):
    """A SQLite file of votes, safe to share between the threads and the worker processes of one server."""

    def __init__(self, path: Path | str, mirror: Callable[[Vote], None] | None = None) -> None:
        """`mirror` is handed each vote once it is committed, before `vote` returns (the Hub
        sync of search/feedback/hub_sync.py appends it to the file it pushes)."""
        self.path = Path(path)
        self.mirror = mirror
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._connection = ProcessConnection(self._connect)
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute(_SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(votes)")}
            if "address" not in columns:  # a database of version 1
                self._db.execute("ALTER TABLE votes ADD COLUMN address TEXT NOT NULL DEFAULT ''")
            self._db.execute(_ADDRESS_INDEX)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        finally:
            self._connection.release()  # each process opens its own (search/feedback/connection.py)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode.lower() != "wal":
            db.close()
            raise FeedbackError(f"{self.path}: SQLite refused WAL mode (got {mode})")
        db.execute("PRAGMA synchronous=FULL")
        return db

    def vote(self, vote: Vote, per_address: int | None = None) -> Vote:
        """Store (or replace) a vote and return it once it is committed to disk. With
        `per_address`, a new vote (not one replacing this session's own) is refused with
        TooManyVotes when the vote's address has that many votes on the query already."""
        _check(vote)
        stamped = Vote(**{**vote.__dict__, "timestamp": vote.timestamp or _now()})
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if per_address is not None:
                    _check_cap(self._db, stamped, per_address)
                self._db.execute(_UPSERT, _row(stamped))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            if self.mirror is not None:
                self.mirror(stamped)
        return stamped

    def restore(self, votes: list[Vote]) -> int:
        """Put back votes kept elsewhere (the Hub copy, after a restart on an empty disk), in
        one transaction: a vote replaces the stored one for its session, query and result only
        when it is newer, so replaying a history in any order ends at each key's last vote.
        Not mirrored (they came from the mirror); a vote that fails the checks a new vote
        passes is left out. Returns how many rows were written (inserted or replaced)."""
        votes = [vote for vote in votes if _valid(vote)]
        with self._lock:
            before = self._db.total_changes
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(_UPSERT + " WHERE excluded.timestamp > votes.timestamp",
                                     [_row(vote) for vote in votes])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            return self._db.total_changes - before

    def session_votes(self, session: str, query: str) -> dict[str, int]:
        """This session's votes for this query, by result id (to show which thumb is on)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT result_id, vote FROM votes WHERE session = ? AND query = ?", (session, query)
            ).fetchall()
        return {result_id: vote for result_id, vote in rows}

    def votes(self) -> Iterator[Vote]:
        """Every stored vote, oldest first."""
        with self._lock:
            rows = self._db.execute(f"SELECT {_COLUMNS} FROM votes ORDER BY timestamp, rowid").fetchall()
        for session, query, result_id, value, rank, filters, variant, version, timestamp, address in rows:
            yield Vote(session, query, result_id, value, rank, json.loads(filters), variant, version, timestamp, address)

    def close(self) -> None:
        self._connection.close()


def _row(vote: Vote) -> tuple[Any, ...]:
    """A vote as the values of one row, in the order of _COLUMNS."""
    return (vote.session, vote.query, vote.result_id, vote.vote, vote.rank,
            json.dumps(vote.filters, sort_keys=True, ensure_ascii=False),
            vote.variant, vote.index_version, vote.timestamp, vote.address)


def _check(vote: Vote) -> None:
    if vote.vote not in (-1, 1):
        raise FeedbackError(f"a vote is +1 or -1, not {vote.vote!r}")
    for name in ("session", "query", "result_id"):
        value = getattr(vote, name)
        if not isinstance(value, str) or not value.strip():
            raise FeedbackError(f"a vote needs a non-empty {name}")
        if len(value) > MAX_TEXT:
            raise FeedbackError(f"{name} is longer than {MAX_TEXT} characters")
    if not isinstance(vote.rank, int) or vote.rank < 1:
        raise FeedbackError(f"rank must be a positive integer, not {vote.rank!r}")


def _valid(vote: Vote) -> bool:
    try:
        _check(vote)
    except FeedbackError:
        return False
    return True


def _check_cap(db: sqlite3.Connection, vote: Vote, per_address: int) -> None:
    """Within the vote's transaction: refuse a new vote past the address's allowance."""
    replacing = db.execute(
        "SELECT 1 FROM votes WHERE session = ? AND query = ? AND result_id = ?",
        (vote.session, vote.query, vote.result_id),
    ).fetchone()
    if replacing:
        return
    count = db.execute(
        "SELECT COUNT(*) FROM votes WHERE address = ? AND query = ?", (vote.address, vote.query)
    ).fetchone()[0]
    if count >= per_address:
        raise TooManyVotes(f"this address has {count} votes on this query already; at most {per_address} are taken")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
