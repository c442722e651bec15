"""`@[to_additive]`: the additive twin Mathlib generates from a multiplicative declaration.

Mathlib's `to_additive` attribute makes, from `mul_comm : a * b = b * a`, the declaration
`add_comm : a + b = b + a`. Both readers of Lean declarations add these twins, from the same
rules kept here: the source parser (`tree`) for the declarations it reads, the JSON-lines
loader (`derived`) for rows that do not list them. The rules are

* the attribute's arguments (`to_additive (attr := simp) existing add_foo "doc"`);
* the twin's name (Mathlib's `ToAdditive.guessName` and its dictionaries, or the name the
  attribute gives, read relative to the translated namespace);
* the twin's statement, a textual translation of the multiplicative one.

Lean translates elaborated terms; here only the text is known, and each function says where
the text-level version can differ.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from itertools import repeat
from typing import Iterable, Mapping

from search.corpus.lean.syntax import (
    IDENT_PATTERN,
    STRING_PATTERN,
    TERM_BRACKETS,
    Token,
    clean_name,
    collapse_spaces,
    group_end,
    group_start,
    join_name,
    split_name,
    term_tokens,
    top_level,
)

# --- The attribute ------------------------------------------------------------------------------


@dataclass
class AdditiveSpec:
    """What one `@[to_additive ...]` item asks for."""

    target: str | None = None
    doc: str | None = None
    existing: bool = False
    attr_items: list[str] = field(default_factory=list)


_ADDITIVE_RE = re.compile(r"to_additive\??(?:\s|$)")
_ADDITIVE_ARG_RE = re.compile(
    rf"\s*(?:(?P<paren>\()|(?P<flag>existing|self)\b|(?P<string>{STRING_PATTERN})|(?P<comment>/--.*?-/)"
    rf"|(?P<ident>{IDENT_PATTERN}))",
    re.S,
)


def parse_to_additive(item: str, doc: str | None = None) -> AdditiveSpec | None:
    """Read `to_additive (attr := simp) (reorder := 1 2) existing add_foo "doc"` (the twin's
    doc as a string, or in Lean's current form as a doc comment, `to_additive /-- doc -/`);
    None when the item is another attribute. `doc` is a doc comment argument the caller has
    already taken out of the item."""
    m = _ADDITIVE_RE.match(item)
    if m is None:
        return None
    spec = AdditiveSpec(doc=doc)
    pos = m.end()
    while (a := _ADDITIVE_ARG_RE.match(item, pos)) is not None:
        if a.group("paren"):
            close = next(top_level(item, ")", a.end()), len(item))
            inner = item[a.end():close].strip()
            if inner.startswith("attr") and ":=" in inner:
                spec.attr_items += _split_top_level(inner.split(":=", 1)[1])
            pos = close + 1
            continue
        if a.group("flag"):
            spec.existing |= a.group("flag") == "existing"
        elif a.group("string"):
            spec.doc = _string_value(a.group("string"))
        elif a.group("comment"):
            spec.doc = a.group("comment")[3:-2].strip()
        else:
            spec.target = a.group("ident")
        pos = a.end()
    return spec


def _string_value(literal: str) -> str:
    """The value of a Lean string literal (JSON escapes are Lean's, but for `\\x..`)."""
    try:
        return json.loads(literal)
    except json.JSONDecodeError:
        return literal[1:-1]


def _split_top_level(s: str) -> list[str]:
    """The comma-separated items of `s` (commas inside brackets do not separate)."""
    items, start = [], 0
    for k in [*top_level(s, ","), len(s)]:
        if s[start:k].strip():
            items.append(collapse_spaces(s[start:k]))
        start = k + 1
    return items


def additive_spec(items: Iterable[str], docs: Iterable[str | None] | None = None) -> AdditiveSpec | None:
    """What the first `to_additive` item among attribute items asks for (`docs`: each item's
    doc comment argument, when known); None when no item is `to_additive`."""
    for item, doc in zip(items, repeat(None) if docs is None else docs):
        spec = parse_to_additive(item, doc)
        if spec is not None:
            return spec
    return None


# --- Names (Mathlib.Tactic.ToAdditive.GuessName) ----------------------------------------------


def _is_upper(c: str) -> bool:
    return "A" <= c <= "Z"


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _ascii_lower(s: str) -> str:
    """Lean's `String.toLower` (ASCII only)."""
    return s.translate(_ASCII_LOWER)


#: Words that end in capitals and must not be split before their last capital (`LE`, `CoeTC`).
_END_CAPITAL_NAMES: dict[str, tuple[str, ...]] = {
    "LE": ("",),
    "LT": ("",),
    "WF": ("",),
    "Coe": ("TC", "T", "HTCT"),
}

#: `ToAdditive.nameDict`: lower-case word -> additive words (first one re-cased like the input).
_NAME_DICT: dict[str, tuple[str, ...]] = {
    "one": ("Zero",),
    "mul": ("Add",),
    "smul": ("VAdd",),
    "inv": ("Neg",),
    "div": ("Sub",),
    "prod": ("Sum",),
    "hmul": ("HAdd",),
    "hsmul": ("HVAdd",),
    "hdiv": ("HSub",),
    "hpow": ("HSMul",),
    "finprod": ("Finsum",),
    "tprod": ("TSum",),
    "pow": ("NSMul",),
    "npow": ("NSMul",),
    "zpow": ("ZSMul",),
    "mabs": ("Abs",),
    "monoid": ("Add", "Monoid"),
    "submonoid": ("Add", "Submonoid"),
    "group": ("Add", "Group"),
    "subgroup": ("Add", "Subgroup"),
    "semigroup": ("Add", "Semigroup"),
    "magma": ("Add", "Magma"),
    "haar": ("Add", "Haar"),
    "prehaar": ("Add", "Prehaar"),
    "unit": ("Add", "Unit"),
    "units": ("Add", "Units"),
    "cyclic": ("Add", "Cyclic"),
    "semigrp": ("Add", "Semigrp"),
    "grp": ("Add", "Grp"),
    "commute": ("Add", "Commute"),
    "semiconj": ("Add", "Semiconj"),
    "rootable": ("Divisible",),
    "zpowers": ("ZMultiples",),
    "powers": ("Multiples",),
    "multipliable": ("Summable",),
    "gpfree": ("APFree",),
    "quantale": ("Add", "Quantale"),
    "square": ("Even",),
    "mconv": ("Conv",),
    "irreducible": ("Add", "Irreducible"),
    "mlconvolution": ("LConvolution",),
}

#: `ToAdditive.abbreviationDict`: fixes after word translation (`zero_le` -> `nonneg`, ...).
_ABBREVIATIONS: dict[str, str] = {
    "isCancelAdd": "IsCancelAdd",
    "isLeftCancelAdd": "IsLeftCancelAdd",
    "isRightCancelAdd": "IsRightCancelAdd",
    "cancelAdd": "AddCancel",
    "leftCancelAdd": "AddLeftCancel",
    "rightCancelAdd": "AddRightCancel",
    "cancelCommAdd": "AddCancelComm",
    "commAdd": "AddComm",
    "zero_le": "Nonneg",
    "zeroLE": "Nonneg",
    "zero_lt": "Pos",
    "zeroLT": "Pos",
    "lezero": "Nonpos",
    "le_zero": "Nonpos",
    "ltzero": "Neg",
    "lt_zero": "Neg",
    "addSingle": "Single",
    "add_single": "Single",
    "addSupport": "Support",
    "add_support": "Support",
    "addTSupport": "TSupport",
    "add_tsupport": "TSupport",
    "addIndicator": "Indicator",
    "add_indicator": "Indicator",
    "isEven": "Even",
    "isRegular": "IsAddRegular",
    "isLeftRegular": "IsAddLeftRegular",
    "isRightRegular": "IsAddRightRegular",
    "hasFundamentalDomain": "HasAddFundamentalDomain",
    "quotientMeasure": "AddQuotientMeasure",
    "negFun": "InvFun",
    "uniqueProds": "UniqueSums",
    "orderOf": "AddOrderOf",
    "zeroLePart": "PosPart",
    "leZeroPart": "NegPart",
    "isScalarTower": "VAddAssocClass",
    "isOfFinOrder": "IsOfFinAddOrder",
    "isCentralScalar": "IsCentralVAdd",
    "function_addSemiconj": "Function_semiconj",
    "function_addCommute": "Function_commute",
    "divisionAddMonoid": "SubtractionMonoid",
    "subNegZeroAddMonoid": "SubNegZeroMonoid",
    "modularCharacter": "AddModularCharacter",
}

#: Namespace components the word dictionary would wrongly translate: the types `Prod` and
#: `Unit` have no additive counterpart (`Prod.fst_mul` becomes `Prod.fst_add`).
_FIXED_COMPONENTS = frozenset({"Prod", "Unit"})


def split_case(s: str) -> list[str]:
    """Split a name component into words (`String.splitCase`): at `_` (kept as its own word)
    and before an upper-case letter that follows a non-upper-case one (`LE`, `CoeTC` stay)."""
    words: list[str] = []
    i0 = 0
    while True:
        i1 = i0 + 1
        if i1 >= len(s):
            words.append(s)
            return words
        if s[i0] == "_" or s[i1] == "_":
            words.append(s[:i1])
            s, i0 = s[i1:], 0
            continue
        if _is_upper(s[i1]):
            rest = s[i1:]
            suffix = next((x for x in _END_CAPITAL_NAMES.get(s[:i1], ()) if rest.startswith(x)), None)
            if suffix is not None:
                words.append(s[:i1] + suffix)
                s, i0 = rest[len(suffix):], 0
                continue
            if not _is_upper(s[i0]):
                words.append(s[:i1])
                s, i0 = rest, 0
                continue
        i0 = i1


def _decapitalize_seq(s: str) -> str:
    """Lower-case the leading run of upper-case letters (`HAdd` -> `hadd`)."""
    n = 0
    while n < len(s) and _is_upper(s[n]):
        n += 1
    return _ascii_lower(s[:n]) + s[n:]


def _decapitalize_like(model: str, s: str) -> str:
    return s if model and _is_upper(model[0]) else _decapitalize_seq(s)


def _apply_name_dict(words: list[str]) -> list[str]:
    out: list[str] = []
    for word in words:
        additive = _NAME_DICT.get(_ascii_lower(word))
        if additive is None:
            out.append(word)
        else:
            out.append(_decapitalize_like(word, additive[0]))
            out.extend(additive[1:])
    return out


def _fix_abbreviations(words: list[str]) -> str:
    """`ToAdditive.fixAbbreviation`: replace the first (shortest) run of words whose
    concatenation is in the abbreviation dictionary, scanning left to right."""
    out: list[str] = []
    pending = list(words)
    acc: list[str] = []
    while pending or acc:
        if not pending:
            out.append(acc[0])
            pending, acc = acc[1:], []
            continue
        run = acc + [pending.pop(0)]
        text = "".join(run)
        if run[-1] == "_" and text and _is_upper(text[0]):
            out.append(run[0])
            pending, acc = run[1:] + pending, []
            continue
        fixed = _ABBREVIATIONS.get(_decapitalize_seq(text))
        if fixed is not None:
            out.append(_decapitalize_like(text, fixed))
            acc = []
        else:
            acc = run
    return "".join(out)


@functools.lru_cache(maxsize=1 << 16)
def guess_additive_component(component: str) -> str:
    """`ToAdditive.guessName` on one name component: `mul_comm` -> `add_comm`,
    `CommMonoid` -> `AddCommMonoid`, `isSquare_iff` -> `even_iff`.  Primes split words."""
    return "'".join(_fix_abbreviations(_apply_name_dict(split_case(p))) for p in component.split("'"))


def additive_prefix(prefix: str, translations: Mapping[str, str] | None = None) -> str:
    """Translate a namespace the way `to_additive` does: the longest prefix with a known
    translation (`translations`, e.g. `Monoid` -> `AddMonoid` from `@[to_additive]` on the
    class) is replaced.  Without one, each component is guessed word by word, which is what
    Lean does only for names it knows; `Prod` and `Unit` are kept."""
    parts = split_name(prefix)
    known = translations or {}
    for k in range(len(parts), 0, -1):
        hit = known.get(".".join(parts[:k]))
        if hit is not None:
            return join_name(hit, *parts[k:])
    return join_name(*(p if p in _FIXED_COMPONENTS else guess_additive_component(p) for p in parts))


def additive_name(name: str, translations: Mapping[str, str] | None = None) -> str:
    """The name `@[to_additive]` gives the additive twin of `name` when no name is written:
    the last component via `guessName`, the namespace via `additive_prefix`.
    `mul_comm` -> `add_comm`; `Subgroup.mul_mem` -> `AddSubgroup.add_mem`."""
    parts = split_name(name)
    prefix = additive_prefix(".".join(parts[:-1]), translations)
    return join_name(prefix, guess_additive_component(parts[-1]))


def explicit_additive_name(name: str, target: str, translations: Mapping[str, str] | None = None) -> str:
    """The name for `@[to_additive target]` on `name` (`ToAdditive.targetName`): a target
    with k components replaces the last k components of the additive name, i.e. it is
    read relative to the (translated) namespace of the source, not as an absolute name."""
    if target.startswith("_root_."):
        return clean_name(target[len("_root_."):])
    parts = split_name(name)
    prefix = split_name(additive_prefix(".".join(parts[:-1]), translations))
    target_parts = split_name(clean_name(target))
    keep = max(len(prefix) - (len(target_parts) - 1), 0)
    return join_name(*prefix[:keep], *target_parts)


def twin_name(name: str, spec: AdditiveSpec, translations: Mapping[str, str] | None = None) -> str:
    """The name of the twin of `name`: the one the attribute writes, else the guessed one."""
    if spec.target:
        return explicit_additive_name(name, spec.target, translations)
    return additive_name(name, translations)


# --- Statements ---------------------------------------------------------------------------------

_MULTIPLICATIVE_OPS = {"*": "+", "/": "-", "∏": "∑", "∏'": "∑'", "∏ᶠ": "∑ᶠ", "•": "+ᵥ"}
_RELATIONS = {"=", "≠", "≤", "<", "≥", ">"}
_SIDE_STOP = {",", "↔", "→", "∧", "∨", ":", ":=", "(", ")", "[", "]", "{", "}", "⟨", "⟩"}
_MUL_MARKERS = {"*", "/", "⁻¹", "^", "∏", "∏'", "∏ᶠ"}


def _translate_identifier(name: str) -> str:
    return ".".join(p if p in _FIXED_COMPONENTS else guess_additive_component(p) for p in split_name(name))


def _operand_start(toks: list[Token], end: int, single: bool) -> int:
    """Start of the operand ending just before `end`: the last atom (ident, numeral or
    bracket group) when `single`, else the whole application run of atoms."""
    i = end
    while i > 0:
        t = toks[i - 1]
        if t.text in TERM_BRACKETS.closing:
            i = group_start(toks, i, TERM_BRACKETS)
        elif t.kind in ("ident", "num"):
            i -= 1
        else:
            break
        if single:
            break
    return i


def _ends_atom(t: Token) -> bool:
    return t.kind in ("ident", "num") or t.text in TERM_BRACKETS.closing


def _operand_end(toks: list[Token], start: int) -> int:
    """End of the single atom (or bracket group) starting at `start`."""
    if start >= len(toks):
        return start
    if toks[start].text in TERM_BRACKETS.opening:
        return group_end(toks, start, brackets=TERM_BRACKETS)
    return start + 1


def _relation_side_is_multiplicative(toks: list[Token], i: int, step: int) -> bool:
    """Whether the side of a relation starting next to `i` (walking by `step`) is a group
    element: it has a multiplicative operation, or it is a lone variable (`b = 1`), not
    an application such as `orderOf x = 1` or `Fintype.card G = 1`."""
    side: list[Token] = []
    j = i + step
    while 0 <= j < len(toks) and toks[j].text not in _SIDE_STOP and toks[j].text not in _RELATIONS:
        side.append(toks[j])
        j += step
    if any(t.text in _MUL_MARKERS for t in side):
        return True
    return len(side) == 1 and side[0].kind == "ident" and "." not in side[0].text


def _one_is_identity(toks: list[Token], i: int) -> bool:
    """`1` is the multiplicative identity when it is an operand of `*`, `/`, `⁻¹`, or one
    side of a relation whose other side is a group element (`a * a⁻¹ = 1`, `b = 1`)."""
    before = toks[i - 1].text if i > 0 else ""
    after = toks[i + 1].text if i + 1 < len(toks) else ""
    if before in ("*", "/") or after in ("*", "/", "⁻¹"):
        return True
    if after in _RELATIONS:
        return _relation_side_is_multiplicative(toks, i + 1, 1)
    if before in _RELATIONS:
        return _relation_side_is_multiplicative(toks, i - 1, -1)
    return False


def _is_universe_star(toks: list[Token], i: int) -> bool:
    """`Type*` / `Sort*` (Mathlib's fresh-universe binder), not a multiplication."""
    return toks[i].text == "*" and not toks[i].spaced and i > 0 and toks[i - 1].text in ("Type", "Sort")


def _render(toks: list[Token]) -> str:
    return "".join((" " if t.spaced else "") + t.text for t in toks)


def additive_signature(signature: str) -> str:
    """Best-effort additive statement: `*` -> `+`, `/` -> `-`, `x⁻¹` -> `-x`,
    `a ^ n` -> `n • a`, `∏` -> `∑`, `•` -> `+ᵥ`, identifiers through the `to_additive` word
    dictionary (`Monoid` -> `AddMonoid`, `Finset.prod` -> `Finset.sum`), and `1` -> `0` only
    where `1` is an operand of a multiplicative operation, or related (`=`, `≠`, `≤`, ...)
    to one or to a lone variable.

    The result is rebuilt from tokens: comments are dropped and whitespace is normalised
    (line breaks become spaces).  Lean's translation works on the elaborated term and skips
    operations on fixed types (`n * m` on `ℕ` stays); this text version translates every
    `*`, so statements mixing both get too much translated.
    """
    toks = term_tokens(signature)
    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text == "^" and out:
            start = _operand_start(out, len(out), single=False)
            end = _operand_end(toks, i + 1)
            base, exponent = out[start:], toks[i + 1:end]
            del out[start:]
            if base and exponent:
                out.append(exponent[0]._replace(spaced=base[0].spaced))
                out.extend(exponent[1:])
                out.append(Token("sym", "•", spaced=True))
                out.append(base[0]._replace(spaced=True))
                out.extend(base[1:])
            i = end
            continue
        if t.text == "⁻¹" and out:
            start = _operand_start(out, len(out), single=True)
            operand = out[start:]
            del out[start:]
            wrap = bool(out) and _ends_atom(out[-1])
            lead = operand[0].spaced if operand else t.spaced
            negated = [Token("sym", "-", spaced=not wrap and lead)]
            if operand:
                negated += [operand[0]._replace(spaced=False)] + operand[1:]
            out.extend([Token("other", "(", spaced=lead), *negated, Token("other", ")")] if wrap else negated)
            i += 1
            continue
        if t.text in _MULTIPLICATIVE_OPS and not _is_universe_star(toks, i):
            out.append(t._replace(kind="sym", text=_MULTIPLICATIVE_OPS[t.text]))
        elif t.kind == "num" and t.text == "1" and _one_is_identity(toks, i):
            out.append(t._replace(text="0"))
        elif t.kind == "ident":
            out.append(t._replace(text=_translate_identifier(t.text)))
        else:
            out.append(t)
        i += 1
    return _render(out)
