"""Which environments of a LaTeX text are theorem-like, and what kind each one is.

Books name their environments freely (`lem`, `defn`, `ex` meaning Example in one book and
Exercise in another), so the table is read from the text's own declarations: `\\newtheorem`,
`\\newtheorem*`, thmtools' `\\declaretheorem`, macros that wrap `\\newtheorem` (the HoTT book's
`\\defthm`), and `\\newenvironment`s that open a theorem-like environment (Open Logic's
`probtag`). Two fallbacks cover environments a text uses without declaring them in the files
we have: the Open Logic class (its `.sty` files are not part of the text) and the standard
English names (`theorem`, `lemma`, ...) that books like CRing take from a missing preamble.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from search.corpus._tex import (
    Macro,
    expand_once,
    read_group,
    read_optional,
    skip_optionals,
    skip_spaces,
)


@dataclass(frozen=True)
class Environment:
    """A theorem-like environment: its kind and how many `{...}` arguments precede the body."""

    kind: str
    args: int = 0


#: Kinds of environments books use without declaring them (declared names always win).
STANDARD_KINDS = (
    "theorem", "lemma", "proposition", "corollary", "definition", "example", "exercise",
    "remark", "conjecture", "claim", "fact", "question", "problem", "axiom", "notation",
    "observation", "sublemma",
)  # fmt: skip

#: Open Logic declares its environments in `sty/open-logic-book-envs.sty` (upstream, not in the
#: text): name -> title, plus `probtag`, a one-argument wrapper around `prob`.
OPEN_LOGIC_TITLES = {
    "thm": "Theorem", "ex": "Example", "lem": "Lemma", "prop": "Proposition",
    "cor": "Corollary", "defn": "Definition", "prob": "Problem", "axiom": "Axiom",
    "rem": "Remark", "note": "Note", "case": "Case", "conv": "Convention",
}  # fmt: skip
_OPEN_LOGIC_MARK = re.compile(
    r"\\(?:documentclass|usepackage)\s*(?:\[[^\]]*open-logic|\{open-logic)"
)

_VERBATIM = frozenset({"verbatim", "Verbatim", "lstlisting", "minted", "alltt"})
_PLURALS = {"remarks": "remark", "examples": "example", "notes": "note", "exercises": "exercise"}

_NEWTHEOREM = re.compile(r"\\newtheorem\*?\s*")
_DECLARETHEOREM = re.compile(r"\\declaretheorem\s*")
_NEWENVIRONMENT = re.compile(r"\\(?:re)?newenvironment\s*")
_OPTION_NAME = re.compile(r"(?:^|,)\s*(?:name|title)\s*=\s*(\{[^{}]*\}|[^,]*)")
_OPENS = re.compile(r"^\s*\\begin\s*\{([^{}]+)\}")
_COMMENT_BODY = re.compile(r"^\s*\\comment\s*$")


def kind_of(title: str) -> str:
    """Normalise a printed title ("Lemma", "Remarks", "Abuse of Notation") to a kind."""
    kind = " ".join(re.sub(r"[{}\\]", "", title).lower().split())
    return _PLURALS.get(kind, kind)


def _newtheorems(text: str) -> dict[str, str]:
    found = {}
    for match in _NEWTHEOREM.finditer(text):
        name = read_group(text, skip_spaces(text, match.end()))
        if name is None:
            continue
        _, pos = skip_optionals(text, name[1])
        title = read_group(text, skip_spaces(text, pos))
        if title is not None and "#" not in name[0] + title[0]:
            found[name[0].strip()] = title[0]
    return found


def _declaretheorems(text: str) -> dict[str, str]:
    found = {}
    for match in _DECLARETHEOREM.finditer(text):
        before, pos = skip_optionals(text, match.end())
        name = read_group(text, skip_spaces(text, pos))
        if name is None or "#" in name[0]:
            continue
        after, _ = skip_optionals(text, name[1])
        options = ",".join(before + after)
        title = _OPTION_NAME.search(options)
        env = name[0].strip()
        found[env] = title.group(1).strip().strip("{}") if title else env.capitalize()
    return found


def _declarations(text: str, declaring: dict[str, Macro]) -> dict[str, str]:
    """Theorem declarations in `text`, with macros that wrap `\\newtheorem` expanded first."""
    if declaring and any(f"\\{name}" in text for name in declaring):
        text, _ = expand_once(text, declaring)
    return {**_newtheorems(text), **_declaretheorems(text)}


def _new_environments(text: str) -> list[tuple[str, int, str]]:
    """`\\newenvironment{name}[n]{begin}{end}` as (name, n, begin code)."""
    found = []
    for match in _NEWENVIRONMENT.finditer(text):
        name = read_group(text, skip_spaces(text, match.end()))
        if name is None:
            continue
        pos = skip_spaces(text, name[1])
        count = read_optional(text, pos)
        nargs = int(count[0]) if count and count[0].strip().isdigit() else 0
        _, pos = skip_optionals(text, pos)
        begin = read_group(text, skip_spaces(text, pos))
        if begin is not None:
            found.append((name[0].strip(), nargs, begin[0]))
    return found


@dataclass
class EnvironmentTable:
    """Theorem-like environments by name, and the comment-like ones to drop from bodies."""

    theorems: dict[str, Environment]
    comments: frozenset[str]

    def get(self, name: str) -> Environment | None:
        """Look `name` up, letting an undeclared `foo*` inherit the kind of `foo`."""
        found = self.theorems.get(name)
        if found is None and name.endswith("*"):
            found = self.theorems.get(name[:-1])
        return found

    def skipped(self, name: str) -> bool:
        """Environments whose content is not text: comments and verbatim code."""
        return name in self.comments or name in _VERBATIM


def environment_table(texts: list[str], macros: dict[str, Macro]) -> EnvironmentTable:
    """Build the environment table of a text from all its (comment-free) files."""
    declaring = {
        name: macro
        for name, macro in macros.items()
        if "\\newtheorem" in macro.body or "\\declaretheorem" in macro.body
    }
    titles: dict[str, str] = {}
    wrappers: list[tuple[str, int, str]] = []
    for text in texts:
        for name, title in _declarations(text, declaring).items():
            titles.setdefault(name, title)
        wrappers += _new_environments(text)
    theorems = {name: Environment(kind_of(title)) for name, title in titles.items()}
    if any(_OPEN_LOGIC_MARK.search(text) for text in texts):
        for name, title in OPEN_LOGIC_TITLES.items():
            theorems.setdefault(name, Environment(kind_of(title)))
        theorems.setdefault("probtag", Environment("problem", args=1))
    for kind in STANDARD_KINDS:
        theorems.setdefault(kind, Environment(kind))
    comments = {"comment"}
    for name, nargs, begin in wrappers:
        opened = _OPENS.match(begin)
        if opened and opened.group(1) in theorems:
            theorems.setdefault(name, Environment(theorems[opened.group(1)].kind, nargs))
        elif _COMMENT_BODY.match(begin):
            comments.add(name)
    return EnvironmentTable(theorems, frozenset(comments))
