"""BM25+ lexical indexes (bm25s), over pre-tokenized text.

bm25s implements BM25+ with sparse matrices; `tests/index/test_lexical.py` checks it against
`rank_bm25.BM25Plus`, the reference implementation. The index is built by bm25s and kept as
the postings scoring reads (see `Postings`), in files that are mapped rather than parsed
(`LexicalIndex.save`), so that serving never imports bm25s: loading bm25s's own files took
0.55 s of every start over the full default index (a JSON vocabulary of 606k words for the
names' index) and importing bm25s another 0.45 s (it imports numba and scipy).
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np
import pyarrow as pa

from search import config
from search.index.arrays import load_array
from search.index.signals import LexicalHits, Selection, top

if TYPE_CHECKING:
    import bm25s

#: BM25+ parameters (Lv & Zhai 2011; k1 and b as Lucene, delta as rank_bm25's default).
PARAMS = {"k1": 1.2, "b": 0.75, "delta": 1.0}


@dataclass(frozen=True)
class Postings:
    """Per term, the documents holding it and the term's whole BM25+ score in each.

    BM25+ (Lv & Zhai) adds delta * idf(t) for each query term t *present* in a document.
    bm25s (like rank_bm25) stores the score less that constant and adds it for every document,
    absent terms included, which would give every document a positive score. Folding the
    constant into the stored scores once, at build time, leaves one gather-and-add per query term:
    the query path was GIL-bound on the per-term masking and copies this replaces (py-spy,
    16 concurrent clients). Every stored score is positive (idf = log((N + 1) / df) > 0 and
    the term-frequency part is positive), so no entry needs dropping.
    """

    scores: np.ndarray  # float32, one per (term, document) pair, grouped by term
    documents: np.ndarray  # the document of each pair
    starts: np.ndarray  # term t's pairs are [starts[t], starts[t + 1])

    @classmethod
    def of(cls, model: "bm25s.BM25") -> "Postings":
        matrix = model.scores
        data, starts = matrix["data"], matrix["indptr"]
        constant = np.repeat(model.nonoccurrence_array.astype(data.dtype), np.diff(starts))
        return cls(scores=data + constant, documents=matrix["indices"], starts=starts)


#: The files of a saved index: each array of `Postings` (.npy), the vocabulary (one Arrow
#: string column, a term's number its row) and the number of documents.
ARRAYS = ("scores", "documents", "starts")
VOCABULARY = "vocabulary.arrow"
SETTINGS = "bm25.json"


class LexicalIndex:
    """A BM25+ index whose documents are token lists; scores come back per document."""

    def __init__(self, postings: Postings, vocabulary: dict[str, int], size: int) -> None:
        self._postings = postings
        #: Term -> its number in the postings.
        self._vocab = vocabulary
        self.size = size

    @classmethod
    def build(cls, documents: Sequence[list[str]]) -> "LexicalIndex":
        """An index in memory over `documents` (bm25s's BM25+; `save` writes it)."""
        import bm25s

        logging.getLogger("bm25s").setLevel(logging.WARNING)
        model = bm25s.BM25(method="bm25+", **PARAMS)
        model.index([doc or [""] for doc in documents], show_progress=False)  # bm25s needs a token per document
        return cls(Postings.of(model), model.vocab_dict, int(model.scores["num_docs"]))

    @staticmethod
    def write(documents: Sequence[list[str]], directory: Path) -> None:
        """Index `documents` into `directory`, for `load`."""
        LexicalIndex.build(documents).save(directory)

    def save(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        for name in ARRAYS:
            np.save(directory / f"{name}.npy", getattr(self._postings, name))
        numbered: list[str | None] = [None] * len(self._vocab)
        for term, number in self._vocab.items():
            numbered[number] = term  # bm25s numbers its terms 0..n-1
        terms = pa.table({"term": pa.array(numbered, pa.string())})
        with pa.OSFile(str(directory / VOCABULARY), "wb") as sink, pa.ipc.new_file(sink, terms.schema) as writer:
            writer.write_table(terms)
        (directory / SETTINGS).write_text(json.dumps({"documents": self.size, "method": "bm25+", **PARAMS}) + "\n")

    @classmethod
    def load(cls, directory: Path) -> "LexicalIndex":
        """The index `save` wrote; the postings mapped from their files (`config.INDEX_MMAP`)."""
        postings = Postings(**{name: load_array(directory / f"{name}.npy") for name in ARRAYS})
        with pa.memory_map(str(directory / VOCABULARY)) as source:
            terms = pa.ipc.open_file(source).read_all()["term"].to_pylist()
        size = json.loads((directory / SETTINGS).read_text())["documents"]
        return cls(postings, dict(zip(terms, range(len(terms)))), int(size))

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        """BM25+ score of every document; 0 where no query token occurs in it.

        The empty token pads empty documents at build time; it is no word and bm25s keeps no
        statistics for it, so it is skipped (a query ending in "." yields one).
        """
        postings = self._postings
        terms = [self._vocab[t] for t in dict.fromkeys(t for t in query_tokens if t and t in self._vocab)]
        if not terms:
            return np.zeros(self.size, dtype=np.float32)
        # One pass over the terms' postings in C (summed in float64), where an indexed add per
        # term gathered, added and scattered each term's documents: over the queries of
        # `python -m eval bench latency` on the full index, alternated in one process, 1.85 ->
        # 1.40 ms for the text view's index and 1.07 -> 0.95 ms for the names'.
        spans = [slice(postings.starts[t], postings.starts[t + 1]) for t in terms]
        documents = np.concatenate([postings.documents[span] for span in spans])
        scores = np.concatenate([postings.scores[span] for span in spans])
        return np.bincount(documents, weights=scores, minlength=self.size).astype(np.float32)

    def rank(self, tokens: list[str], depth: int, selection: Selection | None) -> LexicalHits:
        """The `depth` best documents within `selection`, scored once for every document."""
        scores = self.scores(tokens)
        positions, best = top(scores, None if selection is None else selection.mask, depth)
        return LexicalHits(positions, best, lambda candidates: scores[candidates])


def bm25plus(
    frequencies: Sequence[tuple[int, int]], length: int, documents: int, average_length: float
) -> float:
    """One document's BM25+ score as bm25s computes it (with `PARAMS`), from each query term's
    (frequency in the document, number of documents holding it) and the document's length in
    tokens (an empty document counts 1, the empty token bm25s pads it with): the sum over the
    terms present of idf · ((k1 + 1) · tf / (k1 · (1 - b + b · length / average) + tf) + delta),
    idf = log((N + 1) / df). For scoring a few documents' texts without the postings (the
    PostgreSQL backend re-scores the candidates pg_textsearch finds); `tests/index/test_lexical.py`
    checks it against `LexicalIndex.scores`."""
    k1, b, delta = PARAMS["k1"], PARAMS["b"], PARAMS["delta"]
    norm = k1 * (1 - b + b * max(length, 1) / average_length)
    return sum(
        math.log((documents + 1) / df) * ((k1 + 1) * tf / (norm + tf) + delta)
        for tf, df in frequencies if tf > 0 and df > 0
    )
