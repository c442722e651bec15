"""How Lean 4 and Mathlib name things, reproduced on source text (no elaboration).

Three naming rules matter for a source-level index:

* Lean's identifier syntax (which characters make a name, `«quoted»` parts, `.{u}` universes);
* the name Lean gives an `instance` written without one (`Lean.Elab.Command.mkInstanceName`,
  module `Lean.Elab.DeclNameGen`), so unnamed instances get the name users see in the docs;
* the name and statement `@[to_additive]` generates (Mathlib's `ToAdditive.guessName` and its
  dictionaries), so the additive twin of `mul_comm` is findable as `add_comm`.

Lean works on elaborated expressions; here only the text is known.  Each function documents
where the text-level version can differ from Lean.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Collection, Mapping

# --- Lean identifiers -------------------------------------------------------------------------

#: Lean's `isLetterLike`: Greek (without λ, Π, Σ), Coptic, polytonic Greek, letter-like
#: symbols (ℕ, ℝ, ...) and the mathematical alphanumeric block (𝕜, 𝓞, ...).
_LETTER = (
    "A-Za-z_"
    "\u03b1-\u03ba\u03bc-\u03c9"
    "\u0391-\u039f\u03a1\u03a4-\u03a9"
    "\u03ca-\u03fb\u1f00-\u1ffe\u2100-\u214f"
    "\U0001d49c-\U0001d59f"
)
#: Lean's `isIdRest` adds digits, `'`, `!`, `?` and subscript letters/digits.
_REST = _LETTER + "0-9'!?\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a\u2c7c"
_ATOM = rf"(?:«[^»]*»|[{_LETTER}][{_REST}]*)"
#: One possibly dotted identifier, e.g. `Nat.succ_le`, `Foo.«bar baz»`.
IDENT_PATTERN = rf"{_ATOM}(?:\.{_ATOM})*"

_UNIVERSES_RE = re.compile(r"\.\{[^{}]*\}")
_NAME_PART_RE = re.compile(r"«([^»]*)»|([^.«]+)")


def split_name(name: str) -> list[str]:
    """Split a dotted name into components, honouring `«a.b»` quoting (quotes removed)."""
    if "«" not in name:
        return name.split(".") if name else []
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in _NAME_PART_RE.finditer(name)]


def clean_name(written: str) -> str:
    """The name Lean stores for a written one: universes `.{u}` and `«»` quotes removed."""
    return ".".join(split_name(_UNIVERSES_RE.sub("", written)))


def join_name(*parts: str) -> str:
    """Join name prefixes, skipping empty ones (the root namespace is `""`)."""
    return ".".join(p for p in parts if p)


def _is_upper(c: str) -> bool:
    return "A" <= c <= "Z"


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _ascii_lower(s: str) -> str:
    """Lean's `String.toLower` (ASCII only)."""
    return s.translate(_ASCII_LOWER)


# --- @[to_additive] names (Mathlib.Tactic.ToAdditive.GuessName) ------------------------------

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


# --- Statement text: tokens ---------------------------------------------------------------------

#: Multi-character notation, longest first so that the tokenizer prefers `≃+*` over `≃`.
_SYMBOLS = sorted(
    [
        "ℝ≥0∞", "ℝ≥0", "ℚ≥0", "ℕ∞", "ℕ+", "→ₗ[", "≃ₗ[", "→L[", "≃L[", "→ₗᵢ[", "≃ₗᵢ[", "→ₛₗ[",
        "→SL[", "→ₐ[", "≃ₐ[", "⊗[", "→+*", "≃+*", "→*₀", "→*", "→+", "≃*", "≃+", "→o", "≃o",
        "↪o", "→₀", "→ᵇ", ":=", "=>", "<;>", "<|>", "<|", "|>", "∃!", "×ˢ", "ᵐᵒᵖ", "ᵃᵒᵖ", "ᵈᵐᵃ",
        "ᵈᵃᵃ", "ᵒᵈ", "ᵒᵖ", "⁻¹", "≠", "≤", "≥", "->", "<->", "{{", "}}", "?_", "..", "::",
    ],
    key=len,
    reverse=True,
)
_TOKEN_RE = re.compile(
    r"(?P<space>\s+)"
    r"|(?P<comment>--[^\n]*|/-.*?-/)"
    r'|(?P<string>"(?:[^"\\]|\\.)*")'
    r"|(?P<sym>" + "|".join(re.escape(s) for s in _SYMBOLS) + r")"
    rf"|(?P<ident>{IDENT_PATTERN})"
    r"|(?P<num>\d+(?:\.\d+)?)"
    r"|(?P<other>.)",
    re.DOTALL,
)


@dataclass(frozen=True)
class _Tok:
    text: str
    kind: str
    spaced: bool  # preceded by whitespace or a comment


def _tokens(text: str) -> list[_Tok]:
    """Code tokens of a statement (comments and whitespace dropped)."""
    out: list[_Tok] = []
    spaced = False
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup or "other"
        if kind in ("space", "comment"):
            spaced = True
            continue
        out.append(_Tok(m.group(), kind, spaced))
        spaced = False
    return out


# --- Unnamed instances (Lean.Elab.DeclNameGen) -------------------------------------------------

#: Winnowed expressions, as hashable tuples: a local (any free variable; Lean maps them all
#: to `.bvar 0`, so they are all equal), a constant, an application, a non-dependent pi, a sort.
_VAR: tuple = ("v",)


def _const(name: str) -> tuple:
    return ("c", name)


def _app(f: tuple, *args: tuple) -> tuple:
    for a in args:
        f = ("a", f, a)
    return f


_NUMERAL = _app(_const("OfNat.ofNat"), _VAR, _VAR)

#: Notation that elaborates to a constant.
_NOTATION_CONSTS = {
    "ℕ": "Nat", "ℤ": "Int", "ℚ": "Rat", "ℝ": "Real", "ℂ": "Complex", "ℍ": "Quaternion",
    "ℝ≥0": "NNReal", "ℝ≥0∞": "ENNReal", "ℚ≥0": "NNRat", "ℕ∞": "ENat", "ℕ+": "PNat",
    "⊤": "Top.top", "⊥": "Bot.bot", "∅": "EmptyCollection.emptyCollection",
}
_POSTFIX = {
    "⁻¹": "Inv.inv", "ᵐᵒᵖ": "MulOpposite", "ᵃᵒᵖ": "AddOpposite", "ᵒᵈ": "OrderDual",
    "ᵒᵖ": "Opposite", "ᵈᵐᵃ": "DomMulAct", "ᵈᵃᵃ": "DomAddAct", "ˣ": "Units", "ᶜ": "HasCompl.compl",
}
_FORALL = "∀"
#: Binary notation: precedence, right-associative?, constant (or `_FORALL` for `→`).
_INFIX: dict[str, tuple[int, bool, str]] = {
    "→": (25, True, _FORALL), "->": (25, True, _FORALL),
    "↔": (20, False, "Iff"), "<->": (20, False, "Iff"), "∨": (30, True, "Or"), "∧": (35, True, "And"),
    "=": (50, False, "Eq"), "≠": (50, False, "Ne"), "<": (50, False, "LT.lt"), "≤": (50, False, "LE.le"),
    ">": (50, False, "GT.gt"), "≥": (50, False, "GE.ge"), "∈": (50, False, "Membership.mem"),
    "⊆": (50, False, "HasSubset.Subset"), "⊂": (50, False, "HasSSubset.SSubset"),
    "∣": (50, False, "Dvd.dvd"),
    "≃": (25, True, "Equiv"), "≅": (10, True, "CategoryTheory.Iso"), "⟶": (10, True, "Quiver.Hom"),
    "⥤": (26, True, "CategoryTheory.Functor"), "≌": (10, True, "CategoryTheory.Equivalence"),
    "↪": (25, True, "Function.Embedding"), "→+*": (25, True, "RingHom"), "≃+*": (25, True, "RingEquiv"),
    "→*": (25, True, "MonoidHom"), "→+": (25, True, "AddMonoidHom"), "→*₀": (25, True, "MonoidWithZeroHom"),
    "≃*": (25, True, "MulEquiv"), "≃+": (25, True, "AddEquiv"), "→o": (25, True, "OrderHom"),
    "≃o": (25, True, "OrderIso"), "↪o": (25, True, "OrderEmbedding"), "→₀": (25, True, "Finsupp"),
    "→ᵇ": (25, True, "BoundedContinuousFunction"),
    "×": (35, True, "Prod"), "⊕": (30, True, "Sum"), "×ˢ": (82, True, "SProd.sprod"),
    "+": (65, False, "HAdd.hAdd"), "-": (65, False, "HSub.hSub"), "*": (70, False, "HMul.hMul"),
    "/": (70, False, "HDiv.hDiv"), "%": (70, False, "HMod.hMod"), "•": (73, True, "HSMul.hSMul"),
    "^": (75, True, "HPow.hPow"), "∘": (90, True, "Function.comp"), "∩": (70, False, "Inter.inter"),
    "∪": (65, False, "Union.union"), "⊓": (69, False, "Min.min"), "⊔": (68, False, "Max.max"),
    "⋖": (50, False, "CovBy"), "⩿": (50, False, "WCovBy"), "≈": (50, False, "HasEquiv.Equiv"),
    "\\": (70, False, "SDiff.sdiff"), "⇨": (60, True, "HImp.himp"), "∆": (100, False, "symmDiff"),
    "⊣": (15, False, "CategoryTheory.Adjunction"),
}
#: `M →ₗ[R] N` is `LinearMap (RingHom.id R) M N`; `M ⊗[R] N` is `TensorProduct R M N`.
_BRACKET_INFIX: dict[str, tuple[str, bool]] = {
    "→ₗ[": ("LinearMap", True), "≃ₗ[": ("LinearEquiv", True), "→L[": ("ContinuousLinearMap", True),
    "≃L[": ("ContinuousLinearEquiv", True), "→ₗᵢ[": ("LinearIsometry", True),
    "≃ₗᵢ[": ("LinearIsometryEquiv", True), "→ₛₗ[": ("LinearMap", False),
    "→SL[": ("ContinuousLinearMap", False), "→ₐ[": ("AlgHom", False), "≃ₐ[": ("AlgEquiv", False),
    "⊗[": ("TensorProduct", False),
}
_CLOSE = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "{{": "}}", "⟦": "⟧", "⟮": "⟯"}
#: Function-like notation written glued to its parenthesised arguments: `C(α, β)`.
_GLUED_CALLS = {
    "C": "ContinuousMap", "C_c": "CompactlySupportedContinuousMap", "C₀": "ZeroAtInftyContinuousMap",
}
_BINDER_WORDS = {"fun", "λ", "∀", "Π", "∃", "∃!", "Σ", "∑", "∏", "⋃", "⋂", "⨆", "⨅"}
_STOP = {")", "]", "}", "⟩", "⦄", "}}", "⟧", ",", ":", ":=", "=>", "↦", "|",
         "where", "with", "then", "else"}
#: Tokens that may follow an atom without a space and still be ordinary syntax.
_GLUED_OK = frozenset(_CLOSE.values()) | {",", "(", ":"}
_SCRIPT_RE = re.compile(r"[\u2100-\u214f\U0001d400-\U0001d7ff]+\Z")
_UNIVERSE_RE = re.compile(r"[uvw][0-9_'\u2080-\u2089]*\Z")
_VAR_RE = re.compile(
    r"[A-Za-z\u0370-\u03ff\u2100-\u214f\U0001d400-\U0001d7ff][0-9'\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a]*\Z"
)


class _ExprParser:
    """A forgiving precedence parser from statement tokens to winnowed expressions.

    Only what `mkBaseNameCore` looks at is kept: constants, applications to *written*
    arguments, non-dependent arrows, sorts; binders of `fun`/`∀` are dropped with their body kept.
    """

    def __init__(self, toks: list[_Tok], bound: set[str]):
        self.toks = toks
        self.i = 0
        self.bound = bound

    def peek(self, k: int = 0) -> _Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def skip_group(self) -> None:
        """Skip a bracketed group starting at the current opening bracket."""
        self.i = _group_end(self.toks, self.i)

    def expr(self, min_prec: int = 0) -> tuple:
        left = self.prefix()
        while (t := self.peek()) is not None:
            if t.text in _BRACKET_INFIX and min_prec <= 25:
                self.i += 1
                const, via_id = _BRACKET_INFIX[t.text]
                ring = self.expr(0)
                if (c := self.peek()) is not None and c.text == "]":
                    self.i += 1
                right = self.expr(25)
                ring = _app(_const("RingHom.id"), ring) if via_id else ring
                left = _app(_const(const), ring, left, right)
                continue
            if t.text in ("<|", "|>") and min_prec <= 10:
                self.i += 1
                right = self.expr(10)
                left = _app(left, right) if t.text == "<|" else _app(right, left)
                continue
            op = _INFIX.get(t.text)
            if op is None or op[0] < min_prec:
                return left
            prec, right_assoc, const = op
            self.i += 1
            nxt = self.peek()
            if nxt is None or nxt.text in _STOP:
                return _VAR  # postfix use of an operator symbol: notation such as `β*`
            if not nxt.spaced and nxt.text not in ("(", "-", "¬", "↑", "⇑", "↥"):
                # A decorated arrow such as `α →ₛ β` or `G ≃+c[a, b] H`: unknown notation.
                self.skip_glued()
                self.expr(prec if right_assoc else prec + 1)
                left = _VAR
                continue
            right = self.expr(prec if right_assoc else prec + 1)
            left = ("f", left, right) if const == _FORALL else _app(_const(const), left, right)
        return left

    def prefix(self) -> tuple:
        t = self.peek()
        if t is None:
            return _VAR
        if t.text in _BINDER_WORDS:
            return self.binder_expr(t.text)
        if t.text == "¬":
            self.i += 1
            return _app(_const("Not"), self.expr(40))
        if t.text == "-":
            self.i += 1
            return _app(_const("Neg.neg"), self.expr(75))
        return self.application()

    def binder_expr(self, word: str) -> tuple:
        """`fun x => b` names as `b`; `∀ x, b` as a pi whose type is hidden when `b`
        mentions `x` (all written binders are assumed used); `∃ x, p` as `Exists p`."""
        self.i += 1
        names: list[str] = []
        while (t := self.peek()) is not None and t.text not in (",", "=>", "↦"):
            if t.text in _CLOSE:
                start = self.i
                self.skip_group()
                names += [x.text for x in self.toks[start:self.i] if x.kind == "ident"]
            else:
                if t.kind == "ident":
                    names.append(t.text)
                self.i += 1
        self.i += 1
        self.bound.update(names)
        body = self.expr(0)
        if word in ("∀", "Π"):
            return ("f", _VAR, body)
        if word in ("∃", "∃!"):
            return _app(_const("Exists"), body)
        return body

    def application(self) -> tuple:
        head = self.atom()
        while (t := self.peek()) is not None and self.starts_atom(t):
            head = _app(head, self.atom())
        return head

    @staticmethod
    def starts_atom(t: _Tok) -> bool:
        if t.text in _STOP or t.text in _INFIX or t.text in _BRACKET_INFIX or t.text in _POSTFIX:
            return False
        return (t.kind in ("ident", "num", "string") or t.text in _CLOSE or t.text in _BINDER_WORDS
                or t.text in _NOTATION_CONSTS or t.text in ("_", "?_", "@", "↑", "⇑", "↥", "·"))

    def atom(self) -> tuple:
        e = self.atom_core()
        while (t := self.peek()) is not None:
            if t.text in _POSTFIX:
                self.i += 1
                e = _app(_const(_POSTFIX[t.text]), e)
            elif t.text == "." and not t.spaced and (f := self.peek(1)) is not None and f.kind == "ident" \
                    and not f.spaced:
                # Generalized field notation on a term: `(Gamma1 N).FiniteIndex`.
                self.i += 2
                for part in split_name(f.text):
                    e = _app(_const(part), e)
            elif not t.spaced and t.kind != "ident" and t.text not in _GLUED_OK:
                # Unknown notation glued to the atom (`R≥0`, `X[S⁻¹]`, `x.1`): unnameable.
                self.skip_glued()
                e = _VAR
            else:
                return e
        return e

    def skip_glued(self) -> None:
        """Skip the run of tokens glued together (no whitespace) from the current one."""
        first = True
        while (t := self.peek()) is not None and (first or not t.spaced) and t.text not in _CLOSE.values():
            first = False
            if t.text in _CLOSE:
                self.skip_group()
            else:
                self.i += 1

    def atom_core(self) -> tuple:
        t = self.peek()
        if t is None:
            return _VAR
        self.i += 1
        if t.text in ("@", "↑", "⇑", "↥"):
            return self.atom()
        if t.text in _BINDER_WORDS:
            self.i -= 1
            return self.binder_expr(t.text)
        if t.text in _NOTATION_CONSTS:
            return _const(_NOTATION_CONSTS[t.text])
        if t.kind == "num":
            return _NUMERAL
        if t.text == "(":
            return self.paren()
        if t.text in _CLOSE:
            self.i -= 1
            self.skip_group()
            return _VAR
        if t.kind == "ident":
            return self.identifier(t.text)
        return _VAR

    def paren(self) -> tuple:
        """`(e)`, `(e : T)` (ascription: just `e`), tuples (unnamed)."""
        e = self.expr(0)
        t = self.peek()
        if t is not None and t.text not in (")", ":"):
            e = _VAR
        self.i = _group_end(self.toks, self.i, depth=1)
        return e

    def identifier(self, name: str) -> tuple:
        if name in ("Type", "Sort", "Prop"):
            nxt = self.peek()
            if name != "Prop" and nxt is not None:
                if nxt.text in ("*", "_") or _UNIVERSE_RE.match(nxt.text):
                    self.i += 1
                elif nxt.text == "(":
                    self.skip_group()
            return ("s", name)
        if name in ("_", "sorry"):
            return _VAR
        nxt = self.peek()
        if name in _GLUED_CALLS and nxt is not None and nxt.text == "(" and not nxt.spaced:
            return self.glued_call(_GLUED_CALLS[name])
        parts = split_name(name)
        if self.is_local(parts[0]):
            # Generalized field notation `x.foo`: the constant is `T.foo` for `x : T`.
            return _app(_const(parts[-1]), _VAR) if len(parts) > 1 else _VAR
        return _const(".".join(parts))

    def glued_call(self, const: str) -> tuple:
        self.i += 1
        e = _const(const)
        while (t := self.peek()) is not None and t.text != ")":
            e = _app(e, self.expr(0))
            if (t := self.peek()) is not None and t.text == ",":
                self.i += 1
        self.i += 1
        return e

    def is_local(self, name: str) -> bool:
        """Bound names, and names that read like a `variable` (`R`, `M₁`, `α'`, `𝕜`) or
        like a notation made of script letters (`𝓞`, `𝕔𝔻`), which cannot be named."""
        if name in self.bound:
            return True
        return name not in _NOTATION_CONSTS and bool(_VAR_RE.match(name) or _SCRIPT_RE.match(name))


@dataclass
class _Binder:
    names: list[str]  # empty for an anonymous instance binder `[C α]`
    type_toks: list[_Tok]


@dataclass
class _InstanceHeader:
    binders: list[_Binder] = field(default_factory=list)
    type_toks: list[_Tok] = field(default_factory=list)


_INSTANCE_WORDS = frozenset({"scoped", "local", "instance", "noncomputable", "private", "protected"})


def _split_instance_header(signature: str) -> _InstanceHeader:
    toks = _tokens(_UNIVERSES_RE.sub("", signature))
    i = 0
    while i < len(toks) and toks[i].text in _INSTANCE_WORDS:
        i += 1
    if i + 1 < len(toks) and toks[i].text == "(" and toks[i + 1].text == "priority":
        i = _group_end(toks, i)
    if i < len(toks) and toks[i].kind == "ident":
        i += 1
        if i + 1 < len(toks) and toks[i].text == "." and toks[i + 1].text == "{":
            i = _group_end(toks, i + 1)
    header = _InstanceHeader()
    while i < len(toks) and toks[i].text in _CLOSE:
        end = _group_end(toks, i)
        header.binders.append(_parse_binder(toks[i + 1:end - 1], toks[i].text == "["))
        i = end
    if i < len(toks) and toks[i].text == ":":
        i += 1
    depth = 0
    start = i
    while i < len(toks):
        text = toks[i].text
        if text in _CLOSE:
            depth += 1
        elif text in _CLOSE.values():
            depth -= 1
        elif depth == 0 and text in (":=", "where", "|", "deriving"):
            break
        i += 1
    header.type_toks = toks[start:i]
    return header


def _group_end(toks: list[_Tok], i: int, depth: int = 0) -> int:
    """Index just past the bracket group opening at `i` (with `depth=1`: the group that
    `i` is already inside)."""
    for j in range(i, len(toks)):
        if toks[j].text in _CLOSE:
            depth += 1
        elif toks[j].text in _CLOSE.values():
            depth -= 1
            if depth == 0:
                return j + 1
    return len(toks)


def _parse_binder(inner: list[_Tok], instance_implicit: bool) -> _Binder:
    colon = next((k for k, t in enumerate(inner) if t.text == ":"), None)
    if colon is None:
        if instance_implicit:
            return _Binder([], inner)
        return _Binder([t.text for t in inner if t.kind == "ident"], [])
    names = [t.text for t in inner[:colon] if t.kind == "ident"]
    type_toks = inner[colon + 1:]
    end = next((k for k, t in enumerate(type_toks) if t.text == ":="), len(type_toks))
    return _Binder(names, type_toks[:end])


def _mentioned(toks: list[_Tok]) -> set[str]:
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

    def visit(self, e: tuple, omit_top_forall: bool = False) -> str:
        if e in self.seen:
            return ""
        s = self._visit(e, omit_top_forall)
        self.seen.add(e)
        return s

    def _visit(self, e: tuple, omit_top_forall: bool) -> str:
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


def _peel_foralls(e: tuple) -> tuple[list[tuple], tuple]:
    binders = []
    while e[0] == "f":
        binders.append(e[1])
        e = e[2]
    return binders, e


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
    parser = _ExprParser(header.type_toks, bound)
    binder_types, conclusion = _peel_foralls(parser.expr(0))
    trailing = [header.type_toks]
    explicit: list[tuple] = []
    for k in range(len(header.binders) - 1, -1, -1):
        b = header.binders[k]
        later = _mentioned([t for toks in trailing for t in toks])
        ty = _ExprParser(b.type_toks, bound).expr(0) if b.type_toks else _VAR
        for name in reversed(b.names or ["_"]):
            explicit.append(_VAR if name in later else ty)
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


# --- @[to_additive] statements ---------------------------------------------------------------

_MULTIPLICATIVE_OPS = {"*": "+", "/": "-", "∏": "∑", "•": "+ᵥ"}
_RELATIONS = {"=", "≠", "≤", "<", "≥", ">"}
_SIDE_STOP = {",", "↔", "→", "∧", "∨", ":", ":=", "(", ")", "[", "]", "{", "}", "⟨", "⟩"}
_MUL_MARKERS = {"*", "/", "⁻¹", "^", "∏"}


def _translate_identifier(name: str) -> str:
    return ".".join(p if p in _FIXED_COMPONENTS else guess_additive_component(p) for p in split_name(name))


def _operand_start(toks: list[_Tok], end: int, single: bool) -> int:
    """Start of the operand ending just before `end`: the last atom (ident, numeral or
    bracket group) when `single`, else the whole application run of atoms."""
    i = end
    while i > 0:
        t = toks[i - 1]
        if t.text in _CLOSE.values():
            depth = 0
            for j in range(i - 1, -1, -1):
                if toks[j].text in _CLOSE.values():
                    depth += 1
                elif toks[j].text in _CLOSE:
                    depth -= 1
                    if depth == 0:
                        break
            i = j
        elif t.kind in ("ident", "num"):
            i -= 1
        else:
            break
        if single:
            break
    return i


def _ends_atom(t: _Tok) -> bool:
    return t.kind in ("ident", "num") or t.text in _CLOSE.values()


def _operand_end(toks: list[_Tok], start: int) -> int:
    """End of the single atom (or bracket group) starting at `start`."""
    if start >= len(toks):
        return start
    if toks[start].text in _CLOSE:
        return _group_end(toks, start)
    return start + 1


def _relation_side_is_multiplicative(toks: list[_Tok], i: int, step: int) -> bool:
    """Whether the side of a relation starting next to `i` (walking by `step`) is a group
    element: it has a multiplicative operation, or it is a lone variable (`b = 1`), not
    an application such as `orderOf x = 1` or `Fintype.card G = 1`."""
    side: list[_Tok] = []
    j = i + step
    while 0 <= j < len(toks) and toks[j].text not in _SIDE_STOP and toks[j].text not in _RELATIONS:
        side.append(toks[j])
        j += step
    if any(t.text in _MUL_MARKERS for t in side):
        return True
    return len(side) == 1 and side[0].kind == "ident" and "." not in side[0].text


def _one_is_identity(toks: list[_Tok], i: int) -> bool:
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


def _is_universe_star(toks: list[_Tok], i: int) -> bool:
    """`Type*` / `Sort*` (Mathlib's fresh-universe binder), not a multiplication."""
    return toks[i].text == "*" and not toks[i].spaced and i > 0 and toks[i - 1].text in ("Type", "Sort")


def _render(toks: list[_Tok]) -> str:
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
    toks = _tokens(signature)
    out: list[_Tok] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text == "^" and out:
            start = _operand_start(out, len(out), single=False)
            end = _operand_end(toks, i + 1)
            base, exponent = out[start:], toks[i + 1:end]
            del out[start:]
            if base and exponent:
                out.append(_Tok(exponent[0].text, exponent[0].kind, base[0].spaced))
                out.extend(exponent[1:])
                out.append(_Tok("•", "sym", True))
                out.append(_Tok(base[0].text, base[0].kind, True))
                out.extend(base[1:])
            i = end
            continue
        if t.text == "⁻¹" and out:
            start = _operand_start(out, len(out), single=True)
            operand = out[start:]
            del out[start:]
            wrap = bool(out) and _ends_atom(out[-1])
            lead = operand[0].spaced if operand else t.spaced
            negated = [_Tok("-", "sym", not wrap and lead)]
            if operand:
                negated += [_Tok(operand[0].text, operand[0].kind, False)] + operand[1:]
            out.extend([_Tok("(", "other", lead), *negated, _Tok(")", "other", False)] if wrap else negated)
            i += 1
            continue
        if t.text in _MULTIPLICATIVE_OPS and not _is_universe_star(toks, i):
            out.append(_Tok(_MULTIPLICATIVE_OPS[t.text], "sym", t.spaced))
        elif t.kind == "num" and t.text == "1" and _one_is_identity(toks, i):
            out.append(_Tok("0", "num", t.spaced))
        elif t.kind == "ident":
            out.append(_Tok(_translate_identifier(t.text), "ident", t.spaced))
        else:
            out.append(t)
        i += 1
    return _render(out)
