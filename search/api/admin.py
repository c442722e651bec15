"""`POST /api/v1/admin/index`: swap the served index for another without stopping the server.

Only the multi-worker server has it (search/api/workers.py: the parent loads the new index and
replaces its workers, requests in flight finishing on the old one), and only when
`ADMIN_SECRET` is set: the request carries `Authorization: Bearer <ADMIN_SECRET>` (401
without, 403 with another), and `{"index": DIR}`, an index directory on the server's disk
(400 when it holds no `manifest.json`). The answer, 202, comes before the swap is done: the
new index shows in `GET /api/v1/index` once new workers serve it; one that fails to load is
logged and the old one goes on serving.
"""

from __future__ import annotations

import hmac
from pathlib import Path
from typing import Callable

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from search.api.validation import ApiError

PATH = "/api/v1/admin/index"


class SwapRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: str = Field(min_length=1, max_length=4096, description="Directory of the index to serve from now on.")


def router(secret: str, swap: Callable[[str], None]) -> APIRouter:
    """The route, over `swap(directory)`, which starts the swap and returns at once."""
    routes = APIRouter()

    @routes.post(PATH, status_code=202, include_in_schema=False)
    async def swap_index(body: SwapRequest, request: Request) -> JSONResponse:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise ApiError(401, "this command needs `Authorization: Bearer <ADMIN_SECRET>`")
        if not hmac.compare_digest(token.encode("utf-8"), secret.encode("utf-8")):
            raise ApiError(403, "wrong admin secret")
        directory = Path(body.index)
        if not (directory / "manifest.json").is_file():
            raise ApiError(400, f"{body.index}: no index there (no manifest.json); build one with "
                                f"`python -m search build --out DIR`")
        swap(str(directory.resolve()))
        return JSONResponse({"status": "swapping", "index": str(directory.resolve())}, status_code=202)

    return routes
