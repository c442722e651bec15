"""A declaration as the source parser builds it, and the kinds of declarations.

Pass 1 (`commands`) makes one `Decl` per declaration command of a file; pass 2 (`tree`)
names the unnamed ones, adds the records Lean derives from them, and resolves their
references. `SourceFile` is what pass 2 keeps of a file once its text is gone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from search.corpus.lean.syntax import BRACKETS, top_level

#: Kinds whose declaration also declares fields and a constructor `mk`.
STRUCTURE_KINDS = frozenset({"structure", "class"})
#: Kinds whose declaration also declares constructors.
INDUCTIVE_KINDS = frozenset({"inductive", "class inductive", "coinductive"})
#: Kinds whose value (the term after `:=`) is kept, and how much of it.
VALUE_KINDS = frozenset({"def", "abbrev", "instance", "irreducible_def"})
VALUE_CHARS = 400
#: Kinds that take the section variables their body uses, not only those of their statement
#: (`variables.used_variables`): Lean's rule for definitions; a theorem's proof adds none.
BODY_VARIABLE_KINDS = STRUCTURE_KINDS | INDUCTIVE_KINDS | frozenset(
    {"def", "abbrev", "irreducible_def", "opaque", "class abbrev"})
#: Kinds that declare a type (and with it a namespace).
TYPE_KINDS = frozenset({"structure", "class", "class abbrev"}) | INDUCTIVE_KINDS
_SORT_RESULT_RE = re.compile(r"\s*(?:Prop|Type|Sort)\b")


@dataclass
class AliasSpec:
    """One name introduced by `alias`: `direction` is "" for `alias a := t`, else "mp"/"mpr"."""

    target: str
    direction: str
    command: str


@dataclass
class Decl:
    """One record under construction, with what pass 2 needs to finish it."""

    name: str | None
    kind: str
    file: int
    order: float
    namespace: str = ""
    line: int = 0
    end_line: int = 0
    signature: str = ""
    docstring: str | None = None
    attributes: list[str] = field(default_factory=list)
    attribute_args: list[str] = field(default_factory=list)
    #: The doc comment given as an argument of each attribute item (`to_additive /-- doc -/`).
    attribute_docs: list[str | None] = field(default_factory=list)
    #: Items (with their doc comment arguments) of later `attribute [...] name` commands naming it.
    later_items: list[tuple[str, str | None]] = field(default_factory=list)
    modifiers: list[str] = field(default_factory=list)
    opens: list[tuple[str, str]] = field(default_factory=list)
    opens_scoped: list[tuple[str, str]] = field(default_factory=list)
    fields: list[dict] = field(default_factory=list)
    constructors: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    sig_rest: str = ""
    #: The `variable` binders of its scope its statement uses (`variables.used_variables`).
    variables: str = ""
    #: A definition's value as written after `:=` (`def`, `abbrev`, `instance`, cut to
    #: `VALUE_CHARS`): what it is, for saying it in words; "" for theorems and `where` bodies.
    value: str = ""
    mutual: int = -1
    alias: AliasSpec | None = None
    derived_from: str | None = None
    #: What made a derived declaration: `alias`, or the attribute that generated it.
    derived_by: str | None = None
    refs: list[str] = field(default_factory=list)

    @property
    def private(self) -> bool:
        return "private" in self.modifiers

    @property
    def protected(self) -> bool:
        return "protected" in self.modifiers

    @property
    def is_type(self) -> bool:
        """Types double as namespaces, so `T.foo` never falls back to `T` (see refs)."""
        if self.kind in TYPE_KINDS:
            return True
        colon = top_level_colon(self.sig_rest)
        return colon >= 0 and bool(_SORT_RESULT_RE.match(self.sig_rest, colon + 1))


def binder_groups(header: str) -> list[tuple[str, str]]:
    """The top-level bracket groups of a header as (opening bracket, text inside): its binders
    `(x : T)`, `{x}`, `[C α]`."""
    groups: list[tuple[str, str]] = []
    depth, start = 0, -1
    for k, c in enumerate(header):
        if c in BRACKETS.chars_opening:
            start = k if depth == 0 else start
            depth += 1
        elif c in BRACKETS.chars_closing and depth > 0:
            depth -= 1
            if depth == 0 and start >= 0:
                groups.append((header[start], header[start + 1:k]))
    return groups


def explicit_binder_names(header: str) -> list[str]:
    """The names bound by the explicit binder groups `(x y : T)` of a header, in order: what a
    declaration is applied to (`Foo α β` for `structure Foo (α β : Type*)`)."""
    return [name for bracket, inner in binder_groups(header) if bracket == "(" and ":" in inner
            for name in inner.split(":", 1)[0].split()]


def top_level_colon(text: str) -> int:
    """Offset of the last `:` outside brackets that is not part of `:=` or `::`, or -1."""
    colons = [k for k in top_level(text, ":") if text[k + 1:k + 2] not in ("=", ":") and text[k - 1:k] != ":"]
    return colons[-1] if colons else -1


@dataclass
class SourceFile:
    """What pass 2 needs of a file once its text is gone: its place, imports, module doc
    comments, and the `to_dual_name_hint` pairs it declares (each with the number of
    declarations before it: a hint holds from there to the end of the file)."""

    path: str
    module: str
    imports: list[str]
    module_docs: list[str] = field(default_factory=list)
    dual_hints: list[tuple[int, str, str]] = field(default_factory=list)
