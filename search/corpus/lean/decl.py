"""A declaration as the source parser builds it, and the kinds of declarations.

Pass 1 (`commands`) makes one `Decl` per declaration command of a file; pass 2 (`tree`)
names the unnamed ones, adds the records Lean derives from them, and resolves their
references. `SourceFile` is what pass 2 keeps of a file once its text is gone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from search.corpus.lean.syntax import top_level
from search.corpus.lean.to_additive import AdditiveSpec

#: Kinds whose declaration also declares fields and a constructor `mk`.
STRUCTURE_KINDS = frozenset({"structure", "class"})
#: Kinds whose declaration also declares constructors.
INDUCTIVE_KINDS = frozenset({"inductive", "class inductive", "coinductive"})
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
    modifiers: list[str] = field(default_factory=list)
    opens: list[tuple[str, str]] = field(default_factory=list)
    opens_scoped: list[tuple[str, str]] = field(default_factory=list)
    fields: list[dict] = field(default_factory=list)
    constructors: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    sig_rest: str = ""
    mutual: int = -1
    additive: AdditiveSpec | None = None
    alias: AliasSpec | None = None
    derived_from: str | None = None
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


def top_level_colon(text: str) -> int:
    """Offset of the last `:` outside brackets that is not part of `:=` or `::`, or -1."""
    colons = [k for k in top_level(text, ":") if text[k + 1:k + 2] not in ("=", ":") and text[k - 1:k] != ":"]
    return colons[-1] if colons else -1


@dataclass
class SourceFile:
    """What pass 2 needs of a file once its text is gone."""

    path: str
    module: str
    imports: list[str]
