"""Formal <-> informal cross references.

Mathlib marks a declaration that formalises a Stacks Project statement with
`@[stacks TAG]`; the link is stored on both records so each side can show the other.
"""

from __future__ import annotations

import hashlib

from search.record import Statement


def link_half(tag: str) -> str:
    """`train` or `test`, fixed by the tag's SHA-1: the split of the `@[stacks]` links. What is
    trained on links (`python -m search adapt`) reads the `train` half; the evaluation's
    alignment query sets (eval/corpus_queries.py) hold the `test` half."""
    return "test" if hashlib.sha1(tag.encode("utf-8")).digest()[0] % 2 else "train"


def link_stacks(statements: list[Statement]) -> int:
    """Add `links` both ways between `@[stacks TAG]` declarations and `stacks:TAG`; count them."""
    by_id = {s.id: s for s in statements}
    count = 0
    for statement in statements:
        for tag in statement.meta.get("stacks_tags", []):
            target = by_id.get(f"stacks:{tag}")
            if target is None:
                continue
            if target.id not in statement.links:
                statement.links.append(target.id)
            if statement.id not in target.links:
                target.links.append(statement.id)
            count += 1
    return count
