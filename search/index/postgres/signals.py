"""The engine's retrieval signals answered by SQL (the calls of search/index/signals.py).

Lexical: pg_textsearch's BM25 over the records' lexical texts (`<@>` gives minus the score,
ordered ascending by its index). Dense: pgvector's HNSW by inner product (`<#>` gives minus
it), or with binary quantisation a Hamming walk over bit vectors re-ranked by the full
vectors. A `Selection` becomes a WHERE on the records' filter columns and metadata.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from search.index.postgres.connection import Connections
from search.index.postgres.schema import quoted, words
from search.index.signals import LexicalHits, Selection, no_lexical_scores

#: A binary-quantised walk fetches this many candidates per result for re-ranking.
BINARY_RERANK = 4


def where(selection: Selection | None, alias: str = "r") -> tuple[str, list[Any]]:
    """SQL conditions (with a leading AND) and their parameters for `selection`: a record field
    is one of its texts; a metadata key's value, as text, is one of its texts ("" for records
    without the key, as the engine's mask reads them)."""
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
    """BM25 (pg_textsearch) over one text column of `records`."""

    def __init__(self, connections: Connections, column: str, index_name: str) -> None:
        self._connections = connections
        self._column = quoted(column)
        self._index = index_name

    def rank(self, tokens: list[str], depth: int, selection: Selection | None) -> LexicalHits:
        text = words(list(dict.fromkeys(tokens)))
        if not text:
            return LexicalHits(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32), no_lexical_scores)
        conditions, params = where(selection)
        rows = self._connections.get().execute(
            f"SELECT r.position, -(r.{self._column} <@> to_bm25query(%s, %s)) AS score FROM records r "
            f"WHERE true{conditions} ORDER BY r.{self._column} <@> to_bm25query(%s, %s) LIMIT %s",
            [text, self._index, *params, text, self._index, depth],
        ).fetchall()
        positions, scores = _arrays([row for row in rows if row[1] > 0])
        return LexicalHits(positions, scores, lambda candidates: self._scores_of(text, candidates))

    def _scores_of(self, text: str, positions: np.ndarray) -> np.ndarray:
        out = np.zeros(len(positions), dtype=np.float32)
        if len(positions) == 0:
            return out
        rows = self._connections.get().execute(
            f"SELECT position, -({self._column} <@> to_bm25query(%s, %s)) FROM records WHERE position = ANY(%s)",
            [text, self._index, [int(p) for p in positions]],
        ).fetchall()
        found = dict(rows)
        return np.asarray([max(found.get(int(p), 0.0), 0.0) for p in positions], dtype=np.float32)


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
