"""A Lean statement said in English from its structure, without an LLM: the informaliser.

`Nat.Prime.two_le {p : ℕ} (hp : p.Prime) : 2 ≤ p` becomes "For a natural number p, if p is a
prime number, then 2 is at most p." The statement is read by the project's own term reader
(`expr`, in its `WORDS` reading, which keeps the names binders bind), then said part by part:

* the `variable` binders of its section that the statement uses (`meta.variables`) are read
  before its own, as Lean adds them;
* instance binders are the setting (`[CommRing R]`: "a commutative ring R"), binders of a
  type worth naming are the objects ("a natural number p", "a finite set s"; those of one
  kind in a row together: "natural numbers m and n"), hypotheses,
  the premises of an implication and classes named by what their argument is or has
  (`[HasZeroMorphisms C]`: "if C has zero morphisms") are conditions ("if p is a prime
  number"), and the conclusion is said last;
* a constant is said by its phrase in the lexicon (`lexicon`): a predicate of its arguments
  ("s is compact"), a function as a noun phrase ("the derivative of f at the point x");
  quantifiers, connectives, set-builder and big operators have their own words; arithmetic
  stays in its ASCII symbols; a variable that is a proposition or a predicate makes
  propositions (`h : ∀ a, p a`: "if for every a, p a"), and an anonymous constructor is the
  value it builds (`⟨x, hx⟩`: "x"), its proofs told by Mathlib's names and left out;
* a function that applies a variable to its own variable is that variable's (`fun x => f x`:
  "f"), an integral is over its set with respect to its measure ("the integral of f over s
  with respect to μ");
* a theorem that has the shape of a law, of variables no hypothesis is about, is said to state
  it, as a mathematician names it ("a + b equals b + a; that is, addition is commutative":
  symmetric relations and functions, commutative, associative and distributive operations,
  injective functions, involutions, idempotents; `_Speaker.law`);
* a definition is said by what its value is, a structure or class by its parents and
  fields, an instance by the class it makes its type a member of.

What cannot be read is left out rather than guessed: a statement the reader cannot follow
gets no sentence. `Informaliser.sentence` also says which lexicon sources its phrases came
from (`Said.sources`), which the record keeps beside the sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Iterable, Mapping

from search.corpus.lean.decl import STRUCTURE_KINDS
from search.corpus.lean.expr import UNREAD, VAR, Expr, Reading, app, parse_declaration, parse_term, unapply
from search.corpus.lean.lexicon import (
    HYPOTHESIS,
    Lexicon,
    Phrase,
    guessed_predicate,
    is_adjective,
    is_verb_phrase,
    plural,
    statement_arguments,
    with_article,
    words_of,
)
from search.corpus.lean.notation import AE, ANONYMOUS_CONSTRUCTOR, RESTRICT, VECTOR, VOLUME
from search.corpus.lean.syntax import drop_universes, term_tokens
from search.record import Statement
from search.text.lean_text import binders_and_type

#: Longest sentence kept (embedding cost; the card shows it whole).
SENTENCE_CHARS = 400
#: Fields of a structure named or said in its sentence, at most.
FIELDS_SAID = 4
#: Relations said after a bound variable (`∃ δ > 0`: "δ greater than 0").
_BOUND_RELATIONS = {"LT.lt": ("less than", "greater than"), "LE.le": ("at most", "at least"),
                    "Membership.mem": ("in", None), "HasSubset.Subset": ("contained in", "containing"),
                    "Ne": ("different from", "different from")}
#: Constants whose application is a proposition whatever the lexicon says.
_PROPOSITIONS = frozenset({"Eq", "Ne", "LE.le", "LT.lt", "GE.ge", "GT.gt", "Iff", "And", "Or", "Not", "True",
                           "False", "Membership.mem", "HasSubset.Subset", "HasSSubset.SSubset", "Dvd.dvd",
                           "Exists", "ExistsUnique", "Filter.Eventually", "Filter.Frequently"})
#: Big operators: the word for what they make, and whether they range over a domain argument.
_BIG = {"Finset.sum": ("sum", True), "Finset.prod": ("product", True), "tsum": ("sum", False),
        "tprod": ("product", False), "finsum": ("sum", False), "finprod": ("product", False),
        "iSup": ("supremum", False), "iInf": ("infimum", False), "Set.iUnion": ("union", False),
        "Set.iInter": ("intersection", False), "DirectSum": ("direct sum", False)}
#: Integrals and averages against a measure (`∫ x in s, f x ∂μ` is
#: `integral (μ.restrict s) (fun x => f x)`): their noun.
_INTEGRALS = {"MeasureTheory.integral": "integral", "MeasureTheory.lintegral": "lower integral",
              "MeasureTheory.average": "average", "MeasureTheory.laverage": "lower average"}
#: Operations as the laws a statement has the shape of name them ("addition is commutative").
_OPERATIONS = {"HAdd.hAdd": "addition", "HMul.hMul": "multiplication", "HSMul.hSMul": "scalar multiplication",
               "HSub.hSub": "subtraction", "HDiv.hDiv": "division", "Function.comp": "composition",
               "CategoryTheory.CategoryStruct.comp": "composition",
               "Neg.neg": "negation", "Inv.inv": "inversion", "HasCompl.compl": "complementation"}
#: A binary operation's noun in its lexicon phrase ("the intersection of {0} and {1}").
_OPERATION_PHRASE = re.compile(r"the ([\w -]+?) of \{0\} and \{1\}")
#: Collections written by their elements, said as written ("{a, b}", not "a inserted in {b}"):
#: the constant that puts an element before the rest, the one that ends them (a set's last
#: element is a singleton), and the words around the elements.
_LITERALS = {"Insert.insert": ("Singleton.singleton", "{", "}"), "List.cons": ("List.nil", "[", "]"),
             VECTOR[0]: (VECTOR[1], "the vector (", ")")}
#: Arithmetic: its precedence (for parentheses), its ASCII symbol between simple operands, its
#: words between phrases ("the derivative of f at x times g x"), and its name when it is what a
#: phrase speaks of ("a + b is even": "the sum of a and b is even").
_ARITHMETIC = {"HAdd.hAdd": (65, "+", "plus", "the sum of {0} and {1}"),
               "HSub.hSub": (65, "-", "minus", "the difference of {0} and {1}"),
               "HMul.hMul": (70, "*", "times", "the product of {0} and {1}"),
               "HDiv.hDiv": (70, "/", "divided by", "the quotient of {0} by {1}"),
               "HPow.hPow": (75, "^", "to the power", "{0} to the power {1}"),
               "HSMul.hSMul": (73, "•", "times", "{0} times {1}"), "HMod.hMod": (70, "mod", "modulo", "{0} modulo {1}")}
#: Relations whose sides are formulas, said in symbols ("a + b equals b + a"); any other phrase
#: speaks of things, its arguments said as nouns ("the sum of a and b is even").
_FORMULA_RELATIONS = frozenset({"Eq", "Ne", "LE.le", "LT.lt", "GE.ge", "GT.gt", "Dvd.dvd", "HasEquiv.Equiv"})
#: Classes that only make a statement computable or well-typed, not part of what it says.
_SILENT_CLASSES = frozenset({"DecidableEq", "DecidablePred", "DecidableRel", "Decidable", "Inhabited",
                             "Fact", "MeasurableSpace", "Membership", "CoeFun", "FunLike", "CoeSort", "Repr",
                             # a symbol's class, `[Mul α]`: the statement says what it needs of the symbol
                             "Zero", "One", "Add", "Mul", "Sub", "Div", "Neg", "Inv", "SMul", "VAdd", "Pow",
                             "LE", "LT", "Max", "Min", "Sup", "Inf", "Top", "Bot", "HasCompl", "SDiff", "Norm",
                             "Dist", "EDist", "NNNorm", "Star", "Bracket", "Singleton", "Insert", "EmptyCollection"})
#: Relations along a filter as measure theory says them along `MeasureTheory.ae μ` (`f =ᵐ[μ] g`:
#: "f equals g almost everywhere with respect to μ"; along another filter, their lexicon phrase).
_ALMOST_EVERYWHERE = {"Filter.EventuallyEq": "equals", "Filter.EventuallyLE": "is at most"}
#: Propositions that hold along a filter (`∀ᶠ x in l, p x`), said of their proposition, not of
#: the function that is their argument.
_ALONG = {"Filter.Eventually": "eventually", "Filter.Frequently": "frequently"}
#: The words before a slot that go with it when a hole fills it ("morphism from _ to Z"), a pattern.
_HOLE_PREPOSITION = r" (?:from|of|over|on|at|in|within|with respect to|with) "
#: Where a kind's noun ends and what follows the variable begins ("finite set | of γ").
_TAIL = re.compile(r" (?:of|over|from|between|on) ")
#: ... and where it begins in a phrase whose slots go "from {0} to {1}" once its "from" is gone.
_TO = re.compile(r" to ")
#: A name as a statement writes it (`f`, `x₁`, `hε'`), to tell a sentence that opens on one.
_IDENTIFIER = re.compile(r"[^\W\d_][\w'₀-₉!?]*")
#: A sentence's own first words, which open it capitalised even where the statement binds such a name.
_OPENING_WORDS = frozenset({"for", "if", "the", "there", "every", "some", "no", "all"})


def _kind_noun(phrase: Phrase | None) -> str:
    """A lexicon phrase's words when it names a kind of thing ("commutative ring"); "" else."""
    return phrase.template if phrase is not None and phrase.role == "class" and not phrase.slots else ""


def _class_words(phrase: Phrase | None, name: str) -> str:
    """A type's words: its lexicon phrase when that names a kind of thing, else its name's words."""
    return _kind_noun(phrase) or words_of(name)


def _capitalised(said: str, header: str) -> str:
    """The sentence with its first letter a capital, unless it opens on a name the statement
    writes: "f * g equals ..." must not become "F * g equals ...", another variable."""
    first = _IDENTIFIER.match(said)
    if first and first.group() not in _OPENING_WORDS and first.group() in _IDENTIFIER.findall(header):
        return said
    return said[0].upper() + said[1:]


def _measure(e: Expr) -> Expr | None:
    """μ when `e` is the filter of almost every point for μ (`MeasureTheory.ae μ`), else None."""
    head, args = unapply(e)
    return args[-1] if head == ("c", AE) and args else None


@dataclass
class Said:
    """A sentence and the lexicon sources its phrases came from."""

    text: str
    sources: set[str] = field(default_factory=set)


class _Speaker:
    """Says terms and propositions of one declaration (its namespaces resolve its names)."""

    def __init__(self, lexicon: Lexicon, namespaces: tuple[tuple[str, ...], tuple[str, ...]]) -> None:
        self.lexicon = lexicon
        #: The statement's own namespaces and those it opens (`_namespaces`).
        self.namespaces = namespaces
        self.sources: set[str] = set()
        #: Names the statement binds to proofs of its hypotheses (`hf : Continuous f`): passed to
        #: a function, a proof is no object of the sentence ("the map of f and K", not "the map
        #: of f and hf and K").
        self.proofs: set[str] = set()
        #: Names the statement binds to propositions and to predicates and relations (`(P : Prop)`,
        #: `{p : α → Prop}`): `P` and `p a` are propositions, a hypothesis `h : ∀ a, p a` a
        #: condition ("if for every a, p a").
        self.predicates: set[str] = set()
        #: Every name the statement binds, and its type (a law speaks of such names; `X` in `X * p = p
        #: * X` is a constant).
        self.bound: dict[str, Expr] = {}
        #: Names its hypotheses are about: a law holds of all values of a variable, not of those a
        #: hypothesis picks (`[N.Normal]` for `S * N = N * S`); a class of its type (`[LeftDistribClass
        #: R]` for `a * (b + c)`) is no hypothesis on a.
        self.constrained: set[str] = set()

    def bind(self, name: str, domain: Expr) -> None:
        """Remember what the statement binds `name` to, where it tells what `name` can say."""
        self.bound[name] = domain
        codomain = domain
        while codomain[0] == "f":
            codomain = codomain[2]
        if codomain == ("s", "Prop"):
            self.predicates.add(name)

    # --- constants -------------------------------------------------------------------------

    def phrase(self, name: str) -> Phrase | None:
        found = self.lexicon.find(name, *self.namespaces)
        if found is None:
            return None
        self.sources.add(found[1].source)
        return found[1]

    def fill(self, phrase: Phrase, args: list[Expr], says) -> str:
        """The template with its slots said, aligned on the last arguments (the first ones may
        be `variable`s the header does not write). A constant applied to fewer arguments than
        its template names: a slot in a list ("of f and a and {2}") or last ("integrable with {1}")
        is left out, any other is "it". Arguments with a default value that the statement writes
        (`HasSum f a L`) are not aligned with slots of the others ("f has sum a"). A proof in a
        list of arguments is left out too ("the map of f and K" for `Compacts.map f hf K`), and a
        hole, with the preposition before it."""
        slots = phrase.slots
        if phrase.optional and len(args) > slots:  # only phrases made from a header have optional arguments
            args = args[:len(args) - min(phrase.optional, len(args) - slots)]
        used = (args[:slots] if phrase.aligned_left else args[-slots:]) if slots else []
        out = phrase.template
        for k in range(len(used) - 1) if phrase.role == "function" else ():  # "of x with itself", not "of x and x"
            pair = " of {%d} and {%d}" % (k, k + 1)
            if used[k] == used[k + 1] and pair in out and used[k] not in (VAR, UNREAD) and not self.is_proof(used[k]):
                out = out.replace(pair, " of {%d} with itself" % k)
        for k, arg in enumerate(used):
            arg = self.built(arg)
            slot = "{%d}" % k
            written = re.escape(slot)
            listed = re.search(f" and {written}|{written} and ", out) if self.is_proof(arg) or arg == VAR else None
            if arg == VAR and not listed:  # a hole (`h : _ ⟶ Z`) goes with its preposition: "a morphism h to Z"
                listed = re.search(_HOLE_PREPOSITION + written, out)
            if listed:  # a proof in a list of arguments, or a hole, is left out
                out = out[:listed.start()] + out[listed.end():]
            else:
                out = out.replace(slot, says(arg).replace("{", "{{").replace("}", "}}"))
        out = re.sub(r" and \{\d+\}", "", out)
        out = re.sub(r" (?:of|with|with respect to) \{\d+\}$", "", out)
        return re.sub(r"\{\d+\}", "it", out).replace("{{", "{").replace("}}", "}")

    def applied(self, said: str, args: list[Expr]) -> str:
        """A term said, applied to the arguments that follow it."""
        return " ".join((said, *(self.argument(a) for a in args)))

    def is_proof(self, e: Expr) -> bool:
        """Whether `e` is a name the statement binds to a proof of one of its hypotheses."""
        return e[0] == "l" and e[1] in self.proofs

    def built(self, e: Expr) -> Expr:
        """An anonymous constructor as the value it builds: its one component that is no proof
        (`⟨x, hx⟩` is x), a hole when all are (`⟨_, h⟩`, which `fill` leaves out), else itself
        (`⟨a, b⟩`, said as a tuple)."""
        head, args = unapply(e)
        if head != ("c", ANONYMOUS_CONSTRUCTOR):
            return e
        values = self.values(args)
        return (VAR if not values else self.built(values[0])) if len(values) < 2 else e

    def values(self, components: list[Expr]) -> list[Expr]:
        """The components of an anonymous constructor that are no proofs."""
        return [c for c in components if not self.builds_proof(c)]

    def builds_proof(self, e: Expr) -> bool:
        """Whether `e` looks like a proof, by Mathlib's names: a hypothesis (`hx`), a tactic block
        (`by simp`), a theorem (named in snake case: `mem_of_mem_filter hx`), a fact taken from a
        proof (`hx.le`, `(h x).trans`), or a hole, which a term's words leave out."""
        if e[0] == "λ":
            return self.builds_proof(e[2])
        head, args = unapply(e)
        if e == VAR or head[0] == "l" and (head[1] in self.proofs or HYPOTHESIS.match(head[1])):
            return True
        if head[0] != "c":
            return False
        last = head[1].rsplit(".", 1)[-1]
        return last in ("by", "rfl", "trivial") or ("_" in last.strip("_") and last[:1].islower()) \
            or bool(args) and self.builds_proof(args[0])

    # --- propositions ----------------------------------------------------------------------

    def is_proposition(self, e: Expr) -> bool:
        kind = e[0]
        if kind in ("f", "Π"):
            return self.is_proposition(e[2] if kind == "f" else e[3])
        head, _ = unapply(e)
        if head[0] == "l":
            return head[1] in self.predicates
        if head[0] != "c":
            return False
        if head[1] in _PROPOSITIONS:
            return True
        phrase = self.lexicon.find(head[1], *self.namespaces)
        return phrase is not None and phrase[1].role == "predicate"

    def guessed_claim(self, e: Expr) -> str:
        """A proposition whose head constant the lexicon does not know, said by its name's words
        (`guessed_predicate`): only where a proposition must stand, a theorem's conclusion or
        the type of a binder named as a hypothesis, and for a constant named as propositions
        and types are (`Nat.Coprime`, not `gcd`) applied to something; "" for any other, and
        for the classes a sentence leaves out (`Decidable`)."""
        head, args = unapply(e)
        if not args or head[0] != "c" or head[1] in _PROPOSITIONS or self.lexicon.find(head[1], *self.namespaces) \
                or not (last := head[1].rsplit(".", 1)[-1])[:1].isupper() or last in _SILENT_CLASSES:
            return ""
        self.sources.add("name")
        return self.fill(guessed_predicate(head[1], len(args)), args, self.noun)

    def claim(self, e: Expr) -> str:
        """A proposition in words."""
        kind = e[0]
        if kind == "Π":
            return self.forall(e)
        if kind == "f":
            premises, conclusion = [], e
            while conclusion[0] == "f":
                premises.append(self.claim(conclusion[1]))
                conclusion = conclusion[2]
            return f"if {_conjoined(premises)}, then {self.claim(conclusion)}"
        head, args = unapply(e)
        if head[0] == "c":
            name = head[1]
            if name in ("Exists", "ExistsUnique") and args and args[-1][0] == "λ":
                return self.exists(args[-1], unique=name == "ExistsUnique")
            if name == "Fact" and args:  # `[Fact p.Prime]` states that p is prime
                return self.claim(args[-1])
            if name == "Not" and args:
                return f"not {self.claim(args[-1])}" if self.is_proposition(args[-1]) else f"not {self.term(args[-1])}"
            if name in _ALMOST_EVERYWHERE and len(args) == 3 and (measure := _measure(args[0])):
                return f"{self.term(args[1])} {_ALMOST_EVERYWHERE[name]} {self.term(args[2])} almost everywhere " \
                       f"with respect to {self.term(measure)}"
            if name in _ALONG and len(args) == 2 and args[0][0] == "λ":  # `∀ᶠ x in l, p x`, `∀ᵐ x ∂μ, p x`
                _, variable, body = args[0]
                if name == "Filter.Eventually" and (measure := _measure(args[1])):
                    return f"for almost every {variable} with respect to {self.term(measure)}, {self.claim(body)}"
                return f"{_ALONG[name]} along {self.term(args[1])}, {self.claim(body)}"
            if name in ("And", "Or", "Iff") and len(args) == 2:
                word = {"And": "and", "Or": "or", "Iff": "if and only if"}[name]
                return f"{self.claim(args[0])} {word} {self.claim(args[1])}"
            phrase = self.phrase(name)
            if phrase is not None and phrase.role == "predicate":
                return self.fill(phrase, args, self.term if name in _FORMULA_RELATIONS else self.noun)
        return self.term(e)

    def law(self, e: Expr) -> str:
        """The law an equation or equivalence states, as a mathematician names it: `a + b = b + a`
        "addition is commutative", `G.Adj u v ↔ G.Adj v u` "the relation is symmetric", `(a * b) *
        c = a * (b * c)` "multiplication is associative", `a * (b + c) = a * b + a * c`
        "multiplication distributes over addition", `f a = f b ↔ a = b` "f is injective", `-(-a) =
        a` "negation is an involution", `f (f x) = f x` "f is idempotent", for all values of its
        variables; "" for any other, and where the operands are terms, not variables (`a ^ n * a =
        a * a ^ n` is no law of multiplication)."""
        while e[0] == "Π" and not self.is_proposition(e[2]):
            self.bind(e[1], e[2])
            e = e[3]
        head, sides = unapply(e)
        if head not in (("c", "Eq"), ("c", "Iff")) or len(sides) != 2 or _contains(e, UNREAD):
            return ""
        left, right = sides
        (lf, la), (rf, ra) = unapply(left), unapply(right)
        if head == ("c", "Iff") and lf == rf == ("c", "Eq") and len(la) == 2 and ra == [_last(la[0]), _last(la[1])] \
                and self.variables(*ra) and (function := _function_of(la[0])) is not None \
                and function == _function_of(la[1]) != ("c", ANONYMOUS_CONSTRUCTOR):
            return f"{self.operation(function)} is injective"
        if lf == rf and len(la) == len(ra) >= 2 and la[:-2] == ra[:-2] and la[-2:] == ra[:-3:-1] and self.variables(*la[-2:]):
            if head == ("c", "Iff") or self.is_proposition(left):
                return "the relation is symmetric"
            function = app(lf, *la[:-2])  # an operation commutes, a function of two arguments is symmetric
            return f"{self.operation(function)} is {'commutative' if self.binary(function) else 'symmetric'}"
        for one, other in ((left, right), (right, left)):
            if law := self.binary_law(one, other):
                return law
            if (function := _function_of(one)) is not None and _function_of(_last(one)) == function \
                    and self.variables(_last(_last(one))):
                if _last(_last(one)) == other:
                    return f"{self.operation(function)} is an involution"
                if _last(one) == other:
                    return f"{self.operation(function)} is idempotent"
        return ""

    def binary_law(self, one: Expr, other: Expr) -> str:
        """Associativity and distributivity, `one` the side that groups to the left
        (`(a * b) * c`, `a * (b + c)`)."""
        outer = _operands(one)
        if outer is None:
            return ""
        op, (x, y) = outer
        inner = _operands(x)
        if inner is not None and inner[0] == op and self.variables(*inner[1], y) \
                and _operands(other) == (op, [inner[1][0], app(op, inner[1][1], y)]):
            return f"{self.operation(op)} is associative"
        # `x * (a + b)` and `(a + b) * y`: the factor, and the operands where it goes
        for inner, factor, sides in ((_operands(y), x, lambda b: (x, b)), (_operands(x), y, lambda a: (a, y))):
            if inner is not None and inner[0] != op and self.binary(op) and self.binary(inner[0]) \
                    and self.variables(*inner[1]) and self.variables(factor) \
                    and _operands(other) == (inner[0], [app(op, *sides(inner[1][0])), app(op, *sides(inner[1][1]))]):
                return f"{self.binary(op)} distributes over {self.binary(inner[0])}"
        return ""

    def variables(self, *es: Expr) -> bool:
        """Whether `es` are distinct names of one type that the statement binds and no hypothesis
        is about: the operands a law speaks of for all their values (not `r * a = a * r`, `r` a
        rational number cast into the ring of `a`)."""
        return all(e[0] == "l" and e[1] in self.bound and e[1] not in self.constrained for e in es) \
            and len(set(es)) == len(es) and len({self.bound[e[1]] for e in es}) == 1

    def binary(self, e: Expr) -> str:
        """The noun of a binary operation, one that notation writes: `HAdd.hAdd` "addition",
        `Inter.inter` "intersection" (its phrase's noun); "" for a function of two arguments
        (`Metric.hausdorffEDist s t`, `Finsupp.single a b`), which is symmetric rather than
        commutative and of which a distributive law does not speak."""
        if e[0] != "c":
            return ""
        if e[1] in _OPERATIONS:
            return _OPERATIONS[e[1]]
        phrase = self.phrase(e[1])
        noun = _OPERATION_PHRASE.fullmatch(phrase.template) if phrase is not None and phrase.source == "notation" else None
        return noun.group(1) if noun else ""

    def operation(self, e: Expr) -> str:
        """A function or operation as a law names it: an operation by its noun (`binary`), `a *
        ·` "multiplication by a", another constant by its name's words, `f` "f"."""
        head, args = unapply(e)
        if head[0] == "c" and head[1] in _OPERATIONS and args:
            return f"{_OPERATIONS[head[1]]} by {_join([self.term(a, 100) for a in args])}"
        if e[0] == "c":
            return self.binary(e) or words_of(e[1])
        return self.term(e, 100)

    def argument(self, e: Expr) -> str:
        """An argument of a variable applied: one of several words in brackets (`p (f x)`: "p
        (f x)", `p (choose h)`: "p (the choose of h)")."""
        said = self.term(self.built(e), 100)
        return f"({said})" if " " in said and not said.startswith("(") and e[0] == "a" else said

    def noun(self, e: Expr) -> str:
        """A term that a phrase speaks of: arithmetic named in words ("the sum of a and b")."""
        head, args = unapply(e)
        if head[0] == "c" and head[1] in _ARITHMETIC and len(args) == 2:
            template = _ARITHMETIC[head[1]][3]
            return template.replace("{0}", self.term(args[0], 100)).replace("{1}", self.term(args[1], 100))
        return self.term(e, 100)

    def forall(self, e: Expr) -> str:
        """`∀ x y, p`: "for all x and y, p"; `∀ x ∈ s, p`: "for every x in s, p"; a hypothesis
        binder (`∀ (h : p), q`): "if p, then q"."""
        _, name, domain, body, _ = e
        self.bind(name, domain)
        if self.is_proposition(domain):
            self.proofs.add(name)
            return f"if {self.claim(domain)}, then {self.claim(body)}"
        if body[0] == "f" and (bound := self.bound_relation(name, body[1])):
            return f"for every {self.named(name, domain)}{bound}, {self.claim(body[2])}"
        names = [name]
        while body[0] == "Π" and body[2] == domain and not self.is_proposition(body[2]) \
                and not (body[3][0] == "f" and self.bound_relation(body[1], body[3][1])):
            names.append(body[1])
            body = body[3]
        if len(names) == 1:
            return f"for every {self.named(name, domain)}, {self.claim(body)}"
        noun, tail = self.kind_of(domain)
        kind = f"{plural(noun)} " if noun else ""
        return f"for all {kind}{_join(names)}{' ' + tail if tail else ''}, {self.claim(body)}"

    def exists(self, function: Expr, unique: bool) -> str:
        """`∃ x, p`: "there is x such that p"; `∃ δ > 0, p`: "there is δ greater than 0 such that p"."""
        _, name, body = function
        bound = ""
        head, args = unapply(body)
        if head == ("c", "And") and len(args) == 2 and (said := self.bound_relation(name, args[0])):
            bound, body = said, args[1]
        return f"there is {'a unique ' if unique else ''}{name}{bound} such that {self.claim(body)}"

    def bound_relation(self, name: str, e: Expr) -> str:
        """" greater than 0" for `0 < δ` bounding `δ`, " in s" for `x ∈ s`; "" otherwise."""
        head, args = unapply(e)
        if head[0] != "c" or head[1] not in _BOUND_RELATIONS or len(args) != 2:
            return ""
        after, before = _BOUND_RELATIONS[head[1]]
        variable = ("l", name)
        if head[1] == "Membership.mem":
            return f" in {self.term(args[0])}" if args[1] == variable else ""
        if args[0] == variable:
            return f" {after} {self.term(args[1])}"
        if args[1] == variable and before:
            return f" {before} {self.term(args[0])}"
        return ""

    # --- terms -----------------------------------------------------------------------------

    def kind_of(self, type_: Expr) -> tuple[str, str]:
        """What a binder's type says the variable is, as the noun and what follows the variable
        ("finite set", "of γ" for `Finset γ`; "function", "" for `X → M`: `arrow_kind`); ("", "")
        for a type variable, which says nothing worth a word."""
        if type_[0] == "f":
            return self.arrow_kind(type_)
        head, args = unapply(type_)
        if head[0] != "c":
            return "", ""
        phrase = self.phrase(head[1])
        if phrase is None or phrase.role != "class":
            return "", ""
        said = self.fill(phrase, args, lambda a: self.term(a, 100)) if phrase.slots else phrase.template
        if len(said) < 2:  # `x : X.N`: a one-letter type says nothing ("a n x")
            return "", ""
        # "morphism to Z" once a hole is left out of "morphism from {0} to {1}"
        split = _TAIL.search(said) or (_TO.search(said) if " to {" in phrase.template else None)
        return (said[:split.start()], said[split.start() + 1:]) if split else (said, "")

    def arrow_kind(self, type_: Expr) -> tuple[str, str]:
        """A binder whose type is an arrow, as a mathematician introduces it: `u : ℕ → ℝ` "a
        sequence u of real numbers", `f g : X → M` "functions f and g", `f : ℝ → ℂ` "a function f
        from real numbers to complex numbers", `p : α → Prop` "a predicate p on α", `r : α → α →
        Prop` "a relation r on α"; ("", "") for a hypothesis (an arrow to a proposition) and for a
        family of types (`β : ι → Type*`), which is no function. Between
        type variables the types are not said: the sentence's setting names them, and a query says
        "two continuous functions", not what they map between."""
        if self.is_proposition(type_):
            return "", ""
        domains, codomain = [], type_
        while codomain[0] == "f":
            domains.append(codomain[1])
            codomain = codomain[2]
        if codomain == ("s", "Prop"):
            same = all(d == domains[0] for d in domains) and len(domains) <= 2
            noun = "predicate" if len(domains) == 1 else "relation"
            return noun, f"on {self.term(domains[0], 100)}" if same else ""
        if codomain[0] == "s":  # a family of types, `β : ι → Type*`
            return "", ""
        if len(domains) > 1:
            return "function", ""
        if domains[0] == ("c", "Nat"):
            noun = self.type_noun(codomain)
            return "sequence", f"of {plural(noun)}" if noun else f"in {self.term(codomain, 100)}"
        source, target = self.type_noun(domains[0]), self.type_noun(codomain)
        if not (source or target):
            return "function", ""
        return "function", f"from {plural(source) if source else self.term(domains[0], 100)} " \
                           f"to {plural(target) if target else self.term(codomain, 100)}"

    def type_noun(self, type_: Expr) -> str:
        """The noun a constant type's elements are called by ("real number" for `ℝ`); "" else."""
        return _kind_noun(self.phrase(type_[1])) if type_[0] == "c" else ""

    def class_property(self, e: Expr) -> str:
        """A class whose name says something of its last argument, as a claim: `HasZeroMorphisms
        C` -> "C has zero morphisms", `HasLimitsOfShape J C` -> "C has limits of shape J"; "" for a
        class that names a kind of thing (`CommRing R`)."""
        head, args = unapply(e)
        if head[0] != "c" or not args:
            return ""
        words = _class_words(self.phrase(head[1]), head[1])
        if not is_verb_phrase(words):
            return ""
        # what it has ("has limits of shape J"), or what it is over ("is torsion free over R")
        return f"{self.term(args[-1])} {words}{self.over(args, ' over' if words.startswith('is ') else '')}"

    def over(self, args: list[Expr], word: str = " over") -> str:
        """A class's arguments before its subject (the last), said after it: " over R and S";
        "" for a class of one argument."""
        return f"{word} {_join([self.term(a, 100) for a in args[:-1]])}" if len(args) > 1 else ""

    def integral(self, noun: str, function: Expr, measure: Expr) -> str:
        """`∫ x in s, f x ∂μ` as analysis says it: "the integral of f over s with respect to μ";
        against the volume (Lebesgue's measure on ℝⁿ) "the integral of f over s". A measure
        restricted by field notation (`∂μ.restrict s`) is `restrict`, its namespace unwritten."""
        head, args = unapply(measure)
        over = ""
        if head[0] == "c" and head[1].rsplit(".", 1)[-1] == RESTRICT.rsplit(".", 1)[-1] and len(args) == 2:
            measure, over = args[0], f" over {self.term(args[1], 100)}"
        against = "" if measure == ("c", VOLUME) else f" with respect to {self.term(measure, 100)}"
        return f"the {noun} of {self.noun(function)}{over}{against}"

    def named(self, name: str, type_: Expr) -> str:
        """A bound variable with what its type says it is ("for every finite set s of γ"); the
        bare name else."""
        noun, tail = self.kind_of(type_)
        return " ".join(x for x in (noun, name, tail) if x) if noun else name

    def term(self, e: Expr, outer: int = 0) -> str:
        """A term in words (arithmetic in symbols)."""
        kind = e[0]
        if kind == "l":
            return e[1]
        if kind == "n":
            return e[1]
        if kind == "v":
            return "…"
        if kind == "s":
            return e[1]
        if kind == "λ":
            function = _function_applied(e)
            return self.term(function, outer) if function is not None else f"the function {e[1]} ↦ {self.term(e[2])}"
        if kind in ("f", "Π"):
            return self.claim(e)
        if kind == "c":
            phrase = self.phrase(e[1])
            return phrase.template if phrase is not None and not phrase.slots else words_of(e[1])
        head, args = unapply(e)
        if head[0] != "c":
            return " ".join((self.term(head, 100), *(self.argument(x) for x in args)))
        name = head[1]
        if name == "OfNat.ofNat" and args and args[-1][0] == "n":
            return args[-1][1]
        if name in _LITERALS and len(args) >= 2 and (items := _elements(app(head, *args[:2]), name)) is not None:
            _, opening, closing = _LITERALS[name]
            return self.applied(opening + ", ".join(self.term(a) for a in items) + closing, args[2:])
        if name == ANONYMOUS_CONSTRUCTOR:  # `⟨x, hx⟩` is x, `⟨a, b⟩` the pair (a, b): its proofs left out
            if (value := self.built(e)) is not e:
                return self.term(value, outer)
            return f"({', '.join(self.term(a) for a in self.values(args))})"
        if name in _ARITHMETIC and len(args) == 2:
            prec, symbol, words, _ = _ARITHMETIC[name]
            left, right = self.term(args[0], prec), self.term(args[1], prec + 1)
            phrases = "the " in left or "the " in right
            said = f"{left} {words if phrases else symbol} {right}"
            return f"({said})" if prec < outer and not phrases else said
        if name in _BIG and args and args[-1][0] == "λ":
            word, over_domain = _BIG[name]
            _, variable, body = args[-1]
            domain = f" in {self.term(args[0])}" if over_domain and len(args) >= 2 else ""
            return f"the {word} of {self.term(body)} over {variable}{domain}"
        if name == "intervalIntegral" and len(args) >= 3 and args[0][0] == "λ":
            _, variable, body = args[0]
            return f"the integral of {self.term(body)} over {variable} from {self.term(args[1])} to {self.term(args[2])}"
        if name in _INTEGRALS and len(args) == 2:
            return self.integral(_INTEGRALS[name], args[1], args[0])
        if name == "setOf" and args and args[-1][0] == "λ":
            return f"the set of {args[-1][1]} such that {self.claim(args[-1][2])}"
        if name in _PROPOSITIONS:
            return self.claim(e)
        phrase = self.phrase(name)
        if phrase is None:
            # the arguments a reader says: not proofs, not holes (`hI.to _`), unless nothing else is left
            written = [a for a in args if a != VAR] or args
            objects = [a for a in written if not self.is_proof(a)] or written
            said = f"{words_of(name)} of {' and '.join(self.term(a, 100) for a in objects)}"
            return f"({said})" if outer >= 100 else said
        if phrase.role == "predicate":
            return self.claim(e)
        if phrase.role == "class" and not phrase.slots:  # a type: as Lean writes it, `Hamming β`
            said = " ".join([name.rsplit(".", 1)[-1], *(self.term(a, 100) for a in args)])
            return f"({said})" if outer >= 100 and args else said
        said = self.fill(phrase, args, self.noun)
        if phrase.aligned_left and 0 < phrase.slots < len(args):  # `(f ∘ g) x`
            return self.applied(f"({said})", args[phrase.slots:])
        return f"({said})" if outer >= 100 and " " in said and not said.startswith("the ") else said


class Informaliser:
    """Sentences for Lean records, from their statements, a lexicon, and each structure's
    field records (by the structure's name) to say what a structure requires."""

    def __init__(self, lexicon: Lexicon, fields: Mapping[str, list[Statement]] | None = None) -> None:
        self.lexicon = lexicon
        self.fields = fields or {}

    def sentence(self, s: Statement) -> Said | None:
        """The record said in English, or None when its statement cannot be read."""
        if not s.formal or s.kind == "constructor":
            return None
        header = s.statement if s.kind != "field" else s.statement.split(" ", 1)[-1]
        binders, type_ = binders_and_type(header)
        variables = str(s.meta.get("variables") or "") if s.kind != "field" else ""
        namespaces = _namespaces(s)
        # the statement with its section's variables, or as written when they cannot be read;
        # universe levels (`Category.{v} C`) are not said
        for context in dict.fromkeys((variables, "")):
            speaker = _Speaker(self.lexicon, namespaces)
            try:
                expr = parse_declaration(term_tokens(drop_universes(f"{context} {binders}")),
                                         term_tokens(drop_universes(type_)), Reading.WORDS, self.lexicon.receivers)
                said = self._said(s, expr, speaker)
                if len(said) > SENTENCE_CHARS:  # the setting goes before the statement is cut
                    speaker = _Speaker(self.lexicon, namespaces)
                    said = self._said(s, expr, speaker, with_setting=False)
            except (ValueError, IndexError, KeyError, RecursionError):
                said = ""
            if said:
                break
        if not said:
            return None
        said = _capitalised(" ".join(said.split()), f"{context} {header}")
        if len(said) > SENTENCE_CHARS:
            said = said[:SENTENCE_CHARS].rsplit(" ", 1)[0] + " …"
        return Said(said if said.endswith((".", "…")) else said + ".", speaker.sources)

    def _said(self, s: Statement, expr: Expr, speaker: _Speaker, with_setting: bool = True) -> str:
        """The sentence, with the setting its instance binders give when `with_setting`."""
        settings, objects = [], []
        conditions: list[tuple[str, Expr]] = []  # each said, and what it says (a law holds of other variables)
        e = expr
        while e[0] == "Π" and e[4]:
            _, name, domain, body, bracket = e
            speaker.bind(name, domain)
            if bracket == "[" and speaker.is_proposition(domain):  # `[Fact p.Prime]`, `[IsDomain R]`
                conditions.append((speaker.claim(domain), domain))
            elif bracket == "[" and (condition := speaker.class_property(domain)):
                conditions.append((condition, domain))
            elif bracket == "[":
                setting = self._setting(domain, speaker) if with_setting else None
                if setting:
                    settings.append(setting)
            elif speaker.is_proposition(domain):
                speaker.proofs.add(name)
                conditions.append((speaker.claim(domain), domain))
            elif (kind := speaker.kind_of(domain))[0]:
                objects.append((kind[0], name, kind[1]))
            elif HYPOTHESIS.match(name):
                # a hypothesis whose type is not written (`(hxy)`, Lean infers it) is left out; one
                # not read (notation unknown) is not
                speaker.proofs.add(name)
                if domain != VAR:
                    conditions.append((speaker.guessed_claim(domain) or "…", domain))
            e = body
        while e[0] == "f" and speaker.is_proposition(e[1]):
            conditions.append((speaker.claim(e[1]), e[1]))
            e = e[2]
        main = self._main(s, e, speaker)
        if not main or main == speaker.term(UNREAD) and not conditions:  # a setting alone says nothing
            return ""
        speaker.constrained = {name for _, said_of in conditions for name in _names(said_of)}
        if s.kind in ("theorem", "lemma") and (law := speaker.law(e)):
            main = f"{main}; that is, {law}"
        if conditions:
            main = f"if {_conjoined([said for said, _ in conditions])}, then {main}"
        intro = settings + objects
        return f"for {_introduced(intro)}, {main}" if intro else main

    def _setting(self, domain: Expr, speaker: _Speaker) -> _Introduced | None:
        """An instance binder as the setting: `[CommRing R]` -> ("commutative ring", "R", ""), which
        `_introduced` says "a commutative ring R"."""
        head, args = unapply(domain)
        if head[0] != "c" or head[1].rsplit(".", 1)[-1] in _SILENT_CLASSES:
            return None
        phrase = speaker.phrase(head[1])
        words = _class_words(phrase, head[1])
        subject = speaker.term(args[-1], 100) if args else ""
        return words, subject, speaker.over(args).strip()

    def _main(self, s: Statement, e: Expr, speaker: _Speaker) -> str:
        """What the record is or states, once its binders are said."""
        if s.kind == "instance":
            return self._membership(e, speaker)
        if s.kind in STRUCTURE_KINDS or s.kind in ("inductive", "class inductive"):
            return self._type(s, speaker)
        if s.kind in ("def", "abbrev", "irreducible_def", "opaque"):
            return self._definition(s, e, speaker)
        if e == VAR:
            return ""
        if e == UNREAD:  # its setting and hypotheses said, its conclusion not read
            return speaker.term(e)
        if speaker.is_proposition(e):
            return speaker.claim(e)
        return speaker.guessed_claim(e) if s.kind in ("theorem", "lemma") else ""

    def _membership(self, e: Expr, speaker: _Speaker) -> str:
        """An instance's class said of its type: `PseudoMetricSpace (Hamming β)` -> "Hamming β
        is a pseudo metric space"."""
        head, args = unapply(e)
        if head[0] != "c":
            return ""
        phrase = speaker.phrase(head[1])
        if phrase is not None and phrase.role == "predicate":
            return speaker.claim(e)
        if said := speaker.class_property(e):
            return said
        words = _class_words(phrase, head[1])
        subject = speaker.term(args[-1]) if args else ""
        kind = words if all(map(is_adjective, words.split())) else with_article(words)  # "inhabited"
        return f"{subject} is {kind}{speaker.over(args)}"

    def _definition(self, s: Statement, type_: Expr, speaker: _Speaker) -> str:
        """A definition by its value ("the hamming distance of x and y is the number of ..."),
        else by what its type says it is ("... is a natural number")."""
        own = speaker.phrase(s.name)
        args = [("l", a) for a in statement_arguments(s)]
        subject = speaker.fill(own, args, speaker.term) if own is not None else words_of(s.name)
        value = parse_term(term_tokens(str(s.meta["value"])), reading=Reading.WORDS,
                           receivers=self.lexicon.receivers) if s.meta.get("value") else VAR
        if value == UNREAD or unapply(value)[0] == ("c", ANONYMOUS_CONSTRUCTOR):
            value = VAR  # a value not read, or `:= ⟨-P.x, ...⟩`: its type says more
        if own is not None and own.role == "predicate":
            return f"{subject} when {speaker.claim(value)}" if value != VAR and speaker.is_proposition(value) else subject
        if value != VAR:
            return f"{subject} is {speaker.term(value)}"
        noun, tail = speaker.kind_of(type_)
        if type_[0] == "f" and not tail:  # "the land is a function" says nothing its name does not
            return ""
        return f"{subject} is {with_article(noun)}{' ' + tail if tail else ''}" if noun else ""

    def _type(self, s: Statement, speaker: _Speaker) -> str:
        """A structure or class: what it is of its arguments ("M is a charted space over H"),
        what it extends, its data fields ("with carrier") and what its other fields require
        ("such that ...")."""
        args = statement_arguments(s)
        own = speaker.phrase(s.name)
        if own is not None and own.role == "predicate":
            head = speaker.fill(own, [("l", a) for a in args], speaker.term)
        else:
            words = _class_words(own, s.name)
            kind = words if is_verb_phrase(words) else f"is {with_article(words)}"
            head = f"{args[-1]} {kind}" if args else with_article(words)
            if len(args) > 1:
                head += f" over {_join(args[:-1])}"
        parents = re.split(r"\s*,\s*", s.statement.split(" extends ", 1)[1]) if " extends " in s.statement else []
        parent_words = [words_of(p.split()[0]) for p in parents if p.split()]
        kinds = [with_article(w) for w in parent_words if not is_verb_phrase(w)]
        if kinds:
            head += f", extending {_join(kinds)},"
        # a parent named by what its subject is or has is required of it ("if P is monoidal stable")
        data, requirements = [], [f"{args[-1]} {w}" for w in parent_words if is_verb_phrase(w) and args]
        for f in self.fields.get(s.name, ()):
            said = self._field(f, speaker)
            if said is None:
                data.append(words_of(f.name))
            elif said:
                requirements.append(said)
        if data:
            head += f" with {_join(data[:FIELDS_SAID])}"
        if requirements:
            joiner = " if " if own is not None and own.role == "predicate" else " such that "
            head += f"{joiner}{_join(requirements[:FIELDS_SAID])}"
        return head.rstrip(",")

    def _field(self, f: Statement, speaker: _Speaker) -> str | None:
        """A field that is a requirement (its type a proposition), said; None for a data field;
        "" for one that cannot be read."""
        binders, type_ = binders_and_type(f.statement.split(" ", 1)[-1] if " " in f.statement else "")
        if not type_:
            return ""
        try:
            expr = parse_declaration(term_tokens(binders), term_tokens(type_), Reading.WORDS, self.lexicon.receivers)
        except (ValueError, IndexError, RecursionError):
            return ""
        if not speaker.is_proposition(expr):
            return None
        return speaker.claim(expr)


#: What a sentence opens on: a kind, the name of what is of that kind ("" for none), and what
#: follows the name ("a module M over R": "module", "M", "over R").
_Introduced = tuple[str, str, str]


def _function_applied(e: Expr) -> Expr | None:
    """The function a `fun x => f a x` applies, `f a`, when it is a variable applied to `x`
    last and nowhere else (η-reduction: "the integral of f", not "of the function x ↦ f x");
    None for any other function, and for a constant's, which its phrase says with `x`."""
    _, variable, body = e
    head, args = unapply(body)
    if head[0] != "l" or head[1] == variable or not args or args[-1] != ("l", variable) \
            or any(_contains(a, ("l", variable)) for a in args[:-1]):
        return None
    return app(head, *args[:-1])


def _last(e: Expr) -> Expr:
    """An application's last argument; `e` itself when it is no application."""
    return e[2] if e[0] == "a" else e


def _function_of(e: Expr) -> Expr | None:
    """What an application applies to its last argument (`f a` in `f a x`); None for no application."""
    return e[1] if e[0] == "a" else None


def _operands(e: Expr) -> tuple[Expr, list[Expr]] | None:
    """A binary operation and its two operands (`HAdd.hAdd` and [a, b] for `a + b`, with the
    arguments before them kept in the operation); None when `e` applies nothing to two."""
    head, args = unapply(e)
    return (app(head, *args[:-2]), args[-2:]) if len(args) >= 2 else None


def _names(e: Expr) -> set[str]:
    """The variables a term mentions."""
    return {e[1]} if e[0] == "l" else {n for x in e if isinstance(x, tuple) for n in _names(x)}


def _contains(e: Expr, part: Expr) -> bool:
    return e == part or any(isinstance(x, tuple) and _contains(x, part) for x in e)


def _elements(e: Expr, cons: str) -> list[Expr] | None:
    """The elements of a collection written by them (`_LITERALS`), or None when its end is no
    such constant (`insert a s`, `a :: l`)."""
    last, _, _ = _LITERALS[cons]
    items = []
    while True:
        head, args = unapply(e)
        if head == ("c", cons) and len(args) == 2:
            items.append(args[0])
            e = args[1]
        elif head == ("c", last) and len(args) == (last == "Singleton.singleton"):
            return items + args
        else:
            return None


def _introduced(items: list[_Introduced]) -> str:
    """The setting and objects a sentence opens on, those of one kind in a row said together:
    "topological spaces M and X and a group G", not "a topological space M, a topological
    space X and a group G"."""
    groups: list[tuple[str, str, list[str]]] = []
    for noun, name, tail in items:
        if groups and groups[-1][:2] == (noun, tail) and name and groups[-1][2][-1]:
            if name not in groups[-1][2]:  # a `variable` declared again ("groups E and E")
                groups[-1][2].append(name)
        else:
            groups.append((noun, tail, [name]))
    said = []
    for noun, tail, names in groups:
        kind = with_article(noun) if len(names) == 1 else plural(noun)
        said.append(" ".join(x for x in (kind, _join(names), tail) if x))
    return _join(said)


#: A condition said of one variable: "a is even", "f is differentiable at x" (not "a is a ...",
#: whose noun a plural would have to agree with).
_PROPERTY = re.compile(r"(\S+) is ((?!an? |the |not an? )[^,;]+)\Z")


def _conjoined(conditions: list[str]) -> str:
    """Conditions joined by "and" as one writes them: one property of several variables in a
    row said once of them all ("a and b are even", not "a is even and b is even"), properties
    of one variable in a row said once of it ("t is open and compact"; a property said twice,
    once)."""
    groups: list[tuple[list[str], list[str]]] = []
    for said in conditions:
        m = _PROPERTY.match(said)
        names, properties = groups[-1] if groups else ([], [])
        if m and properties == [m.group(2)] and names and m.group(1) not in names:
            names.append(m.group(1))
        elif m and names == [m.group(1)]:
            properties.extend([m.group(2)] if m.group(2) not in properties else [])
        else:
            groups.append(([m.group(1)], [m.group(2)]) if m else ([], [said]))
    return " and ".join(f"{_join(names)} are {properties[0]}" if len(names) > 1 else
                        f"{names[0]} is {_join(properties)}" if names else properties[0]
                        for names, properties in groups)


def _join(items: list[str]) -> str:
    items = [i for i in items if i]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


def _namespaces(s: Statement) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Where the record's names are read: its own name's namespaces and its namespace's, then
    those it opens besides."""
    parts = s.name.split(".")[:-1]
    own = [".".join(parts[:k]) for k in range(len(parts), 0, -1)]
    namespace = str(s.meta.get("namespace") or "")
    spaces = [".".join(namespace.split(".")[:k]) for k in range(namespace.count(".") + 1, 0, -1)] if namespace else []
    inside = tuple(dict.fromkeys([*own, *spaces]))
    return inside, tuple(dict.fromkeys(o for o in s.meta.get("opens") or [] if o not in inside))


#: Records from which the informaliser runs in several processes (fewer are said faster by one).
PARALLEL_FROM = 20_000
_WORKER: "Informaliser | None" = None


def _start_worker(lexicon: Lexicon, fields: dict[str, list[Statement]]) -> None:
    global _WORKER
    _WORKER = Informaliser(lexicon, fields)


def _say_chunk(chunk: list[Statement]) -> list[Said | None]:
    assert _WORKER is not None
    return [_WORKER.sentence(s) for s in chunk]


def informalise(statements: list[Statement], lexicon: Lexicon, workers: int = 1) -> int:
    """Give every Lean record its sentence (`Statement.informal_statement`, and the lexicon
    sources it used in `meta["informal_statement_from"]`), in `workers` processes for many
    records; returns how many got one."""
    fields: dict[str, list[Statement]] = {}
    for s in statements:
        if s.kind == "field":
            fields.setdefault(str(s.meta.get("derived_from", "")), []).append(s)
    if workers > 1 and len(statements) >= PARALLEL_FROM:
        size = -(-len(statements) // (workers * 4))
        chunks = [statements[k:k + size] for k in range(0, len(statements), size)]
        with get_context("spawn").Pool(workers, _start_worker, (lexicon, fields)) as pool:
            said = [x for part in pool.map(_say_chunk, chunks) for x in part]
    else:
        informaliser = Informaliser(lexicon, fields)
        said = [informaliser.sentence(s) for s in statements]
    for s, sentence in zip(statements, said):
        if sentence is not None:
            s.informal_statement = sentence.text
            s.meta["informal_statement_from"] = ", ".join(sorted(sentence.sources)) or "statement"
    return sum(x is not None for x in said)
