"""An index directory loaded into memory, ready for the engine.

Everything that a query needs is here; loading verifies the manifest first so that a damaged
or mismatched index is refused with a clear message rather than giving wrong answers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from search import config
from search.index.dense import DenseIndex
from search.index.embed import Embedder
from search.index.lexical import LexicalIndex
from search.index.manifest import RECORDS, IndexLoadError, read_manifest, verify_files
from search.index.meta import DIRECTORY as META, load_meta
from search.index.patterns import DIRECTORY as PATTERNS, PatternIndex
from search.index.postgres.schema import is_postgres_address
from search.index.signals import DenseSignal, LexicalSignal
from search.record import RecordTable, Statement, read_records


@dataclass
class Index:
    """Records and the per-signal indexes over them (all aligned by record position)."""

    #: Where it was read from: an index directory, or a `postgresql://` address.
    directory: Path | str
    manifest: dict[str, Any]
    records: RecordTable
    #: The signals the engine ranks by: files in the directory (BM25+ postings, FAISS), or SQL.
    lexical: LexicalSignal
    names: LexicalSignal
    dense: DenseSignal
    pagerank: np.ndarray
    dependents: np.ndarray
    #: The Lean statements as trees, for Loogle's patterns; None for an index built before them.
    patterns: PatternIndex | None = None
    #: Record id -> position, made from the records.
    position: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.position = {record_id: i for i, record_id in enumerate(self.records.column("id"))}

    @classmethod
    def load(cls, directory: Path | str, verify: bool = True) -> "Index":
        """Load an index built by `python -m search build`; raises IndexLoadError if unusable."""
        with cls.loading(directory, verify) as index:
            return index

    @classmethod
    @contextmanager
    def loading(cls, directory: Path | str, verify: bool = True) -> Iterator["Index"]:
        """`load`, with the work of the `with` block (a server building its engine) done while
        the files are checked against the manifest (`verify_files`, on a thread: hashing
        releases the GIL); the block's end waits for the check and raises IndexLoadError if it
        failed. A failure to read a file, or any in the block, is reported as the check finds
        the files (changed, missing) when it finds them so."""
        directory = Path(directory)
        manifest = read_manifest(directory, verify=False)
        with ThreadPoolExecutor(max_workers=1) as pool:
            check = pool.submit(verify_files, directory, manifest) if verify else None
            try:
                yield cls._read(directory, manifest)
            finally:
                if check is not None:
                    check.result()

    @classmethod
    def _read(cls, directory: Path, manifest: dict[str, Any]) -> "Index":
        try:
            index = cls(
                directory=directory,
                manifest=manifest,
                records=read_records(directory / RECORDS, load_meta(directory / META)),
                lexical=LexicalIndex.load(directory / "bm25_main"),
                names=LexicalIndex.load(directory / "bm25_names"),
                dense=DenseIndex.load(directory / "dense"),
                pagerank=np.load(directory / "pagerank.npy"),
                dependents=np.load(directory / "dependents.npy"),
                patterns=PatternIndex.load(directory / PATTERNS) if (directory / PATTERNS).is_dir() else None,
            )
        except (OSError, ValueError, RuntimeError) as error:
            raise IndexLoadError(f"{directory} could not be read ({error})") from error
        sizes = {len(index.records), index.lexical.size, index.names.size, len(index.pagerank)}
        if index.patterns is not None:
            sizes.add(len(index.patterns.offsets) - 1)
        if len(sizes) != 1 or int(index.dense.rows.max(initial=-1)) >= len(index.records):
            raise IndexLoadError(f"{directory}: its files disagree on the number of records")
        return index

    @property
    def model(self) -> str:
        """The embedding model of the index: the directory it carries (`model_dir`), else the
        name or path it was built with."""
        carried = self.manifest.get("model_dir")
        if carried and isinstance(self.directory, Path):
            return str(self.directory / carried)
        return str(self.manifest["model"])

    @cached_property
    def embedder(self) -> Embedder:
        """The model and backend the index was embedded with, for embedding queries."""
        return self.load_embedder()

    def load_embedder(self, threads: int = config.SEARCH_THREADS) -> Embedder:
        """Load the query encoder now, on `threads` threads (0: one per core), as `embedder`
        from then on. One per model, settings and thread count in a process, so that a server
        of several indexes loads it once; each worker of the multi-worker server loads its own
        after the fork (search/api/workers.py)."""
        settings = self.manifest["embedding"]
        embedder = _shared_embedder(self.model, settings["backend"], settings["max_length"], threads)
        self.__dict__["embedder"] = embedder
        return embedder

    @cached_property
    def pagerank_max(self) -> float:
        """The largest PageRank, which PageRank priors divide by (0.0 for an empty index)."""
        return float(self.pagerank.max(initial=0.0))

    @cached_property
    def by_name(self) -> "NamePositions":
        """Lowercased full name -> record positions (names are unique per source, not across)."""
        return NamePositions([name.lower() for name in self.records.column("name")])

    def get(self, record_id: str) -> Statement | None:
        position = self.position.get(record_id)
        return None if position is None else self.records[position]

    @property
    def version(self) -> str:
        """Human-readable index version: corpus commits and build date."""
        commits = ", ".join(
            f"{name}@{info['commit'][:8]}" if info.get("commit") else name
            for name, info in self.manifest.get("sources", {}).items()
        )
        return f"built {self.manifest.get('build_date', '?')} from {commits}"


class NamePositions(Mapping[str, list[int]]):
    """Names -> the positions of the records so named, in order: `names[i]` is the name of the
    record at `positions[i]` (at `i` without `positions`).

    Nearly every name is held once, so each maps to one int in a dict made at C speed, and only
    the few names held more than once get a list: a dict of 315k one-item lists took 0.5 s of
    every start and 20 MB more."""

    def __init__(self, names: list[str], positions: Sequence[int] | None = None) -> None:
        positions = range(len(names)) if positions is None else positions
        #: Each name's position (the last, for a name held more than once: see `_repeated`).
        self._position = dict(zip(names, positions))
        self._repeated: dict[str, list[int]] = {}
        if len(self._position) < len(names):
            repeated = {name for name, count in Counter(names).items() if count > 1}
            for position, name in zip(positions, names):
                if name in repeated:
                    self._repeated.setdefault(name, []).append(position)

    def __getitem__(self, name: str) -> list[int]:
        repeated = self._repeated.get(name)
        return [self._position[name]] if repeated is None else list(repeated)

    def __contains__(self, name: object) -> bool:
        return name in self._position

    def __iter__(self) -> Iterator[str]:
        return iter(self._position)

    def __len__(self) -> int:
        return len(self._position)


def open_index(spec: Path | str) -> Index:
    """The index at `spec`: a directory built by `python -m search build`, or a
    `postgresql://...[#SCHEMA]` address that `python -m search load-postgres` loaded."""
    with opening_index(spec) as index:
        return index


@contextmanager
def opening_index(spec: Path | str) -> Iterator[Index]:
    """`open_index`, with the `with` block's work done while a directory's files are checked
    (`Index.loading`)."""
    if is_postgres_address(str(spec)):
        from search.index.postgres.store import open_postgres

        yield open_postgres(str(spec))
        return
    with Index.loading(spec) as index:
        yield index


@cache
def _shared_embedder(model: str, backend: str, max_length: int, threads: int) -> Embedder:
    return Embedder(model, backend, max_length, threads=threads)
