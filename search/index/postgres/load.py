"""`python -m search load-postgres INDEX_DIR --dsn postgresql://...`: a built index into one
schema of a PostgreSQL database (layout: search/index/postgres/schema.py).

The index directory is verified first (its manifest), the schema is written in one
transaction (a failed load leaves nothing behind) and replaces an earlier load of the same
version. Records and vectors go in with binary `COPY`; the indexes are built after the rows.
"""

from __future__ import annotations

import json
import logging
import struct
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, cast

import numpy as np
import psycopg
import pyarrow as pa

from search import config
from search.index.build import lexical_documents, name_documents, timed
from search.index.dense import DenseIndex
from search.index.lexical import PARAMS
from search.index.manifest import IndexLoadError
from search.index.patterns import DIRECTORY as PATTERNS
from search.index.postgres.connection import connect, one_line, redacted
from search.index.postgres.schema import (
    BM25_INDEXES, FILTER_COLUMNS, IN_PROCESS, REGISTRY, TEXTSEARCH, quoted, schema_name, words,
)
from search.index.store import Index
from search.record import SCHEMA

log = logging.getLogger(__name__)

#: Records turned into rows at a time.
BATCH = 10_000
_LIST_COLUMNS = {"deps", "links", "aliases", "attributes"}
_INT_COLUMNS = {"line", "end_line"}


@dataclass
class LoadReport:
    """What a load wrote and how long each step took (seconds)."""

    schema: str
    records: int
    vectors: int
    lexical: str
    quantisation: str
    seconds: dict[str, float] = field(default_factory=dict)


def load_postgres(
    directory: Path, dsn: str, binary: bool = False, textsearch: bool = True, schema: str | None = None
) -> LoadReport:
    """Load the index at `directory` into the database at `dsn`; IndexLoadError (one line) when
    the index, the server or an extension it needs is unusable. With `textsearch` False, or
    when the server lacks pg_textsearch, the BM25+ files are stored for the app to score in
    process; `binary` adds an HNSW index over binary-quantised vectors. `schema` defaults to
    the index's version (`schema_name`)."""
    index = Index.load(directory)
    seconds: dict[str, float] = {}
    schema = schema or schema_name(index.manifest)
    with connect(dsn) as connection:
        require_extension(connection, "vector")
        if textsearch and not _available(connection, "pg_textsearch"):
            log.warning("%s has no pg_textsearch: BM25+ will be scored in the app's process", redacted(dsn))
            textsearch = False
        if textsearch:
            require_extension(connection, "pg_textsearch")
        lexical = TEXTSEARCH if textsearch else IN_PROCESS
        try:
            with connection.transaction():
                _load(connection, index, Path(directory), schema, lexical, binary, seconds)
        except psycopg.Error as error:
            raise IndexLoadError(f"loading {directory} into {redacted(dsn)} failed ({one_line(error)})") from error
    vectors = len(cast(DenseIndex, index.dense).rows)
    return LoadReport(schema, len(index.records), vectors, lexical, "binary" if binary else "none", seconds)


def _available(connection: psycopg.Connection, extension: str) -> bool:
    return connection.execute("SELECT 1 FROM pg_available_extensions WHERE name = %s", (extension,)).fetchone() is not None


def require_extension(connection: psycopg.Connection, extension: str) -> None:
    """CREATE EXTENSION, or IndexLoadError saying what the server lacks."""
    try:
        connection.execute(f"CREATE EXTENSION IF NOT EXISTS {extension}")
    except psycopg.Error as error:
        raise IndexLoadError(
            f"the PostgreSQL server cannot provide the extension {extension} ({one_line(error)}); "
            "see docs/postgres.md"
        ) from error


def _load(
    connection: psycopg.Connection, index: Index, directory: Path, schema: str, lexical: str, binary: bool,
    seconds: dict[str, float],
) -> None:
    s = quoted(schema)
    connection.execute(f"DROP SCHEMA IF EXISTS {s} CASCADE")
    connection.execute(f"CREATE SCHEMA {s}")
    connection.execute("SET LOCAL maintenance_work_mem = '1GB'")
    connection.execute("SET LOCAL max_parallel_maintenance_workers = 1")
    dense = cast(DenseIndex, index.dense)
    with timed(seconds, "records"):
        statistics = _records(connection, index, s, lexical == TEXTSEARCH)
    with timed(seconds, "vectors"):
        copy_vectors(connection, s, dense.dimension, dense.rows, dense.reconstruct)
    with timed(seconds, "btree"):
        for column in FILTER_COLUMNS:
            connection.execute(f"CREATE INDEX ON {s}.records ({quoted(column)})")
        connection.execute(f"CREATE INDEX ON {s}.records (lower(name) text_pattern_ops)")
    if lexical == TEXTSEARCH:
        with timed(seconds, "bm25"):
            for column, name in BM25_INDEXES.items():
                connection.execute(
                    f"CREATE INDEX {name} ON {s}.records USING bm25 ({column}) "
                    f"WITH (text_config = 'simple', k1 = {PARAMS['k1']}, b = {PARAMS['b']})"
                )
    _files(connection, directory, s, ([PATTERNS] if (directory / PATTERNS).is_dir() else [])
           + ([] if lexical == TEXTSEARCH else ["bm25_main", "bm25_names"]))
    with timed(seconds, "hnsw"):
        vector_index(connection, s, dense.dimension, binary=False)
    if binary:
        with timed(seconds, "binary_hnsw"):
            vector_index(connection, s, dense.dimension, binary=True)
    info = {
        "manifest": index.manifest, "lexical": lexical, "quantisation": "binary" if binary else "none",
        "dimension": dense.dimension, "views_per_record": dense.views_per_record, "source": str(directory),
        "bm25": statistics,
    }
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE {s}.info (key text PRIMARY KEY, value jsonb NOT NULL)")
        cursor.executemany(f"INSERT INTO {s}.info VALUES (%s, %s)",
                           [(key, json.dumps(value)) for key, value in info.items()])
    connection.execute(f"ANALYZE {s}.records")
    connection.execute(f"ANALYZE {s}.vectors")
    connection.execute(
        f"CREATE TABLE IF NOT EXISTS {REGISTRY} (schema text PRIMARY KEY, version text NOT NULL, "
        "source text NOT NULL, loaded_at timestamptz NOT NULL DEFAULT now())"
    )
    connection.execute(
        f"INSERT INTO {REGISTRY} (schema, version, source) VALUES (%s, %s, %s) ON CONFLICT (schema) "
        "DO UPDATE SET version = excluded.version, source = excluded.source, loaded_at = now()",
        (schema, index.version, str(directory)),
    )


def _records(connection: psycopg.Connection, index: Index, s: str, textsearch: bool) -> dict[str, dict[str, float]]:
    """Every record as a row: its fields, priors and lexical texts (binary COPY); with
    `textsearch`, the BM25+ statistics of each lexical text: every word's document frequency in
    `terms`, and the number of documents and their average length, returned."""
    fields = [(name, "text[]" if name in _LIST_COLUMNS else "int4" if name in _INT_COLUMNS else "text")
              for name in SCHEMA.names]
    columns = ", ".join(f"{quoted(name)} {kind} NOT NULL" for name, kind in fields)
    connection.execute(
        f"CREATE TABLE {s}.records (position int4 PRIMARY KEY, {columns}, pagerank float4 NOT NULL, "
        "dependents int4 NOT NULL, lexical text NOT NULL, name_words text NOT NULL)"
    )
    names = ["position", *SCHEMA.names, "pagerank", "dependents", "lexical", "name_words"]
    types = ["int4", *(kind for _, kind in fields), "float4", "int4", "text", "text"]
    if textsearch:
        statements = list(index.records)
        lexical = [words(tokens) for tokens in lexical_documents(statements)]
        named = [words(tokens) for tokens in name_documents(statements)]
        del statements
    else:  # BM25+ is scored in the app from the index's own files
        lexical = named = [""] * len(index.records)
    with connection.cursor() as cursor:
        with cursor.copy(f"COPY {s}.records ({', '.join(quoted(n) for n in names)}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(types)
            for start, batch in _batches(index.records.table):
                columns = [batch.column(name).to_pylist() for name in SCHEMA.names]
                for offset, values in enumerate(zip(*columns)):
                    position = start + offset
                    copy.write_row((
                        position, *values, float(index.pagerank[position]), int(index.dependents[position]),
                        lexical[position], named[position],
                    ))
    if not textsearch:
        return {}
    connection.execute(f"CREATE TABLE {s}.terms (part text NOT NULL, word text NOT NULL, documents int4 NOT NULL, "
                       "PRIMARY KEY (part, word))")
    return {"lexical": _terms(connection, s, "lexical", lexical), "name_words": _terms(connection, s, "name_words", named)}


def _terms(connection: psycopg.Connection, s: str, part: str, texts: list[str]) -> dict[str, float]:
    """The document frequency of every word of `texts` into `terms`; the number of documents
    and their average length in words (an empty one counting 1, as bm25s counts it)."""
    frequencies: Counter[str] = Counter()
    total = 0
    for text in texts:
        tokens = text.split()
        frequencies.update(set(tokens))
        total += len(tokens) or 1
    with connection.cursor() as cursor:
        with cursor.copy(f"COPY {s}.terms (part, word, documents) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["text", "text", "int4"])
            for word, count in frequencies.items():
                copy.write_row((part, word, count))
    return {"documents": len(texts), "average_length": total / max(len(texts), 1)}


def _batches(table: pa.Table) -> Iterator[tuple[int, pa.RecordBatch]]:
    """The table's record batches, each with the position of its first row."""
    start = 0
    for batch in table.to_batches(max_chunksize=BATCH):
        yield start, batch
        start += batch.num_rows


def copy_vectors(connection: psycopg.Connection, s: str, dimension: int, positions: np.ndarray,
                 vectors: Callable[[np.ndarray], np.ndarray]) -> None:
    """The table `vectors` of schema `s`: row i holds `positions[i]` (its record's position) and
    `vectors(rows)[i]`, written as one binary COPY stream built with numpy (pgvector's binary
    form: dimension, 0, then big-endian float4s). `vectors` gives the vectors of an array of row
    numbers (the dense index's `reconstruct`; the benchmark's synthetic vector file)."""
    d = dimension
    connection.execute(f"CREATE TABLE {s}.vectors (row int4 PRIMARY KEY, position int4 NOT NULL, embedding vector({d}) NOT NULL)")
    connection.execute(f"CREATE INDEX ON {s}.vectors (position)")
    row = np.dtype([("fields", ">i2"), ("l1", ">i4"), ("row", ">i4"), ("l2", ">i4"), ("position", ">i4"),
                    ("l3", ">i4"), ("dim", ">i2"), ("unused", ">i2"), ("vector", ">f4", (d,))])
    with connection.cursor() as cursor:
        with cursor.copy(f"COPY {s}.vectors (row, position, embedding) FROM STDIN (FORMAT BINARY)") as copy:
            copy.write(b"PGCOPY\n\xff\r\n\0" + struct.pack(">ii", 0, 0))
            total = len(positions)
            for start in range(0, total, BATCH):
                stop = min(start + BATCH, total)
                rows = np.zeros(stop - start, dtype=row)
                rows["fields"], rows["l1"], rows["l2"], rows["l3"] = 3, 4, 4, 4 + 4 * d
                rows["row"] = np.arange(start, stop)
                rows["position"] = positions[start:stop]
                rows["dim"] = d
                rows["vector"] = vectors(np.arange(start, stop))
                copy.write(rows.tobytes())
            copy.write(struct.pack(">h", -1))


def vector_index(connection: psycopg.Connection, s: str, dimension: int, binary: bool) -> str:
    """Build the HNSW index over `vectors` of schema `s` that the backend searches
    (search/index/postgres/signals.py `VectorSignal`), with FAISS's `m` and `ef_construction`:
    by inner product over the full vectors (`vectors_hnsw`), or, `binary`, by Hamming distance
    over their binary quantisation (`vectors_binary_hnsw`). Its name."""
    hnsw = f"WITH (m = {config.DENSE_HNSW_NEIGHBOURS}, ef_construction = {config.DENSE_HNSW_EF_CONSTRUCTION})"
    if binary:
        connection.execute(f"CREATE INDEX vectors_binary_hnsw ON {s}.vectors USING hnsw "
                           f"((binary_quantize(embedding)::bit({dimension})) bit_hamming_ops) {hnsw}")
        return "vectors_binary_hnsw"
    connection.execute(f"CREATE INDEX vectors_hnsw ON {s}.vectors USING hnsw (embedding vector_ip_ops) {hnsw}")
    return "vectors_hnsw"


def _files(connection: psycopg.Connection, directory: Path, s: str, parts: list[str]) -> None:
    """The files of these parts of the index directory, read by the app at start: Loogle's
    pattern index, and the BM25+ files (bm25s's format) when BM25+ is scored in process."""
    connection.execute(f"CREATE TABLE {s}.files (path text PRIMARY KEY, content bytea NOT NULL)")
    with connection.cursor() as cursor:
        for part in parts:
            for path in sorted((directory / part).iterdir()):
                cursor.execute(f"INSERT INTO {s}.files VALUES (%s, %s)", (f"{part}/{path.name}", path.read_bytes()))
