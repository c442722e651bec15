"""Real servers for tests that need one: an ASGI app served by uvicorn in a thread (a browser,
an MCP client), or `python app.py` in a child process that a test can load, kill with SIGKILL
and start again (the load and crash tests)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import httpx
import psutil

REPO = Path(__file__).resolve().parents[1]
#: The bounds per client address turned off (requests per minute, connections and requests in
#: progress): a test's many clients on loopback are one address (tests/api/test_guard.py and
#: tests/reliability/test_slow_clients.py test the bounds themselves).
ONE_ADDRESS = {"RATE_LIMIT_PER_MINUTE": "0", "CONNECTIONS_PER_ADDRESS": "0"}


def free_port() -> int:
    """A TCP port nothing listens on now (the OS picks it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def live_server(app: Any, start_timeout: float = 60) -> Iterator[str]:
    """Yield the server's base URL (`http://127.0.0.1:PORT`) while it runs; stop it after."""
    import uvicorn

    from search.api.connections import server_options

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **server_options()))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@dataclass
class AppProcess:
    """`python app.py --index INDEX --feedback-db DB --port PORT` as a child process, on the same
    port and database each time it is started; its log goes to `log`."""

    index: Path
    feedback_db: Path
    log: Path
    env: dict[str, str] = field(default_factory=dict)
    workers: int = 1
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 180) -> float:
        """Start the app and wait until it answers; the seconds that took."""
        started = time.monotonic()
        command = [sys.executable, str(REPO / "app.py"), "--index", str(self.index),
                   "--feedback-db", str(self.feedback_db), "--port", str(self.port), "--workers", str(self.workers)]
        with self.log.open("ab") as log:  # a session of its own: a kill reaches its workers too
            self.process = subprocess.Popen(command, cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
                                            env={**os.environ, **self.env}, start_new_session=True)
        while True:
            if self.process.poll() is not None:
                raise AssertionError(f"app.py exited with {self.process.returncode}:\n{self.log.read_text()[-3000:]}")
            assert time.monotonic() - started < timeout, f"app.py did not answer within {timeout} s"
            try:
                if httpx.get(f"{self.url}/api/v1/index", timeout=5).status_code == 200:
                    return time.monotonic() - started
            except httpx.HTTPError:
                pass
            time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL to the app and its workers: no shutdown handler, no flush, no close."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def rss_bytes(self) -> int:
        """The memory the app holds now, over its processes (its workers too): PSS summed
        (psutil `memory_full_info`; a page shared by several processes is split between them,
        so the sum counts it once; for one process, its RSS less its share of shared libraries)."""
        assert self.process is not None
        parent = psutil.Process(self.process.pid)
        total = 0
        for member in (parent, *parent.children(recursive=True)):
            try:
                total += member.memory_full_info().pss
            except psutil.NoSuchProcess:
                continue
        return total


@contextmanager
def app_process(index: Path, feedback_db: Path, log: Path, env: dict[str, str] | None = None,
                workers: int = 1) -> Iterator[AppProcess]:
    """A started AppProcess, killed when the block ends (whatever state it is in)."""
    app = AppProcess(index, feedback_db, log, env or {}, workers)
    try:
        app.start()
        yield app
    finally:
        if app.process is not None and app.process.poll() is None:
            app.kill()
