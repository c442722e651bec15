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
from typing import TYPE_CHECKING, Mapping, Sequence

import marisa_trie
import numpy as np

from search.index.arrays import load_array, load_arrays, save_arrays
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


#: The files of a saved index: each array of `Postings` (.npy), the vocabulary (`Vocabulary`)
#: and the number of documents.
ARRAYS = ("scores", "documents", "starts")
SETTINGS = "bm25.json"


class Vocabulary:
    """Term -> its number in the postings: a MARISA trie (marisa-trie) of the terms, mapped
    from its file, and each trie key's term number.

    Why not a dict: the names' index has 606k terms (whole names, dotted suffixes, words);
    reading them into a dict took 0.25-0.55 s of every server start and ~70 MB of Python
    objects, where the trie is 2.6 MB, mapped in well under a millisecond, and answers a
    lookup in ~1 µs."""

    TRIE = "vocabulary.marisa"
    NUMBERS = "vocabulary.npy"

    def __init__(self, trie: marisa_trie.Trie, numbers: np.ndarray) -> None:
        self._trie = trie
        #: The term number of each trie key id (the trie numbers its keys its own way).
        self._numbers = numbers

    @classmethod
    def of(cls, numbered: Mapping[str, int]) -> "Vocabulary":
        trie = marisa_trie.Trie(numbered)
        numbers = np.empty(len(trie), dtype=np.int64)
        for term, number in numbered.items():
            numbers[trie[term]] = number
        return cls(trie, numbers)

    def get(self, term: str) -> int | None:
        found = self._trie.get(term)
        return None if found is None else int(self._numbers[found])

    def __len__(self) -> int:
        return len(self._trie)

    def save(self, directory: Path) -> None:
        self._trie.save(str(directory / self.TRIE))
        np.save(directory / self.NUMBERS, self._numbers)

    @classmethod
    def load(cls, directory: Path) -> "Vocabulary":
        trie = marisa_trie.Trie()
        trie.mmap(str(directory / cls.TRIE))
        return cls(trie, load_array(directory / cls.NUMBERS))


class LexicalIndex:
    """A BM25+ index whose documents are token lists; scores come back per document."""

    def __init__(self, postings: Postings, vocabulary: Vocabulary, size: int) -> None:
        self._postings = postings
        self._vocab = vocabulary
        self.size = size

    @classmethod
    def build(cls, documents: Sequence[list[str]]) -> "LexicalIndex":
        """An index in memory over `documents` (bm25s's BM25+; `save` writes it)."""
        import bm25s

        logging.getLogger("bm25s").setLevel(logging.WARNING)
        model = bm25s.BM25(method="bm25+", **PARAMS)
        model.index([doc or [""] for doc in documents], show_progress=False)  # bm25s needs a token per document
        return cls(Postings.of(model), Vocabulary.of(model.vocab_dict), int(model.scores["num_docs"]))

    @staticmethod
    def write(documents: Sequence[list[str]], directory: Path) -> None:
        """Index `documents` into `directory`, for `load`."""
        LexicalIndex.build(documents).save(directory)

    def save(self, directory: Path) -> None:
        save_arrays(directory, {name: getattr(self._postings, name) for name in ARRAYS})
        self._vocab.save(directory)
        (directory / SETTINGS).write_text(json.dumps({"documents": self.size, "method": "bm25+", **PARAMS}) + "\n")

    @classmethod
    def load(cls, directory: Path) -> "LexicalIndex":
        """The index `save` wrote; the postings mapped from their files (`config.INDEX_MMAP`)."""
        postings = Postings(**load_arrays(directory, ARRAYS))
        size = json.loads((directory / SETTINGS).read_text())["documents"]
        return cls(postings, Vocabulary.load(directory), int(size))

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        """BM25+ score of every document; 0 where no query token occurs in it.

        The empty token pads empty documents at build time; it is no word and bm25s keeps no
        statistics for it, so it is skipped (a query ending in "." yields one).
        """
        postings = self._postings
        found = (self._vocab.get(t) for t in dict.fromkeys(query_tokens) if t)
        terms = [number for number in found if number is not None]
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
