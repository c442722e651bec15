"""Judged tables in the layout of the LeanExplore paper's two judged tables, Markdown and JSON.

Table 1: per engine, the share of judged trials in which it took 1st, 2nd and 3rd place (ties
share a place, so a column may add up to more than 100%). Table 2: per pair of engines, the
share of trials in which each placed above the other, and of ties. Each rate is computed per run
over that run's readable verdicts, then averaged over runs, with one standard error of that
mean (sample standard deviation over runs / sqrt(runs)), as the paper reports. Trials whose
verdict could not be read are left out of their run and counted, never guessed.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from eval.report import json_number, markdown_table
from eval.judge.trials import Export
from eval.judge.verdict import Verdict, VerdictError, places

PLACES = ("1st", "2nd", "3rd")


@dataclass(frozen=True)
class Rate:
    """A percentage per run, its mean and one standard error over runs (NaN for one run)."""

    per_run: tuple[float, ...]

    @property
    def mean(self) -> float:
        return float(np.mean(self.per_run)) if self.per_run else float("nan")

    @property
    def se(self) -> float:
        n = len(self.per_run)
        return float(np.std(self.per_run, ddof=1) / math.sqrt(n)) if n > 1 else float("nan")

    def __str__(self) -> str:
        return f"{self.mean:.1f}" + ("" if math.isnan(self.se) else f" ± {self.se:.1f}")


@dataclass(frozen=True)
class HeadToHead:
    first: str
    second: str
    first_wins: Rate
    second_wins: Rate
    ties: Rate


@dataclass
class JudgedTables:
    name: str
    engines: list[str]
    runs: list[int]
    trials: int  # exported
    judged: int  # with a readable ranking
    unreadable: list[dict[str, str]]  # {"id", "error"}
    unjudged: int  # exported trials with no verdict at all
    judges: list[str]
    place_rates: dict[str, tuple[Rate, ...]]
    head_to_head: list[HeadToHead]


def tabulate(export: Export, verdicts: Mapping[str, Verdict]) -> JudgedTables:
    """Rates from the verdicts of an export's trials (keyed by trial id)."""
    runs = sorted({t.run for t in export.trials})
    outcomes: dict[int, list[dict[str, int]]] = {run: [] for run in runs}
    unreadable = []
    for trial in export.trials:
        verdict = verdicts.get(trial.id)
        if verdict is None:
            continue
        try:
            ranking = verdict.ranking()
        except VerdictError as error:
            unreadable.append({"id": trial.id, "error": str(error)})
            continue
        outcomes[trial.run].append({trial.letters[letter]: place for letter, place in places(ranking).items()})

    def rate(count: Any) -> Rate:
        """Percentage of each run's outcomes for which `count(outcome)` holds."""
        return Rate(tuple(100.0 * sum(map(count, outcomes[run])) / len(outcomes[run])
                          for run in runs if outcomes[run]))

    place_rates = {
        engine: tuple(rate(lambda o, e=engine, p=p: o[e] == p) for p in range(1, len(PLACES) + 1))
        for engine in export.engines
    }
    pairs = [
        HeadToHead(a, b, rate(lambda o, a=a, b=b: o[a] < o[b]), rate(lambda o, a=a, b=b: o[b] < o[a]),
                   rate(lambda o, a=a, b=b: o[a] == o[b]))
        for a, b in itertools.combinations(export.engines, 2)
    ]
    judged = sum(len(o) for o in outcomes.values())
    judges = sorted({v.judge for v in verdicts.values() if v.judge})
    return JudgedTables(export.name, list(export.engines), runs, len(export.trials), judged, unreadable,
                        sum(1 for t in export.trials if t.id not in verdicts), judges, place_rates, pairs)


def to_markdown(tables: JudgedTables, export: Export, commands: Mapping[str, str]) -> str:
    meta = export.meta
    runs_done = len(tables.place_rates[tables.engines[0]][0].per_run)
    lines = [
        f"# Judged comparison: {tables.name}",
        "",
        f"- Queries: `{meta.get('queries', '?')}`; engines (top {export.k} shown blind as Engine A, B, C, "
        f"order drawn per query and run, seed {export.seed}): "
        + ", ".join(f"`{e}`" for e in tables.engines) + ".",
        f"- Trials: {tables.trials} exported over {len(tables.runs)} runs; {tables.judged} with a readable "
        f"ranking; {len(tables.unreadable)} unreadable verdicts (left out, never guessed); "
        f"{tables.unjudged} without a verdict.",
        f"- Queries left out because an engine gave no answer: {len(meta.get('skipped', []))}.",
        f"- Judge: {', '.join(tables.judges) or 'not named in the verdict file'}.",
    ]
    if "index" in meta:
        index = meta["index"]
        sources = ", ".join(f"{n}@{c[:8]}" if c else n for n, c in index.get("sources", {}).items())
        lines.append(f"- Index: built {index.get('build_date', '?')} from {sources}; "
                     f"searched with code {meta.get('code_version', '?')}.")
    lines += [f"- {what}: `{command}`" for what, command in commands.items()]
    rows = [[f"`{e}`", *(str(r) for r in tables.place_rates[e])] for e in tables.engines]
    table1 = markdown_table(["Engine", *(f"{p} place rate (%)" for p in PLACES)], rows)
    rows2 = []
    for h in tables.head_to_head:
        rows2 += [[f"`{h.first}` vs `{h.second}`", f"`{h.first}` wins", str(h.first_wins)],
                  ["", f"`{h.second}` wins", str(h.second_wins)], ["", "Ties", str(h.ties)]]
    table2 = markdown_table(["Compared engines", "Metric", "Rate (%)"], rows2)
    caption = (f"averaged over {runs_done} runs, {tables.judged} trials judged; values are mean "
               "percentage ± one standard error over runs")
    return "\n".join(lines) + (
        f"\n\n## Table 1: rankings by the judge ({caption})\n\n{table1}"
        f"\n\n## Table 2: head-to-head ({caption})\n\n{table2}\n")


def to_json(tables: JudgedTables, export: Export, commands: Mapping[str, str]) -> dict[str, Any]:
    def rate(r: Rate) -> dict[str, Any]:
        return {"mean": json_number(r.mean), "se": json_number(r.se), "per_run": list(r.per_run)}

    return {
        "name": tables.name, "engines": tables.engines, "k": export.k, "runs": tables.runs,
        "seed": export.seed, "export": export.meta, "commands": dict(commands),
        "trials": tables.trials, "judged": tables.judged, "unjudged": tables.unjudged,
        "unreadable": tables.unreadable, "judges": tables.judges,
        "places": [{"engine": e, **{p: rate(r) for p, r in zip(PLACES, tables.place_rates[e])}}
                   for e in tables.engines],
        "head_to_head": [{"first": h.first, "second": h.second, "first_wins": rate(h.first_wins),
                          "second_wins": rate(h.second_wins), "ties": rate(h.ties)}
                         for h in tables.head_to_head],
    }


def write_tables(tables: JudgedTables, export: Export, out_dir: Path, commands: Mapping[str, str]) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    markdown = out_dir / f"{tables.name}.tables.md"
    markdown.write_text(to_markdown(tables, export, commands), encoding="utf-8")
    data = out_dir / f"{tables.name}.tables.json"
    data.write_text(json.dumps(to_json(tables, export, commands), indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    return [markdown, data]

