"""Regex-level LaTeX reading shared by the LaTeX corpus adapter.

Nothing here runs TeX: these helpers read just enough syntax (comments, balanced groups,
optional arguments, author macros) to cut theorem-like environments out of real books. Every
reader is bounded and returns None instead of raising, because corpora contain unbalanced
braces, missing `\\end`s and half-finished edits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Longest group (in characters) a reader follows before giving up on an unbalanced brace.
GROUP_LIMIT = 50_000

_COMMENT = re.compile(r"(?<!\\)((?:\\\\)*)%[^\n]*")
_BRACE_TOKEN = re.compile(r"\\.|[{}]", re.S)
_BRACKET_TOKEN = re.compile(r"\\.|[{}\[\]]", re.S)
_CONTROL_SEQUENCE = re.compile(r"\\([A-Za-z]+|.)", re.S)
_SPACES = re.compile(r"[ \t]*\n?[ \t]*")


def strip_comments(text: str) -> str:
    """Drop `%` comments but keep escaped `\\%` and every newline, so line numbers survive."""
    if "%" not in text:
        return text
    lines = text.split("\n")
    return "\n".join(_COMMENT.sub(r"\1", line) if "%" in line else line for line in lines)


def skip_spaces(text: str, pos: int) -> int:
    """Skip spaces and at most one newline, as TeX does between a command and its arguments."""
    return _SPACES.match(text, pos).end()


def read_group(text: str, pos: int, limit: int = GROUP_LIMIT) -> tuple[str, int] | None:
    """Read `{...}` starting at `pos`: (content, index after the closing brace) or None."""
    if pos >= len(text) or text[pos] != "{":
        return None
    depth = 0
    for token in _BRACE_TOKEN.finditer(text, pos, min(len(text), pos + limit)):
        if token.group() == "{":
            depth += 1
        elif token.group() == "}":
            depth -= 1
            if depth == 0:
                return text[pos + 1 : token.start()], token.end()
    return None


def read_optional(text: str, pos: int, limit: int = GROUP_LIMIT) -> tuple[str, int] | None:
    """Read `[...]` starting at `pos`, ignoring brackets inside braces or nested pairs."""
    if pos >= len(text) or text[pos] != "[":
        return None
    braces = brackets = 0
    for token in _BRACKET_TOKEN.finditer(text, pos, min(len(text), pos + limit)):
        char = token.group()
        if char == "{":
            braces += 1
        elif char == "}":
            braces = max(braces - 1, 0)
        elif char == "[" and braces == 0:
            brackets += 1
        elif char == "]" and braces == 0:
            brackets -= 1
            if brackets == 0:
                return text[pos + 1 : token.start()], token.end()
    return None


def read_argument(text: str, pos: int) -> tuple[str, int] | None:
    """Read one undelimited TeX argument: a braced group, a control sequence or one character."""
    pos = skip_spaces(text, pos)
    if pos >= len(text) or text[pos] in "}]":
        return None
    if text[pos] == "{":
        return read_group(text, pos)
    if text[pos] == "\\":
        match = _CONTROL_SEQUENCE.match(text, pos)
        return (match.group(), match.end()) if match else None
    return text[pos], pos + 1


def read_arguments(text: str, pos: int, count: int) -> tuple[list[str], int] | None:
    """Read `count` undelimited arguments in a row, or None when one is missing."""
    values = []
    for _ in range(count):
        argument = read_argument(text, pos)
        if argument is None:
            return None
        value, pos = argument
        values.append(value)
    return values, pos


def skip_optionals(text: str, pos: int) -> tuple[list[str], int]:
    """Read any number of `[...]` arguments (spaces allowed before each)."""
    values = []
    while True:
        start = skip_spaces(text, pos)
        optional = read_optional(text, start)
        if optional is None:
            return values, pos
        value, pos = optional
        values.append(value)


# --------------------------------------------------------------------------------------------
# Author macros


@dataclass(frozen=True)
class Macro:
    """A macro as its author defined it: `nargs` arguments, the first optional when `default`."""

    name: str
    nargs: int
    body: str
    default: str | None = None


_NEWCOMMAND = re.compile(
    r"\\(?:(?:re)?newcommand|providecommand|DeclareRobustCommand)\*?\s*"
    r"(?:\{\s*\\([A-Za-z@]+)\s*\}|\\([A-Za-z@]+))"
)
_DEF = re.compile(r"\\[gex]?def\s*\\([A-Za-z@]+)((?:#\d)*)\s*(?=\{)")
_MATH_OPERATOR = re.compile(
    r"\\DeclareMathOperator(\*?)\s*(?:\{\s*\\([A-Za-z]+)\s*\}|\\([A-Za-z]+))\s*"
)
_LET = re.compile(r"\\let\s*\\([A-Za-z]+)\s*=?\s*(\\[A-Za-z]+)")
_MACRO_START = re.compile(
    r"\\(?:(?:re)?newcommand|providecommand|DeclareRobustCommand|[gex]?def|DeclareMathOperator|let)"
    r"(?![A-Za-z])"
)
#: Bodies using TeX programming are not "simple author macros": expanding them yields noise.
_PROGRAMMING = re.compile(
    r"@|\\(?:[gex]?def|let|csname|expandafter|futurelet|newcommand|renewcommand|"
    r"providecommand|ifx|ifnum|ifdim|ifcase|ifmmode|ifdefined|ifthenelse|if|else|fi|"
    r"IfNoValueTF|IfBooleanTF)(?![A-Za-z])"
)
#: Commands the adapter itself reads; a text redefining them keeps the standard meaning.
_RESERVED = frozenset({"begin", "end", "label", "ref", "cite", "chapter", "section", "title"})


def _parse_newcommand(text: str, match: re.Match) -> Macro | None:
    name = match.group(1) or match.group(2)
    pos = skip_spaces(text, match.end())
    nargs, default = 0, None
    count = read_optional(text, pos)
    if count is not None:
        if not count[0].strip().isdigit():
            return None
        nargs, pos = int(count[0]), skip_spaces(text, count[1])
        optional = read_optional(text, pos)
        if optional is not None:
            default, pos = optional[0], skip_spaces(text, optional[1])
    body = read_group(text, pos)
    return Macro(name, nargs, body[0], default) if body else None


def _parse_def(text: str, match: re.Match) -> Macro | None:
    params = match.group(2)
    nargs = len(params) // 2
    if params != "".join(f"#{i}" for i in range(1, nargs + 1)):
        return None
    body = read_group(text, match.end())
    return Macro(match.group(1), nargs, body[0]) if body else None


def _parse_math_operator(text: str, match: re.Match) -> Macro | None:
    body = read_group(text, match.end())
    if body is None:
        return None
    name = match.group(2) or match.group(3)
    return Macro(name, 0, f"\\operatorname{match.group(1)}{{{body[0]}}}")


def _parse_let(text: str, match: re.Match) -> Macro:
    """`\\let\\alias\\name`: the alias expands to the name it copies."""
    return Macro(match.group(1), 0, match.group(2))


def _parse_definition(text: str, pos: int) -> Macro | None:
    for pattern, parse in (
        (_LET, _parse_let),
        (_NEWCOMMAND, _parse_newcommand),
        (_DEF, _parse_def),
        (_MATH_OPERATOR, _parse_math_operator),
    ):
        match = pattern.match(text, pos)
        if match:
            return parse(text, match)
    return None


def collect_macros(texts: list[str]) -> dict[str, Macro]:
    """Every macro defined in `texts` (comment-free), the first definition of a name winning.

    First-wins mirrors `\\providecommand` and keeps a book's main macro file (read first in
    path order) ahead of per-format option files that redefine the same names.
    """
    macros: dict[str, Macro] = {}
    for text in texts:
        for start in _MACRO_START.finditer(text):
            macro = _parse_definition(text, start.start())
            if macro is not None:
                macros.setdefault(macro.name, macro)
    return macros


def simple_macros(macros: dict[str, Macro]) -> dict[str, Macro]:
    """The macros safe to expand textually: no TeX programming, no reserved names."""
    return {
        name: macro
        for name, macro in macros.items()
        if "@" not in name and name not in _RESERVED and not _PROGRAMMING.search(macro.body)
    }


_PARAMETER = re.compile(r"#(#|[1-9])")


def _substitute(macro: Macro, args: list[str]) -> str:
    def parameter(match: re.Match) -> str:
        if match.group(1) == "#":
            return "#"
        index = int(match.group(1)) - 1
        return args[index] if index < len(args) else ""

    return _PARAMETER.sub(parameter, macro.body)


def _call(text: str, pos: int, macro: Macro) -> tuple[str, int] | None:
    """Expand one use of `macro` whose name ends at `pos`: (replacement, end) or None."""
    args = []
    mandatory = macro.nargs
    if macro.default is not None:
        start = skip_spaces(text, pos)
        optional = read_optional(text, start)
        if optional is None:
            args.append(macro.default)
        else:
            args.append(optional[0])
            pos = optional[1]
        mandatory -= 1
    read = read_arguments(text, pos, mandatory)
    if read is None:
        return None
    values, end = read
    replacement = _substitute(macro, args + values)
    if re.search(r"\\[A-Za-z]+$", replacement) and end < len(text) and text[end].isalpha():
        replacement += " "
    return replacement, end


def expand_once(text: str, macros: dict[str, Macro]) -> tuple[str, bool]:
    """One left-to-right pass replacing each macro use; reports whether anything changed."""
    parts, pos, changed = [], 0, False
    for match in _CONTROL_SEQUENCE.finditer(text):
        if match.start() < pos:
            continue
        macro = macros.get(match.group(1))
        call = _call(text, match.end(), macro) if macro else None
        if call is None:
            continue
        parts += [text[pos : match.start()], call[0]]
        pos, changed = call[1], True
    parts.append(text[pos:])
    return "".join(parts), changed


def expand_macros(text: str, macros: dict[str, Macro], passes: int = 4) -> str:
    """Expand author macros at most `passes` times, never letting the text grow unboundedly.

    Recursive or mutually recursive definitions stop after `passes` rounds; a pass whose
    result would exceed the growth budget is discarded, so expansion always terminates.
    """
    budget = 8 * len(text) + 4096
    for _ in range(passes):
        expanded, changed = expand_once(text, macros)
        if not changed or len(expanded) > budget:
            break
        text = expanded
    return text
