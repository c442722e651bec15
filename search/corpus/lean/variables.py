"""The `variable` binders a declaration's statement uses: what Lean adds to it from its section.

`theorem Continuous.mul (hf : Continuous f) (hg : Continuous g) : Continuous (f * g)` writes
neither what `f` and `g` are nor that `M` is a topological monoid: its section declared them
(`variable {X M : Type*} [TopologicalSpace X] [TopologicalSpace M] [Mul M] [ContinuousMul M]
{f g : X → M}`). Lean adds to a theorem the variables its header mentions, the variables their
types mention in turn, and the instance binders all of whose variables are added, a name
the statement binds itself (`∀ a`, `fun a`, `{a | p a}`) not being the section's where it is
bound (`_FreeNames`); the same rule, read on text (no elaboration; `omit` and `include` are not
followed), gives the binders the informaliser says as the statement's setting and objects. A definition, structure, class or
inductive type also takes the variables its body uses: `variable (R : Type*) [CommRing R]`
then `class Ring.DimensionLEOne : Prop where maximalOfPrime : ∀ {p : Ideal R}, ...` is
`Ring.DimensionLEOne R` (`Mathlib/RingTheory/DedekindDomain/Basic.lean`); a theorem takes only
those of its statement, its proof being no part of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

from search.corpus.lean.decl import binder_groups
from search.corpus.lean.expr import BINDER_PREDICATES, TERM_BINDERS
from search.corpus.lean.notation import BINDERS
from search.corpus.lean.syntax import (
    BRACKETS,
    TERM_BRACKETS,
    Token,
    find_top_level,
    group_end,
    split_name,
    term_tokens,
)

#: The first part of a name as written (`f` of `f.comp`, `x` of `x.1`, `Nat` of `Nat.succ`).
_NAME = re.compile(r"(?<![\w.'!?])[^\W\d][\w'!?]*")
_BINDER_NAME = re.compile(r"[^\W\d][\w'!?]*")
#: The names a binder in a body binds: `∀ {p : Ideal R},`, `fun x y =>`, `∃ n,`, `(x : α)`,
#: `{x | p x}`; a binder's names end where its bound or its filter begins (`∀ x ∈ s,`,
#: `∃ ε > 0,`, `∀ᶠ n in atTop,`, `∑ i ∈ range n,`: `s`, `atTop` and `range` are not bound).
_BOUND = re.compile(r"(?:[∀∃λΠΣ∑∏⋃⋂⨆⨅]!?ᶠ?|\bfun)\s*([^,:=↦∈∉⊆⊂⊇⊃<≤>≥≠|]*?)(?=\s+in\s|[,:=↦∈∉⊆⊂⊇⊃<≤>≥≠|]|$)"
                    r"|[(⦃{]\s*((?:[^\W\d][\w'!?]*\s+)*[^\W\d][\w'!?]*)\s*(?::(?!=)|\|)")


@dataclass(frozen=True)
class VariableBinder:
    """One binder group of a `variable` command: `{f g : X → M}` (bracket "{", names f and g,
    type `X → M`) or `[TopologicalSpace X]` (bracket "[", no names)."""

    bracket: str
    names: tuple[str, ...]
    type: str

    @cached_property
    def mentions(self) -> frozenset[str]:
        """The names its type mentions, read once for every declaration of its scope."""
        return frozenset(names_in(self.type))

    def text(self, names: Sequence[str]) -> str:
        """The group binding only `names` (all of them for an instance), as Lean writes it."""
        close = BRACKETS.opening[self.bracket]
        if not names:
            return f"{self.bracket}{self.type}{close}"
        return f"{self.bracket}{' '.join(names)} : {self.type}{close}"


def variable_binders(text: str) -> list[VariableBinder]:
    """The binder groups of a `variable` command's text (after the word). A group that only
    changes how earlier variables are bound (`variable (𝕜)`, `variable {x y}`) is kept as such an
    update: a binder with names and no type, which `used_variables` applies in place."""
    binders = []
    for bracket, inner in binder_groups(text):
        if bracket not in "({[⦃" or inner.startswith(("{", "[")):  # `{{x : α}}` is rare: left out
            continue
        names, colon, type_ = inner.partition(":")
        if bracket == "[":
            named = colon and _BINDER_NAME.fullmatch(names.strip())
            binders.append(VariableBinder("[", (names.strip(),), type_.strip()) if named
                           else VariableBinder("[", (), inner.strip()))
        elif names.split() and all(_BINDER_NAME.fullmatch(n) for n in names.split()):
            binders.append(VariableBinder(bracket, tuple(names.split()), type_.strip() if colon else ""))
    return binders


def _updated(binders: Sequence[VariableBinder]) -> Sequence[VariableBinder]:
    """The binders with each update applied where the variable was declared, as Lean does:
    `variable {𝕜 : Type*} ... variable (𝕜)` binds 𝕜 explicitly from there on, in its place
    (Mathlib's `fderiv 𝕜 f x`); an update of a name never declared is dropped."""
    if all(b.type or b.bracket == "[" for b in binders):
        return binders
    out: list[VariableBinder] = []
    for b in binders:
        if b.type or b.bracket == "[":
            out.append(b)
            continue
        for name in b.names:
            k = next((k for k in range(len(out) - 1, -1, -1) if name in out[k].names and out[k].bracket != "["), None)
            if k is None or out[k].bracket == b.bracket:
                continue
            old = out[k]
            at = old.names.index(name)
            parts = ((old.bracket, old.names[:at]), (b.bracket, (name,)), (old.bracket, old.names[at + 1:]))
            out[k:k + 1] = [VariableBinder(bracket, names, old.type) for bracket, names in parts if names]
    return out


def names_in(text: str) -> set[str]:
    """The names a text mentions, each by its first part."""
    return set(_NAME.findall(text))


def bound_in(text: str) -> set[str]:
    """The names some binder of `text` binds (`_BOUND`): a body's own, not the section's."""
    return {n for groups in _BOUND.findall(text) for group in groups for n in _NAME.findall(group)}


_BINDER_WORDS = TERM_BINDERS | BINDERS.keys()
#: What ends a binder's names and types: the body follows (`∀ x,`, `fun x =>`, `{x | p x}`).
_BINDER_ENDS = frozenset({",", "=>", "↦"})
_SET_BUILDER_ENDS = frozenset({"|", "//"})


def _binders_end(toks: Sequence[Token], i: int, end: int, ends: frozenset[str]) -> int | None:
    """Index of the token of `ends` outside brackets that ends the binders starting at token
    `i`, or None when none does before `end`, before the group they are in closes, or before a
    `:=` (or, for a set-builder, a `,`: `{a, b}` builds no set)."""
    stops = ends | TERM_BRACKETS.closing | {":="} | ({","} if ends is _SET_BUILDER_ENDS else set())
    j = find_top_level(toks, i, end, stops, TERM_BRACKETS)
    return j if j < end and toks[j].text in ends else None


class _FreeNames:
    """A scan of a statement's tokens for the names it mentions outside the scope of its own
    binders. A binder's names are bound from where it binds them to the close of the bracket
    group it is written in (or the end), as Lean scopes `∀ x, p x`, `(fun x => f x) y` and
    `{x | p x}`; a header's binders `(x : α)`, before its colon, bind to the end; `(e : T)`
    after it ascribes a type and binds nothing."""

    def __init__(self, text: str) -> None:
        self.toks = term_tokens(text)
        #: The names bound in each bracket group open at the token being read, outermost first.
        self.scopes: list[set[str]] = [set()]
        self.free: set[str] = set()
        colon = _binders_end(self.toks, 0, len(self.toks), frozenset({":"}))
        #: The names the header's binders bind.
        self.header = self.bind(0, len(self.toks) if colon is None else colon, bare=False)
        if colon is not None:
            self.read(colon + 1, len(self.toks))

    def use(self, k: int) -> None:
        """Use the name token `k` writes, unless it names a field (`x.foo`), a named argument or
        a structure instance's field (`f (n := 1)`, `{ toFun := f }`)."""
        t = self.toks[k]
        if t.kind != "ident" or (k and self.toks[k - 1].text == "." and not t.spaced) \
                or (k + 1 < len(self.toks) and self.toks[k + 1].text == ":="):
            return
        name = split_name(t.text)[0]
        if not any(name in scope for scope in self.scopes):
            self.free.add(name)

    def group(self, k: int, end: int) -> tuple[int, int]:
        """Where the bracket group opening at token `k` ends: its closing bracket (or `end`,
        unclosed), and the index past it."""
        past = group_end(self.toks, k, stop=end, brackets=TERM_BRACKETS)
        closed = past > k + 1 and self.toks[past - 1].text == TERM_BRACKETS.opening[self.toks[k].text]
        return (past - 1 if closed else past), past

    def read(self, i: int, end: int) -> None:
        """Use the names of tokens `i` to `end`, binding those its binders bind."""
        toks = self.toks
        k = i
        while k < end:
            text = toks[k].text
            stop = _binders_end(toks, k + 1, end, _BINDER_ENDS) if text in _BINDER_WORDS else None
            if stop is not None:
                start = k + 1
                while start < stop and toks[start].kind == "other" and not toks[start].spaced \
                        and toks[start].text not in TERM_BRACKETS.opening:
                    start += 1  # the mark glued to the binder (`∀ᵐ x ∂μ,`)
                self.bind(start, stop, bare=True)
                k = stop + 1
            elif text in TERM_BRACKETS.opening:
                close, past = self.group(k, end)
                self.scopes.append(set())
                stop = _binders_end(toks, k + 1, close, _SET_BUILDER_ENDS) if text == "{" else None
                if stop is not None:
                    self.bind(k + 1, stop, bare=True)
                self.read(k + 1 if stop is None else stop + 1, close)
                self.scopes.pop()
                k = past
            else:
                self.use(k)
                k += 1

    def bind(self, i: int, end: int, bare: bool) -> set[str]:
        """Bind the names of the binders in tokens `i` to `end` in the innermost scope, each
        after the types before it are read, and read their types and bounds; return the names
        bound. `bare`: names outside brackets bind too, as after `∀`, up to the first other word;
        in a bracket group, the names before its colon do, or all its names but an instance's."""
        toks = self.toks
        bound: list[str] = []
        naming = bare
        k = i
        while k < end:
            text = toks[k].text
            if text in TERM_BRACKETS.opening:
                close, past = self.group(k, end)
                colon = _binders_end(toks, k + 1, close, frozenset({":"}))
                names = [split_name(t.text)[0] for t in toks[k + 1:close if colon is None else colon]
                         if t.kind == "ident"] if colon is not None or text != "[" else []
                if colon is not None or text == "[":  # the type, in a scope of its own
                    self.scopes.append(set())
                    self.read(k + 1 if colon is None else colon + 1, close)
                    self.scopes.pop()
                bound += names
                self.scopes[-1].update(names)
                k = past
            elif naming and toks[k].kind == "ident":
                bound.append(split_name(text)[0])
                k += 1
            elif text == ":" or text in BINDER_PREDICATES:
                self.read(k + 1, end)
                break
            else:  # the names end where other words begin (`∀ᵐ x ∂μ,`: μ is no name bound)
                naming = False
                self.use(k)
                k += 1
        self.scopes[-1].update(bound)
        return set(bound)


def used_variables(binders: Sequence[VariableBinder], statement: str, body: str = "") -> str:
    """The binders of `binders` (a scope's variables, in order) that a declaration whose binders
    and type are `statement` and whose value, fields or constructors are `body` uses, as Lean
    writes them ("" for none): the variables it mentions and does not bind itself, those their
    types mention, latest declaration first (a later `variable` shadows an earlier one of the
    same name), then every instance binder whose variables are all used."""
    if not binders:
        return ""
    binders = _updated(binders)
    declared = {n for b in binders for n in b.names}
    if not (names_in(statement) | names_in(body)) & declared:  # what the scan below would find
        return ""
    scan = _FreeNames(statement)
    # a body's own binders are read by `bound_in`, which takes a constructor's `(a : α)` for one
    needed = scan.free | (names_in(body) - bound_in(body) - scan.header)
    chosen: dict[int, tuple[str, ...]] = {}
    for k in range(len(binders) - 1, -1, -1):
        b = binders[k]
        names = tuple(n for n in b.names if n in needed)
        if names and b.bracket != "[":
            chosen[k] = names
            needed = (needed - set(names)) | b.mentions
    used = {n for names in chosen.values() for n in names}
    for k, b in enumerate(binders):
        mentioned = b.mentions & declared
        if b.bracket == "[" and mentioned and mentioned <= used:
            chosen[k] = b.names
    return " ".join(binders[k].text(chosen[k]) for k in sorted(chosen))
