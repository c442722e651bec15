"""`POST /hammer/retrieve` in the shapes of LeanHammer's premise server, so that lean-lsp-mcp's
`lean_hammer_premise` tool (`LEAN_HAMMER_URL=http://HOST:PORT/hammer`) and Lean's cloud premise
selector can use this engine.

lean-lsp-mcp posts `{"state": goal, "new_premises": [], "k": n}`, where `goal` is the goal as
Lean's language server prints it (hypotheses, then `⊢ goal`), and reads `name` of each element
of the answer, a JSON array. The premise server's answer also gives each premise's `score`
and `decl` (its statement); so does this one. As that server does, a `k` of 0 or less answers
`[]` and a `k` above the most it serves is cut to it (`MAX_RESULTS`). The premises are the
goal-state search's (`statesearch.StateSearch`: lemmas whose conclusion matches the goal,
then rewriting candidates, then the engine's ranking). `new_premises` are the user's own
declarations (`{"name", "decl"}`), which the index cannot hold: one that has the name of an
indexed declaration replaces it (that declaration is not answered), as in the premise server,
and the others are not ranked. `imported_modules` and `local_premises` are read and ignored.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from search.api.indexes import Indexes
from search.api.statesearch import StateSearch, parse_goal
from search.api.validation import MAX_QUERY_CHARS, MAX_RESULTS, ApiError, clean_query, numeric_string

PATH = "/hammer/retrieve"
#: Premises asked for when the request names no `k` (lean-lsp-mcp's default).
DEFAULT_K = 32
#: At most this many of the user's declarations are read.
MAX_NEW_PREMISES = 2048


class NewPremise(BaseModel):
    model_config = ConfigDict(extra="ignore")

    name: str = Field(max_length=1000, description="The declaration's full name.")
    decl: str = Field("", max_length=20_000, description="Its statement as Lean prints it.")


class RetrieveRequest(BaseModel):
    """The premise server's request body."""

    model_config = ConfigDict(extra="ignore")

    state: str = Field(max_length=MAX_QUERY_CHARS, description="The goal as Lean prints it: hypotheses, then `⊢ goal`.",
                       examples=["a b : ℕ\n⊢ a + b = b + a"])
    new_premises: list[NewPremise] = Field(default_factory=list, max_length=MAX_NEW_PREMISES,
                                           description="The user's own declarations (`{\"name\", \"decl\"}`).")
    k: Annotated[int, BeforeValidator(numeric_string)] = Field(
        DEFAULT_K, strict=True, description=f"Number of premises (cut to {MAX_RESULTS}; 0 or less: none).")


class Premise(BaseModel):
    name: str = Field(description="Full Lean name, for `simp only [...]`, `aesop`, `grind`.")
    score: float = Field(description="Higher is better; compares the premises of one answer.")
    decl: str = Field(description="Its statement as written in the source.")


def router(indexes: Indexes, states: dict[str, StateSearch]) -> APIRouter:
    """The route over the default index (the premise server's request names no version)."""
    state_search = states[indexes.default]
    api = APIRouter(tags=["Premise selection"])

    @api.post(
        PATH,
        response_model=list[Premise],
        summary="Premise selection for a goal (LeanHammer's premise server)",
        description="Theorems and lemmas for a goal state, best first. Works with lean-lsp-mcp: "
        "`LEAN_HAMMER_URL=http://HOST:PORT/hammer`.",
    )
    def retrieve(request: RetrieveRequest) -> list[Premise]:
        if request.k <= 0:
            return []
        state = parse_goal(clean_query(request.state, "goal state"))
        if state is None or not state.goal:
            raise ApiError(400, "the state is not a goal state: it has no `⊢ goal` line")
        replaced = {p.name for p in request.new_premises}
        k = min(request.k, MAX_RESULTS)
        hits = state_search.search(state, min(k + len(replaced), MAX_RESULTS))
        kept = [hit for hit in hits if hit.statement.name not in replaced][:k]
        return [Premise(name=hit.statement.name, score=round(hit.score, 6), decl=hit.statement.statement) for hit in kept]

    return api

