"""The search app: `python app.py [--index DIR | --index hf://datasets/OWNER/NAME] [--port N]`
(`--index NAME=DIR` repeated serves several indexes, the first the default).

One server: the HTTP APIs at their paths and the Gradio search page at `/`. The index comes
from `--index`, else `INDEX_DIR`, else `./index`; an `hf://` address is fetched from the
Hugging Face Hub once (`huggingface_hub.snapshot_download`, kept in its cache), for a Space.
Votes (the page's thumbs and `POST /api/v1/feedback`) go to `--feedback-db`, else
`FEEDBACK_DB`, else `/data/feedback.sqlite` on a persistent disk, else `./feedback.sqlite`;
with `--feedback-repo` / `FEEDBACK_REPO=hf://datasets/OWNER/NAME` they are also pushed there.
Every request passes the guard of `search/api/guard.py` (body size, requests per client per
minute: `API_MAX_BODY_BYTES`, `RATE_LIMIT_PER_MINUTE`);
behind a proxy, uvicorn's `FORWARDED_ALLOW_IPS` names the proxies whose client address to trust.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator

from search import config
from search.feedback.hub_sync import FeedbackSyncError
from search.hub.address import HubAddressError, is_hub_address, parse_hub_address
from search.index.manifest import IndexLoadError

if TYPE_CHECKING:
    from fastapi import FastAPI

    from search.api.indexes import Indexes
    from search.feedback.hub_sync import HubVoteSync
    from search.feedback.store import FeedbackStore

log = logging.getLogger("app")


def locate_index(spec: str) -> Path:
    """The local directory of an index: `spec` itself, or a Hub snapshot for `hf://[TYPE/]OWNER/NAME[@REV]`
    (TYPE is datasets, models or spaces; a model repository when left out, as in `hf://` paths)."""
    if not is_hub_address(spec):
        return Path(spec)
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
    """The vote database; with `feedback_repo` (FEEDBACK_REPO), also the sync that puts the votes
    already on the Hub back into it and pushes every new vote there (search/feedback/hub_sync.py)."""
    from search.feedback.hub_sync import HubVoteSync
    from search.feedback.store import FeedbackStore

    store = FeedbackStore(feedback_db)
    if not feedback_repo:
        return store, None
    sync = HubVoteSync.start(feedback_repo, feedback_db, config.FEEDBACK_SYNC_MINUTES)
    log.info("%d votes restored from %s", sync.restore_into(store), feedback_repo)
    store.mirror = sync.append
    return store, sync


def push_votes_at_shutdown(app: "FastAPI", sync: "HubVoteSync") -> None:
    """Push the votes not yet on the Hub when the server stops cleanly (SIGTERM, as a Space's
    restart sends): uvicorn re-raises the signal after its shutdown, so huggingface_hub's own
    atexit push would never run."""
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(application: "FastAPI") -> AsyncIterator[Any]:
        async with inner(application) as state:
            yield state
        try:
            await asyncio.to_thread(sync.push)
            log.info("votes pushed to the Hub at shutdown")
        except Exception as error:  # noqa: BLE001 - any failure of the Hub: the votes stay in their local file
            log.error("votes not pushed to the Hub at shutdown (%s); they are in %s", error, sync.file)

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


def load_indexes(specs: list[str]) -> "Indexes":
    """Every index named by `--index`, loaded with its engine (the query encoder loaded now,
    not during the first visitor's search); an `hf://...@REVISION` adds REVISION as a tag."""
    from search.api.indexes import Indexes
    from search.api.service import SearchService
    from search.engine.engine import Engine
    from search.index.store import Index

    services, tags = {}, {}
    for name, spec in named_indexes(specs).items():
        directory = locate_index(spec)
        started = time.perf_counter()
        engine = Engine(Index.load(directory))
        log.info("index %s (%s) loaded in %.1f s", name, directory, time.perf_counter() - started)
        started = time.perf_counter()
        engine.index.embedder
        log.info("embedding model loaded in %.1f s", time.perf_counter() - started)
        services[name] = SearchService.from_engine(engine)
        if is_hub_address(spec) and parse_hub_address(spec).revision:
            tags[name] = (str(parse_hub_address(spec).revision),)
    return Indexes(services, tags)


def make_app(index_spec: str | list[str], feedback_db: Path, feedback_repo: str | None = None) -> "FastAPI":
    """The FastAPI app with the APIs and the search page, over the index at `index_spec`."""
    import gradio as gr

    from search.api.http import make_api
    from search.ui.blocks import CSS, JS, make_blocks
    from search.ui.page import SearchPage

    indexes = load_indexes([index_spec] if isinstance(index_spec, str) else index_spec)
    store, sync = open_feedback_store(feedback_db, feedback_repo)
    api = make_api(indexes, feedback_store=store)
    page = SearchPage(api.state.service, api.state.ballot)
    app = gr.mount_gradio_app(api, make_blocks(page), path="/", css=CSS, js=JS)
    if sync is not None:
        push_votes_at_shutdown(app, sync)
    return app


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", action="append",
                        help="index directory, or hf://[datasets/]OWNER/NAME[@REVISION] (default: INDEX_DIR or "
                        "./index); repeat as NAME=DIR or NAME=hf://... to serve several, the first the default")
    parser.add_argument("--feedback-db", type=Path, default=config.FEEDBACK_DB,
                        help="SQLite file for thumbs up/down (default: FEEDBACK_DB, else /data/feedback.sqlite "
                        "on a persistent disk, else ./feedback.sqlite)")
    parser.add_argument("--feedback-repo", default=config.FEEDBACK_REPO,
                        help="hf://datasets/OWNER/NAME that votes are also pushed to every "
                        f"{config.FEEDBACK_SYNC_MINUTES:g} min (FEEDBACK_REPO, FEEDBACK_SYNC_MINUTES)")
    parser.add_argument("--host", default=config.APP_HOST, help="address to listen on (GRADIO_SERVER_NAME)")
    parser.add_argument("--port", type=int, default=config.APP_PORT, help="port (GRADIO_SERVER_PORT, default 7860)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    try:
        app = make_app(args.index or [config.DEFAULT_INDEX], args.feedback_db, args.feedback_repo)
    except (IndexLoadError, FeedbackSyncError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    import uvicorn

    log.info("serving on http://%s:%d", args.host, args.port)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
