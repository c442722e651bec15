"""Theorem search: formal (Lean) and informal (LaTeX) mathematical statements in one index.

The public API, importable from here::

    from search import Engine, Index, build_index, BuildOptions
    build_index(Path("index"), BuildOptions(sources=["batteries", "hott"]))
    engine = Engine(Index.load("index"))
    for result in engine.search("fundamental theorem of calculus", k=5):
        print(result.rank, result.statement.id, result.score)

Ranking variants are in `search.engine.variants` (`register` adds one); corpus formats in
`search.corpus.formats`. The names are loaded on first use, so that `import search.config`
(or the command line's `--help`) does not load numpy, FAISS and the model runtime.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from search.engine.engine import Engine, Result
    from search.engine.ranking import Fusion, Ranking
    from search.index.build import BuildOptions, build_index
    from search.index.store import Index
    from search.record import Statement

#: Public name -> the module that defines it.
_PUBLIC = {
    "Engine": "search.engine.engine",
    "Result": "search.engine.engine",
    "Ranking": "search.engine.ranking",
    "Fusion": "search.engine.ranking",
    "Index": "search.index.store",
    "BuildOptions": "search.index.build",
    "build_index": "search.index.build",
    "Statement": "search.record",
}
__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'search' has no attribute {name!r}")
    return getattr(import_module(_PUBLIC[name]), name)
