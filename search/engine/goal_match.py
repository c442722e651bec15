"""Lemmas that close or rewrite a goal, found by structure over the pattern index.

A goal state's conclusion (`a + b = b + a` under `a b : ℕ`) is read by the term reader
(`search.corpus.lean.expr`, notation desugared) into a term whose hypotheses' names are fixed
atoms, its other names resolved against the index as `search.engine.goals` resolves them. A
lemma is a pattern over it: its statement's variables (`-(j + 1)` in the flat trees of
`search.index.patterns`) and unread parts are holes, each variable the same term at each of its
occurrences, and every other node must be the goal's. So `add_comm`'s conclusion
`?a + ?b = ?b + ?a` matches the goal, and `Nat.le_succ`'s `?n ≤ ?n + 1` does not match `a ≤ b`
(a hypothesis `b` is no `?n + 1`). Two kinds of match, each a tier of the answer:

- **closes**: the lemma's conclusion (after its `∀`s and `→`s) matches the goal's conclusion, or
  the goal with the two sides of its `=` or `↔` swapped (`exact`, `apply`, `(h).symm`);
- **rewrites**: a side of the lemma's `=` or `↔` conclusion matches a subterm of the goal
  (`rw [lemma]`, `rw [← lemma]`).

A part of a lemma the term reader could not read matches nothing. Each constant weighs its
inverse document frequency over the index's statements (`=` little, `Nat.size` much), and a
match is informative when the lemma's own constants weigh at least `MIN_SHARE` of the goal's
part (a lemma `?a = ?b`, or `?f ?x ≠ 0 ↔ ?x ≠ 0` for `-a ≠ 0 ↔ a ≠ 0`, says too little of it),
with at least `MIN_REWRITE_CONSTANTS` constants for a rewrite. Closing lemmas come first by
that share, rewriting ones by the weight they match (the most specific first); then both by
how many of the lemma's constants the goal state does not mention (classes aside: a lemma about
`Int` is less likely to apply to a goal about `ℕ` than one about any `AddCommMagma`), then by
PageRank. The work is numpy over every candidate at once: lemma parts are indexed by their
head constant and its number of arguments (`Sides`), and each step of the matching walk
advances all candidate pairs together.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Iterable, Sequence

import numpy as np

from search.corpus.lean.expr import Expr
from search.index.patterns import APP, FIRST_SYMBOL, PI, VAR_CODE, PatternIndex

#: Share of the goal part's constant weight that a lemma's own constants must match.
MIN_SHARE = 0.5
#: Constants a rewriting lemma's side needs (`?a + ?b` rewrites anything).
MIN_REWRITE_CONSTANTS = 2
#: Longest application spine kept apart in the side keys; longer ones share the last key.
MAX_SPINE = 31
#: Kinds of match, in the order of the answer's tiers.
CLOSES, REWRITES = 0, 1


@dataclass(frozen=True)
class Match:
    """A lemma matching a goal: its record's position, how (`CLOSES` or `REWRITES`), the
    weight of the constants its matched part has and their share of the goal part's, whether
    the goal's sides were swapped (closes) or the lemma's right side matched (rewrites,
    `rw [← ...]`), and its foreign constants (the ones the goal state does not mention,
    classes aside)."""

    position: int
    kind: int
    weight: float
    share: float
    reversed: bool
    foreign: int = 0


@dataclass(frozen=True)
class Sides:
    """The parts of theorem-like records a goal can match, sorted by key (head constant, spine
    length): `starts` (their positions in the flat trees), `records`, `kinds` (CLOSES: a
    conclusion; REWRITES: a side of an `=` or `↔` conclusion) and `right` (the right side)."""

    keys: np.ndarray
    starts: np.ndarray
    records: np.ndarray
    kinds: np.ndarray
    right: np.ndarray

    def lookup(self, key: int, kind: int) -> np.ndarray:
        """Indices of the parts with this key and kind."""
        lo, hi = np.searchsorted(self.keys, [key, key + 1])
        found = np.arange(lo, hi)
        return found[self.kinds[found] == kind]


@dataclass(frozen=True)
class GroundTerm:
    """A goal's term flattened like the index's trees, names fixed: `nodes`, subtree `ends`,
    `ids` (equal subtrees, equal ids) and `weights` (of the index constants in each subtree)."""

    nodes: np.ndarray
    ends: np.ndarray
    ids: np.ndarray
    weights: np.ndarray


class GoalMatcher:
    """Lemmas closing or rewriting goals over one pattern index (module docstring)."""

    def __init__(self, patterns: PatternIndex, eligible: np.ndarray, pagerank: np.ndarray, classes: Iterable[str],
                 resolve: Callable[[str], list[str]]) -> None:
        """`eligible`: which records may be answered (theorem-like Lean records), by position;
        `pagerank`: each record's, the last order among equal matches; `classes`: names of type
        classes (not counted as foreign); `resolve`: a name as written in a goal -> the index
        constants it may stand for, best first."""
        self.patterns = patterns
        self.pagerank = np.asarray(pagerank)
        self.nodes = np.asarray(patterns.nodes)
        self.ends = np.asarray(patterns.ends)
        self.offsets = np.asarray(patterns.offsets)
        self.eligible = np.asarray(eligible, dtype=bool)
        self.resolve = resolve
        self.class_codes = frozenset(patterns.code[f"c:{name}"] for name in classes if f"c:{name}" in patterns.code)
        self.eq_codes = frozenset(patterns.code[f"c:{name}"] for name in ("Eq", "Iff") if f"c:{name}" in patterns.code)
        #: The first code no index node holds: the goal's own atoms are numbered from here.
        self.fresh = FIRST_SYMBOL + len(patterns.symbols)
        statements = max(int((self.offsets[1:] > self.offsets[:-1]).sum()), 1)
        documents = np.diff(np.asarray(patterns.posting_offsets)).astype(np.float64)
        #: Node code -> weight: a symbol's inverse document frequency, 0 for the other codes.
        self.weights = np.zeros(self.fresh, dtype=np.float64)
        self.weights[FIRST_SYMBOL:] = np.log(statements / np.maximum(documents, 1.0))
        #: The weight of a part of a goal that names no index constant and no hypothesis (a
        #: constant the index lacks, notation the reader does not know): as rare as can be, so
        #: that a lemma whose variable stands for it says little of the goal.
        self.unknown_weight = float(np.log(statements))

    # --- What can be matched, made once --------------------------------------------------------

    @cached_property
    def sides(self) -> Sides:
        records = np.flatnonzero(self.eligible & (self.offsets[1:] > self.offsets[:-1]))
        at = self.offsets[records].astype(np.int64)
        while True:  # the conclusion: past every binder's domain
            is_pi = self.nodes[at] == PI
            if not is_pi.any():
                break
            at[is_pi] = self.ends[at[is_pi] + 1]
        heads, spines = self._heads(at)
        starts, owners, kinds, right = [at], [records], [np.full(len(at), CLOSES)], [np.zeros(len(at), bool)]
        equation = np.isin(heads, list(self.eq_codes)) & (spines == 2)
        lhs = at[equation] + 3
        for side, is_right in ((lhs, False), (self.ends[lhs], True)):
            starts.append(side)
            owners.append(records[equation])
            kinds.append(np.full(len(side), REWRITES))
            right.append(np.full(len(side), is_right))
        starts_ = np.concatenate(starts)
        heads, spines = self._heads(starts_)
        keep = heads >= FIRST_SYMBOL
        keys = self._key(heads[keep], spines[keep])
        order = np.argsort(keys, kind="stable")
        return Sides(keys[order], starts_[keep][order], np.concatenate(owners)[keep][order],
                     np.concatenate(kinds)[keep][order], np.concatenate(right)[keep][order])

    def _heads(self, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The head node and spine length (arguments applied) of the terms at `starts`."""
        head = starts.copy()
        spine = np.zeros(len(starts), dtype=np.int64)
        while True:
            is_app = self.nodes[head] == APP
            if not is_app.any():
                return self.nodes[head].astype(np.int64), spine
            head[is_app] += 1
            spine[is_app] += 1

    @staticmethod
    def _key(heads: np.ndarray | int, spines: np.ndarray | int) -> np.ndarray:
        return np.asarray(heads, dtype=np.int64) * (MAX_SPINE + 1) + np.minimum(spines, MAX_SPINE)

    # --- A goal ----------------------------------------------------------------------------------

    def ground(self, term: Expr, fixed: set[str]) -> GroundTerm:
        """The goal's term with its names fixed: index constants keep their codes, every other
        name (a hypothesis, a bound variable, a constant the index lacks) and every unread part
        is an atom of its own code, so that only a lemma's variable can match it. Hypotheses and
        bound variables weigh nothing, the other atoms `unknown_weight`."""
        atoms: dict[object, int] = {}
        nodes: list[int] = []

        def atom(key: object) -> int:
            return atoms.setdefault(key, self.fresh + len(atoms))

        stack = [term]
        while stack:
            e = stack.pop()
            kind = e[0]
            if kind in ("a", "f"):
                nodes.append(APP if kind == "a" else PI)
                stack.extend((e[2], e[1]))
            elif kind == "c" and e[1] not in fixed:
                code = next((self.patterns.code[f"c:{n}"] for n in [e[1], *self.resolve(e[1])]
                             if f"c:{n}" in self.patterns.code), None)
                nodes.append(code if code is not None else atom(("c", e[1])))
            elif kind in ("s", "n"):
                nodes.append(self.patterns.code.get(f"{kind}:{e[1]}", atom(e)))
            elif kind in ("l", "c", "?"):
                nodes.append(atom(("l", e[1])))
            else:  # unread
                nodes.append(atom(("v", len(nodes))))
        flat = np.asarray(nodes, dtype=np.int64)
        ends = np.arange(1, len(flat) + 1, dtype=np.int64)
        for i in np.flatnonzero((flat == APP) | (flat == PI))[::-1]:
            ends[i] = ends[ends[i + 1]]
        ids = np.zeros(len(flat), dtype=np.int64)
        seen: dict[bytes, int] = {}
        for i in range(len(flat)):
            ids[i] = seen.setdefault(flat[i:ends[i]].tobytes(), len(seen))
        weight = np.where(flat < self.fresh, self.weights[np.minimum(flat, self.fresh - 1)], 0.0)
        unknown = [code for key, code in atoms.items() if key[0] in ("c", "v")]
        weight[np.isin(flat, unknown)] = self.unknown_weight
        running = np.concatenate(([0.0], np.cumsum(weight)))
        return GroundTerm(flat, ends, ids, running[ends] - running[np.arange(len(flat))])

    def match(self, term: Expr, fixed: set[str], mentioned: set[str], exclude: Sequence[int] = ()) -> list[Match]:
        """The informative matches of the lemmas for a goal's conclusion `term` (its names in
        `fixed` are hypotheses), best first (module docstring); `mentioned`: the constants the
        goal state mentions; `exclude`: positions never answered."""
        while term[0] == "f":  # `∀ x, p x` and `p → q`: what `intro` leaves to prove
            term = term[2]
        goal = self.ground(term, fixed)
        pairs: list[tuple[np.ndarray, np.ndarray, int, bool]] = []  # (side indices, goal positions, kind, swapped)
        variants = [(goal, False)]
        swapped = self._swapped(term, fixed)
        if swapped is not None:
            variants.append((swapped, True))
        sides = self.sides
        for ground, is_swapped in variants:
            key = self._goal_key(ground, 0)
            if key is not None:
                found = sides.lookup(key, CLOSES)
                pairs.append((found, np.zeros(len(found), dtype=np.int64), CLOSES, is_swapped))
        for position in range(len(goal.nodes)):
            key = self._goal_key(goal, position)
            if key is not None:
                found = sides.lookup(key, REWRITES)
                pairs.append((found, np.full(len(found), position), REWRITES, False))
        excluded = np.zeros(len(self.eligible), dtype=bool)
        excluded[list(exclude)] = True
        best: dict[tuple[int, int], Match] = {}
        for found, positions, kind, is_swapped in pairs:
            ground = variants[1][0] if is_swapped else goal
            matched, weights, counts = self._matches(sides.starts[found], ground, positions)
            for i, at, weight, count in zip(found[matched].tolist(), positions[matched].tolist(), weights.tolist(),
                                            counts.tolist()):
                record = int(sides.records[i])
                share = weight / ground.weights[at] if ground.weights[at] > 0 else 0.0
                if excluded[record] or share < MIN_SHARE or count < (1 if kind == CLOSES else MIN_REWRITE_CONSTANTS):
                    continue
                match = Match(record, kind, weight, share, is_swapped if kind == CLOSES else bool(sides.right[i]))
                old = best.get((record, kind))
                if old is None or self._order(match) < self._order(old):
                    best[(record, kind)] = match
        matches = [dataclasses.replace(m, foreign=self._foreign(m.position, mentioned))
                   for m in best.values() if m.kind == CLOSES or (m.position, CLOSES) not in best]
        return sorted(matches, key=self._order)

    def _order(self, m: Match) -> tuple:
        """Closing lemmas by share, rewriting ones by weight; then foreign constants, swapped
        last, PageRank (module docstring)."""
        return (m.kind, -round(m.share if m.kind == CLOSES else m.weight, 6), m.foreign, m.reversed,
                -self.pagerank[m.position], m.position)

    def _goal_key(self, ground: GroundTerm, position: int) -> int | None:
        head, spine = position, 0
        while ground.nodes[head] == APP:
            head, spine = head + 1, spine + 1
        code = int(ground.nodes[head])
        if not FIRST_SYMBOL <= code < self.fresh:
            return None
        return int(self._key(code, spine))

    def _swapped(self, term: Expr, fixed: set[str]) -> GroundTerm | None:
        """The goal with the sides of its `=` or `↔` swapped, or None."""
        if term[0] == "a" and term[1][0] == "a" and term[1][1] in (("c", "Eq"), ("c", "Iff")):
            return self.ground(("a", ("a", term[1][1], term[2]), term[1][2]), fixed)
        return None

    def _matches(self, starts: np.ndarray, goal: GroundTerm,
                 positions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Which lemma parts at `starts` match the goal's subterms at `positions` (indices into
        `starts`), with the weight and the number of the constants each matched part has: all
        pairs walk in step, a lemma's variable skipping the goal's subtree there and binding it,
        an unread node matching nothing."""
        n = len(starts)
        pair = np.arange(n)
        at, stop, where = starts.astype(np.int64), self.ends[starts].astype(np.int64), positions.astype(np.int64)
        weights = np.zeros(n, dtype=np.float64)
        counts = np.zeros(n, dtype=np.int64)
        done = np.zeros(n, dtype=bool)
        bound_pair, bound_var, bound_id = [], [], []
        while len(pair):
            node = self.nodes[at].astype(np.int64)
            variable = node < 0
            bound_pair.append(pair[variable])
            bound_var.append(node[variable])
            bound_id.append(goal.ids[where[variable]])
            ok = variable | ((goal.nodes[where] == node) & (node != VAR_CODE))
            symbol = ok & (node >= FIRST_SYMBOL)
            weights[pair[symbol]] += self.weights[node[symbol]]
            counts[pair[symbol]] += 1
            where = np.where(variable, goal.ends[where], where + 1)
            at = at + 1
            finished = ok & (at >= stop)
            done[pair[finished]] = True
            going = ok & ~finished
            pair, at, stop, where = pair[going], at[going], stop[going], where[going]
        if bound_pair:
            p, v, g = (np.concatenate(x) for x in (bound_pair, bound_var, bound_id))
            order = np.lexsort((v, p))
            p, v, g = p[order], v[order], g[order]
            clash = (p[1:] == p[:-1]) & (v[1:] == v[:-1]) & (g[1:] != g[:-1])
            done[p[1:][clash]] = False
        matched = np.flatnonzero(done)
        return matched, weights[matched], counts[matched]

    def _foreign(self, position: int, mentioned: set[str]) -> int:
        """Constants of the record's statement that the goal state does not mention, classes aside."""
        nodes = self.patterns.statement(position)
        codes = np.unique(nodes[nodes >= FIRST_SYMBOL])
        symbols = self.patterns.symbols
        return sum(1 for c in codes.tolist() if c not in self.class_codes
                   and symbols[c - FIRST_SYMBOL].startswith("c:") and symbols[c - FIRST_SYMBOL][2:] not in mentioned)
