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
last (`structure`, the one `GET /api/search` uses) over the one before it (`stated+constants`,
the path before the structural tiers), paired by query, with a permutation test's p-value. The
constants' settings were chosen on this same set (four other settings tried: the constants'
theorems fused by reciprocal rank, their names added to the query, the constants' weight 1.0,
5 hypotheses instead of 10); the structural tiers' sizes were chosen on the second set:

- goal states made from the corpus (`corpus_goals`): theorems of the index drawn with a seed,
  each one's statement as the goal and the theorems its proof refers to as its premises, the
  theorem itself left out of its answers; the same two paths, paired;

and LeanSearchClient's own goal-state examples (`CLIENT_EXAMPLES`) are answered by both, with
the rank of the first declaration each expects.

Premises the index does not hold (renamed or added since its Mathlib commit) are counted as
missed, and how many there are is reported.
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from search import config
from search.corpus.lean.syntax import top_level
from search.engine import variants

from eval.paths import RESULTS_DIR

if TYPE_CHECKING:
    from search.index.store import Index
from eval.report import json_number, markdown_table
from eval.stats import bootstrap, paired_test

KS = (10, 50)
METRICS = tuple(f"{kind} Recall@{k}" for k in KS for kind in ("group", "premise"))
#: What the goal-state path does (`statesearch.StateSearch.search`: context, constants,
#: structure): the goal and the hypotheses sharing its variables (the first rule), the goal and
#: every hypothesis but instances and types, that reordered by the goal's constants, and that
#: after the lemmas matching the goal by structure (the default).
PATHS = {"sharing": ("sharing", False, False), "stated": ("stated", False, False),
         "stated+constants": ("stated", True, False), "structure": ("stated", True, True)}
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


#: Goal states of LeanSearchClient's own tests and README (`LeanSearchClientTest/
#: StateSearchExamples.lean`, `PremiseSelection.lean`, README), with the declarations they expect
#: ("add_comm and/or Nat.add_comm"; `zero_lt_one` first, then `one_pos`, ...).
CLIENT_EXAMPLES: list[tuple[str, tuple[str, ...]]] = [
    ("a b : ℕ\n⊢ a + b = b + a", ("add_comm", "Nat.add_comm")),
    ("⊢ 0 < 1", ("zero_lt_one", "one_pos", "zero_lt_one'")),
    ("⊢ 0 ≤ 1", ("zero_le_one",)),
    ("⊢ 3 ≤ 5", ()),
]
#: Goal states made from the corpus: how many, and the seed that draws them.
CORPUS_GOALS = 300
CORPUS_SEED = 0


def corpus_goals(index: "Index", n: int = CORPUS_GOALS, seed: int = CORPUS_SEED) -> list[GoalQuery]:
    """Goal states made from the index's own theorems: `n` theorems or lemmas of its Lean
    sources drawn with `seed` among those whose proof refers to another theorem or lemma of the
    index, each one's statement as the goal (`goal_state` of its header), and the theorems and
    lemmas it refers to as its premises (one group). Searched with the theorem itself left out."""
    from search.api.statesearch import THEOREM_KINDS

    kinds = np.asarray(index.records.column("kind"))
    theorem = np.isin(kinds, THEOREM_KINDS) & (np.asarray(index.records.column("language")) == "lean")
    ids = index.records.column("id")
    candidates = [p for p in np.flatnonzero(theorem).tolist()]
    rng = np.random.default_rng(seed)
    queries: list[GoalQuery] = []
    for position in rng.permutation(candidates).tolist():
        if len(queries) == n:
            break
        record = index.records[position]
        premises = frozenset(index.records[q].name for q in (index.position.get(d) for d in record.deps)
                             if q is not None and q != position and theorem[q])
        try:
            _, state = goal_state(record.statement, record.name)
        except ValueError:
            continue
        if premises:
            queries.append(GoalQuery(ids[position], record.name, state, [premises], premises))
    return queries


def _measure(states: Any, queries: list[GoalQuery], variant: str, path: str, positions: dict[str, list[int]],
             rows: list[dict[str, Any]], group: str) -> np.ndarray:
    """Each query's recalls (queries x METRICS) under one variant and goal path, the query's
    own theorem left out of its answers; a row per query is added to `rows`."""
    from search.api.statesearch import parse_goal

    context, constants, structure = PATHS[path]
    values = []
    for q in queries:
        state = parse_goal(q.state)
        assert state is not None
        hits = states.search(state, max(KS), variant, context=context, constants=constants, structure=structure,
                             exclude=positions.get(q.name, []))
        names = [h.statement.name for h in hits if h.statement.name != q.name][:max(KS)]
        measured = recalls(names, q)
        values.append([measured[m] for m in METRICS])
        rows.append({"set": group, "variant": variant, "path": path, "id": q.id, **measured, "first": names[:5]})
    return np.array(values)


def _estimates(values: np.ndarray) -> dict[str, Any]:
    return {m: {"mean": json_number(e.mean), "low": json_number(e.low), "high": json_number(e.high), "n": e.n}
            for m, e in zip(METRICS, bootstrap(values))}


def _gain(before: np.ndarray, after: np.ndarray) -> dict[str, Any]:
    """`after - before` per metric, paired by query: bootstrap interval and permutation p-value."""
    out = _estimates(after - before)
    for k, m in enumerate(METRICS):
        out[m]["p"] = json_number(paired_test(before[:, k], after[:, k]).p_value) if len(before) > 1 else None
    return out


def run(index_dir: Path, queries_path: Path, variant_names: Sequence[str], corpus: int = CORPUS_GOALS) -> dict[str, Any]:
    from search.api.service import SearchService
    from search.api.statesearch import StateSearch, parse_goal
    from search.engine.engine import Engine
    from search.index.store import Index

    index = Index.load(index_dir)
    states = StateSearch(SearchService.from_engine(Engine(index)))
    queries = load(queries_path)
    known = set(index.records.column("name"))
    premises = {p for q in queries for g in q.groups for p in g}
    made = corpus_goals(index, corpus)
    names = {q.name for q in [*queries, *made]}
    positions: dict[str, list[int]] = {}
    for name in names:
        positions[name] = [p for p in index.by_name.get(name.lower(), []) if index.records.column("name", [p])[0] == name]
    per_variant: dict[str, Any] = {}
    rows: list[dict[str, Any]] = []
    paths = list(PATHS)
    for variant in variant_names:
        measured = {path: _measure(states, queries, variant, path, positions, rows, "mathlib_mpr") for path in paths}
        per_variant[variant] = {path: _estimates(values) for path, values in measured.items()}
        per_variant[variant]["gain"] = _gain(measured[paths[-2]], measured[paths[-1]])
    corpus_paths = {path: _measure(states, made, variants.DEFAULT, path, positions, rows, "corpus") for path in paths[-2:]}
    corpus_report = {path: _estimates(values) for path, values in corpus_paths.items()}
    corpus_report["gain"] = _gain(*corpus_paths.values())
    examples = []
    for state_text, expected in CLIENT_EXAMPLES:
        entry: dict[str, Any] = {"state": state_text, "goal": state_text.replace("\n", " "), "expected": list(expected)}
        for path in paths[-2:]:
            context, constants, structure = PATHS[path]
            state = parse_goal(state_text)
            assert state is not None
            found = [h.statement.name for h in states.search(state, max(KS), context=context, constants=constants,
                                                             structure=structure)]
            rank = next((i + 1 for i, n in enumerate(found) if n in expected), None)
            entry[path] = {"first": found[:3], "rank": "-" if rank is None else str(rank)}
        examples.append(entry)
    return {
        "command": None, "index": str(index_dir), "queries": str(queries_path), "n": len(queries),
        "premises": len(premises), "premises_in_index": len(premises & known),
        "results_in_index": sum(q.name in known for q in queries),
        "variants": per_variant, "corpus": {"n": len(made), "seed": CORPUS_SEED, **corpus_report},
        "examples": examples, "rows": rows, "example_state": queries[0].state if queries else "",
    }


def _cell(estimate: dict[str, Any], signed: bool) -> str:
    """`mean [low, high]` (no interval from fewer than two queries)."""
    number = "{:+.3f}" if signed else "{:.3f}"
    text = number.format(estimate["mean"])
    if estimate["low"] is not None:
        text += f" [{number.format(estimate['low'])}, {number.format(estimate['high'])}]"
    if estimate.get("p") is not None:
        text += f", p {estimate['p']:.3f}"
    return text


def to_markdown(report: dict[str, Any]) -> str:
    metrics = list(METRICS)
    rows = [[f"`{v}`", path, *(_cell(m[path][x], signed=path == "gain") for x in metrics)]
            for v, m in report["variants"].items() for path in m]
    corpus = report["corpus"]
    corpus_rows = [[path, *(_cell(corpus[path][x], signed=path == "gain") for x in metrics)]
                   for path in corpus if path not in ("n", "seed")]
    example_rows = [[f"`{e['goal']}`", ", ".join(f"`{n}`" for n in e["expected"]) or "-",
                     *(f"{e[p]['rank']}: " + ", ".join(f"`{n}`" for n in e[p]["first"])
                       for p in list(PATHS)[-2:])] for e in report["examples"]]
    return "\n".join([
        "# Goal-state search", "",
        f"`{report['command']}` over `{report['index']}`.", "",
        f"## MathlibMPR: {report['n']} goal states, "
        f"{report['premises']} distinct premises ({report['premises_in_index']} in the index; the others "
        f"count as missed), the result itself left out of its answers "
        f"({report['results_in_index']} of the results are in the index). `gain`: `structure` minus "
        "`stated+constants`, paired by goal state (`p`: permutation test).", "",
        markdown_table(["variant", "goal path", *metrics], rows), "",
        f"## Goal states made from the corpus: {corpus['n']} theorems (seed {corpus['seed']}), each one's "
        "statement as the goal, the theorems it refers to as premises, itself left out (`default`).", "",
        markdown_table(["goal path", *metrics], corpus_rows), "",
        "## LeanSearchClient's examples: rank of the first expected declaration, and the first three", "",
        markdown_table(["goal", "expected", *list(PATHS)[-2:]], example_rows), "",
        "The first MathlibMPR goal state:", "", "```", report["example_state"], "```", "",
    ])


def _command(args: argparse.Namespace) -> int:
    report = run(Path(args.index), Path(args.queries), args.variants.split(","), args.corpus)
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
    parser.add_argument("--corpus", type=int, default=CORPUS_GOALS, help="goal states made from the corpus")
    parser.add_argument("--out", default=str(RESULTS_DIR), help="directory of the .md and .json reports")
    parser.add_argument("--name", default="mathlib_mpr_goals", help="file stem of the reports")
    parser.set_defaults(run=_command)
