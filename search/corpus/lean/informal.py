"""Informal text for Lean records from what their authors wrote elsewhere than the docstring.

Without an LLM, the text that LeanSearch and LeanExplore get from informalisation has to come
from the authors' own prose. Three places say something about a declaration besides its own
docstring, and each fills the record's `informal` field:

* the module doc of its own file names it in backticks with a description (`module_docs`);
* a field or constructor says nothing of its own, and its structure's docstring says what the
  structure is;
* a `foo_def`, `foo_apply`, `foo_iff` or `foo_spec` lemma without a docstring unfolds `foo`,
  whose docstring says what `foo` is.
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping

from search.corpus.lean.module_docs import ModuleDoc, suffix_table
from search.record import Statement

#: Lemma suffixes that state what a definition is (`Finset.card_def` unfolds `Finset.card`).
UNFOLDING_SUFFIXES = ("_def", "_apply", "_iff", "_spec")
#: Characters of an inherited docstring kept.
INHERITED_CHARS = 300


def attach_informal(statements: list[Statement], module_docs: Mapping[str, ModuleDoc]) -> Counter[str]:
    """Fill `informal` where one of the three places says something; count records per place.

    A module doc's description of a record is kept even when the record has a docstring
    (they are often worded differently); inherited docstrings only fill records with none."""
    counts: Counter[str] = Counter()
    by_name = {s.name: s for s in statements}
    by_module: dict[str, list[Statement]] = {}
    for statement in statements:
        by_module.setdefault(statement.module, []).append(statement)
    for module, members in by_module.items():
        doc = module_docs.get(module)
        if doc is None:
            continue
        table = suffix_table([s.name for s in members])
        named = {s.name: s for s in members}
        for written, text in doc.described.items():
            if len(text) <= len(written) + 10:  # a bare mention, no description
                continue
            for full in table.get(written, []):
                if not named[full].informal:
                    named[full].informal = text
                    counts["module doc"] += 1
    for statement in statements:
        if statement.doc or statement.informal:
            continue
        source = _inherited_from(statement, by_name)
        if source is not None:
            statement.informal = _first(source.doc)
            counts["structure docstring" if statement.kind in ("field", "constructor") else "definition docstring"] += 1
    return counts


def _inherited_from(statement: Statement, by_name: Mapping[str, Statement]) -> Statement | None:
    """The documented declaration whose docstring speaks for `statement`, if any."""
    if statement.kind in ("field", "constructor"):
        head = by_name.get(statement.meta.get("derived_from", ""))
        return head if head is not None and head.doc else None
    if statement.kind not in ("theorem", "lemma"):
        return None
    for suffix in UNFOLDING_SUFFIXES:
        if statement.name.endswith(suffix):
            defined = by_name.get(statement.name[: -len(suffix)])
            if defined is not None and defined.doc and defined.kind not in ("theorem", "lemma"):
                return defined
    return None


def _first(doc: str) -> str:
    text = " ".join(doc.split())
    return text if len(text) <= INHERITED_CHARS else text[:INHERITED_CHARS].rsplit(" ", 1)[0] + "…"
