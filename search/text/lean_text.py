"""Lean names and notation in words, without an LLM.

Mathlib names follow conventions (`mul_comm`, `Nat.succ_le_succ`, `norm_add_le_of_le`) and
statements use Unicode notation (`∀ ε > 0, ∃ δ`). Queries are mostly words. These functions
bridge the two so that both the lexical and the dense signals can match them.
"""

from __future__ import annotations

import re

from search.corpus.lean.syntax import top_level

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_]+")

#: Mathlib naming-convention words and common abbreviations, decoded.
NAME_WORDS: dict[str, str] = {
    "add": "addition", "sub": "subtraction", "mul": "multiplication", "div": "division",
    "neg": "negation", "inv": "inverse", "pow": "power", "zpow": "integer power",
    "npow": "natural power", "nsmul": "natural scalar multiplication",
    "zsmul": "integer scalar multiplication", "smul": "scalar multiplication",
    "vadd": "vector addition", "sq": "square", "sqrt": "square root", "abs": "absolute value",
    "comm": "commutative", "assoc": "associative", "distrib": "distributive",
    "le": "less than or equal", "lt": "less than", "ge": "greater than or equal",
    "gt": "greater than", "eq": "equal", "ne": "not equal", "iff": "if and only if",
    "of": "from", "imp": "implies", "not": "not", "and": "and", "or": "or",
    "succ": "successor", "pred": "predecessor", "pos": "positive", "nonneg": "nonnegative",
    "nonpos": "nonpositive", "inj": "injective", "injective": "injective",
    "surj": "surjective", "bij": "bijective", "mem": "member element of",
    "nmem": "not member", "dvd": "divides divisible", "gcd": "greatest common divisor",
    "lcm": "least common multiple", "mod": "modulo remainder", "emod": "modulo remainder",
    "card": "cardinality number of elements", "fin": "finite", "finset": "finite set",
    "finsupp": "finitely supported function", "nat": "natural number", "int": "integer",
    "rat": "rational", "real": "real number", "complex": "complex number",
    "ennreal": "extended nonnegative real", "nnreal": "nonnegative real",
    "ereal": "extended real", "deriv": "derivative", "fderiv": "derivative",
    "iteratedderiv": "iterated derivative", "integral": "integral",
    "tendsto": "tends to limit", "nhds": "neighborhood", "nhdswithin": "neighborhood within",
    "cont": "continuous", "contdiff": "continuously differentiable",
    "hom": "homomorphism morphism", "equiv": "equivalence isomorphism", "iso": "isomorphism",
    "mono": "monotone monomorphism", "anti": "antitone", "epi": "epimorphism",
    "ker": "kernel", "comp": "composition", "id": "identity", "symm": "symmetric",
    "refl": "reflexive", "trans": "transitive", "antisymm": "antisymmetric",
    "irrefl": "irreflexive", "sup": "supremum join", "inf": "infimum meet",
    "isup": "indexed supremum", "iinf": "indexed infimum", "top": "top greatest",
    "bot": "bottom least", "compl": "complement", "inter": "intersection", "union": "union",
    "sdiff": "set difference", "subset": "subset", "ssubset": "strict subset",
    "empty": "empty", "univ": "universal whole set", "singleton": "singleton",
    "prod": "product", "sum": "sum", "tsum": "infinite sum series", "tprod": "infinite product",
    "det": "determinant", "tr": "trace", "eval": "evaluation", "coeff": "coefficient",
    "nat_degree": "degree", "natdegree": "degree", "deg": "degree", "exp": "exponential",
    "log": "logarithm", "cos": "cosine", "sin": "sine", "tan": "tangent", "arctan": "arctangent",
    "coe": "coercion cast", "cast": "cast coercion", "ext": "extensionality equal if components equal",
    "congr": "congruence", "cancel": "cancellation", "lhs": "left hand side",
    "rhs": "right hand side", "mk": "constructor make", "apply": "application",
    "def": "definition", "spec": "specification", "ae": "almost everywhere",
    "measurable": "measurable", "nnnorm": "nonnegative norm", "norm": "norm", "dist": "distance",
    "edist": "extended distance", "diam": "diameter", "ball": "ball", "closedball": "closed ball",
    "isopen": "open set", "isclosed": "closed set", "iscompact": "compact",
    "isunit": "unit invertible", "isempty": "empty", "nonempty": "nonempty", "exists": "exists",
    "forall": "for all", "max": "maximum", "min": "minimum", "floor": "floor", "ceil": "ceiling",
    "fract": "fractional part", "choose": "binomial coefficient", "factorial": "factorial",
    "totient": "euler totient", "zmod": "integers modulo", "padic": "p-adic",
    "polynomial": "polynomial", "mvpolynomial": "multivariate polynomial",
    "powerseries": "power series", "charpoly": "characteristic polynomial",
    "minpoly": "minimal polynomial", "span": "span", "finrank": "dimension rank",
    "rank": "rank dimension", "submodule": "submodule subspace", "linearmap": "linear map",
    "matrix": "matrix", "map": "map image", "comap": "preimage comap", "preimage": "preimage",
    "image": "image", "range": "range image", "support": "support", "zero": "zero",
    "one": "one", "two": "two", "self": "self", "left": "left", "right": "right",
    "cons": "cons prepend", "nil": "empty list", "append": "append concatenation",
    "length": "length", "reverse": "reverse", "filter": "filter", "fst": "first component",
    "snd": "second component", "pi": "pi product", "sigma": "sigma dependent pair",
    "iUnion": "indexed union", "iunion": "indexed union", "iinter": "indexed intersection",
    "bUnion": "bounded union", "lintegral": "lebesgue integral", "cauchy": "cauchy",
    "uniform": "uniform", "conj": "conjugate", "re": "real part", "im": "imaginary part",
    "irrational": "irrational", "prime": "prime", "coprime": "coprime relatively prime",
    "squarefree": "squarefree", "even": "even", "odd": "odd", "bodd": "odd",
    "antidiagonal": "antidiagonal", "ncard": "cardinality", "encard": "cardinality",
}

#: Lean notation in words (longest first so that `≠` wins over `=`).
NOTATION: dict[str, str] = {
    "∀": " for all ", "∃!": " there exists unique ", "∃": " there exists ", "¬": " not ",
    "↔": " if and only if ", "→": " implies to ", "←": " from ", "∧": " and ", "∨": " or ",
    "≤": " less than or equal ", "≥": " greater than or equal ", "≠": " not equal ",
    "<": " less than ", ">": " greater than ", "=": " equals ", "∣": " divides ",
    "∑": " sum ", "∏": " product ", "∫⁻": " lebesgue integral ", "∫": " integral ",
    "∮": " contour integral ", "∂": " partial derivative ", "√": " square root ",
    "∈": " in member of ", "∉": " not in ", "⊆": " subset ", "⊂": " strict subset ",
    "⊇": " superset ", "∩": " intersection ", "∪": " union ", "⋂": " intersection ",
    "⋃": " union ", "∅": " empty set ", "ᶜ": " complement ", "\\": " set difference ",
    "×": " product ", "⊗": " tensor product ", "⊕": " direct sum ", "∘": " composition ",
    "⁻¹": " inverse ", "•": " scalar multiplication ", "*": " times ", "+": " plus ",
    "-": " minus ", "/": " divided by ", "^": " power ", "%": " modulo ", "∞": " infinity ",
    "ℕ": " natural numbers ", "ℤ": " integers ", "ℚ": " rationals ", "ℝ": " real numbers ",
    "ℂ": " complex numbers ", "ℍ": " quaternions ", "π": " pi ", "⊤": " top ", "⊥": " bottom ",
    "⊔": " supremum join ", "⊓": " infimum meet ", "⨆": " supremum ", "⨅": " infimum ",
    "≃": " equivalence isomorphism ", "≅": " isomorphism ", "≈": " approximately equivalent ",
    "≡": " congruent ", "⟶": " morphism ", "⥤": " functor ", "→+*": " ring homomorphism ",
    "→*": " monoid homomorphism ", "→+": " additive homomorphism ", "→ₗ": " linear map ",
    "→L": " continuous linear map ", "→ₐ": " algebra homomorphism ", "‖": " norm ",
    "|": " absolute value ", "𝓝": " neighborhood ", "∀ᶠ": " eventually ", "∃ᶠ": " frequently ",
    "=ᶠ": " eventually equal ", "∂μ": " with respect to measure ", "deriv": " derivative ",
    "⌊": " floor ", "⌈": " ceiling ", "!": " factorial ", "ε": " epsilon ", "δ": " delta ",
}
#: Where a symbol of NOTATION is something else: a backslash before a letter starts a LaTeX
#: control word (`\mathbb` in a docstring), not Lean's set difference (`s \ t`); a hyphen between
#: letters joins words ("R-module", "two-sided"), not a subtraction; `deriv` followed by a small
#: letter begins an English word ("derivation", "derived"), not the derivative (`deriv`, `fderiv_add`).
_NOTATION_PATTERNS = {"\\": r"\\(?![A-Za-z])", "-": r"(?<![^\W\d_])-|-(?![^\W\d_])", "deriv": r"deriv(?![a-z])"}
_NOTATION_RE = re.compile("|".join(
    _NOTATION_PATTERNS.get(k, re.escape(k)) for k in sorted(NOTATION, key=len, reverse=True)
))


def split_identifier(name: str) -> list[str]:
    """`Nat.succ_le_succ` -> [nat, succ, le, succ]; `IsOpen.inter` -> [is, open, inter]."""
    name = name.replace("«", "").replace("»", "")
    words = []
    for part in re.split(r"[._'\s]+", name):
        words.extend(w.lower() for w in _CAMEL.findall(part))
    return [w for w in words if w]


def decode_name(name: str) -> str:
    """A Lean name read aloud: components split, convention words decoded, order kept.

    The raw word stays beside its decoding (`mul multiplication`) so that both the Lean
    abbreviation and the English word can match a query.
    """
    out = []
    for component in re.split(r"[.]", name.replace("«", "").replace("»", "")):
        for piece in component.split("_"):
            lowered = piece.lower()
            if lowered in NAME_WORDS:
                decoded = NAME_WORDS[lowered]
                out.append(f"{lowered} {decoded}" if decoded != lowered else lowered)
                continue
            for word in split_identifier(piece):
                decoded = NAME_WORDS.get(word)
                out.append(f"{word} {decoded}" if decoded and decoded != word else word)
    return " ".join(out)


def spell_notation(text: str) -> str:
    """Replace each notation symbol by its words (`a ≤ b` -> `a  less than or equal  b`)."""
    return _NOTATION_RE.sub(lambda m: NOTATION[m.group(0)], text)


def verbalise_lean(text: str) -> str:
    """Lean notation spelled out in words, identifiers split; punctuation dropped."""
    text = spell_notation(text)
    words = []
    # Words to split, not Lean identifiers: a dotted run such as `h.1.le` stays one word.
    for token in re.findall(r"[^\W_][\w.'!?₀-₉]*", text):
        words.extend(split_identifier(token))
    return " ".join(words)


def signature_type(signature: str) -> tuple[str, str]:
    """Split a declaration header into (binders, type) at the last top-level colon.

    Brackets are matched so that `(h : a ≤ b)` stays in the binders; the header keyword and
    name are dropped from the binders (an anonymous instance has no name: `instance [Ring R] :
    ...` keeps its first binder).
    """
    split_at = next((k for k in top_level(signature, ":") if signature[k + 1 : k + 2] not in ("=", ":")), -1)
    if split_at < 0:
        return signature, ""
    head = signature[:split_at]
    head = re.sub(r"^\S+(\s+[^\s\[{⦃]\S*)?", "", head.strip(), count=1) if head else ""
    return head.strip(), signature[split_at + 1 :].strip()


def binder_classes(binders: str) -> list[str]:
    """The class names of instance binders: `[Group G] [Fintype G]` -> [Group, Fintype]."""
    return re.findall(r"\[(?:[^\]:]*:\s*)?([A-Z][\w.]*)", binders)


#: A binder group opens with a bracket after a space (`.{u}` universe lists do not).
_BINDERS = re.compile(r"(?:^|\s)([(\[{⦃])")


def binders_and_type(header: str) -> tuple[str, str]:
    """The header's binders, from the first bracket (`{n m : ℕ} (h : n ≤ m)`), and its type
    (`succ n ≤ succ m`; "" when it writes none: `structure Foo (α : Type)`)."""
    head, type_ = signature_type(header)
    start = _BINDERS.search(head)
    return (head[start.start(1):].strip() if start else ""), type_


def declaration_type(header: str) -> str:
    """The header's statement as a type; the header itself when it writes no type
    (`structure Foo (α : Type)`).

    LeanSearch, Loogle and LeanStateSearch answer with a declaration's *type*, which clients
    paste into `have : <type> := <name>`. The records hold the header as written
    (`theorem succ_le_succ {n m : ℕ} (h : n ≤ m) : succ n ≤ succ m`); its binders and its type
    give the same statement as a type, `∀ {n m : ℕ} (h : n ≤ m), succ n ≤ succ m`: source
    text, not Lean's elaborated type (auto-bound implicits are not added).
    """
    binders, type_ = binders_and_type(header)
    if not type_:
        return header
    return f"∀ {binders}, {type_}" if binders else type_
