"""Reports of a retrieval run: a Markdown page for people, a JSON file for scripts, a bar chart.

The Markdown names the index version and the command that regenerates it, so a table in a
README or a paper can always be traced to its data. Published MathlibQR figures are shown
beside ours for orientation only: they were measured on another Mathlib snapshot and on the
full fair subset, so they are marked as such and never mixed into our rows.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import numpy as np
from matplotlib.figure import Figure

from eval.metrics import METRICS, PRIMARY
from eval.retrieval import RetrievalRun
from eval.stats import OVERALL, Estimate


@dataclass(frozen=True)
class Published:
    """A system's MathlibQR result as published (fair subset, 810 queries)."""

    system: str
    ndcg10: float
    recall10: float


#: As their authors published them (docs/ranking.md, "MathlibQR dev half", says where).
PUBLISHED = (
    Published("LeanExplore", 0.393, 0.569),
    Published("LeanFinder", 0.533, 0.698),
    Published("LeanSearch v2 retriever", 0.494, 0.657),
    Published("LeanSearch v2 with reranker", 0.623, 0.780),
)
PUBLISHED_NOTE = (
    "Published rows (*italic*): figures reported by their authors on MathlibQR's fair subset "
    "(171 targets, 810 queries, both halves of MathlibQR) over their own Mathlib snapshot. They "
    "are measured on another corpus snapshot and another query subset than our rows, so they "
    "are indicative only and carry no interval. The closest of our figures are the "
    "`fair_subset` = `true` columns below, or a run with `--fair-only`."
)
#: Columns of the headline table.
HEADLINE = (PRIMARY, "R@10", "MRR@10", "Hit@1", "R@100")
#: Metrics of the per-group breakdown tables.
BREAKDOWN = (PRIMARY, "R@10")


@dataclass(frozen=True)
class RunInfo:
    """What the report says about where a run came from."""

    name: str  # file stem of the outputs, e.g. `mathlibqr_dev`
    queryset: str
    command: str
    index: Mapping[str, Any]  # `index_info(manifest)`
    published: bool = False  # show the published MathlibQR figures


def index_info(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The version-identifying part of an index manifest."""
    return {
        "build_date": manifest.get("build_date", "?"),
        "code_version": manifest.get("code_version", "?"),
        "sources": {name: (s or {}).get("commit", "") for name, s in manifest.get("sources", {}).items()},
    }


def write_report(run: RetrievalRun, info: RunInfo, out_dir: Path, figures_dir: Path) -> list[Path]:
    """Write `<out>/<name>.md`, `<out>/<name>.json` and the chart in `figures_dir`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    markdown = out_dir / f"{info.name}.md"
    markdown.write_text(to_markdown(run, info), encoding="utf-8")
    data = out_dir / f"{info.name}.json"
    data.write_text(json.dumps(to_json(run, info), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    key = "style" if any("style" in q.group for q in run.queries) else None
    suffix = f"_by_{key}" if key else ""
    chart = plot(run, figures_dir / f"{info.name}_{_slug(PRIMARY)}{suffix}.png", key)
    return [markdown, data, chart]


def to_markdown(run: RetrievalRun, info: RunInfo) -> str:
    sections = [_preamble(run, info), headline_table(run, info), _comparisons(run),
                _all_metrics(run), *_breakdowns(run)]
    return "\n\n".join(s for s in sections if s) + "\n"


def headline_table(run: RetrievalRun, info: RunInfo) -> str:
    """Overall means with 95% bootstrap intervals per variant, and the published figures."""
    header = ["variant", "queries", *HEADLINE, "median ms"]
    rows = []
    for name, variant in run.variants.items():
        overall = variant.summary[OVERALL]
        rows.append([f"`{name}`", str(len(run.queries)), *(_estimate(overall[m]) for m in HEADLINE),
                     f"{1000 * np.median(variant.seconds):.0f}"])
    if info.published:
        for p in PUBLISHED:
            cells = {"nDCG@10": f"{p.ndcg10:.3f}", "R@10": f"{p.recall10:.3f}"}
            rows.append([f"*{p.system} (published)*", "810", *(cells.get(m, "–") for m in HEADLINE), "–"])
    table = markdown_table(header, rows)
    note = f"\n\n{PUBLISHED_NOTE}" if info.published else ""
    return f"## Overall: mean [95% bootstrap interval]\n\n{table}{note}"


def plot(run: RetrievalRun, path: Path, key: str | None = "style", metric: str = PRIMARY) -> Path:
    """Grouped bars of `metric` by the values of group `key` (all queries when `key` is None
    or no query has it), one bar per variant, with 95% intervals as error bars."""
    summary = next(iter(run.variants.values())).summary
    where = [w for w in summary if w[0] == key] or [OVERALL]
    figure = Figure(figsize=(max(6.0, 1.4 * len(where) + 2), 4.0), layout="constrained")
    axes = figure.add_subplot()
    width = 0.8 / len(run.variants)
    for i, (name, variant) in enumerate(run.variants.items()):
        estimates = [variant.summary[w][metric] for w in where]
        means = np.array([e.mean for e in estimates])
        errors = np.nan_to_num(np.abs(np.array([[e.low, e.high] for e in estimates]).T - means))
        offsets = np.arange(len(where)) + (i - (len(run.variants) - 1) / 2) * width
        axes.bar(offsets, means, width, yerr=errors, capsize=2, label=name)
    axes.set_xticks(np.arange(len(where)), [f"{v}\n(n={summary[(k, v)][metric].n})" for k, v in where])
    axes.set_ylabel(f"{metric} (95% bootstrap interval)")
    axes.set_ylim(0, 1)
    axes.set_title(f"{metric} by {key} and variant" if where != [OVERALL] else f"{metric} by variant")
    figure.legend(ncols=min(5, len(run.variants)), fontsize="small", loc="outside lower center")
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    return path


def to_json(run: RetrievalRun, info: RunInfo) -> dict[str, Any]:
    return {
        "name": info.name,
        "queryset": info.queryset,
        "command": info.command,
        "index": dict(info.index),
        "k": run.k,
        "n_queries": len(run.queries),
        "missing_golds": run.missing,
        "unanswerable_queries": run.unanswerable,
        "published": [vars(p) for p in PUBLISHED] if info.published else [],
        "rankings": {name: v.ranking for name, v in run.variants.items()},
        "summary": [
            {"variant": name, "key": key, "value": value, "n": next(iter(table.values())).n,
             "metrics": {m: {"mean": json_number(e.mean), "low": json_number(e.low), "high": json_number(e.high)}
                         for m, e in table.items()}}
            for name, variant in run.variants.items()
            for (key, value), table in variant.summary.items()
        ],
        "comparisons": [
            {"baseline": c.baseline, "variant": c.variant, "metric": c.metric, "diff": json_number(c.diff.mean),
             "low": json_number(c.diff.low), "high": json_number(c.diff.high), "p_value": c.p_value,
             "significant": c.significant}
            for c in run.comparisons
        ],
        "latency_ms": {
            name: {"mean": 1000 * float(v.seconds.mean()), "median": 1000 * float(np.median(v.seconds)),
                   "p95": 1000 * float(np.percentile(v.seconds, 95))}
            for name, v in run.variants.items()
        },
        "queries": [
            {"qid": q.qid, "query": q.query, "relevant": sorted(q.relevant), "group": q.group,
             "results": {
                 name: {"rank": int(v.first_hit[i]) or None, "seconds": float(v.seconds[i]),
                        "metrics": {m: float(s[i]) for m, s in v.scores.items()}}
                 for name, v in run.variants.items()
             }}
            for i, q in enumerate(run.queries)
        ],
    }


def _preamble(run: RetrievalRun, info: RunInfo) -> str:
    index = info.index
    sources = ", ".join(f"{n}@{c[:8]}" if c else n for n, c in index.get("sources", {}).items())
    golds = len({g for q in run.queries for g in q.relevant})
    lines = [
        f"# Retrieval evaluation: {info.name}",
        "",
        f"- Queries: `{info.queryset}`, {len(run.queries)} queries, {golds} distinct golds; "
        f"top {run.k} results judged (binary relevance: the gold declaration, or a "
        "StatementGroup containing it).",
        f"- Index: built {index.get('build_date', '?')} from {sources or '?'} "
        f"(code {index.get('code_version', '?')}).",
    ]
    if run.missing is None:
        lines.append("- Golds absent from the index: not checked.")
    else:
        shown = ", ".join(f"`{g}`" for g in run.missing[:20]) + (" ..." if len(run.missing) > 20 else "")
        lines.append(
            f"- Golds absent from the index: {len(run.missing)}{': ' + shown if shown else ''}; "
            f"queries with no gold in the index (counted as misses): {run.unanswerable}."
        )
    lines.append(f"- Regenerate: `{info.command}`")
    return "\n".join(lines)


def _comparisons(run: RetrievalRun) -> str:
    if not run.comparisons:
        return ""
    metric = run.comparisons[0].metric
    rows = [
        [f"`{c.variant}` − `{c.baseline}`", f"{c.diff.mean:+.3f}", _interval(c.diff), f"{c.p_value:.3g}",
         c.verdict]
        for c in run.comparisons
    ]
    header = ["difference", "mean", "95% interval", "p (paired permutation)", "verdict"]
    return f"## Paired comparisons on {metric}\n\n{markdown_table(header, rows)}"


def _all_metrics(run: RetrievalRun) -> str:
    rows = [[f"`{name}`", *(f"{v.summary[OVERALL][m].mean:.3f}" for m in METRICS)]
            for name, v in run.variants.items()]
    return f"## All metrics (means over all queries)\n\n{markdown_table(['variant', *METRICS], rows)}"


def _breakdowns(run: RetrievalRun) -> list[str]:
    summary = next(iter(run.variants.values())).summary
    keys = sorted({where[0] for where in summary if where != OVERALL})
    sections = []
    for key in keys:
        values = [where for where in summary if where[0] == key]
        for metric in BREAKDOWN:
            header = ["variant", *(f"{v} (n={summary[(key, v)][metric].n})" for _, v in values)]
            rows = [[f"`{name}`", *(_estimate(variant.summary[w][metric]) for w in values)]
                    for name, variant in run.variants.items()]
            sections.append(f"## {metric} by {key}\n\n{markdown_table(header, rows)}")
    return sections


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A GitHub Markdown table (cells are already formatted text)."""
    lines = [header, ["---"] * len(header), *rows]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)


def _estimate(e: Estimate) -> str:
    return f"{e.mean:.3f}" + (f" {_interval(e)}" if not math.isnan(e.low) else "")


def _interval(e: Estimate) -> str:
    return "–" if math.isnan(e.low) else f"[{e.low:.3f}, {e.high:.3f}]"


def json_number(value: float) -> float | None:
    """JSON has no NaN."""
    return None if math.isnan(value) else float(value)


def _slug(metric: str) -> str:
    return metric.lower().replace("@", "")
