"""Lean's core library (`Init`, `Std`, `Lean`) in an index that may not hold it.

No shared corpus holds core, so an index built here lacks `Nat.succ_le_succ` or `List.map`
unless its build found a toolchain's sources (search/corpus/lean/toolchain.py). A user who looks
such a name up must learn that core is missing rather than that the name does not exist: each
interface that answers a name (Loogle, the statement lookup, the page's index line) adds
`note(...)` when the index lacks core and the name is in one of core's namespaces.
"""

from __future__ import annotations

from typing import Any, Mapping

from search import config

#: What every interface says, and how to add core to an index.
ABSENT = (f"Lean core (Init, Std, Lean) is not in this index: build with "
          f"`--sources ... {config.LEAN_CORE_SOURCE}=<toolchain>/src/lean` to add it")


def holds_core(manifest: Mapping[str, Any]) -> bool:
    """Whether an index's sources include Lean's core library."""
    return config.LEAN_CORE_SOURCE in manifest.get("sources", {})


def looks_core(name: str) -> bool:
    """Whether a Lean name is in one of the namespaces core declares (`Nat.succ_le_succ`)."""
    return name.split(".", 1)[0] in config.LEAN_CORE_NAMESPACES


def note(manifest: Mapping[str, Any], name: str) -> str:
    """`ABSENT` for a core-looking name in an index without core, else ""."""
    return ABSENT if looks_core(name) and not holds_core(manifest) else ""
