"""Loogle's query forms answered over the Lean records of one index.

Query forms answered (comma-separated filters must all hold):

- a constant name, `Real.sin`: the constant itself, then the Lean declarations that refer to
  it. "Refer" is what the records know: `deps` are the names that identifiers in the
  declaration's header *and* proof resolve to, so a use inside a proof counts too. Hits
  whose statement (binders and type) writes the constant (as `Real.sin`, or `sin` inside
  `namespace Real`) come first, those that only use it in the proof or through notation
  (`π`, `∑`) after them, each tier by PageRank. A short name of records (`sin`) is an
  unknown identifier whose suggestions are the full names (`Real.sin`); another name that
  is no record (Lean core's `Nat.succ`) matches the statements that write it in full;
- a quoted `"substring"` of declaration names, case-insensitive.

Loogle's other filters (subexpression patterns such as `_ * (_ ^ _)`, `?a` variables,
`⊢` conclusions) need Lean's elaborator and are answered with an error that says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from rapidfuzz import fuzz

from search.corpus.lean.syntax import top_level
from search.engine.engine import Engine
from search.engine.graph import DependencyGraph
from search.engine.names import SUGGESTIONS, nearest
from search.record import Statement
from search.text.lean_text import declaration_type

#: A name-shaped filter: a letter or `_` first, then letters, digits, `_ ' ! ?`, subscripts,
#: dots, «». Looser than a Lean identifier (`syntax.IDENT_PATTERN`) on purpose: a name being
#: typed (`Real.`) is looked up and answered with suggestions, not rejected as a pattern.
_NAME = re.compile(r"^(?:[^\W\d]|«)[\w.'!?«»]*$")
#: Words of a declaration header. Not Lean identifiers: a projection such as `h.1.le` stays
#: one word, so that the header is not taken to write the constant `le`.
_TOKEN = re.compile(r"[\w.'!?«»]+")
#: A quoted part of a query, to its closing quote or the end.
_QUOTED = re.compile(r'"[^"]*"?')


@dataclass(frozen=True)
class LoogleResult:
    """The declarations shown (best first), how many matched in all, and a sentence saying so."""

    statements: list[Statement]
    count: int
    header: str


class QueryError(Exception):
    """A query Loogle would answer with `error` (HTTP 200) and `suggestions`."""

    def __init__(self, message: str, suggestions: list[str]) -> None:
        super().__init__(message)
        self.message = message
        self.suggestions = suggestions


@dataclass(frozen=True)
class Filter:
    kind: str  # "constant" or "substring"
    text: str

    def describe(self) -> str:
        return f"mentioning {self.text}" if self.kind == "constant" else f'with "{self.text}" in the name'


class LoogleSearch:
    """Loogle's query forms answered over the Lean records of one index."""

    def __init__(self, engine: Engine, graph: DependencyGraph, lean_sources: Sequence[str]) -> None:
        self.engine = engine
        self.index = engine.index
        self.graph = graph
        records = self.index.records
        sources = pa.array(list(lean_sources), pa.string())
        #: Which records are Lean declarations, by position.
        self.lean = pc.is_in(records.table["source"], value_set=sources).to_numpy()
        self.exact: dict[str, list[int]] = {}
        positions = np.flatnonzero(self.lean)
        for p, name in zip(positions.tolist(), records.column("name", positions)):
            self.exact.setdefault(name, []).append(p)

    def find(self, query: str, limit: int) -> LoogleResult:
        """The declarations matching every filter of `query` (the first `limit` of them, in
        Loogle's order), or QueryError."""
        filters = parse_filters(query, self.exact)
        matched: set[int] | None = None
        firsts: set[int] = set()
        for f in filters:
            found = self._substring(f.text) if f.kind == "substring" else self._constant(f.text)
            matched = found if matched is None else matched & found
            if f.kind == "constant":
                firsts.update(self.exact.get(f.text, []))
        candidates = list(matched or ())
        constants = [f.text for f in filters if f.kind == "constant"]
        records = self.index.records
        pagerank = self.index.pagerank
        statements = records.column("statement", candidates)
        key = {
            p: (p not in firsts, -sum(writes(statement, c) for c in constants), -float(pagerank[p]), name)
            for p, statement, name in zip(candidates, statements, records.column("name", candidates))
        }
        ordered = sorted(candidates, key=key.__getitem__)
        shown = ordered[:limit]
        header = f"Found {len(ordered)} declaration{'s' if len(ordered) != 1 else ''} " + " and ".join(
            f.describe() for f in filters
        ) + "."
        if len(shown) < len(ordered):
            header += f"\nOf these, {len(shown)} are shown."
        return LoogleResult(records.take(shown), len(ordered), header)

    def _constant(self, name: str) -> set[int]:
        """The constant and the records referring to it. A name that is no record: an error
        suggesting its namespaced forms when there are some (`sin` -> `Real.sin`), else the
        declarations whose statement writes it in full (Lean core's `Nat.succ`), else an
        error suggesting close spellings."""
        own = self.exact.get(name)
        if own:
            found = set(own)
            for p in own:
                found.update(self.graph.dependents(p))
            return {p for p in found if self.lean[p]}
        namespaced = self._namespaced(name)
        if namespaced:
            raise QueryError(f"Unknown identifier '{name}'", namespaced)
        records = self.index.records
        containing = np.flatnonzero(self.lean & pc.match_substring(records.table["statement"], name).to_numpy())
        written = {
            p for p, statement in zip(containing.tolist(), records.column("statement", containing))
            if writes(statement, name, full=True)
        }
        if not written:
            raise QueryError(f"Unknown identifier '{name}'", nearest(name, self.exact, scorer=fuzz.ratio))
        return written

    def _namespaced(self, name: str) -> list[str]:
        """Names that end with `.name`, most central first."""
        pagerank = self.index.pagerank
        tail = f".{name}"
        found = sorted(
            (n for n in self.exact if n.endswith(tail)),
            key=lambda n: -max(float(pagerank[p]) for p in self.exact[n]),
        )
        return found[:SUGGESTIONS]

    def _substring(self, needle: str) -> set[int]:
        """Lean records whose name contains `needle`, ignoring case."""
        by_name = self.index.by_name
        names = self.engine.name_table.containing([needle.lower()])
        return {p for name in names for p in by_name[name] if self.lean[p]}


def writes(header: str, name: str, full: bool = False) -> bool:
    """Whether a declaration's statement (its binders and type, not its own name) writes
    `name`: in full, or (unless `full`) by a dotted suffix as inside its namespace (`sin` for
    `Real.sin`)."""
    parts = name.split(".")
    forms = {name} if full else {".".join(parts[i:]) for i in range(len(parts))}
    return any(token.strip(".") in forms for token in _TOKEN.findall(declaration_type(header)))


def split_filters(query: str) -> list[str]:
    """Split at commas outside quotes and brackets: `Real.sin, "two"` -> two filters."""
    unquoted = _QUOTED.sub(lambda m: " " * len(m.group()), query)
    cuts = [-1, *top_level(unquoted, ","), len(query)]
    return [query[a + 1:b].strip() for a, b in zip(cuts, cuts[1:])]


def parse_filters(query: str, names: dict[str, list[int]]) -> list[Filter]:
    """The filters of a query, or QueryError for a form this server does not answer."""
    filters = []
    for part in split_filters(query):
        if len(part) >= 2 and part[0] == part[-1] == '"' and '"' not in part[1:-1]:
            if not part[1:-1].strip():
                raise QueryError('an empty "substring" matches every name; give some letters', [])
            filters.append(Filter("substring", part[1:-1]))
        elif _NAME.match(part):
            filters.append(Filter("constant", part))
        elif not part:
            raise QueryError("an empty filter between commas", [])
        else:
            known = [t for t in _TOKEN.findall(part) if t in names]
            raise QueryError(
                f"the filter {part!r} is a pattern; this server answers constant names, "
                '"name substrings" and comma-separated lists of them, not subexpression '
                "patterns, ?variables or ⊢ conclusions",
                list(dict.fromkeys(known))[:SUGGESTIONS],
            )
    return filters
