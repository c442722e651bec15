"""Engines by name, as the command line gives them.

- `ours:VARIANT` (or `ours`, the default variant): our engine over an index directory;
- `leansearch`, `loogle`, `moogle`, `leanexplore`: the live services (URLs in `search.config`);
- `replay:SERVICE=PATH`: saved answers of SERVICE (e.g. Moogle's) read from PATH.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from eval.engines.base import SearchEngine
from eval.engines.leanexplore import LeanExploreClient
from eval.engines.leansearch import LeanSearchClient
from eval.engines.loogle import LoogleClient
from eval.engines.moogle import MoogleClient
from eval.engines.replay import ReplayEngine

REMOTE: dict[str, Callable[[], SearchEngine]] = {
    client.name: client for client in (LeanSearchClient, LoogleClient, MoogleClient, LeanExploreClient)
}


class EngineSpecError(ValueError):
    """An engine name that names no engine."""


def make_engines(specs: Sequence[str], index_dir: Path | str,
                 filters: Mapping[str, Any] | None = None) -> list[SearchEngine]:
    """One engine per spec; the index is loaded once, and only when an `ours` engine needs it.

    `filters` (field -> value or list, as `Engine.search` takes them) restrict our engines.
    Raises `EngineSpecError` for an unknown or repeated spec, `IndexLoadError` for a bad index.
    """
    from search.engine import variants

    if len(set(specs)) != len(specs):
        raise EngineSpecError(f"an engine is named twice in {', '.join(specs)}")
    engines: list[SearchEngine] = []
    ours = None
    for spec in specs:
        head, _, rest = spec.partition(":")
        if head == "ours":
            variant = rest or variants.DEFAULT
            if variant not in variants.VARIANTS:
                raise EngineSpecError(f"{spec}: {variants.UnknownVariant(variant)}")
            ours = ours or _load_engine(index_dir)
            from eval.engines.ours import OurEngine

            engines.append(OurEngine(ours, variant, filters))
        elif head == "replay":
            service, _, path = rest.partition("=")
            if not service or not path:
                raise EngineSpecError(f"{spec}: write replay:SERVICE=PATH, e.g. replay:moogle=results.json")
            engines.append(ReplayEngine(service, path))
        elif spec in REMOTE:
            engines.append(REMOTE[spec]())
        else:
            raise EngineSpecError(
                f"unknown engine {spec!r}; choose ours:VARIANT, {', '.join(REMOTE)} or replay:SERVICE=PATH")
    return engines


def _load_engine(index_dir: Path | str) -> Any:
    from search.engine.engine import Engine
    from search.index.store import Index

    return Engine(Index.load(index_dir))
