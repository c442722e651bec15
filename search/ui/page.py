"""What the search page does, apart from how Gradio lays it out: run a request (a query under
filters, or one record by id) on one of the server's indexes, check what a URL asked for, and
record votes.

A page is a plain dict (Gradio keeps it in a `gr.State`): the request it answers and one entry
per card with the card's Markdown and this session's vote on it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from search import config
from search.api.indexes import Indexes
from search.api.service import SearchService
from search.api.validation import ApiError
from search.engine import core, variants
from search.feedback.ballot import Ballot, VoteRefused
from search.feedback.store import FeedbackError, Vote
from search.ui.cards import attribute, card_markdown, literal
from search.ui.explore import Explorer
from search.ui.facets import Facets
from search.ui.share import SearchRequest, to_query_string

if TYPE_CHECKING:
    from search.index.store import Index

HINT = (
    "Type a query: words (*fundamental theorem of calculus*), LaTeX (`$a^2+b^2=c^2$`), "
    "Lean notation or a Lean name (`Nat.succ_le_succ`), or `\"substring\"` of names."
)


@dataclass(frozen=True)
class IndexView:
    """One index as the page shows it: its search service, filter values and record cards."""

    service: SearchService
    facets: Facets
    explorer: Explorer

    @classmethod
    def of(cls, service: SearchService) -> "IndexView":
        return cls(service, Facets.from_records(service.index.records), Explorer(service.index, service.graph))


class SearchPage:
    """The search page's actions over a server's indexes (a Mathlib version each, say; the
    first is the default) and one vote store."""

    def __init__(self, indexes: Indexes, ballot: Ballot) -> None:
        self.views = {name: IndexView.of(service) for name, service in indexes.services.items()}
        self.default = indexes.default
        self.ballot = ballot
        self.store = ballot.store

    @property
    def names(self) -> list[str]:
        return list(self.views)

    @property
    def facets(self) -> Facets:
        """The default index's filter values (every index has the same filter keys)."""
        return self.views[self.default].facets

    @property
    def index(self) -> "Index":
        """The default index."""
        return self.views[self.default].service.index

    @property
    def sources(self) -> list[str]:
        """The sources of every index, in order, each once."""
        return list(dict.fromkeys(s for view in self.views.values() for s in view.facets.sources))

    def view(self, name: str) -> IndexView:
        return self.views.get(name or self.default, self.views[self.default])

    @property
    def filter_keys(self) -> tuple[str, ...]:
        return ("source", *self.facets.keys)

    def check(self, request: SearchRequest) -> tuple[SearchRequest, list[str]]:
        """The request with what the index cannot answer dropped, and a note for each drop."""
        notes = []
        if request.index and request.index not in self.views:
            notes.append(f"no index {request.index!r} on this server; using {self.default} ({', '.join(self.views)})")
            request.index = ""
        if request.index == self.default:
            request.index = ""
        facets = self.view(request.index).facets
        if not 1 <= request.k <= config.APP_MAX_RESULTS:
            k = min(max(request.k, 1), config.APP_MAX_RESULTS)
            notes.append(f"{request.k} results asked; showing {k} (from 1 to {config.APP_MAX_RESULTS})")
            request.k = k
        if request.variant not in variants.VARIANTS:
            notes.append(f"unknown ranking {request.variant!r}; using {variants.DEFAULT} "
                         f"({', '.join(variants.names())} exist)")
            request.variant = variants.DEFAULT
        sources = request.filters.get("source", [])
        for key in self.filter_keys:
            kept, unknown = facets.split(key, request.filters.get(key, []), sources)
            if unknown:
                notes.append(f"no {key} {', '.join(repr(v) for v in unknown)} in this index; filter ignored")
            if kept:
                request.filters[key] = kept
            else:
                request.filters.pop(key, None)
        for key in set(request.filters) - set(self.filter_keys):
            notes.append(f"unknown filter {key!r} ignored")
            del request.filters[key]
        return request, notes

    def run(self, request: SearchRequest, session: str | None) -> tuple[dict[str, Any] | None, str]:
        """The page for a checked request, and a status line (Markdown)."""
        if request.record:
            return self._record(request)
        if not request.query.strip():
            return None, HINT
        view = self.view(request.index)
        started = time.perf_counter()
        try:
            results = view.service.search(request.query, request.k, request.filters, request.variant)
        except ApiError as error:
            return None, f"⚠️ {literal(error.message)}"
        query = request.query.strip()
        votes = self.store.session_votes(session, query) if session else {}
        if session:
            self.ballot.served(session, query, request.filters, request.variant, ((r.statement.id, r.rank) for r in results))
        cards = []
        for result in results:
            card = view.explorer.result_card(result)
            cards.append({
                "id": card.statement.id, "name": card.statement.name, "rank": result.rank,
                "markdown": card_markdown(card), "vote": votes.get(card.statement.id, 0),
            })
        seconds = time.perf_counter() - started
        found = f"{len(cards)} result{'s' * (len(cards) != 1)}" if cards else "No results"
        where = f" in {literal(request.index or self.default)}" if len(self.views) > 1 else ""
        status = f"{found} for “{literal(query)}”{where} ({request.variant} ranking, {seconds:.2f} s)"
        return self._page(request, query, cards), status

    def _record(self, request: SearchRequest) -> tuple[dict[str, Any] | None, str]:
        view = self.view(request.index)
        card = view.explorer.record_card(request.record)
        if card is None:
            try:
                view.service.position(request.record)
            except ApiError as error:
                near = error.extra.get("suggestions") or []
                tail = f" Did you mean {', '.join(literal(s) for s in near)}?" if near else ""
                return None, f"⚠️ {literal(error.message)}.{tail}"
            return None, f"⚠️ no record {literal(request.record)}"
        item = {"id": card.statement.id, "name": card.statement.name, "rank": 0,
                "markdown": card_markdown(card), "vote": 0}
        return self._page(request, "", [item]), f"Record {literal(card.statement.id)}; search to leave it."

    def _page(self, request: SearchRequest, query: str, cards: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "query": query, "filters": request.filters, "variant": request.variant, "k": request.k,
            "record": request.record, "index": request.index, "cards": cards, "url": to_query_string(request),
        }

    def vote(
        self, page: dict[str, Any] | None, session: str | None, result_id: str, value: int, address: str
    ) -> tuple[bool, str]:
        """Store a vote on a result of `page` from a client at `address` (checked as every vote
        is: search/feedback/ballot.py): whether it is saved, and a status line."""
        if not page or not page.get("query"):
            return False, "⚠️ votes are on the results of a search"
        item = next((c for c in page["cards"] if c["id"] == result_id), None)
        if item is None or not session:
            return False, "⚠️ this result is no longer shown; search again to vote"
        try:
            self.ballot.vote(Vote(
                session=session, query=page["query"], result_id=result_id, vote=value,
                rank=item["rank"], filters=page["filters"], variant=page["variant"],
                index_version=self.view(page.get("index", "")).service.index.version,
            ), address)
        except (VoteRefused, FeedbackError) as error:
            return False, f"⚠️ vote not saved: {literal(str(error))}"
        item["vote"] = value
        thumb = "👍" if value > 0 else "👎"
        return True, f"{thumb} saved for {literal(item['name'])} (result {item['rank']}). Thank you."

    def version_markdown(self) -> str:
        """Each index's version for the page: record count, corpus commits and build date."""
        lines = [f"{len(view.service.index.records):,} records, {attribute(view.service.index.version)}"
                 + ("" if core.holds_core(view.service.index.manifest) or not view.service.lean_sources
                    else "; Lean core (Init, Std, Lean) not included")
                 for view in self.views.values()]
        if len(lines) == 1:
            return f"**Index:** {lines[0]}"
        return "**Indexes:**\n" + "".join(f"\n- `{literal(name)}`: {line}" for name, line in zip(self.views, lines))
