"""`python -m eval goals`: goal-state search (`GET /api/search`) measured on MathlibMPR.

MathlibMPR (`../shared/queries/mathlib_mpr.json`) gives, for 69 results added to Mathlib, a
Lean file stating the result (`formal_statement`: imports, `variable`s, the theorem with
`:= sorry`) and the groups of premises its proof needs (`premise_group`: an `original` group
and sometimes `alternative` ones). Each becomes the goal state Lean would print at the start of
the proof (`goal_state`): one hypothesis line per binder group of the `variable`s and of the
theorem (`x y : T`, `inst✝ : C` for an anonymous instance), then `⊢ type`. That state is
answered as `GET /api/search` answers it (`statesearch.state_search`), for each ranking
variant, with the result itself left out of its own answers. Reported, with bootstrap
intervals over the queries:

- group Recall@k: the share of a query's premise groups all of whose premises are in the
  first k hits (k = 10, 50);
- premise Recall@k: the share of the premises of the `original` group that are;

for each of the goal paths of `PATHS` (what the path sends to the engine), and the gain of the
last (the one `GET /api/search` uses) over the first, paired by query. The choices were made
on this same set (four other settings tried: the constants' theorems fused by reciprocal rank,
their names added to the query, the constants' weight 1.0, 5 hypotheses instead of 10), so the
gain is an optimistic estimate.

Premises the index does not hold (renamed or added since its Mathlib commit) are counted as
missed, and how many there are is reported.
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from search import config
from search.corpus.lean.syntax import top_level
from search.engine import variants

from eval.paths import RESULTS_DIR
from eval.report import json_number, markdown_table
from eval.stats import bootstrap

KS = (10, 50)
METRICS = tuple(f"{kind} Recall@{k}" for k in KS for kind in ("group", "premise"))
#: What the goal-state path sends to the engine (`statesearch.StateSearch.search`): the goal
#: and the hypotheses sharing its variables (the rule before this measure), the goal and every
#: hypothesis but instances and types, and that reordered by the goal's constants (the default).
PATHS = {"sharing": ("sharing", False), "stated": ("stated", False), "stated+constants": ("stated", True)}
_COMMENT = re.compile(r"/-.*?-/|--[^\n]*", re.S)
_THEOREM = re.compile(r"^(?:@\[[^\]]*\]\s*)?(?:private\s+|protected\s+)*(theorem|lemma)\s+(\S+)", re.M)
_OPENING = {"(": ")", "{": "}", "[": "]", "⦃": "⦄", "{{": "}}"}


@dataclass(frozen=True)
class GoalQuery:
    id: str
    name: str  # the result's full name, left out of its answers
    state: str
    groups: list[frozenset[str]]
    original: frozenset[str]


def binder_lines(binders: str) -> list[str]:
    """One hypothesis line per top-level binder group: `(x y : T)` -> `x y : T`, `[Group G]`
    -> `inst✝ : Group G`, `{f : α → β}` -> `f : α → β`."""
    lines, depth, start = [], 0, -1
    for i, c in enumerate(binders):
        if c in "([{⦃":
            if depth == 0:
                start = i
            depth += 1
        elif c in ")]}⦄":
            depth -= 1
            if depth == 0 and start >= 0:
                inner = binders[start + 1:i].strip()
                colon = next((k for k in top_level(inner, ":") if inner[k + 1:k + 2] != "="), -1)
                if binders[start] == "[" and colon < 0:
                    lines.append(f"inst✝ : {inner}")
                elif colon >= 0:
                    lines.append(f"{inner[:colon].strip()} : {' '.join(inner[colon + 1:].split())}")
                start = -1
    return lines


def goal_state(formal_statement: str, full_name: str = "") -> tuple[str, str]:
    """The theorem's full name (`full_name` when given, else its name in its namespaces) and
    the goal state at the start of its proof (module docstring)."""
    text = _COMMENT.sub(" ", formal_statement)
    variables: list[str] = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("variable"):
            block = [line.removeprefix("variable")]
            j = i + 1
            while j < len(lines) and lines[j][:1].isspace() and lines[j].strip():
                block.append(lines[j])
                j += 1
            variables.append(" ".join(block))
    matches = list(_THEOREM.finditer(text))
    if not matches:
        raise ValueError("no theorem or lemma in the statement")
    # The result is the theorem its full name ends with, else the last one (helper lemmas first).
    match = next((m for m in matches if full_name and ("." + full_name).endswith("." + m.group(2))), matches[-1])
    header = text[match.start():]
    colons = list(top_level(header, ":"))
    proof = next((k for k in colons if header[k + 1:k + 2] == "="), len(header))
    colon = min(k for k in colons if k < proof and header[k + 1:k + 2] != "=")
    header = header[:proof]
    binders = header[match.end() - match.start():colon]
    goal = " ".join(header[colon + 1:].split())
    hypotheses = [line for block in variables for line in binder_lines(block)] + binder_lines(binders)
    name = match.group(2)
    namespaces = re.findall(r"^namespace\s+(\S+)", text, re.M)
    full = ".".join([*namespaces, name]) if namespaces and not name.startswith("_root_.") else name
    return full_name or full, "\n".join([*hypotheses, f"⊢ {goal}"])


def load(path: Path) -> list[GoalQuery]:
    items = json.loads(path.read_text(encoding="utf-8"))
    queries = []
    for item in items:
        name, state = goal_state(item["formal_statement"], item.get("formal_main_result", ""))
        groups = [frozenset(g["docs"]) for g in item["premise_group"] if g["docs"]]
        original = frozenset(d for g in item["premise_group"] if g["kind"] == "original" for d in g["docs"])
        queries.append(GoalQuery(item["id"], name, state, groups, original))
    return queries


def recalls(names: Sequence[str], query: GoalQuery) -> dict[str, float]:
    """Group and premise Recall@k of one ranked answer (module docstring)."""
    out = {}
    for k in KS:
        top = set(names[:k])
        out[f"group Recall@{k}"] = float(np.mean([g <= top for g in query.groups])) if query.groups else 0.0
        out[f"premise Recall@{k}"] = len(query.original & top) / len(query.original) if query.original else 0.0
    return out


def run(index_dir: Path, queries_path: Path, variant_names: Sequence[str]) -> dict[str, Any]:
    from search.api.service import SearchService
    from search.api.statesearch import StateSearch, parse_goal
    from search.engine.engine import Engine
    from search.index.store import Index

    index = Index.load(index_dir)
    states = StateSearch(SearchService.from_engine(Engine(index)))
    queries = load(queries_path)
    known = set(index.records.column("name"))
    premises = {p for q in queries for g in q.groups for p in g}
    per_variant: dict[str, Any] = {}
    rows: list[dict[str, Any]] = []
    for variant in variant_names:
        for path, (context, constants) in PATHS.items():
            values = []
            for q in queries:
                state = parse_goal(q.state)
                assert state is not None
                hits = states.search(state, max(KS) + 1, variant, context=context, constants=constants)
                names = [h.statement.name for h in hits if h.statement.name != q.name][:max(KS)]
                measured = recalls(names, q)
                values.append([measured[m] for m in METRICS])
                rows.append({"variant": variant, "path": path, "id": q.id, **measured, "first": names[:5]})
            per_variant.setdefault(variant, {})[path] = {
                m: {"mean": json_number(e.mean), "low": json_number(e.low), "high": json_number(e.high), "n": e.n}
                for m, e in zip(METRICS, bootstrap(np.array(values)))}
            if len(per_variant[variant]) == len(PATHS):
                first, second = (np.array([[r[m] for m in METRICS] for r in rows
                                           if r["variant"] == variant and r["path"] == p])
                                 for p in (next(iter(PATHS)), list(PATHS)[-1]))
                per_variant[variant]["gain"] = {
                    m: {"mean": json_number(e.mean), "low": json_number(e.low), "high": json_number(e.high), "n": e.n}
                    for m, e in zip(METRICS, bootstrap(second - first))}
    return {
        "command": None, "index": str(index_dir), "queries": str(queries_path), "n": len(queries),
        "premises": len(premises), "premises_in_index": len(premises & known),
        "results_in_index": sum(q.name in known for q in queries),
        "variants": per_variant, "rows": rows,
        "example_state": queries[0].state,
    }


def _cell(estimate: dict[str, Any], signed: bool) -> str:
    """`mean [low, high]` (no interval from fewer than two queries)."""
    number = "{:+.3f}" if signed else "{:.3f}"
    text = number.format(estimate["mean"])
    if estimate["low"] is not None:
        text += f" [{number.format(estimate['low'])}, {number.format(estimate['high'])}]"
    return text


def to_markdown(report: dict[str, Any]) -> str:
    metrics = list(METRICS)
    rows = [[f"`{v}`", path, *(_cell(m[path][x], signed=path == "gain") for x in metrics)]
            for v, m in report["variants"].items() for path in m]
    return "\n".join([
        "# Goal-state search on MathlibMPR", "",
        f"`{report['command']}` over `{report['index']}`: {report['n']} goal states, "
        f"{report['premises']} distinct premises ({report['premises_in_index']} in the index; the others "
        f"count as missed), the result itself left out of its answers "
        f"({report['results_in_index']} of the results are in the index).", "",
        markdown_table(["variant", "goal path", *metrics], rows), "",
        "The first goal state:", "", "```", report["example_state"], "```", "",
    ])


def _command(args: argparse.Namespace) -> int:
    report = run(Path(args.index), Path(args.queries), args.variants.split(","))
    report["command"] = args.command_line
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = args.name
    (out / f"{stem}.json").write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (out / f"{stem}.md").write_text(to_markdown(report), encoding="utf-8")
    print(to_markdown(report))
    print(f"written: {out / (stem + '.json')}, {out / (stem + '.md')}")
    return 0


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("goals", help="goal-state search (GET /api/search) on MathlibMPR: premise recall",
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter, description=__doc__)
    parser.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR), help="index directory")
    parser.add_argument("--queries", default=str(config.QUERIES_DIR / "mathlib_mpr.json"),
                        help="MathlibMPR's JSON list")
    parser.add_argument("--variants", default=",".join(variants.names()),
                        help="comma-separated ranking variants (search/engine/variants.py)")
    parser.add_argument("--out", default=str(RESULTS_DIR), help="directory of the .md and .json reports")
    parser.add_argument("--name", default="mathlib_mpr_goals", help="file stem of the reports")
    parser.set_defaults(run=_command)
