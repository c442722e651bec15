"""Synthetic statements for the scale benchmark: random unit vectors of the model's dimension
(a flat float32 file, written and read in blocks, never held whole), their exact nearest
neighbours (blockwise), and documents drawn from the real corpus vocabulary with its
frequencies and document lengths.

Random unit vectors are a near-worst case for approximate search: in 384 dimensions every
point is almost equally far from a random query (inner products ~ N(0, 1/384)), so the true
top 10 stand out from the rest by a few thousandths, and no cluster structure helps.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

#: Rows per block when writing, reading or scanning vectors (384-D float32: 768 MB).
BLOCK = 1 << 19


def random_unit(count: int, dim: int, rng: np.random.Generator) -> np.ndarray:
    """`count` vectors uniform on the unit sphere (normalised Gaussians), float32."""
    vectors = rng.standard_normal((count, dim), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors


def write_vectors(path: str, count: int, dim: int, seed: int) -> dict[str, int]:
    """Write `count` random unit vectors to a flat float32 file, block by block."""
    rng = np.random.default_rng(seed)
    with open(path, "wb") as out:
        for start in range(0, count, BLOCK):
            random_unit(min(BLOCK, count - start), dim, rng).tofile(out)
    return {"count": count, "bytes": Path(path).stat().st_size}


def blocks(path: str, dim: int, block: int = BLOCK) -> Iterator[tuple[int, np.ndarray]]:
    """(first row, rows) of a flat float32 vector file, block by block, read into fresh memory."""
    count = Path(path).stat().st_size // (4 * dim)
    for start in range(0, count, block):
        rows = min(block, count - start)
        yield start, np.fromfile(path, dtype=np.float32, count=rows * dim, offset=start * dim * 4).reshape(rows, dim)


def open_vectors(path: str, dim: int) -> np.memmap:
    """The vector file memory-mapped read-only (pages read on demand, shared with the page cache)."""
    return np.memmap(path, dtype=np.float32, mode="r").reshape(-1, dim)


def exact_top_k(path: str, queries: str, k: int, dim: int, out: str) -> dict[str, int]:
    """Exact inner-product top-k of every query (`.npy`) over the vector file, scanned blockwise;
    the ids (int64, queries x k, best first) saved to `out` (`.npy`)."""
    q = np.load(queries)
    best_sims = np.full((len(q), k), -np.inf, dtype=np.float32)
    best_ids = np.full((len(q), k), -1, dtype=np.int64)
    for start, rows in blocks(path, dim):
        sims = q @ rows.T
        top = np.argpartition(-sims, min(k, sims.shape[1] - 1), axis=1)[:, :k]
        sims = np.concatenate([best_sims, np.take_along_axis(sims, top, axis=1)], axis=1)
        ids = np.concatenate([best_ids, top + start], axis=1)
        keep = np.argsort(-sims, axis=1, kind="stable")[:, :k]
        best_sims, best_ids = np.take_along_axis(sims, keep, axis=1), np.take_along_axis(ids, keep, axis=1)
    np.save(out, best_ids)
    return {"queries": len(q), "k": k}


@dataclass
class Vocabulary:
    """Tokens with their corpus frequencies, and the corpus's document lengths (in tokens)."""

    tokens: np.ndarray  # str
    counts: np.ndarray  # int64
    lengths: np.ndarray  # int32, one per real document

    def save(self, path: Path) -> None:
        np.savez(path, tokens=self.tokens, counts=self.counts, lengths=self.lengths)

    @classmethod
    def load(cls, path: Path | str) -> "Vocabulary":
        data = np.load(path)
        return cls(data["tokens"], data["counts"], data["lengths"])


def save_vocabulary(records: str, out: str) -> dict[str, int]:
    """The vocabulary of an index's records as its lexical index sees them (the same text view
    and tokenizer), saved to `out` (`.npz`)."""
    from collections import Counter

    from search.record import read_records
    from search.text.tokenize import tokenize
    from search.text.views import lexical_text

    counts: Counter[str] = Counter()
    lengths = []
    for statement in read_records(Path(records)):
        tokens = tokenize(lexical_text(statement))
        counts.update(tokens)
        lengths.append(len(tokens))
    ranked = counts.most_common()
    vocabulary = Vocabulary(np.array([t for t, _ in ranked]), np.array([c for _, c in ranked], dtype=np.int64),
                            np.array(lengths, dtype=np.int32))
    vocabulary.save(Path(out))
    return {"documents": len(lengths), "tokens": len(ranked), "occurrences": int(vocabulary.counts.sum())}


def documents(vocabulary: Vocabulary, count: int, seed: int) -> list[list[str]]:
    """`count` documents: lengths drawn from the real documents', tokens from the unigram
    frequencies (independently: no word order, no co-occurrence, the load BM25 sees)."""
    rng = np.random.default_rng(seed)
    probabilities = vocabulary.counts / vocabulary.counts.sum()
    tokens = vocabulary.tokens.tolist()
    out: list[list[str]] = []
    for start in range(0, count, BLOCK):
        lengths = rng.choice(vocabulary.lengths, size=min(BLOCK, count - start))
        ids = rng.choice(len(tokens), size=int(lengths.sum()), p=probabilities)
        bounds = np.concatenate([[0], np.cumsum(lengths)])
        out.extend([tokens[i] for i in ids[bounds[j]:bounds[j + 1]].tolist()] for j in range(len(lengths)))
    return out
