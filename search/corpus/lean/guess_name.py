"""Mathlib's rule for naming a translated declaration (`Mathlib.Tactic.Translate.GuessName`).

`@[to_additive]` names the twin of `mul_comm` `add_comm`, `@[to_dual]` names the dual of
`le_sup_left` `inf_le_left`: both split a name component into words, translate each word
through a dictionary, then fix the abbreviations the word-by-word translation gets wrong. The
two attributes differ only in their dictionaries (`NameDictionary`), which Mathlib defines in
`Mathlib/Tactic/Translate/ToAdditive.lean` and `ToDual.lean`: a tree holding those files is
read with its own (`read_dictionary`), any other with the copy this project keeps of them
(`to_additive.ADDITIVE`, `to_dual.DUAL`, checked against the shared Mathlib source by
`tests/corpus/lean/test_translations.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Mapping

from search.corpus.lean.syntax import clean_name, join_name, split_name

#: The Mathlib module that defines `endCapitalNames`.
DEFINED_IN = "Mathlib.Tactic.Translate.GuessName"
#: `GuessName.endCapitalNames`: words that end in capitals and must not be split before their
#: last capital (`LE`, `CoeTC`), with the capitalised endings that may follow them.
END_CAPITAL_NAMES: dict[str, tuple[str, ...]] = {
    "LE": ("",), "LT": ("",), "GE": ("",), "GT": ("",), "WF": ("",), "Coe": ("TC", "T", "HTCT"),
}


def _is_upper(c: str) -> bool:
    return "A" <= c <= "Z"


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(s: str) -> str:
    """Lean's `String.toLower` (ASCII only)."""
    return s.translate(_ASCII_LOWER)


def split_case(s: str, end_capitals: Mapping[str, tuple[str, ...]] = END_CAPITAL_NAMES) -> list[str]:
    """Split a name component into words (`String.splitCase`): at `_` (kept as its own word)
    and before an upper-case letter that follows a non-upper-case one (`LE`, `CoeTC` stay)."""
    words: list[str] = []
    i0 = 0
    while True:
        i1 = i0 + 1
        if i1 >= len(s):
            words.append(s)
            return words
        if s[i0] == "_" or s[i1] == "_":
            words.append(s[:i1])
            s, i0 = s[i1:], 0
            continue
        if _is_upper(s[i1]):
            rest = s[i1:]
            suffix = next((x for x in end_capitals.get(s[:i1], ()) if rest.startswith(x)), None)
            if suffix is not None:
                words.append(s[:i1] + suffix)
                s, i0 = rest[len(suffix):], 0
                continue
            if not _is_upper(s[i0]):
                words.append(s[:i1])
                s, i0 = rest, 0
                continue
        i0 = i1


def decapitalize_seq(s: str) -> str:
    """Lower-case the leading run of upper-case letters (`HAdd` -> `hadd`)."""
    n = 0
    while n < len(s) and _is_upper(s[n]):
        n += 1
    return ascii_lower(s[:n]) + s[n:]


def decapitalize_like(model: str, s: str) -> str:
    """`s` as is when `model` starts with a capital, else with its leading capitals lowered."""
    return s if model and _is_upper(model[0]) else decapitalize_seq(s)


@dataclass
class NameDictionary:
    """One translation's dictionaries (`GuessName.GuessNameData`) and the namespace
    components it must leave alone."""

    #: `nameDict`: a lower-case word -> the words it becomes (the first re-cased like the input).
    words: dict[str, tuple[str, ...]]
    #: `abbreviationDict`: fixes after the word translation (`zero_le` -> `Nonneg`).
    abbreviations: dict[str, str]
    end_capitals: dict[str, tuple[str, ...]] = field(default_factory=lambda: dict(END_CAPITAL_NAMES))
    #: Namespace components the word dictionary would wrongly translate (the types `Prod` and
    #: `Unit` have no additive counterpart: `Prod.fst_mul` is `Prod.fst_add`).
    fixed: frozenset[str] = frozenset()
    _cache: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    def with_hints(self, hints: list[tuple[str, str]]) -> "NameDictionary":
        """The dictionary with a file's `to_dual_name_hint A B` pairs added both ways, as
        `GuessNameExt.addTranslation` adds them (one word: a word entry, else an abbreviation)."""
        if not hints:
            return self
        words, abbreviations = dict(self.words), dict(self.abbreviations)
        for source, target in [*hints, *((b, a) for a, b in hints)]:
            key = decapitalize_seq(source)
            if len(split_case(key, self.end_capitals)) == 1:
                words[key] = tuple(split_case(target, self.end_capitals))
            else:
                abbreviations[key] = target
        return replace(self, words=words, abbreviations=abbreviations, _cache={})

    def _apply_words(self, words: list[str]) -> list[str]:
        out: list[str] = []
        for word in words:
            translated = self.words.get(ascii_lower(word))
            if translated is None:
                out.append(word)
            else:
                out.append(decapitalize_like(word, translated[0]))
                out.extend(translated[1:])
        return out

    def _fix_abbreviations(self, words: list[str]) -> str:
        """`fixAbbreviation`: replace the first (shortest) run of words whose concatenation is in
        the abbreviation dictionary, scanning left to right."""
        out: list[str] = []
        pending = list(words)
        acc: list[str] = []
        while pending or acc:
            if not pending:
                out.append(acc[0])
                pending, acc = acc[1:], []
                continue
            run = acc + [pending.pop(0)]
            text = "".join(run)
            if run[-1] == "_" and text and _is_upper(text[0]):
                out.append(run[0])
                pending, acc = run[1:] + pending, []
                continue
            fixed = self.abbreviations.get(decapitalize_seq(text))
            if fixed is not None:
                out.append(decapitalize_like(text, fixed))
                acc = []
            else:
                acc = run
        return "".join(out)

    def component(self, component: str) -> str:
        """`guessName` on one name component: `mul_comm` -> `add_comm`, `CommMonoid` ->
        `AddCommMonoid`, `le_sup_left` -> `le_inf_left`. Primes split words."""
        hit = self._cache.get(component)
        if hit is None:
            hit = "'".join(self._fix_abbreviations(self._apply_words(split_case(p, self.end_capitals)))
                           for p in component.split("'"))
            self._cache[component] = hit
        return hit

    def identifier(self, name: str) -> str:
        """Every component of a dotted name guessed (but the fixed ones), for statement text."""
        return ".".join(p if p in self.fixed else self.component(p) for p in split_name(name))

    def prefix(self, prefix: str, translations: Mapping[str, str] | None = None) -> str:
        """A namespace translated: the longest prefix with a known translation (`translations`,
        e.g. `Monoid` -> `AddMonoid` from `@[to_additive]` on the class) is replaced; without
        one, each component is guessed word by word, the fixed ones kept."""
        parts = split_name(prefix)
        known = translations or {}
        for k in range(len(parts), 0, -1):
            hit = known.get(".".join(parts[:k]))
            if hit is not None:
                return join_name(hit, *parts[k:])
        return join_name(*(p if p in self.fixed else self.component(p) for p in parts))

    def guess(self, name: str, translations: Mapping[str, str] | None = None) -> str:
        """The name the attribute gives the translation of `name` when none is written: the last
        component guessed, the namespace through `prefix`."""
        parts = split_name(name)
        return join_name(self.prefix(".".join(parts[:-1]), translations), self.component(parts[-1]))

    def explicit(self, name: str, target: str, translations: Mapping[str, str] | None = None) -> str:
        """The name for an attribute that writes `target` (`Translate.targetName`): a target of k
        components replaces the last k components of the translated name, i.e. it is read
        relative to the translated namespace of the source; `_root_.x` is absolute."""
        if target.startswith("_root_."):
            return clean_name(target[len("_root_."):])
        prefix = split_name(self.prefix(".".join(split_name(name)[:-1]), translations))
        target_parts = split_name(clean_name(target))
        keep = max(len(prefix) - (len(target_parts) - 1), 0)
        return join_name(*prefix[:keep], *target_parts)


_LIST_ENTRY = re.compile(r'\(\s*"([^"]*)"\s*,\s*\[([^\]]*)\]\s*\)')
_STRING_ENTRY = re.compile(r'\(\s*"([^"]*)"\s*,\s*"([^"]*)"\s*\)')


def _definition(masked_code: str, name: str) -> str:
    """The text of `def NAME ... := .ofList [ ... ]` in code whose comments are blanked."""
    start = masked_code.find(f"def {name} ")
    if start < 0:
        return ""
    end = masked_code.find("]\n", masked_code.find(".ofList", start))
    return masked_code[start:end + 1] if end > 0 else ""


def read_dictionary(code: str, base: NameDictionary) -> NameDictionary:
    """The dictionaries a Mathlib source file defines (`nameDict`, `abbreviationDict`; comments
    already blanked out of `code`), in place of `base`'s; `base` unchanged when it defines none."""
    words = {k: tuple(re.findall(r'"([^"]*)"', v)) for k, v in _LIST_ENTRY.findall(_definition(code, "nameDict"))}
    abbreviations = dict(_STRING_ENTRY.findall(_definition(code, "abbreviationDict")))
    if not words and not abbreviations:
        return base
    return replace(base, words=words or base.words, abbreviations=abbreviations or base.abbreviations, _cache={})


def read_end_capitals(code: str) -> dict[str, tuple[str, ...]] | None:
    """`endCapitalNames` as `Mathlib/Tactic/Translate/GuessName.lean` defines it, or None."""
    entries = _LIST_ENTRY.findall(_definition(code, "endCapitalNames"))
    return {k: tuple(re.findall(r'"([^"]*)"', v)) for k, v in entries} or None
