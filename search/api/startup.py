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

The interfaces' libraries (FastAPI with pydantic, the MCP SDK, Gradio) are imported after the
index is loaded, not on a thread beside it: since the records and postings are mapped rather
than decoded (index format 2), loading is Python work that holds the GIL, and with the imports
on a thread `--workers 2` answered first after 4.55-5.25 s, with them after the load after
4.33-4.55 s (three alternations); the app took as long either way.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


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
