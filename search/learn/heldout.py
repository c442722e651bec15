"""Queries made from the corpus, and an index that has not seen them.

A learned stage needs queries with known answers. The corpus has them without any labelling:
a declaration's docstring, the module doc's line about it, and the famous title it goes by
each describe it in words. Asked as a query, though, such a text would find its declaration
through itself. So the queries' own text is taken out of a copy of the index first: for each
sampled declaration, its docstring, informal text and aliases are blanked in the lexical
indexes and its dense views are embedded again without them (`held_out_index`). What is left
to find it by is what a user's query would meet: its name, its statement, its place.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from search.index.dense import DenseIndex
from search.index.lexical import LexicalIndex
from search.index.store import Index
from search.record import RecordTable, Statement, to_table
from search.text.tokenize import name_tokens, tokenize
from search.text.views import fields_by_head, first_sentences, lexical_text, view_texts

#: Characters of a query made from a text.
QUERY_CHARS = 200


@dataclass(frozen=True)
class CorpusQuery:
    """A text about a record, asked as a query; `origin` says where the text came from."""

    text: str
    position: int
    origin: str


def corpus_queries(index: Index, count: int, seed: int = 0) -> list[CorpusQuery]:
    """Up to `count` queries, one per sampled Lean record that has some text about it: its
    docstring's first sentences, else its informal text, else one of its titles (seeded)."""
    records = index.records
    candidates = [
        p for p, (language, doc, informal, aliases) in enumerate(zip(
            records.column("language"), records.column("doc"), records.column("informal"), records.column("aliases")))
        if language == "lean" and (doc or informal or aliases)
    ]
    rng = random.Random(seed)
    chosen = sorted(rng.sample(candidates, min(count, len(candidates))))
    queries = []
    for position, statement in zip(chosen, records.take(chosen)):
        if statement.aliases and rng.random() < 0.5:
            queries.append(CorpusQuery(rng.choice(statement.aliases), position, "title"))
        elif statement.doc:
            queries.append(CorpusQuery(first_sentences(statement.doc, QUERY_CHARS), position, "docstring"))
        elif statement.informal:
            queries.append(CorpusQuery(first_sentences(statement.informal, QUERY_CHARS), position, "informal"))
        else:
            queries.append(CorpusQuery(statement.aliases[0], position, "title"))
    return queries


def blanked(statement: Statement) -> Statement:
    """The record with the texts queries are made of taken out."""
    return dataclasses.replace(statement, doc="", informal="", aliases=[])


def held_out_index(index: Index, positions: Sequence[int], text_chars: int, views: Sequence[str]) -> Index:
    """A copy of `index`, in memory, whose records at `positions` have lost their docstring,
    informal text and aliases, in every signal (lexical indexes and dense views). The dense
    copy is searched exactly (a flat index: no graph to build)."""
    statements = list(index.records)
    for position in positions:
        statements[position] = blanked(statements[position])
    fields = fields_by_head(statements)
    lexical = LexicalIndex.build([tokenize(lexical_text(s, fields.get(s.id, ()))) for s in statements])
    names = LexicalIndex.build([name_tokens(s.name) + [t for a in s.aliases for t in tokenize(a)] for s in statements])
    dense = index.dense
    vectors = dense.reconstruct(np.arange(len(dense.rows)))
    changed = set(positions)
    keep = np.array([int(r) not in changed for r in dense.rows])
    texts, rows = [], []
    for position in sorted(changed):
        for view, text in view_texts(statements[position], text_chars).items():
            if view in views and text:
                texts.append(text)
                rows.append(position)
    new = index.embedder.encode(texts) if texts else np.zeros((0, vectors.shape[1]), dtype=np.float32)
    all_rows = np.concatenate([dense.rows[keep], np.asarray(rows, dtype=dense.rows.dtype)])
    return dataclasses.replace(
        index, lexical=lexical, names=names,
        records=RecordTable(to_table(statements)),
        dense=DenseIndex.build(np.concatenate([vectors[keep], new]), all_rows, exact=True),
    )
