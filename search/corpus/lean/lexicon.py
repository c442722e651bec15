"""How each Lean constant is said in English: the lexicon of the informaliser.

A phrase is a template over a constant's explicit arguments (`{0}`, `{1}`, ...; `{*}` is the
arguments beyond those the template names) with a role: a *predicate* says something of its
arguments (`IsCompact s`: "{0} is compact"), a *function* names a thing (`deriv f x`: "the
derivative of {0} at {1}"), a *class* names a kind of thing (`CommRing R`: "commutative ring").

Where each phrase comes from, in order of precedence (`Phrase.source`):

1. `lexicon_corrections.tsv` beside this module: phrases people wrote or corrected, one a line
   (`constant<TAB>role<TAB>template`), read at every build;
2. `NOTATION_PHRASES` below: Lean's and Mathlib's notation, as `notation.py` reads it;
3. the first sentence of the constant's docstring, where it says what the constant is in a
   shape read here (`A set `s` is compact if ...`, ``s.card` is the number of elements of `s``,
   `Derivative of `f` at the point `x``), its backticked arguments becoming the slots;
4. Mathlib's naming conventions: the name's words (`IsCompact` -> "compact",
   `Real.sqrt` -> "square root", `CommRing` -> "commutative ring", `search.text.lean_text`).

`python -m search lexicon` writes the lexicon an index was built with, for people to read and
correct (`--corrections` shows where a correction goes).
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from search.corpus.lean.decl import binder_groups
from search.corpus.lean.notation import COERCION, CONGRUENCES, ITERATE, VECTOR
from search.record import Statement
from search.text.lean_text import binders_and_type, split_identifier

CORRECTIONS = Path(__file__).with_name("lexicon_corrections.tsv")
ROLES = ("predicate", "function", "class")


@dataclass(frozen=True)
class Phrase:
    """How a constant is said: its template, role and where the phrase comes from."""

    template: str
    role: str
    source: str
    #: Explicit arguments at the end of the constant's header that have a default value
    #: (`HasSum f a (L := unconditional β)`), which a statement may write or leave out.
    optional: int = field(default=0, compare=False)

    @property
    def aligned_left(self) -> bool:
        """Whether the slots are the first arguments (notation's constants, applied to all of
        theirs) rather than the last (a constant whose first arguments may be `variable`s)."""
        return self.source == "notation"

    @cached_property
    def slots(self) -> int:
        """How many explicit arguments the template names (`{0}` .. `{k-1}`)."""
        found = [int(n) for n in re.findall(r"\{(\d+)\}", self.template)]
        return max(found) + 1 if found else 0


def _p(template: str, role: str = "function") -> Phrase:
    return Phrase(template, role, "notation")


#: Notation's constants (search/corpus/lean/notation.py) and the core ones every statement uses.
NOTATION_PHRASES: dict[str, Phrase] = {
    "Eq": _p("{0} equals {1}", "predicate"), "Ne": _p("{0} is not equal to {1}", "predicate"),
    "LE.le": _p("{0} is at most {1}", "predicate"), "LT.lt": _p("{0} is less than {1}", "predicate"),
    "GE.ge": _p("{0} is at least {1}", "predicate"), "GT.gt": _p("{0} is greater than {1}", "predicate"),
    "Membership.mem": _p("{1} belongs to {0}", "predicate"), "HasSubset.Subset": _p("{0} is a subset of {1}", "predicate"),
    "HasSSubset.SSubset": _p("{0} is a proper subset of {1}", "predicate"), "Dvd.dvd": _p("{0} divides {1}", "predicate"),
    "Iff": _p("{0} if and only if {1}", "predicate"), "And": _p("{0} and {1}", "predicate"),
    "Or": _p("{0} or {1}", "predicate"), "Not": _p("it is not the case that {0}", "predicate"),
    "True": _p("true", "predicate"), "False": _p("false", "predicate"),
    "Disjoint": _p("{0} and {1} are disjoint", "predicate"), "CovBy": _p("{1} covers {0}", "predicate"),
    "HasEquiv.Equiv": _p("{0} is equivalent to {1}", "predicate"),
    "Function.Injective": _p("{0} is injective", "predicate"), "Function.Surjective": _p("{0} is surjective", "predicate"),
    "Function.Bijective": _p("{0} is bijective", "predicate"),
    "HAdd.hAdd": _p("{0} + {1}"), "HSub.hSub": _p("{0} - {1}"), "HMul.hMul": _p("{0} * {1}"),
    "HDiv.hDiv": _p("{0} / {1}"), "HMod.hMod": _p("{0} mod {1}"), "HPow.hPow": _p("{0} ^ {1}"),
    "HSMul.hSMul": _p("{0} • {1}"), "HVAdd.hVAdd": _p("{0} +ᵥ {1}"), "VSub.vsub": _p("{0} -ᵥ {1}"),
    "Neg.neg": _p("-{0}"), "Inv.inv": _p("the inverse of {0}"), "HAppend.hAppend": _p("{0} ++ {1}"),
    "Function.comp": _p("{0} composed with {1}"), "Inter.inter": _p("the intersection of {0} and {1}"),
    "Union.union": _p("the union of {0} and {1}"), "SDiff.sdiff": _p("{0} minus {1}"),
    "HasCompl.compl": _p("the complement of {0}"), "Min.min": _p("the minimum of {0} and {1}"),
    "Max.max": _p("the maximum of {0} and {1}"), "Top.top": _p("the top element"), "Bot.bot": _p("the bottom element"),
    "EmptyCollection.emptyCollection": _p("the empty set"), "Set.univ": _p("the whole space"),
    "Finset.univ": _p("all elements"), "Singleton.singleton": _p("{{{0}}}"), "Insert.insert": _p("{0} inserted in {1}"),
    "Prod.mk": _p("({0}, {1})"), "List.nil": _p("the empty list"), "List.cons": _p("{0} :: {1}"),
    VECTOR[1]: _p("the empty vector"), ITERATE: _p("{0} iterated {1} times"),
    "Nat.factorial": _p("the factorial of {0}"), "Norm.norm": _p("the norm of {0}"), "NNNorm.nnnorm": _p("the norm of {0}"),
    "abs": _p("the absolute value of {0}"), "Int.floor": _p("the floor of {0}"), "Nat.floor": _p("the floor of {0}"),
    "Int.ceil": _p("the ceiling of {0}"), "Nat.ceil": _p("the ceiling of {0}"),
    "Finset.card": _p("the number of elements of {0}"), "Real.sqrt": _p("the square root of {0}"),
    "Real.pi": _p("π"), "Set.image": _p("the image of {1} under {0}"), "Set.preimage": _p("the preimage of {1} under {0}"),
    "Set.sUnion": _p("the union of {0}"), "Set.sInter": _p("the intersection of {0}"),
    "Finset.sum": _p("the sum of {1} over {0}"), "Finset.prod": _p("the product of {1} over {0}"),
    "tsum": _p("the sum of the series {0}"), "tprod": _p("the infinite product {0}"), "finsum": _p("the sum of {0}"),
    "finprod": _p("the product of {0}"), "Set.iUnion": _p("the union of {0}"), "Set.iInter": _p("the intersection of {0}"),
    "iSup": _p("the supremum of {0}"), "iInf": _p("the infimum of {0}"),
    "sSup": _p("the supremum of {0}"), "sInf": _p("the infimum of {0}"),
    "SupSet.sSup": _p("the supremum of {0}"), "InfSet.sInf": _p("the infimum of {0}"),
    "MeasureTheory.integral": _p("the integral of {1} with respect to {0}"),
    "MeasureTheory.lintegral": _p("the lower integral of {1} with respect to {0}"),
    "intervalIntegral": _p("the integral of {0} from {1} to {2}"),
    "MeasureTheory.MeasureSpace.volume": _p("the volume measure"),
    "Filter.Eventually": _p("eventually along {1}, {0}", "predicate"),
    "Filter.Frequently": _p("frequently along {1}, {0}", "predicate"),
    "Filter.Tendsto": _p("{0} tends to {2} along {1}", "predicate"), "nhds": _p("{0}"),
    "nhdsWithin": _p("{0} within {1}"), "Filter.atTop": _p("infinity"), "Filter.atBot": _p("minus infinity"),
    "setOf": _p("the set of {0}"), "Subtype": _p("the subtype of {0}"),
    "Exists": _p("there is {0}", "predicate"), "ExistsUnique": _p("there is a unique {0}", "predicate"),
    "ite": _p("{1} if {0}, else {2}"), "dite": _p("{1} if {0}, else {2}"),
    "Equiv": _p("equivalence between {0} and {1}", "class"), "CategoryTheory.Iso": _p("isomorphism from {0} to {1}", "class"),
    "Quiver.Hom": _p("morphism from {0} to {1}", "class"), "CategoryTheory.Functor": _p("functor from {0} to {1}", "class"),
    "CategoryTheory.CategoryStruct.comp": _p("{0} followed by {1}"), "CategoryTheory.CategoryStruct.id": _p("the identity of {0}"),
    "MonoidHom": _p("monoid homomorphism from {0} to {1}", "class"), "RingHom": _p("ring homomorphism from {0} to {1}", "class"),
    "AddMonoidHom": _p("additive monoid homomorphism from {0} to {1}", "class"),
    "LinearMap": _p("linear map from {1} to {2}", "class"), "Prod": _p("product of {0} and {1}", "class"),
    "Sum": _p("sum type of {0} and {1}", "class"), "Set": _p("set of {0}", "class"), "Finset": _p("finite set of {0}", "class"),
    "List": _p("list of {0}", "class"), "Nat": _p("natural number", "class"), "Int": _p("integer", "class"),
    "Rat": _p("rational number", "class"), "Real": _p("real number", "class"), "Complex": _p("complex number", "class"),
    "NNReal": _p("nonnegative real number", "class"), "ENNReal": _p("extended nonnegative real number", "class"),
    "Fin": _p("element of Fin {0}", "class"), "Polynomial": _p("polynomial over {0}", "class"),
    "Matrix": _p("matrix", "class"), "Filter": _p("filter on {0}", "class"), "Ideal": _p("ideal of {0}", "class"),
    "Subgroup": _p("subgroup of {0}", "class"), "Submodule": _p("submodule of {1}", "class"),
    "Function.Embedding": _p("embedding of {0} into {1}", "class"),
    "LinearMap.comp": _p("{0} composed with {1}"), "ContinuousLinearMap.comp": _p("{0} composed with {1}"),
    "Homeomorph": _p("homeomorphism between {0} and {1}", "class"),
    "IsometryEquiv": _p("isometric equivalence between {0} and {1}", "class"),
    "MulHom": _p("multiplicative homomorphism from {0} to {1}", "class"),
    "NonUnitalRingHom": _p("non-unital ring homomorphism from {0} to {1}", "class"),
    "dotProduct": _p("the dot product of {0} and {1}"), "Matrix.mulVec": _p("the product of the matrix {0} and the vector {1}"),
    "Matrix.vecMul": _p("the product of the vector {0} and the matrix {1}"), "Matrix.transpose": _p("the transpose of {0}"),
    "Matrix.conjTranspose": _p("the conjugate transpose of {0}"),
    "Submodule.orthogonal": _p("the orthogonal complement of {0}"),
    "PosPart.posPart": _p("the positive part of {0}"), "NegPart.negPart": _p("the negative part of {0}"),
    "OneLePart.oneLePart": _p("the positive part of {0}"), "LeOnePart.leOnePart": _p("the negative part of {0}"),
    "IntermediateField.adjoin": _p("the extension of {0} generated by {1}"),
    "CategoryTheory.shiftFunctor": _p("the shift functor by {1} of {2}"),
    "TopologicalSpace.Opens.map": _p("the preimage under {0} of {1}"),
    "SimplexCategory.mk": _p("the simplex of dimension {0}"),
    "OreLocalization": _p("element of the localization of {1} at {0}", "class"),
    "GetElem.getElem": _p("the element of {0} at index {1}"),
    "GetElem?.getElem?": _p("the optional element of {0} at index {1}"),
    "GetElem?.getElem!": _p("the element of {0} at index {1}"),
    "Polynomial.modByMonic": _p("the remainder of {0} modulo {1}"), "Polynomial.divByMonic": _p("the quotient of {0} by {1}"),
    "Filter.EventuallyEq": _p("{1} equals {2} eventually along {0}", "predicate"),
    "Filter.EventuallyLE": _p("{1} is at most {2} eventually along {0}", "predicate"),
    "MeasureTheory.ae": _p("the almost-everywhere filter of {0}"),
    "Bracket.bracket": _p("the bracket of {0} and {1}"), "Inner.inner": _p("the inner product of {1} and {2}"),
    "Invertible.invOf": _p("the inverse of {0}"), "ENorm.enorm": _p("the extended norm of {0}"),
    "mabs": _p("the multiplicative absolute value of {0}"),
    "EuclideanGeometry.angle": _p("the angle at {1} between {0} and {2}"),
    "EuclideanGeometry.oangle": _p("the oriented angle at {1} from {0} to {2}"),
    "CategoryTheory.MonoidalCategoryStruct.whiskerLeft": _p("the whiskering of {1} by {0} on the left"),
    "CategoryTheory.MonoidalCategoryStruct.whiskerRight": _p("the whiskering of {0} by {1} on the right"),
    "CategoryTheory.MonoidalCategoryStruct.tensorHom": _p("the tensor product of {0} and {1}"),
    "CategoryTheory.MonoidalCategoryStruct.tensorObj": _p("the tensor product of {0} and {1}"),
    "CategoryTheory.MonoidalCategoryStruct.tensorUnit": _p("the unit object of {0}"),
    "HasQuotient.Quotient": _p("the quotient of {0} by {1}"), "Multiset.cons": _p("{0} inserted in {1}"),
    "Prod.fst": _p("the first component of {0}"), "Prod.snd": _p("the second component of {0}"),
    "Subtype.val": _p("the element {0}"), "Subtype.property": _p("the property of {0}"),
    COERCION: _p("the coercion"),
    "BEq.beq": _p("{0} == {1}"), "bne": _p("{0} != {1}"), "nhdsSet": _p("the neighborhoods of {0}"),
    "Asymptotics.IsLittleO": _p("{1} is little o of {2} along {0}", "predicate"),
    "Asymptotics.IsBigO": _p("{1} is big O of {2} along {0}", "predicate"),
    "Asymptotics.IsTheta": _p("{1} is big Theta of {2} along {0}", "predicate"),
    **dict.fromkeys(CONGRUENCES.values(), _p("{1} is congruent to {2} modulo {0}", "predicate")),
    "CategoryTheory.Iso.trans": _p("{0} followed by {1}"), "Associated": _p("{0} and {1} are associated", "predicate"),
    "HEq": _p("{0} equals {1}", "predicate"), "Specializes": _p("{0} specializes to {1}", "predicate"),
}

#: Words that begin a predicate's name and are its verb (`IsCompact`, `HasSum`,
#: `PreservesFiniteProducts`: "{0} preserves finite products").
_PREDICATE_PREFIXES = ("is", "has", "preserves", "reflects", "creates", "respects", "admits", "satisfies",
                       "generates", "separates")
#: Words ending in these say a property, not a kind of thing ("finite", "continuous", "additive").
_ADJECTIVE_ENDING = re.compile(r"(?:ble|ed|ive|ous|ic|ite|que|ise|ete|ar|al)$")
#: Adjectives among the last words of Mathlib's type names that no ending gives away.
_ADJECTIVES = frozenset({"free", "etale", "left", "right", "most", "extra", "like", "reverse", "inverse", "dual",
                         "one", "zero", "top", "bottom", "dependent", "semidef", "modulo", "mono", "epi"})
#: How Mathlib names a hypothesis (`h`, `hp`, `h₁`, `hab'`).
HYPOTHESIS = re.compile(r"^h[A-Za-z]{0,3}[₀-₉0-9']*$")
_VOWEL = re.compile(r"^[aeiouAEIOU]")
_PROPERTY_NAME = re.compile(r"^(?:Is|Has|Are)[A-Z]")
#: A predicate named by words ending in one of these relates its last two arguments.
_PREPOSITIONS = frozenset({"at", "on", "within", "in", "of", "to", "from", "with", "along", "for"})
_ARTICLE = re.compile(r"^(?:a|an|the)\s", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s|\n\n")
_TICKED = re.compile(r"`([^`]+)`")
#: Docstring shapes: "A set `s` is compact if ...", "`x` is a unit if ...", "A function `f` is
#: differentiable at a point `x` if ..." (the backticked name before "is" is the subject).
_IS_IF = re.compile(r"(?:`(?P<subject>[^`\s]+)`\s+)?\bis\s+(?P<phrase>(?:not\s+)?[^.,;:]{1,60}?)\s+"
                    r"(?:if|iff|when|whenever|provided)\b")
#: "`Nat.Prime p` means that `p` is a prime number, that is ...".
_MEANS = re.compile(r"(?:means|is the proposition|states|says|asserts)\s+(?:that\s+)?`(?P<subject>[^`]+)`\s+"
                    r"(?P<phrase>(?:is|has)\s[^.;:]{1,70}?)(?=,|\.|;|$| that is| i\.e)")
#: "`f` has the derivative `f'` at the point `x`."
_SUBJECT_FIRST = re.compile(r"^`(?P<subject>[^`\s]+)`\s+(?P<phrase>(?:is|has|admits|converges|tends|belongs|lies)\s[^.;]{1,90}?)(?=,|\.|;|$| i\.e)")
#: "`s.card` is the number of elements of `s`, aka its cardinality."
_IS_THE = re.compile(r"^`(?P<call>[^`]+)`\s+(?:is|denotes|gives)\s+(?P<phrase>(?:the|a|an)\s[^.;]{1,90}?)(?=,|\.|;|$| i\.e| aka)")
#: "Derivative of `f` at the point `x`, if it exists." / "The square root of a real number."
_NOUN_FIRST = re.compile(r"^(?:The\s+)?(?P<phrase>[A-Za-z][a-z-]*(?:\s[a-z-]+){0,3}\s(?:of|between|from)\s[^.;]{1,80}?)(?=,|\.|;|$)")


#: One reading of each abbreviation Mathlib's names use (`search.text.lean_text.NAME_WORDS` lists
#: several readings of a word, for search; a phrase needs one).
PHRASE_WORDS: dict[str, str] = {
    "add": "additive", "mul": "multiplicative", "comm": "commutative", "assoc": "associative",
    "fin": "finite", "finset": "finite set", "fintype": "finite type", "finsupp": "finitely supported function",
    "nat": "natural number", "int": "integer", "rat": "rational number", "sqrt": "square root",
    "deriv": "derivative", "fderiv": "Fréchet derivative", "card": "cardinality", "ncard": "cardinality",
    "gcd": "greatest common divisor", "lcm": "least common multiple", "inv": "inverse", "neg": "negation",
    "pow": "power", "zpow": "integer power", "smul": "scalar multiplication", "char": "characteristic",
    "fg": "finitely generated", "iso": "isomorphism", "hom": "homomorphism", "equiv": "equivalence",
    "mem": "member", "ker": "kernel", "det": "determinant", "eval": "evaluation", "coeff": "coefficient",
    "exp": "exponential", "log": "logarithm", "cos": "cosine", "sin": "sine", "tan": "tangent",
    "nhds": "neighbourhoods", "dist": "distance", "edist": "extended distance", "nnnorm": "norm",
    "norm": "norm", "diam": "diameter", "ae": "almost everywhere", "tsum": "sum", "tprod": "product",
    "sup": "supremum", "inf": "infimum", "top": "top", "bot": "bottom", "max": "maximum", "min": "minimum",
    "lt": "less than", "le": "at most", "gt": "greater than", "ge": "at least", "ne": "not equal",
    "eq": "equal", "pos": "positive", "nonneg": "nonnegative", "dvd": "divisible", "mod": "modulo",
    "charpoly": "characteristic polynomial", "minpoly": "minimal polynomial", "finrank": "dimension",
    "zmod": "integers modulo", "padic": "p-adic", "cont": "continuous", "contdiff": "smooth",
    "iunion": "indexed union", "iinter": "indexed intersection", "isup": "indexed supremum",
    "iinf": "indexed infimum", "symm": "symmetric", "refl": "reflexive", "trans": "transitive",
    "preimage": "preimage", "comap": "pullback", "compl": "complement", "univ": "whole space",
    "sdiff": "difference", "ssubset": "proper subset", "lintegral": "lower integral",
}


#: Two words of a name read together (`NatTrans` is no "natural number transitive").
PHRASE_PAIRS: dict[tuple[str, str], str] = {
    ("nat", "trans"): "natural transformation", ("f", "deriv"): "Fréchet derivative", ("nat", "iso"): "natural isomorphism",
    ("nat", "degree"): "natural degree", ("nat", "abs"): "natural absolute value",
    ("cont", "diff"): "continuously differentiable", ("cont", "mdiff"): "smooth",
    ("s", "sup"): "supremum", ("s", "inf"): "infimum", ("i", "sup"): "supremum", ("i", "inf"): "infimum",
}


def words_of(name: str) -> str:
    """A name's last component in words, Mathlib's abbreviations read once each (`PHRASE_WORDS`,
    `PHRASE_PAIRS`): `CommRing` -> "commutative ring", `sqrt` -> "square root", `IsCompact` ->
    "is compact"."""
    words, said = split_identifier(name.rsplit(".", 1)[-1]), []
    k = 0
    while k < len(words):
        pair = PHRASE_PAIRS.get(tuple(words[k:k + 2]))  # type: ignore[arg-type]
        said.append(pair or PHRASE_WORDS.get(words[k], words[k]))
        k += 2 if pair else 1
    return " ".join(said)


def with_article(noun: str) -> str:
    """`noun` after "a" or "an", unless it has an article already (`AList`: "a list")."""
    if _ARTICLE.match(noun):
        return noun
    return ("an " if _VOWEL.match(noun) else "a ") + noun


#: Plurals no ending gives ("series" ends in "ies" and stays as it is).
_IRREGULAR_PLURALS = {"matrix": "matrices", "vertex": "vertices", "index": "indices", "basis": "bases",
                      "radius": "radii", "simplex": "simplices", "locus": "loci"}


def plural(noun: str) -> str:
    """A noun phrase for several, its last word's plural ("topological spaces", "categories")."""
    head, _, last = _ARTICLE.sub("", noun).rpartition(" ")
    if last in _IRREGULAR_PLURALS or last.endswith("ies"):
        last = _IRREGULAR_PLURALS.get(last, last)
    elif re.search(r"[^aeiou]y$", last):
        last = last[:-1] + "ies"
    elif re.search(r"(?:s|x|z|ch|sh)$", last):
        last += "es"
    else:
        last += "s"
    return f"{head} {last}" if head else last


def is_verb_phrase(words: str) -> bool:
    """Whether a name's words begin with a predicate's verb (`HasZeroMorphisms`: "has zero
    morphisms"), so that they say something of a subject rather than name a kind of thing."""
    return words.split(" ", 1)[0] in _PREDICATE_PREFIXES


def is_adjective(word: str) -> bool:
    """Whether a word of a name says a property rather than a kind of thing."""
    word = word.lower()
    return word in _ADJECTIVES or len(word) <= 2 or bool(_ADJECTIVE_ENDING.search(word))


def _first_sentence(doc: str) -> str:
    return _SENTENCE.split(" ".join(doc.split("\n")).strip(), 1)[0].strip() if doc else ""


#: Markdown emphasis, with stars (`*cyclic*`, `**cyclic**`) or underscores around words (`_even_`).
_EMPHASIS = re.compile(r"\*+([^*]+)\*+|(?<!\w)_([^_\s][^_]*?)_(?!\w)")
#: Filler between "is" and the property: "is called *cyclic*", "is said to be polynomial".
_FILLER = re.compile(r"\bis (?:called|said to be|defined to be|defined as) ")
_VERBS = frozenset({"get", "gets", "return", "returns", "compute", "computes", "prove", "proves", "attempt",
                    "construct", "constructs", "given", "make", "makes", "build", "builds", "find", "finds",
                    "apply", "applies", "run", "runs", "convert", "converts", "check", "checks", "use", "uses"})


def _tidy(phrase: str) -> str:
    """A phrase without Markdown emphasis or filler words, and cut before a second `is`."""
    phrase = _FILLER.sub("is ", _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), phrase))
    head, sep, _ = phrase.partition(" is ")
    return head if sep and not phrase.startswith("{") else phrase


#: Subscripts and primes that make another name of a variable (`x₀`, `x'`).
_DECORATION = re.compile(r"[₀-₉']+$")
#: Nouns of a docstring's subject that a function's type names by its arrow, not by a word.
_FUNCTION_NOUNS = frozenset({"function", "map", "sequence"})
#: A noun naming a slot's type before it ("of the polynomial {0}", "at a point {1}"): left out,
#: as the argument said in its place may be no bare variable ("the degree of the product of p and q").
_APPOSITION = re.compile(r"\b(of|at|in|on|to|for|from|by|with|within) (?:the|a|an) (?:[a-z-]+ ){1,2}?(\{\d+\})")


#: A constant's name as a docstring writes it in backticks (`IntegrableOn`, `Set.OrdConnected`).
_CONSTANT = re.compile(r"(?:\w+\.)*[A-Z][a-z]+(?:[A-Z][A-Za-z]*)+")


def _slots(text: str, args: list[str]) -> str:
    """`text` with each backticked argument name made its slot (`{k}`), other backticks dropped
    and a constant's name said by its words ("`f` is `IntegrableOn` `s`": "{0} is integrable
    on {1}"). A name the header does not bind but an argument's with a subscript or prime is
    that argument ("continuous at a point `x₀`" of `ContinuousAt f x`) when the argument's own
    name is not written."""
    position = {name: k for k, name in enumerate(args)}

    def slot(m: re.Match[str]) -> str:
        inner = m.group(1).strip()
        bare = _DECORATION.sub("", inner)
        if inner not in position and bare in position and f"`{bare}`" not in text:
            inner = bare
        if inner in position:
            return "{%d}" % position[inner]
        return words_of(inner).removeprefix("is ") if _CONSTANT.fullmatch(inner) else inner

    return _APPOSITION.sub(r"\1 \2", _tidy(_TICKED.sub(slot, text).replace("`", "")))


def from_docstring(statement: Statement, args: list[str], prop: bool, optional: int = 0) -> Phrase | None:
    """The phrase a docstring's first sentence gives, in one of the shapes read here (`optional`:
    how many of the last `args` have a default value)."""
    sentence = _first_sentence(statement.doc)
    if not sentence or "{" in sentence:
        return None
    if prop:
        for shape in (_MEANS, _SUBJECT_FIRST):
            found = shape.search(sentence)
            if found and found.group("subject") in args and len(found.group("phrase").split()) <= 10 \
                    and " that " not in found.group("phrase"):
                said = _slots(found.group("phrase"), args)
                return Phrase("{%d} %s" % (args.index(found.group("subject")), said), "predicate", "docstring")
        is_if = _IS_IF.search(sentence)
        if is_if and args:
            said = _slots(is_if.group("phrase"), args)
            if is_if.group("subject") in args:
                subject = "{%d}" % args.index(is_if.group("subject"))
            elif unsaid := [k for k in range(len(args) - optional) if "{%d}" % k not in said]:
                # "A function is continuous on `s` if": `f`, not `s`; "A function is almost everywhere
                # measurable if" (`AEMeasurable f (μ := volume)`): `f`, never a default's argument
                subject = "{%d}" % _subject(statement, args, unsaid, sentence[:is_if.start()])
            else:  # the phrase says every argument of the header: the subject is a `variable` before them
                subject, said = "{0}", re.sub(r"\{(\d+)\}", lambda m: "{%d}" % (int(m.group(1)) + 1), said)
            return Phrase(f"{subject} is {said}", "predicate", "docstring")
        return None
    # A function's phrase says at least one of its arguments: "the set of all points `y` with `dist y
    # x < ε`" (`Metric.ball x ε`) or "the span of a set `s ⊆ M`" would say none, where the name's
    # words say them ("the ball of x and ε").
    is_the = _IS_THE.search(sentence)
    if is_the and any(a in is_the.group("call").split() or is_the.group("call").startswith(f"{a}.") for a in args):
        phrase = _slots(is_the.group("phrase"), args)
        return Phrase(phrase, "function", "docstring") if "{" in phrase else None
    noun = _NOUN_FIRST.search(sentence)
    if noun and noun.group("phrase").split()[0].lower() not in _VERBS and any(
            f"`{a}`" in noun.group("phrase") for a in args):
        phrase = _slots(noun.group("phrase"), args)
        if "{" not in phrase:
            return None
        return Phrase(phrase if _ARTICLE.match(phrase) else "the " + phrase[0].lower() + phrase[1:], "function", "docstring")
    return None


#: Nouns that stand for their complement ("a family of sets" is sets).
_COLLECTIVE = frozenset({"family", "collection", "pair", "set", "sequence"})
#: First words of a clause that sets the scene rather than names the subject ("Given ..., a map").
_SUBORDINATE = frozenset({"given", "for", "if", "let", "when", "in", "on", "with", "assuming", "suppose"})


def _head_nouns(subject: str) -> list[str]:
    """The words of a docstring's subject up to its first preposition ("A vertex in a graph" ->
    vertex), or those after a collective noun's "of" ("A family of functions" -> functions)."""
    words = re.findall(r"[a-z]+", _TICKED.sub("", subject).lower())
    words = [w for w in words if w not in ("a", "an", "the")]
    cut = next((i for i, w in enumerate(words) if w in _PREPOSITIONS or w in ("between", "over")), len(words))
    if cut + 1 < len(words) and cut and words[cut - 1] in _COLLECTIVE and words[cut] == "of":
        return _head_nouns(" ".join(words[cut + 1:]))
    return words[:cut]


def _subject(statement: Statement, args: list[str], unsaid: list[int], before: str) -> int:
    """Which of the `unsaid` arguments a docstring's subject (`before` its "is") is: the last one
    whose type its nouns name ("A family of functions" of `iIndepFun f κ`: f, whose type is an
    arrow, not the kernel κ; "A family of sets": a type with `Set`), else the last one."""
    binders, _ = binders_and_type(statement.statement)
    types = {name: inner.split(":", 1)[1] for bracket, inner in binder_groups(binders)
             if bracket == "(" and ":" in inner for name in inner.split(":", 1)[0].split()}
    first, last = before.split(",", 1)[0], before.rsplit(",", 1)[-1]
    # "Given ..., a ring morphism `f`": the last clause; "A family of functions ..., each with ...": the first
    clauses = (last,) if first == last or first.split(" ", 1)[0].lower() in _SUBORDINATE else (last, first)
    for clause in clauses:
        nouns = {word.removesuffix("s") for word in _head_nouns(clause)}
        named = [k for k in unsaid if (nouns & _FUNCTION_NOUNS and "→" in types.get(args[k], ""))
                 or nouns & {word.lower() for word in re.findall(r"[A-Z][a-z]+", types.get(args[k], ""))}]
        if named:
            return named[-1]
    return unsaid[-1]


def _same_type(header: str, a: str, b: str) -> bool:
    """Whether two explicit arguments are bound in one group (`(m n : ℕ)`)."""
    binders, _ = binders_and_type(header)
    return any(bracket == "(" and ":" in inner and {a, b} <= set(inner.split(":", 1)[0].split())
               for bracket, inner in binder_groups(binders))


def explicit_binders(header: str) -> list[tuple[str, str]]:
    """A header's explicit binders, `(x y : T)` and `(α)` alike, in order: each name with its
    type as written ("" for none)."""
    out: list[tuple[str, str]] = []
    for bracket, inner in binder_groups(header):
        if bracket == "(":
            names, colon, written = inner.partition(":")
            out += [(name, written if colon else "") for name in names.split()]
    return out


def explicit_arguments(header: str) -> list[str]:
    """The names of a header's explicit binders, in order (`explicit_binders`)."""
    return [name for name, _ in explicit_binders(header)]


def statement_arguments(s: Statement) -> list[str]:
    """What a record's constant is applied to, by name: the explicit `variable` binders of its
    section it takes (`meta.variables`, which Lean puts first), then its header's explicit
    binders. `class Ring.DimensionLEOne : Prop` under `variable (R : Type*)` is applied to R:
    its own sentence says "R is ...". A phrase's slots stay its header's arguments, aligned from
    the right (`from_name`): filled by the arguments a statement writes, extra slots for the
    section's variables would be misread where a statement writes the constant by field notation
    (`s.filter p` is `Finset.filter p s`) or leaves them out (an unfilled slot reads "it")."""
    return explicit_arguments(_with_variables(s))


def _with_variables(s: Statement) -> str:
    """A record's binders after the section's `variable` binders it takes, as Lean orders its
    arguments."""
    binders, _ = binders_and_type(s.statement)
    return f"{s.meta.get('variables') or ''} {binders}"


def optional_arguments(header: str) -> int:
    """How many of a header's last explicit binders have a default value (`(L := unconditional
    β)`, `(μ : Measure α := by volume_tac)`), counted from the end."""
    count = 0
    for bracket, inner in reversed([g for g in binder_groups(header) if g[0] == "("]):
        if ":=" not in inner:
            break
        count += len(inner.split(":", 1)[0].split())
    return count


def own_arguments(header: str, args: list[str]) -> list[str]:
    """The explicit arguments a statement is about: those no binder's type names (not the
    field 𝕜 of `Differentiable 𝕜 f`, which `[NontriviallyNormedField 𝕜]` names). They come
    last, so the slots that stand for them align from the right; the first is the subject
    (`Integrable f μ`: f, `Function.Periodic f c`: f)."""
    binders, _ = binders_and_type(header)
    types = " ".join(inner.split(":", 1)[1] if ":" in inner else inner if bracket == "[" else ""
                     for bracket, inner in binder_groups(binders))
    named = set(re.findall(r"[^\s()\[\]{}:,.]+", types))
    return [arg for arg in args if arg not in named]


def _prepositional(verb: str, said: str, arity: int) -> Phrase | None:
    """A predicate whose name ends in prepositions, each taking one of the last arguments, the
    subject before them (and for `Has…`, the thing it has): `DifferentiableWithinAt 𝕜 f s x` ->
    "{0} is differentiable within {1} at {2}", `HasFDerivAt f f' x` -> "{0} has f derivative {1} at {2}"."""
    words = said.split()
    tail = 0
    while tail < len(words) - 1 and words[len(words) - 1 - tail] in _PREPOSITIONS:
        tail += 1
    if not tail or arity < tail + 1:
        return None
    core, prepositions = " ".join(words[:len(words) - tail]), words[len(words) - tail:]
    has_object = verb == "has" and arity >= tail + 2
    slot = 2 if has_object else 1
    template = "{0} %s %s%s" % (verb, core, " {1}" if has_object else "")
    for k, preposition in enumerate(prepositions):
        template += " %s {%d}" % (preposition, slot + k)
    return Phrase(template, "predicate", "name")


def from_name(name: str, header: str, args: list[str], prop: bool, is_type: bool,
              kinds: frozenset[str] = frozenset()) -> Phrase:
    """The phrase Mathlib's naming conventions give: a predicate's words after `Is`/`Has` said
    of its subject (its last argument), with an article when they end in a noun of `kinds`
    (`CompactSpace`: "{0} is a compact space"), `No…` as what it has not (`NoMaxOrder`); a
    function's words of its arguments; a type's words. Slots stand for the last arguments
    (`Informaliser` aligns them from the right), so a constant whose arguments are `variable`s,
    not in its `header` ("" when none is known), is still said."""
    words = words_of(name)
    if is_type:
        return Phrase(words, "class", "name")
    if prop:
        first, _, rest = words.partition(" ")
        verb, said = (first, rest) if is_verb_phrase(words) and rest else ("is", words)
        if first == "no" and rest:
            verb = "has"
        prepositional = _prepositional(verb, said, len(args))
        if prepositional is not None:
            return prepositional
        if verb == "has" and len(args) >= 2:
            return Phrase("{0} has %s {1}" % said, "predicate", "name")  # `HasSum f a`
        if said.rsplit(" ", 1)[-1] in _PREPOSITIONS and len(args) != 1:
            return Phrase("{0} %s %s {1}" % (verb, said), "predicate", "name")  # `DifferentiableAt 𝕜 f x`
        if len(args) == 2 and verb == "is" and _same_type(header, args[0], args[1]):
            return Phrase("{0} and {1} are %s" % said, "predicate", "name")  # `Nat.Coprime m n`
        if verb == "is" and said.rsplit(" ", 1)[-1] in kinds and not _PREPOSITIONS.intersection(said.split()):
            said = with_article(said)  # not "stable under composition with ... target"
        own = own_arguments(header, args) if verb == "is" and len(args) >= 2 else []
        if len(own) >= 2 and own == args[-len(own):]:  # `Integrable f μ`: "{0} is integrable with {1}"
            others = " and ".join("{%d}" % k for k in range(1, len(own)))
            return Phrase("{0} is %s with %s" % (said, others), "predicate", "name")
        return Phrase("{0} %s %s" % (verb, said), "predicate", "name")
    slots = " and ".join("{%d}" % k for k in range(max(len(args), 1)))
    return Phrase(f"the {words.removesuffix(' of')} of {slots}", "function", "name")


def guessed_predicate(name: str, arity: int) -> Phrase:
    """The phrase of a proposition whose constant no corpus declares (Lean core's `Nat.Coprime
    p q`) or declares as a structure's field (`SimpleGraph.Adj G v w`), from its name as
    `from_name` makes one without a header, the first argument its subject and the others
    with it: "{0} is coprime with {1}"."""
    return from_name(name, "", [""] * arity, prop=True, is_type=False)


@dataclass
class Lexicon:
    """Constant -> phrase, and a table to find a constant by how a statement writes it."""

    phrases: dict[str, Phrase]
    #: Constants declared `protected`, which an opened namespace does not give a name of one
    #: component (`Equiv.max` is no reading of `max` under `open Equiv`).
    protected: frozenset[str] = frozenset()
    #: Where field notation puts its term among a constant's explicit arguments, when not first
    #: (`receiver_position`): `s.image f` is `Finset.image f s`.
    receivers: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._by_suffix: dict[str, list[str]] = {}
        for name in self.phrases:
            parts = name.split(".")
            for k in range(len(parts)):
                self._by_suffix.setdefault(".".join(parts[k:]), []).append(name)

    def find(self, written: str, namespaces: Sequence[str] = (), opened: Sequence[str] = ()) -> tuple[str, Phrase] | None:
        """The constant a name as written stands for (tried inside each of `namespaces`, the
        statement's own, then of `opened`, those it opens besides, then as written, then as the
        one constant whose name ends with it) and its phrase.

        As in Lean (`search/corpus/lean/refs.py` resolves names so), `open` does not make a
        `protected` constant a name of one component: `max` under `open Equiv` is not
        `Equiv.max` but, by the name's end, `Max.max`, which Lean exports to the root. Inside
        the statement's own namespaces they are still found: a field written after a term
        (`s.sym2`, for `Multiset.sym2`) reads as its last component, and most such terms are of
        the namespace's own type."""
        hidden = opened if "." not in written else ()
        for namespace in (*namespaces, *opened, ""):
            full = f"{namespace}.{written}" if namespace else written
            if full in self.phrases and not (full in self.protected and namespace in hidden):
                return full, self.phrases[full]
        # A short name not found as written is a variable (`X`, `R`, auto-bound or a
        # section's), not the one constant whose name happens to end so.
        candidates = self._by_suffix.get(written, []) if len(written) > 2 else []
        if candidates:
            best = min(candidates, key=len)
            return best, self.phrases[best]
        return None

    def counts(self) -> dict[str, int]:
        """How many constants each source gives phrases for."""
        return dict(Counter(p.source for p in self.phrases.values()).most_common())

    def write(self, path: Path) -> None:
        """The lexicon as a table people read and correct (`lexicon_corrections.tsv` takes a line)."""
        with path.open("w", encoding="utf-8", newline="") as handle:
            out = csv.writer(handle, delimiter="\t", lineterminator="\n")
            out.writerow(("constant", "role", "template", "source"))
            for name in sorted(self.phrases):
                p = self.phrases[name]
                out.writerow((name, p.role, p.template, p.source))


def read_corrections(path: Path = CORRECTIONS) -> dict[str, Phrase]:
    """The phrases people wrote: `constant<TAB>role<TAB>template` a line (`#` starts a comment)."""
    if not path.is_file():
        return {}
    phrases: dict[str, Phrase] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 3 or cells[1] not in ROLES:
            raise ValueError(f"{path}:{number}: expected constant<TAB>role<TAB>template with a role of {ROLES}")
        phrases[cells[0]] = Phrase(cells[2], cells[1], "corrections")
    return phrases


#: Kinds of Lean records that are constants a statement can apply.
CONSTANT_KINDS = frozenset({"def", "abbrev", "structure", "class", "inductive", "class inductive", "class abbrev",
                            "opaque", "irreducible_def", "coinductive", "theorem", "lemma", "field"})
_PROP_RESULT = re.compile(r"(?:^|→\s*|\s)Prop\s*$")
_TYPE_RESULT = re.compile(r"(?:^|→\s*|\s)(?:Type|Sort)\b[^→]*$")


_EXTENDS = re.compile(r"\s+extends\s|\s+where\b")
_UPPER_CAMEL = re.compile(r"^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9']*$")


def _upper_camel_definition(statement: Statement) -> bool:
    """A definition whose name is UpperCamelCase (Mathlib names data lowerCamelCase, propositions
    and types UpperCamelCase): when its header writes no type, a predicate or a type."""
    return statement.kind in ("def", "abbrev", "irreducible_def") \
        and bool(_UPPER_CAMEL.match(statement.name.rsplit(".", 1)[-1]))


def _named_like_a_type(statement: Statement, objects: frozenset[str]) -> bool:
    """Binders name it like an object (`objects`, `named_like_objects`) and its name is not a
    property's (`Is…`, `Has…`): an untyped definition so used is a type (`def PowerSeries (R) :=
    MvPowerSeries Unit R`)."""
    last = statement.name.rsplit(".", 1)[-1]
    return last in objects and not _PROPERTY_NAME.match(last)


def is_proposition_valued(statement: Statement, objects: frozenset[str] = frozenset()) -> bool:
    """Whether a constant is a predicate: its type ends in `Prop`; or, when its header writes no
    type, its name is UpperCamelCase, its value is no type, and binders do not name it like an
    object (`_named_like_a_type`)."""
    _, type_ = binders_and_type(statement.statement)
    type_ = _EXTENDS.split(type_, 1)[0]  # `class IsDomain (α) [Semiring α] : Prop extends ...`
    if type_.strip():
        return bool(_PROP_RESULT.search(type_.strip()))
    value = str(statement.meta.get("value") or "")
    return _upper_camel_definition(statement) and not _named_like_a_type(statement, objects) \
        and not _TYPE_RESULT.search(value) and not _PROP_RESULT.search(value)


def is_type_valued(statement: Statement, objects: frozenset[str] = frozenset()) -> bool:
    """Whether a constant names a kind of thing: a structure, class or inductive type, a
    definition whose type ends in `Type`/`Sort`, or an untyped one binders name like an object
    (`_named_like_a_type`)."""
    if statement.kind in ("structure", "class", "inductive", "class inductive", "class abbrev", "coinductive"):
        return not is_proposition_valued(statement)
    _, type_ = binders_and_type(statement.statement)
    if type_.strip():
        return bool(_TYPE_RESULT.search(type_.strip()))
    return _upper_camel_definition(statement) and _named_like_a_type(statement, objects)


def named_like_objects(statements: Iterable[Statement]) -> frozenset[str]:
    """The last name components that binders name more often like objects (`(p : PowerSeries R)`)
    than like hypotheses (`(hf : Differentiable 𝕜 f)`, `HYPOTHESIS`), over every header: how a
    definition whose header writes no type is used tells a type from a predicate."""
    uses: dict[str, list[int]] = {}
    for s in statements:
        binders, _ = binders_and_type(s.statement)
        for bracket, inner in binder_groups(binders):
            names, colon, type_ = inner.partition(":")
            head = _type_head(type_) if colon else ""
            if bracket in "({" and _UPPER_CAMEL.match(head):
                counts = uses.setdefault(head, [0, 0])
                for name in names.split():
                    counts[bool(HYPOTHESIS.match(name))] += 1
    return frozenset(head for head, (objects, hypotheses) in uses.items() if objects > hypotheses)


def kind_nouns(statements: Iterable[Statement]) -> frozenset[str]:
    """Nouns that end the names of kinds of things: the last word of at least two type-valued
    structures' or classes' names of two words or more (`TopologicalSpace`, `MetricSpace`:
    "space"), adjectives left out (`is_adjective`). A predicate named by words ending in one
    is said with an article (`from_name`)."""
    last_words = Counter(words.rsplit(" ", 1)[-1].lower() for s in statements
                         if s.kind in ("structure", "class") and is_type_valued(s)
                         and " " in (words := words_of(s.name)))
    return frozenset(word for word, n in last_words.items() if n >= 2 and not is_adjective(word))


def receiver_position(s: Statement) -> int:
    """Which explicit argument of `s`'s constant `x.foo` puts `x` at, counted from 0: as Lean
    does, the first whose type is headed by the namespace's type (`Finset.image (f : α → β)
    (s : Finset α)`: 1; `Set.EqOn (f₁ f₂ : α → β) (s : Set α)`: 2), among the section's
    `variable`s it takes, then its binders. Not among the arrows of its type (`Multiset.count
    (a : α) : Multiset α → ℕ`): a phrase has no slot for them (`from_docstring`), so `s.count a`
    is said best as written, its last argument in the phrase's one slot."""
    namespace = s.name.rpartition(".")[0]
    if not namespace:
        return 0
    owner = namespace.rsplit(".", 1)[-1]
    heads = [_type_head(written.strip().lstrip("(")) for _, written in explicit_binders(_with_variables(s))]
    return heads.index(owner) if owner in heads else 0


def _type_head(written: str) -> str:
    """The last component of a written type's first word (`Finset α`, `Set.Icc a b`: `Finset`,
    `Icc`), "" for none."""
    words = written.split(maxsplit=1)
    return words[0].rsplit(".", 1)[-1] if words else ""


def build_lexicon(statements: Iterable[Statement], corrections: Mapping[str, Phrase] | None = None) -> Lexicon:
    """The lexicon of the Lean records' constants (module docstring: corrections, notation,
    docstrings, names)."""
    lean = [s for s in statements if s.formal]
    objects, kinds = named_like_objects(lean), kind_nouns(lean)
    phrases: dict[str, Phrase] = {}
    optional: dict[str, int] = {}
    receivers: dict[str, int] = {}
    for s in lean:
        if s.kind not in CONSTANT_KINDS or s.kind in ("theorem", "lemma", "field"):
            continue
        binders, _ = binders_and_type(s.statement)
        args = explicit_arguments(binders)
        prop = is_proposition_valued(s, objects)
        is_type = is_type_valued(s, objects)
        optional[s.name] = optional_arguments(binders)
        phrases[s.name] = (from_docstring(s, args, prop, optional[s.name]) if not is_type else None) \
            or from_name(s.name, s.statement, args, prop, is_type, kinds)
        if position := receiver_position(s):
            receivers[s.name] = position
    phrases.update(NOTATION_PHRASES)
    phrases.update(read_corrections() if corrections is None else corrections)
    # A phrase, made or corrected, leaves out the arguments with a default value that its
    # constant's header declares (`Summable f L`: "f is summable")
    for name, count in optional.items():
        if count and phrases[name].slots:
            phrases[name] = replace(phrases[name], optional=count)
    return Lexicon(phrases, frozenset(s.name for s in lean if "protected" in s.meta.get("modifiers", ())), receivers)
