"""Connections to PostgreSQL: addresses, one-line errors, one connection per thread.

An index address is a libpq URI, optionally naming the schema of one loaded index after `#`
(`postgresql://host/db#index_20261124002215_ab12cd34`); without it the index loaded last is
served.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import psycopg

from search.index.manifest import IndexLoadError

def split_address(spec: str) -> tuple[str, str | None]:
    """(libpq URI, schema or None) of `postgresql://...[#SCHEMA]`."""
    dsn, _, schema = spec.partition("#")
    return dsn, schema or None


def connect(dsn: str, **settings: Any) -> psycopg.Connection:
    """An autocommit connection, or IndexLoadError saying why none could be made (in one line:
    libpq's messages span several)."""
    try:
        connection = psycopg.connect(dsn, autocommit=True, connect_timeout=10)
    except (psycopg.Error, ValueError) as error:
        raise IndexLoadError(f"{redacted(dsn)}: PostgreSQL could not be reached ({one_line(error)})") from error
    for name, value in settings.items():
        connection.execute("SELECT set_config(%s, %s, false)", (name, str(value)))
    return connection


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def redacted(dsn: str) -> str:
    """The address without its password, for messages and logs."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "the PostgreSQL address"
    if "password" not in info:
        return dsn
    info["password"] = "***"
    return psycopg.conninfo.make_conninfo(**info)


class Connections:
    """One connection per thread and process, opened on first use with `settings`
    (`search_path`, HNSW breadth, ...): the server answers requests on a few threads, and each
    worker of the multi-worker server forks after the index is opened, so a connection is
    never shared between threads or inherited across a fork."""

    def __init__(self, dsn: str, settings: dict[str, Any]) -> None:
        self.dsn = dsn
        self.settings = settings
        self._local = threading.local()

    def get(self) -> psycopg.Connection:
        held = getattr(self._local, "held", None)
        if held is None or held[0] != os.getpid() or held[1].closed:
            held = (os.getpid(), connect(self.dsn, **self.settings))
            self._local.held = held
        return held[1]
