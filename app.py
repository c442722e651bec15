"""The search app: `python app.py [--index DIR | --index hf://datasets/OWNER/NAME] [--port N]`.

One server: the HTTP APIs at their paths and the Gradio search page at `/`. The index comes
from `--index`, else `INDEX_DIR`, else `./index`; an `hf://` address is fetched from the
Hugging Face Hub once (`huggingface_hub.snapshot_download`, kept in its cache), for a Space.
Votes (the page's thumbs and `POST /api/v1/feedback`) go to `--feedback-db`, else
`FEEDBACK_DB`, else `./feedback.sqlite`. Every request passes the guard of `search/api/guard.py`
(body size, requests per client per minute: `API_MAX_BODY_BYTES`, `RATE_LIMIT_PER_MINUTE`);
behind a proxy, uvicorn's `FORWARDED_ALLOW_IPS` names the proxies whose client address to trust.
"""

from __future__ import annotations

import argparse
import html
import logging
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from search import config
from search.index.manifest import IndexLoadError

HF_PREFIX = "hf://"
_REPO_TYPES = {"datasets": "dataset", "models": "model", "spaces": "space"}

if TYPE_CHECKING:
    from fastapi import FastAPI

    from search.api.workers import Loaded
    from search.engine.engine import Engine

log = logging.getLogger("app")


def locate_index(spec: str) -> Path:
    """The local directory of an index: `spec` itself, or a Hub snapshot for `hf://[TYPE/]OWNER/NAME[@REV]`
    (TYPE is datasets, models or spaces; a model repository when left out, as in `hf://` paths)."""
    if not spec.startswith(HF_PREFIX):
        return Path(spec)
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError

    address, _, revision = spec[len(HF_PREFIX):].partition("@")
    parts = address.strip("/").split("/")
    repo_type = "model"
    if len(parts) == 3 and parts[0] in _REPO_TYPES:
        repo_type = _REPO_TYPES[parts.pop(0)]
    if len(parts) != 2 or not all(parts):
        raise IndexLoadError(f"{spec}: expected hf://[datasets/|models/|spaces/]OWNER/NAME[@REVISION]")
    repo_id = "/".join(parts)
    try:
        return Path(snapshot_download(repo_id, repo_type=repo_type, revision=revision or None))
    except (HfHubHTTPError, LocalEntryNotFoundError, OSError, ValueError) as error:
        raise IndexLoadError(f"{spec}: the index could not be fetched from the Hugging Face Hub ({error})") from error


def load_engine(index_spec: str) -> "Engine":
    """The engine over the index at `index_spec` (raises IndexLoadError when it is unusable)."""
    from search.engine.engine import Engine
    from search.index.store import Index

    directory = locate_index(index_spec)
    started = time.perf_counter()
    engine = Engine(Index.load(directory))
    log.info("index %s loaded in %.1f s", directory, time.perf_counter() - started)
    return engine


def load_encoder(engine: "Engine") -> None:
    """Load the query encoder now, not during the first visitor's search."""
    started = time.perf_counter()
    engine.index.embedder
    log.info("embedding model loaded in %.1f s", time.perf_counter() - started)


def make_app(index_spec: str, feedback_db: Path) -> "FastAPI":
    """The FastAPI app with the APIs and the search page, over the index at `index_spec`."""
    import gradio as gr

    from search.api.http import make_api
    from search.feedback.store import FeedbackStore
    from search.ui.blocks import CSS, JS, make_blocks
    from search.ui.page import SearchPage

    engine = load_engine(index_spec)
    load_encoder(engine)
    api = make_api(engine, feedback_store=FeedbackStore(feedback_db))
    page = SearchPage(api.state.service, api.state.ballot)
    return gr.mount_gradio_app(api, make_blocks(page), path="/", css=CSS, js=JS)


def make_worker_app(index_spec: str, feedback_db: Path, workers: int, swap_index: "Callable[[str], None]") -> "Loaded":
    """The APIs for the multi-worker server (search/api/workers.py), loaded in its parent: what
    every request reads is built here, once, to be shared by the forked workers; the query
    encoder is loaded in each worker. The page is not served: Gradio keeps a visitor's state,
    event queue and the handlers of the cards it drew in the process that drew them, and the
    workers take connections in turn, so `/` says where the page is."""
    from fastapi.responses import HTMLResponse

    from search.api.http import make_api
    from search.api.workers import Loaded
    from search.feedback.store import FeedbackStore

    engine = load_engine(index_spec)
    engine.index.by_name, engine.index.pagerank_max  # computed once here rather than in each worker
    api = make_api(engine, feedback_store=FeedbackStore(feedback_db), swap_index=swap_index)

    @api.get("/", include_in_schema=False)
    async def no_page() -> HTMLResponse:
        return HTMLResponse(WORKERS_PAGE.format(version=html.escape(engine.index.version)))

    def after_fork() -> None:
        import faiss

        threads = max(1, (os.cpu_count() or 1) // workers)  # this worker's share of the cores
        faiss.omp_set_num_threads(threads)
        started = time.perf_counter()
        engine.index.load_embedder(threads)
        log.info("embedding model loaded in %.1f s (worker %d)", time.perf_counter() - started, os.getpid())

    return Loaded(api, after_fork=after_fork)


WORKERS_PAGE = """<!doctype html><title>Theorem search</title>
<p>This server answers the HTTP APIs (<a href="/docs">/docs</a>) with several workers, over the
index {version}. The search page is served by <code>python app.py --workers 1</code>.</p>"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR),
                        help="index directory, or hf://[datasets/]OWNER/NAME[@REVISION] (default: INDEX_DIR or ./index)")
    parser.add_argument("--feedback-db", type=Path, default=config.FEEDBACK_DB,
                        help="SQLite file for thumbs up/down (default: FEEDBACK_DB or ./feedback.sqlite)")
    parser.add_argument("--host", default=config.APP_HOST, help="address to listen on (GRADIO_SERVER_NAME)")
    parser.add_argument("--port", type=int, default=config.APP_PORT, help="port (GRADIO_SERVER_PORT, default 7860)")
    parser.add_argument("--workers", type=int, default=config.APP_WORKERS,
                        help="worker processes (APP_WORKERS, default 1): 1 serves the page and the APIs from this "
                             "process; more serve the APIs from workers forked after the index is loaded, and swap "
                             "the index on SIGHUP or POST /api/v1/admin/index (ADMIN_SECRET)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    try:
        if args.workers > 1:
            from search.api.workers import serve

            log.info("serving on http://%s:%d with %d workers", args.host, args.port, args.workers)
            serve(lambda spec, swap: make_worker_app(spec, args.feedback_db, args.workers, swap), args.index, args.host,
                  args.port, args.workers)
            return 0
        app = make_app(args.index, args.feedback_db)
    except IndexLoadError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    import uvicorn

    log.info("serving on http://%s:%d", args.host, args.port)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
