"""Every door is described and guarded: each route of the server is in its OpenAPI description
and counted by the request guard's rate limit; every setting read from the environment is in
the documentation (docs/layout.md, "Configuration")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from starlette.routing import Route

from search import config
from search.api.guard import _counted
from search.api.http import make_api
from search.engine.engine import Engine
from search.feedback.store import FeedbackStore

#: FastAPI's own pages about the API (the description itself), not doors into the index.
DOCUMENTATION = {"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"}


def _routes(routes: list) -> set[tuple[str, str]]:
    """(method, path) of every route, those of included routers too (our routers are included
    without a prefix of their own), path parameters written as OpenAPI writes them."""
    found = set()
    for route in routes:
        if hasattr(route, "original_router"):
            found |= _routes(route.original_router.routes)
        elif isinstance(route, Route) and route.path not in DOCUMENTATION:
            path = re.sub(r"\{(\w+):\w+\}", r"{\1}", route.path)
            found.update((method, path) for method in (route.methods or {"POST"}) - {"HEAD"})
    return found


def test_every_route_is_described_and_counted(engine: Engine, tmp_path: Path) -> None:
    api = make_api(engine, FeedbackStore(tmp_path / "votes.sqlite"), rate_limit=0)
    routes = _routes(api.routes)
    described = {(method.upper(), path) for path, item in api.openapi()["paths"].items() for method in item}
    assert {"/search", "/json", "/api/search", "/api/v1/feedback", "/mcp"} <= {path for _, path in routes}
    assert routes <= described, routes - described
    uncounted = [(m, p) for m, p in routes if not _counted({"type": "http", "method": m, "path": p})]
    assert uncounted == []


def _environment_names() -> set[str]:
    """Names config.py reads with os.environ.get / os.environ[...], and the *_ENV names it
    gives other modules to read."""
    tree = ast.parse(Path(config.__file__).read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "os.environ.get" and node.args:
            names.add(ast.literal_eval(node.args[0]))
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            names.add(ast.literal_eval(node.slice))
        elif isinstance(node, ast.Assign) and any(ast.unparse(t).endswith("_ENV") for t in node.targets):
            names.add(ast.literal_eval(node.value))
    return names


def test_every_environment_setting_is_documented() -> None:
    names = _environment_names()
    assert {"INDEX_DIR", "THEOREM_SEARCH_SHARED", "JUDGE_API_KEY"} <= names
    page = (config.REPO_DIR / "docs" / "layout.md").read_text(encoding="utf-8")  # its "Configuration"
    assert sorted(n for n in names if f"`{n}`" not in page) == []
