"""Text views of a record: what the dense and lexical signals see.

A record is embedded under several views and scored by the best one (as LeanExplore did):
a view made of the name's words finds "multiplication commutative", a view made of the
docstring finds paraphrases, and the informal view mixes name, doc and the verbalised
statement for everything else. All views are made without an LLM.
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from search.record import Statement
from search.text.latex_text import latex_to_text
from search.text.lean_text import binder_classes, decode_name, signature_type, verbalise_lean

#: Dense views. All are short on purpose: embedding cost grows with tokens, and the default
#: index must embed ~346k records on 2 cores. `doc` is `text` for records that have an
#: author's text, so `name,doc` embeds every name and only the docstrings worth embedding;
#: `sentence` is the informaliser's sentence, for the records it said in words.
DENSE_VIEWS = ("name", "text", "doc", "sentence")
#: Characters of the informaliser's sentence a `sentence` view keeps (`python -m eval views`
#: measured 200 on its pool).
SENTENCE_CHARS = 200

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def first_sentences(text: str, limit: int = 300) -> str:
    """The leading sentences of a docstring, cut at a sentence end near `limit` characters."""
    text = " ".join(text.replace("`", "").split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    ends = [m.start() for m in _SENTENCE_END.finditer(cut)]
    return cut[: ends[-1]] if ends else cut


def module_words(module: str) -> str:
    """`Mathlib.Analysis.SpecialFunctions.Log.Basic` -> "analysis special functions log"."""
    parts = [p for p in module.split(".")[1:] if p not in ("Basic", "Defs", "Lemmas")]
    return verbalise_lean(" ".join(parts))


def name_view(s: Statement) -> str:
    """What the statement is called: Lean name read aloud and famous titles, or kind and note."""
    if s.formal:
        return "; ".join([decode_name(s.name), *s.aliases])
    section = s.meta.get("section") or s.meta.get("chapter") or ""
    note = s.meta.get("note") or ""
    return " ".join(p for p in (s.kind, note, f"({section})" if section else "") if p)


def text_view(s: Statement, limit: int = 120) -> str:
    """What the statement says: name plus docstring, or the verbalised type; LaTeX as text."""
    if not s.formal:
        note = s.meta.get("note") or ""
        body = first_sentences(s.doc or latex_to_text(s.statement), limit + 100)
        return f"{note}: {body}" if note else body
    if s.doc:
        said = first_sentences(s.doc, limit)
    else:
        binders, conclusion = signature_type(s.statement)
        classes = " ".join(binder_classes(binders))
        said = verbalise_lean(f"{classes} {conclusion}".strip())[:limit]
    return f"{decode_name(s.name)}: {said}"


def doc_view(s: Statement, limit: int = 120) -> str:
    """The text view of records that have an author's text (docstring, LaTeX body); else ""."""
    return text_view(s, limit) if s.doc or not s.formal else ""


def sentence_view(s: Statement, limit: int = SENTENCE_CHARS) -> str:
    """The name and the informaliser's sentence, for a record said in words; else "".

    The dense model was trained on English: a statement said in words is closer to how a
    question is asked than the same statement spelled symbol by symbol (`text_view`)."""
    return f"{decode_name(s.name)}: {s.informal_statement[:limit]}" if s.informal_statement else ""


def view_texts(s: Statement, limit: int = 120) -> dict[str, str]:
    """Every dense view of a record, keyed by view name; "" means the record lacks it.

    `limit` caps the characters of the said part of the text views (embedding cost).
    """
    return {"name": name_view(s), "text": text_view(s, limit), "doc": doc_view(s, limit),
            "sentence": sentence_view(s)}


#: The parts of a record that BM25+ reads, in order. `python -m eval retrieval --lexical PARTS`
#: re-indexes a built index with a subset, which measures what each part is worth.
LEXICAL_PARTS = ("name", "statement", "doc", "informal", "aliases", "place", "kind", "fields", "sentence")


def lexical_text(s: Statement, fields: Sequence[str] = (), parts: Sequence[str] = LEXICAL_PARTS) -> str:
    """Everything BM25+ indexes (`parts` of LEXICAL_PARTS): name, statement, doc, informal text,
    aliases, module and its words, kind, for a structure or class its fields (`fields`: their
    statements), so that a structure asked for by its defining property is found by the words
    of its fields, and a Lean statement said in words (`sentence`, the informaliser's).

    Notation is left as written: the tokenizer spells it out, for documents and queries alike.
    """
    if s.formal:
        statement = s.statement
        place = module_words(s.module)
    else:
        statement = s.doc or latex_to_text(s.statement)
        place = " ".join(str(s.meta.get(k) or "") for k in ("chapter", "section", "note"))
    texts = {
        "name": decode_name(s.name),
        "statement": statement,
        "doc": s.doc if s.formal else "",
        "informal": s.informal,
        "aliases": " ".join(s.aliases),
        "place": place,
        "kind": s.kind,
        "fields": " ".join(fields),
        "sentence": s.informal_statement,
    }
    return " ".join(texts[part] for part in parts)


def lexical_parts(text: str) -> tuple[str, ...]:
    """Parts named in a comma-separated list, checked against LEXICAL_PARTS."""
    parts = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [part for part in parts if part not in LEXICAL_PARTS]
    if unknown or not parts:
        raise ValueError(f"lexical parts {text!r}: choose among {', '.join(LEXICAL_PARTS)}")
    return parts


def fields_by_head(statements: Sequence[Statement]) -> Mapping[str, list[str]]:
    """The statements of each structure's or class's fields, by the structure's id."""
    fields: dict[str, list[str]] = {}
    for s in statements:
        if s.kind == "field":
            fields.setdefault(s.group, []).append(s.statement)
    return fields
