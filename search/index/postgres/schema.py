"""The layout of an index in PostgreSQL, shared by the loader and the backend.

Each loaded index is one schema, named after its version (build date and a digest of its
files), so that several versions live side by side in one database; `public.theorem_search_indexes`
lists them. In a schema:

- `records`: one row per record at its position, every field of `search.record.SCHEMA` as a
  plain column (lists as `text[]`, `meta` as its JSON text), the graph priors (`pagerank`,
  `dependents`), the lexical texts (`lexical`, `name_words`) with a pg_textsearch BM25 index
  each, and B-tree indexes on the filter columns;
- `vectors`: one row per dense view, its record's position and the embedding, under an HNSW
  index (inner product), and with `--binary` an HNSW index over the binary-quantised vectors;
- `info`: the manifest and how the index was loaded (`lexical`, `quantisation`, ...);
- `files`: files of the index directory the app reads into its process: Loogle's pattern
  index, and the BM25+ files when the lexical signals stay in process (no pg_textsearch).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

#: The table listing every loaded index (schema, version, when).
REGISTRY = "public.theorem_search_indexes"
#: Record fields whose values the engine filters on, each under a B-tree index.
FILTER_COLUMNS = ("source", "kind", "package", "module", "group", "language")
#: The BM25 indexes over the two lexical texts (pg_textsearch).
BM25_INDEXES = {"lexical": "records_lexical_bm25", "name_words": "records_names_bm25"}
#: How the lexical signals are answered: pg_textsearch's BM25 in SQL, or BM25+ in process.
TEXTSEARCH, IN_PROCESS = "pg_textsearch", "process"

_PLAIN_WORD = re.compile(r"[a-z]+")
#: How an index address on a PostgreSQL server begins.
PREFIXES = ("postgresql://", "postgres://")


def is_postgres_address(spec: str) -> bool:
    return str(spec).startswith(PREFIXES)


def schema_name(manifest: dict[str, Any]) -> str:
    """`index_<build date digits>_<8 hex of the files' digests>`: one schema per version."""
    date = re.sub(r"\D", "", str(manifest.get("build_date", "")))[:14] or "undated"
    files = json.dumps(manifest.get("files", {}), sort_keys=True).encode("utf-8")
    return f"index_{date}_{hashlib.sha256(files).hexdigest()[:8]}"


def quoted(identifier: str) -> str:
    """A PostgreSQL identifier in double quotes (schemas named here, `group`)."""
    return '"' + identifier.replace('"', '""') + '"'


def words(tokens: list[str]) -> str:
    """Tokens as text that PostgreSQL's parser splits back into exactly these tokens.

    The tokenizer's tokens hold dots, underscores, digits and any Unicode letter or symbol
    (`nat.succ_le_succ`, `∑`), which the `simple` text search configuration would split or
    drop. A token of ASCII letters stays as it is; any other becomes `x0` and its UTF-8 bytes
    in hex, one word of letters and digits that no plain token equals (it holds a digit).
    """
    return " ".join(t if _PLAIN_WORD.fullmatch(t) else "x0" + t.encode("utf-8").hex() for t in tokens if t)
