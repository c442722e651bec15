"""Parse a tree of Lean 4 sources into declaration records, without a Lean toolchain.

The records have the fields of the shared Lean corpora (`../shared/corpora/lean/*.jsonl.gz`,
documented in their README) plus `attribute_args` (the full text of each attribute item)
and `derived_from` (for records generated from another declaration: `@[to_additive]`
twins and `alias`es).  Parsing is layout based, as Mathlib-style sources allow:

1. each file is lexed: comments, strings and char literals are blanked out (doc comments
   are remembered), so keywords inside comments or strings are never read;
2. top-level commands start at column 0 (inside `mutual`, at the block's indentation) with a
   doc comment, `@[`, a `#command` or a command word; doc comments, attributes, modifiers
   and `open .. in` / `set_option .. in` prefixes are joined to the command that follows;
3. commands are read in order with a stack of `namespace` / `section` / `mutual` scopes and
   their `open`s;
4. over the whole tree: unnamed instances are named (`naming.instance_name`),
   `to_additive` and `alias` records are added, and identifier tokens are resolved to the
   declarations of the tree (`refs`).

Known approximations (beyond those of `naming`):

* refs: locals are recognised by syntax (binders, `fun`/`∀`/`∃`, `intro`/`obtain`/`have`/...,
  pattern variables; flow-insensitive), tactic names by layout; ambiguous names at root level
  keep every visible match; all imports are treated as re-exported; the module system's
  implicit privacy is not modelled;
* to_additive: the additive statement is a textual translation; `(reorder := ...)` is
  ignored; `to_dual`, `@[simps]`, `@[reassoc]`, `mk_iff` and other generated names are not
  produced;
* instance names: Lean's `_1` suffix for a taken name is applied within the file only;
* hidden directories (`.lake`, `.git`) and a top-level `lakefile.lean` are skipped.
"""

from __future__ import annotations

import bisect
import gc
import json
import re
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Iterator, NamedTuple

from search.corpus.lean.naming import (
    IDENT_PATTERN,
    additive_name,
    additive_signature,
    clean_name,
    explicit_additive_name,
    instance_name,
    join_name,
    split_name,
)

# --- Lexing -------------------------------------------------------------------------------------

#: Marks the first character of a doc comment in the masked text (a private-use character).
DOC_MARK = "\ue000"

_LEX_START_RE = re.compile(r"--|/-|\"|'|\br#*\"")
_BLOCK_RE = re.compile(r"/-|-/")
_STRING_RE = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_CHAR_RE = re.compile(r"'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^'\\\n])'")
_IDENT_CHAR_RE = re.compile(r"[\w'!?\u2080-\u209c\u1d62-\u1d6a\u2c7c\u2100-\u214f\U0001d49c-\U0001d59f]")
_NOT_NEWLINE_RE = re.compile(r"[^\n]")


def _blank(s: str) -> str:
    return _NOT_NEWLINE_RE.sub(" ", s)


@dataclass
class Lexed:
    """A source file with comments and literals located.

    `masked` blanks comments, doc comments (first character replaced by `DOC_MARK`),
    strings and chars; `code` blanks only comments and doc comments, keeping string
    literals (for attribute arguments).  Both keep every offset and line of `text`.
    """

    text: str
    masked: str
    code: str
    docs: dict[int, str]


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
    """Locate comments, doc comments and literals of a Lean source file."""
    masked: list[str] = []
    code: list[str] = []
    docs: dict[int, str] = {}
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
        masked += [text[pos:start], blank]
        code += [text[pos:start], _blank(text[start:end])]
        pos = search = end
    masked.append(text[pos:])
    code.append(text[pos:])
    return Lexed(text, "".join(masked), "".join(code), docs)


# --- Tokens -------------------------------------------------------------------------------------

_TOKEN_RE = re.compile(
    r"[^\S\n]*(?:"
    rf"(?P<nl>\n)|(?P<doc>{DOC_MARK})|(?P<attr>@\[)|(?P<ident>{IDENT_PATTERN})|(?P<num>\d+)"
    r"|(?P<sym>:=|=>|<;>|::|\.\.|<\||\|>)|(?P<other>\S))"
)
_OPEN = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "⟦": "⟧", "⁅": "⁆", "@[": "]"}
_CLOSERS = set(_OPEN.values())


class Token(NamedTuple):
    kind: str
    text: str
    start: int
    end: int
    line: int
    col: int
    first_on_line: bool


def tokenize(lexed: Lexed) -> list[Token]:
    """Tokens of the masked text, with line, column and whether each starts its line."""
    tokens: list[Token] = []
    new = tuple.__new__
    line, line_start, first = 1, 0, True
    for m in _TOKEN_RE.finditer(lexed.masked):
        kind = m.lastgroup
        if kind == "nl":
            line, line_start, first = line + 1, m.end(), True
            continue
        start, end = m.span(kind)
        tokens.append(new(Token, (kind, m.group(kind), start, end, line, start - line_start, first)))
        first = False
    return tokens


def _group_end(tokens: list[Token], i: int, stop: int) -> int:
    """Index just past the bracket group opening at `i` (or `stop` if unclosed)."""
    depth = 0
    for j in range(i, stop):
        text = tokens[j].text
        if text in _OPEN:
            depth += 1
        elif text in _CLOSERS:
            depth -= 1
            if depth == 0:
                return j + 1
    return stop


def _glued(a: Token, b: Token) -> bool:
    return a.end == b.start


# --- Command starts -----------------------------------------------------------------------------

DECL_KINDS = ("theorem", "lemma", "def", "abbrev", "instance", "structure", "class", "inductive",
              "coinductive", "opaque", "axiom", "irreducible_def", "example")
MODIFIERS = ("private", "protected", "public", "noncomputable", "nonrec", "partial", "unsafe", "meta",
             "local", "scoped")
_COMMAND_WORDS = frozenset(DECL_KINDS + MODIFIERS + (
    "alias", "namespace", "section", "end", "mutual", "open", "export", "variable", "universe",
    "set_option", "attribute", "notation", "notation3", "infix", "infixl", "infixr", "prefix",
    "postfix", "macro", "macro_rules", "syntax", "elab", "elab_rules", "declare_syntax_cat",
    "initialize", "builtin_initialize", "import", "deriving", "omit", "include", "unseal", "seal",
    "simproc", "dsimproc", "simproc_decl", "module", "proof_wanted", "TODO", "informal_lemma",
    "informal_definition", "unif_hint", "recall", "termination_by", "register_simp_attr",
))
#: Words that can sit at column 0 inside a term or proof; never command starts.
_NOT_COMMANDS = frozenset({"fun", "by", "from", "have", "show", "calc", "match", "with", "then", "else",
                           "if", "let", "do", "at", "in", "where", "using", "decreasing_by"})
_SNAKE_WORD_RE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+\Z")


def _starts_command(tokens: list[Token], i: int) -> bool:
    tok = tokens[i]
    if tok.kind in ("doc", "attr"):
        return True
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if tok.text == "#":
        return nxt is not None and nxt.kind == "ident" and _glued(tok, nxt)
    if tok.kind != "ident" or tok.text in _NOT_COMMANDS:
        return False
    if tok.text == "deriving":
        return nxt is not None and nxt.text == "instance"
    return tok.text in _COMMAND_WORDS or bool(_SNAKE_WORD_RE.match(tok.text))


def command_starts(tokens: list[Token]) -> list[int]:
    """Indices of tokens that start a top-level command (column 0, or the indentation of
    the declarations inside a `mutual` block)."""
    starts: list[int] = []
    in_mutual = False
    mutual_col: int | None = None
    for i, tok in enumerate(tokens):
        if not tok.first_on_line:
            continue
        if in_mutual and mutual_col is None and tok.col > 0:
            mutual_col = tok.col
        if tok.col == 0 or (in_mutual and tok.col == mutual_col):
            if _starts_command(tokens, i):
                starts.append(i)
                if tok.col == 0 and tok.text == "mutual":
                    in_mutual, mutual_col = True, None
                elif tok.col == 0 and tok.text == "end":
                    in_mutual = False
    return starts


# --- Records ------------------------------------------------------------------------------------

RECORD_FIELDS = ("name", "kind", "module", "path", "line", "end_line", "signature", "docstring",
                 "attributes", "modifiers", "namespace", "opens", "opens_scoped", "fields",
                 "constructors", "refs", "source", "commit", "url", "attribute_args", "derived_from")
_INDUCTIVE_KINDS = frozenset({"inductive", "class inductive", "coinductive"})
_TYPE_KINDS = frozenset({"structure", "class", "class abbrev"}) | _INDUCTIVE_KINDS
_SORT_RESULT_RE = re.compile(r"\s*(?:Prop|Type|Sort)\b")


@dataclass
class AdditiveSpec:
    """What one `@[to_additive ...]` item asks for."""

    target: str | None = None
    doc: str | None = None
    existing: bool = False
    attr_items: list[str] = field(default_factory=list)


@dataclass
class AliasSpec:
    """One name introduced by `alias`: `direction` is "" for `alias a := t`, else "mp"/"mpr"."""

    target: str
    direction: str
    command: str


@dataclass
class Decl:
    """One record under construction, with what pass 2 needs to finish it."""

    name: str | None
    kind: str
    file: int
    order: float
    namespace: str = ""
    line: int = 0
    end_line: int = 0
    signature: str = ""
    docstring: str | None = None
    attributes: list[str] = field(default_factory=list)
    attribute_args: list[str] = field(default_factory=list)
    modifiers: list[str] = field(default_factory=list)
    opens: list[tuple[str, str]] = field(default_factory=list)
    opens_scoped: list[tuple[str, str]] = field(default_factory=list)
    fields: list[dict] = field(default_factory=list)
    constructors: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    sig_rest: str = ""
    mutual: int = -1
    additive: AdditiveSpec | None = None
    alias: AliasSpec | None = None
    derived_from: str | None = None
    refs: list[str] = field(default_factory=list)

    @property
    def private(self) -> bool:
        return "private" in self.modifiers

    @property
    def protected(self) -> bool:
        return "protected" in self.modifiers

    @property
    def is_type(self) -> bool:
        """Types double as namespaces, so `T.foo` never falls back to `T` (see refs)."""
        if self.kind in _TYPE_KINDS:
            return True
        colon = _top_level_colon(self.sig_rest)
        return colon >= 0 and bool(_SORT_RESULT_RE.match(self.sig_rest, colon + 1))


def _top_level_colon(text: str) -> int:
    """Offset of the last `:` at bracket depth 0 that is not part of `:=`, or -1."""
    depth, found = 0, -1
    for k, c in enumerate(text):
        if c in "([{⟨⦃⟦":
            depth += 1
        elif c in ")]}⟩⦄⟧":
            depth = max(depth - 1, 0)
        elif c == ":" and depth == 0 and text[k + 1:k + 2] not in ("=", ":") and text[k - 1:k] != ":":
            found = k
    return found


@dataclass
class Scope:
    """One level of `namespace` / `section` / `mutual` nesting, with its `open`s."""

    kind: str  # "root", "namespace", "section" or "mutual"
    name: str = ""
    opens: list[tuple[str, str]] = field(default_factory=list)
    opens_scoped: list[tuple[str, str]] = field(default_factory=list)
    mutual: int = -1


@dataclass
class SourceFile:
    """What pass 2 needs of a file once its text is gone."""

    path: str
    module: str
    imports: list[str]


# --- Pass 1: one file ---------------------------------------------------------------------------

_IN_PREFIXES = frozenset({"open", "set_option", "variable", "omit", "include", "attribute", "unseal"})
_WS_RE = re.compile(r"\s+")


def _collapse(s: str) -> str:
    return _WS_RE.sub(" ", s).strip()


@dataclass
class _Prefix:
    """Doc comment, attributes, modifiers and `.. in` prefixes read before a keyword."""

    first: int | None = None
    doc: str | None = None
    attr_items: list[str] = field(default_factory=list)
    attr_docs: list[str | None] = field(default_factory=list)
    modifiers: list[str] = field(default_factory=list)
    opens: list[tuple[str, str]] = field(default_factory=list)
    opens_scoped: list[tuple[str, str]] = field(default_factory=list)
    guarded: bool = False


class FileParser:
    """Pass 1 over one file: the scope-tracking command loop."""

    def __init__(self, lexed: Lexed, file_index: int):
        self.lexed = lexed
        self.file = file_index
        self.tokens = tokenize(self.lexed)
        self.starts = command_starts(self.tokens)
        self.scopes: list[Scope] = [Scope("root")]
        self.decls: list[Decl] = []
        self.additive_attributes: list[tuple[str, str, AdditiveSpec]] = []
        self.mutual_count = 0

    # scope helpers
    @property
    def namespace(self) -> str:
        return join_name(*(s.name for s in self.scopes if s.kind == "namespace"))

    def _next_start(self, i: int) -> int:
        k = bisect.bisect_right(self.starts, i)
        return self.starts[k] if k < len(self.starts) else len(self.tokens)

    def _text(self, a: int, b: int) -> str:
        """Original text from the start of token `a` to the end of token `b - 1`."""
        return self.lexed.text[self.tokens[a].start:self.tokens[b - 1].end] if b > a else ""

    def _code(self, a: int, b: int) -> str:
        return self.lexed.code[self.tokens[a].start:self.tokens[b - 1].end] if b > a else ""

    def parse(self) -> list[Decl]:
        k = 0
        while k < len(self.starts):
            end = self._command(self.starts[k])
            k = bisect.bisect_left(self.starts, end)
        return self.decls

    def _command(self, i: int) -> int:
        """Read the command starting at token `i`; return the index where the next starts."""
        prefix = _Prefix()
        i = self._read_prefix(i, prefix)
        if i >= len(self.tokens):
            return len(self.tokens)
        end = self._next_start(i)
        word = self.tokens[i].text
        if word in ("namespace", "section", "end", "mutual"):
            self._scope_command(word, i, end)
        elif word == "open":
            self._add_opens(self.scopes[-1].opens, self.scopes[-1].opens_scoped, i + 1, end)
        elif word == "attribute":
            self._attribute_command(i, end)
        elif word == "alias":
            self._alias(i, end, prefix)
        elif word in DECL_KINDS and not prefix.guarded:
            self._declaration(i, end, prefix)
        return end

    def _read_prefix(self, i: int, prefix: _Prefix) -> int:
        """Consume doc comment, attributes, modifiers and `open .. in`-style prefixes;
        return the index of the command keyword."""
        toks = self.tokens
        while i < len(toks):
            tok = toks[i]
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if tok.kind == "doc":
                prefix.doc = self.lexed.docs.get(tok.start)
                step = i + 1
            elif tok.kind == "attr":
                step = _group_end(toks, i, len(toks))
                self._read_attributes(i + 1, step - 1, prefix)
            elif tok.text in MODIFIERS and nxt is not None and nxt.text == "[" and _glued(tok, nxt):
                step = _group_end(toks, i + 1, len(toks))  # `scoped[NS] notation ...`
            elif tok.text in MODIFIERS:
                prefix.modifiers.append(tok.text)
                step = i + 1
            elif (tok.text in _IN_PREFIXES or tok.text == "#") and (j := self._in_index(i)) >= 0:
                if tok.text == "open":
                    self._add_opens(prefix.opens, prefix.opens_scoped, i + 1, j)
                prefix.guarded |= tok.text == "#" and nxt.text == "guard_msgs"
                prefix.first = None
                i = j + 1
                continue
            else:
                return i
            prefix.first = i if prefix.first is None else prefix.first
            i = step
        return i

    def _in_index(self, i: int) -> int:
        """Index of the `in` ending an `open .. in`-style prefix at `i`, or -1."""
        end = self._next_start(i)
        depth = 0
        for j in range(i + 1, end):
            text = self.tokens[j].text
            if text in _OPEN:
                depth += 1
            elif text in _CLOSERS:
                depth -= 1
            elif text == "in" and depth == 0:
                return j
        return -1

    # attributes
    def _read_attributes(self, a: int, b: int, prefix: _Prefix) -> None:
        """Split `@[a, b c, d (x := y)]` (tokens a..b) into items at depth-0 commas."""
        depth, start = 0, a
        for j in range(a, b + 1):
            text = self.tokens[j].text if j < b else ","
            if text in _OPEN:
                depth += 1
            elif text in _CLOSERS:
                depth -= 1
            elif text == "," and depth == 0 and j > start:
                stop = self.tokens[j].start if j < len(self.tokens) else len(self.lexed.code)
                item = _strip_attr_kind(_collapse(self.lexed.code[self.tokens[start].start:stop]))
                docs = [self.lexed.docs[t.start] for t in self.tokens[start:j] if t.kind == "doc"]
                prefix.attr_items.append(item)
                prefix.attr_docs.append(docs[0] if docs else None)
                start = j + 1

    def _attribute_command(self, i: int, end: int) -> None:
        """`attribute [to_additive Add] Mul` records a translation for `to_additive` names."""
        if i + 1 >= end or self.tokens[i + 1].text != "[":
            return
        close = _group_end(self.tokens, i + 1, end)
        prefix = _Prefix()
        self._read_attributes(i + 2, close - 1, prefix)
        targets = [t.text for t in self.tokens[close:end] if t.kind == "ident"]
        for item, doc in zip(prefix.attr_items, prefix.attr_docs):
            spec = parse_to_additive(item, doc)
            if spec is not None:
                for target in targets:
                    self.additive_attributes.append((self.namespace, target, spec))

    # scopes and opens
    def _scope_command(self, word: str, i: int, end: int) -> None:
        arg = self.tokens[i + 1].text if i + 1 < end and self.tokens[i + 1].kind == "ident" else ""
        if word == "namespace":
            self.scopes += [Scope("namespace", part) for part in split_name(arg)]
        elif word == "section":
            self.scopes += [Scope("section", part) for part in split_name(arg)] or [Scope("section")]
        elif word == "mutual":
            self.mutual_count += 1
            self.scopes.append(Scope("mutual", mutual=self.mutual_count))
        else:
            for _ in range(max(len(split_name(arg)), 1)):
                if len(self.scopes) > 1:
                    self.scopes.pop()

    def _add_opens(self, opens: list, scoped: list, a: int, b: int) -> None:
        """Read `open [scoped] A B (x) hiding y renaming z → w` between tokens a and b."""
        ns = self.namespace
        is_scoped = False
        j = a
        while j < b:
            tok = self.tokens[j]
            if tok.text == "scoped":
                is_scoped = True
            elif tok.text in ("hiding", "renaming"):
                return
            elif tok.text in _OPEN:
                j = _group_end(self.tokens, j, b)
                continue
            elif tok.kind == "ident":
                name = clean_name(tok.text)
                (scoped if is_scoped else opens).append((name.removeprefix("_root_."), ns))
            j += 1

    @property
    def mutual_id(self) -> int:
        return next((s.mutual for s in reversed(self.scopes) if s.kind == "mutual"), -1)

    def _context_opens(self, prefix: _Prefix) -> tuple[list, list]:
        opens = [o for s in self.scopes for o in s.opens] + prefix.opens
        scoped = [o for s in self.scopes for o in s.opens_scoped] + prefix.opens_scoped
        return opens, scoped

    def _new_decl(self, first: int, kw: int, end: int, prefix: _Prefix, kind: str) -> Decl:
        opens, scoped = self._context_opens(prefix)
        return Decl(
            name=None, kind=kind, file=self.file, order=len(self.decls), namespace=self.namespace,
            line=self.tokens[first].line, end_line=self.tokens[_last_code(self.tokens, kw, end)].line,
            docstring=prefix.doc, attributes=_attribute_names(prefix.attr_items),
            attribute_args=list(prefix.attr_items), modifiers=list(prefix.modifiers),
            opens=opens, opens_scoped=scoped, mutual=self.mutual_id,
        )

    # declarations
    def _declaration(self, kw: int, end: int, prefix: _Prefix) -> None:
        toks = self.tokens
        kind, j = toks[kw].text, kw + 1
        if kind == "class" and j < end and toks[j].text in ("inductive", "abbrev"):
            kind, j = f"class {toks[j].text}", j + 1
        if kind == "example":
            return
        if kind == "instance" and j + 1 < end and toks[j].text == "(" and toks[j + 1].text == "priority":
            j = _group_end(toks, j, end)
        named = j < end and toks[j].kind == "ident" and toks[j].text not in ("where", "extends")
        name_tok = j if named else None
        after_name = j + 1 if name_tok is not None else j
        if after_name + 1 < end and toks[after_name].text == "." and toks[after_name + 1].text == "{":
            after_name = _group_end(toks, after_name + 1, end)
        sig_end = self._signature_end(after_name, end, kind)
        decl = self._new_decl(prefix.first if prefix.first is not None else kw, kw, end, prefix, kind)
        sig_stop = toks[sig_end].start if sig_end < end else toks[_last_code(toks, kw, end)].end
        decl.signature = self.lexed.text[toks[kw].start:sig_stop].rstrip()
        rest_from = toks[after_name - 1].end
        decl.sig_rest = self.lexed.text[rest_from:sig_stop].rstrip() if rest_from < sig_stop else ""
        if name_tok is not None:
            decl.name = _qualify(self.namespace, toks[name_tok].text)
        if kind in ("structure", "class"):
            decl.fields = self._fields(sig_end, end)
        elif kind in _INDUCTIVE_KINDS:
            decl.constructors = self._constructors(sig_end, end)
        own = {f["name"] for f in decl.fields} | set(decl.constructors)
        decl.candidates = reference_candidates(toks, after_name, end, sig_end, own)
        decl.additive = _additive_of(prefix)
        self.decls.append(decl)

    def _signature_end(self, j: int, end: int, kind: str) -> int:
        """First depth-0 `:=`, `where`, `deriving` or `|` (of a constructor or match
        alternative) of the header."""
        depth = 0
        inductive = kind in _INDUCTIVE_KINDS
        toks = self.tokens
        for k in range(j, end):
            text = toks[k].text
            if text in _OPEN:
                depth += 1
            elif text in _CLOSERS:
                depth = max(depth - 1, 0)
            elif depth == 0 and (text in (":=", "where", "deriving")
                                 or (text == "|" and (inductive or self._starts_alternative(k, end)))):
                return k
        return end

    def _starts_alternative(self, k: int, end: int) -> bool:
        """A line-initial `|` with `=>` later on its line begins a match alternative
        (`| 0 => 1`); otherwise it is notation such as `|x| ≤ 1`."""
        toks = self.tokens
        if not toks[k].first_on_line:
            return False
        m = k + 1
        while m < end and toks[m].line == toks[k].line:
            if toks[m].text == "=>":
                return True
            m += 1
        return False

    def _fields(self, sig_end: int, end: int) -> list[dict]:
        """Fields after `where`: one chunk per line starting at (or left of) the first
        field's column, so multi-line types stay whole."""
        toks = self.tokens
        if sig_end >= end or toks[sig_end].text != "where":
            return []
        body = self._skip_constructor_spec(sig_end + 1, end)
        stop = next((k for k in range(body, end) if toks[k].text == "deriving" and toks[k].first_on_line),
                    end)
        if body >= stop:
            return []
        column = toks[body].col
        chunks: list[tuple[int, int]] = []
        start = body
        for k in range(body + 1, stop):
            if toks[k].first_on_line and toks[k].col <= column:
                chunks.append((start, k))
                start = k
        chunks.append((start, stop))
        return [f for a, b in chunks for f in self._field(a, b)]

    def _skip_constructor_spec(self, j: int, end: int) -> int:
        """Skip `mk ::` (with its modifiers) at the start of a structure body."""
        for k in range(j, min(j + 4, end)):
            if self.tokens[k].text == "::":
                return k + 1
            if self.tokens[k].text not in MODIFIERS and self.tokens[k].kind != "ident":
                break
        return j

    def _field(self, a: int, b: int) -> list[dict]:
        """`x y : T := d`, `f (x : A) : T`, or old-style `(x : T)`; `x := v` gives nothing."""
        toks = self.tokens
        while a < b and (toks[a].kind in ("doc", "attr") or toks[a].text in MODIFIERS):
            a = _group_end(toks, a, b) if toks[a].kind == "attr" else a + 1
        if a < b and toks[a].text == "(" and _group_end(toks, a, b) == b:
            a, b = a + 1, b - 1
        names: list[str] = []
        k = a
        while k < b and toks[k].kind == "ident":
            names.append(clean_name(toks[k].text))
            k += 1
        binder_start = k
        depth = 0
        while k < b:
            text = toks[k].text
            if text in _OPEN:
                depth += 1
            elif text in _CLOSERS:
                depth -= 1
            elif depth == 0 and text in (":", ":="):
                break
            k += 1
        if not names or k >= b or toks[k].text != ":":
            return []
        type_end = next((m for m in range(k + 1, b)
                         if toks[m].text == ":=" and _depth(toks, k + 1, m) == 0), b)
        entry: dict = {"type": _collapse(self._code(k + 1, type_end))}
        binders = _collapse(self._code(binder_start, k))
        if binders:
            entry["binders"] = binders
        return [{"name": n, **entry} for n in names]

    def _constructors(self, sig_end: int, end: int) -> list[str]:
        toks = self.tokens
        names: list[str] = []
        depth = 0
        counting = True  # whether a `|` on the current line still starts a constructor
        for k in range(sig_end, end):
            tok = toks[k]
            if tok.first_on_line:
                counting = True
            if tok.text in _OPEN:
                depth += 1
            elif tok.text in _CLOSERS:
                depth -= 1
            elif depth == 0 and tok.text == "deriving" and tok.first_on_line:
                break
            elif depth == 0 and tok.text == ":":
                counting = False
            elif depth == 0 and tok.text == "|" and counting:
                m = k + 1
                while m < end and (toks[m].kind == "doc" or toks[m].text in MODIFIERS):
                    m += 1
                if m < end and toks[m].kind == "ident":
                    names.append(clean_name(toks[m].text))
        return names

    def _alias(self, kw: int, end: int, prefix: _Prefix) -> None:
        toks = self.tokens
        assign = next((k for k in range(kw + 1, end) if toks[k].text == ":="), None)
        if assign is None or assign + 1 >= end:
            return
        target = toks[assign + 1].text
        command = self._text(kw, _last_code(toks, kw, end) + 1)
        if toks[kw + 1].text == "⟨":
            written = [t.text for t in toks[kw + 2:assign] if t.kind == "ident" or t.text == "_"]
            pairs = list(zip(written, ("mp", "mpr")))
        else:
            pairs = [(toks[kw + 1].text, "")]
        for name, direction in pairs:
            if name == "_":
                continue
            first = prefix.first if prefix.first is not None else kw
            decl = self._new_decl(first, kw, end, prefix, "theorem")
            decl.name = _qualify(self.namespace, name)
            decl.signature = command
            decl.alias = AliasSpec(target, direction, command)
            self.decls.append(decl)


def _depth(toks: list[Token], a: int, b: int) -> int:
    depth = 0
    for k in range(a, b):
        if toks[k].text in _OPEN:
            depth += 1
        elif toks[k].text in _CLOSERS:
            depth -= 1
    return depth


def _last_code(toks: list[Token], a: int, b: int) -> int:
    """Index of the last token in a..b that is code (not a doc comment)."""
    for j in range(b - 1, a - 1, -1):
        if toks[j].kind != "doc":
            return j
    return a


def _attribute_names(items: list[str]) -> list[str]:
    return [item.split(" ", 1)[0] for item in items]


def _strip_attr_kind(item: str) -> str:
    for kind in ("local ", "scoped "):
        if item.startswith(kind):
            return item[len(kind):]
    return item


def _qualify(namespace: str, written: str) -> str:
    """Full name of a declaration written as `written` inside `namespace`."""
    name = clean_name(written)
    if name.startswith("_root_."):
        return name[len("_root_."):]
    return join_name(namespace, name)


# --- @[to_additive] arguments -------------------------------------------------------------------

_ADDITIVE_RE = re.compile(r"to_additive\??(?:\s|$)")
_ADDITIVE_ARG_RE = re.compile(
    r'\s*(?:(?P<paren>\()|(?P<flag>existing|self)\b|(?P<string>"(?:[^"\\]|\\.)*")'
    rf"|(?P<ident>{IDENT_PATTERN}))"
)


def parse_to_additive(item: str, doc: str | None = None) -> AdditiveSpec | None:
    """Read `to_additive (attr := simp) (reorder := 1 2) existing add_foo "doc"`;
    None when the item is another attribute.  `doc` is a `/-- -/` doc comment argument."""
    m = _ADDITIVE_RE.match(item)
    if m is None:
        return None
    spec = AdditiveSpec(doc=doc)
    pos = m.end()
    while (a := _ADDITIVE_ARG_RE.match(item, pos)) is not None:
        if a.group("paren"):
            close = _matching_paren(item, a.start("paren"))
            inner = item[a.end():close].strip()
            if inner.startswith("attr") and ":=" in inner:
                spec.attr_items += _split_top_level(inner.split(":=", 1)[1])
            pos = close + 1
            continue
        if a.group("flag"):
            spec.existing |= a.group("flag") == "existing"
        elif a.group("string"):
            spec.doc = _string_value(a.group("string"))
        else:
            spec.target = a.group("ident")
        pos = a.end()
    return spec


def _string_value(literal: str) -> str:
    """The value of a Lean string literal (JSON escapes are Lean's, but for `\\x..`)."""
    try:
        return json.loads(literal)
    except json.JSONDecodeError:
        return literal[1:-1]


def _matching_paren(s: str, i: int) -> int:
    depth = 0
    for k in range(i, len(s)):
        depth += {"(": 1, ")": -1}.get(s[k], 0)
        if depth == 0:
            return k
    return len(s)


def _split_top_level(s: str) -> list[str]:
    items, depth, start = [], 0, 0
    for k, c in enumerate(s + ","):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            if s[start:k].strip():
                items.append(_collapse(s[start:k]))
            start = k + 1
    return items


def _additive_of(prefix: _Prefix) -> AdditiveSpec | None:
    for item, doc in zip(prefix.attr_items, prefix.attr_docs):
        spec = parse_to_additive(item, doc)
        if spec is not None:
            return spec
    return None


# --- Reference candidates -----------------------------------------------------------------------

_KEYWORDS = frozenset({
    "fun", "by", "have", "show", "from", "at", "with", "if", "then", "else", "do", "let", "match",
    "calc", "in", "where", "using", "Type", "Prop", "Sort", "this", "sorry", "deriving", "extends",
    "termination_by", "decreasing_by", "forall", "exists", "haveI", "letI", "return", "for", "mut",
    "unless", "try", "catch", "finally", "break", "continue", "true", "false", "open", "set_option",
    "_", "instance", "structure", "class", "inductive", "theorem", "lemma", "def", "abbrev", "private",
    "protected", "noncomputable", "universe", "variable", "section", "namespace", "end", "local",
    "scoped", "nomatch", "nofun",
})
_BINDER_INTRO = frozenset({"fun", "λ", "∀", "∃", "∃!", "Π", "Σ", "∑", "∏", "⋃", "⋂", "⨆", "⨅", "∫",
                           "∮", "∑'", "∏'", "⨁", "∐", "assume"})
_BINDER_STOP = frozenset({",", "=>", "↦", ":", "∈", "∉", "<", "≤", ">", "≥", "≠", "⊆", "⊂", "in",
                          ":=", "|"})
_TACTIC_INTRO = frozenset({"intro", "intros", "rintro", "rintros", "obtain", "rcases", "ext", "ext1",
                           "funext", "by_contra", "by_contra!", "by_cases", "rename_i", "choose",
                           "choose!", "set", "generalize", "have", "haveI", "let", "letI", "with",
                           "case", "case'", "next", "wlog", "contrapose!", "peel", "replace"})
_TACTIC_STOP = frozenset({":", ":=", "=>", ";", "<;>", "using", "at", "from", "←", "↦", "|", "with",
                          "to"})
#: Tokens before `x := e` that make `x` a named argument or a field, not a reference.
_FIELD_LEAD = frozenset({"(", "{", ",", "where", "with", "⟨"})
_ALTERNATIVE_STOP = frozenset({"=>", ":=", ":", "|"})
_TACTIC_COMBINATORS = frozenset({"try", "all_goals", "any_goals", "repeat", "repeat'", "first", "focus",
                                 "iterate", "classical", "on_goal", "swap", "pick_goal"})


def reference_candidates(toks: list[Token], a: int, end: int, sig_end: int, own: set[str]) -> list[str]:
    """Identifier tokens of a declaration (after its name) that may name other
    declarations: not locals, not field notation `.x`, not name literals, not named
    arguments / fields `x := e`, not keywords, not tactic names, not the command's own
    fields and constructors.  Deduplicated, in order of first occurrence."""
    local = _binder_names(toks, a, sig_end) | _bound_names(toks, a, end) | own
    heads = _tactic_heads(toks, a, end)
    seen: set[str] = set()
    out: list[str] = []
    for k in range(a, end):
        tok = toks[k]
        if tok.kind != "ident" or k in heads or tok.text in _KEYWORDS:
            continue
        prev = toks[k - 1] if k > 0 else None
        if prev is not None and _glued(prev, tok) and prev.text in (".", "`", "{"):
            continue
        if k + 1 < end and toks[k + 1].text == ":=" and (
                tok.first_on_line or prev is None or prev.text in _FIELD_LEAD):
            continue
        if split_name(tok.text)[0] in local or tok.text in seen:
            continue
        seen.add(tok.text)
        out.append(tok.text)
    return out


def _binder_names(toks: list[Token], a: int, sig_end: int) -> set[str]:
    """Names bound by the signature's binder groups `(x y : T)`, `{x}`, `[inst : C]`."""
    names: set[str] = set()
    k = a
    while k < sig_end:
        text = toks[k].text
        if text == ":":
            break
        if text in _BINDER_OPEN:
            close = _group_end(toks, k, sig_end)
            names |= _group_binders(toks, k, close - 1)
            k = close
            continue
        k += 1
    return names


_BINDER_OPEN = frozenset({"(", "{", "[", "⦃", "⟨"})


def _group_binders(toks: list[Token], opener: int, b: int) -> set[str]:
    """Undotted identifiers before the first depth-0 `:` of the group opening at `opener`:
    all of them when there is no `:` (`{x y}`, a pattern `⟨x, hx⟩`), except in an
    instance binder `[Monoid α]`, which names nothing; nested patterns are searched too."""
    names: set[str] = set()
    k = opener + 1
    while k < b:
        text = toks[k].text
        if text == ":":
            return names
        if text in _BINDER_OPEN:
            close = _group_end(toks, k, b)
            names |= _group_binders(toks, k, close - 1)
            k = close
            continue
        if toks[k].kind == "ident" and "." not in toks[k].text:
            names.add(toks[k].text)
        k += 1
    return set() if toks[opener].text == "[" else names


def _bound_names(toks: list[Token], a: int, end: int) -> set[str]:
    """Names bound in the body and type: after `fun`/`∀`/`∃`/big operators (up to `,`,
    `=>`, `:`, `∈`, ...), after binding tactics (up to `:`, `:=`, `using`, ... on the same
    line), and the variables of match alternatives `| ctor x y =>`."""
    names: set[str] = set()
    for k in range(a, end):
        text = toks[k].text
        if text in _BINDER_INTRO:
            names |= _names_until(toks, k + 1, end, _BINDER_STOP, same_line=False)
        elif text in _TACTIC_INTRO:
            names |= _names_until(toks, k + 1, end, _TACTIC_STOP, same_line=True)
        elif text == "|" and toks[k].first_on_line:
            alt = _names_until(toks, k + 1, end, _ALTERNATIVE_STOP, same_line=True, ordered=True)
            names.update(list(alt)[1:])
    return names


def _names_until(toks: list[Token], k: int, end: int, stops: frozenset, same_line: bool,
                 ordered: bool = False) -> set[str] | dict[str, None]:
    """Undotted identifiers (and binder-group names) from `k` up to a stop token, within
    40 tokens and, if `same_line`, on the line of `k - 1`."""
    names: dict[str, None] = {}
    line = toks[k - 1].line
    limit = min(end, k + 40)
    while k < limit:
        tok = toks[k]
        if tok.text in stops or (same_line and tok.line != line):
            break
        if tok.text in _BINDER_OPEN:
            close = _group_end(toks, k, limit)
            names.update(dict.fromkeys(_group_binders(toks, k, close - 1)))
            k = close
            continue
        if tok.kind == "ident" and tok.text not in _KEYWORDS and "." not in tok.text:
            names[tok.text] = None
        k += 1
    return names if ordered else set(names)


def _tactic_heads(toks: list[Token], a: int, end: int) -> set[int]:
    """Token indices of tactic names: the first token after `by`, `·`, `;`, `<;>` or a
    combinator, and line-initial tokens at the column of a tactic block."""
    heads: set[int] = set()
    columns: set[int] = set()
    in_tactics = False
    for k in range(a, end):
        tok = toks[k]
        if in_tactics and tok.first_on_line and tok.col in columns:
            heads.add(k)
        if tok.text in ("by", "·", ";", "<;>") or tok.text in _TACTIC_COMBINATORS:
            in_tactics |= tok.text == "by"
            if k + 1 < end and toks[k + 1].kind == "ident":
                heads.add(k + 1)
                if tok.text in ("by", "·"):
                    columns.add(toks[k + 1].col)
    return heads


# --- Pass 2: the tree ---------------------------------------------------------------------------


def module_name(path: str) -> str:
    """`Foo/Bar.lean` -> `Foo.Bar`."""
    return path.removesuffix(".lean").replace("/", ".")


_IMPORT_RE = re.compile(rf"^(?:public\s+)?(?:meta\s+)?import\s+(?:all\s+)?({IDENT_PATTERN})", re.MULTILINE)


def _imports(masked: str) -> list[str]:
    return [clean_name(m.group(1)) for m in _IMPORT_RE.finditer(masked)]


def lean_files(root: Path) -> list[Path]:
    """The `.lean` files of a tree, sorted by relative path; hidden directories and a
    top-level `lakefile.lean` are build machinery, not modules."""
    files = []
    for path in root.rglob("*.lean"):
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts) or rel.as_posix() == "lakefile.lean":
            continue
        files.append(path)
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


class Tree:
    """All declarations of a source tree, and Lean's rules for which names they can see."""

    def __init__(self, files: list[SourceFile], decls: Iterable[Decl]):
        self.index: dict[str, list[Decl]] = {}
        self.namespaces: set[str] = set()
        self._groups: dict[tuple, tuple[list[list[Decl]], list[Decl]]] = {}
        module_ids = {f.module: k for k, f in enumerate(files)}
        imports = [[module_ids[m] for m in f.imports if m in module_ids] for f in files]
        self.closure = _import_closure(imports)
        for d in decls:
            if d.name:
                self.add(d)

    def add(self, d: Decl) -> None:
        self.index.setdefault(d.name, []).append(d)
        parts = split_name(d.name)
        self.namespaces.update(".".join(parts[:k]) for k in range(1, len(parts)))
        self.forget()

    def forget(self) -> None:
        """Drop cached name look-ups (they are per file in practice; this bounds memory)."""
        self._groups.clear()

    def visible(self, target: Decl, viewer: Decl) -> bool:
        """Earlier in the same file (or the same `mutual` block), or imported and not private."""
        if target is viewer:
            return False
        if target.file == viewer.file:
            return target.order < viewer.order or (target.mutual >= 0 and target.mutual == viewer.mutual)
        return not target.private and bool(self.closure[viewer.file] >> target.file & 1)

    def open_name(self, written: str, namespace: str) -> str:
        """`open Limits` inside `CategoryTheory` opens `CategoryTheory.Limits` if it exists."""
        for ns in _prefixes(namespace):
            if join_name(ns, written) in self.namespaces:
                return join_name(ns, written)
        return written

    def context(self, d: Decl) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Namespaces searched for `d`'s names, innermost first (its own name's prefix,
        which Lean opens for the body, then the enclosing namespaces), and its opens."""
        own = ".".join(split_name(d.name)[:-1]) if d.name else d.namespace
        levels = tuple(dict.fromkeys(_prefixes(own)[:-1] + _prefixes(d.namespace)[:-1]))
        opens = tuple(dict.fromkeys(self.open_name(w, ns) for w, ns in d.opens))
        return levels, opens

    def _candidates(self, name: str, levels: tuple, opens: tuple) -> tuple[list[list[Decl]], list[Decl]]:
        """Declarations `name` could mean, before visibility: one list per namespace level
        (innermost first), then the root-level ones (as written, and under each open).
        A `protected` declaration is not reachable by its last component alone."""
        key = (name, levels, opens)
        hit = self._groups.get(key)
        if hit is None:
            short = "." not in name
            levels_hits = [[d for d in self.index.get(f"{ns}.{name}", ()) if not (short and d.protected)]
                           for ns in levels]
            root = list(self.index.get(name, ()))
            for o in opens:
                root += [d for d in self.index.get(f"{o}.{name}", ()) if not (short and d.protected)]
            hit = self._groups[key] = (levels_hits, root)
        return hit

    def resolve(self, token: str, viewer: Decl, levels: tuple, opens: tuple) -> list[Decl]:
        """What a name written in `viewer` refers to: the first namespace level with a
        visible match, else every visible root-level match; an unresolved `a.b.c` is
        retried as `a.b` (field notation `foo.mp`, `F.obj X`) unless that names a type."""
        name = clean_name(token)
        if name.startswith("_root_."):
            return [d for d in self.index.get(name[len("_root_."):], ()) if self.visible(d, viewer)]
        levels_hits, root = self._candidates(name, levels, opens)
        for group in levels_hits:
            hits = [d for d in group if self.visible(d, viewer)]
            if hits:
                return hits
        hits = [d for d in root if self.visible(d, viewer)]
        if hits or "." not in name:
            return hits
        hits = self.resolve(name.rsplit(".", 1)[0], viewer, levels, opens)
        return [] if any(d.is_type for d in hits) else hits


def _prefixes(name: str) -> list[str]:
    """`A.B` -> [`A.B`, `A`, ``]."""
    parts = split_name(name)
    return [".".join(parts[:k]) for k in range(len(parts), 0, -1)] + [""]


def _import_closure(imports: list[list[int]]) -> list[int]:
    """Transitive imports of each file, as bit sets over file indices (iterative
    depth-first search: import chains can be deeper than Python's recursion limit)."""
    closure: list[int | None] = [None] * len(imports)
    for start in range(len(imports)):
        if closure[start] is not None:
            continue
        closure[start] = 0  # in progress: a (malformed) import cycle contributes nothing
        stack = [(start, iter(imports[start]))]
        while stack:
            k, pending = stack[-1]
            m = next(pending, None)
            if m is None:
                stack.pop()
                bits = 0
                for dep in imports[k]:
                    bits |= (1 << dep) | closure[dep]
                closure[k] = bits
            elif closure[m] is None:
                closure[m] = 0
                stack.append((m, iter(imports[m])))
    return closure


# --- Finishing: names, derived records, refs ----------------------------------------------------


def _name_instances(files: list[SourceFile], decls: list[Decl]) -> None:
    """Give unnamed instances the name Lean would (`_1`, `_2` ... when taken in the file)."""
    suffixes: set[str] = set()
    for d in decls:
        if d.name:
            parts = split_name(d.name)
            suffixes.update(".".join(parts[k:]) for k in range(len(parts)))
    taken: dict[int, set[str]] = {}
    for d in decls:
        names = taken.setdefault(d.file, set())
        if d.name is None and d.kind == "instance":
            project = split_name(files[d.file].module)[0]
            base = instance_name(d.signature, d.namespace, suffixes, project)
            name, n = base, 0
            while name in names:
                n += 1
                name = f"{base}_{n}"
            d.name = name
        if d.name:
            names.add(d.name)


_AttributeSpec = tuple[int, str, str, AdditiveSpec]  # file, namespace, written target, spec


def _translations(tree: Tree, decls: list[Decl], attribute_specs: list[_AttributeSpec]) -> dict[str, str]:
    """Source -> additive full names.  Shorter names go first, so that the namespace of
    `Monoid.foo` is translated with the entry made for `Monoid`."""
    specs: list[tuple[str, AdditiveSpec]] = [(d.name, d.additive) for d in decls if d.additive and d.name]
    for file, namespace, written, spec in attribute_specs:
        viewer = Decl(None, "", file, float("inf"), namespace=namespace)
        hits = tree.resolve(written, viewer, *tree.context(viewer))
        specs.append((hits[0].name if hits else _qualify(namespace, written), spec))
    table: dict[str, str] = {}
    for name, spec in sorted(specs, key=lambda s: len(split_name(s[0]))):
        table[name] = _additive_target(name, spec, table)
    return table


def _additive_target(name: str, spec: AdditiveSpec, table: dict[str, str]) -> str:
    return explicit_additive_name(name, spec.target, table) if spec.target else additive_name(name, table)


def _relative(name: str, namespace: str) -> str:
    return name[len(namespace) + 1:] if namespace and name.startswith(namespace + ".") else name


def _additive_decl(source: Decl, table: dict[str, str]) -> Decl:
    """The record `@[to_additive]` on `source` generates."""
    spec = source.additive
    name = table.get(source.name) or _additive_target(source.name, spec, table)
    written = _relative(name, source.namespace)
    keyword = source.signature.split(None, 1)[0] if source.signature else source.kind
    statement = additive_signature(source.sig_rest) if source.sig_rest else ""
    nested = next((n for n in map(parse_to_additive, spec.attr_items) if n is not None), None)
    return replace(
        source, name=name, order=source.order + 0.5, docstring=spec.doc,
        signature=f"{keyword} {written}{statement}", sig_rest=statement,
        attributes=_attribute_names(spec.attr_items), attribute_args=list(spec.attr_items),
        fields=[], constructors=[], candidates=[], additive=nested, derived_from=source.name,
    )


def _derive_additive(decls: list[Decl], table: dict[str, str]) -> list[Decl]:
    """Insert `to_additive` twins right after their sources (twins of twins too, from
    `(attr := to_additive ...)`).  Structures and `existing` targets are written by hand."""
    out: list[Decl] = []
    for d in decls:
        out.append(d)
        current = d
        while (current.additive and current.name and not current.additive.existing
               and current.kind not in _TYPE_KINDS):
            twin = _additive_decl(current, table)
            if twin.name == current.name:
                break  # nothing to translate: Lean rejects such an attribute
            out.append(twin)
            current = twin
    return out


def _finish_alias(tree: Tree, d: Decl) -> None:
    """Resolve an alias's target; take its kind when it is not a theorem (an alias of a
    `def` is a `def`) and its statement (split `A ↔ B` for `alias ⟨mp, mpr⟩`)."""
    hits = tree.resolve(d.alias.target, d, *tree.context(d))
    target = hits[0] if hits else None
    d.derived_from = target.name if target else clean_name(d.alias.target)
    d.refs = [target.name] if target else []
    if target is None:
        return
    if target.kind not in ("theorem", "lemma", "instance"):
        d.kind = target.kind
    d.sig_rest = _alias_statement(target.sig_rest, d.alias.direction)
    if d.sig_rest is not None:
        d.signature = f"{d.kind} {_relative(d.name, d.namespace)}{d.sig_rest}"
    else:
        d.sig_rest, d.signature = "", d.alias.command


def _alias_statement(sig_rest: str, direction: str) -> str | None:
    """The statement of `alias a := t` (t's), or of `alias ⟨mp, mpr⟩ := t` for `t : A ↔ B`
    (`A → B` / `B → A`); None when the iff cannot be split textually."""
    if not direction:
        return sig_rest
    colon = _top_level_colon(sig_rest)
    if colon < 0:
        return None
    statement = sig_rest[colon + 1:]
    iff = _top_level_index(statement, "↔")
    if iff < 0:
        return None
    lhs, rhs = statement[:iff].strip(), statement[iff + 1:].strip()
    premise, conclusion = (lhs, rhs) if direction == "mp" else (rhs, lhs)
    return f"{sig_rest[:colon + 1]} {premise} → {conclusion}"


def _top_level_index(text: str, char: str) -> int:
    depth = 0
    for k, c in enumerate(text):
        if c in "([{⟨⦃⟦":
            depth += 1
        elif c in ")]}⟩⦄⟧":
            depth -= 1
        elif c == char and depth == 0:
            return k
    return -1


def _resolve_refs(tree: Tree, d: Decl) -> list[str]:
    levels, opens = tree.context(d)
    refs = {h.name for token in d.candidates for h in tree.resolve(token, d, levels, opens)}
    refs.discard(d.name)
    return sorted(refs)


def parse_sources(sources: Iterable[tuple[str, str]]) -> tuple[list[SourceFile], list[Decl], Tree]:
    """Pass 1 on every `(path, text)` file, then names, derived records and refs over
    the tree.  Texts are dropped after pass 1 so that memory stays proportional to the
    records, not to the sources."""
    files: list[SourceFile] = []
    decls: list[Decl] = []
    attribute_specs: list[_AttributeSpec] = []
    for k, (path, text) in enumerate(sources):
        lexed = lex(text)
        files.append(SourceFile(path, module_name(path), _imports(lexed.masked)))
        parser = FileParser(lexed, k)
        decls += parser.parse()
        attribute_specs += [(k, ns, target, spec) for ns, target, spec in parser.additive_attributes]
    _name_instances(files, decls)
    table = _translations(Tree(files, decls), decls, attribute_specs)
    decls = _derive_additive(decls, table)
    tree = Tree(files, (d for d in decls if d.alias is None))
    for d in decls:
        if d.alias is not None:
            _finish_alias(tree, d)
            tree.add(d)
    for d in decls:
        if d.derived_from is None:
            if d.order == 0:
                tree.forget()
            d.refs = _resolve_refs(tree, d)
    originals = {d.name: d for d in decls if d.derived_from is None}
    for d in decls:
        if d.alias is None and d.derived_from in originals:
            d.refs = sorted({table.get(r, r) for r in originals[d.derived_from].refs} - {d.name})
    return files, decls, tree


def to_record(d: Decl, f: SourceFile, tree: Tree, source: str, url_base: str) -> dict:
    """The JSON record of a finished declaration, fields in the shared corpora's order."""
    opens = list(dict.fromkeys(tree.open_name(w, ns) for w, ns in d.opens))
    scoped = list(dict.fromkeys(tree.open_name(w, ns) for w, ns in d.opens_scoped))
    url = f"{url_base}{f.path}#L{d.line}-L{d.end_line}" if url_base else ""
    values = {
        "name": d.name, "kind": d.kind, "module": f.module, "path": f.path, "line": d.line,
        "end_line": d.end_line, "signature": d.signature, "docstring": d.docstring,
        "attributes": d.attributes, "modifiers": d.modifiers, "namespace": d.namespace, "opens": opens,
        "opens_scoped": scoped, "fields": d.fields, "constructors": d.constructors, "refs": d.refs,
        "source": source, "commit": "", "url": url, "attribute_args": d.attribute_args,
        "derived_from": d.derived_from,
    }
    return {k: values[k] for k in RECORD_FIELDS}


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """Millions of small acyclic objects make the cyclic collector rescan the heap over
    and over (it doubles the run time on Mathlib); reference counting frees them anyway."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse_lean_tree(root: Path, source: str = "local", url_base: str = "") -> list[dict]:
    """Records for every declaration of the `.lean` files under `root`, in file order
    (files sorted by path).  `url` is `url_base + path + "#L<line>-L<end_line>"` when
    `url_base` is given (e.g. `https://github.com/o/r/blob/<sha>/`), else empty."""
    root = Path(root)
    sources = ((p.relative_to(root).as_posix(), p.read_text(encoding="utf-8")) for p in lean_files(root))
    with _without_cyclic_gc():
        files, decls, tree = parse_sources(sources)
        return [to_record(d, files[d.file], tree, source, url_base) for d in decls]


def parse_lean_to_jsonl(root: Path, out: Path, source: str = "local", url_base: str = "") -> int:
    """Parse `root` and write one JSON line per record to `out`; returns the count."""
    records = parse_lean_tree(root, source, url_base)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    return len(records)
