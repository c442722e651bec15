"""What a query is: a Lean name, a quoted name substring, or text, which is Lean code, LaTeX or
natural language.

Routing decides which signals lead: a name that exists is answered first; a quoted
`"substring"` searches names only; text goes through every signal, and a ranking may weigh
the signals differently for each kind of text (`Ranking.styles`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from search.text.latex_text import latex_to_text

#: A query that may be a name: no spaces, quotes (`"`, `'`), parentheses, commas or colons.
#: Not a Lean identifier (`syntax.IDENT_PATTERN`): it only routes, and a name with a prime
#: (`foo'`) is routed as text.
_IDENT = re.compile(r"^[^\s\"'(),:]+$")
#: A query holds LaTeX when it has math delimiters or a control word (`\mathbb`, `\le`).
_LATEX = re.compile(r"\$|\\[A-Za-z]")
#: A query holds Lean code when it has a Markdown code span, as Lean is quoted in prose...
_CODE = re.compile(r"`[^`]+`")
#: ... or, outside LaTeX, a binder, arrow or turnstile Lean writes as a symbol (`∀ a, ...`).
_LEAN_SYMBOLS = re.compile(r"[∀∃→↔⊢⟶≫↦]|:=")

#: A number word counting the things after it: "two even numbers", not "two-sided" or "two_mul".
_COUNT = re.compile(r"\b(?:two|three|four|five|six|seven|eight|nine|ten)\s+(?=[^\W\d_])", re.IGNORECASE)

#: What `parse_query` tells queries apart by, the text kinds last.
KINDS = ("name", "substring", "lean", "latex", "natural")


@dataclass(frozen=True)
class ParsedQuery:
    text: str
    kind: str  # one of KINDS
    substrings: tuple[str, ...] = ()
    plain: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.plain:
            object.__setattr__(self, "plain", plain_text(self.text))


def plain_text(text: str) -> str:
    """The query with its LaTeX rendered as Unicode text (`$\\mathbb{R}$` -> `ℝ`).

    The indexes hold LaTeX statements as text in the same way, and raw control words would
    otherwise be read as notation (a backslash is Lean's set difference) or as noise words.
    """
    return latex_to_text(text) if _LATEX.search(text) else text


def parse_query(text: str) -> ParsedQuery:
    """Classify a query (`KINDS`); a name-shaped query goes through every signal as well, for
    when no record bears the name. Text with a code span is Lean even when it also has LaTeX;
    other text is LaTeX when it has some, else Lean when it has Lean's symbols, else natural
    language."""
    text = " ".join(text.split())
    quoted = re.findall(r'"([^"]+)"', text)
    if quoted and not re.sub(r'"[^"]+"|,', "", text).strip():
        return ParsedQuery(text, "substring", tuple(q.lower() for q in quoted))
    if _IDENT.match(text) and ("." in text or "_" in text or re.search(r"[a-z][A-Z]", text)):
        return ParsedQuery(text, "name")
    if _CODE.search(text):
        return ParsedQuery(text, "lean")
    if _LATEX.search(text):
        return ParsedQuery(text, "latex")
    return ParsedQuery(text, "lean" if _LEAN_SYMBOLS.search(text) else "natural")


def without_counts(text: str) -> str:
    """The text without the number words that count the things after them (`_COUNT`)."""
    return _COUNT.sub("", text)
