"""Votes the server can trust: from sessions it issued, on results it served, a bounded number
per client address and query.

Every door that shows results and takes votes (the page, the native search API and
`POST /api/v1/feedback`) goes through one `Ballot`:
- `session(token)` gives back a valid session id, or issues one (search/feedback/sessions.py);
- `served(...)` records a result list shown to a session (search/feedback/served.py);
- `vote(...)` stores a vote only when its session is signed, its result was served to that
  session for that query, filters and variant at that rank within the record's age, and its
  address has fewer than `per_address` votes on that query; otherwise VoteRefused says which
  check failed, with the HTTP status that fits it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable

from search import config
from search.feedback.served import ServedResults, search_key
from search.feedback.sessions import SessionSigner
from search.feedback.store import FeedbackStore, TooManyVotes, Vote


class VoteRefused(Exception):
    """A vote not taken: `status` is the HTTP status that says why, `message` the reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Ballot:
    """The vote store with the checks every vote passes."""

    store: FeedbackStore
    served_results: ServedResults
    signer: SessionSigner
    per_address: int = config.FEEDBACK_VOTES_PER_ADDRESS_QUERY

    @classmethod
    def open(cls, store: FeedbackStore, secret: str | None = config.FEEDBACK_SECRET) -> "Ballot":
        """The ballot of a vote store: its served-results file (`<db>.served`) and its secret
        (`secret`, else `<db>.secret`) beside the database."""
        path: Path = store.path
        served = ServedResults(
            path.with_name(path.name + ".served"), config.FEEDBACK_SERVED_SECONDS, config.FEEDBACK_SERVED_LISTS
        )
        return cls(store, served, SessionSigner.beside(path, secret))

    def session(self, token: str | None) -> str:
        """`token` when this server issued it, else a new session id."""
        return token if token and self.signer.valid(token) else self.signer.issue()

    def served(
        self, session: str, query: str, filters: dict[str, list[str]], variant: str, results: Iterable[tuple[str, int]]
    ) -> None:
        """Record that `session` was shown `results` ((id, rank) pairs) for this search; a
        session this server did not issue could never vote on them, so nothing is recorded."""
        if self.signer.valid(session):
            self.served_results.record(session, search_key(query, filters, variant), results)

    def vote(self, vote: Vote, address: str) -> Vote:
        """Check and store a vote from a client at `address`; the vote as stored."""
        if not self.signer.valid(vote.session):
            raise VoteRefused(403, "the session is not one this server issued: take the `session` of a search "
                                   "response (or the page's) and vote on a result of that search")
        rank = self.served_results.rank(vote.session, search_key(vote.query, vote.filters, vote.variant), vote.result_id)
        if rank != vote.rank:
            hours = self.served_results.max_age / 3600
            shown = "not among the results" if rank is None else f"at rank {rank}, not {vote.rank}"
            raise VoteRefused(409, f"{vote.result_id} was {shown} served to this session for this query, "
                                   f"filters and variant in the last {hours:g} hours; search again, then vote")
        try:
            return self.store.vote(replace(vote, address=self.signer.address_key(address)), self.per_address)
        except TooManyVotes as error:
            raise VoteRefused(429, str(error)) from error
