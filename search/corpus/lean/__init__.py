"""Lean 4 declarations as Statement records: the shared JSON lines, and Lean source trees.

Two readers make Lean rows into records. `parse_lean_tree` parses a tree of Lean sources
(`python -m search parse-lean DIR --out F.jsonl`) into rows of the shared corpora's format;
`load_lean_corpus` turns rows (a shared `../shared/corpora/lean/*.jsonl.gz` or `parse-lean`
output) into records, with the names Lean derives from what is written.

Modules, by job:

* `syntax`: identifiers and names, the bracket table, the lexer and tokens;
* `expr`: Lean terms as expression trees;
* `instance_names`: the name Lean gives an unnamed instance;
* `attributes`: attribute items (`@[to_additive (attr := simp) add_foo]`, `@[deprecated]`);
* `guess_name`, `to_additive`, `to_dual`: Mathlib's translations (names and statements);
* `generators`: every attribute that generates declarations, one registry entry each;
* `decl`, `commands`, `refs`, `tree`: the source parser (declarations, the commands of a file,
  references, the whole tree);
* `records`, `derived`, `loader`: rows as records (heads, members and twins, unique ids);
* `aliases`: famous names from Mathlib's docs lists;
* `module_docs`, `informal`: informal text from module docs and inherited docstrings.
"""

from search.corpus.lean.aliases import attach_aliases, load_mathlib_aliases
from search.corpus.lean.informal import attach_informal
from search.corpus.lean.instance_names import instance_name
from search.corpus.lean.loader import lean_statements, load_lean_corpus, read_jsonl
from search.corpus.lean.records import docs_url, package_of
from search.corpus.lean.to_additive import additive_name, additive_signature
from search.corpus.lean.tree import LeanTree, parse_lean_to_jsonl, parse_lean_tree

__all__ = [
    "LeanTree", "additive_name", "additive_signature", "attach_aliases", "attach_informal", "docs_url",
    "instance_name",
    "lean_statements", "load_lean_corpus", "load_mathlib_aliases", "package_of",
    "parse_lean_to_jsonl", "parse_lean_tree", "read_jsonl",
]
