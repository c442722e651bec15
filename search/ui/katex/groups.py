"""TeX's brace groups and arguments, read as far as rewriting math for KaTeX needs:
escaped characters skipped, an unclosed group told apart rather than raised."""

from __future__ import annotations

import re
from typing import Callable

#: A command (`\\name`, its name as group 1) or an escaped character.
COMMAND = re.compile(r"\\([A-Za-z]+)|\\.", re.S)
#: One character, or an escaped one with its backslash (the pieces brace counting steps over).
PIECE = re.compile(r"\\.?|[^\\]", re.S)


def group_end(text: str, start: int) -> int | None:
    """The index just after the `}` closing the `{` at `start`, or None when it is not closed."""
    depth = 0
    at = start
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return at + 1
        at += 1
    return None


def replace_groups(text: str, command: re.Pattern[str], rewrite: Callable[[str], str]) -> str:
    """Each `command{body}` (the pattern ends before the brace) replaced by `rewrite(body)`."""
    out, at = [], 0
    for match in command.finditer(text):
        if match.start() < at:
            continue
        end = group_end(text, match.end())
        if end is None:
            continue
        out.append(text[at:match.start()])
        out.append(rewrite(text[match.end() + 1:end - 1]))
        at = end
    return "".join(out) + text[at:]


def split_top(text: str, separator: str) -> list[str]:
    """`text` split at `separator` where it is outside every brace group."""
    parts, depth, start, at = [], 0, 0, 0
    while at < len(text):
        if text.startswith(separator, at) and depth == 0:
            parts.append(text[start:at])
            at += len(separator)
            start = at
            continue
        char = text[at]
        if char == "\\" and not text.startswith(separator, at):
            at += 2
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        at += 1
    return [*parts, text[start:]]


def next_argument(text: str, at: int) -> tuple[str, int]:
    """One TeX argument at `at` (spaces skipped): a brace group's inside, a command or a
    character; ("", at) at the end."""
    while at < len(text) and text[at].isspace():
        at += 1
    if at >= len(text):
        return "", at
    if text[at] == "{":
        end = group_end(text, at) or len(text)
        return text[at + 1:end - 1], end
    command = COMMAND.match(text, at)
    if command:
        return command.group(0), command.end()
    return text[at], at + 1
