"""The name Lean gives an `instance` written without one, from the instance's header text.

Lean (`Lean.Elab.Command.mkInstanceName`, module `Lean.Elab.DeclNameGen`) renders the
elaborated type of the instance; here the type is read from text (`expr`), so unnamed
instances get, as far as the text tells, the name users see in the docs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Collection

from search.corpus.lean.expr import VAR, Expr, parse_expr, peel_foralls
from search.corpus.lean.syntax import (
    TERM_BRACKETS,
    Token,
    drop_universe_levels,
    find_top_level,
    group_end,
    join_name,
    split_name,
    term_tokens,
)


@dataclass
class _Binder:
    names: list[str]  # empty for an anonymous instance binder `[C α]`
    type_toks: list[Token]


@dataclass
class _InstanceHeader:
    binders: list[_Binder] = field(default_factory=list)
    type_toks: list[Token] = field(default_factory=list)


_INSTANCE_WORDS = frozenset({"scoped", "local", "instance", "noncomputable", "private", "protected"})


def _split_instance_header(signature: str) -> _InstanceHeader:
    toks = term_tokens(drop_universe_levels(signature))
    i = 0
    while i < len(toks) and toks[i].text in _INSTANCE_WORDS:
        i += 1
    if i + 1 < len(toks) and toks[i].text == "(" and toks[i + 1].text == "priority":
        i = group_end(toks, i, brackets=TERM_BRACKETS)
    if i < len(toks) and toks[i].kind == "ident":
        i += 1
        if i + 1 < len(toks) and toks[i].text == "." and toks[i + 1].text == "{":
            i = group_end(toks, i + 1, brackets=TERM_BRACKETS)
    header = _InstanceHeader()
    while i < len(toks) and toks[i].text in TERM_BRACKETS.opening:
        end = group_end(toks, i, brackets=TERM_BRACKETS)
        header.binders.append(_parse_binder(toks[i + 1:end - 1], toks[i].text == "["))
        i = end
    if i < len(toks) and toks[i].text == ":":
        i += 1
    header.type_toks = toks[i:find_top_level(toks, i, len(toks), (":=", "where", "|", "deriving"), TERM_BRACKETS)]
    return header


def _parse_binder(inner: list[Token], instance_implicit: bool) -> _Binder:
    colon = next((k for k, t in enumerate(inner) if t.text == ":"), None)
    if colon is None:
        if instance_implicit:
            return _Binder([], inner)
        return _Binder([t.text for t in inner if t.kind == "ident"], [])
    names = [t.text for t in inner[:colon] if t.kind == "ident"]
    type_toks = inner[colon + 1:]
    end = next((k for k, t in enumerate(type_toks) if t.text == ":="), len(type_toks))
    return _Binder(names, type_toks[:end])


def _mentioned(toks: list[Token]) -> set[str]:
    return {split_name(t.text)[0] for t in toks if t.kind == "ident"}


@dataclass
class _NameState:
    """`mkBaseNameCore`'s state: subterms already rendered, constants rendered."""

    namespace: list[str]
    seen: set = field(default_factory=set)
    consts: list[str] = field(default_factory=list)

    def in_namespace(self, name: str) -> bool:
        """Lean seeds `seen` with each namespace prefix that is a constant; a written
        name refers to one if it equals a run of namespace components (`Opens` inside
        `TopologicalSpace.Opens`, `Hamming` inside `Hamming`)."""
        parts = split_name(name)
        ns, n = self.namespace, len(parts)
        return any(ns[j:j + n] == parts for j in range(len(ns) - n + 1))

    def visit(self, e: Expr, omit_top_forall: bool = False) -> str:
        if e in self.seen:
            return ""
        s = self._visit(e, omit_top_forall)
        self.seen.add(e)
        return s

    def _visit(self, e: Expr, omit_top_forall: bool) -> str:
        tag = e[0]
        if tag == "c":
            if self.in_namespace(e[1]):
                return ""
            self.consts.append(e[1])
            last = split_name(e[1])[-1]
            return last[:1].upper() + last[1:]
        if tag == "a":
            return self.visit(e[1]) + self.visit(e[2])
        if tag == "f":
            sty = self.visit(e[1])
            if omit_top_forall and not sty:
                return self.visit(e[2], True)
            return "Forall" + sty + self.visit(e[2])
        if tag == "s":
            return e[1]
        return ""


def instance_name(
    signature: str,
    namespace: str = "",
    project_names: Collection[str] | None = None,
    project: str = "",
) -> str:
    """The full name Lean 4 gives `instance <binders> : <type>` written without a name.

    Lean (`mkBaseNameWithSuffix "inst"`) renders the elaborated type: the class and the
    constants of its explicit arguments (first occurrence of each subterm only, locals
    silent, namespace constants silent), then `Of` + the same rendering of each binder type
    the conclusion does not depend on (`[DecidableEq V]` -> `OfDecidableEq`), so
    `instance [DecidableEq V] : Fintype (SimpleGraph V)` is
    `instFintypeSimpleGraphOfDecidableEq`.  When `project_names` is given (every name by
    which a constant of the project can be written: each dotted suffix of its full names)
    and no rendered constant is one of them, Lean appends `_<project>` (`_mathlib`).

    Text-level differences: implicit arguments that Lean fills in and renders (the type of
    `a < b`, the ring in `Module R M` coercions, `↥S` as `Subtype (· ∈ S)`) are unknown;
    notation is read from a fixed table (unknown notation renders as nothing); a single
    letter or Greek/script letter not bound by a binder is taken to be a `variable`; every
    written binder of `∀`/`fun` is assumed to be used; Lean's `_1` suffix for a name already
    taken is not added here.
    """
    header = _split_instance_header(signature)
    bound = {n for b in header.binders for n in b.names}
    binder_types, conclusion = peel_foralls(parse_expr(header.type_toks, bound))
    trailing = [header.type_toks]
    explicit: list[Expr] = []
    for k in range(len(header.binders) - 1, -1, -1):
        b = header.binders[k]
        later = _mentioned([t for toks in trailing for t in toks])
        ty = parse_expr(b.type_toks, bound) if b.type_toks else VAR
        for name in reversed(b.names or ["_"]):
            explicit.append(VAR if name in later else ty)
        trailing.append(b.type_toks)
    explicit.reverse()
    state = _NameState(split_name(namespace))
    body = state.visit(conclusion)
    parts = [state.visit(ty, True) for ty in reversed(explicit + binder_types)]
    base = "inst" + body + "".join("Of" + p for p in reversed(parts) if p)
    if project_names is not None and project and not _mentions_project(state, namespace, project_names):
        base += "_" + project[:1].lower() + project[1:]
    return join_name(namespace, base)


def _mentions_project(state: _NameState, namespace: str, project_names: Collection[str]) -> bool:
    ns = split_name(namespace)
    prefixes = [".".join(ns[:k]) for k in range(len(ns), -1, -1)]
    if any(p in project_names for p in prefixes if p):
        return True
    return any(join_name(p, c) in project_names for c in state.consts for p in prefixes)
