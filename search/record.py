"""The statement record: the one unit every stage of the pipeline handles.

Formal (Lean declarations) and informal (LaTeX theorem-like environments) statements share
this type so that one index, one ranking and one set of interfaces serve both.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import Any, overload

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc

@dataclass(slots=True)
class Statement:
    """One searchable statement.

    `id` is `<source>:<name>` and stable across builds of the same corpus commit.
    `language` says how `statement` is written: `lean` (formal) or `latex` (informal).
    `doc` is the statement's own text (docstring, slogan, rendered LaTeX); `informal` is what
    its authors say of it elsewhere (the module doc's line naming it, its structure's docstring
    for a field), text made without an LLM that the search reads beside `doc`;
    `informal_statement` is a Lean statement said in English by the structural informaliser
    (search/corpus/lean/informaliser.py: generated, never an author's; `meta` says which
    lexicon sources its phrases came from, `informal_statement_from`).
    `group` is the id of the StatementGroup head (itself when the record heads its group).
    `deps` and `links` hold ids; `meta` holds source-specific filter metadata (chapter,
    section, Stacks tag, arXiv category, authors, year, ...) as plain JSON values.
    """

    id: str
    source: str
    kind: str
    name: str
    statement: str
    language: str
    doc: str = ""
    informal: str = ""
    informal_statement: str = ""
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

    @property
    def deprecation(self) -> str:
        """What the record's `@[deprecated]` says, as a sentence ("" when it is not deprecated):
        `Deprecated since 2025-01-01: use left_distrib.` (`meta["deprecated"]`, from the Lean
        source: `search.corpus.lean.attributes.deprecation`)."""
        deprecated = self.meta.get("deprecated")
        if not isinstance(deprecated, dict):
            return ""
        since = f" since {deprecated['since']}" if deprecated.get("since") else ""
        use = f": use {deprecated['use']} instead" if deprecated.get("use") else ""
        message = f" ({deprecated['message']})" if deprecated.get("message") else ""
        return f"Deprecated{since}{use}{message}."


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
        ("informal", pa.string()),
        ("informal_statement", pa.string()),
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


def write_records(statements: Iterable[Statement], path: Path) -> None:
    """Write records with the fixed schema to an Arrow IPC file (`read_records`), column-wise,
    uncompressed and in one record batch, so that reading it maps the file instead of
    decoding it."""
    statements = list(statements)
    columns = {
        name: [getattr(s, name) for s in statements] for name in SCHEMA.names if name != "meta"
    }
    columns["meta"] = [json.dumps(s.meta, ensure_ascii=False, sort_keys=True, allow_nan=False) for s in statements]
    table = pa.table(columns, schema=SCHEMA).combine_chunks()
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, SCHEMA) as writer:
        writer.write_table(table, max_chunksize=max(table.num_rows, 1))


#: Rows per record batch turned into Statements at a time when iterating over every record.
BATCH_ROWS = 10_000


class RecordTable(Sequence[Statement]):
    """The records of an index as one Arrow table, read as Statements one row or a few rows
    at a time.

    Why: 315k records as Statement objects cost 1.28 GB of Python objects; the same columns as
    Arrow buffers cost ~290 MB. Serving needs a handful of whole records per query (the k
    results) and, at startup, a few fields of every record (ids, names, groups, filter values),
    which `column`, `encode` and `encode_meta` give as plain values or integer codes without a
    Statement per record; `table` is there for vectorised `pyarrow.compute` scans. Iterating
    still yields every Statement, batch by batch, for offline users (evaluation, benchmarks).
    """

    def __init__(self, table: pa.Table, meta_columns: "MetaColumns | None" = None) -> None:
        # One chunk per column: `take` on a chunked column concatenates its chunks first, a
        # copy of the whole column on every call.
        self.table = table.combine_chunks()
        self._meta_columns = meta_columns

    def __len__(self) -> int:
        return self.table.num_rows

    @overload
    def __getitem__(self, index: int) -> Statement: ...

    @overload
    def __getitem__(self, index: slice) -> list[Statement]: ...

    def __getitem__(self, index: int | slice) -> Statement | list[Statement]:
        positions = range(len(self))[index]
        return self.take(positions) if isinstance(positions, range) else self.take([positions])[0]

    def __iter__(self) -> Iterator[Statement]:
        for batch in self.table.to_batches(max_chunksize=BATCH_ROWS):
            yield from _statements(batch)

    def take(self, positions: Sequence[int] | np.ndarray) -> list[Statement]:
        """The records at `positions`, in that order (a result list, one call for all)."""
        return _statements(self.table.take(pa.array(positions, pa.int64())))

    def column(self, name: str, positions: Sequence[int] | np.ndarray | None = None) -> list[Any]:
        """One field of every record (or of those at `positions`) as Python values, `meta`
        parsed."""
        values = self.table[name] if positions is None else self.table[name].take(pa.array(positions, pa.int64()))
        return _parsed(name, values.to_pylist())

    def distinct(self, name: str) -> list[Any]:
        """The distinct values of a field (`meta` parsed), in the order records first have them."""
        return _parsed(name, pc.unique(self.table[name]).to_pylist())

    def encode(self, name: str) -> tuple[list[Any], np.ndarray]:
        """`distinct`, with each record's number in that list: a filter over 300k records
        becomes integer comparisons."""
        values = self.table[name]
        distinct = pc.unique(values)
        codes = pc.index_in(values, value_set=distinct).to_numpy()
        return _parsed(name, distinct.to_pylist()), codes

    def encode_meta(self, key: str) -> tuple[list[Any], np.ndarray]:
        """`encode` for one metadata key: its distinct values and each record's number in
        that list, -1 for the records without the key."""
        return self.meta_columns.encode(key)

    @property
    def meta_keys(self) -> list[str]:
        """The metadata keys some record has, in the order records first have them."""
        return list(self.meta_columns.values)

    @cached_property
    def meta_columns(self) -> "MetaColumns":
        """The records' metadata as numbers: as the index keeps them when given
        (search/index/meta.py), else made from the `meta` strings here."""
        if self._meta_columns is not None:
            return self._meta_columns
        metas, codes = self.encode("meta")
        return MetaColumns.of(metas, codes)


@dataclass(frozen=True)
class MetaColumns:
    """Each record's number among the distinct `meta` objects, and for each metadata key its
    distinct values with the number of its value in each distinct `meta` (-1: absent).

    300k records share ~86k distinct `meta` strings: each is parsed once (`of`) and only the
    values are kept, not a dict per record. Made when the index is built and kept in it
    (search/index/meta.py), since parsing them at every server start took 0.56-0.73 s of it
    over the full default index (with orjson and two dict lookups per value; 1.02-1.12 s with
    json and setdefault, alternated in one process)."""

    codes: np.ndarray
    #: Key -> its distinct values, in the order records first have them.
    values: dict[str, list[Any]]
    #: Key -> the number of its value in each distinct `meta` (one row per key of `values`).
    numbers: np.ndarray

    @classmethod
    def of(cls, metas: list[dict[str, Any]], codes: np.ndarray) -> "MetaColumns":
        """From the distinct `meta` objects and each record's number among them."""
        values: dict[str, list[Any]] = {}
        columns: dict[str, np.ndarray] = {}
        numbering: dict[str, dict[tuple[type, Any], int]] = {}
        for i, meta in enumerate(metas):
            for key, value in meta.items():
                numbers = numbering.get(key)
                if numbers is None:
                    values[key], columns[key] = [], np.full(len(metas), -1, dtype=np.int32)
                    numbers = numbering[key] = {}
                value_key = _value_key(value)
                number = numbers.get(value_key)
                if number is None:
                    number = numbers[value_key] = len(values[key])
                    values[key].append(value)
                columns[key][i] = number
        stacked = np.stack([columns[key] for key in values]) if values else np.zeros((0, len(metas)), np.int32)
        return cls(np.asarray(codes), values, stacked)

    def encode(self, key: str) -> tuple[list[Any], np.ndarray]:
        """The key's distinct values and each record's number in that list (-1: absent)."""
        if key not in self.values:
            return [], np.full(len(self.codes), -1, dtype=np.int32)
        return self.values[key], self.numbers[list(self.values).index(key)][self.codes]


def _value_key(value: Any) -> tuple[type, Any]:
    """A metadata value as a dictionary key that tells apart what JSON tells apart (1, True,
    1.0 and "1" are distinct values): a scalar with its type, a list or object as its JSON."""
    if isinstance(value, (list, dict)):
        return type(value), orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    return type(value), value


def read_records(path: Path, meta_columns: MetaColumns | None = None) -> RecordTable:
    """The records `write_records` wrote (with their `MetaColumns` as the index keeps them,
    when given), memory-mapped: no column is decoded or copied, so
    reading takes milliseconds whatever the size (the zstd Parquet file this replaced took
    0.35-0.9 s to decode at every start over the full default index), the pages a server
    reads are the page cache's, shared by its workers, and the columns no request reads
    (statement texts, URLs) are never read from disk."""
    with pa.memory_map(str(path)) as source:
        table = pa.ipc.open_file(source).read_all()
    for position, column in enumerate(SCHEMA):
        if column.name not in table.schema.names:  # written before the field existed
            table = table.add_column(position, column, pa.nulls(table.num_rows, column.type).fill_null(""))
    return RecordTable(table if table.schema.equals(SCHEMA) else table.cast(SCHEMA), meta_columns)


def _statements(rows: pa.Table | pa.RecordBatch) -> list[Statement]:
    """Rows as Statements, read column by column (faster than a dict per row)."""
    columns = rows.to_pydict()
    columns["meta"] = [_parse_meta(m) for m in columns["meta"]]
    return [Statement(*values) for values in zip(*(columns[f.name] for f in fields(Statement)))]


def _parse_meta(text: str | None) -> dict[str, Any]:
    """A record's `meta` as written by `write_records` (strict JSON: no NaN, which orjson
    refuses)."""
    return orjson.loads(text or "{}")


def _parsed(name: str, values: list[Any]) -> list[Any]:
    return [_parse_meta(v) for v in values] if name == "meta" else values
