"""Attribute items (`@[to_additive (attr := simp) add_foo "doc"]`) as the source parser reads them.

An item is one comma-separated entry of `@[...]` or of an `attribute [...] name` command. The
attributes that generate declarations (`generators`) all take the same shapes of argument:
options in parentheses, `(attr := a, b)` naming attributes for the generated declaration,
flags (`existing`, `self`, `none`, `nosimp`, `-isSimp`, `+to_dual`), a name, and a docstring
given as a string or, in current Mathlib, as a doc comment (which the lexer hands over beside
the item, since it blanks comments out of code). `deprecation` reads `@[deprecated ...]`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from search.corpus.lean.syntax import IDENT_PATTERN, STRING_PATTERN, clean_name, collapse_spaces, top_level

_WORD_RE = re.compile(r"([A-Za-z_][\w.]*)([?!]*)")
_ARG_RE = re.compile(
    rf"\s*(?:(?P<paren>\()|(?P<flag>[-+][A-Za-z_][\w.]*)|(?P<string>{STRING_PATTERN})|(?P<comment>/--.*?-/)"
    rf"|(?P<ident>{IDENT_PATTERN}))",
    re.S,
)
#: Words that are flags of a generating attribute, never the name it gives.
FLAGS = frozenset({"existing", "self", "none", "nosimp"})


@dataclass
class AttributeItem:
    """What one attribute item says: `word` is the attribute's name (`simps` for `simps!`)."""

    word: str
    text: str = ""
    target: str | None = None
    doc: str | None = None
    flags: frozenset[str] = frozenset()
    #: The items of `(attr := ...)`: attributes the generated declaration gets.
    nested: list[str] = field(default_factory=list)
    #: Identifiers after the first (the projections `@[simps apply symm_apply]` names).
    names: list[str] = field(default_factory=list)
    #: Options in parentheses other than `attr`, by key (`since` of `deprecated`).
    options: dict[str, str] = field(default_factory=dict)


def without_kind(item: str) -> str:
    """An attribute item without its kind: `scoped simp` -> `simp`."""
    for kind in ("local ", "scoped "):
        if item.startswith(kind):
            return item[len(kind):]
    return item


def parse_item(item: str, doc: str | None = None) -> AttributeItem:
    """Read one attribute item (its kind, `local` or `scoped`, aside); `doc` is a doc comment
    argument the caller took out of it."""
    item = without_kind(collapse_spaces(item))
    m = _WORD_RE.match(item)
    if m is None:
        return AttributeItem(word="", text=item)
    parsed = AttributeItem(word=m.group(1), text=item, doc=doc)
    flags: set[str] = set()
    idents: list[str] = []
    pos = m.end()
    while (a := _ARG_RE.match(item, pos)) is not None:
        if a.group("paren"):
            close = next(top_level(item, ")", a.end()), len(item))
            key, assign, value = item[a.end():close].partition(":=")
            if assign and key.strip() == "attr":
                parsed.nested += split_items(value)
            elif assign:
                parsed.options[key.strip()] = value.strip()
            pos = close + 1
            continue
        if a.group("flag"):
            flags.add(a.group("flag"))
        elif a.group("string"):
            parsed.doc = string_value(a.group("string"))
        elif a.group("comment"):
            parsed.doc = a.group("comment")[3:-2].strip()
        elif a.group("ident") in FLAGS:
            flags.add(a.group("ident"))
        else:
            idents.append(a.group("ident"))
        pos = a.end()
    parsed.flags = frozenset(flags)
    if idents:
        parsed.target, parsed.names = idents[0], idents
    return parsed


def string_value(literal: str) -> str:
    """The value of a Lean string literal (JSON escapes are Lean's, but for `\\x..`)."""
    try:
        return json.loads(literal)
    except json.JSONDecodeError:
        return literal[1:-1]


def split_items(text: str) -> list[str]:
    """The comma-separated items of `text` (commas inside brackets do not separate)."""
    items, start = [], 0
    for k in [*top_level(text, ","), len(text)]:
        if text[start:k].strip():
            items.append(collapse_spaces(text[start:k]))
        start = k + 1
    return items


@dataclass(frozen=True)
class Deprecation:
    """`@[deprecated new "message" (since := "2025-01-01")]`: what replaces the declaration
    (None when the attribute names nothing) and since when."""

    since: str = ""
    use: str | None = None
    message: str = ""

    def to_json(self) -> dict[str, str]:
        return {k: v for k, v in (("since", self.since), ("use", self.use), ("message", self.message)) if v}


def deprecation(items: list[str]) -> Deprecation | None:
    """The `deprecated` item among attribute items, read; None when there is none."""
    for item in items:
        parsed = parse_item(item)
        if parsed.word == "deprecated":
            since = parsed.options.get("since", "")
            return Deprecation(
                since=string_value(since) if since.startswith('"') else since,
                use=clean_name(parsed.target) if parsed.target else None,
                message=parsed.doc or "",
            )
    return None
