"""The search app: `python app.py [--index DIR | --index hf://datasets/OWNER/NAME | --index postgresql://...] [--port N]`
(`--index NAME=DIR` repeated serves several indexes, the first the default).

One server: the HTTP APIs at their paths and the Gradio search page at `/`. The index comes
from `--index`, else `INDEX_DIR`, else `./index`; an `hf://` address is fetched from the
Hugging Face Hub once (`huggingface_hub.snapshot_download`, kept in its cache), for a Space.
Votes (the page's thumbs and `POST /api/v1/feedback`) go to `--feedback-db`, else
`FEEDBACK_DB`, else `/data/feedback.sqlite` on a persistent disk, else `feedback.sqlite` in the
data folder (`THEOREM_SEARCH_DATA`, else platformdirs' user data folder);
with `--feedback-repo` / `FEEDBACK_REPO=hf://datasets/OWNER/NAME` they are also pushed there.
Every request passes the guard of `search/api/guard.py` (body size, requests per client per
minute: `API_MAX_BODY_BYTES`, `RATE_LIMIT_PER_MINUTE`); behind proxies (a Space's),
`TRUSTED_PROXIES` says how many, so that the client's address is the one the outermost appended
to `X-Forwarded-For` (search/api/client.py). HTTP is read with deadlines for a request's headers
and body and bounds on open connections (search/api/connections.py).
"""

from __future__ import annotations

import argparse
import asyncio
import html
import logging
import os
import re
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Mapping

from search import config
from search.api.startup import long_lived
from search.feedback.hub_sync import FeedbackSyncError
from search.hub.address import HubAddressError, is_hub_address, parse_hub_address
from search.index.manifest import IndexLoadError
from search.index.postgres.schema import is_postgres_address

if TYPE_CHECKING:
    from fastapi import FastAPI

    from search.api.indexes import Indexes
    from search.api.workers import Loaded
    from search.feedback.hub_sync import HubVoteSync
    from search.feedback.store import FeedbackStore

log = logging.getLogger("app")


def locate_index(spec: str) -> Path | str:
    """The local directory of an index: `spec` itself, or a Hub snapshot for `hf://[TYPE/]OWNER/NAME[@REV]`
    (TYPE is datasets, models or spaces; a model repository when left out, as in `hf://` paths); a
    `postgresql://` address is returned as it is."""
    if not is_hub_address(spec):
        return spec if is_postgres_address(spec) else Path(spec)
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError

    try:
        address = parse_hub_address(spec)
    except HubAddressError as error:
        raise IndexLoadError(str(error)) from error
    try:
        return Path(snapshot_download(address.repo_id, repo_type=address.repo_type, revision=address.revision))
    except (HfHubHTTPError, LocalEntryNotFoundError, OSError, ValueError) as error:
        raise IndexLoadError(f"{spec}: the index could not be fetched from the Hugging Face Hub ({error})") from error


def open_feedback_store(feedback_db: Path, feedback_repo: str | None) -> tuple["FeedbackStore", "HubVoteSync | None"]:
    """The vote database; with `feedback_repo` (FEEDBACK_REPO), also this process's sync with the
    Hub (`start_vote_sync`)."""
    from search.feedback.store import FeedbackStore

    store = FeedbackStore(feedback_db)
    return store, (start_vote_sync(store, feedback_repo) if feedback_repo else None)


def start_vote_sync(store: "FeedbackStore", feedback_repo: str) -> "HubVoteSync":
    """The sync that puts the votes already on the Hub back into `store` and pushes every new vote
    of this process there (search/feedback/hub_sync.py: a vote file and a push scheduler per
    process, so each worker of the multi-worker server starts its own, after the fork)."""
    from search.feedback.hub_sync import HubVoteSync

    sync = HubVoteSync.start(feedback_repo, store.path, config.FEEDBACK_SYNC_MINUTES)
    log.info("%d votes restored from %s", sync.restore_into(store), feedback_repo)
    store.mirror = sync.append
    return sync


def push_votes_at_shutdown(app: "FastAPI", sync: "Callable[[], HubVoteSync]") -> None:
    """Push the votes not yet on the Hub when the server stops cleanly (SIGTERM, as a Space's
    restart sends): uvicorn re-raises the signal after its shutdown, so huggingface_hub's own
    atexit push would never run. `sync()` is called as the server starts, in the process that
    serves: it returns the sync opened already (one process) or starts the worker's own."""
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(application: "FastAPI") -> AsyncIterator[Any]:
        started = await asyncio.to_thread(sync)
        async with inner(application) as state:
            yield state
        try:
            await asyncio.to_thread(started.push)
            log.info("votes pushed to the Hub at shutdown")
        except Exception as error:  # noqa: BLE001 - any failure of the Hub: the votes stay in their local file
            log.error("votes not pushed to the Hub at shutdown (%s); they are in %s", error, started.file)

    app.router.lifespan_context = lifespan


_INDEX_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def named_indexes(specs: list[str]) -> dict[str, str]:
    """`--index` values as name -> spec: `NAME=SPEC` (SPEC a directory or an hf:// address), or a
    bare SPEC named `default` (once). Names are unique; the first is the default index."""
    from search.api.indexes import DEFAULT_NAME

    named: dict[str, str] = {}
    for value in specs:
        name, equals, spec = value.partition("=")
        if not (equals and spec and _INDEX_NAME.fullmatch(name)) or Path(value).exists():
            name, spec = DEFAULT_NAME, value
        if name in named:
            raise IndexLoadError(f"--index {value}: the name {name!r} is given twice (write NAME=DIR for each index)")
        named[name] = spec
    return named


def load_indexes(named: Mapping[str, str], encoder: bool = True) -> "Indexes":
    """The indexes of `named` (name -> spec, `named_indexes`), each loaded with its engine and
    search service; an `hf://...@REVISION` adds REVISION as a tag. With `encoder`, the query
    encoder is loaded now, not during the first visitor's search; the multi-worker server loads
    it in each worker instead (`Indexes.load_encoders`), as an encoder's threads do not survive a fork."""
    from search.api.indexes import Indexes
    from search.api.service import SearchService
    from search.engine.engine import Engine
    from search.index.store import opening_index

    services, tags = {}, {}
    for name, spec in named.items():
        directory = locate_index(spec)
        started = time.perf_counter()
        with opening_index(directory) as index:
            services[name] = SearchService.from_engine(Engine(index))
        log.info("index %s (%s) loaded in %.1f s", name, index.directory, time.perf_counter() - started)
        if is_hub_address(spec) and parse_hub_address(spec).revision:
            tags[name] = (str(parse_hub_address(spec).revision),)
    indexes = Indexes(services, tags)
    if encoder:
        indexes.load_encoders()
    return indexes


def make_app(index_spec: str | list[str], feedback_db: Path, feedback_repo: str | None = None) -> "FastAPI":
    """The FastAPI app with the APIs and the search page, over the index at `index_spec` (or the
    `--index` values of a list)."""
    named = named_indexes([index_spec] if isinstance(index_spec, str) else index_spec)
    indexes = load_indexes(named)
    import gradio as gr

    from search.api.http import make_api
    from search.ui.blocks import CSS, JS, make_blocks
    from search.ui.page import SearchPage

    store, sync = open_feedback_store(feedback_db, feedback_repo)
    api = make_api(indexes, feedback_store=store)
    page = SearchPage(api.state.indexes, api.state.ballot)
    # Gradio's "Use via API" would describe the page's private events: the page links the real
    # APIs itself (search/ui/blocks.py, api_links).
    app = gr.mount_gradio_app(api, make_blocks(page), path="/", css=CSS, js=JS, footer_links=["gradio", "settings"])
    if sync is not None:
        push_votes_at_shutdown(app, lambda: sync)
    return app


def serve_workers(named: Mapping[str, str], feedback_db: Path, feedback_repo: str | None, host: str, port: int,
                  workers: int) -> int:
    """Serve the APIs over one index from `workers` processes (search/api/workers.py) until
    stopped. One index only: a swap (SIGHUP, `POST /api/v1/admin/index`) names one directory
    and replaces the index served, which with several would be ambiguous."""
    from search.api.workers import serve

    if len(named) != 1:
        raise IndexLoadError(f"--workers {workers} serves one index, {len(named)} given "
                             f"({', '.join(named)}): give one --index, or --workers 1 for several")
    [(name, spec)] = named.items()
    log.info("serving on http://%s:%d with %d workers", host, port, workers)
    serve(lambda path, swap: make_worker_app({name: path}, feedback_db, feedback_repo, workers, swap), spec,
          host, port, workers)
    return 0


def make_worker_app(named: Mapping[str, str], feedback_db: Path, feedback_repo: str | None, workers: int,
                    swap_index: "Callable[[str], None]") -> "Loaded":
    """The APIs for the multi-worker server (search/api/workers.py), loaded in its parent: what
    every request reads is built here, once, to be shared by the forked workers; the query
    encoder and the Hub vote sync are started in each worker. The page is not served: Gradio
    keeps a visitor's state, event queue and the handlers of the cards it drew in the process
    that drew them, and the workers take connections in turn, so `/` says where the page is."""
    indexes = load_indexes(named, encoder=False)
    from fastapi.responses import HTMLResponse

    from search.api.http import make_api
    from search.api.workers import Loaded
    from search.feedback.store import FeedbackStore

    for service in indexes.services.values():
        service.index.by_name, service.index.pagerank_max  # computed once here rather than in each worker
    store = FeedbackStore(feedback_db)
    share = max(1, (os.cpu_count() or 1) // workers)  # this worker's share of the cores
    api = make_api(indexes, feedback_store=store, swap_index=swap_index, threads=share)
    if feedback_repo:
        push_votes_at_shutdown(api, lambda: start_vote_sync(store, feedback_repo))
    version = api.state.service.index.version

    @api.get("/", include_in_schema=False)
    async def no_page() -> HTMLResponse:
        return HTMLResponse(WORKERS_PAGE.format(version=html.escape(version)))

    def after_fork() -> None:
        indexes.load_encoders()

    return Loaded(api, after_fork=after_fork)


WORKERS_PAGE = """<!doctype html><title>Theorem search</title>
<p>This server answers the HTTP APIs (<a href="/docs">/docs</a>) with several workers, over the
index {version}. The search page is served by <code>python app.py --workers 1</code>.</p>"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", action="append",
                        help="index directory, hf://[datasets/]OWNER/NAME[@REVISION], or postgresql://...[#SCHEMA] (default: INDEX_DIR or "
                        "./index); repeat as NAME=DIR or NAME=hf://... to serve several, the first the default")
    parser.add_argument("--feedback-db", type=Path, default=config.FEEDBACK_DB,
                        help="SQLite file for thumbs up/down (default: FEEDBACK_DB, else /data/feedback.sqlite "
                        "on a persistent disk, else in the data folder: THEOREM_SEARCH_DATA or platformdirs')")
    parser.add_argument("--feedback-repo", default=config.FEEDBACK_REPO,
                        help="hf://datasets/OWNER/NAME that votes are also pushed to every "
                        f"{config.FEEDBACK_SYNC_MINUTES:g} min (FEEDBACK_REPO, FEEDBACK_SYNC_MINUTES)")
    parser.add_argument("--host", default=config.APP_HOST, help="address to listen on (GRADIO_SERVER_NAME)")
    parser.add_argument("--port", type=int, default=config.APP_PORT, help="port (GRADIO_SERVER_PORT, default 7860)")
    parser.add_argument("--workers", type=int, default=config.APP_WORKERS,
                        help="worker processes (APP_WORKERS, default 1): 1 serves the page and the APIs from this "
                             "process; more serve the APIs from workers forked after the index is loaded, and swap "
                             "the index on SIGHUP or POST /api/v1/admin/index (ADMIN_SECRET)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    logging.basicConfig(level=logging.INFO, format=config.LOG_FORMAT, datefmt=config.LOG_DATE_FORMAT)
    try:
        specs = args.index or [config.DEFAULT_INDEX]
        if args.workers > 1:
            return serve_workers(named_indexes(specs), args.feedback_db, args.feedback_repo, args.host, args.port,
                                 args.workers)
        with long_lived():
            app = make_app(specs, args.feedback_db, args.feedback_repo)
    except (IndexLoadError, FeedbackSyncError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    import uvicorn

    from search.api.connections import server_options

    log.info("serving on http://%s:%d", args.host, args.port)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **server_options())
    return 0


if __name__ == "__main__":
    sys.exit(main())
