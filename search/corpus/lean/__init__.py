"""Lean 4 declarations: the shared JSON lines and Lean source trees, as Statement records."""

from search.corpus.lean.loader import (
    attach_aliases,
    docs_url,
    lean_statements,
    load_lean_corpus,
    load_mathlib_aliases,
    package_of,
    read_jsonl,
)
from search.corpus.lean.naming import additive_name, additive_signature, instance_name
from search.corpus.lean.source import parse_lean_to_jsonl, parse_lean_tree

__all__ = [
    "additive_name", "additive_signature", "attach_aliases", "docs_url", "instance_name",
    "lean_statements", "load_lean_corpus", "load_mathlib_aliases", "package_of",
    "parse_lean_to_jsonl", "parse_lean_tree", "read_jsonl",
]
