"""The FastAPI application: every API shape and the MCP endpoint over one engine.

`make_api(engine)` is served as it is (`uvicorn.run(make_api(engine))`) or with the Gradio UI
mounted at `/` (`gr.mount_gradio_app(api, blocks, path="/")`): its routes (`/search`, `/json`,
`/api/search`, `/api/v1/...`, `/mcp`, `/docs`, `/openapi.json`) are matched before the mount
and none of them is one of Gradio's (`/`, `/config`, `/gradio_api/...`, `/static/...`, ...).
`RequestGuard` (search/api/guard.py) wraps the whole application, the mounted page included,
and `ClientAddress` (search/api/client.py) wraps it, so that the guard counts the client's address.

Every error is JSON with an `error` message (and the fields the imitated API adds: Loogle's
`suggestions`, LeanStateSearch's `schema`), never a traceback: bad input is a 4xx, and an
unexpected failure is logged and answered with a 500 that says only that.
"""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException

from search import config
from search.api import (admin, feedback, hammer, leanexplore, leanfinder, leansearch, loogle, mcp, native,
                        statesearch)
from search.api.client import ClientAddress
from search.api.guard import RequestGuard
from search.api.indexes import Indexes
from search.api.validation import MAX_QUERIES, MAX_QUERY_CHARS, MAX_RESULTS, ApiError
from search.api.service import SearchService
from search.engine.engine import Engine
from search.feedback.ballot import Ballot
from search.feedback.store import FeedbackStore

log = logging.getLogger(__name__)

DESCRIPTION = f"""
Search Lean declarations and informal mathematics, in the shapes of the services Lean tools
call, so that they work unmodified against this server:

- `POST /search`: LeanSearch's request and response (Lean's `#leansearch`);
- `GET /json?q=`: Loogle's (Lean's `#loogle`, lean-lsp-mcp's `lean_loogle`): names, "name
  substrings", term and conclusion patterns;
- `GET /api/search?query=`: LeanStateSearch's, by goal state (Lean's `#statesearch`);
- `POST /leanfinder`: Lean Finder's (lean-lsp-mcp's `lean_leanfinder`);
- `POST /hammer/retrieve`: LeanHammer's premise server's (lean-lsp-mcp's `lean_hammer_premise`);
- `/leanexplore/api/v2/...`: LeanExplore's (lean-explore's `ApiClient` and MCP server);
- `/api/v1/...`: the native API with every filter, ranking variant and field;

and as MCP tools (`search`, `get_by_id`, `get_dependencies`) at `/mcp` (streamable HTTP).
With the app, `POST /api/v1/feedback` stores a thumb up or down before it answers: on a result
of a native search, under the `session` that search's answer carries.

Limits: at most {MAX_RESULTS} results per query, {MAX_QUERY_CHARS} characters per query,
{MAX_QUERIES} query strings per LeanSearch request, {{max_body}} bytes per request body (413
past it), {{per_minute}} search requests per client per minute (429 with `Retry-After` past it).
Errors are JSON objects with an `error` message; bad input is a 4xx.
"""

#: Fields every error of a path carries, as the API it imitates answers them.
ERROR_FIELDS: dict[str, dict[str, Any]] = {
    statesearch.PATH: statesearch.ERROR_FIELDS,
    loogle.PATH: loogle.ERROR_FIELDS,
}


def make_api(
    engine: Engine | Indexes,
    feedback_store: FeedbackStore | None = None,
    rate_limit: int | None = None,
    max_body_bytes: int | None = None,
    swap_index: Callable[[str], None] | None = None,
    threads: int | None = None,
    trusted_proxies: int | None = None,
    per_address: int | None = None,
) -> FastAPI:
    """The application over `engine`'s index, or over several named indexes (`Indexes`: the native
    API, its votes, LeanStateSearch's `rev` and the MCP tools choose among them; the other shapes
    and the page use the default). Its (default) `SearchService` (filter catalogue and reverse
    dependency map, built here, once) is `api.state.service`, for the UI to share. With a
    `feedback_store`, native searches are served to sessions and `POST /api/v1/feedback` writes
    their votes to it, through the `Ballot` at `api.state.ballot` (the UI votes through it too). The request guard's bounds
    default to `config.API_RATE_LIMIT_PER_MINUTE` (0: no rate limit) and
    `config.API_MAX_BODY_BYTES`, and requests in progress per client to
    `config.CONNECTIONS_PER_ADDRESS` (`per_address`); the client's address is taken behind
    `config.TRUSTED_PROXIES` proxies (`trusted_proxies`, search/api/client.py). With `swap_index` (the multi-worker server's) and
    `config.ADMIN_SECRET` set, `POST /api/v1/admin/index` swaps the index (search/api/admin.py).
    It answers `threads` requests at once (default `config.API_THREADS`; a worker of the
    multi-worker server, its share of the cores)."""
    per_minute = config.API_RATE_LIMIT_PER_MINUTE if rate_limit is None else rate_limit
    max_body = config.API_MAX_BODY_BYTES if max_body_bytes is None else max_body_bytes
    indexes = engine if isinstance(engine, Indexes) else Indexes.single(SearchService.from_engine(engine))
    service = indexes.get(None)
    server = mcp.make_server(indexes)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Searches are CPU-bound and run in the thread pool: more threads than a few per core
        # only add memory (each search holds score arrays over the whole index) and queueing.
        anyio.to_thread.current_default_thread_limiter().total_tokens = threads or config.API_THREADS
        async with sessions.run():
            yield

    # FastAPIOffline: /docs serves Swagger UI's script and styles from the package, not a CDN,
    # so that the API reference the page links to renders offline too.
    api = FastAPIOffline(
        title="Theorem search", version=service.index.version, lifespan=lifespan,
        description=DESCRIPTION.format(max_body=max_body, per_minute=per_minute or "any number of"),
    )
    api.state.service = service
    api.state.indexes = indexes
    api.state.ballot = Ballot.open(feedback_store) if feedback_store is not None else None
    sessions = mcp.mount(api, server)
    states = {name: statesearch.StateSearch(each) for name, each in indexes.services.items()}
    for module in (leansearch, loogle):
        api.include_router(module.router(service))
    for shape in (statesearch, leanfinder, hammer):
        api.include_router(shape.router(indexes, states))
    api.include_router(leanexplore.router(indexes))
    api.include_router(native.router(indexes, api.state.ballot))
    if api.state.ballot is not None:
        api.include_router(feedback.router(indexes, api.state.ballot))
    if swap_index is not None and config.ADMIN_SECRET:
        api.include_router(admin.router(config.ADMIN_SECRET, swap_index))
    _add_error_handlers(api)
    api.add_middleware(RequestGuard, max_body_bytes=max_body, per_minute=per_minute, error_fields=ERROR_FIELDS,
                       per_address=config.CONNECTIONS_PER_ADDRESS if per_address is None else per_address)
    api.add_middleware(ClientAddress, trusted_proxies=config.TRUSTED_PROXIES if trusted_proxies is None
                       else trusted_proxies)  # added last, so it runs first: the guard counts its address
    return api


def _error(request: Request, status: int, message: str, **extra: Any) -> JSONResponse:
    body = {"error": message, **ERROR_FIELDS.get(request.url.path, {}), **extra}
    return JSONResponse(body, status_code=status)


def _add_error_handlers(api: FastAPI) -> None:
    @api.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return _error(request, error.status, error.message, **error.extra)

    @api.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        details = [
            {key: value for key, value in item.items() if key not in ("input", "url", "ctx")}
            for item in error.errors()
        ]
        message = "; ".join(
            f"{'.'.join(str(part) for part in item.get('loc', ()))}: {item.get('msg', 'invalid')}"
            for item in details
        )
        return _error(request, 422, message or "invalid request", detail=jsonable_encoder(details))

    @api.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        return _error(request, error.status_code, str(error.detail), detail=error.detail)

    @api.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error answering %s %s", request.method, request.url.path)
        return _error(request, 500, "internal error; it has been logged")
