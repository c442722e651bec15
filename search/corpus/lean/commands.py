"""Pass 1 of the source parser: the commands of one file, read in order.

Commands start at column 0 (inside `mutual`, at the block's indentation) with a doc comment,
`@[`, a `#command` or a command word; doc comments, attributes, modifiers and `open .. in` /
`set_option .. in` prefixes are joined to the command that follows. Commands are read with a
stack of `namespace` / `section` / `mutual` scopes and their `open`s; each declaration gives a
`Decl` with its header, fields or constructors, attribute items and the identifiers that may
name other declarations (`refs.reference_candidates`). `attribute [...] name` commands that
apply a generating attribute (`generators`) and `to_dual_name_hint` commands are kept for
pass 2.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from search.corpus.lean.decl import (
    BODY_VARIABLE_KINDS,
    INDUCTIVE_KINDS,
    STRUCTURE_KINDS,
    VALUE_CHARS,
    VALUE_KINDS,
    AliasSpec,
    Decl,
    explicit_binder_names,
    top_level_colon,
)
from search.corpus.lean.refs import reference_candidates
from search.corpus.lean.syntax import (
    BRACKETS,
    Lexed,
    Token,
    clean_name,
    collapse_spaces,
    find_top_level,
    glued,
    group_end,
    join_name,
    qualify,
    split_name,
    tokenize,
)
from search.corpus.lean.attributes import parse_item, without_kind
from search.corpus.lean.generators import GENERATORS
from search.corpus.lean.variables import VariableBinder, used_variables, variable_binders

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
    if tok.text == "@[":
        return True
    if tok.kind == "doc":  # at column 0 it may still document an indented field or a constructor
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        return nxt is None or nxt.text in ("@[", "#") or nxt.kind == "doc" or (
            nxt.kind == "ident" and (nxt.text in _COMMAND_WORDS or (nxt.col == 0 and _starts_command(tokens, i + 1))))
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if tok.text == "#":
        return nxt is not None and nxt.kind == "ident" and glued(tok, nxt)
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


@dataclass
class Scope:
    """One level of `namespace` / `section` / `mutual` nesting, with its `open`s and
    `variable`s."""

    kind: str  # "root", "namespace", "section" or "mutual"
    name: str = ""
    opens: list[tuple[str, str]] = field(default_factory=list)
    opens_scoped: list[tuple[str, str]] = field(default_factory=list)
    variables: list[VariableBinder] = field(default_factory=list)
    mutual: int = -1


_IN_PREFIXES = frozenset({"open", "set_option", "variable", "omit", "include", "attribute", "unseal"})


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
    variables: list[VariableBinder] = field(default_factory=list)
    guarded: bool = False


class FileParser:
    """Pass 1 over one file: the scope-tracking command loop."""

    def __init__(self, lexed: Lexed, file_index: int) -> None:
        self.lexed = lexed
        self.file = file_index
        self.tokens = tokenize(self.lexed)
        self.starts = command_starts(self.tokens)
        self.scopes: list[Scope] = [Scope("root")]
        self.decls: list[Decl] = []
        #: `attribute [items] target` commands with a generating attribute: (namespace, the
        #: target as written, items, their doc comment arguments).
        self.attribute_commands: list[tuple[str, str, list[str], list[str | None]]] = []
        #: `to_dual_name_hint A B, C D`: the word pairs `to_dual` translates from there on, each
        #: with the number of declarations before it.
        self.dual_hints: list[tuple[int, str, str]] = []
        #: `initialize_simps_projections S (rules)`: (namespace, S as written, the rules' text).
        self.simps_rules: list[tuple[str, str, str]] = []
        self.mutual_count = 0

    # scope helpers
    @property
    def namespace(self) -> str:
        """The current namespace, `""` at the root."""
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
        """The declarations of the file, in order."""
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
        elif word == "variable":
            self.scopes[-1].variables += variable_binders(self._code(i + 1, end))
        elif word == "attribute":
            self._attribute_command(i, end)
        elif word == "alias":
            self._alias(i, end, prefix)
        elif word == "initialize_simps_projections" and i + 1 < end and self.tokens[i + 1].kind == "ident":
            rules = self._text(i + 2, _last_code(self.tokens, i, end) + 1) if i + 2 < end else ""
            self.simps_rules.append((self.namespace, self.tokens[i + 1].text, rules))
        elif word == "to_dual_name_hint":
            idents = [t.text for t in self.tokens[i + 1:end] if t.kind == "ident"]
            self.dual_hints += [(len(self.decls), a, b) for a, b in zip(idents[0::2], idents[1::2])]
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
            elif tok.text == "@[":
                step = group_end(toks, i, len(toks))
                self._read_attributes(i + 1, step - 1, prefix)
            elif tok.text in MODIFIERS and nxt is not None and nxt.text == "[" and glued(tok, nxt):
                step = group_end(toks, i + 1, len(toks))  # `scoped[NS] notation ...`
            elif tok.text in MODIFIERS:
                prefix.modifiers.append(tok.text)
                step = i + 1
            elif (tok.text in _IN_PREFIXES or tok.text == "#") and (j := self._in_index(i)) >= 0:
                if tok.text == "open":
                    self._add_opens(prefix.opens, prefix.opens_scoped, i + 1, j)
                elif tok.text == "variable":
                    prefix.variables += variable_binders(self._code(i + 1, j))
                prefix.guarded |= tok.text == "#" and nxt.text == "guard_msgs"
                # A doc comment before `set_option .. in` is another command's (`#adaptation_note`).
                prefix.first, prefix.doc = None, None
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
        j = find_top_level(self.tokens, i + 1, end, ("in",))
        return j if j < end else -1

    # attributes
    def _read_attributes(self, a: int, b: int, prefix: _Prefix) -> None:
        """Split `@[a, b c, d (x := y)]` (tokens a..b) into items at depth-0 commas."""
        depth, start = 0, a
        for j in range(a, b + 1):
            text = self.tokens[j].text if j < b else ","
            if text in BRACKETS.opening:
                depth += 1
            elif text in BRACKETS.closing:
                depth -= 1
            elif text == "," and depth == 0 and j > start:
                stop = self.tokens[j].start if j < len(self.tokens) else len(self.lexed.code)
                item = collapse_spaces(self.lexed.code[self.tokens[start].start:stop])
                docs = [self.lexed.docs[t.start] for t in self.tokens[start:j] if t.kind == "doc"]
                prefix.attr_items.append(item)
                prefix.attr_docs.append(docs[0] if docs else None)
                start = j + 1

    def _attribute_command(self, i: int, end: int) -> None:
        """`attribute [to_additive add_foo, simps] foo` tags `foo` after the fact: kept when
        an item generates declarations (or names a translation, `to_additive existing`)."""
        if i + 1 >= end or self.tokens[i + 1].text != "[":
            return
        close = group_end(self.tokens, i + 1, end)
        prefix = _Prefix()
        self._read_attributes(i + 2, close - 1, prefix)
        if not any(parse_item(item).word in GENERATORS for item in prefix.attr_items):
            return
        for target in (t.text for t in self.tokens[close:end] if t.kind == "ident"):
            self.attribute_commands.append((self.namespace, target, prefix.attr_items, prefix.attr_docs))

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
            elif tok.text in BRACKETS.opening:
                j = group_end(self.tokens, j, b)
                continue
            elif tok.kind == "ident":
                name = clean_name(tok.text)
                (scoped if is_scoped else opens).append((name.removeprefix("_root_."), ns))
            j += 1

    @property
    def mutual_id(self) -> int:
        """The number of the innermost `mutual` block, -1 outside one."""
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
            docstring=prefix.doc, attributes=attribute_names(prefix.attr_items),
            attribute_args=list(prefix.attr_items), attribute_docs=list(prefix.attr_docs),
            modifiers=list(prefix.modifiers),
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
            j = group_end(toks, j, end)
        named = j < end and toks[j].kind == "ident" and toks[j].text not in ("where", "extends")
        name_tok = j if named else None
        after_name = j + 1 if name_tok is not None else j
        if after_name + 1 < end and toks[after_name].text == "." and toks[after_name + 1].text == "{":
            after_name = group_end(toks, after_name + 1, end)
        sig_end = self._signature_end(after_name, end, kind)
        decl = self._new_decl(prefix.first if prefix.first is not None else kw, kw, end, prefix, kind)
        sig_stop = toks[sig_end].start if sig_end < end else toks[_last_code(toks, kw, end)].end
        # The header ends with its last code: a comment between it and `:=` is not part of it.
        sig_stop = toks[kw].start + len(self.lexed.code[toks[kw].start:sig_stop].rstrip())
        decl.signature = self.lexed.text[toks[kw].start:sig_stop].rstrip()
        rest_from = toks[after_name - 1].end
        decl.sig_rest = self.lexed.text[rest_from:sig_stop].rstrip() if rest_from < sig_stop else ""
        if name_tok is not None:
            decl.name = qualify(self.namespace, toks[name_tok].text)
        variables = [v for scope in self.scopes for v in scope.variables] + prefix.variables
        # a definition or type also takes the variables its body uses (variables.py)
        body = self._code(sig_end, end) if variables and kind in BODY_VARIABLE_KINDS and sig_end < end else ""
        decl.variables = used_variables(variables, decl.sig_rest, body)
        if kind in STRUCTURE_KINDS:
            decl.fields = self._fields(sig_end, end)
        elif kind in INDUCTIVE_KINDS:
            decl.constructors = self._constructors(sig_end, end)
        own = {f["name"] for f in decl.fields} | set(decl.constructors)
        decl.candidates = reference_candidates(toks, after_name, end, sig_end, own)
        self.decls.append(decl)
        if kind in VALUE_KINDS and sig_end < end and toks[sig_end].text == ":=":
            value = collapse_spaces(self._code(sig_end + 1, _last_code(toks, sig_end, end) + 1))
            decl.value = value if len(value) <= VALUE_CHARS else value[:VALUE_CHARS].rsplit(" ", 1)[0] + " …"
        if kind == "irreducible_def" and decl.name and sig_end < end:
            self.decls.append(self._definition_lemma(decl, sig_end, end))

    def _definition_lemma(self, decl: Decl, sig_end: int, end: int) -> Decl:
        """`irreducible_def foo (x : α) := body` also declares `foo_def : foo x = body`."""
        colon = top_level_colon(decl.sig_rest)
        binders = decl.sig_rest[:colon] if colon >= 0 else decl.sig_rest
        args = explicit_binder_names(binders)
        body = collapse_spaces(self._code(sig_end + 1, _last_code(self.tokens, sig_end, end) + 1))
        lemma = Decl(
            name=decl.name + "_def", kind="theorem", file=self.file, order=decl.order + 0.5,
            namespace=decl.namespace, line=decl.line, end_line=decl.end_line, opens=decl.opens,
            opens_scoped=decl.opens_scoped, derived_from=decl.name, derived_by="irreducible_def",
        )
        lemma.sig_rest = f"{binders.rstrip()} : {' '.join([decl.name.rsplit('.', 1)[-1], *args])} = {body}"
        lemma.signature = f"theorem {lemma.name.rsplit('.', 1)[-1]}{lemma.sig_rest}"
        return lemma

    def _signature_end(self, j: int, end: int, kind: str) -> int:
        """First depth-0 `:=`, `where`, `deriving` or `|` (of a constructor or match
        alternative) of the header."""
        depth = 0
        inductive = kind in INDUCTIVE_KINDS
        toks = self.tokens
        for k in range(j, end):
            text = toks[k].text
            if text in BRACKETS.opening:
                depth += 1
            elif text in BRACKETS.closing:
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
        """`x y : T := d`, `f (x : A) : T`, or old-style `(x : T)`; `x := v` gives nothing.
        Modifiers written before the names (`protected IsOpen : Set X → Prop`) are kept."""
        toks = self.tokens
        modifiers: list[str] = []
        while a < b and (toks[a].kind == "doc" or toks[a].text == "@[" or toks[a].text in MODIFIERS):
            if toks[a].text in MODIFIERS:
                modifiers.append(toks[a].text)
            a = group_end(toks, a, b) if toks[a].text == "@[" else a + 1
        if a < b and toks[a].text == "(" and group_end(toks, a, b) == b:
            a, b = a + 1, b - 1
        names: list[str] = []
        k = a
        while k < b and toks[k].kind == "ident":
            names.append(clean_name(toks[k].text))
            k += 1
        binder_start = k
        k = find_top_level(toks, k, b, (":", ":="))
        if not names or k >= b or toks[k].text != ":":
            return []
        type_end = find_top_level(toks, k + 1, b, (":=",))
        entry: dict = {"type": collapse_spaces(self._code(k + 1, type_end))}
        binders = collapse_spaces(self._code(binder_start, k))
        if binders:
            entry["binders"] = binders
        if modifiers:
            entry["modifiers"] = modifiers
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
            if tok.text in BRACKETS.opening:
                depth += 1
            elif tok.text in BRACKETS.closing:
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
            decl.name = qualify(self.namespace, name)
            decl.signature = command
            decl.alias = AliasSpec(target, direction, command)
            self.decls.append(decl)


def _last_code(toks: list[Token], a: int, b: int) -> int:
    """Index of the last token in a..b that is code (not a doc comment)."""
    for j in range(b - 1, a - 1, -1):
        if toks[j].kind != "doc":
            return j
    return a


def attribute_names(items: list[str]) -> list[str]:
    """`["simp", "to_additive add_foo", "scoped simp"]` -> `["simp", "to_additive", "simp"]`
    (an item's kind, `local` or `scoped`, is not its name)."""
    return [without_kind(item).split(" ", 1)[0] for item in items]

