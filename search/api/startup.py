"""What a server makes as it starts (the index, its tables, the APIs) lives as long as the
server, and that is millions of Python objects. Python's cyclic collector runs a full
collection each time enough objects have been made since the last, and each one walks every
tracked object: over the full default index, loading it and making the APIs ran seven, and
took 1.1-1.8 s longer than with the collector off (three alternations in one session). The
same heap, left tracked, is walked again by every full collection while the server answers
queries: frozen, the API alone answered 98-103 requests/s at 16 clients where it answered
82-90 (three alternations of `python -m eval bench throughput`'s load, on a slow machine).

`long_lived` turns the collector off while a server starts and moves what it made into the
permanent generation (`gc.freeze`), which collections skip; the multi-worker server also needs
the freeze so that the workers' collections do not write to the pages they share with their
parent (search/api/workers.py).

`importing_meanwhile` imports the interfaces' libraries (FastAPI with pydantic, the MCP SDK,
Gradio) on a thread while the index is read: reading and hashing its files release the GIL,
so part of the import runs on the other core.
"""

from __future__ import annotations

import gc
import importlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: What the HTTP APIs import beyond the index: FastAPI (with pydantic) and the MCP SDK.
API_LIBRARIES = ("fastapi", "mcp.server.mcpserver")
#: What the search page imports as well.
PAGE_LIBRARIES = (*API_LIBRARIES, "gradio")


@contextmanager
def long_lived(dropping: bool = False) -> Iterator[None]:
    """The `with` block's objects made without cyclic collections, then frozen (see the
    module's doc). A first start leaves a few thousand objects of cyclic garbage, frozen with
    the rest rather than found by a full collection of the new heap (0.2-0.3 s). With
    `dropping` (a swap, whose block replaces the index it served), the earlier start's frozen
    objects are unfrozen first and the garbage is collected at the end, so that the old index
    is freed rather than frozen again."""
    if dropping:
        gc.unfreeze()
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if dropping:
            gc.collect()
        gc.freeze()
        if enabled:
            gc.enable()


@contextmanager
def importing_meanwhile(modules: tuple[str, ...]) -> Iterator[None]:
    """Import `modules` on a thread while the `with` block runs; the block's end waits for them.

    Two threads importing modules that import each other in opposite orders can deadlock on
    the import locks, so the block must import nothing that `modules` import: what loading an
    index imports (`search.api.indexes` imports it all) is imported here first, and `modules`
    are third-party libraries the index does not use. An import that fails on the thread fails
    again, with its traceback, where the server imports the module itself."""
    importlib.import_module("search.api.indexes")
    thread = threading.Thread(target=_import_all, args=(modules,), name="importing", daemon=True)
    thread.start()
    try:
        yield
    finally:
        thread.join()


def _import_all(modules: tuple[str, ...]) -> None:
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception:  # re-raised where the server imports it (see importing_meanwhile)
            return
