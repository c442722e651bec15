"""The constants of a goal state, and the theorems that share the rarest of them.

A goal's text read as words (the hybrid engine's query) misses what a proof's premises have in
common with the goal: the constants. `Polynomial.gaussNorm_mul`'s goal `(p * q).gaussNorm v c
= ...` needs `Polynomial.le_gaussNorm`, which says nothing alike in words but mentions the
same rare constant. Here a goal state (hypotheses and `⊢ goal`) is read as a statement by the
term reader (`search.corpus.lean.expr`, notation desugared: `‖x‖` is `Norm.norm`), each name
resolved against the pattern index (`search.index.patterns`): a constant some statement
mentions as written, else, for a name written short or as a projection (`p.natDegree`), the
constants ending with its last part that statements mention most (`Polynomial.natDegree`).
A record's score is the sum of the inverse document frequencies of the goal's constants its
statement mentions (the constants of the `⊢` line count double: the premises that rewrite or
close the goal mention them). `statesearch` reorders the engine's hits by it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from search.corpus.lean.expr import Expr
from search.corpus.lean.syntax import split_name
from search.index.patterns import PatternIndex, statement_term

#: Constants written short resolve to at most this many full names.
MAX_READINGS = 2
#: A constant mentioned by more than this share of the statements carries no signal (`Eq`).
MAX_SHARE = 0.05
#: Weight of the constants of the `⊢` line against those of the hypotheses.
GOAL_WEIGHT = 2.0


@dataclass(frozen=True)
class GoalConstants:
    """The goal's constants as the index knows them, each with its weight."""

    weights: dict[str, float]


class GoalIndex:
    """Goal constants and the records sharing them, over one pattern index."""

    def __init__(self, patterns: PatternIndex) -> None:
        self.patterns = patterns
        self.size = len(patterns.offsets) - 1
        counts = np.diff(np.asarray(patterns.posting_offsets))
        self.documents = {symbol[2:]: int(counts[k]) for k, symbol in enumerate(patterns.symbols)
                          if symbol.startswith("c:")}
        #: Last part of a name -> the constants ending with it, most mentioned first.
        self.by_last: dict[str, list[str]] = {}
        for name in sorted(self.documents, key=lambda n: -self.documents[n]):
            self.by_last.setdefault(split_name(name)[-1], []).append(name)

    def constants(self, hypotheses: list[str], goal: str) -> GoalConstants:
        """The weighted constants of a goal state (module docstring)."""
        weights: dict[str, float] = {}
        for text, weight in [*((h, 1.0) for h in hypotheses), (goal, GOAL_WEIGHT)]:
            for written in written_constants(read_term(text)):
                for name in self.resolve(written):
                    idf = math.log(self.size / self.documents[name])
                    if self.documents[name] <= MAX_SHARE * self.size:
                        weights[name] = max(weights.get(name, 0.0), weight * idf)
        return GoalConstants(weights)

    def scores(self, constants: GoalConstants, positions: np.ndarray) -> np.ndarray:
        """The weight of the goal's constants each record at `positions` mentions."""
        scores = np.zeros(len(positions), dtype=np.float64)
        for name, weight in constants.weights.items():
            scores += weight * np.isin(positions, self.patterns.mentioning(f"c:{name}"))
        return scores

    def resolve(self, written: str) -> list[str]:
        """The constants a name written in a goal stands for: itself when some statement
        mentions it, else those ending with its last part, most mentioned first."""
        if written in self.documents:
            return [written]
        return self.by_last.get(split_name(written)[-1], [])[:MAX_READINGS]


def read_term(text: str) -> Expr | None:
    """The term a hypothesis's type or a goal reads as (None when it does not read)."""
    try:
        return statement_term(f"theorem t : {text}")
    except (ValueError, RecursionError):
        return None


def written_constants(term: Expr | None) -> list[str]:
    """The constants of a term, as written, in order."""
    out: list[str] = []
    stack = [term] if term is not None else []
    while stack:
        e = stack.pop()
        if e[0] in ("a", "f"):
            stack.extend((e[2], e[1]))
        elif e[0] == "c" and e[1] not in out:
            out.append(e[1])
    return out
