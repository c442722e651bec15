"""Queries x runs -> trials, and the files of an export.

An export `NAME` writes three files side by side:
- `NAME.prompts.jsonl`: what the judge sees, one `{"id", "messages"}` a line (OpenAI chat
  messages), blind: nothing in it says which engine is which;
- `NAME.trials.jsonl`: the key, one `{"id", "query", "run", "order", "answers"}` a line, where
  `order` maps `Engine A`.. to engine names and `answers` records each engine's status, the
  names it returned and when it was fetched;
- `NAME.export.json`: engines, k, runs, seed, query file, command, index, and the queries left
  out because an engine gave no answer (a failed answer is never shown as an empty list).
The engine order is drawn from a seeded generator for every query and run, and recorded.
"""

from __future__ import annotations

import json
import logging
import random
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping, Sequence

from eval.engines.base import Answer, SearchEngine
from eval.engines.cache import AnswerCache, fetch
from eval.jsonlines import json_objects
from eval.judge.prompt import LETTERS, messages

RUNS = 3
SEED = 0
PROMPTS_SUFFIX = ".prompts.jsonl"

log = logging.getLogger(__name__)


class ExportError(ValueError):
    """Export files that are missing or do not fit together."""


@dataclass
class Trial:
    """One query in one run: the engines behind each label and the prompt the judge gets."""

    id: str
    query: str
    run: int
    order: dict[str, str]  # "Engine A" -> engine name
    messages: list[dict[str, str]]
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def letters(self) -> dict[str, str]:
        """"A" -> engine name."""
        return {label.removeprefix("Engine "): engine for label, engine in self.order.items()}


@dataclass
class Export:
    name: str
    engines: list[str]
    k: int
    runs: int
    seed: int
    meta: dict[str, Any]
    trials: list[Trial]


def load_query_list(path: Path | str) -> list[str]:
    """Unlabelled queries: one a line (`.txt`), or JSON lines with a `query` field."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ExportError(f"{path}: cannot be read ({error})") from error
    if path.suffix == ".jsonl":
        queries = []
        for number, row in json_objects(text, path, ExportError):
            if not isinstance(row.get("query"), str) or not row["query"].strip():
                raise ExportError(f"{path}:{number}: 'query' must be a non-empty string")
            queries.append(row["query"].strip())
    else:
        queries = [line.strip() for line in text.splitlines() if line.strip()]
    if not queries:
        raise ExportError(f"{path}: no queries")
    return queries


def collect(engines: Sequence[SearchEngine], queries: Sequence[str], k: int,
            cache: AnswerCache | None = None, offline: bool = False) -> dict[str, dict[str, Answer]]:
    """query -> engine name -> answer, remote answers through the cache."""
    out: dict[str, dict[str, Answer]] = {q: {} for q in queries}
    for engine in engines:
        statuses: dict[str, int] = {}
        for i, query in enumerate(queries, 1):
            answer = fetch(engine, query, k, cache, offline)
            out[query][engine.name] = answer
            statuses[answer.status] = statuses.get(answer.status, 0) + 1
            if i % 100 == 0:
                log.info("%s: %d/%d queries", engine.name, i, len(queries))
        log.info("%s: %s", engine.name, ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())))
    return out


def make_trials(queries: Sequence[str], answers: Mapping[str, Mapping[str, Answer]],
                engines: Sequence[str], runs: int = RUNS, seed: int = SEED
                ) -> tuple[list[Trial], list[dict[str, str]]]:
    """Trials for every query all of whose engines answered, and the queries left out (why)."""
    if len(engines) != len(LETTERS):
        raise ExportError(f"the protocol compares exactly {len(LETTERS)} engines; got {len(engines)}")
    skipped = [
        {"query": q, "engine": e, "error": answers[q][e].error}
        for q in queries for e in engines if answers[q][e].status == "failed"
    ]
    left_out = {s["query"] for s in skipped}
    rng = random.Random(seed)
    trials = []
    for run in range(1, runs + 1):
        for number, query in enumerate(queries, 1):
            shuffled = rng.sample(list(engines), len(engines))
            if query in left_out:
                continue
            order = {f"Engine {letter}": engine for letter, engine in zip(LETTERS, shuffled)}
            blocks = {letter: answers[query][engine] for letter, engine in zip(LETTERS, shuffled)}
            summary = {e: _summary(answers[query][e]) for e in engines}
            trials.append(Trial(f"q{number:03d}-r{run}", query, run, order, messages(query, blocks), summary))
    return trials, skipped


def _summary(answer: Answer) -> dict[str, Any]:
    out: dict[str, Any] = {"status": answer.status, "names": [h.name for h in answer.hits]}
    if answer.error:
        out["error"] = answer.error
    if answer.fetched_at:
        out["fetched_at"] = answer.fetched_at
    return out


def write_export(export: Export, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    prompts = out_dir / f"{export.name}{PROMPTS_SUFFIX}"
    key = out_dir / f"{export.name}.trials.jsonl"
    meta = out_dir / f"{export.name}.export.json"
    _write_lines(prompts, ({"id": t.id, "messages": t.messages} for t in export.trials))
    _write_lines(key, ({"id": t.id, "query": t.query, "run": t.run, "order": t.order, "answers": t.answers}
                       for t in export.trials))
    header = {"name": export.name, "engines": export.engines, "k": export.k, "runs": export.runs,
              "seed": export.seed, "trials": len(export.trials),
              "created": datetime.now(timezone.utc).isoformat(timespec="seconds"), **export.meta}
    meta.write_text(json.dumps(header, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return [prompts, key, meta]


def read_export(prompts_path: Path | str) -> Export:
    """An export from the path of its prompt file (the two other files sit beside it)."""
    prompts_path = Path(prompts_path)
    if not prompts_path.name.endswith(PROMPTS_SUFFIX):
        raise ExportError(f"{prompts_path}: a prompt file is named NAME{PROMPTS_SUFFIX}")
    name = prompts_path.name.removesuffix(PROMPTS_SUFFIX)
    meta_path = prompts_path.with_name(f"{name}.export.json")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        keys = _read_lines(prompts_path.with_name(f"{name}.trials.jsonl"))
        prompts = {row["id"]: row["messages"] for row in _read_lines(prompts_path)}
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise ExportError(f"{prompts_path}: the export is incomplete or damaged ({error}); "
                          "run `python -m eval judge export` again") from error
    trials = []
    for row in keys:
        if row["id"] not in prompts:
            raise ExportError(f"{prompts_path}: trial {row['id']} has no prompt")
        trials.append(Trial(row["id"], row["query"], int(row["run"]), dict(row["order"]),
                            prompts[row["id"]], row.get("answers", {})))
    engines = list(meta["engines"])
    known = {"name", "engines", "k", "runs", "seed"}
    return Export(name, engines, int(meta["k"]), int(meta["runs"]), int(meta["seed"]),
                  {k: v for k, v in meta.items() if k not in known}, trials)


def _write_lines(path: Path, rows: Any) -> None:
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def _read_lines(path: Path) -> list[dict[str, Any]]:
    return [row for _, row in json_objects(path.read_text(encoding="utf-8"), path, ExportError)]
