"""`python -m eval misses`: the weakest query styles and topics of a retrieval run, with examples.

Reads the per-query ranks that `python -m eval retrieval` wrote (`eval/results/<set>.json`),
groups the queries by style and by topic (the gold's Mathlib top-level folder), and prints the
worst groups as Markdown, each with missed queries and what the engine returned for them, so
that misses are studied and not only counted (docs/ranking.md, "Where it still misses").
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from search import config

from eval.metrics import PRIMARY
from eval.paths import RESULTS_DIR

RESULTS = RESULTS_DIR / "mathlibqr_dev.json"


def worst_groups(report: dict, package_of: dict[str, str], variant: str, smallest: int) -> list[tuple[float, str, list]]:
    """(mean nDCG@10, group label, [(nDCG@10, rank, query, gold)]) for every style and topic
    with at least `smallest` queries, worst first."""
    groups: dict[str, list] = defaultdict(list)
    for q in report["queries"]:
        outcome = q["results"][variant]
        gold = q["relevant"][0]
        row = (outcome["metrics"][PRIMARY], outcome["rank"], q["query"], gold)
        groups[f"style {q['group'].get('style', '?')}"].append(row)
        groups[f"topic {package_of.get(gold, 'absent from index')}"].append(row)
    means = [(sum(r[0] for r in rows) / len(rows), label, rows) for label, rows in groups.items() if len(rows) >= smallest]
    return sorted(means, key=lambda item: item[0])


def _misses(args: argparse.Namespace) -> int:
    from search.engine.engine import Engine
    from search.index.store import Index

    report = json.loads(Path(args.results).read_text(encoding="utf-8"))
    index = Index.load(args.index)
    engine = Engine(index)
    package_of = {s.name: s.package for s in index.records if s.source == "mathlib"}
    found = []
    for mean, label, rows in worst_groups(report, package_of, args.variant, args.smallest)[: args.groups]:
        missed = [r for r in rows if not r[1] or r[1] > 10]
        examples = [{"query": query, "gold": gold, "rank": str(rank or ">100"),
                     "top": [r.statement.name for r in engine.search(query, k=3, variant=args.variant)]}
                    for _, rank, query, gold in missed[: args.examples]]
        found.append({"group": label, PRIMARY: mean, "queries": len(rows), "missed": len(missed), "examples": examples})
        print(f"\n### {label}: {PRIMARY} {mean:.3f} over {len(rows)} queries, {len(missed)} with the gold outside the top 10")
        for example in examples:
            top = ", ".join(f"`{name}`" for name in example["top"])
            print(f"- `{example['query'][:110]}` (gold `{example['gold']}`, rank {example['rank']}); top 3: {top}")
    if args.json:
        Path(args.json).write_text(json.dumps({"results": str(args.results), "variant": args.variant,
                                               "groups": found}, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    misses = commands.add_parser("misses", help="weakest query styles and topics of a run, with examples",
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    misses.add_argument("--results", default=str(RESULTS), help="JSON report of `python -m eval retrieval`")
    misses.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR), help="index directory")
    misses.add_argument("--variant", default="default", help="ranking variant to study")
    misses.add_argument("--groups", type=int, default=10, help="how many groups")
    misses.add_argument("--examples", type=int, default=2, help="missed queries shown per group")
    misses.add_argument("--smallest", type=int, default=8, help="fewest queries a group needs")
    misses.add_argument("--json", help="also write the groups and their examples to this file")
    misses.set_defaults(run=_misses)
