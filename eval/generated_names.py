"""`python -m eval aliases`: names Lean makes beside what is written, looked up as a Lean user
would: by name in the index and by Loogle's exact-name query, which must return them first.

Two lists, both read from the Mathlib source tree by a reader of its own (regular expressions
over the raw text, not the project's parser), so that the parser is checked rather than
trusted:

* a random sample (seeded) of the `alias` commands' public names (`alias mul_add :=
  left_distrib`, both names of `alias ⟨of_lt, to_lt⟩ := foo_iff`), qualified by the
  `namespace` blocks around them;
* every declaration whose `to_additive` is nested in another attribute's `(attr := ...)`
  (`@[to_fun (attr := to_additive)]` on `Continuous.mul`), with the additive name Mathlib's
  `guessName` gives it (`Continuous.add`), or the one the attribute writes, and for `to_fun`
  the twin of its `fun_` form (`Continuous.fun_add`).
"""

from __future__ import annotations

import argparse
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

from search import config

#: Comments, removed before reading commands (block comments nest rarely enough here).
_BLOCK_COMMENT = re.compile(r"/-.*?-/", re.S)
_LINE_COMMENT = re.compile(r"--[^\n]*")
_SCOPE = re.compile(r"^(namespace|section|end)\b[ \t]*([^\s]*)", re.M)
_ALIAS = re.compile(r"^(?:@\[[^\n]*?\][ \t]*\n?)?((?:private|protected)[ \t]+)?alias[ \t]+(⟨[^⟩]*⟩|[^\s:]+)[ \t\n]*:=", re.M)
_KEYWORD = re.compile(r"^(?:(?:private|protected|noncomputable)\s+)*(?:theorem|lemma|def)\s+([^\s:({\[]+)", re.M)
_NESTED = re.compile(r"\b(?P<outer>(?!to_additive\b)\w+)\s*\(attr\s*:=[^)]*?\bto_additive\b")


def _target(rest: str) -> str | None:
    """The name a `to_additive` writes, read after it: options in parentheses skipped."""
    k = 0
    while True:
        while k < len(rest) and rest[k].isspace():
            k += 1
        if k < len(rest) and rest[k] == "(":
            depth = 0
            while k < len(rest):
                depth += {"(": 1, ")": -1}.get(rest[k], 0)
                k += 1
                if depth == 0:
                    break
            continue
        word = re.match(r"[\w.']+", rest[k:])
        if word is None or word.group() in ("existing", "self"):
            return None
        return word.group()


@dataclass(frozen=True)
class Found:
    """A name read from the source, and where."""

    name: str
    path: str


def _qualified(text: str, position: int, written: str) -> str:
    """`written` qualified by the namespaces open at `position` (`_root_.` is absolute)."""
    if written.startswith("_root_."):
        return written[len("_root_."):]
    stack: list[tuple[str, str]] = []
    for m in _SCOPE.finditer(text, 0, position):
        kind, name = m.group(1), m.group(2)
        if kind in ("namespace", "section"):
            stack.append((kind, name))
        elif stack:
            stack.pop()
    spaces = [name for kind, name in stack if kind == "namespace" and name]
    return ".".join([*spaces, written])


def aliases_in(modules: dict[str, str]) -> list[Found]:
    """The public names of every `alias` command in the files (path -> text)."""
    found = []
    for path, raw in modules.items():
        text = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub(lambda m: "\n" * m.group().count("\n"), raw))
        for m in _ALIAS.finditer(text):
            if m.group(1) and m.group(1).strip() == "private":
                continue
            written = m.group(2)
            names = [n.strip() for n in written.strip("⟨⟩").split(",")] if written.startswith("⟨") else [written]
            found += [Found(_qualified(text, m.start(), n), path) for n in names if n and n != "_"]
    return found


def _attribute_blocks(text: str):
    """(offset, text inside `@[...]`, the declaration name after it) of each attribute block at
    the start of a line, brackets counted."""
    for m in re.finditer(r"^@\[", text, re.M):
        depth, k = 1, m.end()
        while k < len(text) and depth:
            depth += {"[": 1, "]": -1}.get(text[k], 0)
            k += 1
        declaration = _KEYWORD.match(text, k + len(text[k:]) - len(text[k:].lstrip()))
        if declaration:
            yield m.start(), text[m.end():k - 1], declaration.group(1)


def nested_twins(modules: dict[str, str]) -> list[Found]:
    """The additive names of declarations whose `to_additive` is nested in another attribute."""
    from search.corpus.lean.to_additive import ADDITIVE

    found = []
    for path, raw in modules.items():
        if "(attr" not in raw:
            continue
        text = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub(lambda m: "\n" * m.group().count("\n"), raw))
        for start, attrs, name in _attribute_blocks(text):
            nested = _NESTED.search(attrs)
            if nested is None:
                continue
            source = _qualified(text, start, name)
            target = _target(attrs[nested.end():])
            found.append(Found(ADDITIVE.explicit(source, target) if target else ADDITIVE.guess(source), path))
            if nested.group("outer") == "to_fun" and not target:  # the twin of the `fun_` form too
                parts = source.rsplit(".", 1)
                found.append(Found(ADDITIVE.guess(".".join([*parts[:-1], "fun_" + parts[-1]])), path))
    return found


def check(names: list[Found], index_dir: Path) -> dict:
    """Each name: a record of the index, and the first hit of Loogle's exact-name query."""
    from search.api.service import SearchService
    from search.engine.engine import Engine
    from search.engine.loogle import LoogleSearch, QueryError
    from search.index.store import Index

    index = Index.load(index_dir)
    service = SearchService.from_engine(Engine(index))
    loogle = LoogleSearch(service.engine, service.graph, service.lean_sources)
    rows = []
    for found in names:
        in_index = f"mathlib:{found.name}" in index.position
        try:
            hits = loogle.find(found.name, 1).statements
            first = bool(hits) and hits[0].name == found.name
        except QueryError:
            first = False
        rows.append({"name": found.name, "path": found.path, "in_index": in_index, "loogle_first": first})
    return {"count": len(rows), "in_index": sum(r["in_index"] for r in rows),
            "loogle_first": sum(r["loogle_first"] for r in rows),
            "missing": [r for r in rows if not (r["in_index"] and r["loogle_first"])], "names": rows}


def _aliases(args: argparse.Namespace) -> int:
    from search.corpus.lean.project import open_lean_project

    project = open_lean_project(Path(args.tree))
    modules = dict(project.modules(config.LEAN_LIBRARIES["mathlib"]))
    every = aliases_in(modules)
    sample = sorted(random.Random(args.seed).sample(every, min(args.sample, len(every))), key=lambda f: f.name)
    report = {
        "command": args.command_line, "tree": str(args.tree), "seed": args.seed, "aliases_in_source": len(every),
        "aliases": check(sample, Path(args.index)), "nested_twins": check(nested_twins(modules), Path(args.index)),
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "aliases.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for key in ("aliases", "nested_twins"):
        part = report[key]
        print(f"{key}: {part['count']} names, {part['in_index']} in the index, {part['loogle_first']} first in Loogle")
        for row in part["missing"][:20]:
            print(f"  missing or not first: {row['name']} ({row['path']})")
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    aliases = commands.add_parser("aliases", help="sampled alias names and nested to_additive twins, looked up by name",
                                  description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    aliases.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR))
    aliases.add_argument("--tree", default=str(config.LEAN_SOURCE_DIR / "mathlib.tar.gz"),
                         help="the Mathlib source tree the names are read from")
    aliases.add_argument("--sample", type=int, default=200, help="alias names sampled")
    aliases.add_argument("--seed", type=int, default=0)
    aliases.add_argument("--out", required=True, help="directory of aliases.json")
    aliases.set_defaults(run=_aliases)
