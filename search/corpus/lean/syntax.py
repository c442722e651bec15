"""Lean 4 surface syntax: names, brackets, comments and literals, tokens.

Every reader of Lean text uses this module, so that they all agree on what an identifier, a
bracket, a comment or a token is: the source parser (commands, layout, references), the
expression reader (instance names, `to_additive` statements), and the text-level helpers
elsewhere (signature splitting for the indexes and the Lean APIs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Collection, Iterable, Iterator, Mapping, NamedTuple, Sequence

from search.corpus.lean.notation import SYMBOLS

# --- Names --------------------------------------------------------------------------------------

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
#: `Category* C` is `Category.{v} C` with a fresh universe `v` (Mathlib/Tactic/CategoryTheory/CategoryStar.lean).
_STARRED_CLASS_RE = re.compile(r"(?<![\w.'])Category\*")
_NAME_PART_RE = re.compile(r"«([^»]*)»|([^.«]+)")


def split_name(name: str) -> list[str]:
    """Split a dotted name into components, honouring `«a.b»` quoting (quotes removed)."""
    if "«" not in name:
        return name.split(".") if name else []
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in _NAME_PART_RE.finditer(name)]


def drop_universe_levels(text: str) -> str:
    """`Foo.{u} (Bar.{v, w} α)` -> `Foo (Bar α)`."""
    return _UNIVERSES_RE.sub("", text)


def drop_universes(text: str) -> str:
    """Levels dropped and `Category* C` read `Category C`: the statement as a reader says it.

    Instance naming keeps `Category*` as written (`drop_universe_levels`): Lean's names for those
    instances have no `OfCategory` (`instAdditiveColimOfHasColimitsOfShapeOfPreadditive`).
    """
    return _STARRED_CLASS_RE.sub("Category", drop_universe_levels(text))


def clean_name(written: str) -> str:
    """The name Lean stores for a written one: universes `.{u}` and `«»` quotes removed."""
    return ".".join(split_name(drop_universe_levels(written)))


def join_name(*parts: str) -> str:
    """Join name prefixes, skipping empty ones (the root namespace is `""`)."""
    return ".".join(p for p in parts if p)


def qualify(namespace: str, written: str) -> str:
    """Full name of a declaration written as `written` inside `namespace`."""
    name = clean_name(written)
    if name.startswith("_root_."):
        return name[len("_root_."):]
    return join_name(namespace, name)


# --- Brackets -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Brackets:
    """Pairs of brackets: `opening` maps an opening bracket to its closing one; the
    one-character brackets also serve character-level scans (`chars_opening`, `chars_closing`)."""

    opening: Mapping[str, str]
    closing: frozenset[str] = field(init=False)
    chars_opening: frozenset[str] = field(init=False)
    chars_closing: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "closing", frozenset(self.opening.values()))
        object.__setattr__(self, "chars_opening", frozenset(k for k in self.opening if len(k) == 1))
        object.__setattr__(self, "chars_closing", frozenset(v for v in self.closing if len(v) == 1))

    def without(self, opener: str) -> Brackets:
        """These pairs but the one `opener` opens."""
        return Brackets({k: v for k, v in self.opening.items() if k != opener})


#: Lean's brackets, as tokens (`@[` opens an attribute list, `{{` is the ASCII `⦃`).
BRACKETS = Brackets({
    "(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "⟦": "⟧", "⁅": "⁆", "⟮": "⟯", "{{": "}}", "@[": "]",
})
#: Brackets in terms, for the term readers (`expr`, `to_additive` statements). They do not
#: group Lie brackets `⁅x, y⁆`: to them `⁅` and `⁆` are unknown notation. Grouping them would
#: change the names and statements they give the Mathlib declarations that write Lie brackets
#: (`LieSubmodule.instCanLiftSubmodule`, the twin of `commutatorElement_inv`).
TERM_BRACKETS = BRACKETS.without("⁅")


def group_end(tokens: Sequence[Token], i: int, stop: int | None = None, inside: bool = False,
              brackets: Brackets = BRACKETS) -> int:
    """Index just past the bracket group opening at token `i` (`inside`: the group that token
    `i` is already inside), or `stop` (default: the end) if it is not closed before."""
    stop = len(tokens) if stop is None else stop
    close = find_top_level(tokens, i if inside else i + 1, stop, brackets.closing, brackets)
    return close + 1 if close < stop else stop


def group_start(tokens: Sequence[Token], end: int, brackets: Brackets = BRACKETS) -> int:
    """Index of the opening bracket of the group whose closing bracket is token `end - 1`."""
    opening, closing = brackets.opening, brackets.closing
    depth = 0
    j = end
    for j in range(end - 1, -1, -1):
        text = tokens[j].text
        if text in closing:
            depth += 1
        elif text in opening:
            depth -= 1
            if depth == 0:
                break
    return j


def find_top_level(tokens: Sequence[Token], a: int, b: int, texts: Collection[str],
                   brackets: Brackets = BRACKETS) -> int:
    """Index of the first token in a..b at bracket depth 0 (counted from `a`) whose text is
    one of `texts`, else `b`. A closing bracket is at depth 0 when it closes nothing opened
    in a..b."""
    opening, closing = brackets.opening, brackets.closing
    depth = 0
    for k in range(a, b):
        text = tokens[k].text
        if text in opening:
            depth += 1
        elif text in closing:
            if depth == 0 and text in texts:
                return k
            depth -= 1
        elif depth == 0 and text in texts:
            return k
    return b


def top_level(text: str, chars: str, start: int = 0) -> Iterator[int]:
    """Offsets of the characters of `chars` that stand outside brackets in `text[start:]`
    (a closing bracket is found when it closes nothing; stray closers are ignored)."""
    opening, closing = BRACKETS.chars_opening, BRACKETS.chars_closing
    depth = 0
    for k in range(start, len(text)):
        c = text[k]
        if c in opening:
            depth += 1
        elif c in closing:
            if depth == 0 and c in chars:
                yield k
            depth = max(depth - 1, 0)
        elif depth == 0 and c in chars:
            yield k


_SPACES_RE = re.compile(r"\s+")


def collapse_spaces(text: str) -> str:
    """Runs of whitespace (line breaks too) as one space, ends stripped."""
    return _SPACES_RE.sub(" ", text).strip()


# --- Comments and literals ----------------------------------------------------------------------

#: Marks the first character of a doc comment in the masked text (a private-use character).
DOC_MARK = "\ue000"

_LEX_START_RE = re.compile(r"--|/-|\"|'|\br#*\"")
_BLOCK_RE = re.compile(r"/-|-/")
#: A string literal.
STRING_PATTERN = r'"(?:[^"\\]|\\.)*"'
_STRING_RE = re.compile(STRING_PATTERN, re.DOTALL)
_CHAR_RE = re.compile(r"'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^'\\\n])'")
#: A character after which `'` is a prime (`f'`), not a char literal: any word character, a
#: wider set than Lean's identifier characters.
_IDENT_CHAR_RE = re.compile(r"[\w'!?\u2080-\u209c\u1d62-\u1d6a\u2c7c\u2100-\u214f\U0001d49c-\U0001d59f]")
_NOT_NEWLINE_RE = re.compile(r"[^\n]")


def _blank(s: str) -> str:
    return _NOT_NEWLINE_RE.sub(" ", s)


@dataclass
class Lexed:
    """A source text with comments and literals located.

    `masked` blanks comments, doc comments (first character replaced by `DOC_MARK`),
    strings and chars; `code` blanks only comments and doc comments, keeping literals.
    Both keep every offset and line of `text`. `docs` holds each doc comment `/-- -/` by its
    offset; `module_docs` the texts of the module doc comments `/-! -/`, in order.
    """

    text: str
    masked: str
    code: str
    docs: dict[int, str]
    module_docs: list[str] = field(default_factory=list)


def _block_comment_end(text: str, start: int) -> int:
    """Offset just past the nested block comment opening at `start`."""
    depth = 0
    for m in _BLOCK_RE.finditer(text, start):
        depth += 1 if m.group() == "/-" else -1
        if depth == 0:
            return m.end()
    return len(text)


def _literal_end(text: str, start: int, opener: str) -> int | None:
    """End of the string / raw string / char literal at `start`, or None if it is not one."""
    if opener == '"':
        m = _STRING_RE.match(text, start)
        return m.end() if m else len(text)
    if opener == "'":
        if start > 0 and _IDENT_CHAR_RE.match(text, start - 1):
            return None  # a prime inside an identifier such as `f'`
        m = _CHAR_RE.match(text, start)
        return m.end() if m else None
    hashes = opener[1:-1]
    end = text.find('"' + hashes, start + len(opener))
    return len(text) if end < 0 else end + 1 + len(hashes)


def lex(text: str) -> Lexed:
    """Locate the comments (nested `/- -/`, `--`), doc comments and literals of Lean text."""
    masked: list[str] = []
    code: list[str] = []
    docs: dict[int, str] = {}
    module_docs: list[str] = []
    pos = 0
    search = 0
    while (m := _LEX_START_RE.search(text, search)) is not None:
        start, opener = m.start(), m.group()
        if opener == "--":
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
        elif opener == "/-":
            end = _block_comment_end(text, start)
        else:
            literal_end = _literal_end(text, start, opener)
            if literal_end is None:
                search = start + 1
                continue
            masked += [text[pos:start], _blank(text[start:literal_end])]
            code.append(text[pos:literal_end])
            pos = search = literal_end
            continue
        blank = _blank(text[start:end])
        is_doc = opener == "/-" and text.startswith("/--", start) and not text.startswith("/--/", start)
        if is_doc:
            docs[start] = text[start + 3:end - 2].strip()
            blank = DOC_MARK + blank[1:]
        elif opener == "/-" and text.startswith("/-!", start):
            module_docs.append(text[start + 3:end - 2].strip())
        masked += [text[pos:start], blank]
        code += [text[pos:start], _blank(text[start:end])]
        pos = search = end
    masked.append(text[pos:])
    code.append(text[pos:])
    return Lexed(text, "".join(masked), "".join(code), docs, module_docs)


# --- Tokens -------------------------------------------------------------------------------------


class Token(NamedTuple):
    """One token of Lean text.

    `kind` is "ident", "num", "string", "sym" (a symbol of the vocabulary), "doc" (where a doc
    comment starts, in the masked text) or "other" (any other single character). `spaced`:
    whitespace or a comment comes right before. Tokens made up by a caller (a rewritten
    statement) leave the position fields at their defaults.
    """

    kind: str
    text: str
    start: int = 0
    end: int = 0
    line: int = 0
    col: int = 0
    first_on_line: bool = False
    spaced: bool = False


def glued(a: Token, b: Token) -> bool:
    """Whether `b` follows `a` with nothing in between."""
    return a.end == b.start


class Vocabulary(NamedTuple):
    """Which text is read (literals blanked, or kept as "string" tokens) and which
    multi-character symbols are one token."""

    literals: bool
    pattern: re.Pattern[str]


def _vocabulary(symbols: Iterable[str], literals: bool) -> Vocabulary:
    alternation = "|".join(re.escape(s) for s in sorted(symbols, key=len, reverse=True))
    return Vocabulary(literals, re.compile(
        r"[^\S\n]*(?:"
        rf"(?P<nl>\n)|(?P<doc>{DOC_MARK})|(?P<string>{STRING_PATTERN})|(?P<sym>{alternation})"
        rf"|(?P<ident>{IDENT_PATTERN})|(?P<num>\d+(?:\.\d+)?)|(?P<other>\S))",
        re.DOTALL,
    ))


#: Commands and their layout: string contents are never read (a keyword inside a string
#: is no keyword), and every bracket is a token of its own, so that groups match.
LAYOUT = _vocabulary(("@[", ":=", "=>", "<;>", "::", "..", "<|", "|>"), literals=False)
#: Terms: notation is one token (`≃+*`, `ℝ≥0∞`, `→ₗ[`, whose `]` is read by the term reader;
#: the symbols of `notation.SYMBOLS`), and string literals are tokens.
NOTATION = _vocabulary((
    "ℝ≥0∞", "ℝ≥0", "ℚ≥0", "ℕ∞", "ℕ+", "→ₗ[", "≃ₗ[", "→L[", "≃L[", "→ₗᵢ[", "≃ₗᵢ[", "→ₛₗ[",
    "→SL[", "→ₐ[", "≃ₐ[", "⊗[", "→+*", "≃+*", "→*₀", "→*", "→+", "≃*", "≃+", "→o", "≃o",
    "↪o", "→₀", "→ᵇ", ":=", "=>", "<;>", "<|>", "<|", "|>", "∃!", "×ˢ", "ᵐᵒᵖ", "ᵃᵒᵖ", "ᵈᵐᵃ",
    "ᵈᵃᵃ", "ᵒᵈ", "ᵒᵖ", "⁻¹", "≠", "≤", "≥", "->", "<->", "{{", "}}", "?_", "..", "::", *SYMBOLS,
), literals=True)


def tokenize(lexed: Lexed, vocabulary: Vocabulary = LAYOUT) -> list[Token]:
    """Tokens of a lexed text, with line, column, and whether each starts its line."""
    text = lexed.code if vocabulary.literals else lexed.masked
    tokens: list[Token] = []
    new = tuple.__new__
    line, line_start, first = 1, 0, True
    for m in vocabulary.pattern.finditer(text):
        kind = m.lastgroup
        if kind == "nl":
            line, line_start, first = line + 1, m.end(), True
            continue
        start, end = m.span(kind)
        token = m.group(kind)
        spaced = start != m.start() or (first and line > 1)
        tokens.append(new(Token, (kind, token, start, end, line, start - line_start, first, spaced)))
        first = False
        if kind == "string" and "\n" in token:
            line += token.count("\n")
            line_start = start + token.rindex("\n") + 1
    return tokens


def render_tokens(toks: list[Token]) -> str:
    """Tokens back to text, one space where the source had whitespace or a comment."""
    return "".join((" " if t.spaced else "") + t.text for t in toks)


def term_tokens(text: str) -> list[Token]:
    """Tokens of a statement or term, for reading it as an expression."""
    return tokenize(lex(text), NOTATION)
