"""`python -m eval judge export|run|import|tables`: the judged comparison from the command line.

- `export`: ask every engine (remote answers through the on-disk cache), draw the blind order
  of every query and run, write the prompt, trial and export files;
- `run`: send every prompt to an OpenAI-compatible endpoint, save the verdicts, make the tables;
- `import FILE`: take verdicts made by any other means (JSON lines `{"id", "response"}`), check
  them against the export, save them beside it, make the tables;
- `tables`: rebuild the tables from the saved verdicts (skipped, saying so, when there are none).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any, Mapping

from search import config

from eval.judge.prompt import LETTERS
from eval.judge.tables import tabulate, to_markdown, write_tables
from eval.judge.trials import PROMPTS_SUFFIX, RUNS, SEED, Export, ExportError, read_export
from eval.judge.verdict import Verdict, VerdictFileError, read_verdicts, write_verdicts
from eval.paths import RESULTS_DIR

JUDGE_DIR = RESULTS_DIR / "judge"
CACHE_DIR = RESULTS_DIR / "engine_answers"
DEFAULT_QUERIES = config.QUERIES_DIR / "leanexplore_queries.txt"
DEFAULT_ENGINES = "ours:default,ours:leanexplore,ours:bm25"
DEFAULT_PROMPTS = JUDGE_DIR / f"{DEFAULT_QUERIES.stem}{PROMPTS_SUFFIX}"


def add_parser(commands: Any) -> None:
    judge = commands.add_parser("judge", help="LLM-judged comparison of three engines (LeanExplore protocol)",
                                description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    steps = judge.add_subparsers(dest="step", required=True)
    defaults = argparse.ArgumentDefaultsHelpFormatter

    export = steps.add_parser("export", help="write the prompts of every query and run", formatter_class=defaults)
    export.add_argument("--engines", default=DEFAULT_ENGINES,
                        help="three comma-separated engines: ours:VARIANT, leansearch, loogle, moogle, "
                             "leanexplore, replay:SERVICE=PATH")
    export.add_argument("--queries", default=str(DEFAULT_QUERIES), help="one query a line (.txt) or JSON lines")
    export.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR), help="index of the ours:* engines")
    export.add_argument("--source", action="append", default=[],
                        help="restrict the ours:* engines to this source (repeatable); default: the whole index")
    export.add_argument("--k", type=int, default=5, help="results shown per engine")
    export.add_argument("--runs", type=int, default=RUNS, help="judging runs, each with its own engine order")
    export.add_argument("--seed", type=int, default=SEED, help="seed of the engine orders")
    export.add_argument("--out", default=str(JUDGE_DIR), help="directory of the export files")
    export.add_argument("--name", default="", help="file stem of the export (default: the query file's)")
    export.add_argument("--cache", default=str(CACHE_DIR), help="directory of cached remote answers")
    export.add_argument("--offline", action="store_true", help="use cached remote answers only")
    export.set_defaults(run=_export)

    run = steps.add_parser("run", help="judge every prompt with an OpenAI-compatible endpoint",
                           formatter_class=defaults)
    run.add_argument("--prompts", default=str(DEFAULT_PROMPTS), help="prompt file of an export")
    run.add_argument("--base-url", default=os.environ.get(config.JUDGE_BASE_URL_ENV, ""),
                     help=f"endpoint base URL, e.g. https://api.openai.com/v1 (env {config.JUDGE_BASE_URL_ENV})")
    run.add_argument("--model", default=os.environ.get(config.JUDGE_MODEL_ENV, ""),
                     help=f"model name (env {config.JUDGE_MODEL_ENV}); the key is read from {config.JUDGE_API_KEY_ENV}")
    run.add_argument("--temperature", type=float, default=None, help="sampling temperature (endpoint default)")
    run.add_argument("--attempts", type=int, default=3, help="attempts per trial while the verdict is unreadable")
    run.add_argument("--out", default="", help="directory of verdicts and tables (default: the export's)")
    run.set_defaults(run=_run)

    imported = steps.add_parser("import", help="read verdicts made by any means", formatter_class=defaults)
    imported.add_argument("file", help='JSON lines {"id": trial id, "response": judge text}')
    imported.add_argument("--prompts", default=str(DEFAULT_PROMPTS), help="prompt file of the export judged")
    imported.add_argument("--out", default="", help="directory of verdicts and tables (default: the export's)")
    imported.set_defaults(run=_import)

    tables = steps.add_parser("tables", help="rebuild the tables from saved verdicts", formatter_class=defaults)
    tables.add_argument("--prompts", default=str(DEFAULT_PROMPTS), help="prompt file of the export judged")
    tables.add_argument("--verdicts", default="", help="saved verdicts (default: NAME.verdicts.jsonl beside the export)")
    tables.set_defaults(run=_tables)


def _export(args: argparse.Namespace) -> int:
    from search.index.manifest import IndexLoadError, code_version

    from eval.engines.cache import AnswerCache, CacheError
    from eval.engines.ours import OurEngine
    from eval.engines.registry import make_engines
    from eval.judge.trials import collect, load_query_list, make_trials, write_export
    from eval.report import index_info

    specs = [s.strip() for s in args.engines.split(",") if s.strip()]
    filters = {"source": args.source} if args.source else None
    problem = (f"give exactly {len(LETTERS)} engines, not {len(specs)}" if len(specs) != len(LETTERS)
               else "--k and --runs must be at least 1" if min(args.k, args.runs) < 1 else "")
    if problem:
        print(f"python -m eval judge export: {problem}", file=sys.stderr)
        return 1
    try:
        queries = load_query_list(args.queries)
        engines = make_engines(specs, args.index, filters)
        answers = collect(engines, queries, args.k, AnswerCache(args.cache), args.offline)
        trials, skipped = make_trials(queries, answers, specs, args.runs, args.seed)
    except (ExportError, IndexLoadError, CacheError, ValueError) as error:
        print(f"python -m eval judge export: {error}", file=sys.stderr)
        return 1
    meta: dict[str, Any] = {"queries": str(args.queries), "command": args.command_line, "skipped": skipped,
                            "filters": filters or {}, "code_version": code_version()}
    ours = next((e for e in engines if isinstance(e, OurEngine)), None)
    if ours is not None:
        meta["index"] = index_info(ours.engine.index.manifest)
    name = args.name or Path(args.queries).stem
    paths = write_export(Export(name, specs, args.k, args.runs, args.seed, meta, trials), Path(args.out))
    print(f"{len(trials)} trials ({len(queries)} queries x {args.runs} runs, "
          f"{len({s['query'] for s in skipped})} queries left out because an engine gave no answer)")
    print("written: " + ", ".join(f"{p} ({p.stat().st_size / 1e6:.1f} MB)" for p in paths))
    return 0


def _run(args: argparse.Namespace) -> int:
    from eval.engines.base import EngineFailure
    from eval.judge.backend import ChatJudge, judge_trials

    if not args.base_url or not args.model:
        print(f"python -m eval judge run: give --base-url and --model (or set {config.JUDGE_BASE_URL_ENV} "
              f"and {config.JUDGE_MODEL_ENV})", file=sys.stderr)
        return 1
    try:
        export = read_export(args.prompts)
        path = _verdicts_path(args, export)
        done = read_verdicts(path, {t.id for t in export.trials}, repeats=True) if path.is_file() else {}
    except (ExportError, VerdictFileError) as error:
        print(f"python -m eval judge run: {error}", file=sys.stderr)
        return 1
    todo = [t for t in export.trials if t.id not in done or not done[t.id].readable]
    print(f"{len(todo)} of {len(export.trials)} trials to judge with {args.model} at {args.base_url}")
    judge = ChatJudge(args.base_url, args.model, os.environ.get(config.JUDGE_API_KEY_ENV, ""), args.temperature)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with path.open("a", encoding="utf-8") as progress:  # each verdict saved as it comes: a run can resume
            for verdict in judge_trials(todo, judge.complete, args.model, args.attempts):
                done[verdict.id] = verdict
                progress.write(json.dumps(verdict.to_dict(), ensure_ascii=False) + "\n")
                progress.flush()
    except EngineFailure as error:
        print(f"python -m eval judge run: {error}; verdicts so far are in {path}, run again to resume",
              file=sys.stderr)
        return 1
    write_verdicts(path, (done[t.id] for t in export.trials if t.id in done))
    return _write_tables(export, done, path.parent, args)


def _import(args: argparse.Namespace) -> int:
    try:
        export = read_export(args.prompts)
        verdicts = read_verdicts(Path(args.file), {t.id for t in export.trials})
    except (ExportError, VerdictFileError) as error:
        print(f"python -m eval judge import: {error}", file=sys.stderr)
        return 1
    path = _verdicts_path(args, export)
    write_verdicts(path, (verdicts[t.id] for t in export.trials if t.id in verdicts))
    print(f"{len(verdicts)} verdicts for {len(export.trials)} trials saved to {path}")
    return _write_tables(export, verdicts, path.parent, args)


def _tables(args: argparse.Namespace) -> int:
    prompts = Path(args.prompts)
    if not prompts.is_file():
        print(f"judge tables: skipped, no export at {prompts} (make one with `python -m eval judge export`)")
        return 0
    try:
        export = read_export(prompts)
        path = Path(args.verdicts) if args.verdicts else prompts.with_name(f"{export.name}.verdicts.jsonl")
        if not path.is_file():
            print(f"judge tables: skipped, no verdicts at {path} (import some with "
                  "`python -m eval judge import FILE`, or judge with `python -m eval judge run`)")
            return 0
        verdicts = read_verdicts(path, {t.id for t in export.trials})
    except (ExportError, VerdictFileError) as error:
        print(f"python -m eval judge tables: {error}", file=sys.stderr)
        return 1
    return _write_tables(export, verdicts, path.parent, args)


def _write_tables(export: Export, verdicts: Mapping[str, Verdict], out_dir: Path,
                  args: argparse.Namespace) -> int:
    tables = tabulate(export, verdicts)
    commands = {
        "Prompts made by": str(export.meta.get("command", "?")),
        "Tables made by": shlex.join(["python", "-m", "eval", "judge", "tables", "--prompts", _shown(args.prompts),
                                      "--verdicts", _shown(out_dir / f"{export.name}.verdicts.jsonl")]),
    }
    paths = write_tables(tables, export, out_dir, commands)
    print(to_markdown(tables, export, commands))
    print("written: " + ", ".join(str(p) for p in paths))
    return 0


def _verdicts_path(args: argparse.Namespace, export: Export) -> Path:
    out = Path(args.out) if args.out else Path(args.prompts).parent
    return out / f"{export.name}.verdicts.jsonl"


def _shown(path: str | Path) -> str:
    """A path as a command in a report shows it: relative to the repository when inside it."""
    resolved = Path(path).resolve()
    return str(resolved.relative_to(config.REPO_DIR)) if resolved.is_relative_to(config.REPO_DIR) else str(path)
