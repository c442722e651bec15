"""Lean declarations written as the shared corpus's JSON lines, for tests that build an index of
a few: each row gives what it is about, the fields a reader needs and nobody looks at are filled."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Mapping

#: A theorem of no namespace in `Mathlib.X`, without docstring, attributes or references.
DEFAULTS: Mapping[str, Any] = {
    "kind": "theorem", "docstring": None, "attributes": [], "attribute_args": [], "module": "Mathlib.X",
    "namespace": "", "refs": [], "fields": [], "constructors": [], "line": 1, "end_line": 2, "path": "x.lean",
    "url": "", "commit": "",
}


def write_lean_lines(path: Path, declarations: Iterable[Mapping[str, Any]]) -> Path:
    """`path` holding one JSON line per declaration (`DEFAULTS` below each row's own fields)."""
    path.write_text("".join(json.dumps({**DEFAULTS, **row}) + "\n" for row in declarations), encoding="utf-8")
    return path
