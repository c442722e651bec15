"""Lean declarations (the shared JSON lines or `parse-lean` output) as Statement records.

The shared files hold one record per declaration *as written*. Lean makes more names than
that, and users search for them: unnamed instances get Lean's synthesised names
(`instance_names`), structure fields and constructors become members of their structure's
StatementGroup, and `@[to_additive]` declarations get their additive twin (`derived`).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Iterable, Iterator

from search.corpus.lean.derived import additive_twin, claim_ids, members
from search.corpus.lean.instance_names import instance_name
from search.corpus.lean.records import head_statement
from search.record import Statement


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """Yield the JSON objects of a `.jsonl` or `.jsonl.gz` file, one per line."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as error:
                    raise ValueError(f"{path}:{number}: not a JSON object ({error.msg})") from error


def lean_statements(rows: Iterable[dict[str, Any]], source: str | None = None) -> list[Statement]:
    """Turn declaration rows into records: heads, derived members, unique ids.

    Rows from `parse-lean` carry a `derived_from` field and already include what attributes
    generate; the shared JSON lines do not, so `to_additive` twins are made here for those only.
    Names as written (declarations and `alias`es) win: a derived record (field, constructor, a
    generated declaration) whose name is already taken is dropped, since the written
    declaration is the real one; a repeated written or synthesised instance name gets Lean's
    `_1`, `_2` suffix.
    """
    written: list[Statement] = []
    derived: list[Statement] = []
    for row in rows:
        name = row.get("name") or instance_name(row["signature"], row.get("namespace") or "")
        head = head_statement(row, source or row.get("source") or "local", name)
        head.group = head.id
        generated = row.get("derived_by") not in (None, "alias")
        (derived if generated else written).append(head)
        derived.extend(members(row, head))
        twin = additive_twin(row, head)
        if twin is not None:
            derived.append(twin)
    taken: set[str] = set()
    statements = claim_ids(written, taken, rename=True) + claim_ids(derived, taken, rename=False)
    _group_with_sources(statements)
    _resolve_deps(statements)
    return statements


def load_lean_corpus(path: Path, source: str | None = None) -> list[Statement]:
    """Records of one Lean JSON-lines file (gzip or plain)."""
    return lean_statements(read_jsonl(path), source)


#: What makes a record one more name of its source's statement rather than a statement of its own:
#: an alias, and the attributes that restate their source (`foo_assoc`, `fun_foo`, `foo_apply`).
#: A translation (`to_additive`, `to_dual`) states something else and heads its own group.
SAME_STATEMENT = frozenset({"alias", "to_fun", "reassoc", "elementwise", "to_app", "simps", "ext", "mk_iff",
                            "higher_order", "irreducible_def"})


def _group_with_sources(statements: list[Statement]) -> None:
    """Put each record made from another in its source's StatementGroup (`mul_add`, an alias of
    `left_distrib`, is found as `left_distrib`'s group, and heads it when named: `Engine.search`),
    following chains of them (an alias of an alias)."""
    by_id = {s.id: s for s in statements}
    for statement in statements:
        source, seen = statement, {statement.id}
        while source.meta.get("derived_by") in SAME_STATEMENT:
            found = by_id.get(f"{source.source}:{source.meta.get('derived_from', '')}")
            if found is None or found.id in seen:
                break
            source = found
            seen.add(found.id)
        statement.group = source.group


def _resolve_deps(statements: list[Statement]) -> None:
    """Map referenced names to ids of records that exist; drop the rest."""
    ids = {s.id for s in statements}
    for statement in statements:
        resolved = []
        for name in statement.deps:
            candidate = f"{statement.source}:{name}"
            if candidate in ids and candidate != statement.id:
                resolved.append(candidate)
        statement.deps = sorted(set(resolved))
