"""The engine's retrieval signals answered by SQL (the calls of search/index/signals.py).

Lexical: pg_textsearch's BM25 index over the records' lexical texts finds the candidates
(`<@>` gives minus its score, ordered ascending by the index), re-scored with BM25+. Dense:
pgvector's HNSW by inner product (`<#>` gives minus it), or with binary quantisation a Hamming
walk over bit vectors re-ranked by the full vectors. A `Selection` becomes a WHERE on the
records' filter columns and metadata.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from search.index.lexical import bm25plus
from search.index.postgres.connection import Connections
from search.index.postgres.schema import quoted, words
from search.index.signals import LexicalHits, Selection, no_lexical_scores

#: A binary-quantised walk fetches this many candidates per result for re-ranking.
BINARY_RERANK = 4
#: pg_textsearch's BM25 finds this many candidates per BM25+ result wanted.
TEXTSEARCH_DEPTH = 2


def where(selection: Selection | None, alias: str = "r") -> tuple[str, list[Any]]:
    """SQL conditions (with a leading AND) and their parameters for `selection`: a record field
    is one of its texts; a metadata key's value, as text, is one of its texts ("" for records
    without the key, as the engine's mask reads them). JSON gives strings and numbers the text
    Python's `str` gives them (the metadata filters: chapter, section, year); booleans, lists
    and objects it writes otherwise, so a filter on those matches no record here."""
    if selection is None:
        return "", []
    clauses, params = [], []
    for column, values in selection.columns.items():
        clauses.append(f"{alias}.{quoted(column)} = ANY(%s)")
        params.append(list(values))
    for key, values in selection.meta.items():
        clauses.append(f"coalesce(({alias}.meta::jsonb) ->> %s, '') = ANY(%s)")
        params += [key, list(values)]
    return "".join(f" AND {c}" for c in clauses), params


class TextSearchSignal:
    """BM25+ over one lexical text of `records`, the directory's scores: pg_textsearch's BM25
    index finds the candidates (its own BM25, Lucene's, ranks them), and their texts are
    re-scored with BM25+ from the index's term statistics (`terms`, `info`), so that the
    scores, and the order of the candidates found, are those of the index directory."""

    def __init__(self, connections: Connections, column: str, index_name: str, statistics: dict[str, float]) -> None:
        self._connections = connections
        self._part = column
        self._column = quoted(column)
        self._index = index_name
        self._documents = int(statistics["documents"])
        self._average = float(statistics["average_length"])
        #: Document frequency of the words queried so far (0: not in the index).
        self._frequencies: dict[str, int] = {}

    def rank(self, tokens: list[str], depth: int, selection: Selection | None) -> LexicalHits:
        terms = words(list(dict.fromkeys(tokens))).split()
        if not terms:
            return LexicalHits(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32), no_lexical_scores)
        conditions, params = where(selection)
        query = " ".join(terms)
        rows = self._connections.get().execute(
            f"SELECT r.position, r.{self._column} FROM records r WHERE true{conditions} "
            f"ORDER BY r.{self._column} <@> to_bm25query(%s, %s) LIMIT %s",
            [*params, query, self._index, depth * TEXTSEARCH_DEPTH],
        ).fetchall()
        scored = sorted(((-score, position) for position, score in self._scored(terms, rows) if score > 0))[:depth]
        positions, scores = _arrays([(position, -negated) for negated, position in scored])
        return LexicalHits(positions, scores, lambda candidates: self._scores_of(terms, candidates))

    def _scores_of(self, terms: list[str], positions: np.ndarray) -> np.ndarray:
        if len(positions) == 0:
            return np.zeros(0, dtype=np.float32)
        rows = self._connections.get().execute(
            f"SELECT position, {self._column} FROM records WHERE position = ANY(%s)", [[int(p) for p in positions]],
        ).fetchall()
        found = dict(self._scored(terms, rows))
        return np.asarray([found.get(int(p), 0.0) for p in positions], dtype=np.float32)

    def _scored(self, terms: list[str], rows: list[tuple[int, str]]) -> list[tuple[int, float]]:
        """(position, BM25+) of each (position, text)."""
        frequencies = self._document_frequencies(terms)
        out = []
        for position, text in rows:
            tokens = text.split()
            counts = [(tokens.count(t), frequencies[t]) for t in terms]
            out.append((int(position), bm25plus(counts, len(tokens), self._documents, self._average)))
        return out

    def _document_frequencies(self, terms: list[str]) -> dict[str, int]:
        missing = [t for t in terms if t not in self._frequencies]
        if missing:
            found = dict(self._connections.get().execute(
                "SELECT word, documents FROM terms WHERE part = %s AND word = ANY(%s)", [self._part, missing],
            ).fetchall())
            self._frequencies.update({t: int(found.get(t, 0)) for t in missing})
        return {t: self._frequencies[t] for t in terms}


class VectorSignal:
    """Best view similarity per record from pgvector, as `DenseIndex.search` reduces FAISS's."""

    def __init__(self, connections: Connections, dimension: int, views_per_record: int, binary: bool) -> None:
        self._connections = connections
        self._dimension = dimension
        self._views = views_per_record
        self._binary = binary

    def rank(self, vector: np.ndarray, depth: int, selection: Selection | None) -> tuple[np.ndarray, np.ndarray]:
        literal = "[" + ",".join(repr(float(x)) for x in vector) + "]"
        limit = depth * self._views * 2
        conditions, params = where(selection)
        join = " JOIN records r ON r.position = v.position" if conditions else ""
        if self._binary:
            sql = (
                f"SELECT position, -distance FROM (SELECT v.position, v.embedding <#> %s::vector AS distance "
                f"FROM vectors v{join} WHERE true{conditions} ORDER BY binary_quantize(v.embedding)::bit({self._dimension}) "
                f"<~> binary_quantize(%s::vector) LIMIT %s) c ORDER BY distance LIMIT %s"
            )
            arguments = [literal, *params, literal, limit * BINARY_RERANK, limit]
        else:
            sql = (f"SELECT v.position, -(v.embedding <#> %s::vector) FROM vectors v{join} WHERE true{conditions} "
                   f"ORDER BY v.embedding <#> %s::vector LIMIT %s")
            arguments = [literal, *params, literal, limit]
        best: dict[int, float] = {}
        for position, similarity in self._connections.get().execute(sql, arguments).fetchall():
            best.setdefault(int(position), float(similarity))
        return _arrays(list(best.items())[:depth])


def _arrays(rows: list[tuple[int, float]]) -> tuple[np.ndarray, np.ndarray]:
    positions = np.asarray([int(p) for p, _ in rows], dtype=np.int64)
    return positions, np.asarray([float(s) for _, s in rows], dtype=np.float32)
