"""Several worker processes over one index loaded once: gunicorn's arbiter forks uvicorn
workers (the `uvicorn-worker` package) from a parent that has loaded the index.

Why fork after loading: the index (the HNSW graph's links, the name tables, the filter
catalogue, the dependency graph) is most of the server's memory, and no request writes to it.
Loaded in the parent (`preload_app`), its pages are shared copy-on-write by every worker, so a
second worker costs its own heap and query encoder, not a second index. The records, vectors
and BM25+ postings are mapped from their files (search/record.py `read_records`,
`config.INDEX_MMAP`, search/index/dense.py and lexical.py); faiss reads the graph's links into
memory and the tables are Python objects, hence the sharing by fork for the rest.
`gc.freeze()` before forking keeps the collector from writing to every object header of the
shared heap in each worker.

What is per worker: the query encoder (an onnxruntime session holds threads, which a fork
does not carry over, so each worker opens its own, `after_fork`), SQLite connections (opened
where used, search/feedback/connection.py), the Hub vote sync (its own vote file and push
scheduler, started as the worker starts serving: app.py `make_worker_app`), the rate
limiter's counts (search/api/guard.py).

Sharing the work: each worker answers as many requests at once as its share of the cores, each
search on one thread (`config.SEARCH_THREADS`), and the workers even out their connections
(`ConnectionBalance`), since whichever worker wakes first takes every connection waiting on
the shared socket.

Swapping the index without downtime: SIGHUP to the parent (which loads the index at the path
it serves again, e.g. a symlink pointed at a new build; or `POST /api/v1/admin/index`,
search/api/admin.py, which writes the directory asked for and sends it) makes the parent load
the new index while the old workers go on serving; then gunicorn starts new workers forked
from it and stops the old ones gracefully, so that requests in flight finish on the old index
and new connections reach the new one. An index that fails to load leaves the old one serving.
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import multiprocessing
import os
import signal
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, Callable

from gunicorn.app.base import BaseApplication
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker

from search.api.connections import server_options
from search.api.startup import long_lived
from search.index.manifest import IndexLoadError

log = logging.getLogger(__name__)

#: Seconds a stopping worker has to finish its requests in flight (on a swap or a shutdown).
GRACEFUL_SECONDS = 60
#: Seconds an idle connection is kept open (gunicorn's `keepalive`, uvicorn's keep-alive time).
KEEPALIVE_SECONDS = 5


class DrainingServer(Server):
    """uvicorn's server, which on SIGTERM first drains its connections (see the module's doc)."""

    draining = False

    def __init__(self, config: Any, on_drain: Callable[[], None]) -> None:
        super().__init__(config)
        #: Called as draining starts (the worker leaves the `ConnectionBalance`).
        self.on_drain = on_drain

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if sig != signal.SIGTERM or self.draining or self.should_exit:
            super().handle_exit(sig, frame)
            return
        self.draining = True
        self.on_drain()
        self._captured_signals.append(sig)  # re-raised after serving, as uvicorn does
        asyncio.get_running_loop().call_soon_threadsafe(lambda: asyncio.ensure_future(self._drain()))

    async def _drain(self) -> None:
        """Stop accepting (new connections go to the other workers), let every connection
        already accepted finish (each response says `Connection: close`), then exit.

        Accepting stops by taking the listening sockets out of the event loop, not by
        `Server.close()`: asyncio (CPython 3.11) drops a connection it accepted just before
        `close()` but makes its transport just after (`Server._attach` asserts the server still
        has sockets; the error is swallowed and the socket closed), and its client sees a reset.
        uvicorn's shutdown closes the servers once the connections are gone."""
        loop = asyncio.get_running_loop()
        for server in self.servers:
            for listening in server.sockets:
                loop.remove_reader(listening.fileno())
        deadline = time.monotonic() + KEEPALIVE_SECONDS + 1
        while True:
            await asyncio.sleep(0.05)  # first of all: connections accepted before now get their transport
            if not self.server_state.connections or time.monotonic() >= deadline:
                break
        self.should_exit = True


class ConnectionBalance:
    """How many connections each worker holds, in memory shared by the workers, so that a
    worker holding more than another (plus one) closes a connection after its response.

    Why: the workers accept from one listening socket, and whichever wakes first takes every
    connection waiting. Clients that open their connections at once and keep them alive (a
    pool of 16, as the throughput benchmark's) often all landed in one worker, which served
    them on one core while the other idled: 79 instead of 148 requests/s, in 2 of 3 runs.
    A closed connection is opened again by its client and may land in either worker; the
    worker that holds too many goes on closing until the counts even out. Each worker writes
    its own slot (its gunicorn age modulo the slots, so workers old and new during a swap each
    have theirs); a draining worker, or one that exited, counts for nothing (`release`, and a
    process that is gone is skipped)."""

    def __init__(self, workers: int) -> None:
        slots = 4 * max(workers, 1)
        self._pids = multiprocessing.RawArray(ctypes.c_long, slots)
        self._counts = multiprocessing.RawArray(ctypes.c_long, slots)

    def slot(self, age: int) -> int:
        """The slot of the worker of this gunicorn age, claimed for this process."""
        slot = age % len(self._pids)
        self._pids[slot] = os.getpid()
        return slot

    def release(self, slot: int) -> None:
        self._pids[slot] = 0

    def crowded(self, slot: int, connections: int) -> bool:
        """Record this worker's `connections`; whether another serving worker holds fewer by
        more than one."""
        self._counts[slot] = connections
        fewest = min((self._counts[other] for other, pid in enumerate(self._pids)
                      if pid and other != slot and _alive(pid)), default=connections)
        return connections > fewest + 1


def _alive(pid: int) -> bool:
    """Whether this user's process `pid` runs (another user's means the pid was reused)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


class CloseWhenDraining:
    """ASGI middleware: while its server drains, or while its worker holds more connections
    than another (`ConnectionBalance`), every response says `Connection: close`."""

    def __init__(self, app: Any, server: DrainingServer, balance: ConnectionBalance, slot: int) -> None:
        self.app = app
        self.server = server
        self.balance = balance
        self.slot = slot

    def closes(self) -> bool:
        return self.server.draining or self.balance.crowded(self.slot, len(self.server.server_state.connections))

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def closing(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start" and self.closes():
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"connection"]
                message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        await self.app(scope, receive, closing)


class DrainingWorker(UvicornWorker):  # type: ignore[misc]
    """The `uvicorn-worker` worker, serving through `DrainingServer`, reading HTTP as the
    single-process server does (search/api/connections.py `server_options`: deadlines for
    slow requests, bounds on connections, no uvicorn reading of `X-Forwarded-For`)."""

    CONFIG_KWARGS = {"loop": "auto", **server_options()}

    async def _serve(self) -> None:
        balance: ConnectionBalance = self.app.balance
        slot = balance.slot(self.age)
        server = DrainingServer(self.config, on_drain=lambda: balance.release(slot))
        self.config.app = CloseWhenDraining(self.wsgi, server, balance, slot)
        self._install_sigquit_handler()
        try:
            await server.serve(sockets=self.sockets)
        finally:
            balance.release(slot)
        if not server.started:
            raise SystemExit(3)  # gunicorn's Arbiter.WORKER_BOOT_ERROR, as UvicornWorker exits


@dataclass
class Loaded:
    """An application loaded in the parent, and what each worker does after the fork."""

    app: Any  # an ASGI application
    after_fork: Callable[[], None]


class WorkerServer(BaseApplication):  # type: ignore[misc]
    """`WorkerServer(load, index_spec, ...).run()`: `load(index_spec)` in this process, then
    `workers` forked workers serving its app on host:port."""

    def __init__(self, load: Callable[[str, Callable[[str], None]], Loaded], index_spec: str, host: str,
                 port: int, workers: int) -> None:
        self._load = load
        self.index_spec = index_spec
        self.options = {
            "bind": f"{host}:{port}", "workers": workers, "worker_class": "search.api.workers.DrainingWorker",
            "preload_app": True, "graceful_timeout": GRACEFUL_SECONDS, "timeout": 120, "keepalive": KEEPALIVE_SECONDS,
            "loglevel": "warning", "post_fork": self._post_fork,
        }
        handle, name = tempfile.mkstemp(prefix="index-swap-", suffix=".txt")
        os.close(handle)
        self.swap_file = Path(name)  # the index the next SIGHUP loads ("" = the current one again)
        self.balance = ConnectionBalance(workers)
        self.loaded: Loaded | None = None
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        """In the parent, before forking: the first index (an IndexLoadError ends the start)."""
        with long_lived():
            self.loaded = self._load(self.index_spec, self.request_swap)
        return self.loaded.app

    def request_swap(self, index_spec: str) -> None:
        """From a worker: ask the parent (its parent process) to swap to `index_spec`."""
        self.swap_file.write_text(index_spec)
        os.kill(os.getppid(), signal.SIGHUP)

    def reload(self) -> None:
        """On SIGHUP, in the parent: load the index asked for; gunicorn then replaces the workers."""
        super().reload()
        asked = self.swap_file.read_text().strip() or self.index_spec
        with long_lived(dropping=True):
            try:
                loaded = self._load(asked, self.request_swap)
            except IndexLoadError as error:
                log.error("index swap to %s refused, still serving %s: %s", asked, self.index_spec, error)
            else:
                self.loaded, self.index_spec, self.callable = loaded, asked, loaded.app
                log.warning("index swapped to %s; new workers serve it, old ones finish their requests", asked)

    def _post_fork(self, _arbiter: Any, _worker: Any) -> None:
        if self.loaded is not None:
            self.loaded.after_fork()


def serve(load: Callable[[str, Callable[[str], None]], Loaded], index_spec: str, host: str, port: int,
          workers: int) -> None:
    """Serve until stopped (SIGINT or SIGTERM to the parent)."""
    server = WorkerServer(load, index_spec, host, port, workers)
    try:
        server.run()
    finally:
        server.swap_file.unlink(missing_ok=True)
