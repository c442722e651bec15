"""Loogle's query forms answered over the Lean records of one index.

A query is filters separated by commas, all of which must hold (Loogle's `#find`):

- a constant name, `Real.sin`: the constant itself, then the declarations whose statement
  mentions it (after notation is desugared and names resolved: the pattern index of
  `search.index.patterns`, so `Finset.sum` finds `∑ x ∈ s, f x`), then those that refer to it
  only in their proof (the corpus's `deps`; Loogle, which reads types only, has no third
  tier). A short name of records (`sin`) is an unknown identifier whose suggestions are the
  full names (`Real.sin`); a name no statement mentions is unknown, with close spellings;
- a quoted `"substring"` of declaration names, case-insensitive;
- a term pattern, `_ * (_ ^ _)`, `?a * ?b = ?b * ?a`, `(?a → ?b) → List ?a → List ?b`: the
  declarations with a subterm of that shape (`search.engine.patterns` says how it matches);
- `⊢ pattern` or `|- pattern`: the declarations whose conclusion has that shape, the
  pattern's hypotheses (`_ < _ → ...`) matching the statement's in any order.

Hits are ordered as Loogle orders them as far as the corpus tells: the constants themselves
first, then the statements mentioning most of the query's constants (so a constant's
statement uses come before its proof uses), then the fewest constants beyond the query's,
then the most central (PageRank, standing in for Loogle's order of modules, basic ones first,
for which the corpus has no import graph), then the smallest statement, then the name. A
query that cannot be answered is `QueryError`, Loogle's `{"error", "suggestions"}`, where each
suggestion is the query with an unknown name replaced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from rapidfuzz import fuzz

from search.corpus.lean import notation
from search.corpus.lean.syntax import TERM_BRACKETS, Token, term_tokens
from search.engine import core
from search.engine.engine import Engine
from search.engine.graph import DependencyGraph
from search.engine.names import SUGGESTIONS, nearest
from search.engine.patterns import Matcher, Pattern, PatternError, parse_pattern
from search.record import Statement

#: A name-shaped filter: a letter or `_` first, then letters, digits, `_ ' ! ?`, subscripts,
#: dots, «». Looser than a Lean identifier (`syntax.IDENT_PATTERN`) on purpose: a name being
#: typed (`Real.`) is looked up and answered with suggestions, not read as a pattern.
_NAME = re.compile(r"^(?:[^\W\d]|«)[\w.'!?«»]*$")
#: A quoted part of a query, to its closing quote or the end.
_QUOTED = re.compile(r'"[^"]*"?')
_TURNSTILES = ("⊢", "|-")
#: Binders whose variables end at a comma: that comma separates no filters.
_COMMA_BINDERS = frozenset({"∀", "Π", "∃", "∃!", "Σ", *notation.BINDERS})


@dataclass(frozen=True)
class LoogleResult:
    """The declarations shown (best first), how many matched in all, and what was found."""

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
    """One comma-separated part of a query: its kind, its text, and where it starts."""

    kind: str  # "constant", "substring", "pattern" or "conclusion"
    text: str
    start: int = 0


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
        positions = np.flatnonzero(self.lean)
        names = records.table["name"].take(pa.array(positions, pa.int64()))
        patterns = self.index.patterns
        self.matcher = Matcher(patterns) if patterns is not None else None
        #: Each Lean record's place in the order of names (ties by position: Arrow's sort is
        #: stable): the last tie-breaker of `_ordered`, without reading 100,000 names for a
        #: pattern as general as `Eq _`.
        self.name_rank = np.zeros(len(self.lean), dtype=np.int64)
        self.name_rank[positions[pc.sort_indices(names).to_numpy()]] = np.arange(len(positions))

    def find(self, query: str, limit: int) -> LoogleResult:
        """The declarations matching every filter of `query` (the first `limit` of them, in
        Loogle's order), or QueryError."""
        ordered, lines = self.search(query)
        shown = ordered[:limit]
        if len(shown) < len(ordered):
            lines.append(f"Of these, only the first {len(shown)} are shown.")
        return LoogleResult(self.index.records.take(shown.tolist()), len(ordered), "\n".join(lines))

    def search(self, query: str) -> tuple[np.ndarray, list[str]]:
        """The positions of every declaration matching `query`, in Loogle's order, and the
        header's lines saying how they were found; or QueryError."""
        filters = parse_filters(query)
        patterns = [self._pattern(query, f) for f in filters if f.kind in ("pattern", "conclusion")]
        constants = [f.text for f in filters if f.kind == "constant"]
        needles = list(dict.fromkeys([*constants, *(c for p in patterns for c in p.constants)]))
        firsts: set[int] = set()
        found: np.ndarray | None = None
        lines = []
        for name in constants:
            itself, stated, referring = self._constant(query, name)
            firsts.update(itself.tolist())
            found = _and(found, np.concatenate((itself, stated, referring)))
            if not len(itself) and (absent := core.note(self.index.manifest, name)):
                lines.append(f"{name} itself is not a declaration here: {absent}.")
        pattern_constants = [c for p in patterns for c in p.constants if c not in constants]
        if pattern_constants:
            found = _and(found, self._matcher().candidates(pattern_constants))
        if found is not None:
            lines.append(f"Found {_count(found, 'declarations', 'one declaration')} mentioning {_and_list(needles)}.")
        substrings = [f.text for f in filters if f.kind == "substring"]
        if substrings:
            fragments = _and_list([f'"{s}"' for s in substrings])
            found = _and(found, self._substring(substrings))
            lines.append(f"Of these, {_count(found, 'have', 'one has')} a name containing {fragments}." if needles
                         else f"Found {_count(found, 'declarations', 'one declaration')} whose name contains {fragments}.")
        if found is None:
            raise QueryError("Cannot search: No constants or name fragments in search pattern.", [])
        for pattern in patterns:
            try:
                found = self._matcher().matching(pattern, found)
            except PatternError as error:
                raise QueryError(error.message, []) from None
        if patterns:
            lines.append(f"Of these, {_count(found, 'match', 'one matches')} your pattern(s).")
        return self._ordered(found, firsts, needles, frozenset(pattern_constants)), lines

    def _matcher(self) -> Matcher:
        if self.matcher is None:
            raise QueryError("this index was built without the pattern index, so it answers names and "
                             '"substrings" only; rebuild it with: python -m search build', [])
        return self.matcher

    def _pattern(self, query: str, f: Filter) -> Pattern:
        """The filter's pattern, its names checked, or QueryError saying where it fails."""
        try:
            pattern = parse_pattern(f.text, conclusion=f.kind == "conclusion")
        except PatternError as error:
            where = "" if error.offset is None else f" at character {f.start + error.offset + 1}"
            raise QueryError(f"cannot read the pattern {f.text!r}{where}: {error.message}",
                             [_replace(query, f.start + (error.offset or 0), old, new) for old, new in error.names]) from None
        for name in self._matcher().unknown(pattern):
            at = f.start + max(f.text.find(name), 0)
            options = self._namespaced(name) or self._close(name)
            raise QueryError(f"Unknown identifier '{name}'", [_replace(query, at, name, n) for n in options])
        return pattern

    def _constant(self, query: str, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The constant itself, the Lean records whose statement mentions it, and those that
        refer to it otherwise (in their proof). A name that is no record and that no statement
        mentions: an error suggesting its namespaced forms when there are some (`sin` ->
        `Real.sin`), else close spellings."""
        own = np.asarray(self._named(name), dtype=np.int64)
        stated = self._mentioning(name)
        referring = np.asarray([p for q in own.tolist() for p in self.graph.dependents(q) if self.lean[p]], dtype=np.int64)
        if len(own) or len(stated):
            return own, stated, np.setdiff1d(referring, stated)
        options = self._namespaced(name) or self._close(name)
        absent = core.note(self.index.manifest, name)
        raise QueryError(f"Unknown identifier '{name}'" + (f" ({absent})" if absent else ""),
                         [_replace(query, query.find(name), name, n) for n in options])

    def _named(self, name: str) -> list[int]:
        """The Lean records named `name` (as written), through the index's lowercased names
        rather than a table of their own: one of 280k names took 0.16 s of every start and
        ~35 MB."""
        positions = [p for p in self.index.by_name.get(name.lower(), []) if self.lean[p]]
        names = self.index.records.column("name", positions)
        return [p for p, written in zip(positions, names) if written == name]

    def _mentioning(self, name: str) -> np.ndarray:
        patterns = self.index.patterns
        if patterns is None:
            return np.zeros(0, dtype=np.int64)
        found = np.asarray(patterns.mentioning(f"c:{name}"), dtype=np.int64)
        return found[self.lean[found]]

    def _namespaced(self, name: str) -> list[str]:
        """Names of records, or constants statements mention, that end with `.name`, most
        used first."""
        tail = f".{name}"
        counts: dict[str, float] = {}
        lowered = self.engine.name_table.containing([tail.lower()])
        positions = [p for n in lowered for p in self.index.by_name[n] if self.lean[p]]
        for p, n in zip(positions, self.index.records.column("name", positions)):
            if n.endswith(tail):
                counts[n] = max(counts.get(n, 0.0), float(self.index.dependents[p]))
        patterns = self.index.patterns
        if patterns is not None:
            for symbol in patterns.code:
                if symbol.startswith("c:") and symbol.endswith(tail) and symbol[2:] not in counts:
                    counts[symbol[2:]] = float(len(patterns.mentioning(symbol)))
        return sorted(counts, key=lambda n: (-counts[n], n))[:SUGGESTIONS]

    def _close(self, name: str) -> list[str]:
        lean = self.index.records.column("name", np.flatnonzero(self.lean))
        return nearest(name, dict.fromkeys(lean), scorer=fuzz.ratio)

    def _substring(self, needles: list[str]) -> np.ndarray:
        """Lean records whose name contains every needle, ignoring case."""
        by_name = self.index.by_name
        names = self.engine.name_table.containing([n.lower() for n in needles])
        return np.unique(np.asarray([p for name in names for p in by_name[name] if self.lean[p]], dtype=np.int64))

    def _ordered(self, found: np.ndarray, firsts: set[int], needles: list[str],
                 everywhere: frozenset[str] = frozenset()) -> np.ndarray:
        """Loogle's order (module docstring): the constants themselves, then by the query's
        constants the statement mentions (most first), the others it mentions (fewest first),
        PageRank, size and name. `everywhere`: needles every found statement mentions (the
        patterns' constants, by which the candidates were chosen), counted without a lookup."""
        found = np.asarray(found, dtype=np.int64)
        patterns = self.index.patterns
        if not len(found) or patterns is None:
            return found
        mentioned = np.full(len(found), sum(name in everywhere for name in needles), dtype=np.int64)
        for name in needles:
            if name not in everywhere:
                mentioned += np.isin(found, patterns.mentioning(f"c:{name}"))
        extra = patterns.constants[found] - mentioned
        itself = np.isin(found, list(firsts))
        order = np.lexsort((self.name_rank[found], patterns.sizes(found), -self.index.pagerank[found], extra, -mentioned, ~itself))
        return found[order]


def split_filters(query: str) -> list[tuple[int, str]]:
    """(offset, text) of each filter: cut at commas outside quotes and brackets (`Real.sin,
    "two"` has two) that end no binder's variables (`∀ x, f x = _` and `∑ x ∈ s, f x` are
    one each), surrounding space dropped."""
    unquoted = _QUOTED.sub(lambda m: " " * len(m.group()), query)
    cuts = [-1]
    pending = 0
    for token in _top_level_tokens(unquoted):
        if token.text in _COMMA_BINDERS:
            pending += 1
        elif token.text == ",":
            if pending:
                pending -= 1
            else:
                cuts.append(token.start)
    cuts.append(len(query))
    parts = []
    for a, b in zip(cuts, cuts[1:]):
        text = query[a + 1:b]
        parts.append((a + 1 + len(text) - len(text.lstrip()), text.strip()))
    return parts


def _top_level_tokens(text: str) -> list[Token]:
    """The tokens of `text` outside brackets (commas inside brackets cut nothing)."""
    tokens, depth = [], 0
    for token in term_tokens(text):
        if token.text in TERM_BRACKETS.opening:
            depth += 1
        elif token.text in TERM_BRACKETS.closing:
            depth = max(depth - 1, 0)
        elif depth == 0:
            tokens.append(token)
    return tokens


def parse_filters(query: str) -> list[Filter]:
    """The filters of a query, or QueryError for one that is empty or too general."""
    filters = []
    for start, part in split_filters(query):
        if len(part) >= 2 and part[0] == part[-1] == '"' and '"' not in part[1:-1]:
            if not part[1:-1].strip() or part[1:-1] == ".":
                raise QueryError("Name pattern is too general", [])
            filters.append(Filter("substring", part[1:-1], start + 1))
        elif not part:
            raise QueryError("an empty filter between commas", [])
        elif part == "_":
            raise QueryError("Cannot search for _. Did you forget to put a term pattern in parentheses?", [])
        elif turnstile := next((t for t in _TURNSTILES if part.startswith(t)), None):
            body = part[len(turnstile):]
            filters.append(Filter("conclusion", body.strip(), start + len(turnstile) + len(body) - len(body.lstrip())))
        elif _NAME.match(part):
            filters.append(Filter("constant", part, start))
        else:
            filters.append(Filter("pattern", part, start))
    return filters


def _and(found: np.ndarray | None, more: np.ndarray) -> np.ndarray:
    """The positions in both (sorted, distinct; `found` None: all of `more`)."""
    more = np.asarray(more, dtype=np.int64)
    if len(more) > 1 and not (more[1:] > more[:-1]).all():
        more = np.unique(more)
    return more if found is None else found[np.isin(found, more, assume_unique=True)]


def _count(found: np.ndarray, many: str, one: str) -> str:
    """Loogle's wording of a count: `one declaration`, `3 declarations`."""
    return one if len(found) == 1 else f"{len(found):,} {many}"


def _and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _replace(query: str, at: int, old: str, new: str) -> str:
    """The query with `old`, found at or after `at`, replaced by `new` (a suggestion)."""
    where = query.find(old, max(at, 0))
    where = where if where >= 0 else query.find(old)
    return query if where < 0 else query[:where] + new + query[where + len(old):]
