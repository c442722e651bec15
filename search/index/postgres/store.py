"""An index served from PostgreSQL (`--index postgresql://...[#SCHEMA]`), as an `Index`.

The engine's signals become SQL (search/index/postgres/signals.py): the vectors and the BM25
postings, the bulk of an index, stay in the database. What every query reads of every record
(ids, names, StatementGroups, filter values, priors) is read once into the process, as from
an index directory, so that fusion, priors, groups and filters run unchanged, and so are
the files of Loogle's pattern index and, for a schema loaded without pg_textsearch, the BM25+
files, which are then scored in the process.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import psycopg
import pyarrow as pa

from search import config
from search.index.lexical import LexicalIndex
from search.index.manifest import FORMAT_VERSION, IndexLoadError
from search.index.patterns import DIRECTORY as PATTERNS, PatternIndex
from search.index.postgres.connection import Connections, connect, one_line, redacted, split_address
from search.index.postgres.schema import BM25_INDEXES, REGISTRY, TEXTSEARCH, quoted
from search.index.postgres.signals import TextSearchSignal, VectorSignal
from search.index.signals import LexicalSignal
from search.index.store import Index
from search.record import SCHEMA, RecordTable

log = logging.getLogger(__name__)

#: Records read at a time when the index is opened.
BATCH = 20_000


def open_postgres(spec: str) -> Index:
    """The index at `postgresql://...[#SCHEMA]` (the schema loaded last when none is named);
    IndexLoadError (one line) when the server, the schema or its tables are unusable."""
    dsn, schema = split_address(spec)
    with connect(dsn) as connection:
        try:
            schema = schema or _latest(connection, dsn)
            return _open(connection, dsn, schema)
        except psycopg.Error as error:
            raise IndexLoadError(f"{redacted(dsn)}: the index {schema} could not be read ({one_line(error)})") from error


def session_settings(schema: str, ef_search: int = min(1000, config.DENSE_HNSW_EF_SEARCH)) -> dict[str, Any]:
    """The settings of each connection serving the index in `schema`: its tables first on the
    search path, the HNSW walk's breadth (`ef_search`, at most pgvector's 1000; FAISS's by
    default) and iterative scans, which a filtered search needs to fill its candidates."""
    return {"search_path": f"{quoted(schema)}, public", "hnsw.ef_search": ef_search,
            "hnsw.iterative_scan": "strict_order"}


def _exists(connection: psycopg.Connection, table: str) -> bool:
    """Whether the table `table` (schema-qualified, quoted as needed) exists."""
    found = connection.execute("SELECT to_regclass(%s)", (table,)).fetchone()
    return bool(found and found[0] is not None)


def _latest(connection: psycopg.Connection, dsn: str) -> str:
    row = connection.execute(f"SELECT schema FROM {REGISTRY} ORDER BY loaded_at DESC LIMIT 1").fetchone() \
        if _exists(connection, REGISTRY) else None
    if row is None:
        raise IndexLoadError(f"{redacted(dsn)} holds no index: load one with python -m search load-postgres INDEX_DIR --dsn ...")
    return str(row[0])


def _open(connection: psycopg.Connection, dsn: str, schema: str) -> Index:
    if not _exists(connection, f"{quoted(schema)}.info"):
        raise IndexLoadError(f"{redacted(dsn)} has no index {schema} (python -m search load-postgres loads one)")
    s = quoted(schema)
    info = dict(connection.execute(f"SELECT key, value FROM {s}.info").fetchall())
    found = info["manifest"].get("format_version")
    if found != FORMAT_VERSION:
        raise IndexLoadError(f"{redacted(dsn)}: the index {schema} was loaded from an index of format {found!r}, "
                             f"this code reads format {FORMAT_VERSION}: load a rebuilt index with "
                             "python -m search load-postgres INDEX_DIR --dsn ...")
    records, pagerank, dependents = _records(connection, s)
    connections = Connections(dsn, session_settings(schema))
    with _files(connection, schema) as files:
        if info["lexical"] == TEXTSEARCH:
            lexical: LexicalSignal = TextSearchSignal(connections, "lexical", BM25_INDEXES["lexical"],
                                                      info["bm25"]["lexical"])
            names_signal: LexicalSignal = TextSearchSignal(connections, "name_words", BM25_INDEXES["name_words"],
                                                           info["bm25"]["name_words"])
        else:
            lexical, names_signal = LexicalIndex.load(files / "bm25_main"), LexicalIndex.load(files / "bm25_names")
        patterns = PatternIndex.load(files / PATTERNS) if (files / PATTERNS).is_dir() else None
    index = Index(
        directory=f"{redacted(dsn)}#{schema}",
        manifest=info["manifest"],
        records=records,
        lexical=lexical,
        names=names_signal,
        dense=VectorSignal(connections, int(info["dimension"]), int(info["views_per_record"]),
                           info["quantisation"] == "binary"),
        pagerank=pagerank,
        dependents=dependents,
        patterns=patterns,
    )
    log.info("index %s from %s: %d records, lexical by %s", schema, redacted(dsn), len(records), info["lexical"])
    return index


def _records(connection: psycopg.Connection, s: str) -> tuple[RecordTable, np.ndarray, np.ndarray]:
    """The records as an Arrow table, and their priors, read in batches through a server-side
    cursor (binary rows), so that the whole table is never held as Python tuples at once."""
    names = SCHEMA.names
    batches, pagerank, dependents = [], [], []
    with connection.transaction(), connection.cursor(name="records", binary=True) as cursor:
        cursor.itersize = BATCH
        cursor.execute(
            f"SELECT {', '.join(quoted(n) for n in names)}, pagerank, dependents FROM {s}.records ORDER BY position"
        )
        while rows := cursor.fetchmany(BATCH):
            columns = list(zip(*rows))
            batches.append(pa.record_batch([pa.array(columns[i], SCHEMA.field(n).type) for i, n in enumerate(names)],
                                           schema=SCHEMA))
            pagerank.append(np.asarray(columns[len(names)], dtype=np.float32))
            dependents.append(np.asarray(columns[len(names) + 1], dtype=np.int32))
    table = pa.Table.from_batches(batches, schema=SCHEMA)
    return (RecordTable(table), np.concatenate(pagerank or [np.zeros(0, np.float32)]),
            np.concatenate(dependents or [np.zeros(0, np.int32)]))


@contextmanager
def _files(connection: psycopg.Connection, schema: str) -> Iterator[Path]:
    """A directory holding the schema's `files` (the parts of the index directory the app reads
    in process), removed after loading them: their mapped pages stay readable."""
    staging = Path(tempfile.mkdtemp(prefix="theorem-search-pg-"))
    try:
        if _exists(connection, f"{quoted(schema)}.files"):
            for path, content in connection.execute(f"SELECT path, content FROM {quoted(schema)}.files"):
                (staging / path).parent.mkdir(parents=True, exist_ok=True)
                (staging / path).write_bytes(content)
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)
