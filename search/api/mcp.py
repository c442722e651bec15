"""MCP tools over the same service: `search`, `get_by_id`, `get_dependencies`.

An assistant connected with `claude mcp add --transport http theorem-search
http://127.0.0.1:7860/mcp` can search the index, read a whole record and walk the dependency
graph. The tools are served by the `mcp` package's streamable-HTTP transport, stateless and
with plain JSON replies, as one route of the FastAPI application (`mount`); its session
manager must run inside the application's lifespan (`http.make_api` does that).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Annotated, Any, Iterator, Literal

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import ConfigDict, Field

from search import config
from search.api.indexes import Indexes
from search.api.service import compact
from search.api.validation import MAX_QUERY_CHARS, MAX_RESULTS, ApiError, Variant
from search.engine import variants

PATH = "/mcp"
INSTRUCTIONS = (
    "Search Lean declarations (Mathlib, Batteries, PhysLean) and informal mathematics (Stacks "
    "Project, textbooks) by meaning, name or notation. `search` returns compact results with "
    "ids; `get_by_id` returns a whole record; `get_dependencies` walks the dependency graph."
)


#: Results of `search` when neither `k` nor `limit` is given.
DEFAULT_K = 10
#: Sources or kinds: a list, or one as a string.
Names = str | list[str] | None
#: The optional `index` argument of every tool.
IndexName = Annotated[str | None, Field(max_length=100, description="Which index to use when the server has several "
                                        "(`/api/v1/indexes` lists them); the default when absent.")]


def make_server(indexes: Indexes) -> MCPServer:
    """The MCP server with its three tools, each over the index its optional `index` names (the
    default when absent); errors in the caller's input come back as tool errors with the same
    messages as the HTTP API's. Arguments are named as the native API names them (`k`; `limit`
    is taken too), a single string is taken where a list is expected, an argument no tool has
    is refused with a message (`_strict`), and the server reports the index's version."""

    def search(
        query: Annotated[str, Field(max_length=MAX_QUERY_CHARS, description="Words, LaTeX, Lean notation, a Lean name or a quoted \"name substring\".")],
        k: Annotated[int | None, Field(ge=1, le=MAX_RESULTS, description="Number of results (default 10), as the native API's `k`.")] = None,
        limit: Annotated[int | None, Field(ge=1, le=MAX_RESULTS, description="The same as `k`, for clients that say `limit`.")] = None,
        source: Annotated[Names, Field(description="Only these sources, e.g. [\"mathlib\"] or \"stacks\".")] = None,
        kind: Annotated[Names, Field(description="Only these kinds, e.g. [\"theorem\", \"lemma\"].")] = None,
        filters: Annotated[dict[str, str | list[str]] | None, Field(description="Any other filter: package, module, or a metadata key (chapter, tag, namespace, ...).")] = None,
        variant: Annotated[Variant, Field(description=f"Ranking variant, one of {', '.join(variants.names())}.")] = variants.DEFAULT,
        index: IndexName = None,
    ) -> list[dict[str, Any]]:
        """Search the index; compact results (id, name, kind, source, statement, doc, url, score), best first."""
        if k is not None and limit is not None and k != limit:
            raise ToolError(f"`k` ({k}) and `limit` ({limit}) disagree: give one of them")
        wanted: dict[str, Any] = dict(filters or {})
        for key, values in (("source", source), ("kind", kind)):
            if values:
                wanted[key] = [values] if isinstance(values, str) else values
        with _as_tool_error():
            results = indexes.get(index).search(query, k or limit or DEFAULT_K, wanted, variant)
        return [compact(r.statement, r.score) for r in results]

    def get_by_id(
        id: Annotated[str, Field(description="A record id from `search`, e.g. `mathlib:Nat.succ_le_succ`.")],
        index: IndexName = None,
    ) -> dict[str, Any]:
        """Every field of one record, with its PageRank and its numbers of dependencies and dependents."""
        with _as_tool_error():
            service = indexes.get(index)
            return service.record(service.position(id))

    def get_dependencies(
        id: Annotated[str, Field(description="A record id.")],
        direction: Annotated[
            Literal["both", "dependencies", "dependents"],
            Field(description="`dependencies`: what it refers to; `dependents`: what refers to it."),
        ] = "both",
        limit: Annotated[int, Field(ge=1, le=MAX_RESULTS, description="At most this many per direction, as the native API's `limit`.")] = 20,
        index: IndexName = None,
    ) -> dict[str, Any]:
        """The records one record refers to and those referring to it, most central first, with total counts."""
        with _as_tool_error():
            service = indexes.get(index)
            position = service.position(id)
        out: dict[str, Any] = {"id": id}
        for name, find in (("dependencies", service.graph.dependencies), ("dependents", service.graph.dependents)):
            if direction in ("both", name):
                found = find(position)
                out[f"{name}_count"] = len(found)
                out[name] = [compact(s) for s in service.index.records.take(found[:limit])]
        return out

    tools = [_strict(Tool.from_function(tool)) for tool in (search, get_by_id, get_dependencies)]
    return MCPServer("theorem-search", instructions=INSTRUCTIONS, version=indexes.get(None).index.version,
                     log_level="WARNING", tools=tools)


def _strict(tool: Tool) -> Tool:
    """The tool with its arguments' model refusing names it does not have (pydantic's "Extra
    inputs are not permitted", naming the argument), and its input schema saying so: an agent
    that misspells `kind` learns it instead of getting unfiltered results."""
    loose = tool.fn_metadata.arg_model
    strict = type(loose.__name__, (loose,), {"model_config": ConfigDict(**loose.model_config, extra="forbid")})
    tool.fn_metadata.arg_model = strict
    tool.parameters = {**tool.parameters, "additionalProperties": False}
    return tool


@contextmanager
def _as_tool_error() -> Iterator[None]:
    """Turn an ApiError into a ToolError carrying its message and suggestions."""
    try:
        yield
    except ApiError as error:
        suggestions = error.extra.get("suggestions")
        hint = f" (did you mean: {', '.join(suggestions)}?)" if suggestions else ""
        raise ToolError(error.message + hint) from error


def mount(api: FastAPI, server: MCPServer) -> StreamableHTTPSessionManager:
    """Add the MCP route to `api`; the returned session manager's `run()` must wrap the app's
    lifespan. Host headers are checked against `config.MCP_ALLOWED_HOSTS` (`*`: any)."""
    hosts = list(config.MCP_ALLOWED_HOSTS)
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection="*" not in hosts,
        allowed_hosts=hosts,
        allowed_origins=[f"{scheme}://{host}" for host in hosts for scheme in ("http", "https")],
    )
    app = server.streamable_http_app(
        streamable_http_path=PATH, stateless_http=True, json_response=True, transport_security=security
    )
    api.add_api_route(PATH, _no_event_stream, methods=["GET"], tags=["MCP"],
                      summary="No event stream (405): the endpoint is stateless; POST JSON-RPC")
    api.router.routes.extend(app.routes)
    _describe(api)
    return server.session_manager


def _describe(api: FastAPI) -> None:
    """Put `POST /mcp` in the application's OpenAPI description: its route is the `mcp`
    package's Starlette route, which FastAPI does not describe itself."""
    openapi = api.openapi

    def with_mcp() -> dict[str, Any]:
        schema = openapi()
        schema["paths"].setdefault(PATH, {})["post"] = {
            "tags": ["MCP"],
            "summary": "MCP tools (streamable HTTP, JSON-RPC 2.0): search, get_by_id, get_dependencies",
            "description": INSTRUCTIONS + " Stateless, JSON replies; `tools/list` describes each tool's arguments.",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}},
            "responses": {"200": {"description": "A JSON-RPC response."}},
        }
        return schema

    api.openapi = with_mcp  # type: ignore[method-assign]


def _no_event_stream() -> JSONResponse:
    """GET opens a server-to-client event stream; stateless, the server never sends on one, so
    it answers 405 as the MCP specification allows instead of holding the connection open."""
    return JSONResponse(
        {"error": f"this MCP endpoint is stateless and opens no event stream; POST JSON-RPC to {PATH}"},
        status_code=405, headers={"Allow": "POST, DELETE"},
    )
