"""The `variable` binders a declaration's statement uses: what Lean adds to it from its section.

`theorem Continuous.mul (hf : Continuous f) (hg : Continuous g) : Continuous (f * g)` writes
neither what `f` and `g` are nor that `M` is a topological monoid: its section declared them
(`variable {X M : Type*} [TopologicalSpace X] [TopologicalSpace M] [Mul M] [ContinuousMul M]
{f g : X → M}`). Lean adds to a theorem the variables its header mentions, the variables their
types mention in turn, and the instance binders all of whose variables are added; the same
rule, read on text (no elaboration; `omit` and `include` are not followed), gives the binders
the informaliser says as the statement's setting and objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

from search.corpus.lean.decl import binder_groups
from search.corpus.lean.syntax import BRACKETS

#: The first part of a name as written (`f` of `f.comp`, `x` of `x.1`, `Nat` of `Nat.succ`).
_NAME = re.compile(r"(?<![\w.'!?])[^\W\d][\w'!?]*")
_BINDER_NAME = re.compile(r"[^\W\d][\w'!?]*")


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
    changes how earlier variables are bound (`variable (R)`, `variable {x y}`) declares none."""
    binders = []
    for bracket, inner in binder_groups(text):
        if bracket not in "({[⦃" or inner.startswith(("{", "[")):  # `{{x : α}}` is rare: left out
            continue
        names, colon, type_ = inner.partition(":")
        if bracket == "[":
            named = colon and _BINDER_NAME.fullmatch(names.strip())
            binders.append(VariableBinder("[", (names.strip(),), type_.strip()) if named
                           else VariableBinder("[", (), inner.strip()))
        elif colon and names.split() and all(_BINDER_NAME.fullmatch(n) for n in names.split()):
            binders.append(VariableBinder(bracket, tuple(names.split()), type_.strip()))
    return binders


def names_in(text: str) -> set[str]:
    """The names a text mentions, each by its first part."""
    return set(_NAME.findall(text))


def used_variables(binders: Sequence[VariableBinder], statement: str) -> str:
    """The binders of `binders` (a scope's variables, in order) that a declaration whose binders
    and type are `statement` uses, as Lean writes them ("" for none): the variables it mentions
    and does not bind itself, those their types mention, latest declaration first (a later
    `variable` shadows an earlier one of the same name), then every instance binder whose
    variables are all used."""
    if not binders:
        return ""
    bound = {n for _, inner in binder_groups(statement) if ":" in inner for n in inner.partition(":")[0].split()}
    needed = names_in(statement) - bound
    chosen: dict[int, tuple[str, ...]] = {}
    for k in range(len(binders) - 1, -1, -1):
        b = binders[k]
        names = tuple(n for n in b.names if n in needed)
        if names and b.bracket != "[":
            chosen[k] = names
            needed = (needed - set(names)) | b.mentions
    declared = {n for b in binders for n in b.names}
    used = {n for names in chosen.values() for n in names}
    for k, b in enumerate(binders):
        mentioned = b.mentions & declared
        if b.bracket == "[" and mentioned and mentioned <= used:
            chosen[k] = b.names
    return " ".join(binders[k].text(chosen[k]) for k in sorted(chosen))
