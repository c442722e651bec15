"""The statement record: the one unit every stage of the pipeline handles.

Formal (Lean declarations) and informal (LaTeX theorem-like environments) statements share
this type so that one index, one ranking and one set of interfaces serve both.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import pyarrow as pa
import pyarrow.parquet as pq

@dataclass(slots=True)
class Statement:
    """One searchable statement.

    `id` is `<source>:<name>` and stable across builds of the same corpus commit.
    `language` says how `statement` is written: `lean` (formal) or `latex` (informal).
    `group` is the id of the StatementGroup head (itself when the record heads its group).
    `deps` and `links` hold ids; `meta` holds source-specific filter metadata (chapter,
    section, Stacks tag, arXiv category, authors, year, ...) as plain JSON values.
    """

    id: str
    source: str
    kind: str
    name: str
    statement: str
    language: str = "lean"
    doc: str = ""
    module: str = ""
    path: str = ""
    line: int = 0
    end_line: int = 0
    url: str = ""
    doc_url: str = ""
    package: str = ""
    group: str = ""
    deps: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    attributes: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def formal(self) -> bool:
        return self.language == "lean"


_LIST = pa.list_(pa.string())
SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("source", pa.string()),
        ("kind", pa.string()),
        ("name", pa.string()),
        ("statement", pa.string()),
        ("language", pa.string()),
        ("doc", pa.string()),
        ("module", pa.string()),
        ("path", pa.string()),
        ("line", pa.int32()),
        ("end_line", pa.int32()),
        ("url", pa.string()),
        ("doc_url", pa.string()),
        ("package", pa.string()),
        ("group", pa.string()),
        ("deps", _LIST),
        ("links", _LIST),
        ("aliases", _LIST),
        ("attributes", _LIST),
        ("meta", pa.string()),
    ]
)


def write_parquet(statements: Iterable[Statement], path: Path) -> None:
    """Write records to a Parquet file with the fixed schema (zstd-compressed), column-wise."""
    statements = list(statements)
    columns = {
        name: [getattr(s, name) for s in statements] for name in SCHEMA.names if name != "meta"
    }
    columns["meta"] = [json.dumps(s.meta, ensure_ascii=False, sort_keys=True) for s in statements]
    pq.write_table(pa.table(columns, schema=SCHEMA), path, compression="zstd")


_SHARED_STRINGS = ("source", "kind", "name", "language", "module", "path", "package", "group")


def read_parquet(path: Path) -> list[Statement]:
    """Read records written by `write_parquet` (column-wise: ~300k records in seconds)."""
    columns = pq.read_table(path, schema=SCHEMA).to_pydict()
    metas = [json.loads(m or "{}") for m in columns.pop("meta")]
    # One string object per distinct value: kinds, modules and paths repeat, and every
    # dependency is some record's name (a third of the records' memory otherwise).
    for key in _SHARED_STRINGS:
        columns[key] = [sys.intern(v) for v in columns[key]]
    columns["deps"] = [[sys.intern(d) for d in deps] for deps in columns["deps"]]
    names = list(columns)
    return [
        Statement(**dict(zip(names, values)), meta=meta)
        for values, meta in zip(zip(*columns.values()), metas)
    ]
