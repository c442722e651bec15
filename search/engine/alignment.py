"""Formal ↔ informal alignment: for one statement, the statements of the other language most
likely to say the same thing (a Stacks lemma's Mathlib formalisations, a Mathlib declaration's
informal statements), the exact links (`@[stacks TAG]`) first.

The search behind it is the engine's own, with the statement's text as the query and the
other language as the filter; the links are shown first but never feed the search, so that
the alignment can be measured on the links (`python -m eval retrieval --queries
stacks-to-mathlib`, `mathlib-to-stacks`).
"""

from __future__ import annotations

from dataclasses import dataclass

from search.engine.engine import Engine
from search.record import Statement
from search.text.lean_text import decode_name, signature_type

#: Characters of a statement's text used as its query.
QUERY_CHARS = 600


@dataclass(frozen=True)
class Aligned:
    """A statement of the other language: linked by the corpus (`linked`), or found by the
    search (`score` is its fused score; None for a link the search did not find)."""

    statement: Statement
    score: float | None
    linked: bool


def alignment_query(statement: Statement) -> str:
    """What a statement is searched by in the other language: an informal statement by its
    text (the LaTeX rendered as text), a Lean declaration by its name read aloud, its
    docstring and the type it states."""
    if statement.formal:
        _, stated = signature_type(statement.statement)
        text = " ".join(part for part in (decode_name(statement.name), statement.doc, stated) if part)
    else:
        text = statement.doc or statement.statement
    return " ".join(text.split())[:QUERY_CHARS]


def other_language(statement: Statement) -> str:
    return "latex" if statement.formal else "lean"


def aligned(engine: Engine, statement: Statement, k: int = 5) -> list[Aligned]:
    """The links of the other language first, then the best `k` search results not linked."""
    language = other_language(statement)
    linked = [s for s in (engine.index.get(i) for i in statement.links) if s is not None and s.language == language]
    found = engine.search(alignment_query(statement), k=k + len(linked), filters={"language": language})
    scores = {r.statement.id: r.score for r in found}
    link_ids = {s.id for s in linked}
    out = [Aligned(s, scores.get(s.id), True) for s in linked]
    out += [Aligned(r.statement, r.score, False) for r in found if r.statement.id not in link_ids][:k]
    return out
