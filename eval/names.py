"""`python -m eval names`: the Lean names the default index gets from the source trees, against
those the shared JSON lines gave it before, both ways, per source and kind, with the reason for
each class of difference.

The default build reads each Lean project's sources (`lean-source`); before, it read the JSON
lines another tool extracted from the same trees at the same commits (`lean-jsonl`), which have
no record for an `alias`, for what an attribute generates (but the `to_additive` twins the
loader made itself), and name a few declarations otherwise. Each difference is put in the first
class of `REASONS` that explains it; what none explains is listed by name, so that a class of
real declarations one side misses cannot hide in a count.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from search import config
from search.record import Statement
#: Differences listed by name in the report, per class.
EXAMPLES = 5
_QUOTES = re.compile("[«»]")
_PROJECT_SUFFIX = re.compile(r"_[a-z][A-Za-z]*(?:_\d+)?$")
_NUMBER_SUFFIX = re.compile(r"(?:_\d+)+$")


@dataclass(frozen=True)
class Side:
    """The records of one side, by id, and what the reasons look up in them."""

    records: dict[str, Statement]
    #: Full names without guillemets, and instance names without a `_<project>` suffix.
    unquoted: frozenset[str]
    unsuffixed: frozenset[str]
    #: Instance names without Lean's `_1`, `_2` numbering of a taken name.
    unnumbered: frozenset[str]
    #: Sources of the `to_additive`/`to_dual` twins (old: the loader's; new: the parser's).
    translated: frozenset[str]

    @classmethod
    def of(cls, statements: list[Statement]) -> "Side":
        return cls(
            {s.id: s for s in statements},
            frozenset(_QUOTES.sub("", s.name) for s in statements),
            frozenset(_PROJECT_SUFFIX.sub("", s.name) for s in statements if s.kind == "instance"),
            frozenset(_unnumbered(s.name) for s in statements if s.kind == "instance"),
            frozenset(str(s.meta["derived_from"]) for s in statements if _translation(s)),
        )


def _unnumbered(name: str) -> str:
    """An instance's name without Lean's numbering and without its `_<project>` suffix (the
    suffix comes before the numbering: `instFull_mathlib_1`)."""
    return _PROJECT_SUFFIX.sub("", _NUMBER_SUFFIX.sub("", name))


def _translation(s: Statement) -> bool:
    """A twin made by a translating attribute (the JSON loader's twins say no `derived_by`)."""
    if s.kind in ("field", "constructor") or "derived_from" not in s.meta:
        return False
    return s.meta.get("derived_by") in (None, "to_additive", "to_dual")


@dataclass(frozen=True)
class Reason:
    key: str
    #: "new" (only in the records from source) or "old" (only in those of the JSON lines).
    side: str
    sentence: str
    applies: Callable[[Statement, Side], bool]


REASONS = [
    Reason("quoted name", "both",
           "Lean's name is `forall`, written `«forall»` only where the text needs it; the JSON lines keep the guillemets",
           lambda s, other: _QUOTES.sub("", s.name) in other.unquoted and _QUOTES.sub("", s.name) != s.name
           or (s.name in other.unquoted and not _QUOTES.search(s.name) and s.id not in other.records)),
    Reason("instance name", "both",
           "Lean adds `_<project>` to the name of an instance that mentions no constant of the project "
           "(`instSubBool_mathlib`); the JSON loader cannot tell a project's constants from others",
           lambda s, other: s.kind == "instance" and (_PROJECT_SUFFIX.sub("", s.name) in other.unsuffixed)),
    Reason("instance numbering", "both",
           "an unnamed instance whose name is taken: Lean numbers it (`_1`, `_2`, ...) against every "
           "declaration its file imports, the reading of the tree against those of its own file "
           "(`search/corpus/lean/tree.py`)",
           lambda s, other: s.kind == "instance" and not s.meta.get("derived_by")
           and bool(_NUMBER_SUFFIX.search(s.name)) and _unnumbered(s.name) in other.unnumbered),
    Reason("translation named from the tree", "both",
           "a `to_additive`/`to_dual` twin named with the translations the tree declares (a translated "
           "namespace: `MulArchimedeanClass` -> `ArchimedeanClass`; `to_dual_name_hint`), which the JSON "
           "loader guesses word by word",
           lambda s, other: _translation(s) and str(s.meta["derived_from"]) in other.translated),
    Reason("alias", "new", "an `alias` command, which the JSON lines have no record for",
           lambda s, other: s.meta.get("derived_by") == "alias"),
    Reason("to_additive the JSON loader does not see", "new",
           "a `to_additive` nested in another attribute (`to_fun (attr := to_additive)`), on an alias, or "
           "in an `attribute [to_additive] name` command",
           lambda s, other: s.meta.get("derived_by") == "to_additive"),
    Reason("generated by an attribute", "new",
           "made by an attribute the JSON loader does not derive (`to_dual`, `to_fun`, `reassoc`, "
           "`elementwise`, `to_app`, `simps`, `ext`, `mk_iff`, `higher_order`) or by `irreducible_def` "
           "(`foo_def`); per attribute in the next column",
           lambda s, other: bool(s.meta.get("derived_by"))),
    Reason("field or constructor", "new",
           "a field or constructor the JSON lines do not list: parenthesised fields after a doc comment, a "
           "doc comment at column 0 before an indented field",
           lambda s, other: s.kind in ("field", "constructor")),
]


#: What the two sides say of a declaration written in both, compared field by field.
FIELDS: dict[str, Callable[[Statement], object]] = {
    "signature": lambda s: s.statement,
    "docstring": lambda s: s.doc,
    "attribute text": lambda s: s.meta.get("attribute_args"),
    "module doc and inherited text": lambda s: s.informal,
    "refs": lambda s: sorted(s.deps),
}


def _fields(sides: dict[str, Side]) -> dict[str, dict]:
    """For each declaration written on both sides, whether each field agrees; refs also as
    counts (a side's refs to names the other has no record of cannot agree)."""
    out = {name: {"same": 0, "different": 0, "examples": []} for name in FIELDS}
    refs = Counter()
    new, old = sides["new"].records, sides["old"].records
    for i, o in old.items():
        n = new.get(i)
        if n is None or "derived_from" in o.meta:
            continue
        for name, read in FIELDS.items():
            same = read(n) == read(o)
            out[name]["same" if same else "different"] += 1
            if not same and len(out[name]["examples"]) < EXAMPLES:
                out[name]["examples"].append(n.name)
        refs["both"] += len(set(n.deps) & set(o.deps))
        refs["only new"] += len(set(n.deps) - set(o.deps))
        refs["only old"] += len(set(o.deps) - set(n.deps))
        refs["only new, to a generated name"] += sum(1 for d in set(n.deps) - set(o.deps) if d not in old)
    out["refs"]["counts"] = dict(refs)
    return out


def compare(new: list[Statement], old: list[Statement]) -> dict:
    """Names on each side only, counted per kind and per reason, with examples of each, and
    what the two sides say of the declarations written in both."""
    sides = {"new": Side.of(new), "old": Side.of(old)}
    out: dict = {"records": {"new": len(sides["new"].records), "old": len(sides["old"].records)},
                 "both": len(sides["new"].records.keys() & sides["old"].records.keys()),
                 "fields": _fields(sides)}
    for name, other_name in (("new", "old"), ("old", "new")):
        side, other = sides[name], sides[other_name]
        only = [s for i, s in side.records.items() if i not in other.records]
        kinds: Counter[str] = Counter(s.kind for s in only)
        reasons: dict[str, dict] = {}
        for s in only:
            reason = next((r for r in REASONS if r.side in (name, "both") and r.applies(s, other)), None)
            key = reason.key if reason else "unexplained"
            entry = reasons.setdefault(key, {"count": 0, "sentence": reason.sentence if reason else
                                             "listed by name: no rule explains these", "examples": [],
                                             "by": Counter()})
            entry["count"] += 1
            entry["by"][s.meta.get("derived_by") or s.kind] += 1
            if len(entry["examples"]) < EXAMPLES or key == "unexplained":
                entry["examples"].append(s.name)
        out[f"only_{name}"] = {"count": len(only), "kinds": dict(kinds.most_common()),
                               "reasons": {k: {**v, "by": dict(v["by"].most_common())} for k, v in reasons.items()}}
    return out


#: What Lean makes that the source parser does not name, by key: what it is.
NOT_DERIVED = {
    "simps": "`@[simps]` on a definition whose type is no structure of the tree (its lemmas unnamed)",
    "auxiliary": "inductive types and structures, each with `rec`, `recOn`, `casesOn`, `noConfusion`, ... "
                 "(Lean's auxiliary declarations, left out on purpose)",
    "equations": "definitions, each with equation lemmas `eq_1`, `eq_def` (numbered by Lean's match compilation)",
    "deriving": "deriving handlers (`deriving DecidableEq, Repr`, `deriving instance ... for`)",
    "mk_iff_of_inductive_prop": "`mk_iff_of_inductive_prop` commands",
    "run_cmd": "`run_cmd` blocks (any declarations they add)",
}
#: The commands and clauses of NOT_DERIVED read from the tree by pattern.
_COMMANDS = {
    "deriving": re.compile(r"^\s*deriving\s+(?:instance\s+)?[A-Z]", re.M),
    "mk_iff_of_inductive_prop": re.compile(r"^mk_iff_of_inductive_prop\b", re.M),
    "run_cmd": re.compile(r"^run_cmd\b", re.M),
}


def not_derived(statements: list[Statement], modules: dict[str, str]) -> dict[str, int]:
    """Names Lean makes that cannot be derived from the source without its elaborator, counted
    (`NOT_DERIVED` says what each is)."""
    simps = {s.name for s in statements if {"simps", "simps!"} & set(s.attributes)}
    made = {str(s.meta.get("derived_from")) for s in statements if s.meta.get("derived_by") == "simps"}
    written = [s for s in statements if "derived_from" not in s.meta]
    counts = {
        "simps": len(simps - made),
        "auxiliary": sum(s.kind in ("structure", "class", "inductive", "class inductive", "coinductive") for s in written),
        "equations": sum(s.kind in ("def", "abbrev") for s in written),
    }
    for key, pattern in _COMMANDS.items():
        counts[key] = sum(len(pattern.findall(text)) for text in modules.values())
    return counts


def _markdown(report: dict) -> str:
    lines = []
    for source, found in report["sources"].items():
        lines += [f"### {source}: {found['records']['new']:,} records from source, {found['records']['old']:,} "
                  f"from the JSON lines, {found['both']:,} in both", "",
                  "| only in | reason | records | by kind or attribute | examples |", "| --- | --- | ---: | --- | --- |"]
        for side in ("new", "old"):
            for key, entry in found[f"only_{side}"]["reasons"].items():
                by = ", ".join(f"{k} {v:,}" for k, v in entry["by"].items())
                examples = ", ".join(f"`{n}`" for n in entry["examples"][:EXAMPLES])
                where = "source" if side == "new" else "JSON lines"
                lines.append(f"| {where} | {key}: {entry['sentence']} | {entry['count']:,} | {by} | {examples} |")
        lines += ["", "| field of a declaration written in both | same | different | examples |", "| --- | ---: | ---: | --- |"]
        for name, field in found["fields"].items():
            examples = ", ".join(f"`{n}`" for n in field["examples"])
            lines.append(f"| {name} | {field['same']:,} | {field['different']:,} | {examples} |")
        counts = found["fields"]["refs"]["counts"]
        lines += ["", "Refs: " + ", ".join(f"{k} {v:,}" for k, v in counts.items()) + ".", ""]
        lines += ["| not derived from source | count |", "| --- | ---: |"]
        lines += [f"| {NOT_DERIVED[key]} | {n:,} |" for key, n in found["not_derived"].items()] + [""]
    return "\n".join(lines)


def _names(args: argparse.Namespace) -> int:
    from search.corpus.sources import load_records

    report: dict = {"command": args.command_line, "sources": {}}
    from search.corpus.lean.project import open_lean_project

    for source in args.sources:
        new = load_records([source]).statements
        old = load_records([f"{source}={config.LEAN_CORPUS_DIR / f'{source}.jsonl.gz'}"]).statements
        modules = dict(open_lean_project(config.LEAN_SOURCE_DIR / f"{source}.tar.gz").modules(
            config.LEAN_LIBRARIES.get(source, ())))
        report["sources"][source] = {**compare(new, old), "not_derived": not_derived(new, modules)}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "names.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (out / "names.md").write_text(_markdown(report), encoding="utf-8")
    print(_markdown(report))
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    names = commands.add_parser("names", help="the Lean names from source against those of the shared JSON lines")
    names.add_argument("--sources", nargs="+", default=list(config.LEAN_SOURCES), help="shared Lean sources")
    names.add_argument("--out", required=True, help="directory of names.json and names.md")
    names.set_defaults(run=_names)
