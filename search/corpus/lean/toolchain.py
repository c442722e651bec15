"""Lean's core library from a toolchain that elan installed: where its sources are.

Every Lean toolchain carries the sources of `Init`, `Std` and `Lean` under
`<ELAN_HOME>/toolchains/<name>/src/lean/` (the name says the release:
`leanprover--lean4---v4.29.1`). No shared corpus holds them, and their repository cannot be
brought to this project's machines; a user's machine has them, and `python -m search build`
adds them by itself (`search.index.build`), as the source `lean`, read like any Lean project.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from search import config

#: `leanprover--lean4---v4.29.1` -> `v4.29.1`.
_RELEASE = re.compile(r"---?(v\d[\w.+-]*)$")


@dataclass(frozen=True)
class CoreSources:
    """A toolchain's core sources and its release (the tag of leanprover/lean4 they are at)."""

    path: Path
    release: str


def _release(name: str) -> tuple[int, ...]:
    """A toolchain's release as numbers for ordering (`v4.29.1` -> (4, 29, 1)); unknown: ()."""
    m = _RELEASE.search(name)
    return tuple(int(n) for n in re.findall(r"\d+", m.group(1))[:3]) if m else ()


def core_sources(elan_home: Path | None = None) -> CoreSources | None:
    """The core sources of the newest toolchain elan installed, or None when it has none."""
    toolchains = (elan_home or config.ELAN_HOME) / "toolchains"
    found = [d for d in toolchains.glob("*") if (d / "src" / "lean" / "Init").is_dir()] if toolchains.is_dir() else []
    if not found:
        return None
    newest = max(found, key=lambda d: (_release(d.name), d.name))
    m = _RELEASE.search(newest.name)
    return CoreSources(newest / "src" / "lean", m.group(1) if m else "")


def release_of(path: Path) -> str:
    """The release of the toolchain whose core sources `path` is (`.../toolchains/<name>/src/lean`),
    or "" when `path` is not a toolchain's."""
    path = Path(path).resolve()
    if path.name != "lean" or path.parent.name != "src":
        return ""
    m = _RELEASE.search(path.parent.parent.name)
    return m.group(1) if m else ""
