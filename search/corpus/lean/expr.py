"""Lean terms read from source text as small expression trees (no elaboration).

A forgiving precedence parser turns the tokens of a term (`syntax.term_tokens`) into a tree of
hashable tuples, so that equal subterms compare and hash equal:

* `VAR` = `("v",)`: anything that names no constant: a bound or local name, a hole (`_`,
  `?_`), `sorry`, unknown notation. All are the same value, as Lean's instance naming maps
  every free variable to `.bvar 0`;
* `const(name)` = `("c", name)`: a constant as written (`Nat.succ`) or as notation
  elaborates it (`a + b` is `HAdd.hAdd a b`, `ℝ` is `Real`, a numeral is `OfNat.ofNat _ _`);
* `app(f, x, y)` = `("a", ("a", f, x), y)`: application, one argument at a time;
* `pi(domain, body)` = `("f", domain, body)`: `domain → body`; a `∀` over named binders is
  `pi(VAR, body)` (the binders are dropped, the body kept);
* `sort(name)` = `("s", name)`: `Prop`, `Type` or `Sort` (universe levels dropped).

`fun x => b` reads as `b`, `∃ x, p` as `app(const("Exists"), p)`, `(e : T)` as `e`, tuples
and anonymous constructors as `VAR`. Notation comes from fixed tables; a name that looks
like a variable (`R`, `M₁`, `α'`, `𝕜`) and is not bound reads as `VAR`, as does generalized
field notation on a local (`x.foo` is `app(const("foo"), VAR)`).
"""

from __future__ import annotations

import re

from search.corpus.lean.syntax import TERM_BRACKETS, Token, group_end, split_name

Expr = tuple
VAR: Expr = ("v",)


def const(name: str) -> Expr:
    """The constant `name`."""
    return ("c", name)


def app(f: Expr, *args: Expr) -> Expr:
    """`f` applied to `args`, one at a time."""
    for a in args:
        f = ("a", f, a)
    return f


def pi(domain: Expr, body: Expr) -> Expr:
    """`domain → body`."""
    return ("f", domain, body)


def sort(name: str) -> Expr:
    """`Prop`, `Type` or `Sort`."""
    return ("s", name)


NUMERAL = app(const("OfNat.ofNat"), VAR, VAR)

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
#: Function-like notation written glued to its parenthesised arguments: `C(α, β)`.
_GLUED_CALLS = {
    "C": "ContinuousMap", "C_c": "CompactlySupportedContinuousMap", "C₀": "ZeroAtInftyContinuousMap",
}
_BINDER_WORDS = {"fun", "λ", "∀", "Π", "∃", "∃!", "Σ", "∑", "∏", "⋃", "⋂", "⨆", "⨅"}
_STOP = TERM_BRACKETS.closing | {",", ":", ":=", "=>", "↦", "|", "where", "with", "then", "else"}
#: Tokens that may follow an atom without a space and still be ordinary syntax.
_GLUED_OK = TERM_BRACKETS.closing | {",", "(", ":"}
_SCRIPT_RE = re.compile(r"[\u2100-\u214f\U0001d400-\U0001d7ff]+\Z")
_UNIVERSE_RE = re.compile(r"[uvw][0-9_'\u2080-\u2089]*\Z")
_VAR_RE = re.compile(
    r"[A-Za-z\u0370-\u03ff\u2100-\u214f\U0001d400-\U0001d7ff][0-9'\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a]*\Z"
)


class _Reader:
    """A forgiving precedence parser over term tokens (see the module docstring)."""

    def __init__(self, toks: list[Token], bound: set[str]) -> None:
        self.toks = toks
        self.i = 0
        self.bound = bound

    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def skip_group(self) -> None:
        """Skip a bracketed group starting at the current opening bracket."""
        self.i = group_end(self.toks, self.i, brackets=TERM_BRACKETS)

    def expr(self, min_prec: int = 0) -> Expr:
        left = self.prefix()
        while (t := self.peek()) is not None:
            if t.text in _BRACKET_INFIX and min_prec <= 25:
                self.i += 1
                name, via_id = _BRACKET_INFIX[t.text]
                ring = self.expr(0)
                if (c := self.peek()) is not None and c.text == "]":
                    self.i += 1
                right = self.expr(25)
                ring = app(const("RingHom.id"), ring) if via_id else ring
                left = app(const(name), ring, left, right)
                continue
            if t.text in ("<|", "|>") and min_prec <= 10:
                self.i += 1
                right = self.expr(10)
                left = app(left, right) if t.text == "<|" else app(right, left)
                continue
            op = _INFIX.get(t.text)
            if op is None or op[0] < min_prec:
                return left
            prec, right_assoc, head = op
            self.i += 1
            nxt = self.peek()
            if nxt is None or nxt.text in _STOP:
                return VAR  # postfix use of an operator symbol: notation such as `β*`
            if not nxt.spaced and nxt.text not in ("(", "-", "¬", "↑", "⇑", "↥"):
                # A decorated arrow such as `α →ₛ β` or `G ≃+c[a, b] H`: unknown notation.
                self.skip_glued()
                self.expr(prec if right_assoc else prec + 1)
                left = VAR
                continue
            right = self.expr(prec if right_assoc else prec + 1)
            left = pi(left, right) if head == _FORALL else app(const(head), left, right)
        return left

    def prefix(self) -> Expr:
        t = self.peek()
        if t is None:
            return VAR
        if t.text in _BINDER_WORDS:
            return self.binder_expr(t.text)
        if t.text == "¬":
            self.i += 1
            return app(const("Not"), self.expr(40))
        if t.text == "-":
            self.i += 1
            return app(const("Neg.neg"), self.expr(75))
        return self.application()

    def binder_expr(self, word: str) -> Expr:
        """`fun x => b` names as `b`; `∀ x, b` as a pi whose type is hidden when `b`
        mentions `x` (all written binders are assumed used); `∃ x, p` as `Exists p`."""
        self.i += 1
        names: list[str] = []
        while (t := self.peek()) is not None and t.text not in (",", "=>", "↦"):
            if t.text in TERM_BRACKETS.opening:
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
            return pi(VAR, body)
        if word in ("∃", "∃!"):
            return app(const("Exists"), body)
        return body

    def application(self) -> Expr:
        head = self.atom()
        while (t := self.peek()) is not None and self.starts_atom(t):
            head = app(head, self.atom())
        return head

    @staticmethod
    def starts_atom(t: Token) -> bool:
        if t.text in _STOP or t.text in _INFIX or t.text in _BRACKET_INFIX or t.text in _POSTFIX:
            return False
        return (t.kind in ("ident", "num", "string") or t.text in TERM_BRACKETS.opening or t.text in _BINDER_WORDS
                or t.text in _NOTATION_CONSTS or t.text in ("_", "?_", "@", "↑", "⇑", "↥", "·"))

    def atom(self) -> Expr:
        e = self.atom_core()
        while (t := self.peek()) is not None:
            if t.text in _POSTFIX:
                self.i += 1
                e = app(const(_POSTFIX[t.text]), e)
            elif t.text == "." and not t.spaced and (f := self.peek(1)) is not None and f.kind == "ident" \
                    and not f.spaced:
                # Generalized field notation on a term: `(Gamma1 N).FiniteIndex`.
                self.i += 2
                for part in split_name(f.text):
                    e = app(const(part), e)
            elif not t.spaced and t.kind != "ident" and t.text not in _GLUED_OK:
                # Unknown notation glued to the atom (`R≥0`, `X[S⁻¹]`, `x.1`): unnameable.
                self.skip_glued()
                e = VAR
            else:
                return e
        return e

    def skip_glued(self) -> None:
        """Skip the run of tokens glued together (no whitespace) from the current one."""
        first = True
        while (t := self.peek()) is not None and (first or not t.spaced) and t.text not in TERM_BRACKETS.closing:
            first = False
            if t.text in TERM_BRACKETS.opening:
                self.skip_group()
            else:
                self.i += 1

    def atom_core(self) -> Expr:
        t = self.peek()
        if t is None:
            return VAR
        self.i += 1
        if t.text in ("@", "↑", "⇑", "↥"):
            return self.atom()
        if t.text in _BINDER_WORDS:
            self.i -= 1
            return self.binder_expr(t.text)
        if t.text in _NOTATION_CONSTS:
            return const(_NOTATION_CONSTS[t.text])
        if t.kind == "num":
            return NUMERAL
        if t.text == "(":
            return self.paren()
        if t.text in TERM_BRACKETS.opening:
            self.i -= 1
            self.skip_group()
            return VAR
        if t.kind == "ident":
            return self.identifier(t.text)
        return VAR

    def paren(self) -> Expr:
        """`(e)`, `(e : T)` (ascription: just `e`), tuples (unnamed)."""
        e = self.expr(0)
        t = self.peek()
        if t is not None and t.text not in (")", ":"):
            e = VAR
        self.i = group_end(self.toks, self.i, inside=True, brackets=TERM_BRACKETS)
        return e

    def identifier(self, name: str) -> Expr:
        if name in ("Type", "Sort", "Prop"):
            nxt = self.peek()
            if name != "Prop" and nxt is not None:
                if nxt.text in ("*", "_") or _UNIVERSE_RE.match(nxt.text):
                    self.i += 1
                elif nxt.text == "(":
                    self.skip_group()
            return sort(name)
        if name in ("_", "sorry"):
            return VAR
        nxt = self.peek()
        if name in _GLUED_CALLS and nxt is not None and nxt.text == "(" and not nxt.spaced:
            return self.glued_call(_GLUED_CALLS[name])
        parts = split_name(name)
        if self.is_local(parts[0]):
            # Generalized field notation `x.foo`: the constant is `T.foo` for `x : T`.
            return app(const(parts[-1]), VAR) if len(parts) > 1 else VAR
        return const(".".join(parts))

    def glued_call(self, name: str) -> Expr:
        self.i += 1
        e = const(name)
        while (t := self.peek()) is not None and t.text != ")":
            e = app(e, self.expr(0))
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


def parse_expr(tokens: list[Token], bound: set[str]) -> Expr:
    """The expression the tokens of a term start with. `bound`: names that are locals
    (binders around the term); the names the term binds itself (`fun x`, `∀ y`) are added."""
    return _Reader(tokens, bound).expr(0)


def peel_foralls(e: Expr) -> tuple[list[Expr], Expr]:
    """`A → B → C` -> `([A, B], C)`."""
    binders = []
    while e[0] == "f":
        binders.append(e[1])
        e = e[2]
    return binders, e
