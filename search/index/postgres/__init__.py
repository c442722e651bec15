"""An index in PostgreSQL: records as rows, vectors in pgvector, BM25 from pg_textsearch.

`python -m search load-postgres INDEX_DIR --dsn postgresql://...` loads a built index
(`load.py`); `--index postgresql://...` serves it (`store.py`), the engine asking the same
questions of SQL (`signals.py`) as of the files of an index directory.
"""
