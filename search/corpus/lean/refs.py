"""References: which declarations of the tree a declaration's identifiers name.

Pass 1 keeps, per declaration, the identifier tokens that may name another declaration
(`reference_candidates`: not locals, keywords, tactic names, field notation or named
arguments). Pass 2 resolves them with Lean's rules for names (`Tree.resolve`): the namespaces
of the declaration, innermost first, then its `open`s and the root, among the declarations it
can see (earlier in its file or in its `mutual` block, or imported and not private).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from search.corpus.lean.decl import Decl, SourceFile
from search.corpus.lean.syntax import Token, clean_name, glued, group_end, join_name, split_name

# --- Pass 1: candidates -------------------------------------------------------------------------

_KEYWORDS = frozenset({
    "fun", "by", "have", "show", "from", "at", "with", "if", "then", "else", "do", "let", "match",
    "calc", "in", "where", "using", "Type", "Prop", "Sort", "this", "sorry", "deriving", "extends",
    "termination_by", "decreasing_by", "forall", "exists", "haveI", "letI", "return", "for", "mut",
    "unless", "try", "catch", "finally", "break", "continue", "true", "false", "open", "set_option",
    "_", "instance", "structure", "class", "inductive", "theorem", "lemma", "def", "abbrev", "private",
    "protected", "noncomputable", "universe", "variable", "section", "namespace", "end", "local",
    "scoped", "nomatch", "nofun",
})
_BINDER_INTRO = frozenset({"fun", "λ", "∀", "∃", "∃!", "Π", "Σ", "∑", "∏", "⋃", "⋂", "⨆", "⨅", "∫",
                           "∮", "∑'", "∏'", "⨁", "∐", "assume"})
_BINDER_STOP = frozenset({",", "=>", "↦", ":", "∈", "∉", "<", "≤", ">", "≥", "≠", "⊆", "⊂", "in",
                          ":=", "|"})
_TACTIC_INTRO = frozenset({"intro", "intros", "rintro", "rintros", "obtain", "ext", "ext1",
                           "funext", "by_contra", "by_contra!", "by_cases", "rename_i", "choose",
                           "choose!", "set", "generalize", "have", "haveI", "let", "letI", "with",
                           "case", "case'", "next", "wlog", "contrapose!", "peel", "replace"})
_TACTIC_STOP = frozenset({":", ":=", "=>", ";", "<;>", "using", "at", "from", "←", "↦", "|", "with",
                          "to"})
#: Tokens before `x := e` that make `x` a named argument or a field, not a reference.
_FIELD_LEAD = frozenset({"(", "{", ",", "where", "with", "⟨"})
_ALTERNATIVE_STOP = frozenset({"=>", ":=", ":", "|"})
_TACTIC_COMBINATORS = frozenset({"try", "all_goals", "any_goals", "repeat", "repeat'", "first", "focus",
                                 "iterate", "classical", "on_goal", "swap", "pick_goal"})


def reference_candidates(toks: list[Token], a: int, end: int, sig_end: int, own: set[str]) -> list[str]:
    """Identifier tokens of a declaration (after its name) that may name other
    declarations: not locals, not field notation `.x`, not name literals, not named
    arguments / fields `x := e`, not keywords, not tactic names, not the command's own
    fields and constructors.  Deduplicated, in order of first occurrence."""
    local = _binder_names(toks, a, sig_end) | _bound_names(toks, a, end) | own
    heads = _tactic_heads(toks, a, end)
    seen: set[str] = set()
    out: list[str] = []
    for k in range(a, end):
        tok = toks[k]
        if tok.kind != "ident" or k in heads or tok.text in _KEYWORDS:
            continue
        prev = toks[k - 1] if k > 0 else None
        if prev is not None and glued(prev, tok) and prev.text in (".", "`", "{"):
            continue
        if k + 1 < end and toks[k + 1].text == ":=" and (
                tok.first_on_line or prev is None or prev.text in _FIELD_LEAD):
            continue
        if split_name(tok.text)[0] in local or tok.text in seen:
            continue
        seen.add(tok.text)
        out.append(tok.text)
    return out


def _binder_names(toks: list[Token], a: int, sig_end: int) -> set[str]:
    """Names bound by the signature's binder groups `(x y : T)`, `{x}`, `[inst : C]`."""
    names: set[str] = set()
    k = a
    while k < sig_end:
        text = toks[k].text
        if text == ":":
            break
        if text in _BINDER_OPEN:
            close = group_end(toks, k, sig_end)
            names |= _group_binders(toks, k, close - 1)
            k = close
            continue
        k += 1
    return names


#: Brackets that open a binder group or a pattern: `(x : T)`, `{x}`, `[inst : C]`, `⦃x⦄`, `⟨x, hx⟩`.
_BINDER_OPEN = frozenset({"(", "{", "[", "⦃", "⟨"})


def _group_binders(toks: list[Token], opener: int, b: int) -> set[str]:
    """Undotted identifiers before the first depth-0 `:` of the group opening at `opener`:
    all of them when there is no `:` (`{x y}`, a pattern `⟨x, hx⟩`), except in an
    instance binder `[Monoid α]`, which names nothing; nested patterns are searched too."""
    names: set[str] = set()
    k = opener + 1
    while k < b:
        text = toks[k].text
        if text == ":":
            return names
        if text in _BINDER_OPEN:
            close = group_end(toks, k, b)
            names |= _group_binders(toks, k, close - 1)
            k = close
            continue
        if toks[k].kind == "ident" and "." not in toks[k].text:
            names.add(toks[k].text)
        k += 1
    return set() if toks[opener].text == "[" else names


def _bound_names(toks: list[Token], a: int, end: int) -> set[str]:
    """Names bound in the body and type: after `fun`/`∀`/`∃`/big operators (up to `,`,
    `=>`, `:`, `∈`, ...), after binding tactics (up to `:`, `:=`, `using`, ... on the same
    line), and the variables of match alternatives `| ctor x y =>`."""
    names: set[str] = set()
    for k in range(a, end):
        text = toks[k].text
        if text in _BINDER_INTRO:
            names |= _names_until(toks, k + 1, end, _BINDER_STOP, same_line=False)
        elif text in _TACTIC_INTRO:
            names |= _names_until(toks, k + 1, end, _TACTIC_STOP, same_line=True)
        elif text == "|" and toks[k].first_on_line:
            alt = _names_until(toks, k + 1, end, _ALTERNATIVE_STOP, same_line=True, ordered=True)
            names.update(list(alt)[1:])
    return names


def _names_until(toks: list[Token], k: int, end: int, stops: frozenset, same_line: bool,
                 ordered: bool = False) -> set[str] | dict[str, None]:
    """Undotted identifiers (and binder-group names) from `k` up to a stop token, within
    40 tokens and, if `same_line`, on the line of `k - 1`."""
    names: dict[str, None] = {}
    line = toks[k - 1].line
    limit = min(end, k + 40)
    while k < limit:
        tok = toks[k]
        if tok.text in stops or (same_line and tok.line != line):
            break
        if tok.text in _BINDER_OPEN:
            close = group_end(toks, k, limit)
            names.update(dict.fromkeys(_group_binders(toks, k, close - 1)))
            k = close
            continue
        if tok.kind == "ident" and tok.text not in _KEYWORDS and "." not in tok.text:
            names[tok.text] = None
        k += 1
    return names if ordered else set(names)


def _tactic_heads(toks: list[Token], a: int, end: int) -> set[int]:
    """Token indices of tactic names: the first token after `by`, `·`, `;`, `<;>` or a
    combinator, and line-initial tokens at the column of a tactic block."""
    heads: set[int] = set()
    columns: set[int] = set()
    in_tactics = False
    for k in range(a, end):
        tok = toks[k]
        if in_tactics and tok.first_on_line and tok.col in columns:
            heads.add(k)
        if tok.text in ("by", "·", ";", "<;>") or tok.text in _TACTIC_COMBINATORS:
            in_tactics |= tok.text == "by"
            if k + 1 < end and toks[k + 1].kind == "ident":
                heads.add(k + 1)
                if tok.text in ("by", "·"):
                    columns.add(toks[k + 1].col)
    return heads


# --- Pass 2: resolution -------------------------------------------------------------------------


class Tree:
    """All declarations of a source tree, and Lean's rules for which names they can see."""

    def __init__(self, files: list[SourceFile], decls: Iterable[Decl]) -> None:
        self.index: dict[str, list[Decl]] = {}
        self.namespaces: set[str] = set()
        self._groups: dict[tuple, tuple[list[list[Decl]], list[Decl]]] = {}
        self._opened: dict[tuple, tuple[str, ...]] = {}
        module_ids = {f.module: k for k, f in enumerate(files)}
        imports = [[module_ids[m] for m in f.imports if m in module_ids] for f in files]
        self.closure = _import_closure(imports)
        for d in decls:
            if d.name:
                self.add(d)

    def add(self, d: Decl) -> None:
        """Index a named declaration and the namespaces its name opens."""
        self.index.setdefault(d.name, []).append(d)
        parts = split_name(d.name)
        self.namespaces.update(".".join(parts[:k]) for k in range(1, len(parts)))
        self.forget()

    def forget(self) -> None:
        """Drop cached name look-ups (they are per file in practice; this bounds memory)."""
        self._groups.clear()
        self._opened.clear()

    def visible(self, target: Decl, viewer: Decl) -> bool:
        """Earlier in the same file (or the same `mutual` block), or imported and not private."""
        if target is viewer:
            return False
        if target.file == viewer.file:
            return target.order < viewer.order or (target.mutual >= 0 and target.mutual == viewer.mutual)
        return not target.private and bool(self.closure[viewer.file] >> target.file & 1)

    def opened(self, opens: Sequence[tuple[str, str]]) -> tuple[str, ...]:
        """The namespaces `open`s name, each read as Lean reads it: inside the namespace it is
        written in (`open Limits` inside `CategoryTheory`), else inside one opened before it
        (`open CategoryTheory Limits`), else as written; in order, without repeats."""
        key = tuple(opens)
        hit = self._opened.get(key)
        if hit is None:
            resolved: list[str] = []
            for written, namespace in opens:
                candidates = [join_name(ns, written) for ns in _prefixes(namespace)[:-1]]
                candidates += [join_name(o, written) for o in resolved]
                resolved.append(next((c for c in candidates if c in self.namespaces), written))
            hit = self._opened[key] = tuple(dict.fromkeys(resolved))
        return hit

    def context(self, d: Decl) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Namespaces searched for `d`'s names, innermost first (its own name's prefix,
        which Lean opens for the body, then the enclosing namespaces), and its opens."""
        own = ".".join(split_name(d.name)[:-1]) if d.name else d.namespace
        levels = tuple(dict.fromkeys(_prefixes(own)[:-1] + _prefixes(d.namespace)[:-1]))
        return levels, self.opened(d.opens)

    def _candidates(self, name: str, levels: tuple, opens: tuple) -> tuple[list[list[Decl]], list[Decl]]:
        """Declarations `name` could mean, before visibility: one list per namespace level
        (innermost first), then the root-level ones (as written, and under each open).
        A `protected` declaration is not reachable by its last component alone."""
        key = (name, levels, opens)
        hit = self._groups.get(key)
        if hit is None:
            short = "." not in name
            levels_hits = [[d for d in self.index.get(f"{ns}.{name}", ()) if not (short and d.protected)]
                           for ns in levels]
            root = list(self.index.get(name, ()))
            for o in opens:
                root += [d for d in self.index.get(f"{o}.{name}", ()) if not (short and d.protected)]
            hit = self._groups[key] = (levels_hits, root)
        return hit

    def resolve(self, token: str, viewer: Decl, levels: tuple, opens: tuple) -> list[Decl]:
        """What a name written in `viewer` refers to: the first namespace level with a
        visible match, else every visible root-level match; an unresolved `a.b.c` is
        retried as `a.b` (field notation `foo.mp`, `F.obj X`) unless that names a type."""
        name = clean_name(token)
        if name.startswith("_root_."):
            return [d for d in self.index.get(name[len("_root_."):], ()) if self.visible(d, viewer)]
        levels_hits, root = self._candidates(name, levels, opens)
        for group in levels_hits:
            hits = [d for d in group if self.visible(d, viewer)]
            if hits:
                return hits
        hits = [d for d in root if self.visible(d, viewer)]
        if hits or "." not in name:
            return hits
        hits = self.resolve(name.rsplit(".", 1)[0], viewer, levels, opens)
        return [] if any(d.is_type for d in hits) else hits


def _prefixes(name: str) -> list[str]:
    """`A.B` -> [`A.B`, `A`, ``]."""
    parts = split_name(name)
    return [".".join(parts[:k]) for k in range(len(parts), 0, -1)] + [""]


def _import_closure(imports: list[list[int]]) -> list[int]:
    """Transitive imports of each file, as bit sets over file indices (iterative
    depth-first search: import chains can be deeper than Python's recursion limit)."""
    closure: list[int | None] = [None] * len(imports)
    for start in range(len(imports)):
        if closure[start] is not None:
            continue
        closure[start] = 0  # in progress: a (malformed) import cycle contributes nothing
        stack = [(start, iter(imports[start]))]
        while stack:
            k, pending = stack[-1]
            m = next(pending, None)
            if m is None:
                stack.pop()
                bits = 0
                for dep in imports[k]:
                    bits |= (1 << dep) | closure[dep]
                closure[k] = bits
            elif closure[m] is None:
                closure[m] = 0
                stack.append((m, iter(imports[m])))
    return closure
