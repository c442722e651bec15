"""The one tokenizer of the lexical indexes, shared by documents and queries.

Identifiers are split the way Lean names are built (dots, underscores, camelCase), notation
is spelled out, and English words are stemmed, so that `mul_comm`, "multiplication is
commutative" and `a * b = b * a` meet on common tokens.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

from search.text.lean_text import spell_notation, split_identifier

_STEMMER = Stemmer.Stemmer("english")
#: A word for BM25, not a Lean identifier: dots split (`Nat.succ` gives `Nat`, `succ`) and a
#: word never starts with `_`, so names and prose are cut into the same words.
_TOKEN_RE = re.compile(r"[^\W_][\w'!?₀-₉]*")

STOPWORDS = frozenset(
    "a an the of to in on for is are be by with that this it as at or and from its their "
    "any every some such then there which we let if".split()
)


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    return _STEMMER.stemWord(word)


@lru_cache(maxsize=500_000)
def _token_words(token: str) -> tuple[str, ...]:
    """Stemmed words of one identifier-like token (cached: corpus tokens repeat a lot)."""
    return tuple(_stem(w) for w in split_identifier(token) if w not in STOPWORDS)


def tokenize(text: str) -> list[str]:
    """Lowercased, stemmed word tokens with notation spelled out; stopwords dropped."""
    return [word for token in _TOKEN_RE.findall(spell_notation(text)) for word in _token_words(token)]


def name_tokens(name: str) -> list[str]:
    """Tokens of the name-only index: the whole name, each dotted suffix, and its words.

    `Nat.succ_le_succ` gives `nat.succ_le_succ`, `succ_le_succ`, and nat/succ/le/succ, so an
    exact name, a short name and a spaced name all hit.
    """
    lowered = name.lower()
    parts = lowered.split(".")
    suffixes = [".".join(parts[i:]) for i in range(len(parts))]
    return suffixes + [_stem(w) for w in split_identifier(name)]
