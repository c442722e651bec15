"""Lookups over names: every distinct lowercased name (dotted prefixes, substrings, near
misses), famous titles, and names a query spells in words.

A Python loop over 300k names costs ~100 ms a query. Here the names are joined into one
string, so that `str.find` (C speed) finds the occurrences and their offsets give the names;
near misses are only compared with names of a length that could reach the cutoff.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import re
import unicodedata

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from rapidfuzz import fuzz, process

#: How many near spellings an error suggests.
SUGGESTIONS = 5
#: How many titles close to a query are kept.
TITLE_MATCHES = 20


class NameTable:
    """The distinct names of an index (lowercased), searchable by prefix, substring, spelling."""

    def __init__(self, names: Iterable[str]) -> None:
        # Sorted by Python, in the order given (the records' order, long runs already sorted,
        # which timsort merges): in a fresh process (a server's start), over the 315k names of
        # the full default index, 0.09 s, where the same names in a set's order took 0.30 s
        # and turning them into an Arrow array to sort there 0.36-0.54 s (the same order:
        # UTF-8 byte order is code point order).
        self.names: list[str] = sorted(dict.fromkeys(names))
        self._joined = "\n" + "\n".join(self.names) + "\n"
        lengths = np.fromiter(map(len, self.names), dtype=np.int64, count=len(self.names))
        #: Offset of each name in `_joined` (after its leading newline).
        self._starts = np.concatenate(([1], 1 + np.cumsum(lengths + 1)[:-1])) if self.names else np.zeros(0, np.int64)
        self._by_length = ByLength(self.names, lengths)

    def with_prefix(self, prefix: str) -> list[str]:
        """Names that start with `prefix`, whole or after a dot (`succ_le` ~ `nat.succ_le_succ`)."""
        if not prefix or "\n" in prefix:
            return []
        hits = self._find("\n" + prefix, shift=1) + self._find("." + prefix, shift=0)
        return [self.names[i] for i in sorted(set(hits))]

    def containing(self, needles: Iterable[str]) -> list[str]:
        """Names containing every needle."""
        needles = [n for n in needles if n]
        if not needles or any("\n" in n for n in needles):
            return []
        first, rest = needles[0], needles[1:]
        names = (self.names[i] for i in sorted(set(self._find(first, shift=0))))
        return [name for name in names if all(n in name for n in rest)]

    def similar(self, name: str, cutoff: float, limit: int) -> list[str]:
        """Names whose rapidfuzz `ratio` with `name` reaches `cutoff` (0-100), best first."""
        return [candidate for candidate, _, _ in self._by_length.extract(name, cutoff, limit)]

    def _find(self, needle: str, shift: int) -> list[int]:
        """Index of the name holding each occurrence of `needle` (offset + `shift`)."""
        offsets = []
        at = self._joined.find(needle)
        while at != -1:
            offsets.append(at + shift)
            at = self._joined.find(needle, at + 1)
        return (np.searchsorted(self._starts, offsets, side="right") - 1).tolist() if offsets else []


class ByLength:
    """Strings ordered by length, for rapidfuzz `ratio` searches that score only the strings
    that could reach the cutoff. ratio = 1 − indel / (len1 + len2), where indel (insertions and
    deletions) is at least the length difference, so a string can only reach a cutoff c (0-1)
    against a text of length n when its length lies within [n·c/(2−c), n·(2−c)/c]. With
    `composition`, the strings' character counts are kept too: indel is also at least the L1
    distance between the two strings' counts, which rules out most strings of the right length
    before rapidfuzz sees them. Over the 17.8k famous titles, for the queries of `python -m eval
    bench latency`, the title lookup took 1.0 ms scoring every title, 0.53 ms within the
    lengths, and 0.25 ms with the counts as well (same matches)."""

    def __init__(self, strings: Sequence[str], lengths: np.ndarray | None = None, composition: bool = False) -> None:
        if lengths is None:
            lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
        #: Where each string of `strings` (ordered by length) stands in the list given.
        self.order = np.argsort(lengths, kind="stable")
        self.strings = [strings[i] for i in self.order.tolist()]
        self._lengths = lengths[self.order]
        self._counts = character_counts(self.strings, self._lengths) if composition else None

    def extract(self, text: str, cutoff: float, limit: int) -> list[tuple[str, float, int]]:
        """(string, ratio, its position in the list given) of the strings whose ratio with
        `text` reaches `cutoff` (0-100), best first, ties shortest first."""
        c = cutoff / 100
        low, high = int(np.floor(len(text) * c / (2 - c))), int(np.ceil(len(text) * (2 - c) / c))
        start, stop = np.searchsorted(self._lengths, [low, high + 1])
        rows = np.arange(start, stop)
        if self._counts is not None and len(rows):
            query = character_counts([text], np.array([len(text)]))[0]
            distance = np.abs(self._counts[start:stop] - query).sum(axis=1)
            rows = rows[distance <= (1 - c) * (len(text) + self._lengths[start:stop]) + 1e-9]
        choices = [self.strings[row] for row in rows.tolist()]
        close = process.extract(text, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=limit)
        return [(found, score, int(self.order[rows[at]])) for found, score, at in close]


#: The characters counted apart in `character_counts`; any other counts as one more.
COUNTED = "abcdefghijklmnopqrstuvwxyz0123456789 "
_BUCKET = np.full(128, len(COUNTED), dtype=np.int64)
_BUCKET[[ord(ch) for ch in COUNTED]] = np.arange(len(COUNTED))


def character_counts(strings: Sequence[str], lengths: np.ndarray) -> np.ndarray:
    """How often each character of `COUNTED` (and any other, as one) occurs in each string, one
    row per string. Characters counted together can only bring two rows closer, so the L1
    distance between rows stays a lower bound of the strings' indel distance."""
    codes = np.frombuffer("".join(strings).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    buckets = _BUCKET[np.minimum(codes, 127)]
    rows = np.repeat(np.arange(len(strings)), lengths)
    width = len(COUNTED) + 1
    return np.bincount(rows * width + buckets, minlength=len(strings) * width).reshape(len(strings), width).astype(np.int32)


_POSSESSIVE = re.compile(r"['’]s\b|['’]")
_NOT_WORD = re.compile(r"[^\w]+")


def title_key(text: str) -> str:
    """A title as compared: accents, case, possessives, apostrophes and punctuation dropped
    (`Hilbert's basis theorem` and `hilbert basis theorem` agree; `Schröder` is `schroder`)."""
    if not text.isascii():  # NFKD leaves ASCII as it is, with nothing combining to drop
        text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = text.lower()
    return " ".join(_NOT_WORD.sub(" ", _POSSESSIVE.sub("", text)).replace("_", " ").split())


class TitleTable:
    """Famous titles of records (Mathlib's lists of named theorems, as aliases), matched whole.

    A query that is a title, or nearly (a similarity ratio of at least `cutoff` between the
    compared forms), finds the records the title names. There are a few thousand titles, so a
    query is compared with each.
    """

    def __init__(self, aliases: Iterable[tuple[int, list[str]]]) -> None:
        self.positions: dict[str, list[int]] = {}
        for position, titles in aliases:
            for title in titles:
                key = title_key(title)
                if key and position not in self.positions.setdefault(key, []):
                    self.positions[key].append(position)
        self._keys = ByLength(list(self.positions), composition=True)

    def match(self, query: str, cutoff: float) -> list[tuple[int, float]]:
        """(position, similarity 0-100) of the records whose title the query is, best first
        (ties in the order the titles were given)."""
        key = title_key(query)
        if not key:
            return []
        close = sorted(self._keys.extract(key, cutoff, TITLE_MATCHES), key=lambda match: (-match[1], match[2]))
        found: dict[int, float] = {}
        for title, score, _ in close:
            for position in self.positions[title]:
                found[position] = max(found.get(position, 0.0), float(score))
        return sorted(found.items(), key=lambda item: -item[1])


#: Words of a query that may spell a name: letters only, at most this many.
SPELLED_WORDS = 4


def spelled_words(query: str) -> list[str]:
    """The lowercased words of a query that may spell a name (at most SPELLED_WORDS, letters
    only), or [] for any other query."""
    words = query.lower().split()
    return words if len(words) <= SPELLED_WORDS and all(w.isalpha() for w in words) else []


def spelled_names(query: str) -> list[str]:
    """The lowercased names a short query spells: its words run together (`Lie algebra` ->
    `liealgebra`, which `LieAlgebra` lowercases to) or joined by `_` (`add comm` -> `add_comm`)."""
    words = spelled_words(query)
    return ["".join(words), "_".join(words)] if len(words) >= 2 else []


class TypeNames:
    """Types by their own name, lowercased, with the positions of the records so named, so that
    a query that spells a type in words finds it:
    - the last part of a namespaced name that is capitalised, as types, structures and classes
      are named: "vector measure", "prepartition" -> `MeasureTheory.VectorMeasure`,
      `BoxIntegral.Prepartition`;
    - a predicate's name without its `Is`: "noetherian ring", "set semiring" ->
      `IsNoetherianRing`, `MeasureTheory.IsSetSemiring`.
    Lemma names (`Finset.sum_comm`, `isCompact_iff`) are lower case and stay out, so that
    "sum comm" does not match every namespace's lemma of that name.
    """

    def __init__(self, names: pa.ChunkedArray | pa.Array) -> None:
        # Arrow over the 315k names of the full default index: 0.07-0.13 s.
        parts = pc.split_pattern(names, pattern=".", max_splits=1, reverse=True)
        parts = parts.combine_chunks() if isinstance(parts, pa.ChunkedArray) else parts
        offsets = parts.offsets.to_numpy()
        last = parts.values.take(pa.array(offsets[1:] - 1))

        def capital(at: int) -> np.ndarray:
            return pc.utf8_is_upper(pc.utf8_slice_codeunits(last, at, at + 1)).to_numpy(zero_copy_only=False)

        namespaced = np.flatnonzero((np.diff(offsets) == 2) & capital(0))
        predicates = np.flatnonzero(pc.starts_with(last, "Is").to_numpy(zero_copy_only=False) & capital(2))
        self._positions: dict[str, list[int]] = {}
        for positions, start in ((namespaced, 0), (predicates, 2)):
            keys = pc.utf8_lower(pc.utf8_slice_codeunits(last.take(pa.array(positions)), start))
            for key, position in zip(keys.to_pylist(), positions.tolist()):
                self._positions.setdefault(key, []).append(position)

    def spelled(self, query: str) -> list[int]:
        """Positions of the types whose own name the query's words run together spell."""
        words = spelled_words(query)
        return self._positions.get("".join(words), []) if words else []


def nearest(
    text: str, choices: Iterable[str], limit: int = SUGGESTIONS, scorer: Any = fuzz.WRatio
) -> list[str]:
    """The choices closest to a misspelt `text`, best first (rapidfuzz; weighted ratio unless
    told otherwise: the plain ratio is faster over hundreds of thousands of ids)."""
    matches = process.extract(text, list(choices), scorer=scorer, limit=limit, score_cutoff=50)
    return [choice for choice, _, _ in matches]
