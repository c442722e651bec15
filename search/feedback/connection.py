"""A SQLite connection per process, opened where it is used.

A SQLite connection must not be carried across `fork()` (SQLite's "How To Corrupt An SQLite
Database File", section 2.6): the server with several workers (search/api/workers.py) builds
the vote stores in its parent process and forks the workers from it. Each store therefore
opens its connection lazily, in the process that first uses it, and opens a new one when it
finds itself in another process; the parent closes the one it used to set the schema up
(`release`), so that no open connection is inherited. SQLite's own file locks then keep the
workers' writes consistent, as they do for any processes sharing a database file.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from typing import Callable


class ProcessConnection:
    """The connection of the current process, made by `connect`, and a lock for its threads."""

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self._connect = connect
        self._pid: int | None = None
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._closed = False

    def _own(self) -> None:
        if self._pid != os.getpid():  # first use here, or a forked copy of another process's store
            self._lock = threading.Lock()  # a copy of the parent's lock may be held by a thread it had
            self._db = None  # the parent's connection is left to the parent, never used or closed here
            self._pid = os.getpid()

    @property
    def lock(self) -> threading.Lock:
        self._own()
        return self._lock

    @property
    def db(self) -> sqlite3.Connection:
        """The connection (opened now if this process has none); use it under `lock`."""
        self._own()
        if self._closed:
            raise sqlite3.ProgrammingError("the store has been closed")
        if self._db is None:
            self._db = self._connect()
        return self._db

    def release(self) -> None:
        """Close this process's connection; the next use opens a new one."""
        self._own()
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def close(self) -> None:
        """Close this process's connection for good: using it again raises sqlite3.ProgrammingError."""
        self.release()
        self._closed = True


class UsesProcessConnection:
    """For a store holding a ProcessConnection in `_connection`: its connection and lock."""

    _connection: ProcessConnection

    @property
    def _db(self) -> sqlite3.Connection:
        return self._connection.db

    @property
    def _lock(self) -> threading.Lock:
        return self._connection.lock
