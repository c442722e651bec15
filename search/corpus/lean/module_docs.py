"""What a Lean file's module doc comments say, read for search: the file's title, its "Tags"
keywords, and for each declaration named in backticks the line that describes it.

Mathlib's module docs (`/-! ... -/`) start with a `# Title`, list "Main definitions" and "Main
results" as bullets naming declarations in backticks with a description (`* `Foo.bar`: the
bar of a foo`), and often end with a `## Tags` line of keywords. That is the authors' own
informal text about their declarations, the closest thing to an informalisation a corpus has
without an LLM. `<source>_modules.jsonl.gz` beside a Lean corpus holds them, one file a line (`read_module_docs`).
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

#: A heading line: `# Title`, `## Main results`.
_HEADING = re.compile(r"^(#+)\s*(.*?)\s*#*\s*$")
#: A list item: `* text`, `- text`, `+ text`, `1. text`.
_BULLET = re.compile(r"^\s*(?:[*+-]|\d+[.)])\s+")
#: A backticked span whose first word looks like a Lean name.
_NAMED = re.compile(r"`([^`\s]+)[^`]*`")
_LEAN_NAME = re.compile(r"^[^\W\d][\w.'!?₀-₉«»]*$")
_MARKUP = re.compile(r"\[([^\]]*)\]\([^)]*\)|[`*]")
#: Characters of a description kept per declaration.
DESCRIPTION_CHARS = 300


@dataclass
class ModuleDoc:
    """The search-relevant parts of one file's module docs."""

    title: str = ""
    tags: list[str] = field(default_factory=list)
    #: Name as written in backticks -> the text of the bullet or sentence naming it.
    described: dict[str, str] = field(default_factory=dict)

    @property
    def topic(self) -> str:
        """Title and tags in one line: `Split a box along hyperplanes; rectangular box, partition`."""
        return "; ".join(part for part in (self.title, ", ".join(self.tags)) if part)


def plain(text: str) -> str:
    """Markdown made plain: links become their text, backticks and `*` marks go (`_` stays:
    it is part of Lean names)."""
    return " ".join(_MARKUP.sub(lambda m: m.group(1) or "", text).split())


def _units(doc: str) -> list[tuple[str, str]]:
    """(section heading, text) of each bullet and each paragraph of a doc, in order."""
    units: list[tuple[str, str]] = []
    section, current = "", []

    def close() -> None:
        if current:
            units.append((section, " ".join(line.strip() for line in current)))
            current.clear()

    for line in doc.splitlines():
        heading = _HEADING.match(line)
        if heading:
            close()
            section = heading.group(2).lower()
        elif not line.strip():
            close()
        elif _BULLET.match(line):
            close()
            current.append(_BULLET.sub("", line, count=1))
        else:
            current.append(line)
    close()
    return units


def parse_module_docs(docs: list[str]) -> ModuleDoc:
    """Title, tags and the description of each backticked name of a file's module docs.

    A name's description is the first bullet or paragraph naming it, preferring the "Main ..."
    sections, cut to DESCRIPTION_CHARS characters at a sentence end where there is one.
    """
    parsed = ModuleDoc()
    main: dict[str, str] = {}
    other: dict[str, str] = {}
    for doc in docs:
        for line in doc.splitlines():
            heading = _HEADING.match(line)
            if heading and len(heading.group(1)) == 1 and not parsed.title:
                parsed.title = plain(heading.group(2))
        for section, text in _units(doc):
            if section.startswith("tags"):
                parsed.tags.extend(tag for tag in (plain(t) for t in re.split(r"[,;]", text)) if tag)
                continue
            names = [n for n in _NAMED.findall(text) if _LEAN_NAME.match(n)]
            target = main if section.startswith("main") else other
            for name in names:
                target.setdefault(name, _cut(plain(text)))
    parsed.described = {**other, **main}
    return parsed


def _cut(text: str) -> str:
    if len(text) <= DESCRIPTION_CHARS:
        return text
    cut = text[:DESCRIPTION_CHARS]
    end = max(cut.rfind(". "), cut.rfind("; "))
    return cut[: end + 1] if end > DESCRIPTION_CHARS // 3 else cut.rstrip() + "…"


def suffix_table(full_names: list[str]) -> dict[str, list[str]]:
    """Every dotted suffix of each name -> the names ending with it (`a.b.c`: `c`, `b.c`, `a.b.c`)."""
    table: dict[str, list[str]] = {}
    for name in full_names:
        parts = name.split(".")
        for i in range(len(parts)):
            table.setdefault(".".join(parts[i:]), []).append(name)
    return table


def read_module_docs(path: Path) -> dict[str, ModuleDoc]:
    """Module name -> its parsed module docs, from a `<source>_modules.jsonl.gz` file."""
    opener = gzip.open if path.suffix == ".gz" else open
    docs = {}
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                docs[row["module"]] = parse_module_docs(list(row.get("docs") or []))
    return docs
