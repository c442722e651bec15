"""Lookups over every distinct lowercased name: dotted prefixes, substrings, near misses.

A Python loop over 300k names costs ~100 ms a query. Here the names are joined into one
string, so that `str.find` (C speed) finds the occurrences and their offsets give the names;
near misses are only compared with names of a length that could reach the cutoff.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np
from rapidfuzz import fuzz, process

#: How many near spellings an error suggests.
SUGGESTIONS = 5


class NameTable:
    """The distinct names of an index (lowercased), searchable by prefix, substring, spelling."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = sorted(set(names))
        self._joined = "\n" + "\n".join(self.names) + "\n"
        lengths = np.array([len(n) for n in self.names], dtype=np.int64)
        #: Offset of each name in `_joined` (after its leading newline).
        self._starts = np.concatenate(([1], 1 + np.cumsum(lengths + 1)[:-1])) if self.names else np.zeros(0, np.int64)
        order = np.argsort(lengths, kind="stable")
        self._by_length = [self.names[i] for i in order]
        self._lengths = lengths[order]

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
        """Names whose rapidfuzz `ratio` with `name` reaches `cutoff` (0-100), best first.

        ratio = 2·matches / (len1 + len2), so a name can only reach the cutoff when its length
        lies within [len·c/(2−c), len·(2−c)/c] for c = cutoff/100; only those are scored."""
        c = cutoff / 100
        low, high = int(np.floor(len(name) * c / (2 - c))), int(np.ceil(len(name) * (2 - c) / c))
        start, stop = np.searchsorted(self._lengths, [low, high + 1])
        close = process.extract(
            name, self._by_length[start:stop], scorer=fuzz.ratio, score_cutoff=cutoff, limit=limit
        )
        return [candidate for candidate, _, _ in close]

    def _find(self, needle: str, shift: int) -> list[int]:
        """Index of the name holding each occurrence of `needle` (offset + `shift`)."""
        offsets = []
        at = self._joined.find(needle)
        while at != -1:
            offsets.append(at + shift)
            at = self._joined.find(needle, at + 1)
        return (np.searchsorted(self._starts, offsets, side="right") - 1).tolist() if offsets else []


def nearest(
    text: str, choices: Iterable[str], limit: int = SUGGESTIONS, scorer: Any = fuzz.WRatio
) -> list[str]:
    """The choices closest to a misspelt `text`, best first (rapidfuzz; weighted ratio unless
    told otherwise: the plain ratio is faster over hundreds of thousands of ids)."""
    matches = process.extract(text, list(choices), scorer=scorer, limit=limit, score_cutoff=50)
    return [choice for choice, _, _ in matches]
