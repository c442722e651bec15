"""Lean terms read from source text as small expression trees (no elaboration).

A forgiving precedence parser turns the tokens of a term (`syntax.term_tokens`) into a tree of
hashable tuples, so that equal subterms compare and hash equal:

* `VAR` = `("v",)`: anything that names no constant: a hole (`_`, `?_`), `sorry`, unknown
  notation, and (read for names, below) every bound or local name;
* `const(name)` = `("c", name)`: a constant as written (`Nat.succ`) or as notation
  elaborates it (`a + b` is `HAdd.hAdd a b`, `ℝ` is `Real`, a numeral is `OfNat.ofNat _ _`);
* `app(f, x, y)` = `("a", ("a", f, x), y)`: application, one argument at a time;
* `pi(domain, body)` = `("f", domain, body)`: `domain → body`, and a `∀`;
* `sort(name)` = `("s", name)`: `Prop`, `Type` or `Sort` (universe levels dropped).

Two readings (`Reading`) share the parser:

* `NAMES`, the name Lean gives an unnamed instance (`instance_names`): every local is one
  `VAR`, as Lean's instance naming maps every free variable to `.bvar 0`; a `∀` over named
  binders is `pi(VAR, body)` (the binders dropped, the body kept); only the first group of
  tables of `notation` is read;
* `TERMS`, the structure Loogle's patterns are matched against (`search.engine.patterns`): a
  local keeps its name, `local(x)` = `("l", x)`; each binder of a `∀` is a `pi` of its type
  (`pi(VAR, ...)` when none is written), and a binder predicate one more (`∀ x ∈ s, p` is
  `∀ x, x ∈ s → p`); `?a` is a named hole `hole(a)` = `("?", a)`; a numeral keeps its value,
  `app(const("OfNat.ofNat"), literal("2"))` with `literal(t)` = `("n", t)`; all of
  `notation`'s tables are read, and these forms: `if c then a else b` (`ite c a b`; `dite`
  with `if h : c`), `{x | p x}` (`setOf`), `{x ∈ s | p x}` (`setOf (x ∈ s ∧ p x)`),
  `{x // p x}` (`Subtype`), `{a, b}` (`Insert.insert a (Singleton.singleton b)`), `[a, b]`
  (`List.cons a (List.cons b List.nil)`), `(a, b)` (`Prod.mk a b`), `𝓝[s] x`
  (`nhdsWithin x s`; `𝓝[>] x` is `nhdsWithin x (Set.Ioi x)`: `notation.NEIGHBOURHOOD_SIDES`),
  `⁅a, b⁆` and `⟪a, b⟫_𝕜` (`notation.PAIRS`), operators the tokenizer splits (`f ∘ₗ g`,
  `f =ᵐ[μ] g`, `R[X]`: `notation.DECORATED_INFIX`, `notation.EVENTUALLY`,
  `notation.GLUED_POSTFIX`), `x.foo` on a variable bound with type `T ...` as `T.foo x`, and a
  named argument `f (a := x)` as `f` (it sets an argument out of order).
  With `strict`, what the forgiving parser would skip (unknown notation, an unclosed
  bracket, tokens left over) is a `ParseError` saying where.

`WORDS` reads as `TERMS` does, with binders that keep their names (`named_pi`, `lam`), and
says what a reading without types cannot name: `p.1` is `Prod.fst p` (`Subtype.val p` when `p`'s
type is a variable's, `p : ↥S`), `.ofReal x` is `ofReal x` (its namespace is the expected
type's), `(↑)` is `notation.COERCION`, `⟨x, hx⟩` is `notation.ANONYMOUS_CONSTRUCTOR` applied to
`x` and `hx`; all are `VAR` in `TERMS`. It leaves out the structure a predicate is taken in
(`IsClosed[t] s` is `IsClosed s`).

In every reading, `(e : T)` reads as `e`, anonymous constructors as `VAR` but in `WORDS`, and
`fun x => b` as `b` except in `WORDS`; a name that looks like a variable (`R`, `M₁`, `α'`, `𝕜`) and is not
bound reads as a local, as does generalized field notation on a local (`x.foo` is
`app(const("foo"), x)`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Mapping

from search.corpus.lean.notation import (
    ADJOIN,
    AE,
    ALMOST_EVERYWHERE,
    ANONYMOUS_CONSTRUCTOR,
    ARROW,
    BINDERS,
    BOUNDED_DOMAINS,
    BRACKET_INFIX,
    BRACKET_PRECEDENCE,
    COERCION,
    CONGRUENCE,
    CONGRUENCE_PRECEDENCE,
    CONGRUENCES,
    CONSTANTS,
    DECORATED_INFIX,
    ENCLOSING,
    EVENTUALLY,
    EVENTUALLY_PRECEDENCE,
    GLUED_BRACKETS,
    GLUED_CALLS,
    GLUED_CONSTANTS,
    GLUED_POSTFIX,
    INDEXED,
    INDEXED_TYPES,
    INFIX,
    ITERATE,
    MEASURE_PRECEDENCE,
    NEGATED,
    NEIGHBOURHOOD_SIDES,
    NHDS_WITHIN,
    ORE_LOCALIZATION,
    PAIRS,
    PARTS,
    POSTFIX,
    PREFIX,
    RESTRICT,
    REVERSED,
    SHIFT,
    SWAPPED,
    TERM_CONSTANTS,
    TERM_INFIX,
    TERM_POSTFIX,
    VECTOR,
    VOLUME,
    Binder,
)
from search.corpus.lean.syntax import TERM_BRACKETS, Brackets, Token, find_top_level, group_end, split_name, term_tokens

Expr = tuple
VAR: Expr = ("v",)
#: `WORDS`: what the reader could not read (unknown notation, tokens left after a statement): said
#: "…" and never left out, where a `VAR` hole may be (`TERMS` reads it as `VAR`, a pattern's wildcard).
UNREAD: Expr = ("v", "unread")


def const(name: str) -> Expr:
    """The constant `name`."""
    return ("c", name)


def app(f: Expr, *args: Expr) -> Expr:
    """`f` applied to `args`, one at a time."""
    for a in args:
        f = ("a", f, a)
    return f


def unapply(e: Expr) -> tuple[Expr, list[Expr]]:
    """An application's function and its arguments, in order (`app`'s inverse)."""
    args = []
    while e[0] == "a":
        args.append(e[2])
        e = e[1]
    return e, args[::-1]


def pi(domain: Expr, body: Expr) -> Expr:
    """`domain → body`."""
    return ("f", domain, body)


def sort(name: str) -> Expr:
    """`Prop`, `Type` or `Sort`."""
    return ("s", name)


def local(name: str) -> Expr:
    """A bound or local variable (`Reading.TERMS`)."""
    return ("l", name)


def hole(name: str) -> Expr:
    """A named hole `?name` of a pattern: every occurrence stands for the same term."""
    return ("?", name)


def literal(text: str) -> Expr:
    """A numeral's value (`Reading.TERMS`)."""
    return ("n", text)


def named_pi(name: str, domain: Expr, body: Expr, bracket: str = "") -> Expr:
    """`∀ name : domain, body` with its variable's name and, for a declaration's binder, the
    bracket it is written in (`(`, `{`, `[`, `⦃`) (`Reading.WORDS`)."""
    return ("Π", name, domain, body, bracket)


def lam(name: str, body: Expr) -> Expr:
    """`fun name => body` (`Reading.WORDS`)."""
    return ("λ", name, body)


NUMERAL = app(const("OfNat.ofNat"), VAR, VAR)


class Reading(Enum):
    """What a reader keeps of a term (module docstring)."""

    NAMES = "names"
    TERMS = "terms"
    WORDS = "words"


class ParseError(ValueError):
    """A term a strict reader cannot read: what went wrong, and at which token."""

    def __init__(self, message: str, token: Token | None) -> None:
        super().__init__(message)
        self.message = message
        self.token = token


#: Binder notation of the `NAMES` reading: each reads as its body.
_NAME_BINDERS = {"fun", "λ", "∀", "Π", "∃", "∃!", "Σ", "∑", "∏", "⋃", "⋂", "⨆", "⨅"}
#: Binder notation of the `TERMS` reading besides `notation.BINDERS` (`∑ i ∈ s,`, `∫ x in a..b,`):
#: with them, the words that bind names in a term.
TERM_BINDERS = {"fun", "λ", "∀", "Π", "∃", "∃!", "Σ"}
_QUANTIFIERS = {"∃": "Exists", "∃!": "ExistsUnique", "Σ": "Sigma"}
#: What can follow binder names as a predicate: `∀ x ∈ s`, `∑ i < n`, `∀ᶠ x in l`.
BINDER_PREDICATES = {"∈", "∉", "⊆", "⊂", "<", "≤", ">", "≥", "≠", "∣", "in"}
_STOP = TERM_BRACKETS.closing | {",", ":", ":=", "=>", "↦", "|", "where", "with", "then", "else"}
#: Keywords that end a term in the `TERMS` reading (`∀ᶠ x in l`, `{x // p x}`, `∫ x in a..b`).
_TERM_STOP = {"in", "//", "..", "∂"}
#: Tokens that may follow an atom without a space and still be ordinary syntax.
_GLUED_OK = TERM_BRACKETS.closing | {",", "(", ":"}
#: Tokens that may follow an operator without a space in `NAMES` (others mark a decorated
#: arrow such as `α →ₛ β`, unknown notation).
_GLUED_OPERAND = {"(", "-", "¬", "↑", "⇑", "↥"}
#: Names for the variables of a section `(· + a)` (`WORDS`), the first the statement does not write.
_SECTION_NAMES = ("x", "y", "z", "t", "u", "v", "w")
#: `p.1`, `p.2` (`WORDS`): the components of a pair, as a projection's number names them, and of a
#: subtype, for a variable whose type is neither a pair's nor unknown (`x : ↥S`: `x.1` is its element).
_PROJECTIONS = {"1": "Prod.fst", "2": "Prod.snd"}
_SUBTYPE_PROJECTIONS = {"1": "Subtype.val", "2": "Subtype.property"}
_PAIR_TYPES = frozenset({"Prod", "Sigma", "PSigma"})
#: The groups the `TERMS` and `WORDS` readings skip over: also the `]` of `M →ₗ[R] N`, whose `→ₗ[`
#: is one token (`((↑) : (A →ₐ[R] B) → C)`: that `]` closes no parenthesis).
_TERM_GROUPS = Brackets({**TERM_BRACKETS.opening, **{symbol: "]" for symbol in BRACKET_INFIX}})
#: What closes a pair (`⁆`, `⟫`), glued to the term before it.
_PAIR_CLOSINGS = frozenset(closing for closing, _, _ in PAIRS.values())
#: Notation the tokenizer splits, which the `TERMS` and `WORDS` readings join from glued tokens.
_GLUED_TABLES = (DECORATED_INFIX, EVENTUALLY, ALMOST_EVERYWHERE, GLUED_CONSTANTS, GLUED_BRACKETS, GLUED_POSTFIX,
                 PARTS)
#: Binary notation among them, looked up once at each operator.
_GLUED_OPERATORS = {**DECORATED_INFIX, **EVENTUALLY}
#: The characters their entries start with: a token that starts with none spells none.
_GLUED_STARTS = frozenset(k[0] for table in _GLUED_TABLES for k in table)
#: Tokens an entry spans at most (`→ₙ+*`: `→` `ₙ` `+` `*`).
_LONGEST_GLUED = max(len(term_tokens(k)) for table in _GLUED_TABLES for k in table)
_SCRIPT_RE = re.compile(r"[\u2100-\u214f\U0001d400-\U0001d7ff]+\Z")
_UNIVERSE_RE = re.compile(r"[uvw][0-9_'\u2080-\u2089]*\Z")
_VAR_RE = re.compile(
    r"[A-Za-z\u0370-\u03ff\u2100-\u214f\U0001d400-\U0001d7ff][0-9'\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a]*\Z"
)


@dataclass
class _Binding:
    """Names bound together, with their type and predicate (`x y : T`, `x ∈ s`)."""

    names: list[str]
    type: Expr | None = None
    relation: str = ""
    bound: Expr | None = None
    #: `∑ x ∈ s with p x`: the filter.
    condition: Expr | None = None
    #: `∫ x in a..b`: the interval's upper end (`bound` is the lower).
    upper: Expr | None = None
    #: The bracket of a declaration's binder group (`(`, `{`, `[`, `⦃`), "" for bare names.
    bracket: str = ""


class _Reader:
    """A forgiving precedence parser over term tokens (see the module docstring)."""

    def __init__(self, toks: list[Token], bound: set[str], reading: Reading = Reading.NAMES,
                 strict: bool = False, receivers: Mapping[str, int] | None = None) -> None:
        self.toks = toks
        self.i = 0
        self.bound = bound
        self.terms = reading in (Reading.TERMS, Reading.WORDS)
        #: `WORDS`: binders keep their variables' names (`named_pi`, `lam`), for saying a
        #: statement in words (search/corpus/lean/informal).
        self.words = reading is Reading.WORDS
        self.strict = strict
        #: What a term the reader cannot read is (`unread`).
        self.unknown = UNREAD if self.words else VAR
        self.infix = {**INFIX, **TERM_INFIX} if self.terms else INFIX
        self.groups = _TERM_GROUPS if self.terms else TERM_BRACKETS
        self.postfix = {**POSTFIX, **TERM_POSTFIX} if self.terms else POSTFIX
        self.constants = {**CONSTANTS, **TERM_CONSTANTS} if self.terms else CONSTANTS
        self.binder_words = TERM_BINDERS | BINDERS.keys() if self.terms else _NAME_BINDERS
        #: The head constant of each bound variable's type, as written (`TERMS`), for `x.foo`;
        #: "" for a type that a variable heads (`x : ↥S`, `x : s`).
        self.types: dict[str, str] = {}
        #: The bound variables that are types (`(K : Type*)`).
        self.sorts: set[str] = set()
        #: `WORDS`: the names still to give the `·` of each parenthesised section being read.
        self.sections: list[list[str]] = []
        #: `WORDS`: where `x.foo` puts `x` among `T.foo`'s explicit arguments when not first
        #: (search/corpus/lean/lexicon.py `receiver_position`), and the last term read so.
        self.receivers: Mapping[str, int] = receivers or {}
        self.dotted: Expr | None = None

    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def fail(self, message: str, token: Token | None = None) -> None:
        """In a strict reader, stop with `message` at `token` (the current one by default)."""
        if self.strict:
            raise ParseError(message, token if token is not None else self.peek())

    def unread(self, message: str, token: Token | None = None) -> Expr:
        """What stands for a term the reader cannot read: `fail`, then `UNREAD` in `WORDS`,
        `VAR` otherwise."""
        self.fail(message, token)
        return self.unknown

    def expect(self, text: str, opener: Token | None = None) -> None:
        """Step over `text`, which must come next (in a strict reader)."""
        t = self.peek()
        if t is not None and t.text == text:
            self.i += 1
        elif opener is not None:
            self.fail(f"'{opener.text}' is not closed: expected '{text}'", t or opener)
        else:
            self.fail(f"expected '{text}'" + (f", found '{t.text}'" if t else " at the end"), t)

    def skip_group(self) -> None:
        """Skip a bracketed group starting at the current opening bracket."""
        opener = self.peek()
        self.i = group_end(self.toks, self.i, brackets=self.groups)
        if self.strict and opener is not None and self.toks[self.i - 1].text != self.groups.opening[opener.text]:
            self.fail(f"'{opener.text}' is not closed", opener)

    def expr(self, min_prec: int = 0) -> Expr:
        left = self.prefix()
        while (t := self.peek()) is not None:
            if t.text in BRACKET_INFIX and min_prec <= BRACKET_PRECEDENCE:
                left = self.bracketed(left, 1, *BRACKET_INFIX[t.text], BRACKET_PRECEDENCE)
                continue
            if self.terms and (symbol := self.glued_symbol(_GLUED_OPERATORS)):
                text, width = symbol
                if text in EVENTUALLY:
                    if EVENTUALLY_PRECEDENCE < min_prec:
                        return left
                    left = self.bracketed(left, width, *EVENTUALLY[text], EVENTUALLY_PRECEDENCE + 1)
                    continue
                prec, right_assoc, head = DECORATED_INFIX[text]
                if prec < min_prec:
                    return left
                self.i += width
                left = app(const(head), left, self.expr(prec if right_assoc else prec + 1))
                continue
            if self.terms and t.text == CONGRUENCE and min_prec <= CONGRUENCE_PRECEDENCE:
                left = self.congruence(left)
                continue
            if t.text in ("<|", "|>") and min_prec <= 10:
                self.i += 1
                right = self.expr(10)
                left = app(left, right) if t.text == "<|" else app(right, left)
                continue
            op = self.infix.get(t.text)
            if op is None or op[0] < min_prec:
                return left
            prec, right_assoc, head = op
            self.i += 1
            nxt = self.peek()
            if nxt is None or (nxt.text in _STOP and not (self.terms and self.opens_enclosure())):
                return self.unread(f"'{t.text}' needs a term on its right", t)  # postfix use: `β*`
            if self.decorated(nxt, prec):
                # A decorated arrow such as `α →ₛ β` or `G ≃+c[a, b] H`: unknown notation.
                left = self.unread(f"unknown notation '{t.text}{nxt.text}'", t)
                self.skip_glued()
                self.expr(prec if right_assoc else prec + 1)
                continue
            if self.terms and nxt.text == "[" and not nxt.spaced:
                self.skip_group()  # `x ⊗ₜ[R] y`: the ring the notation names, which its constant leaves out
            right = self.expr(prec if right_assoc else prec + 1)
            left = self.binary(t.text, head, left, right)
        return left

    def congruence(self, left: Expr) -> Expr:
        """`a ≡ b [MOD n]` (`notation.CONGRUENCES`), the current token being `≡`: the relation
        applied to the modulus and both sides; unknown without a bracket the table names."""
        symbol = self.peek()
        self.i += 1
        right = self.expr(CONGRUENCE_PRECEDENCE + 1)
        if not self.modulus_next():
            return self.unread(f"'{CONGRUENCE}' needs a modulus such as '[MOD n]'", symbol)
        opener, word = self.peek(), self.peek(1)
        self.i += 2
        modulus = self.expr(0)
        self.expect("]", opener)
        return app(const(CONGRUENCES[word.text]), modulus, left, right)

    def modulus_next(self) -> bool:
        """Whether `[MOD n]`, `[ZMOD n]`, ... comes next: a congruence's modulus, no argument."""
        t, word = self.peek(), self.peek(1)
        return t is not None and t.text == "[" and word is not None and word.text in CONGRUENCES \
            and not word.spaced

    def vector_next(self, k: int = 0) -> bool:
        """Whether a vector `![a, b]` opens `k` tokens from the current one."""
        t, bracket = self.peek(k), self.peek(k + 1)
        return t is not None and t.text == "!" and bracket is not None and bracket.text == "[" and not bracket.spaced

    def bracketed(self, left: Expr, width: int, name: str, via: str, right_prec: int) -> Expr:
        """`M →ₗ[R] N`, `f =ᵐ[μ] g` (the notation `width` tokens long): the constant applied to the
        bracket's term (through `via`, when there is one) and to both sides."""
        opener = self.peek()
        self.i += width
        inside = self.expr(0)
        self.expect("]", opener)
        right = self.expr(right_prec)
        return app(const(name), app(const(via), inside) if via else inside, left, right)

    def glued_symbol(self, table: dict) -> tuple[str, int] | None:
        """The longest entry of `table` that the current token and those glued to it spell
        (`=` `ᶠ` `[` is `=ᶠ[`), with how many tokens it takes; None if they spell none."""
        toks, i = self.toks, self.i
        if i >= len(toks) or toks[i].text[0] not in _GLUED_STARTS:
            return None  # asked at every operator and atom: most tokens start no entry
        text, ends = "", {}
        for k, t in enumerate(toks[i:i + _LONGEST_GLUED]):
            if k and t.spaced:
                break
            text += t.text
            ends[len(text)] = k + 1
        return next(((text[:n], k) for n, k in sorted(ends.items(), reverse=True) if text[:n] in table), None)

    def decorated(self, nxt: Token, prec: int) -> bool:
        """Whether the operand glued to an operator is a decoration of the operator."""
        if nxt.spaced or nxt.text in _GLUED_OPERAND:
            return False
        if not self.terms:
            return True
        # `a*b`, `2^n`, `?a→?b` are ordinary; a letter or subscript glued to an arrow-like
        # operator (`≃+c[a, b]`, `→ₛ`) is a decoration.
        after = self.peek(1)
        if nxt.kind in ("ident", "num") or nxt.text in ("?", "?_") or nxt.text in TERM_BRACKETS.opening:
            return prec <= 26 and nxt.kind == "ident" and after is not None and not after.spaced \
                and after.text == "["
        return nxt.kind == "other" and nxt.text not in PREFIX and nxt.text not in ENCLOSING

    def binary(self, symbol: str, head: str, left: Expr, right: Expr) -> Expr:
        """The term `left symbol right` stands for."""
        if head == ARROW:
            return pi(left, right)
        if not self.terms:
            return app(const(head), left, right)
        if symbol in SWAPPED:
            return app(const(SWAPPED[symbol]), right, left)
        term = app(const(head), right, left) if symbol in REVERSED else app(const(head), left, right)
        return app(const("Not"), term) if symbol in NEGATED else term

    def prefix(self) -> Expr:
        t = self.peek()
        if t is None:
            return self.unread("expected a term at the end")
        if self.terms and (symbol := self.glued_symbol(ALMOST_EVERYWHERE)):
            return self.almost_everywhere(*symbol)
        if t.text in self.binder_words and not (self.terms and self.glued_symbol(GLUED_CONSTANTS)) and self.binds():
            return self.binder_expr(t.text)
        if t.text == "¬":
            self.i += 1
            return app(const("Not"), self.expr(40))
        if t.text == "-":
            self.i += 1
            return app(const("Neg.neg"), self.expr(75))
        if self.terms and t.text in PREFIX:
            self.i += 1
            name, prec = PREFIX[t.text]
            if prec < 1024:
                return app(const(name), self.expr(prec))
            head = app(const(name), self.atom())  # `⅟a x`: a term of its own, applied to what follows
            while (t := self.peek()) is not None and self.starts_atom(t):
                head = app(head, self.atom())
            return head
        return self.application()

    def binder_expr(self, word: str) -> Expr:
        """`fun x => b` names as `b`; `∀ x, b` as a pi whose type is hidden when `b`
        mentions `x` (all written binders are assumed used); `∃ x, p` as `Exists p`."""
        if self.terms:
            return self.term_binder(word)
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

    def term_binder(self, word: str) -> Expr:
        """A binder notation read for its structure (`Reading.TERMS`)."""
        start = self.peek()
        self.i += 1
        if (t := self.peek()) is not None and t.text == "[" and not t.spaced:
            self.skip_group()  # `∑'[L] x, f x`: a summation filter
        bindings = self.bindings(bare=True)
        t = self.peek()
        if t is not None and t.text in (",", "=>", "↦"):
            self.i += 1
        else:
            self.fail(f"expected ',' after the variables of '{word}'", t or start)
        notation = BINDERS.get(word)
        body = self.expr(notation.body_precedence if notation else 0)
        if word in ("∀", "Π"):
            for b in reversed(bindings):
                for name in reversed(b.names):
                    if b.relation:
                        body = pi(self.predicate(name, b), body)
                    body = named_pi(name, b.type or VAR, body) if self.words else pi(b.type or VAR, body)
            return body
        if word in _QUANTIFIERS:
            for b in reversed(bindings):
                for name in reversed(b.names):
                    inner = app(const("And"), self.predicate(name, b), body) if b.relation else body
                    body = app(const(_QUANTIFIERS[word]), self.bind(name, inner))
            return body
        if notation is None:  # fun, λ
            for b in reversed(bindings) if self.words else ():
                for name in reversed(b.names):
                    body = lam(name, body)
            return body
        return self.apply_binder(notation, bindings, body)

    def almost_everywhere(self, symbol: str, width: int) -> Expr:
        """`∀ᵐ x ∂μ, p x` (`notation.ALMOST_EVERYWHERE`)."""
        self.i += width
        bindings = self.bindings(bare=True, stop=(",", "∂"))
        measure = const(VOLUME)
        if (t := self.peek()) is not None and t.text == "∂":
            self.i += 1
            measure = self.expr(0)
        self.expect(",")
        body = self.expr(0)
        for b in reversed(bindings):
            for name in reversed(b.names):
                body = app(const(ALMOST_EVERYWHERE[symbol]), self.bind(name, body), app(const(AE), measure))
        return body

    def bind(self, name: str, body: Expr) -> Expr:
        """`body` as the function of `name` it is (`WORDS`), or as it is."""
        return lam(name, body) if self.words else body

    def apply_binder(self, notation: Binder, bindings: list[_Binding], body: Expr) -> Expr:
        """The constant of a binder notation applied as its `shape` says (`notation.Binder`)."""
        c = const(notation.constant)
        if notation.shape == "integral" and self.words and bindings and bindings[0].names:
            body = lam(bindings[0].names[0], body)
        if notation.shape == "integral":
            measure = VAR
            if (t := self.peek()) is not None and t.text == "∂":
                self.i += 1
                measure = self.expr(MEASURE_PRECEDENCE)
            b = bindings[0] if bindings else _Binding([])
            if b.upper is not None and b.bound is not None:
                if not notation.interval:
                    return self.unread(f"no interval form of '{notation.constant}' is known")
                return app(const(notation.interval), body, b.bound, b.upper,
                           const(VOLUME) if measure == VAR else measure)
            measure = const(VOLUME) if measure == VAR else measure
            if b.relation and b.bound is not None:
                measure = app(const(RESTRICT), measure, b.bound)
            return app(c, measure, body)
        for b in reversed(bindings):
            for name in reversed(b.names):
                if notation.shape == "finset":
                    if b.relation in ("∈", "in") and b.bound is not None:
                        domain = b.bound
                    elif b.relation in BOUNDED_DOMAINS and b.bound is not None:
                        domain = app(const(BOUNDED_DOMAINS[b.relation]), b.bound)
                    else:
                        domain = const(notation.universe)
                    if b.condition is not None:
                        domain = app(const("Finset.filter"), b.condition, domain)
                    body = app(c, domain, self.bind(name, body))
                elif notation.shape == "filter":
                    body = app(c, self.bind(name, body), b.bound if b.bound is not None else VAR)
                else:
                    if b.relation:
                        body = app(c, self.bind(name, body))
                    body = app(c, self.bind(name, body))
        return body

    def predicate(self, name: str, b: _Binding) -> Expr:
        """The proposition a binder predicate stands for: `x ∈ s` for `∀ x ∈ s`."""
        relation = "∈" if b.relation == "in" else b.relation
        return self.binary(relation, self.infix[relation][2], local(name), b.bound or VAR)

    def bindings(self, bare: bool, stop: tuple[str, ...] = (",", "=>", "↦")) -> list[_Binding]:
        """The binders up to one of `stop` (`bare`: names without brackets too, as after
        `∀`), each name bound as it is read, so that later types may mention it."""
        out: list[_Binding] = []
        while (t := self.peek()) is not None and t.text not in stop:
            if t.text in TERM_BRACKETS.opening:
                out.append(self.binder_group())
            elif bare and t.kind == "ident":
                names = []
                while (t := self.peek()) is not None and t.kind == "ident" and t.text not in ("in", "with"):
                    names.append(t.text)
                    self.i += 1
                self.bound.update(names)
                b = _Binding(names)
                if t is not None and t.text == ":":
                    self.i += 1
                    b.type = self.expr(0)
                    self.remember_types(names, b.type)
                    t = self.peek()
                if t is not None and t.text in BINDER_PREDICATES:
                    self.i += 1
                    b.relation = t.text
                    b.bound = self.expr(51) if t.text != "in" else self.expr(0)
                    if (t := self.peek()) is not None and t.text == "..":
                        self.i += 1
                        b.upper = self.expr(0)
                if (t := self.peek()) is not None and t.text == "with":
                    self.i += 1
                    b.condition = self.expr(0)
                out.append(b)
            else:
                self.fail(f"unexpected '{t.text}' among binders", t)
                if not bare:
                    break
                self.i += 1
        return out

    def binder_group(self) -> _Binding:
        """`(x y : T)`, `{x : T}`, `⦃x⦄`, `[C x]`, `[inst : C x]`, `⟨a, b⟩` (names only)."""
        opener = self.peek()
        assert opener is not None
        end = group_end(self.toks, self.i, brackets=self.groups)
        inner = self.toks[self.i + 1:end - 1]
        # the colon after the group's names, none inside a term (`[∀ {i j} (f : i ⟶ j), P f]`)
        colon = find_top_level(inner, 0, len(inner), (":",), self.groups)
        if colon == len(inner) or not all(t.kind == "ident" for t in inner[:colon]):
            colon = None
        if opener.text == "⟨" or (colon is None and opener.text != "["):
            names = [t.text for t in inner if t.kind == "ident"]
            self.bound.update(names)
            self.skip_group()
            return _Binding(names, bracket=opener.text)
        names = [t.text for t in inner[:colon] if t.kind == "ident"] if colon is not None else []
        self.i += 1 + (colon + 1 if colon is not None else 0)
        type_ = self.expr(0)
        self.bound.update(names)
        self.remember_types(names, type_)
        self.i = group_end(self.toks, self.i, inside=True, brackets=self.groups)
        if self.strict and self.toks[self.i - 1].text != self.groups.opening[opener.text]:
            self.fail(f"'{opener.text}' is not closed", opener)
        # An instance binder `[C x]` is a hypothesis without a name.
        return _Binding(names or ["_"], type_, bracket=opener.text)

    def remember_types(self, names: list[str], type_: Expr) -> None:
        if type_[0] == "s":
            self.sorts.update(names)
        head = type_
        while head[0] == "a":
            head = head[1]
        if head[0] in ("c", "l"):
            for name in names:
                self.types[name] = head[1] if head[0] == "c" else ""

    def application(self) -> Expr:
        head = self.atom()
        dotted = head is self.dotted
        while (t := self.peek()) is not None and self.starts_atom(t):
            if self.terms and self.named_argument():
                # `f (a := x)` sets an argument by its name, none in order; `f (a := x).foo` is
                # `(f (a := x)).foo`
                self.skip_group()
                head = self.postfixed(head)
                dotted = False
                continue
            head = app(head, self.atom())
        return self.receiver_placed(head) if dotted else head

    def receiver_placed(self, e: Expr) -> Expr:
        """`x.foo a b` (read as `T.foo x a b`) with `x` where Lean puts it, when the
        constant's `receivers` position is known and the arguments before it are written."""
        function, args = unapply(e)
        position = self.receivers.get(function[1], 0) if function[0] == "c" else 0
        if not 0 < position < len(args):
            return e
        return app(function, *args[1:position + 1], args[0], *args[position + 1:])

    def named_argument(self) -> bool:
        """Whether a named argument `(a := x)` comes next."""
        t, name, assign = self.peek(), self.peek(1), self.peek(2)
        return t is not None and t.text == "(" and name is not None and name.kind == "ident" \
            and assign is not None and assign.text == ":="

    def starts_atom(self, t: Token) -> bool:
        if self.terms:
            if self.modulus_next():
                return False
            if self.vector_next():
                return True
            if self.opens_enclosure() or (t.text == "#" and self.glued_next()) or self.glued_symbol(GLUED_BRACKETS):
                return True
            if t.text in _TERM_STOP:
                return False
        if t.text in _STOP or t.text in self.infix or t.text in BRACKET_INFIX or t.text in self.postfix:
            return False
        return (t.kind in ("ident", "num", "string") or t.text in TERM_BRACKETS.opening or t.text in PAIRS
                or t.text in self.binder_words or t.text in self.constants
                or t.text in ("_", "?_", "@", "↑", "⇑", "↥", "·") or (self.terms and t.text == "?"))

    def binds(self, k: int = 0) -> bool:
        """Whether the binder notation `k` tokens from the current one binds: a `Binder.named`
        one only when names (a bracketed group of them, or bare, with their type) and a comma
        follow (`⨁ i, A i`, `⨁ (i : ι), A i`, not `⨁ f`)."""
        j = self.i + k
        notation = BINDERS.get(self.toks[j].text)
        if notation is None or not notation.named:
            return True
        j += 1
        while j < len(self.toks) and (self.toks[j].kind == "ident" or self.toks[j].text in TERM_BRACKETS.opening):
            j = group_end(self.toks, j, brackets=self.groups) if self.toks[j].kind != "ident" else j + 1
        if j < len(self.toks) and self.toks[j].text == ":":  # the type: up to a comma, or what closes
            while j < len(self.toks) and (t := self.toks[j]).text not in TERM_BRACKETS.closing | {","}:
                j = group_end(self.toks, j, brackets=self.groups) if t.text in TERM_BRACKETS.opening else j + 1
        return j < len(self.toks) and self.toks[j].text == ","

    def glued_next(self) -> bool:
        nxt = self.peek(1)
        return nxt is not None and not nxt.spaced

    def opens_enclosure(self) -> bool:
        """Whether the current token opens `‖x‖`, `|x|`, `⌊x⌋`, ...: a closing bar is glued
        to what it closes, an opening one to what it opens."""
        t = self.peek()
        if t is None or t.text not in ENCLOSING or not self.glued_next():
            return False
        closing = ENCLOSING[t.text][0]
        return t.text != closing or t.spaced or self.i == 0 or self.toks[self.i - 1].text not in (
            TERM_BRACKETS.closing | {"_"}) and self.toks[self.i - 1].kind not in ("ident", "num")

    def atom(self) -> Expr:
        return self.postfixed(self.atom_core())

    def postfixed(self, e: Expr) -> Expr:
        """`e` with the postfix notation and field notation glued after it (`x⁻¹`, `(f x).foo`)."""
        while (t := self.peek()) is not None:
            if t.text in self.postfix and not (self.terms and self.glued_symbol(_GLUED_OPERATORS)):
                self.i += 1
                e = app(const(self.postfix[t.text]), e)
            elif self.terms and t.text == "^" and not t.spaced and self.glued_next() and self.peek(1).text == "[":
                self.i += 1  # `f^[n]`, notation of its own, applied as `f` is
                times = self.enclosed_term("an iterated function")
                e = app(const(ITERATE), e, times) if times is not None else self.unknown
            elif self.terms and t.text == "!" and (t.spaced or self.toks[self.i - 1].text == ")") \
                    and not self.glued_next():  # `n !`, `(n - 1)!`
                self.i += 1
                e = app(const("Nat.factorial"), e)
            elif t.text == "." and not t.spaced and (f := self.peek(1)) is not None and f.kind == "ident" \
                    and not f.spaced:
                # Generalized field notation on a term: `(Gamma1 N).FiniteIndex`.
                self.i += 2
                for part in split_name(f.text):
                    e = app(const(part), e)
            elif self.words and t.text == "." and not t.spaced and (f := self.peek(1)) is not None \
                    and not f.spaced and (numbers := f.text.split(".")) and set(numbers) <= _PROJECTIONS.keys():
                # `p.1`, `x.2.1`: which structure's projection it is, a reading without types
                # cannot tell (`Prod.fst`, `Subtype.val`), so only the words say it.
                self.i += 2
                for n in numbers:
                    e = app(const(self.projection(e)[n]), e)
            elif self.terms and not t.spaced and (symbol := self.glued_symbol(GLUED_POSTFIX)):
                self.i += symbol[1]
                e = app(const(GLUED_POSTFIX[symbol[0]]), e)
            elif self.terms and not t.spaced and self.may_be_value(e) and (symbol := self.glued_symbol(PARTS)):
                self.i += symbol[1]
                e = app(const(PARTS[symbol[0]]), e)
            elif self.terms and t.text == "⟮" and not t.spaced and self.is_type(e):
                self.i += 1
                e = app(const(ADJOIN), e, self.finite_set(t, "⟯"))
            elif self.terms and t.text == "⟦" and not t.spaced and self.may_be_value(e):
                e = self.shifted(e)
            elif self.terms and t.text == "[" and not t.spaced and self.is_collection(e):
                e = self.indexed(e)
            elif self.terms and t.text == "[" and not t.spaced and self.inverts():
                e = self.localized(e)
            elif self.words and t.text == "[" and not t.spaced and e[0] == "c":
                # `IsClosed[t] s`, `MeasurableSet[m] s`: the structure it is taken in, which the
                # words leave out
                self.skip_group()
            elif not t.spaced and t.kind != "ident" and t.text not in _GLUED_OK \
                    and not (self.terms and self.closes_enclosure(t)):
                # Unknown notation glued to the atom (`R≥0`, `X[S⁻¹]`, `x.1`): unnameable.
                e = self.unread(f"unknown notation '{t.text}' after a term", t)
                self.skip_glued()
            else:
                return e
        return e

    def is_type(self, e: Expr) -> bool:
        """Whether `e` is a type: a variable bound as one, or `ℚ`, `ℝ`, ... (`F⟮α⟯`, `ℚ⟮√2⟯`;
        after other terms `⟮` belongs to other notation, `C^n⟮I, M; I', M'⟯`)."""
        return (e[0] == "l" and e[1] in self.sorts) or (e[0] == "c" and e[1] in CONSTANTS.values())

    def may_be_value(self, e: Expr) -> bool:
        """Whether `e` may be a value, no type, as `e⁺` (`notation.PARTS`) and `X⟦n⟧`
        (`notation.SHIFT`) need: `e` is a term applied or a bound variable that is no type."""
        return e[0] == "a" or (e[0] == "l" and e[1] in self.bound and e[1] not in self.sorts)

    def is_collection(self, e: Expr) -> bool:
        """Whether `e` is one of `notation.INDEXED_TYPES`, as its binder or its head constant's
        namespace says."""
        head = e
        while head[0] == "a":
            head = head[1]
        if head[0] == "l":
            return self.types.get(head[1]) in INDEXED_TYPES
        return head[0] == "c" and head[1].rpartition(".")[0] in INDEXED_TYPES

    def enclosed_term(self, what: str) -> Expr | None:
        """The one term a bracket glued after `what` encloses, the current token being the bracket,
        stepped over with its closing one; None (in a strict reader, a `ParseError`) when it
        encloses more (`as[i:j]`, `μ⟦s | m⟧`): other notation, which the reader does not know."""
        opener = self.peek()
        assert opener is not None
        closing = self.groups.opening[opener.text]
        self.i += 1
        inner = self.expr(0)
        if (t := self.peek()) is None or t.text != closing:
            found = t.text if t else "the end"
            self.fail(f"expected {closing!r} to close {opener.text!r} after {what}, found {found!r}", t or opener)
            self.i = group_end(self.toks, self.i, inside=True, brackets=self.groups)
            return None
        self.i += 1
        return inner

    def shifted(self, e: Expr) -> Expr:
        """`X⟦n⟧`, `f⟦n⟧'` (`notation.SHIFT`), the current token being `⟦`; unknown (`unread`) when
        the shift is a type (`R⟦Γ⟧`)."""
        opener = self.peek()
        shift = self.enclosed_term("a term")
        if shift is None:
            return self.unknown
        if self.is_type(shift):
            return self.unread("unknown notation '⟦' after a term, enclosing a type", opener)
        if (mark := self.peek()) is not None and not mark.spaced and mark.text == "'":
            self.i += 1
        return app(const(SHIFT), VAR, shift, e)

    def inverts(self) -> bool:
        """Whether the bracket at the current token ends in a glued `⁻¹` (`R[S⁻¹]`)."""
        end = group_end(self.toks, self.i, brackets=self.groups)
        last = self.toks[end - 2]
        return self.toks[end - 1].text == "]" and last.text == "⁻¹" and not last.spaced

    def localized(self, e: Expr) -> Expr:
        """`R[S⁻¹]` (`notation.ORE_LOCALIZATION`), the current token being `[`; unknown (`unread`)
        when the bracket encloses more than `S⁻¹` (`R[T;T⁻¹]`)."""
        inverse = self.enclosed_term("a term")
        if inverse is None or inverse[:2] != ("a", const(POSTFIX["⁻¹"])):
            return self.unknown
        return app(const(ORE_LOCALIZATION), inverse[2], e)

    def indexed(self, e: Expr) -> Expr:
        """`xs[i]`, `xs[i]?`, `xs[i]!` (`notation.INDEXED`), the current token being `[`; unknown
        (`unread`) for a slice (`as[i:j]`)."""
        index = self.enclosed_term("a collection")
        if index is None:
            return self.unknown
        mark = self.peek()
        if mark is not None and not mark.spaced and mark.text in ("?", "!") and not self.glued_next():
            self.i += 1
            return app(const(INDEXED[mark.text]), e, index)
        return app(const(INDEXED[""]), e, index)

    def projection(self, e: Expr) -> dict[str, str]:
        """The constants `e.1` and `e.2` stand for, as far as the type `e` was bound with tells."""
        owner = self.types.get(e[1]) if e[0] == "l" else None
        return _PROJECTIONS if owner is None or owner in _PAIR_TYPES else _SUBTYPE_PROJECTIONS

    def encloses_later(self, t: Token) -> bool:
        """Whether `t` opens brackets of `notation.ENCLOSING` that a later token closes, other
        than the bars that close themselves (`⦋n⦌`, not `x⌊d`, a contraction)."""
        closing = ENCLOSING[t.text][0] if t.text in ENCLOSING else t.text
        return closing != t.text and any(u.text == closing for u in self.toks[self.i + 1:])

    def closes_enclosure(self, t: Token) -> bool:
        return any(t.text == closing for closing, _ in ENCLOSING.values()) or t.text in _PAIR_CLOSINGS or (
            t.text in self.infix or t.text in self.postfix or t.text in ("..", "!", "∂"))

    def skip_glued(self) -> None:
        """Skip the run of tokens glued together (no whitespace) from the current one."""
        first = True
        while (t := self.peek()) is not None and (first or not t.spaced) and t.text not in TERM_BRACKETS.closing \
                and not (self.terms and (t.text == "," or t.text in _PAIR_CLOSINGS)):
            first = False
            if t.text in TERM_BRACKETS.opening:
                self.skip_group()
            elif self.terms and self.encloses_later(t):
                self.enclosed()  # `X _⦋n + 1⦌`: up to its closing bracket, spaces and all
            else:
                self.i += 1

    def atom_core(self) -> Expr:
        t = self.peek()
        if t is None:
            return self.unread("expected a term at the end")
        if self.terms:
            if self.opens_enclosure():
                return self.enclosed()
            if t.text == "#" and self.glued_next():
                # an argument (`max #α #β`): `#α` alone, not applied to what follows
                self.i += 1
                return app(const(PREFIX["#"][0]), self.atom())
            if symbol := self.glued_symbol(GLUED_CONSTANTS):
                self.i += symbol[1]
                return const(GLUED_CONSTANTS[symbol[0]])
            if symbol := self.glued_symbol(GLUED_BRACKETS):
                self.i += symbol[1]
                return self.glued_call(GLUED_BRACKETS[symbol[0]], "]")
        self.i += 1
        if t.text in ("@", "↑", "⇑", "↥"):
            if self.words and t.text != "@" and (c := self.peek()) is not None and c.text == ")":
                return const(COERCION)  # `((↑) : A → B)`
            return self.atom()
        if t.text in self.binder_words and self.binds(-1):
            self.i -= 1
            return self.binder_expr(t.text)
        if self.terms and t.text == "𝓝" and (f := self.peek()) is not None and f.text == "[" and not f.spaced:
            return self.identifier(t.text)
        if t.text in self.constants and t.text not in self.bound:
            return const(self.constants[t.text])
        if t.kind == "num":
            return app(const("OfNat.ofNat"), literal(t.text)) if self.terms else NUMERAL
        if t.text == "(":
            return self.section(t) if self.words else self.paren(t)
        if t.text == "·" and self.sections and self.sections[-1]:
            return local(self.sections[-1].pop(0))
        if self.terms:
            if t.text == "?" and (f := self.peek()) is not None and f.kind == "ident" and not f.spaced:
                self.i += 1
                return hole(f.text)
            if t.text == "{":
                return self.braces(t)
            if t.text == "[":
                return self.list_literal(t)
            if self.vector_next(-1):
                self.i += 1
                return self.list_literal(self.toks[self.i - 1], *VECTOR)
            if t.text in PAIRS:
                return self.pair(t)
        if self.words and t.text == "⟨":
            return self.anonymous(t)
        if t.text in TERM_BRACKETS.opening:  # `⟦x⟧`; an anonymous constructor but in `WORDS`
            self.i -= 1
            self.skip_group()
            return self.unknown
        if t.kind == "ident":
            return self.identifier(t.text)
        if self.words and t.text == "." and (f := self.peek()) is not None and f.kind == "ident" and not f.spaced:
            # `.ofReal x`: a constant of the namespace the expected type names, which only the
            # words can leave unnamed
            self.i += 1
            return const(f.text)
        if t.kind not in ("string",) and t.text not in ("?_", "·"):
            return self.unread(f"unknown notation '{t.text}'", t)
        return VAR

    def enclosed(self) -> Expr:
        """`‖x‖`, `|x|`, `⌊x⌋₊`: the constant of the brackets (and suffix) applied to `x`."""
        opener = self.peek()
        assert opener is not None
        closing, constants = ENCLOSING[opener.text]
        self.i += 1
        inner = self.expr(0)
        self.expect(closing, opener)
        suffix = self.peek()
        if suffix is not None and not suffix.spaced and suffix.text in constants:
            self.i += 1
            return app(const(constants[suffix.text]), inner)
        return app(const(constants[""]), inner)

    def anonymous(self, opener: Token) -> Expr:
        """`⟨x, hx⟩` (`WORDS`): `notation.ANONYMOUS_CONSTRUCTOR` applied to its components."""
        parts = [self.expr(0)]
        while (t := self.peek()) is not None and t.text == ",":
            self.i += 1
            parts.append(self.expr(0))
        self.expect("⟩", opener)
        return app(const(ANONYMOUS_CONSTRUCTOR), *parts)

    def pair(self, opener: Token) -> Expr:
        """`⁅x, y⁆` (`Bracket.bracket x y`), `⟪x, y⟫_𝕜` (`Inner.inner 𝕜 x y`; without `_𝕜` the
        field is a hole)."""
        closing, name, field = PAIRS[opener.text]
        first = self.expr(0)
        self.expect(",", opener)
        second = self.expr(0)
        self.expect(closing, opener)
        if not field:
            return app(const(name), first, second)
        over = VAR
        if (t := self.peek()) is not None and not t.spaced and t.kind == "ident" and t.text.startswith("_") \
                and len(t.text) > 1:
            self.i += 1
            written = t.text[1:]
            over = const(self.constants[written]) if written in self.constants else self.identifier(written)
        return app(const(name), over, first, second)

    def section(self, opener: Token) -> Expr:
        """A parenthesised term, and a section `(· + a)` as the function it is (`fun x => x + a`,
        one `x` for each `·` of its own, not of a parenthesis inside it), its variables named
        by names the statement does not write (`WORDS`)."""
        dots, depth = 0, 0
        for t in self.toks[self.i:group_end(self.toks, self.i - 1, brackets=self.groups) - 1]:
            depth += (t.text == "(") - (t.text == ")")
            dots += t.text == "·" and depth == 0
        if not dots:
            return self.paren(opener)
        written = {t.text for t in self.toks if t.kind == "ident"} | self.bound
        names = [n for n in _SECTION_NAMES if n not in written][:dots]
        if len(names) < dots:
            return self.paren(opener)
        self.sections.append(list(names))
        body = self.paren(opener)
        self.sections.pop()
        for name in reversed(names):
            body = lam(name, body)
        return body

    def paren(self, opener: Token) -> Expr:
        """`(e)`, `(e : T)` (ascription: just `e`), tuples (`Prod.mk` for `TERMS`, else unnamed)."""
        e = self.expr(0)
        t = self.peek()
        if self.terms and t is not None and t.text == ",":
            self.i += 1
            e = app(const("Prod.mk"), e, self.paren(opener))
            return e
        if t is not None and t.text not in (")", ":"):
            e = self.unread(f"expected ')' to close '(', found '{t.text}'", t)
        elif t is None:
            self.fail("'(' is not closed", opener)
        self.i = group_end(self.toks, self.i, inside=True, brackets=self.groups)
        return e

    def braces(self, opener: Token) -> Expr:
        """`{x | p x}`, `{x ∈ s | p x}`, `{x // p x}`, `{a, b}`, `{a}`; a structure instance
        `{ x := 1 }` is unnamed."""
        start = self.i
        end = group_end(self.toks, start - 1, brackets=self.groups)
        inner = [t.text for t in self.toks[start:end - 1]]
        if ":=" in inner or not inner:
            self.i = start - 1
            self.skip_group()
            return VAR
        if "|" in inner or "//" in inner:
            bindings = self.bindings(bare=True, stop=("|", "//"))
            separator = self.peek()
            if separator is None or separator.text not in ("|", "//"):
                self.i = end
                return self.unread("expected '|' in a set-builder", separator or opener)
            self.i += 1
            body = self.expr(0)
            self.expect("}", opener)
            for b in reversed(bindings):
                for name in reversed(b.names):
                    if b.relation:
                        body = app(const("And"), self.predicate(name, b), body)
                    body = self.bind(name, body)
            return app(const("Subtype" if separator.text == "//" else "setOf"), body)
        return self.finite_set(opener, "}")

    def finite_set(self, opener: Token, closing: str) -> Expr:
        """`a, b` up to `closing`: `Insert.insert a (Singleton.singleton b)`, as `{a, b}` is."""
        items = [self.expr(0)]
        while (t := self.peek()) is not None and t.text == ",":
            self.i += 1
            items.append(self.expr(0))
        self.expect(closing, opener)
        term = app(const("Singleton.singleton"), items[-1])
        for item in reversed(items[:-1]):
            term = app(const("Insert.insert"), item, term)
        return term

    def list_literal(self, opener: Token, cons: str = "List.cons", nil: str = "List.nil") -> Expr:
        """`[a, b]` is `List.cons a (List.cons b List.nil)`, `![a, b]` the same of
        `notation.VECTOR`'s constants."""
        items = []
        while (t := self.peek()) is not None and t.text != "]":
            items.append(self.expr(0))
            if (t := self.peek()) is not None and t.text == ",":
                self.i += 1
            elif t is not None and t.text != "]":
                self.i = group_end(self.toks, self.i, inside=True, brackets=self.groups)
                return self.unread(f"expected ',' or ']' in a list, found '{t.text}'", t)
        self.expect("]", opener)
        term = const(nil)
        for item in reversed(items):
            term = app(const(cons), item, term)
        return term

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
        if name in GLUED_CALLS and nxt is not None and nxt.text == "(" and not nxt.spaced:
            self.i += 1
            return self.glued_call(GLUED_CALLS[name], ")")
        if self.terms and name == "if":
            return self.conditional()
        if self.terms and name == "𝓝" and nxt is not None and nxt.text == "[" and not nxt.spaced:
            self.i += 1
            t, closing = self.peek(), self.peek(1)
            side = t is not None and t.text in NEIGHBOURHOOD_SIDES and closing is not None and closing.text == "]"
            within = VAR if side or t is None or t.text in self.infix else self.expr(0)
            self.i = group_end(self.toks, self.i, inside=True, brackets=self.groups)
            point = self.atom()
            if side:  # `𝓝[>] x`: the side of the point
                within = point
                for constant in NEIGHBOURHOOD_SIDES[t.text]:
                    within = app(const(constant), within)
            return app(const(NHDS_WITHIN), point, within)
        parts = split_name(name)
        if self.is_local(parts[0]):
            # Generalized field notation `x.foo`: the constant is `T.foo` for `x : T`.
            if not self.terms:
                return app(const(parts[-1]), VAR) if len(parts) > 1 else VAR
            e = local(parts[0])
            owner = self.types.get(parts[0])
            for k, part in enumerate(parts[1:]):
                e = app(const(f"{owner}.{part}" if owner and k == 0 else part), e)
            if self.words and owner and len(parts) == 2:
                self.dotted = e
            return e
        return const(".".join(parts))

    def conditional(self) -> Expr:
        """`if c then a else b` is `ite c a b`; `if h : c then a else b` is `dite c a b`."""
        dependent = (t := self.peek()) is not None and t.kind == "ident" and (c := self.peek(1)) is not None \
            and c.text == ":"
        if dependent:
            self.bound.add(self.toks[self.i].text)
            self.i += 2
        condition = self.expr(0)
        self.expect("then")
        yes = self.expr(0)
        self.expect("else")
        no = self.expr(0)
        return app(const("dite" if dependent else "ite"), condition, yes, no)

    def glued_call(self, name: str, closing: str) -> Expr:
        """`C(α, β)`, `Λ[n, i]` from their first argument on: `name` applied to the arguments up
        to `closing`."""
        e = const(name)
        while (t := self.peek()) is not None and t.text != closing:
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
        return name not in self.constants and bool(_VAR_RE.match(name) or _SCRIPT_RE.match(name))

    def declaration(self) -> Expr:
        """`binders : type` of a declaration header (`TERMS`), as `∀ binders, type`: the
        binder groups before the first token that opens none (an `extends` clause is no
        binder), then, after a `,`, the type (`VAR` when none is written)."""
        bindings = []
        while (t := self.peek()) is not None and t.text in TERM_BRACKETS.opening:
            bindings.append(self.binder_group())
        while (t := self.peek()) is not None and t.text != ",":
            self.i += 1
        self.i += 1
        body = self.expr(0) if self.peek() is not None else VAR
        if self.words and (t := self.peek()) is not None:  # `a ~ᵤ b`: what follows is not read
            body = self.unread(f"unknown notation '{t.text}'", t)
        for b in reversed(bindings):
            for name in reversed(b.names):
                body = named_pi(name, b.type or VAR, body, b.bracket) if self.words else pi(b.type or VAR, body)
        return body


def parse_expr(tokens: list[Token], bound: set[str]) -> Expr:
    """The expression the tokens of a term start with, read for names (`Reading.NAMES`).
    `bound`: names that are locals (binders around the term); the names the term binds
    itself (`fun x`, `∀ y`) are added."""
    return _Reader(tokens, bound).expr(0)


def parse_term(tokens: list[Token], strict: bool = False, bound: set[str] | None = None,
               reading: Reading = Reading.TERMS, receivers: Mapping[str, int] | None = None) -> Expr:
    """The structure of a term (`Reading.TERMS`, or `WORDS`). `strict`: every token must be read,
    or `ParseError` says which could not (a Loogle pattern); otherwise what cannot be read is
    `VAR` (a statement from the corpus). The names the term binds are added to `bound`."""
    reader = _Reader(tokens, set() if bound is None else bound, reading, strict, receivers)
    term = reader.expr(0)
    if strict and (t := reader.peek()) is not None:
        if t.text in TERM_BRACKETS.closing:
            raise ParseError(f"'{t.text}' closes no bracket", t)
        raise ParseError(f"unknown notation '{t.text}'" if t.kind == "other" else f"unexpected '{t.text}'", t)
    return term


def parse_declaration(binders: list[Token], type_: list[Token], reading: Reading = Reading.TERMS,
                      receivers: Mapping[str, int] | None = None) -> Expr:
    """A declaration header's statement as `∀ binders, type` (`Reading.TERMS`, or `WORDS`), from
    the tokens of its binders and of its type; `WORDS` puts the term of `x.foo a` where
    `receivers` says (`_Reader.receiver_placed`)."""
    return _Reader([*binders, Token("sym", ","), *type_], set(), reading, receivers=receivers).declaration()


def peel_foralls(e: Expr) -> tuple[list[Expr], Expr]:
    """`A → B → C` -> `([A, B], C)`."""
    binders = []
    while e[0] == "f":
        binders.append(e[1])
        e = e[2]
    return binders, e
