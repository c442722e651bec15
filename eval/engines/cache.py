"""Every remote answer on disk, keyed by engine, query and k, so that comparisons replay offline.

One JSON-lines file per engine (`<dir>/<engine>.jsonl`), one `Answer` a line, appended as
answers arrive; a later line for the same key replaces an earlier one. Failed answers are kept
too (a record of what went wrong and when) but are asked again unless running offline.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from eval.engines.base import Answer, SearchEngine, ask
from eval.jsonlines import json_objects

Key = tuple[str, str, int]


class CacheError(ValueError):
    """A cache file that cannot be read; the message names the file and line."""


class AnswerCache:
    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self._answers: dict[str, dict[Key, Answer]] = {}

    def path(self, engine: str) -> Path:
        return self.directory / (re.sub(r"[^A-Za-z0-9_.-]+", "_", engine) + ".jsonl")

    def get(self, engine: str, query: str, k: int) -> Answer | None:
        return self._load(engine).get((engine, query, k))

    def put(self, answer: Answer) -> None:
        self._load(answer.engine)[(answer.engine, answer.query, answer.k)] = answer
        path = self.path(answer.engine)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(answer.to_dict(), ensure_ascii=False) + "\n")

    def _load(self, engine: str) -> dict[Key, Answer]:
        if engine not in self._answers:
            answers: dict[Key, Answer] = {}
            path = self.path(engine)
            if path.is_file():
                for number, row in json_objects(path.read_text(encoding="utf-8"), path, CacheError):
                    try:
                        answer = Answer.from_dict(row)
                    except (KeyError, TypeError, ValueError) as error:
                        raise CacheError(f"{path}:{number}: not a cached answer ({error})") from error
                    answers[(answer.engine, answer.query, answer.k)] = answer
            self._answers[engine] = answers
        return self._answers[engine]


def fetch(engine: SearchEngine, query: str, k: int, cache: AnswerCache | None = None,
          offline: bool = False) -> Answer:
    """The answer of `engine` to `query`: from the cache when there, else asked (and cached).

    Offline, a query missing from the cache is a failed answer that is not stored.
    """
    use_cache = cache is not None and engine.remote
    cached = cache.get(engine.name, query, k) if use_cache else None
    if cached is not None and (cached.status != "failed" or offline):
        return cached
    if offline and engine.remote:
        return Answer(engine.name, query, k, "failed", error="no cached answer, and running offline")
    answer = ask(engine, query, k)
    if use_cache:
        cache.put(answer)
    return answer
