"""Command line: `python -m eval [retrieval | embeddings | judge ... | bench ...]`.

Without arguments it reruns every evaluation that runs offline, each with its defaults:
- the retrieval evaluation on MathlibQR's dev half over the default index with all five ranking
  variants (`eval/results/mathlibqr_dev.{md,json}`, `figures/mathlibqr_dev_ndcg10_by_style.png`);
- the PCA and UMAP plots of the index's statement embeddings (`figures/embeddings_*.png`);
- the judged tables from the saved export and verdicts (`eval/results/judge/*.tables.{md,json}`),
  skipped with a message when no verdicts have been imported;
- Loogle patterns made from the corpus over the default index: recall, hit counts, a
  brute-force check and latency (`eval/results/patterns.{md,json}`, eval/patterns.py);
- goal-state search on MathlibMPR, premise recall per ranking variant and goal path
  (`eval/results/mathlib_mpr_goals.{md,json}`, eval/goals.py).
The performance benchmark (`python -m eval bench`, eval/bench) is not part of that run: it
takes hours at full size (`--quick` checks it in about a minute).
"""

from __future__ import annotations

import argparse
import functools
import logging
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from search import config
from search.engine import variants
from search.engine.ranking import Ranking

from eval import check, embeddings, generated_names, goals, kinds, misses, names, patterns, sentences, steps, views
from eval.bench import cli as bench_cli
from eval.judge import commands as judge_commands
from eval.paths import FIGURES_DIR, RESULTS_DIR, figures_dir
from eval.corpus_queries import CORPUS_QUERIES
from eval.querysets import LabelledQuery, QuerySetError, detect_format, load_queries

if TYPE_CHECKING:
    from search.index.store import Index

DEFAULT_QUERIES = config.QUERIES_DIR / "mathlibqr_dev.json"
#: The evaluations `python -m eval` without arguments reruns, each with its defaults.
OFFLINE = (("retrieval",), ("embeddings",), ("judge", "tables"), ("patterns",), ("goals",))


def _retrieval(args: argparse.Namespace) -> int:
    from search.engine.engine import Engine
    from search.index.build import lexical_documents
    from search.index.lexical import LexicalIndex
    from search.index.manifest import IndexLoadError
    from search.index.store import open_index
    from search.text.views import lexical_parts

    from eval.report import RunInfo, headline_table, index_info, write_report
    from eval.retrieval import run_retrieval

    try:
        rankings = rankings_with_settings(args.variants.split(","), args.set)
        parts = lexical_parts(args.lexical) if args.lexical else None
    except ValueError as error:
        print(f"python -m eval: {error}", file=sys.stderr)
        return 2
    load = functools.cache(lambda: open_index(args.index))
    try:
        queries, stem, published = _queries(args.queries, load, args.fair_only)
        index = load()
    except (QuerySetError, IndexLoadError) as error:
        print(f"python -m eval: {error}", file=sys.stderr)
        return 1
    if parts is not None:
        index.lexical = LexicalIndex.build(lexical_documents(list(index.records), parts))
    run = run_retrieval(Engine(index), queries, rankings, k=args.k, exists=_exists(index))
    overridden = "".join(f"_{setting}" for setting in args.set) + (f"_lexical={args.lexical}" if parts else "")
    info = RunInfo(
        name=args.name or stem + ("_fair" if args.fair_only else "") + overridden,
        queryset=args.queries,
        command=args.command_line,
        index=index_info(index.manifest),
        published=published,
    )
    paths = write_report(run, info, Path(args.out), figures_dir(args.out, args.figures))
    print(headline_table(run, info))
    print("\nwritten: " + ", ".join(str(p) for p in paths))
    return 0


def rankings_with_settings(names: Sequence[str], settings: Sequence[str]) -> dict[str, Ranking | str]:
    """The registered variants `names` (checked), each as its name, or with `settings`
    applied (`Ranking.with_settings`: `dependents.weight=0.2`, `weights.names=0.6`, `rrf_k=5`,
    ...) as a changed `Ranking`, so that every row of the documentation's tuning tables has a
    command. A setting one of the variants lacks is an error naming it: restrict `--variants`
    to those it applies to."""
    rankings: dict[str, Ranking | str] = {}
    for name in (n for n in names if n):
        try:
            ranking = variants.get(name)
            rankings[name] = ranking.with_settings(settings) if settings else name
        except ValueError as error:
            raise ValueError(f"--variants {name}: {error}") from None
    if not rankings:
        raise ValueError("--variants names no ranking variant")
    return rankings


def _queries(spec: str, load_index: Callable[[], Index], fair_only: bool) -> tuple[list[LabelledQuery], str, bool]:
    """The queries of a query set named in eval/corpus_queries.py (made from the index) or of
    a file (read before the index is loaded), the stem of the reports' names, and whether
    MathlibQR's published figures belong beside them."""
    if spec in CORPUS_QUERIES:
        index = load_index()
        queries = CORPUS_QUERIES[spec](index)
        if not queries:
            raise QuerySetError(f"the query set {spec} is empty over {index.directory}")
        return queries, spec.replace("-", "_"), False
    path = Path(spec)
    queries = load_queries(path, fair_only=fair_only)
    return queries, path.stem, detect_format(path.read_text(encoding="utf-8")) == "mathlibqr"


def _exists(index: Index) -> Callable[[str], bool]:
    """Whether some record of `index` has this id or this full name."""
    known = {s.id for s in index.records} | {s.name for s in index.records}
    return known.__contains__


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="python -m eval", description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = root.add_subparsers(dest="command")
    retrieval = commands.add_parser(
        "retrieval", help="metrics of labelled queries per ranking variant",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    retrieval.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR),
                           help="index directory, or postgresql://...[#SCHEMA] (python -m search load-postgres)")
    retrieval.add_argument("--queries", default=str(DEFAULT_QUERIES),
                           help="MathlibQR JSON list or JSON-lines query file, or a query set made from the "
                                f"corpora: {', '.join(CORPUS_QUERIES)} (eval/corpus_queries.py)")
    retrieval.add_argument("--variants", default=",".join(variants.names()),
                           help="comma-separated ranking variants (search/engine/variants.py)")
    retrieval.add_argument("--out", default=str(RESULTS_DIR), help="directory of the .md and .json reports")
    retrieval.add_argument("--name", help="file stem of the reports (default: the query file's, with "
                                          "_fair and the --set settings)")
    retrieval.add_argument("--figures", help=f"directory of the chart (default: {FIGURES_DIR} with the "
                                             "default --out, else --out itself)")
    retrieval.add_argument("--k", type=int, default=100,
                           help="results judged per query (metrics cut deeper than k see k results)")
    retrieval.add_argument("--fair-only", action="store_true",
                           help="keep only MathlibQR's fair-subset queries (otherwise all are kept)")
    retrieval.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                           help="change a setting of every ranking run (e.g. dependents.weight=0.2, "
                                "weights.names=0.6, latex_as_text=False, rrf_k=5); the report's name "
                                "records it and its JSON holds each ranking as run")
    retrieval.add_argument("--lexical", metavar="PARTS",
                           help="re-index BM25+ in memory from the index's records with only these parts "
                                "(comma-separated, of name, statement, doc, informal, aliases, place, kind, "
                                "fields: search/text/views.py), to measure what a part is worth")
    retrieval.set_defaults(run=_retrieval)
    embeddings.add_parser(commands)
    misses.add_parser(commands)
    names.add_parser(commands)
    generated_names.add_parser(commands)
    sentences.add_parser(commands)
    views.add_parser(commands)
    patterns.add_parser(commands)
    goals.add_parser(commands)
    check.add_parser(commands)
    judge_commands.add_parser(commands)
    bench_cli.add_parser(commands)
    steps.add_parser(commands)
    kinds.add_parser(commands)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(format="%(message)s")
    logging.getLogger("eval").setLevel(logging.INFO)  # progress; other libraries stay quiet
    if not argv:
        return max(main(list(command)) for command in OFFLINE)
    args = parser().parse_args(argv)
    args.command_line = shlex.join(["python", "-m", "eval", *argv])
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
