"""What the server showed each session lately: the result lists a vote may be about.

A vote is taken only on a result that the server returned to that session for that query,
filters and ranking variant, at that rank, within `max_age` seconds. Each search writes its
list here (one row per session and search, the latest list replacing an older one of the same
search); rows older than `max_age` and, past `max_lists` rows, the oldest are deleted as new
ones come, so the file stays bounded. A list written again gets a new row number (a replace,
not an update), so row numbers follow the order lists were written and the oldest past the
bound are a range of row numbers: deleting them needs no count of the table (on a server that
had served 100k lists, with a 53 MB write-ahead log, the count was half of the time a search
spent here, py-spy; with a log of normal size neither way showed in the CPU per request).

It is a SQLite file of its own beside the vote database, not a table in it: its writes (one per
search) and deletions never share a transaction or a lock with the votes, so they can neither
delay nor undo a vote. A crash may lose the last lists (`synchronous=NORMAL`); a vote on one of
them is then refused until the client searches again, which loses nothing acknowledged.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Iterable

from search.feedback.connection import ProcessConnection, UsesProcessConnection

_SCHEMA = """
CREATE TABLE IF NOT EXISTS served (
    session TEXT NOT NULL,
    search TEXT NOT NULL,
    results TEXT NOT NULL,
    served_at REAL NOT NULL,
    PRIMARY KEY (session, search)
);
CREATE INDEX IF NOT EXISTS served_age ON served (served_at);
"""
#: Lists written between two bounds checks (each check is a count and maybe a delete), at
#: most; a tenth of `max_lists` when that is less, so the file holds at most 1.1 × `max_lists`.
PRUNE_EVERY = 500


def search_key(query: str, filters: dict[str, list[str]], variant: str) -> str:
    """One search as text: the same query, filters (in any order) and variant give the same key."""
    canonical = {key: sorted(set(values)) for key, values in filters.items() if values}
    return json.dumps([query, canonical, variant], sort_keys=True, ensure_ascii=False)


class ServedResults(UsesProcessConnection):
    """The bounded record of result lists served to sessions."""

    def __init__(self, path: Path | str, max_age: float, max_lists: int) -> None:
        self.path = Path(path)
        self.max_age = max_age
        self.max_lists = max_lists
        self._written = 0
        self._prune_every = max(1, min(PRUNE_EVERY, max_lists // 10))
        self._connection = ProcessConnection(self._connect)
        self._db.executescript(_SCHEMA)
        self._connection.release()  # each process opens its own (search/feedback/connection.py)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def record(self, session: str, search: str, results: Iterable[tuple[str, int]], now: float | None = None) -> None:
        """Remember that `session` was shown these (result id, rank) pairs for `search`."""
        now = time.time() if now is None else now
        ranks = json.dumps(dict(results), ensure_ascii=False)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO served (session, search, results, served_at) VALUES (?, ?, ?, ?)",
                (session, search, ranks, now),
            )
            self._written += 1
            if self._written % self._prune_every == 0:
                self._prune(now)

    def rank(self, session: str, search: str, result_id: str, now: float | None = None) -> int | None:
        """The rank at which `result_id` was served to `session` for `search` within the
        last `max_age` seconds, or None."""
        now = time.time() if now is None else now
        with self._lock:
            row = self._db.execute(
                "SELECT results FROM served WHERE session = ? AND search = ? AND served_at >= ?",
                (session, search, now - self.max_age),
            ).fetchone()
        return None if row is None else json.loads(row[0]).get(result_id)

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM served").fetchone()[0]

    def prune(self, now: float | None = None) -> None:
        """Delete the lists past `max_age`, then the oldest past `max_lists`."""
        with self._lock:
            self._prune(time.time() if now is None else now)

    def _prune(self, now: float) -> None:
        self._db.execute("DELETE FROM served WHERE served_at < ?", (now - self.max_age,))
        self._db.execute("DELETE FROM served WHERE rowid <= (SELECT max(rowid) FROM served) - ?", (self.max_lists,))

    def close(self) -> None:
        self._connection.close()
