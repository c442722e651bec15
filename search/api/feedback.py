"""`POST /api/v1/feedback`: a thumb up or down on a result, from any client, into the app's vote
store (`search.feedback.store`, SQLite in WAL mode with `synchronous=FULL`).

The answer comes only after the vote is committed to disk, so a client that got `"saved": true`
can count on it surviving a crash of the server a moment later (tested by killing the server
with SIGKILL while twenty clients vote). The vote is checked as a search is: the query by the
same rules, the result id against the index (404 with near ids), filters and variant against
what the index has; the index version recorded is the server's own.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, field_validator

from search.api.native import FilterValue
from search.api.validation import MAX_QUERY_CHARS, MAX_RESULTS, ApiError, Variant, clean_query
from search.api.service import SearchService
from search.engine import variants
from search.feedback.store import FeedbackError, FeedbackStore, Vote

PATH = "/api/v1/feedback"
#: An anonymous session id: a random token the client keeps (the page keeps one per browser).
SESSION_PATTERN = r"^[A-Za-z0-9_.-]{1,128}$"

log = logging.getLogger(__name__)


class FeedbackRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    session: str = Field(
        pattern=SESSION_PATTERN,
        description="Anonymous session id (1 to 128 of A-Z a-z 0-9 _ . -); one vote per session, query and result: "
        "a second vote replaces the first.",
    )
    query: str = Field(max_length=MAX_QUERY_CHARS, description="The query whose result is voted on.")
    result_id: str = Field(max_length=MAX_QUERY_CHARS, description="The result's record id, e.g. `mathlib:mul_comm`.")
    vote: int = Field(strict=True, json_schema_extra={"enum": [-1, 1]}, description="+1 (relevant) or -1 (not).")
    rank: int = Field(strict=True, ge=1, le=MAX_RESULTS, description="The result's rank when it was voted on.")
    filters: dict[str, FilterValue] = Field(default_factory=dict, description="The filters of the search.")
    variant: Variant = Field(variants.DEFAULT, description="The ranking variant of the search.")

    @field_validator("vote")
    @classmethod
    def _one_way_or_the_other(cls, vote: int) -> int:
        if vote not in (-1, 1):
            raise ValueError(f"a vote is +1 or -1, not {vote}")
        return vote


class FeedbackSaved(BaseModel):
    saved: bool = Field(description="Always true: an unsaved vote is an error status, never this answer.")
    vote: dict[str, Any] = Field(description="The vote as stored, with the index version and a UTC timestamp.")


def router(service: SearchService, store: FeedbackStore) -> APIRouter:
    api = APIRouter(tags=["Feedback"])

    @api.post(PATH, response_model=FeedbackSaved, summary="Vote on a result (stored before the answer)")
    def feedback(request: FeedbackRequest) -> FeedbackSaved:
        query = clean_query(request.query)
        service.position(request.result_id)
        vote = Vote(
            session=request.session, query=query, result_id=request.result_id, vote=request.vote,
            rank=request.rank, filters=service.filters.check(request.filters), variant=request.variant,
            index_version=service.index.version,
        )
        try:
            stored = store.vote(vote)
        except FeedbackError as error:
            raise ApiError(400, str(error)) from error
        except sqlite3.Error as error:
            log.exception("vote not stored")
            raise ApiError(503, "the vote was not stored (the vote database is unavailable); send it again") from error
        return FeedbackSaved(saved=True, vote=stored.__dict__)

    return api
