"""The projections `@[simps]` makes lemmas for, read from the tree: what `simps` without names
would do, and how each projection is named.

`@[simps] def e : α ≃ β` makes `e_apply` and `e_symm_apply`: simps follows the projections of
the definition's type (`Equiv`), flattened through the structures it extends, leaving out those
that are proofs (a field whose type is a proposition), renamed, left out or put first as its
`initialize_simps_projections Equiv (toFun → apply, invFun → symm_apply)` command says
(`as_prefix coe` names a lemma `coe_e`). Lean reads the elaborated type; here the type's text is
read by the project's own term reader (`expr`), and a field is a proof when its type has a
relation at top level or a head constant declared to be a `Prop`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from search.corpus.lean.attributes import split_items
from search.corpus.lean.decl import STRUCTURE_KINDS, Decl, top_level_colon
from search.corpus.lean.expr import parse_expr, peel_foralls
from search.corpus.lean.refs import Tree
from search.corpus.lean.syntax import collapse_spaces, term_tokens, top_level

#: Relations whose presence at top level makes a type a proposition.
_RELATIONS = "=≠≤<↔∣∈∉⊆"
_PROP_RESULT = re.compile(r"(?:^|→\s*)Prop\s*$")
#: `initialize_simps_projections` rules: `a → b` (rename), `-a` (leave out), `as_prefix a`.
_RENAME = re.compile(r"^(\S+)\s*(?:→|->)\s*(\S+)$")


def is_proposition(type_text: str) -> bool:
    """Whether a type reads as a proposition on its text: a relation at top level, `∃`, `¬`."""
    text = collapse_spaces(type_text)
    return text.startswith(("∃", "¬")) or next(top_level(text, _RELATIONS), -1) >= 0


def head_constant(type_text: str) -> str | None:
    """The constant a type is an application of, past its arrows (`α → β ≃ γ` -> `Equiv`)."""
    try:
        expr = parse_expr(term_tokens(type_text), set())
    except (ValueError, IndexError, RecursionError):
        return None
    _, expr = peel_foralls(expr)
    while expr[0] == "a":
        expr = expr[1]
    return expr[1] if expr[0] == "c" else None


@dataclass
class Rules:
    """One structure's `initialize_simps_projections` rules."""

    renamed: dict[str, str] = field(default_factory=dict)
    omitted: set[str] = field(default_factory=set)
    prefixed: set[str] = field(default_factory=set)


def parse_rules(text: str) -> Rules:
    """`(toFun → apply, -toMonoidHom, as_prefix coe)` as rules."""
    rules = Rules()
    inner = text.strip()
    if inner.startswith("(") and inner.endswith(")"):
        inner = inner[1:-1]
    for part in (collapse_spaces(p) for p in inner.split(",")):
        if (m := _RENAME.match(part)) is not None:
            rules.renamed[m.group(1)] = m.group(2)
        elif part.startswith("-"):
            rules.omitted.add(part[1:].strip())
        elif part.startswith("as_prefix "):
            rules.prefixed.add(part.split(None, 1)[1])
    return rules


class SimpsTable:
    """Per structure of the tree, the projections `simps` names lemmas after."""

    def __init__(self, tree: Tree, decls: list[Decl], commands: list[tuple[int, str, str, str]]) -> None:
        self.tree = tree
        #: Names of the declarations whose type ends in `Prop`: fields of such types are proofs.
        self.propositions = {d.name for d in decls if d.name and _prop_valued(d)}
        self.rules: dict[str, Rules] = {}
        for file, namespace, written, text in commands:
            structure = self._structure(written, Decl(None, "", file, float("inf"), namespace=namespace))
            if structure is not None:
                self.rules[structure.name] = parse_rules(text)
        self._projections: dict[str, list[str]] = {}

    def _structure(self, written: str, viewer: Decl) -> Decl | None:
        hits = self.tree.resolve(written, viewer, *self.tree.context(viewer))
        return next((d for d in hits if d.kind in STRUCTURE_KINDS), None)

    def _is_proof(self, type_text: str, viewer: Decl) -> bool:
        if is_proposition(type_text):
            return True
        head = head_constant(type_text)
        return head is not None and any(d.name in self.propositions
                                        for d in self.tree.resolve(head, viewer, *self.tree.context(viewer)))

    def _fields(self, structure: Decl, seen: frozenset[str] = frozenset()) -> list[str]:
        """The data fields of a structure, its parents' first (`extends A, B`)."""
        if structure.name in seen:
            return []
        out: list[str] = []
        extends = structure.sig_rest.split(" extends ", 1)
        if len(extends) == 2:
            parents = extends[1][:top_level_colon(extends[1])] if top_level_colon(extends[1]) >= 0 else extends[1]
            for parent in split_items(parents):
                head = head_constant(parent)
                found = self._structure(head, structure) if head else None
                if found is not None:
                    out += self._fields(found, seen | {structure.name})
        out += [f["name"] for f in structure.fields if not self._is_proof(f["type"], structure)]
        return list(dict.fromkeys(out))

    def _of_type(self, decl: Decl) -> Decl | None:
        colon = top_level_colon(decl.sig_rest)
        head = head_constant(decl.sig_rest[colon + 1:]) if colon >= 0 else None
        return self._structure(head, decl) if head else None

    def projections(self, decl: Decl) -> list[tuple[str, bool]]:
        """(name, put first) of each lemma `@[simps]` without names makes for `decl`."""
        structure = self._of_type(decl)
        if structure is None:
            return []
        if structure.name not in self._projections:
            rules = self.rules.get(structure.name, Rules())
            self._projections[structure.name] = [rules.renamed.get(f, f) for f in self._fields(structure)
                                                 if f not in rules.omitted]
        prefixed = self.rules.get(structure.name, Rules()).prefixed
        return [(name, name in prefixed) for name in self._projections[structure.name]]

    def prefixed(self, decl: Decl, projection: str) -> bool:
        """Whether the lemma of a projection named in `@[simps p]` puts it first (`as_prefix`)."""
        structure = self._of_type(decl)
        return structure is not None and projection in self.rules.get(structure.name, Rules()).prefixed


def _prop_valued(d: Decl) -> bool:
    colon = top_level_colon(d.sig_rest)
    return colon >= 0 and bool(_PROP_RESULT.search(d.sig_rest[colon + 1:].strip()))
