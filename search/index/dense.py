"""Inner-product search over view embeddings (FAISS), reduced to one score per record.

Each record has one vector per dense view; a record's dense score is the best of its views
(as LeanExplore did), so a record found through its name and through its docstring counts
once, with its best similarity. Large indexes are searched through an HNSW graph (exact
flat search over 315k vectors costs ~50 ms a query on this machine, the graph ~3 ms); small
ones, and narrow filters, exactly.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Sequence

import faiss
import numpy as np

from search import config
from search.index.arrays import load_array
from search.index.signals import Selection


#: The file of text keys beside the vectors.
KEYS_FILE = "text_keys.npy"


def text_keys(texts: Sequence[str]) -> np.ndarray:
    """A 64-bit BLAKE2b digest of each text: what a vector was embedded from, kept so that a
    rebuild embeds only texts it has not embedded before."""
    return np.fromiter(
        (int.from_bytes(hashlib.blake2b(t.encode("utf-8"), digest_size=8).digest(), "little") for t in texts),
        dtype=np.uint64, count=len(texts),
    )


def stored_vectors(directory: Path) -> tuple[np.ndarray, np.ndarray] | None:
    """The text keys and vectors of an index directory's dense part, row by row (None when
    it kept no keys)."""
    if not (directory / KEYS_FILE).exists():
        return None
    keys = np.load(directory / KEYS_FILE)
    return keys, DenseIndex.load(directory).reconstruct(np.arange(len(keys)))


class DenseIndex:
    """Vectors of every (record, view) pair and the record each row belongs to."""

    def __init__(self, index: faiss.Index, rows: np.ndarray) -> None:
        self._index = index
        self._graph = isinstance(index, faiss.IndexHNSW)
        #: The flat vectors themselves, for exact search (the graph's storage, if any).
        self._flat = faiss.downcast_index(index.storage) if self._graph else index
        self.rows = rows
        #: How many vectors a record has at most (the number of dense views).
        self.views_per_record = int(np.bincount(rows).max()) if len(rows) else 1

    @classmethod
    def build(cls, vectors: np.ndarray, rows: np.ndarray) -> "DenseIndex":
        dimension = vectors.shape[1]
        if len(vectors) < config.DENSE_ANN_FROM:
            index = faiss.IndexFlatIP(dimension)
        else:
            index = faiss.IndexHNSWFlat(dimension, config.DENSE_HNSW_NEIGHBOURS, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = config.DENSE_HNSW_EF_CONSTRUCTION
        index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        return cls(index, rows.astype(np.int32))

    def save(self, directory: Path, keys: np.ndarray | None = None) -> None:
        """Write the index; `keys` (text_keys of the texts embedded, row by row) let a later
        build reuse these vectors (`python -m search build --reuse`)."""
        directory.mkdir(parents=True, exist_ok=True)
        faiss.write_index(self._index, str(directory / "vectors.faiss"))
        np.save(directory / "rows.npy", self.rows)
        if keys is not None:
            np.save(directory / KEYS_FILE, keys)

    @classmethod
    def load(cls, directory: Path) -> "DenseIndex":
        path = str(directory / "vectors.faiss")
        index = faiss.read_index(path, faiss.IO_FLAG_MMAP_IFC) if config.INDEX_MMAP else faiss.read_index(path)
        return cls(index, load_array(directory / "rows.npy"))

    @property
    def dimension(self) -> int:
        return int(self._index.d)

    @property
    def approximate(self) -> bool:
        """Whether unfiltered searches walk a graph rather than scan every vector."""
        return self._graph

    def search(
        self, query: np.ndarray, k: int, allowed: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Up to k records by best view similarity: (record indices, cosine similarities).

        `allowed` (a boolean mask over records) restricts the search inside FAISS, so a
        filter still yields k records whenever k matching ones exist.
        """
        depth = min(self._index.ntotal, k * self.views_per_record * 2)
        index, params = self._index, None
        if self._graph:
            params = faiss.SearchParametersHNSW(efSearch=max(config.DENSE_HNSW_EF_SEARCH, depth))
        if allowed is not None:
            selected = np.flatnonzero(allowed[self.rows]).astype(np.int64)
            depth = min(depth, len(selected))
            selector = faiss.IDSelectorBatch(selected)
            if self._graph and len(selected) >= config.DENSE_ANN_MIN_SHARE * self._index.ntotal:
                params.sel = selector
            else:
                index, params = self._flat, faiss.SearchParameters(sel=selector)
        if depth == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        sims, hits = index.search(query.reshape(1, -1).astype(np.float32), depth, params=params)
        found = hits[0] >= 0
        records = np.asarray(self.rows[hits[0][found]], dtype=np.int64)
        # Each record at its first (best) row: hits come best first.
        first = np.sort(np.unique(records, return_index=True)[1])[:k]
        return records[first], sims[0][found][first].astype(np.float32)

    def rank(self, vector: np.ndarray, depth: int, selection: Selection | None) -> tuple[np.ndarray, np.ndarray]:
        """`search` within a `Selection` (the engine's call, which the PostgreSQL index answers too)."""
        return self.search(vector, depth, None if selection is None else selection.mask)

    def reconstruct(self, vector_rows: np.ndarray) -> np.ndarray:
        """The stored vectors at these row numbers (e.g. for embedding-space plots)."""
        return self._flat.reconstruct_batch(np.asarray(vector_rows, dtype=np.int64))
