"""What a learned reranker knows of a (query, candidate) pair: one row of numbers.

The same function makes the rows a reranker is trained on (`search.learn.reranker`, from
queries made from the corpus) and the rows it scores at query time (`search.engine.rerank`),
so that training and serving cannot drift apart. A row holds how each signal ranked and
scored the candidate, its fused score, the dense similarity of its best view, structural
priors, what kind of record it is, and what kind of query asked (words, LaTeX, Lean notation,
"a ... such that" definitions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import pyarrow.compute as pc

from search.text.tokenize import tokenize

if TYPE_CHECKING:
    from search.engine.stages import StageContext
    from search.index.store import Index

#: Signals whose rank and score are features, in this order.
SIGNALS = ("dense", "bm25", "names", "exact", "title", "spelled", "prefix", "fuzzy", "substring")
#: The rank given to a candidate a signal did not find.
ABSENT = 1000.0
#: Record kinds, grouped: a kind outside every group is the last group.
KIND_GROUPS = (
    ("theorem", "lemma"),
    ("def", "abbrev", "opaque", "irreducible_def"),
    ("structure", "class", "inductive", "class inductive", "class abbrev", "coinductive"),
    ("instance",),
    ("field", "constructor"),
    ("definition",),
    ("proposition", "corollary", "axiom"),
)
_DEFINING = re.compile(r"^(?:an?|the (?:type|set|class|structure|notion|property|predicate) of)\s", re.I)
_NOTATION = re.compile(r"[∀∃→↔≤≥≠∈∉⊆⊂∑∏∫√ℕℤℚℝℂ⁻¹•∘‖⟨⟩⊢λ]|:=|\w\.\w")
_LATEX = re.compile(r"\$|\\[A-Za-z]")

FEATURES = (
    *(f"{s}_rank" for s in SIGNALS), *(f"{s}_score" for s in SIGNALS),
    "fused_score", "fused_rank", "fused_share", "dense_similarity", "bm25_share",
    "dependents", "pagerank", "kind", "has_doc", "has_informal", "derived", "formal",
    "name_parts", "name_length", "name_overlap",
    "query_words", "query_latex", "query_notation", "query_defining", "query_is_name",
)


@dataclass
class RecordArrays:
    """Per-record values features read, made once per index from its columns."""

    index: "Index"

    @cached_property
    def kind(self) -> np.ndarray:
        names, codes = self.index.records.encode("kind")
        groups = np.array([next((g for g, kinds in enumerate(KIND_GROUPS) if n in kinds), len(KIND_GROUPS))
                           for n in names], dtype=np.float32)
        return groups[codes]

    def _nonempty(self, column: str) -> np.ndarray:
        return pc.greater(pc.utf8_length(self.index.records.table[column]), 0).to_numpy(zero_copy_only=False)

    @cached_property
    def has_doc(self) -> np.ndarray:
        return self._nonempty("doc").astype(np.float32)

    @cached_property
    def has_informal(self) -> np.ndarray:
        return self._nonempty("informal").astype(np.float32)

    @cached_property
    def formal(self) -> np.ndarray:
        return pc.equal(self.index.records.table["language"], "lean").to_numpy(zero_copy_only=False).astype(np.float32)

    @cached_property
    def derived(self) -> np.ndarray:
        return pc.match_substring(self.index.records.table["meta"], '"derived_from"').to_numpy(
            zero_copy_only=False).astype(np.float32)

    @cached_property
    def name_parts(self) -> np.ndarray:
        return (pc.count_substring(self.index.records.table["name"], ".").to_numpy() + 1).astype(np.float32)

    @cached_property
    def name_length(self) -> np.ndarray:
        return pc.utf8_length(self.index.records.table["name"]).to_numpy().astype(np.float32)

    @cached_property
    def dependents(self) -> np.ndarray:
        return np.log1p(self.index.dependents.astype(np.float32))

    @cached_property
    def pagerank(self) -> np.ndarray:
        top = self.index.pagerank_max
        return (self.index.pagerank / top if top > 0 else np.zeros_like(self.index.pagerank)).astype(np.float32)


def rows(context: "StageContext", arrays: RecordArrays, positions: np.ndarray, fused: np.ndarray) -> np.ndarray:
    """One feature row (`FEATURES`) per candidate at `positions`, whose fused scores are
    `fused` (best first)."""
    n = len(positions)
    out = np.zeros((n, len(FEATURES)), dtype=np.float32)
    column = iter(range(len(FEATURES)))
    ranks, scores = [], []
    for signal in SIGNALS:
        found = context.signals.get(signal)
        rank = np.full(n, ABSENT, dtype=np.float32)
        score = np.zeros(n, dtype=np.float32)
        if found is not None and len(found[0]):
            where = {int(p): i for i, p in enumerate(found[0].tolist())}
            for j, p in enumerate(positions.tolist()):
                i = where.get(p)
                if i is not None:
                    rank[j], score[j] = i + 1, found[1][i]
        ranks.append(rank)
        scores.append(score)
    for values in (*ranks, *scores):
        out[:, next(column)] = values
    best_bm25 = float(context.bm25[positions].max(initial=0.0))
    similarity = (context.index.dense.similarities(context.vector, positions)
                  if context.vector is not None else np.zeros(n, dtype=np.float32))
    query_words = set(tokenize(context.query.plain))
    overlap = np.array([_overlap(query_words, name) for name in context.index.records.column("name", positions)],
                       dtype=np.float32)
    text = context.query.text
    for values in (
        fused, np.arange(1, n + 1, dtype=np.float32), fused / fused[0] if n and fused[0] > 0 else np.zeros(n),
        similarity, context.bm25[positions] / best_bm25 if best_bm25 > 0 else np.zeros(n),
        arrays.dependents[positions], arrays.pagerank[positions], arrays.kind[positions],
        arrays.has_doc[positions], arrays.has_informal[positions], arrays.derived[positions],
        arrays.formal[positions], arrays.name_parts[positions], arrays.name_length[positions], overlap,
        len(text.split()), bool(_LATEX.search(text)), bool(_NOTATION.search(text)),
        bool(_DEFINING.match(text)), context.query.kind == "name",
    ):
        out[:, next(column)] = values
    return out


def _overlap(query_words: set[str], name: str) -> float:
    """The share of the name's words (last two components) that the query holds."""
    words = set(tokenize(" ".join(name.split(".")[-2:])))
    return len(words & query_words) / len(words) if words else 0.0
