"""Attributes that generate declarations, each one registry entry: the names Lean adds to the
environment beside what is written (`mul_comm` gives `add_comm`, `Continuous.mul` gives
`Continuous.fun_mul`, `Continuous.add` and `Continuous.fun_add`).

A generator reads one attribute item on a declaration and returns the declarations it makes:
their names (Lean's rule for each attribute, read from Mathlib's sources), statements (a
textual version of Lean's transformation, where one can be said on text) and the attribute
items they carry in turn (`(attr := ...)`), so that nested attributes generate too. Items of
`(attr := ...)` on the attributes whose `both` is set apply to the source declaration as well,
as Mathlib's `optAttrArg` does (`@[to_additive (attr := simp)]` makes both lemmas `simp`).

Kept out, because the names depend on elaboration: `@[simps]` without projection names (its
lemmas follow the projections of the definition's elaborated type), and the auxiliary
declarations Lean makes for every inductive type (`rec`, `casesOn`, `noConfusion`, ...); the
documentation's page on records counts them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Iterable, Protocol

from search.corpus.lean.attributes import AttributeItem, parse_item
from search.corpus.lean.decl import STRUCTURE_KINDS, TYPE_KINDS, Decl, binder_groups, explicit_binder_names, top_level_colon
from search.corpus.lean.guess_name import NameDictionary
from search.corpus.lean.simps import SimpsTable, is_proposition
from search.corpus.lean.syntax import BRACKETS, collapse_spaces, join_name, split_name, top_level
from search.corpus.lean.to_additive import ADDITIVE, additive_signature
from search.corpus.lean.to_additive import DEFINED_IN as ADDITIVE_MODULE
from search.corpus.lean.to_dual import DUAL, dual_signature
from search.corpus.lean.to_dual import DEFINED_IN as DUAL_MODULE


@dataclass
class Generated:
    """One declaration an attribute makes from a source declaration."""

    name: str
    #: The statement after the name (binders and type), "" when it cannot be said on text.
    sig_rest: str
    doc: str | None
    #: The attribute items it carries (its own `(attr := ...)`), and their doc comments.
    items: list[str] = field(default_factory=list)
    #: Its kind; None keeps the source's (a translated `def` is a `def`).
    kind: str | None = "theorem"
    #: The `variable` binders it uses; None keeps the source's (a translation translates them).
    variables: str | None = None


@dataclass
class Context:
    """What generators read besides the declaration: per translating attribute, the names it
    gives declarations (`Monoid` -> `AddMonoid`, used for namespaces) and its dictionary, with
    each file's `to_dual_name_hint`s (by file number: (declarations before it, word, word))."""

    translations: dict[str, dict[str, str]] = field(default_factory=dict)
    dictionaries: dict[str, NameDictionary] = field(default_factory=dict)
    #: The projections `@[simps]` names lemmas after, by the definition's type.
    simps: SimpsTable | None = None
    hints: dict[int, list[tuple[int, str, str]]] = field(default_factory=dict)
    _hinted: dict[tuple[int, int], NameDictionary] = field(default_factory=dict, repr=False)

    def dictionary(self, word: str, decl: Decl) -> NameDictionary:
        """The attribute's dictionary where `decl` stands (after the hints above it)."""
        base = self.dictionaries[word]
        hints = [(a, b) for at, a, b in self.hints.get(decl.file, ()) if at <= decl.order]
        if word != "to_dual" or not hints:
            return base
        key = (decl.file, len(hints))
        if key not in self._hinted:
            self._hinted[key] = base.with_hints(hints)
        return self._hinted[key]


class Generator(Protocol):
    #: The attribute's name.
    word: ClassVar[str]
    #: Whether its `(attr := ...)` items apply to the source declaration too.
    both: ClassVar[bool]

    def generate(self, decl: Decl, item: AttributeItem, context: Context) -> list[Generated]: ...


GENERATORS: dict[str, Generator] = {}


def generator(cls: type) -> type:
    """Register a generator class under its attribute's name."""
    GENERATORS[cls.word] = cls()
    return cls


def expand(items: Iterable[str], docs: Iterable[str | None] = ()) -> list[tuple[str, str | None]]:
    """Attribute items with the `(attr := ...)` items of the generators whose `both` is set
    added after them, recursively: the items a declaration is really tagged with. A
    translation nested in the same translation (`to_additive (attr := to_additive ...)`)
    applies to the translated declaration only, as `Translate.applyAttributes` does."""
    docs = list(docs)
    out: list[tuple[str, str | None]] = []
    for k, item in enumerate(items):
        doc = docs[k] if k < len(docs) else None
        out.append((item, doc))
        parsed = parse_item(item, doc)
        spec = GENERATORS.get(parsed.word)
        if spec is not None and spec.both:
            out += expand(n for n in parsed.nested if parse_item(n).word != parsed.word or parsed.word not in DICTIONARIES)
    return out


def _relative(name: str, target: str) -> str:
    """A written name read relative to `name`'s namespace: a target of k components replaces
    the last k components (`_root_.x` is absolute), as `to_fun`'s and `higher_order`'s do."""
    if target.startswith("_root_."):
        return target[len("_root_."):]
    parts, written = split_name(name), split_name(target)
    return join_name(*parts[:max(len(parts) - len(written), 0)], *written)


def _append(name: str, suffix: str) -> str:
    """`Name.appendAfter`: `Foo.bar` -> `Foo.bar_assoc`."""
    return name + suffix


def _prepend(name: str, prefix: str) -> str:
    """`Name.appendBefore`: `Foo.bar` -> `Foo.fun_bar`."""
    parts = split_name(name)
    return join_name(*parts[:-1], prefix + parts[-1])


def _related_doc(prefix: str | None, doc: str | None) -> str | None:
    """`addRelatedDecl`'s docstring: its prefix, the source's docstring, or both."""
    if prefix and doc:
        return f"{prefix}\n\n---\n\n{doc}"
    return prefix or doc


# --- Translations: to_additive, to_dual -----------------------------------------------------------


class _Translation:
    word: ClassVar[str]
    both: ClassVar[bool] = True

    def statement(self, sig_rest: str, dictionary: NameDictionary) -> str:
        raise NotImplementedError

    def generate(self, decl: Decl, item: AttributeItem, context: Context) -> list[Generated]:
        """The translated declaration, named as the attribute writes or as `guessName` guesses;
        none for `existing`/`self`/`none` (the translation exists, or there is none) and for
        types, whose translations Mathlib writes by hand."""
        if item.flags & {"existing", "self", "none"} or decl.kind in TYPE_KINDS or not decl.name:
            return []
        table = context.translations.get(self.word, {})
        dictionary = context.dictionary(self.word, decl)
        name = table.get(decl.name) or (dictionary.explicit(decl.name, item.target, table) if item.target
                                        else dictionary.guess(decl.name, table))
        if name == decl.name:
            return []  # nothing to translate: Lean rejects such an attribute
        statement = self.statement(decl.sig_rest, dictionary) if decl.sig_rest else ""
        variables = self.statement(decl.variables, dictionary) if decl.variables else ""
        return [Generated(name, statement, item.doc, item.nested, kind=None, variables=variables)]


@generator
class ToAdditive(_Translation):
    word = "to_additive"

    def statement(self, sig_rest: str, dictionary: NameDictionary) -> str:
        return additive_signature(sig_rest)


@generator
class ToDual(_Translation):
    word = "to_dual"

    def statement(self, sig_rest: str, dictionary: NameDictionary) -> str:
        return dual_signature(sig_rest, dictionary)


#: The dictionaries of the translating attributes, before a tree's own sources replace them,
#: and the Mathlib modules that define them.
DICTIONARIES = {"to_additive": ADDITIVE, "to_dual": DUAL}
TRANSLATION_MODULES = {"to_additive": ADDITIVE_MODULE, "to_dual": DUAL_MODULE}


# --- Related declarations: to_fun, reassoc, elementwise, to_app, higher_order ---------------------


@dataclass(frozen=True)
class Conclusion:
    """A statement whose conclusion is an equation: its binders up to `:` (and a leading
    `∀ ...,`), the premises of its implications (`h₁ → h₂ → x = y`), and the equation's sides."""

    head: str
    premises: tuple[str, ...]
    lhs: str
    rhs: str

    def with_equation(self, equation: str) -> str:
        """The statement with another conclusion, its binders and premises kept."""
        return " ".join([self.head, *(f"{p} →" for p in self.premises), equation])


def _conclusion(sig_rest: str) -> Conclusion | None:
    """The statement read as a `Conclusion`; None when it does not end in an equation at top level."""
    colon = top_level_colon(sig_rest)
    if colon < 0:
        return None
    head, statement = sig_rest[:colon + 1], sig_rest[colon + 1:]
    if statement.lstrip().startswith("∀"):
        comma = next(top_level(statement, ","), -1)
        if comma < 0:
            return None
        head, statement = head + statement[:comma + 1], statement[comma + 1:]
    arrows = [-1, *top_level(statement, "→"), len(statement)]
    parts = [statement[a + 1:b].strip() for a, b in zip(arrows, arrows[1:])]
    premises, equation = parts[:-1], parts[-1]
    for k in top_level(equation, "="):
        before, after = equation[k - 1:k], equation[k + 1:k + 2]
        if before not in ("=", "<", ">", ":", "!", "≠") and after not in ("=", ">"):
            return Conclusion(head, tuple(collapse_spaces(p) for p in premises),
                              collapse_spaces(equation[:k]), collapse_spaces(equation[k + 1:]))
    return None


@generator
class ToFun:
    """`Continuous.mul` -> `Continuous.fun_mul`, the eta-expanded form (`Continuous fun x => f x * g x`);
    the statement is kept point-free, which is what the text says."""

    word = "to_fun"
    both = True

    def generate(self, decl: Decl, item: AttributeItem, context: Context) -> list[Generated]:
        if not decl.name:
            return []
        name = _relative(decl.name, item.target) if item.target else _prepend(decl.name, "fun_")
        doc = _related_doc(f"Eta-expanded form of `{decl.name}`", decl.docstring)
        return [Generated(name, decl.sig_rest, doc, item.nested, kind=None)]


class _Suffixed:
    """A category-theory attribute that names its lemma `<source><suffix>` and rewrites the
    source's equation `lhs = rhs` (`reassoc`, `elementwise`, `to_app`)."""

    word: ClassVar[str]
    both: ClassVar[bool] = True
    suffix: ClassVar[str]

    def equation(self, lhs: str, rhs: str) -> str:
        raise NotImplementedError

    def generate(self, decl: Decl, item: AttributeItem, context: Context) -> list[Generated]:
        if not decl.name:
            return []
        parts = _conclusion(decl.sig_rest)
        statement = parts.with_equation(self.equation(parts.lhs, parts.rhs)) if parts else ""
        return [Generated(_append(decl.name, self.suffix), statement, decl.docstring, item.nested)]


@generator
class Reassoc(_Suffixed):
    """`f ≫ g = h` -> `foo_assoc : ∀ {Z} (k : Y ⟶ Z), f ≫ g ≫ k = h ≫ k`."""

    word = "reassoc"
    suffix = "_assoc"

    def equation(self, lhs: str, rhs: str) -> str:
        return f"∀ {{Z}} (h : _ ⟶ Z), {lhs} ≫ h = {rhs} ≫ h"


@generator
class Elementwise(_Suffixed):
    """`f ≫ g = h` -> `foo_apply : ∀ x, (f ≫ g) x = h x` (Lean simplifies the left side to `g (f x)`)."""

    word = "elementwise"
    suffix = "_apply"

    def equation(self, lhs: str, rhs: str) -> str:
        return f"∀ x, ({lhs}) x = ({rhs}) x"


@generator
class ToApp(_Suffixed):
    """An equation of 2-morphisms `α = β` -> `foo_app : ∀ X, α.app X = β.app X`."""

    word = "to_app"
    suffix = "_app"

    def equation(self, lhs: str, rhs: str) -> str:
        return f"∀ X, ({lhs}).app X = ({rhs}).app X"


@generator
class HigherOrder:
    """`foo : ∀ x, f (g x) = h x` -> `foo' : f ∘ g = h`; the statement is not said on text."""

    word = "higher_order"
    both = False

    def generate(self, decl: Decl, item: AttributeItem, context: Context) -> list[Generated]:
        if not decl.name:
            return []
        name = _relative(decl.name, item.target) if item.target else decl.name + "'"
        return [Generated(name, "", _related_doc(f"Higher-order form of `{decl.name}`", None))]


# --- Structure lemmas: ext, mk_iff, simps with its projections named -------------------------------

def _applied(decl: Decl) -> str:
    """`Foo α β` for `structure Foo (α : Type*) (β : Type*) ...`: the type applied to its
    explicit parameters."""
    colon = top_level_colon(decl.sig_rest)
    header = decl.sig_rest[:colon] if colon >= 0 else decl.sig_rest.split(" extends ", 1)[0]
    return " ".join([decl.name, *explicit_binder_names(header)])


@generator
class Ext:
    """On a structure `S`: `S.ext` (equal data fields make equal values) and `S.ext_iff`; on
    an extensionality lemma `foo : h₁ → h₂ → x = y`, `foo_iff : x = y ↔ h₁ ∧ h₂`."""

    word = "ext"
    both = False

    def generate(self, decl: Decl, item: AttributeItem, context: Context) -> list[Generated]:
        if not decl.name or "iff := false" in item.text:
            return []
        if decl.kind in STRUCTURE_KINDS:
            equal = [f"x.{f['name']} = y.{f['name']}" for f in decl.fields if not is_proposition(f["type"])]
            subject = "{x y : %s}" % _applied(decl)
            return [Generated(f"{decl.name}.ext", f" {subject} : {' → '.join([*equal, 'x = y'])}", None),
                    Generated(f"{decl.name}.ext_iff", f" {subject} : x = y ↔ {' ∧ '.join(equal) or 'True'}", None)]
        parts = _conclusion(decl.sig_rest)
        if parts is None:
            return [Generated(_append(decl.name, "_iff"), "", None)]
        hypotheses, kept = [], []
        for bracket, inner in binder_groups(parts.head[:-1]):
            _, colon, type_ = inner.partition(":")
            if bracket == "(" and colon and is_proposition(type_):
                hypotheses.append(type_.strip())
            else:
                kept.append(f"{bracket}{inner}{BRACKETS.opening[bracket]}")
        conditions = " ∧ ".join([*hypotheses, *parts.premises]) or "True"
        return [Generated(_append(decl.name, "_iff"),
                          f" {' '.join(kept)} : {parts.lhs} = {parts.rhs} ↔ {conditions}", None)]


@generator
class MkIff:
    """`@[mk_iff] inductive Foo : ... → Prop` -> `foo_iff : Foo args ↔ (one case per constructor)`;
    for a structure of propositions, `Foo args ↔ field₁ ∧ field₂ ∧ ...`. Only for propositions,
    as Lean's attribute."""

    word = "mk_iff"
    both = False

    def generate(self, decl: Decl, item: AttributeItem, context: Context) -> list[Generated]:
        colon = top_level_colon(decl.sig_rest)
        if not decl.name or colon < 0 or not decl.sig_rest[colon + 1:].strip().endswith("Prop"):
            return []
        parts = split_name(decl.name)
        if item.target:
            name = join_name(decl.namespace, item.target)
        else:
            name = join_name(*parts[:-1], parts[-1][:1].lower() + parts[-1][1:] + "_iff")
        cases = " ∧ ".join(collapse_spaces(f["type"]) for f in decl.fields) if decl.fields else " ∨ ".join(
            f"{decl.name}.{c}" for c in decl.constructors)
        return [Generated(name, f" : {_applied(decl)} ↔ {cases or '_'}", None)]


@generator
class Simps:
    """`@[simps apply symm_apply] def foo` -> `foo_apply`, `foo_symm_apply`; without names, one
    lemma per projection of the definition's type that is not a proof (`simps.SimpsTable`). A
    projection that `initialize_simps_projections` puts first names `coe_foo`."""

    word = "simps"
    both = False

    def generate(self, decl: Decl, item: AttributeItem, context: Context) -> list[Generated]:
        if not decl.name or context.simps is None:
            return []
        projections = [(p, context.simps.prefixed(decl, p)) for p in item.names] if item.names else \
            context.simps.projections(decl)
        doc = f"A `simps` lemma of `{decl.name}`: the value of its projection `{{}}`."
        return [Generated(_prepend(decl.name, f"{p}_") if first else f"{decl.name}_{p}", "", doc.format(p), item.nested)
                for p, first in projections]


def generated(decl: Decl, items: list[tuple[str, str | None]], context: Context) -> list[tuple[Generated, str]]:
    """Every declaration the items on `decl` make, with the attribute that made it."""
    out = []
    for item, doc in items:
        parsed = parse_item(item, doc)
        spec = GENERATORS.get(parsed.word)
        if spec is not None:
            out += [(g, parsed.word) for g in spec.generate(decl, parsed, context)]
    return out


def translation_table(named: Iterable[tuple[str, AttributeItem, NameDictionary]]) -> dict[str, str]:
    """Source -> translated full names for a translating attribute, from every (source name,
    item, the dictionary of its file) it is applied with. Shorter names go first, so that the
    namespace of `Monoid.foo` is translated with the entry made for `Monoid`."""
    table: dict[str, str] = {}
    for name, item, dictionary in sorted(named, key=lambda entry: len(split_name(entry[0]))):
        if "none" in item.flags or "self" in item.flags:
            continue
        table[name] = dictionary.explicit(name, item.target, table) if item.target else dictionary.guess(name, table)
    return table
