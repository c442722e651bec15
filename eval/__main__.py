"""Command line: `python -m eval [retrieval | embeddings | judge ... | bench ...]`.

Without arguments it reruns every evaluation that runs offline, each with its defaults:
- the retrieval evaluation on MathlibQR's dev half over the default index with all five ranking
  variants (`eval/results/mathlibqr_dev.{md,json}`, `figures/mathlibqr_dev_ndcg10_by_style.png`);
- the PCA and UMAP plots of the index's statement embeddings (`figures/embeddings_*.png`);
- the judged tables from the saved export and verdicts (`eval/results/judge/*.tables.{md,json}`),
  skipped with a message when no verdicts have been imported.
The performance benchmark (`python -m eval bench`, eval/bench) is not part of that run: it
takes hours at full size (`--quick` checks it in about a minute).
"""

from __future__ import annotations

import argparse
import logging
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from search import config

from eval import embeddings, misses
from eval.bench import cli as bench_cli
from eval.judge import commands as judge_commands
from eval.querysets import QuerySetError, detect_format, load_queries
from eval.retrieval import VARIANTS

if TYPE_CHECKING:
    from search.index.store import Index

RESULTS_DIR = config.REPO_DIR / "eval" / "results"
FIGURES_DIR = config.REPO_DIR / "figures"
DEFAULT_QUERIES = config.QUERIES_DIR / "mathlibqr_dev.json"
#: The evaluations `python -m eval` without arguments reruns, each with its defaults.
OFFLINE = (("retrieval",), ("embeddings",), ("judge", "tables"))


def _retrieval(args: argparse.Namespace) -> int:
    from search.engine.engine import Engine
    from search.index.manifest import IndexLoadError
    from search.index.store import Index

    from eval.report import RunInfo, headline_table, index_info, write_report
    from eval.retrieval import run_retrieval

    queries_path = Path(args.queries)
    try:
        queries = load_queries(queries_path, fair_only=args.fair_only)
        index = Index.load(args.index)
    except (QuerySetError, IndexLoadError) as error:
        print(f"python -m eval: {error}", file=sys.stderr)
        return 1
    try:
        overridden = override_engine_settings(args.set)
    except ValueError as error:
        print(f"python -m eval: {error}", file=sys.stderr)
        return 2
    variants = [v for v in args.variants.split(",") if v]
    run = run_retrieval(Engine(index), queries, variants, k=args.k, exists=_exists(index))
    info = RunInfo(
        name=queries_path.stem + ("_fair" if args.fair_only else "") + overridden,
        queryset=str(queries_path),
        command=args.command_line,
        index=index_info(index.manifest),
        published=detect_format(queries_path.read_text(encoding="utf-8")) == "mathlibqr",
    )
    paths = write_report(run, info, Path(args.out), Path(args.figures))
    print(headline_table(run, info))
    print("\nwritten: " + ", ".join(str(p) for p in paths))
    return 0


def override_engine_settings(settings: Sequence[str]) -> str:
    """Set ranking constants of `search.engine.engine` for this run (`DEPENDENTS_WEIGHT=0.2`,
    `WEIGHTS.names=0.6`), so that every row of the README's tuning tables has a command.
    Returns a suffix for the report's name, so that the default report is not overwritten."""
    import ast

    from search.engine import engine

    suffix = ""
    for setting in settings:
        name, _, text = setting.partition("=")
        key, _, entry = name.partition(".")
        current = getattr(engine, key, None) if key.isupper() else None
        if current is None or not text or (entry and not isinstance(current, dict)):
            raise ValueError(f"--set {setting!r}: expected NAME=VALUE or WEIGHTS.signal=VALUE with an "
                             "upper-case ranking constant of search/engine/engine.py")
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            raise ValueError(f"--set {setting!r}: {text!r} is not a Python literal") from None
        if entry:
            setattr(engine, key, {**current, entry: value})
        else:
            setattr(engine, key, value)
        suffix += f"_{name}={text}"
    return suffix


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
    retrieval.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR), help="index directory")
    retrieval.add_argument("--queries", default=str(DEFAULT_QUERIES),
                           help="MathlibQR JSON list or JSON-lines query file")
    retrieval.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated ranking variants")
    retrieval.add_argument("--out", default=str(RESULTS_DIR), help="directory of the .md and .json reports")
    retrieval.add_argument("--figures", default=str(FIGURES_DIR), help="directory of the chart")
    retrieval.add_argument("--k", type=int, default=100,
                           help="results judged per query (metrics cut deeper than k see k results)")
    retrieval.add_argument("--fair-only", action="store_true",
                           help="keep only MathlibQR's fair-subset queries (otherwise all are kept)")
    retrieval.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                           help="override a ranking constant of search/engine/engine.py for this run "
                                "(e.g. DEPENDENTS_WEIGHT=0.2, WEIGHTS.names=0.6, LATEX_AS_TEXT=False); "
                                "the report's name records it")
    retrieval.set_defaults(run=_retrieval)
    embeddings.add_parser(commands)
    misses.add_parser(commands)
    judge_commands.add_parser(commands)
    bench_cli.add_parser(commands)
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
