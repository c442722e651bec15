"""`GET /api/search?query=<goal>` in LeanStateSearch's shapes, for Lean's `#statesearch`.

LeanSearchClient's `#statesearch` (and `#search` without a string, in tactic mode) sends the
main goal as Lean prints it (`Meta.ppGoal`: hypotheses, then `⊢ goal`) with `curl -X GET
--user-agent LeanSearchClient "URL?query=<goal>&results=<n>&rev=<v4.x.y>"`
(`LEANSEARCHCLIENT_LEANSTATESEARCH_API_URL`). It reads a JSON array of hits (`name`,
`formal_type`, and `doc`, `kind` when present), or on an error the object's `error` and
`schema.description`.

How a goal becomes a query: the goal's text comes first (the engine spells Lean notation out
in words, and the dense model reads only the first few dozen tokens), followed by the types
of the hypotheses other than instances and types (`h : n ≤ m`, `f : α → β`; not
`inst : CommGroup G` or `α : Type*`): what a closing lemma's premises are about. The engine's
first hits are then reordered by the goal's rarest constants they mention
(`search.engine.goals`, over the pattern index). `python -m eval goals` measures both choices
on MathlibMPR against the earlier rule (hypotheses sharing a variable with the goal).
Only theorem-like declarations (theorem, lemma) of the Lean sources are returned: those are
what `exact`, `apply` and `rw` use. With several indexes (search/api/indexes.py), `rev`
picks the one whose name, tag or Lean source commit it names, else the default; the headers
`X-Index` (its name) and `X-Index-Rev` (`matched` or `default`) say which answered, since the
answer is LeanStateSearch's bare array. Each hit's `rev` is the upstream commit its source was
indexed at.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from itertools import takewhile
from typing import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, Field

from search.api.formal import FormalHit
from search.text.lean_text import declaration_type
from search.api.validation import MAX_QUERY_CHARS, MAX_RESULTS, ApiError, clean_query
from search.api.indexes import Indexes
from search.api.service import SearchService
from search.engine import variants
from search.engine.engine import Result
from search.engine.goal_match import CLOSES, REWRITES, GoalMatcher
from search.engine.goals import GoalIndex, read_term, written_constants

PATH = "/api/search"
THEOREM_KINDS = ("theorem", "lemma")
#: At most this many hypotheses are added to the goal's text.
MAX_HYPOTHESES = 10
#: A hypothesis that declares a type (`α : Type*`, `β : Sort u`).
_UNIVERSE = re.compile(r"^(?:Type|Sort)\b")
#: The engine's hits reordered by the goal's constants, the constant of reciprocal rank, and
#: the weight of the constants (`python -m eval goals` measures the reordered list against the
#: engine's alone on MathlibMPR).
RERANKED = 100
RRF_K = 60
CONSTANTS_WEIGHT = 0.5
#: Closing and rewriting lemmas put before the engine's hits, at most (chosen on the goal states
#: made from the corpus of a Mathlib slice, `python -m eval goals`: more of either moved premises
#: of the engine's ranking out of the first 10).
CLOSES_FIRST = 3
REWRITES_FIRST = 2
QUERY_DESCRIPTION = (
    "A goal state as Lean prints it: hypotheses `x : T`, one a line, then a line `⊢ goal` "
    f"(at most {MAX_QUERY_CHARS} characters)."
)
#: Extra JSON fields of every error of this endpoint, as LeanStateSearch answers them.
ERROR_FIELDS = {"schema": {"description": QUERY_DESCRIPTION}}
#: Words of a printed goal that can name a variable. Not Lean identifiers: a projection
#: such as `p.1` stays one word, so that `p.1` and `p.2` are different words.
_IDENT = re.compile(r"[^\W\d][\w.'!?₀-₉]*")


@dataclass(frozen=True)
class GoalState:
    hypotheses: list[tuple[list[str], str]]  # (names, type) of each hypothesis line
    goal: str


def parse_goal(state: str) -> GoalState | None:
    """Hypotheses and goal of a printed goal state; None without a `⊢`.

    Indented lines continue the line above (Lean wraps long hypotheses); a `case tag` line
    is skipped; a one-line state (`x : ℝ ⊢ sin x ≤ 1`) also reads.
    """
    before, turnstile, after = state.partition("⊢")
    if not turnstile:
        return None
    first, *rest = after.split("\n")
    wrapped = takewhile(lambda line: line[:1].isspace(), rest)
    goal = " ".join([first.strip()] + [line.strip() for line in wrapped])
    entries: list[str] = []
    for line in before.split("\n"):
        if not line.strip():
            continue
        if entries and line[:1].isspace():
            entries[-1] += " " + line.strip()
        else:
            entries.append(line.strip())
    hypotheses = []
    for entry in entries:
        names, colon, type_ = entry.partition(" : ")
        if colon and not entry.startswith("case "):
            hypotheses.append((names.split(), type_.strip()))
    return GoalState(hypotheses, goal.strip())


def goal_query(state: GoalState, context: str = "stated") -> str:
    """The goal's text, then the types of some hypotheses (at most `MAX_HYPOTHESES`):
    `context="stated"`, every hypothesis but the instances (`inst✝ : CommGroup G`) and the
    types (`α : Type*`), in order, which is what a proof's premises are about; or
    `"sharing"`, the hypotheses sharing a variable with the goal, instances included (the rule
    before `python -m eval goals` measured both on MathlibMPR)."""
    in_goal = set(_IDENT.findall(state.goal))
    context_types: list[str] = []
    for names, type_ in state.hypotheses:
        if context == "sharing":
            keep = bool((set(names) | set(_IDENT.findall(type_))) & in_goal)
        else:
            keep = not any(n.startswith("inst") for n in names) and not _UNIVERSE.match(type_)
        if keep and type_ not in context_types:
            context_types.append(type_)
    text = state.goal
    for type_ in context_types[:MAX_HYPOTHESES]:
        if len(text) + len(type_) + 2 > MAX_QUERY_CHARS:
            break
        text += f"; {type_}"
    return text


class StateSearch:
    """Goal states answered over one service, in three tiers: the lemmas whose conclusion
    matches the goal (it closes it, up to `=`/`↔` symmetry; at most `CLOSES_FIRST`), then those a
    side of whose equation matches a subterm of it (rewriting candidates, at most
    `REWRITES_FIRST`), both found by
    structure (`search.engine.goal_match`); then the engine's answer to the goal's text
    (`goal_query`), reordered by the goal's rarest constants its hits mention
    (`search.engine.goals`). The structural tiers need the index's pattern index."""

    def __init__(self, service: SearchService) -> None:
        self.service = service
        index = service.index
        patterns = index.patterns
        self.goals = GoalIndex(patterns) if patterns is not None else None
        self.matcher = None
        if patterns is not None and self.goals is not None:
            kinds, codes = index.records.encode("kind")
            eligible_kinds = [i for i, kind in enumerate(kinds) if kind in THEOREM_KINDS]
            formal = pc.is_in(index.records.table["source"], value_set=pa.array(list(service.lean_sources), pa.string()))
            eligible = np.isin(codes, eligible_kinds) & formal.to_numpy(zero_copy_only=False)
            classes = index.records.column("name", np.flatnonzero(codes == kinds.index("class"))) if "class" in kinds else []
            self.matcher = GoalMatcher(patterns, eligible, index.pagerank, classes, self.goals.resolve)

    def search(self, state: GoalState, k: int, variant: str = variants.DEFAULT, context: str = "stated",
               constants: bool = True, structure: bool = True, exclude: Sequence[int] = ()) -> list[Result]:
        """The theorems and lemmas for a goal state, best first (what `GET /api/search`
        answers): with `structure`, the structural tiers first (class docstring); then the
        engine's hits for `goal_query(state, context)`, the first `RERANKED` of them reordered
        by reciprocal rank plus `CONSTANTS_WEIGHT` times the share of the goal's constants they
        mention (`constants`). `exclude`: record positions never answered (an evaluation's
        own theorem). `python -m eval goals` measures each choice."""
        position = self.service.index.position
        excluded = set(exclude)
        tiers = self._structural(state, excluded) if structure else []
        wanted = max(k, RERANKED) if constants and self.goals is not None else k
        hits = [h for h in self.service.formal_search(goal_query(state, context), wanted + len(excluded),
                                                       THEOREM_KINDS, variant, most=wanted + len(excluded))
                if position[h.statement.id] not in excluded]
        if constants and self.goals is not None and hits:
            weights = self.goals.constants([type_ for _, type_ in state.hypotheses], state.goal)
            shared = self.goals.scores(weights, np.asarray([position[h.statement.id] for h in hits]))
            top = shared.max()
            shared = shared / top if top > 0 else shared
            score = [(1.0 + CONSTANTS_WEIGHT * shared[i]) / (RRF_K + i + 1) for i in range(len(hits))]
            hits = [hits[i] for i in sorted(range(len(hits)), key=lambda i: -score[i])]
        answer, seen = [], set()
        for hit in [*tiers, *hits]:
            if hit.statement.id not in seen and len(answer) < k:
                seen.add(hit.statement.id)
                answer.append(hit)
        return [dataclasses.replace(hit, score=1.0 / (RRF_K + rank), rank=rank) for rank, hit in enumerate(answer, 1)]

    def _structural(self, state: GoalState, excluded: set[int]) -> list[Result]:
        """At most `CLOSES_FIRST` closing lemmas, then `REWRITES_FIRST` rewriting ones, as results."""
        if self.matcher is None or self.goals is None:
            return []
        term = read_term(state.goal)
        if term is None:
            return []
        fixed = {name for names, _ in state.hypotheses for name in names}
        mentioned = {name for text in [state.goal, *(type_ for _, type_ in state.hypotheses)]
                     for written in written_constants(read_term(text)) for name in [written, *self.goals.resolve(written)]}
        matches = self.matcher.match(term, fixed, mentioned, sorted(excluded))
        closes = [m for m in matches if m.kind == CLOSES][:CLOSES_FIRST]
        rewrites = [m for m in matches if m.kind == REWRITES][:REWRITES_FIRST]
        chosen = [*closes, *rewrites]
        statements = self.service.index.records.take([m.position for m in chosen])
        return [Result(statement=s, score=0.0, signals={"closes" if m.kind == CLOSES else "rewrites": {
                    "share": round(m.share, 6), "weight": round(m.weight, 6), "foreign": float(m.foreign),
                    "reversed": float(m.reversed)}})
                for m, s in zip(chosen, statements)]


class StateSearchHit(FormalHit):
    formal_type: str = Field(description="The statement as a type (`∀ binders, type`), read from the header.")
    rev: str = Field(description="Upstream commit of the indexed source this hit comes from.")


class StateSearchError(BaseModel):
    error: str
    schema_: dict[str, str] = Field(alias="schema", description="`description` says what a valid query is.")


#: Response headers naming the index that answered and whether `rev` chose it.
INDEX_HEADER = "X-Index"
REV_HEADER = "X-Index-Rev"


def router(indexes: Indexes, states: dict[str, StateSearch]) -> APIRouter:
    """The route over the named indexes, each answered by its `StateSearch` (`states`, by name:
    one per index, shared with the other shapes that search by goal)."""
    api = APIRouter(tags=["LeanStateSearch"])

    @api.get(
        PATH,
        response_model=list[StateSearchHit],
        responses={400: {"model": StateSearchError}, 422: {"model": StateSearchError}},
        summary="LeanStateSearch-compatible search by goal state",
        description=(
            "Theorems and lemmas that could close or rewrite the goal, best first. Works with "
            "LeanSearchClient: `LEANSEARCHCLIENT_LEANSTATESEARCH_API_URL=http://HOST:PORT/api/search`."
        ),
    )
    def statesearch(
        response: Response,
        query: str = Query(description=QUERY_DESCRIPTION, examples=["n m : ℕ\nh : n ≤ m\n⊢ n + 1 ≤ m + 1"]),
        results: int = Query(6, ge=1, le=MAX_RESULTS, description=f"Number of hits (1 to {MAX_RESULTS})."),
        rev: str = Query(
            "", max_length=100,
            description="The Lean version or commit (LeanSearchClient sends its Lean version): the index whose "
            "name, tag or Lean source commit matches answers; any other, the default index, and the "
            f"`{REV_HEADER}` header says `default`.",
        ),
    ) -> list[StateSearchHit]:
        name, matched = indexes.for_revision(rev)
        service = indexes.get(name)
        response.headers[INDEX_HEADER] = name
        response.headers[REV_HEADER] = "matched" if matched else "default"
        state = parse_goal(clean_query(query))
        if state is None or not state.goal:
            raise ApiError(400, "the query is not a goal state: it has no `⊢ goal` line")
        hits = states[name].search(state, results)
        return [
            StateSearchHit(
                formal_type=declaration_type(s.statement), rev=service.revision(s.source),
                **FormalHit.fields_of(s),
            )
            for s in (hit.statement for hit in hits)
        ]

    return api
