"""`@[to_additive]`: the additive twin Mathlib generates from a multiplicative declaration.

Mathlib's `to_additive` attribute makes, from `mul_comm : a * b = b * a`, the declaration
`add_comm : a + b = b + a`. Both readers of Lean declarations add these twins, from the same
rules kept here: the source parser (`tree`) for the declarations it reads, the JSON-lines
loader (`derived`) for rows that do not list them. The rules are

* the attribute's arguments (`to_additive (attr := simp) existing add_foo "doc"`, read by
  `attributes`);
* the twin's name (Mathlib's `guessName` with `ToAdditive`'s dictionaries, `guess_name`, or
  the name the attribute gives, read relative to the translated namespace);
* the twin's statement, a textual translation of the multiplicative one.

Lean translates elaborated terms; here only the text is known, and each function says where
the text-level version can differ.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from search.corpus.lean.attributes import AttributeItem, parse_item
from search.corpus.lean.guess_name import NameDictionary
from search.corpus.lean.syntax import TERM_BRACKETS, Token, group_end, group_start, render_tokens, term_tokens


def additive_item(items: Iterable[str], docs: Iterable[str | None] | None = None) -> AttributeItem | None:
    """The first `to_additive` item among attribute items, read (`docs`: each item's doc comment
    argument, when known); None when no item is `to_additive`."""
    docs = list(docs) if docs is not None else []
    for k, item in enumerate(items):
        parsed = parse_item(item, docs[k] if k < len(docs) else None)
        if parsed.word == "to_additive":
            return parsed
    return None


# --- Names -------------------------------------------------------------------------------------

#: `ToAdditive.nameDict` and `abbreviationDict` of the Mathlib this project's shared corpus pins
#: (a tree holding `Mathlib/Tactic/Translate/ToAdditive.lean` is read with its own).
ADDITIVE = NameDictionary(
    words={
        "one": ("Zero",), "mul": ("Add",), "smul": ("VAdd",), "inv": ("Neg",), "div": ("Sub",),
        "sdiv": ("VSub",), "prod": ("Sum",), "hmul": ("HAdd",), "hsmul": ("HVAdd",), "hdiv": ("HSub",),
        "hpow": ("HSMul",), "finprod": ("Finsum",), "tprod": ("TSum",), "pow": ("NSMul",),
        "npow": ("NSMul",), "zpow": ("ZSMul",), "mabs": ("Abs",), "monoid": ("Add", "Monoid"),
        "submonoid": ("Add", "Submonoid"), "group": ("Add", "Group"), "subgroup": ("Add", "Subgroup"),
        "semigroup": ("Add", "Semigroup"), "torsor": ("Add", "Torsor"), "magma": ("Add", "Magma"),
        "haar": ("Add", "Haar"), "prehaar": ("Add", "Prehaar"), "unit": ("Add", "Unit"),
        "units": ("Add", "Units"), "cyclic": ("Add", "Cyclic"), "semigrp": ("Add", "Semigrp"),
        "grp": ("Add", "Grp"), "commute": ("Add", "Commute"), "semiconj": ("Add", "Semiconj"),
        "conjugates": ("Add", "Conjugates"), "conj": ("Add", "Conj"), "commutator": ("Add", "Commutator"),
        "rootable": ("Divisible",), "zpowers": ("ZMultiples",), "powers": ("Multiples",),
        "multipliable": ("Summable",), "gpfree": ("APFree",), "quantale": ("Add", "Quantale"),
        "square": ("Even",), "mconv": ("Conv",), "irreducible": ("Add", "Irreducible"),
        "mlconvolution": ("LConvolution",),
    },
    abbreviations={
        "isCancelAdd": "IsCancelAdd", "isLeftCancelAdd": "IsLeftCancelAdd",
        "isRightCancelAdd": "IsRightCancelAdd", "cancelAdd": "AddCancel", "leftCancelAdd": "AddLeftCancel",
        "rightCancelAdd": "AddRightCancel", "cancelCommAdd": "AddCancelComm", "commAdd": "AddComm",
        "zero_le": "Nonneg", "zeroLE": "Nonneg", "zero_lt": "Pos", "zeroLT": "Pos", "lezero": "Nonpos",
        "le_zero": "Nonpos", "ltzero": "Neg", "lt_zero": "Neg", "addAntidiagonal": "Antidiagonal",
        "addSingle": "Single", "addSupport": "Support", "addTSupport": "TSupport", "addPointed": "Pointed",
        "addSpanning": "Spanning", "addIndicator": "Indicator", "isEven": "Even", "isRegular": "IsAddRegular",
        "isLeftRegular": "IsAddLeftRegular", "isRightRegular": "IsAddRightRegular",
        "hasFundamentalDomain": "HasAddFundamentalDomain", "quotientMeasure": "AddQuotientMeasure",
        "negFun": "InvFun", "uniqueProds": "UniqueSums", "orderOf": "AddOrderOf", "zeroLePart": "PosPart",
        "leZeroPart": "NegPart", "isScalarTower": "VAddAssocClass", "isOfFinOrder": "IsOfFinAddOrder",
        "isCentralScalar": "IsCentralVAdd", "function_addSemiconj": "Function_semiconj",
        "function_addCommute": "Function_commute", "divisionAddMonoid": "SubtractionMonoid",
        "subNegZeroAddMonoid": "SubNegZeroMonoid", "modularCharacter": "AddModularCharacter",
        "addShift": "Shift", "addSubshift": "Subshift", "isQuotientCoveringMap": "IsAddQuotientCoveringMap",
        "addExact": "Exact", "isMonHom": "IsAddMonHom", "mapMon": "MapAddMon", "monObj": "AddMonObj",
        "isModHom": "IsAddModHom", "mapMod": "MapAddMod", "modObj": "AddModObj",
        "yonedaMon": "YonedaAddMon", "conGen": "AddConGen", "unoneD": "unzeroD", "unone": "unzero",
    },
    fixed=frozenset({"Prod", "Unit"}),
)
#: The module that defines them in Mathlib.
DEFINED_IN = "Mathlib.Tactic.Translate.ToAdditive"


def additive_name(name: str, translations: Mapping[str, str] | None = None) -> str:
    """The name `@[to_additive]` gives the additive twin of `name` when no name is written:
    `mul_comm` -> `add_comm`; `Subgroup.mul_mem` -> `AddSubgroup.add_mem`."""
    return ADDITIVE.guess(name, translations)


def twin_name(name: str, item: AttributeItem, translations: Mapping[str, str] | None = None,
              dictionary: NameDictionary = ADDITIVE) -> str:
    """The name of the twin of `name`: the one the attribute writes (read relative to the
    translated namespace), else the guessed one."""
    if item.target:
        return dictionary.explicit(name, item.target, translations)
    return dictionary.guess(name, translations)


# --- Statements ---------------------------------------------------------------------------------

_MULTIPLICATIVE_OPS = {"*": "+", "/": "-", "∏": "∑", "∏'": "∑'", "∏ᶠ": "∑ᶠ", "•": "+ᵥ"}
_RELATIONS = {"=", "≠", "≤", "<", "≥", ">"}
_SIDE_STOP = {",", "↔", "→", "∧", "∨", ":", ":=", "(", ")", "[", "]", "{", "}", "⟨", "⟩"}
#: Marks glued after a token that make its notation multiplicative, dropped in the additive
#: statement: `|a|ₘ` (`mabs`) is `|a|`, `a⁺ᵐ` (`oneLePart`) is `a⁺`, `a⁻ᵐ` is `a⁻`.
_MULTIPLICATIVE_MARKS = {"ₘ": "|", "ᵐ": "⁺⁻"}
_MUL_MARKERS = {"*", "/", "⁻¹", "^", "∏", "∏'", "∏ᶠ", *_MULTIPLICATIVE_MARKS}


def _operand_start(toks: list[Token], end: int, single: bool) -> int:
    """Start of the operand ending just before `end`: the last atom (ident, numeral or
    bracket group) when `single`, else the whole application run of atoms."""
    i = end
    while i > 0:
        t = toks[i - 1]
        if t.text in TERM_BRACKETS.closing:
            i = group_start(toks, i, TERM_BRACKETS)
        elif t.text == "ₘ" and i >= 2 and toks[i - 2].text == "|" and (bar := _opening_bar(toks, i - 2)) is not None:
            i = bar  # `|a|ₘ`, an element of the group (`|a|` may be a real number's, which stays)
        elif t.kind in ("ident", "num") or t.text == "·":
            i -= 1
        else:
            break
        if single:
            break
    return i


def _opening_bar(toks: list[Token], closing: int) -> int | None:
    """Where the `|a|` that closes at `closing` opens (the `|` before it), if it does."""
    opening = next((j for j in range(closing - 1, -1, -1) if toks[j].text == "|"), None)
    return opening if opening is not None and opening < closing - 1 else None


def _is_iterate(toks: list[Token], i: int) -> bool:
    """Whether the `^` at `i` opens `f^[n]`, `f` iterated `n` times, which is no power."""
    return i + 1 < len(toks) and toks[i + 1].text == "[" and not toks[i + 1].spaced


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


def additive_signature(signature: str) -> str:
    """Best-effort additive statement: `*` -> `+`, `/` -> `-`, `x⁻¹` -> `-x`,
    `a ^ n` -> `n • a`, `∏` -> `∑`, `•` -> `+ᵥ`, `|a|ₘ` -> `|a|`, `a⁺ᵐ` -> `a⁺`, identifiers
    through the `to_additive` word dictionary (`Monoid` -> `AddMonoid`, `Finset.prod` ->
    `Finset.sum`), and `1` -> `0` only
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
        if t.text == "^" and out and not _is_iterate(toks, i):
            start = _operand_start(out, len(out), single=False)
            end = _operand_end(toks, i + 1)
            base, exponent = out[start:], toks[i + 1:end]
            if not (base and exponent):  # nothing to move: the power stays as written
                out.append(t)
                i += 1
                continue
            del out[start:]
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
            out.append(t._replace(text=ADDITIVE.identifier(t.text)))
        else:
            out.append(t)
        i += 1
    return render_tokens([t for k, t in enumerate(out) if not _is_multiplicative_mark(out, k)])


def _is_multiplicative_mark(toks: list[Token], k: int) -> bool:
    """Whether `toks[k]` is one of `_MULTIPLICATIVE_MARKS`, glued after what it marks."""
    t = toks[k]
    marked = _MULTIPLICATIVE_MARKS.get(t.text)
    return marked is not None and not t.spaced and k > 0 and toks[k - 1].text in marked
