"""`POST /api/v1/feedback`: a thumb up or down on a result, from any client, into the app's vote
store (`search.feedback.store`, SQLite in WAL mode with `synchronous=FULL`).

A vote names the session that a native search answered with (`session` in the answer of
`/api/v1/search`), and the search it is about: the query, filters and variant, the result's id
and the rank it was served at. It is taken only when that session was issued by this server,
was served that result at that rank for that search lately, and its address has not voted on
the query too often (search/feedback/ballot.py): otherwise a 403, 409 or 429 says which.
The answer comes only after the vote is committed to disk, so a client that got
`"saved": true` can count on it surviving a crash of the server a moment later (tested by
killing the server with SIGKILL while twenty clients vote). The query is checked by the
rules of a search, the result id against the index (404 with near ids), filters and variant
against what the index has; the index version recorded is the server's own.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator

from search.api.native import FilterValue
from search.api.validation import MAX_QUERY_CHARS, MAX_RESULTS, ApiError, Variant, clean_query
from search.api.indexes import Indexes
from search.engine import variants
from search.feedback.ballot import Ballot, VoteRefused
from search.feedback.sessions import SESSION_PATTERN
from search.feedback.store import FeedbackError, Vote

PATH = "/api/v1/feedback"

log = logging.getLogger(__name__)


class FeedbackRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    session: str = Field(
        pattern=SESSION_PATTERN,
        description="The `session` of the search answer whose result this vote is on (issued by this server); "
        "one vote per session, query and result: a second vote replaces the first.",
    )
    query: str = Field(max_length=MAX_QUERY_CHARS, description="The query whose result is voted on.")
    result_id: str = Field(max_length=MAX_QUERY_CHARS, description="The result's record id, e.g. `mathlib:mul_comm`.")
    vote: int = Field(strict=True, json_schema_extra={"enum": [-1, 1]}, description="+1 (relevant) or -1 (not).")
    rank: int = Field(strict=True, ge=1, le=MAX_RESULTS, description="The result's rank in that search's answer.")
    filters: dict[str, FilterValue] = Field(default_factory=dict, description="The filters of the search.")
    variant: Variant = Field(variants.DEFAULT, description="The ranking variant of the search.")
    index: str | None = Field(None, max_length=100, description="The index of the search when not the default.")

    @field_validator("vote")
    @classmethod
    def _one_way_or_the_other(cls, vote: int) -> int:
        if vote not in (-1, 1):
            raise ValueError(f"a vote is +1 or -1, not {vote}")
        return vote


class FeedbackSaved(BaseModel):
    saved: bool = Field(description="Always true: an unsaved vote is an error status, never this answer.")
    vote: dict[str, Any] = Field(description="The vote as stored, with the index version and a UTC timestamp.")


def router(indexes: Indexes, ballot: Ballot) -> APIRouter:
    api = APIRouter(tags=["Feedback"])

    @api.post(PATH, response_model=FeedbackSaved, summary="Vote on a result of a search (stored before the answer)")
    def feedback(request: FeedbackRequest, http: Request) -> FeedbackSaved:
        query = clean_query(request.query)
        service = indexes.get(request.index)
        service.position(request.result_id)
        vote = Vote(
            session=request.session, query=query, result_id=request.result_id, vote=request.vote,
            rank=request.rank, filters=service.filters.check(request.filters), variant=request.variant,
            index_version=service.index.version,
        )
        try:
            stored = ballot.vote(vote, http.client.host if http.client else "")
        except VoteRefused as refused:
            raise ApiError(refused.status, refused.message) from refused
        except FeedbackError as error:
            raise ApiError(400, str(error)) from error
        except sqlite3.Error as error:
            log.exception("vote not stored")
            raise ApiError(503, "the vote was not stored (the vote database is unavailable); send it again") from error
        return FeedbackSaved(saved=True, vote={k: v for k, v in stored.__dict__.items() if k != "address"})

    return api
