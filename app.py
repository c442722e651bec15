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
import logging
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from search import config
from search.hub.address import HubAddressError, is_hub_address, parse_hub_address
from search.index.manifest import IndexLoadError

if TYPE_CHECKING:
    from fastapi import FastAPI

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


def make_app(index_spec: str, feedback_db: Path) -> "FastAPI":
    """The FastAPI app with the APIs and the search page, over the index at `index_spec`."""
    import gradio as gr

    from search.api.http import make_api
    from search.engine.engine import Engine
    from search.feedback.store import FeedbackStore
    from search.index.store import Index
    from search.ui.blocks import CSS, JS, make_blocks
    from search.ui.page import SearchPage

    directory = locate_index(index_spec)
    started = time.perf_counter()
    engine = Engine(Index.load(directory))
    log.info("index %s loaded in %.1f s", directory, time.perf_counter() - started)
    started = time.perf_counter()
    engine.index.embedder  # load the query encoder now, not during the first visitor's search
    log.info("embedding model loaded in %.1f s", time.perf_counter() - started)
    store = FeedbackStore(feedback_db)
    api = make_api(engine, feedback_store=store)
    page = SearchPage(api.state.service, api.state.ballot)
    return gr.mount_gradio_app(api, make_blocks(page), path="/", css=CSS, js=JS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR),
                        help="index directory, or hf://[datasets/]OWNER/NAME[@REVISION] (default: INDEX_DIR or ./index)")
    parser.add_argument("--feedback-db", type=Path, default=config.FEEDBACK_DB,
                        help="SQLite file for thumbs up/down (default: FEEDBACK_DB or ./feedback.sqlite)")
    parser.add_argument("--host", default=config.APP_HOST, help="address to listen on (GRADIO_SERVER_NAME)")
    parser.add_argument("--port", type=int, default=config.APP_PORT, help="port (GRADIO_SERVER_PORT, default 7860)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    try:
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
