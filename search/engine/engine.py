"""The search engine: query -> candidates from every signal -> fusion -> groups -> top k.

Each result carries its fused score and the per-signal scores and ranks that made it, for the
UI and for debugging. The CLI, the app, the APIs and the evaluation all call `Engine.search`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Callable, Mapping

import numpy as np
import pyarrow.compute as pc

from search.engine import variants
from search.engine.fusion import fuse
from search.engine.names import NameTable, TitleTable, TypeNames, spelled_names
from search.engine.query import ParsedQuery, parse_query, without_counts
from search.engine.ranking import Ranking
from search.engine.stages import Signals, StageContext
from search.index.signals import Selection, no_lexical_scores
from search.index.store import Index
from search.record import Statement
from search.text.tokenize import name_tokens, tokenize

#: Filter keys read from the record's own field; every other key is a `meta` key.
RECORD_FILTERS = ("source", "kind", "package", "module", "group", "language")


@dataclass
class Result:
    """One StatementGroup in a result list, headed by its primary statement."""

    statement: Statement
    score: float
    rank: int = 0
    signals: dict[str, dict[str, float]] = field(default_factory=dict)
    members: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        s = self.statement
        return {
            "rank": self.rank, "id": s.id, "name": s.name, "kind": s.kind, "source": s.source,
            "score": round(self.score, 6), "url": s.url, "doc_url": s.doc_url,
            "statement": s.statement, "doc": s.doc, "informal_statement": s.informal_statement,
            "module": s.module, "package": s.package,
            "signals": self.signals, "members": self.members, "links": s.links,
            "deprecated": s.meta.get("deprecated"),
        }


class Engine:
    """Hybrid retrieval over one loaded index.

    What a query reads of every record (name lengths, StatementGroups, filter values) is
    held as numpy arrays made once from the record table's columns, so that a query turns
    only its k results into Statements.
    """

    def __init__(self, index: Index, ranking: Ranking | str = variants.DEFAULT) -> None:
        self.index = index
        #: The ranking of a search that names none.
        self.ranking = ranking
        #: The index's distinct lowercased names, for lookups by prefix, substring, spelling.
        self.name_table = NameTable(index.by_name)
        #: Famous titles (aliases), for queries that name a theorem.
        self.titles = TitleTable(_aliases(index))
        records = index.records.table
        #: Namespaced types by their own name, for queries that spell one in words.
        self.type_names = TypeNames(records["name"])
        self._name_lengths = pc.utf8_length(records["name"]).to_numpy()
        self._columns: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        # StatementGroups by number: each record's group, each group's head (-1 when its id is
        # no record) and the groups' member positions, group after group (`_offsets` bounds).
        keys = pc.if_else(pc.equal(records["group"], ""), records["id"], records["group"])
        heads = pc.unique(keys)
        self._group = pc.index_in(keys, value_set=heads).to_numpy()
        self._heads = pc.fill_null(pc.index_in(heads, value_set=records["id"]), -1).to_numpy()
        self._members = np.argsort(self._group, kind="stable")
        self._offsets = np.concatenate(([0], np.cumsum(np.bincount(self._group, minlength=len(heads)))))

    def search(
        self,
        query: str,
        k: int = 10,
        filters: Mapping[str, Any] | None = None,
        variant: Ranking | str | None = None,
        timings: dict[str, float] | None = None,
    ) -> list[Result]:
        """Top-k StatementGroups for `query` within `filters`, ranked by `variant`: a `Ranking`,
        the name of one in `search.engine.variants`, or None for the engine's own.

        When `timings` is given, the seconds spent in each stage (parse, filters, name,
        lexical, embed, dense, fusion, grouping) are added to it, for the benchmark.
        """
        ranking = self.resolve(variant)
        if k < 1:
            raise ValueError(f"the number of results must be at least 1, got {k}")
        clock = _Stopwatch(timings)
        with clock("parse"):
            parsed = parse_query(query)
        with clock("filters"):
            selection = self._select(filters) if filters else None
        signals, bm25 = self._signals(parsed, ranking, selection, max(ranking.candidates, k * 4), clock)
        with clock("fusion"):
            fused = fuse(ranking, StageContext(parsed, signals, self.index, bm25))
        with clock("grouping"):
            return self._collapse(fused, signals, k, None if selection is None else selection.mask)

    def resolve(self, variant: Ranking | str | None) -> Ranking:
        """The ranking a search asks for (`variants.UnknownVariant` for an unknown name)."""
        variant = self.ranking if variant is None else variant
        return variant if isinstance(variant, Ranking) else variants.get(variant)

    def _signals(
        self, parsed: ParsedQuery, ranking: Ranking, selection: Selection | None, depth: int, clock: "_Stopwatch"
    ) -> tuple[Signals, Callable[[np.ndarray], np.ndarray]]:
        """Ranked (positions, scores) per signal, each restricted to `selection`, and the
        query's BM25+ score of any records (for stages that re-score other signals' candidates)."""
        index = self.index
        out: Signals = {}
        allowed = None if selection is None else selection.mask
        with clock("name"):
            exact = [
                p for p in index.by_name.get(parsed.text.lower(), []) if allowed is None or allowed[p]
            ]
            if exact:
                out["exact"] = (np.asarray(exact), np.ones(len(exact), dtype=np.float32))
            titled = [(p, score) for p, score in self.titles.match(parsed.text, ranking.title_cutoff)
                      if allowed is None or allowed[p]]
            if titled:
                positions, scores = zip(*titled)
                out["title"] = (np.asarray(positions, dtype=np.int64), np.asarray(scores, dtype=np.float32))
            spelled = [n for n in spelled_names(parsed.text) if n in index.by_name]
            if spelled:
                out["spelled"] = self._ranked_names(spelled, allowed, depth)
            types = self.type_names.spelled(parsed.text)
            if types:
                out["types"] = self._ranked(types, allowed, depth)
            if parsed.kind == "substring":
                out["substring"] = self._substring(parsed.substrings, allowed, depth)
                return out, no_lexical_scores
            if parsed.kind == "name":
                name = parsed.text.lower()
                out["prefix"] = self._ranked_names(self.name_table.with_prefix(name), allowed, depth)
                if not exact:  # a misspelt name: the spelling signal is for names not found
                    close = self.name_table.similar(name, ranking.fuzzy_cutoff, depth)
                    out["fuzzy"] = self._ranked_names(close, allowed, depth)
        with clock("lexical"):
            text = parsed.plain if ranking.latex_as_text else parsed.text
            words = tokenize(text if ranking.lexical_counts else without_counts(text))
            main = index.lexical.rank(words, depth, selection)
            out["bm25"] = (main.positions, main.scores)
            names = index.names.rank(words + name_tokens(parsed.text), depth, selection)
            out["names"] = (names.positions, names.scores)
        with clock("embed"):
            vector = index.embedder.encode([parsed.text])[0]
        with clock("dense"):
            out["dense"] = index.dense.rank(vector, depth, selection)
        return out, main.score_of

    def _substring(
        self, needles: tuple[str, ...], allowed: np.ndarray | None, depth: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Names containing every needle, shortest (most specific) first, then by PageRank."""
        return self._ranked_names(self.name_table.containing(needles), allowed, depth)

    def _ranked_names(
        self, names: list[str], allowed: np.ndarray | None, depth: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Records bearing `names`, shortest name (most specific) first, then by PageRank."""
        return self._ranked([p for name in names for p in self.index.by_name[name]], allowed, depth)

    def _ranked(self, positions: list[int], allowed: np.ndarray | None, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """Records at `positions` (within `allowed`), shortest name first, then by PageRank."""
        hits = np.asarray([p for p in positions if allowed is None or allowed[p]], dtype=np.int64)
        hits = hits[np.lexsort((-self.index.pagerank[hits], self._name_lengths[hits]))][:depth]
        return hits, 1.0 / (1.0 + np.arange(len(hits), dtype=np.float32))

    def _collapse(
        self,
        fused: dict[int, float],
        signals: Signals,
        k: int,
        allowed: np.ndarray | None,
    ) -> list[Result]:
        """One result per StatementGroup, headed by its primary record (or by the record the query
        names exactly: `mul_add` heads the group of `left_distrib`, whose alias it is), best
        score kept."""
        records = self.index.records
        best: dict[int, tuple[float, int]] = {}
        for position, score in fused.items():
            group = int(self._group[position])
            if group not in best or score > best[group][0]:
                best[group] = (score, position)
        if allowed is not None and len(best) < k:
            self._fill(best, allowed, k)
        ranked = sorted(best.items(), key=lambda item: -item[1][0])[:k]
        lookup = _ranks_of([position for _, (_, position) in ranked], signals)
        named = frozenset(signals["exact"][0].tolist()) if "exact" in signals else frozenset()
        heads = [position if position in named else self._head(group, position, allowed)
                 for group, (_, position) in ranked]
        others = [self._others(group, head) for (group, _), head in zip(ranked, heads)]
        # Whole records for the heads and ids for the others, each read in one call.
        statements = records.take(heads)
        ids = iter(records.column("id", np.concatenate(others) if others else []))
        results = []
        for rank, ((_, (score, position)), members) in enumerate(zip(ranked, others), 1):
            found = {
                name: {"rank": table[position][0] + 1, "score": round(table[position][1], 6)}
                for name, table in lookup.items() if position in table
            }
            results.append(Result(statements[rank - 1], score, rank, found, list(islice(ids, len(members)))))
        return results

    def _head(self, group: int, position: int, allowed: np.ndarray | None) -> int:
        """The record heading a result: its group's primary record, or `position` (the group's
        best-scored record) when the primary is not in the index or not allowed by the filters."""
        head = int(self._heads[group])
        return position if head < 0 or (allowed is not None and not allowed[head]) else head

    def _others(self, group: int, head: int) -> np.ndarray:
        """Positions of the group's records other than `head`, in index order."""
        members = self._members[self._offsets[group] : self._offsets[group + 1]]
        return members[members != head]

    def _fill(self, best: dict[int, tuple[float, int]], allowed: np.ndarray, k: int) -> None:
        """Top up a filtered result list that no signal filled, by PageRank, with score 0.

        A filter must not silently return fewer than k results when k matching records exist,
        even when the query's signals reach fewer of them (a member without its own vector).
        """
        positions = np.flatnonzero(allowed)
        for position in positions[np.argsort(-self.index.pagerank[positions], kind="stable")]:
            best.setdefault(int(self._group[position]), (0.0, int(position)))
            if len(best) >= k:
                return

    def _select(self, filters: Mapping[str, Any]) -> Selection:
        """The records matching every filter (a list value means any of them), as a boolean
        mask and as the filters' texts per record field and metadata key."""
        mask = np.ones(len(self.index.records), dtype=bool)
        columns: dict[str, tuple[str, ...]] = {}
        meta: dict[str, tuple[str, ...]] = {}
        for key, wanted in filters.items():
            if wanted in (None, "", [], ()):
                continue
            values = {str(v) for v in (wanted if isinstance(wanted, (list, tuple, set)) else [wanted])}
            names, codes = self._column(key)
            mask &= np.isin(codes, [code for code, name in enumerate(names) if name in values])
            (columns if key in RECORD_FILTERS else meta)[key] = tuple(sorted(values))
        return Selection(mask, columns, meta)

    def _column(self, key: str) -> tuple[np.ndarray, np.ndarray]:
        """One filter key over every record, a record field (`RECORD_FILTERS`) or else a
        metadata value (`chapter`, `section`, ...) compared as text, as (distinct texts, each
        record's text number), made on first use, so that a filter costs integer comparisons."""
        if key not in self._columns:
            records = self.index.records
            values, codes = records.encode(key) if key in RECORD_FILTERS else records.encode_meta(key)
            # The last text, "", is the value of the records without the metadata key (code -1).
            texts = np.array([str(v) for v in values] + [""])
            names, numbers = np.unique(texts, return_inverse=True)
            self._columns[key] = names, numbers[codes]
        return self._columns[key]


def _ranks_of(positions: list[int], signals: Signals) -> dict[str, dict[int, tuple[int, float]]]:
    """Per signal, the (rank, score) of each of `positions` that it ranked: looked up in the
    signals' arrays rather than a dict made of each signal's whole list (a few hundred entries
    per signal, for ten results)."""
    wanted = np.asarray(positions, dtype=np.int64)
    lookup = {}
    for name, (ranked, scores) in signals.items():
        ranks = np.flatnonzero(np.isin(ranked, wanted))
        lookup[name] = {int(ranked[r]): (int(r), float(scores[r])) for r in ranks}
    return lookup


def _aliases(index: Index) -> list[tuple[int, list[str]]]:
    """(position, aliases) of the records that have aliases."""
    aliases = index.records.table["aliases"]
    positions = np.flatnonzero(pc.fill_null(pc.list_value_length(aliases), 0).to_numpy())
    return list(zip(positions.tolist(), index.records.column("aliases", positions)))


class _Stopwatch:
    """Adds the wall time of each `with clock(stage):` block to a dict, when there is one."""

    def __init__(self, timings: dict[str, float] | None) -> None:
        self.timings = timings
        self._stage = ""
        self._start = 0.0

    def __call__(self, stage: str) -> "_Stopwatch":
        self._stage = stage
        return self

    def __enter__(self) -> None:
        self._start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        if self.timings is not None:
            elapsed = time.perf_counter() - self._start
            self.timings[self._stage] = self.timings.get(self._stage, 0.0) + elapsed

