"""Famous names of Mathlib declarations, from Mathlib's `docs/*.yaml` lists, as aliases.

The lists (100 theorems, 1000+ theorems, overview, undergraduate) give titles such as
"Commutativity of multiplication" to declarations; stored on the records as `aliases`, the
titles make the declarations findable by them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

import yaml

from search.record import Statement


def load_mathlib_aliases(docs_dir: Path) -> dict[str, list[str]]:
    """`famous_names` of the `*.yaml` files of a folder (`mathlib_docs/`, Mathlib's `docs/`)."""
    return famous_names(path.read_text(encoding="utf-8") for path in sorted(docs_dir.glob("*.yaml")))


def famous_names(texts: Iterable[str]) -> dict[str, list[str]]:
    """Famous names from Mathlib's `docs/*.yaml` lists: declaration name -> titles.

    `100.yaml`/`1000.yaml` map an entry to `title` and `decl`/`decls`; `overview.yaml` and
    `undergrad.yaml` are nested topic trees whose leaves map a title to a declaration name
    (leaves that are URLs or empty are skipped).
    """
    aliases: dict[str, list[str]] = {}

    def add(decl: Any, title: str) -> None:
        if isinstance(decl, str) and decl and "://" not in decl and " " not in decl.strip():
            titles = aliases.setdefault(decl.strip(), [])
            if title not in titles:
                titles.append(title)

    for text in texts:
        data = yaml.safe_load(text) or {}
        for entry in data.values():
            if isinstance(entry, dict) and "title" in entry:
                for decl in [entry.get("decl"), *(entry.get("decls") or [])]:
                    add(decl, str(entry["title"]))
            elif isinstance(entry, dict):
                _walk_topics(entry, add)
    return aliases


def _walk_topics(tree: dict[str, Any], add: Any) -> None:
    for title, value in tree.items():
        if isinstance(value, dict):
            _walk_topics(value, add)
        else:
            add(value, str(title))


def attach_aliases(statements: list[Statement], aliases: dict[str, list[str]], source: str) -> int:
    """Store the titles on the named records of `source`; returns how many names were found."""
    by_id = {s.id: s for s in statements}
    found = 0
    for name, titles in aliases.items():
        statement = by_id.get(f"{source}:{name}")
        if statement is not None:
            statement.aliases.extend(t for t in titles if t not in statement.aliases)
            found += 1
    return found
