"""Loogle's term patterns, matched against every candidate statement of the pattern index at once.

A pattern is a Lean term with holes, read by `expr` (`Reading.TERMS`, strict): `_` is any
term, `?a` any term that is the same at each of its occurrences, a name a constant, and
notation what it elaborates to (`search.corpus.lean.notation`). As in Loogle
(`Loogle/Find.lean`: `matchAnywhere`, `matchConclusion`, `matchUpToHyps`):

- a pattern matches a statement when it matches some subterm of it; `⊢ pattern` when it
  matches the statement itself;
- matching a term `∀ params, conclusion` (a pattern that is a function type, or any
  `⊢` pattern) matches the conclusions, then each parameter of the pattern, in order, with
  the first parameter of the statement not yet taken that matches it: parameters match in
  any order, and the statement may have more (`⊢ _ < _ → tsum _ < tsum _` finds
  `tsum_lt_tsum`, whose hypothesis `f i < g i` is not the last);
- otherwise terms match node by node, a hole matching any term.

Statements are candidates only when they mention every constant of the pattern (the
postings of `search.index.patterns`); each check is then one numpy operation over all the
positions still in play, so a pattern costs a few dozen array operations, whatever the
number of candidates. The work is bounded: a pattern has at most `MAX_TOKENS` tokens, nests at
most `MAX_DEPTH` brackets deep, and stops with an error past `MAX_ATTEMPTS` places to try.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from search.corpus.lean.expr import VAR, Expr, ParseError, parse_term
from search.corpus.lean.syntax import TERM_BRACKETS, Token, term_tokens
from search.index.patterns import APP, FIRST_SYMBOL, PI, PatternIndex, symbol_of

#: Tokens a pattern may have.
MAX_TOKENS = 200
#: Brackets a pattern may nest.
MAX_DEPTH = 24
#: Places (statement nodes) a pattern may be tried at, over every candidate.
MAX_ATTEMPTS = 3_000_000

#: A compiled pattern node: ("any",), ("hole", name), ("code", code), ("a" | "f", left, right).
Compiled = tuple
Env = dict[str, np.ndarray]


class PatternError(ValueError):
    """A pattern that cannot be matched: why, where in its text (a character offset, or
    None), and the names it could have meant (`Real.sqrt` for `sqrt`)."""

    def __init__(self, message: str, offset: int | None = None, names: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        #: (written name, a name it could stand for) pairs, best first.
        self.names = names


@dataclass(frozen=True)
class Pattern:
    """A pattern as read: its term (holes `("?", name)`, `_` as `VAR`), whether it is a
    conclusion pattern (`⊢`), and the constants it mentions, in the order it writes them."""

    text: str
    term: Expr
    conclusion: bool
    constants: tuple[str, ...] = ()


def parse_pattern(text: str, conclusion: bool = False) -> Pattern:
    """Read a pattern, or PatternError saying where and why it cannot be read."""
    tokens = term_tokens(text)
    if not tokens:
        raise PatternError("an empty pattern", 0)
    if len(tokens) > MAX_TOKENS:
        raise PatternError(f"the pattern has {len(tokens):,} tokens; at most {MAX_TOKENS} are read", tokens[MAX_TOKENS].start)
    depth = 0
    for token in tokens:
        depth += token.text in TERM_BRACKETS.opening
        depth -= token.text in TERM_BRACKETS.closing
        if depth > MAX_DEPTH:
            raise PatternError(f"the pattern nests brackets more than {MAX_DEPTH} deep", token.start)
    bound: set[str] = set()
    try:
        term = parse_term(tokens, strict=True, bound=bound)
    except ParseError as error:
        raise PatternError(error.message, _offset(error.token, text)) from None
    except RecursionError:
        raise PatternError("the pattern is nested too deeply to read", 0) from None
    term, free = _holes(term, bound)
    if free:
        name = free[0]
        raise PatternError(f"unknown identifier '{name}' (write ?{name} for a term to match)", _find(text, name),
                           ((name, f"?{name}"),))
    if term == VAR or term[0] == "?":
        raise PatternError("Cannot search for _. Did you forget to put a term pattern in parentheses?", 0)
    return Pattern(text, term, conclusion, tuple(dict.fromkeys(_constants(term))))


def _offset(token: Token | None, text: str) -> int:
    return len(text) if token is None else token.start


def _find(text: str, name: str) -> int | None:
    at = text.find(name)
    return at if at >= 0 else None


def _holes(term: Expr, bound: set[str]) -> tuple[Expr, list[str]]:
    """The pattern with its bound variables as holes (`∑ x ∈ s, ?f x`: `x` stands for the
    statement's variable), and the variables nothing binds."""
    free: list[str] = []

    def walk(e: Expr) -> Expr:
        if e[0] in ("a", "f"):
            return (e[0], walk(e[1]), walk(e[2]))
        if e[0] == "l":
            if e[1] not in bound and e[1] not in free:
                free.append(e[1])
            return ("?", e[1])
        return e

    return walk(term), free


def _constants(term: Expr) -> Iterable[str]:
    if term[0] in ("a", "f"):
        yield from _constants(term[1])
        yield from _constants(term[2])
    elif term[0] == "c":
        yield term[1]


class Matcher:
    """Patterns over one pattern index (module docstring)."""

    def __init__(self, index: PatternIndex) -> None:
        self.index = index
        self.nodes = np.asarray(index.nodes)
        self.ends = np.asarray(index.ends)
        self.offsets = np.asarray(index.offsets)
        #: A code no node has: what an unknown numeral or sort compiles to.
        self.nowhere = FIRST_SYMBOL + len(index.symbols)

    def unknown(self, pattern: Pattern) -> list[str]:
        """The constants of the pattern that no statement mentions."""
        return [name for name in pattern.constants if f"c:{name}" not in self.index.code]

    def candidates(self, constants: Iterable[str]) -> np.ndarray:
        """The records whose statement mentions every constant (sorted), rarest first."""
        lists = sorted((self.index.mentioning(f"c:{name}") for name in constants), key=len)
        if not lists:
            raise ValueError("candidates need at least one constant")
        found = np.asarray(lists[0])
        for more in lists[1:]:
            found = found[np.isin(found, more, assume_unique=True)]
        return found.astype(np.int64)

    def matching(self, pattern: Pattern, records: np.ndarray) -> np.ndarray:
        """The records among `records` (sorted) whose statement the pattern matches."""
        records = np.asarray(records, dtype=np.int64)
        if not len(records):
            return records
        compiled = self.compile(pattern.term)
        if pattern.conclusion:
            attempts = self.offsets[records]
            attempts = attempts[self.offsets[records + 1] > attempts]
            found = self._up_to_hypotheses(compiled, attempts)
        elif compiled[0] == "f":
            found = self._up_to_hypotheses(compiled, self._positions(records, PI))
        else:
            found = self._matched(compiled, self._anchors(compiled, records))
        owners = np.searchsorted(self.offsets, found, side="right") - 1
        return _distinct(owners, len(self.offsets) - 1)

    def compile(self, term: Expr) -> Compiled:
        if term[0] in ("a", "f"):
            return (term[0], self.compile(term[1]), self.compile(term[2]))
        if term[0] == "?":
            return ("hole", term[1])
        symbol = symbol_of(term)
        if symbol is None:
            return ("any",)
        return ("code", self.index.code.get(symbol, self.nowhere))

    # --- Where to try a pattern ------------------------------------------------------------------

    def _anchors(self, compiled: Compiled, records: np.ndarray) -> np.ndarray:
        """The nodes of the records where a pattern could match: the application spines
        whose head is the pattern's head, when it has one."""
        spine, head = 0, compiled
        while head[0] == "a":
            spine, head = spine + 1, head[1]
        if head[0] != "code":
            return self._positions(records, APP if spine else None)
        occurrences = np.asarray(self.index.occurring(head[1])) if head[1] < self.nowhere else np.zeros(0, np.int64)
        wanted = np.zeros(len(self.offsets) - 1, dtype=bool)
        wanted[records] = True
        occurrences = occurrences[wanted[np.searchsorted(self.offsets, occurrences, side="right") - 1]]
        starts = occurrences.astype(np.int64) - spine
        keep = starts >= 0
        for k in range(spine):
            keep[keep] &= self.nodes[starts[keep] + k] == APP
        return self._bounded(starts[keep])

    def _positions(self, records: np.ndarray, code: int | None) -> np.ndarray:
        """Every node of the records (holding `code`, when given)."""
        starts, stops = self.offsets[records], self.offsets[records + 1]
        lengths = stops - starts
        positions = np.arange(int(lengths.sum()), dtype=np.int64) + np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
        return self._bounded(positions if code is None else positions[self.nodes[positions] == code])

    @staticmethod
    def _bounded(attempts: np.ndarray) -> np.ndarray:
        """The places to try, or PatternError when there are more than `MAX_ATTEMPTS`."""
        if len(attempts) > MAX_ATTEMPTS:
            raise PatternError(
                f"the pattern is too general: it would be tried at {len(attempts):,} places (at most "
                f"{MAX_ATTEMPTS:,}); add a constant, or a \"name fragment\" filter")
        return attempts

    # --- Matching --------------------------------------------------------------------------------

    def _matched(self, compiled: Compiled, attempts: np.ndarray) -> np.ndarray:
        keep, _ = self._run(compiled, attempts, {})
        return attempts[keep]

    def _up_to_hypotheses(self, compiled: Compiled, attempts: np.ndarray) -> np.ndarray:
        """Where `∀ params, conclusion` matches (module docstring): conclusions first, then
        each parameter with the first unused hypothesis of the statement that matches it."""
        params: list[Compiled] = []
        while compiled[0] == "f":
            params.append(compiled[1])
            compiled = compiled[2]
        conclusions = attempts.copy()
        owners: list[np.ndarray] = []
        places: list[np.ndarray] = []
        current, at = np.arange(len(attempts)), attempts
        while len(at):
            is_pi = self.nodes[at] == PI
            current, domains = current[is_pi], at[is_pi] + 1
            owners.append(current)
            places.append(domains)
            at = self.ends[domains]
            conclusions[current] = at
        alive, env = self._run(compiled, conclusions, {})
        hypothesis_owner = np.concatenate(owners) if owners else np.zeros(0, np.int64)
        hypothesis_place = np.concatenate(places) if places else np.zeros(0, np.int64)
        used = np.zeros(len(hypothesis_place), dtype=bool)
        for param in params:
            row = np.full(len(attempts), -1)
            row[alive] = np.arange(len(alive))
            pairs = np.flatnonzero((row[hypothesis_owner] >= 0) & ~used)
            rows = row[hypothesis_owner[pairs]]
            matched, paired = self._run(param, hypothesis_place[pairs], {k: v[rows] for k, v in env.items()})
            hits = pairs[matched]
            # The first matching hypothesis of each statement (hypotheses are listed by depth).
            order = np.lexsort((hits, hypothesis_owner[hits]))
            _, first = np.unique(hypothesis_owner[hits[order]], return_index=True)
            chosen = order[first]
            used[hits[chosen]] = True
            alive = hypothesis_owner[hits[chosen]]
            env = {k: v[chosen] for k, v in paired.items()}
        return attempts[alive]

    def _run(self, pattern: Compiled, places: np.ndarray, env: Env) -> tuple[np.ndarray, Env]:
        """Which of `places` the pattern matches (indices into `places`), with the holes'
        places for those (`env`: hole -> place of its first occurrence, aligned)."""
        kind = pattern[0]
        if kind == "any":
            return np.arange(len(places)), env
        if kind == "code":
            keep = np.flatnonzero(self.nodes[places] == pattern[1])
            return keep, _take(env, keep)
        if kind == "hole":
            name = pattern[1]
            if name not in env:
                return np.arange(len(places)), {**env, name: places}
            keep = np.flatnonzero(self._same(env[name], places))
            return keep, _take(env, keep)
        keep = np.flatnonzero(self.nodes[places] == (APP if kind == "a" else PI))
        inner = places[keep]
        left, env = self._run(pattern[1], inner + 1, _take(env, keep))
        keep, inner = keep[left], inner[left]
        right, env = self._run(pattern[2], self.ends[inner + 1], env)
        return keep[right], env

    def _same(self, first: np.ndarray, second: np.ndarray) -> np.ndarray:
        """Whether the subtrees at `first` and `second` are equal, pair by pair."""
        lengths = self.ends[first] - first
        same = lengths == self.ends[second] - second
        todo = np.flatnonzero(same)
        offset = 0
        while len(todo):
            todo = todo[lengths[todo] > offset]
            differ = self.nodes[first[todo] + offset] != self.nodes[second[todo] + offset]
            same[todo[differ]] = False
            todo = todo[~differ]
            offset += 1
        return same


def _distinct(positions: np.ndarray, size: int) -> np.ndarray:
    """The distinct values of `positions` (all below `size`), sorted: a mask over the records
    costs less than sorting 100,000 matches (`np.unique`)."""
    seen = np.zeros(size, dtype=bool)
    seen[positions] = True
    return np.flatnonzero(seen)


def _take(env: Env, keep: np.ndarray) -> Env:
    return {name: places[keep] for name, places in env.items()}
