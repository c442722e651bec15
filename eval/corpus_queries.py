"""Query sets made from the corpora themselves, by name: `python -m eval retrieval --queries NAME`.

- `named-theorems`: every title of Mathlib's lists of named theorems (`mathlib_docs/*.yaml`:
  100 theorems, 1000+ theorems, overview, undergraduate), as written and lower-cased without
  apostrophes; the gold is the declaration the list names. A query that is a famous title must
  put that declaration first (Hit@1).
- `stacks-to-mathlib`, `mathlib-to-stacks`: the formal ↔ informal alignment measured on
  Mathlib's `@[stacks TAG]` links, each direction searched with the other language as filter
  (`search.engine.alignment`). The links are split in two halves by a fixed hash of the tag;
  these sets hold the `test` half, and anything trained on links may use the `train` half only
  (`alignment_pairs(..., half="train")`).
- `docstrings-to-stacks`: the same test half, each Mathlib docstring alone searching Stacks.

Each generator reads the index the evaluation runs on (the records it holds) or the corpora
beside it; nothing is copied into the repository.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

from search import config
from search.corpus.crosslinks import link_half
from search.engine.alignment import QUERY_CHARS, alignment_query, other_language

from eval.querysets import LabelledQuery

if TYPE_CHECKING:
    from search.index.store import Index
    from search.record import Statement

#: Name -> generator over an index.
CORPUS_QUERIES: dict[str, Callable[["Index"], list[LabelledQuery]]] = {}


def corpus_queries(name: str) -> Callable[[Callable[["Index"], list[LabelledQuery]]], Callable[["Index"], list[LabelledQuery]]]:
    def register(generator: Callable[["Index"], list[LabelledQuery]]) -> Callable[["Index"], list[LabelledQuery]]:
        CORPUS_QUERIES[name] = generator
        return generator

    return register


@corpus_queries("named-theorems")
def named_theorems(index: "Index", docs: Path | None = None) -> list[LabelledQuery]:
    """Each title of the lists, twice: as written, and lower-cased without apostrophes."""
    from search.corpus.lean import load_mathlib_aliases

    docs = docs or config.LEAN_CORPUS_DIR / "mathlib_docs"
    golds: dict[str, set[str]] = {}
    for decl, titles in load_mathlib_aliases(docs).items():
        for title in titles:
            golds.setdefault(title, set()).add(decl)
    queries = []
    for number, (title, decls) in enumerate(sorted(golds.items()), 1):
        lowered = title.lower().replace("'", "").replace("’", "")
        for form, text in (("as written", title), ("lower-cased", lowered)):
            queries.append(LabelledQuery(f"t{number}:{form}", text, frozenset(decls), {"form": form}))
    return queries


def alignment_pairs(index: "Index", which: str = "test") -> list[tuple[str, str]]:
    """(Stacks id, Lean id) of every `@[stacks TAG]` link both of whose records the index
    holds, in one half of the split."""
    pairs = []
    for ids, tags in zip(index.records.column("id"), index.records.column("meta")):
        for tag in tags.get("stacks_tags", []) if isinstance(tags, dict) else []:
            stacks = f"stacks:{tag}"
            if stacks in index.position and link_half(tag) == which:
                pairs.append((stacks, ids))
    return pairs


def _alignment(index: "Index", query_side: int, said: Callable[["Statement"], str] = alignment_query,
               direction: str = "") -> list[LabelledQuery]:
    """One query per record on `query_side` of the test half's links, `said` of it (a record it
    says nothing of is left out), searching the other language for the records it links."""
    golds: dict[str, set[str]] = {}
    for pair in alignment_pairs(index):
        golds.setdefault(pair[query_side], set()).add(pair[1 - query_side])
    queries = []
    for record_id, relevant in sorted(golds.items()):
        statement = index.get(record_id)
        assert statement is not None
        text = said(statement)
        if text:
            queries.append(LabelledQuery(
                record_id, text, frozenset(relevant),
                {"direction": direction or ("formal to informal" if statement.formal else "informal to formal")},
                {"language": [other_language(statement)]}))
    return queries


@corpus_queries("stacks-to-mathlib")
def stacks_to_mathlib(index: "Index") -> list[LabelledQuery]:
    """A Stacks statement's text -> the Mathlib declarations that say they formalise it."""
    return _alignment(index, 0)


@corpus_queries("mathlib-to-stacks")
def mathlib_to_stacks(index: "Index") -> list[LabelledQuery]:
    """A Mathlib declaration (name read aloud, docstring, type) -> the Stacks statements it formalises."""
    return _alignment(index, 1)


@corpus_queries("docstrings-to-stacks")
def docstrings_to_stacks(index: "Index") -> list[LabelledQuery]:
    """A Mathlib declaration's docstring alone -> the Stacks statements it formalises: English a
    person wrote about a statement, searching an informal source (the nearest the corpora come
    to Stacks' slogans). Declarations without a docstring are left out."""
    return _alignment(index, 1, lambda s: " ".join(s.doc.split())[:QUERY_CHARS], "docstring to informal")
