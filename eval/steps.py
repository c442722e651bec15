"""`python -m eval steps`: how `default` got where it is, one measured change at a time.

Each step is a ranking setting (`--set`) or a set of BM25+ parts (`--lexical`), applied on
top of the steps before it, over one built index and one query set (or, for a step that takes
something away from `default`, against `default`). Every step's figures come with their
bootstrap interval, the median milliseconds of a query through `Engine.search`, a paired
permutation test against the step before (or the one it names), and the
`python -m eval retrieval` command that measures that step alone.

A step may run on another index of the same records (`Step.index`, one of OTHER_INDEXES, each
given by the option of its name): `--adapted INDEX`, one built with the embedding model that
`python -m search adapt` trained; `--sentences INDEX`, one built with a second vector per
record, its sentence (`python -m search build --views text,sentence`); `--mpnet INDEX`, one
built with all-mpnet-base-v2 (`python -m search build --model all-mpnet-base-v2`). A step whose
index is not given is left out.

A new step is one entry in STEPS.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from eval.querysets import LabelledQuery
from eval.retrieval import run_retrieval
from eval.stats import OVERALL, PRIMARY, Estimate, paired_test
from search import config
from search.engine import variants
from search.text.views import LEXICAL_PARTS

if TYPE_CHECKING:
    from search.index.store import Index

#: Metrics each step reports (the primary one first).
METRICS = (PRIMARY, "R@10", "MRR@10", "Hit@1")


def _without_signals(*dropped: str) -> str:
    """The setting that fuses `default`'s signals but `dropped`."""
    kept = [signal for signal in variants.get(variants.DEFAULT).signals if signal not in dropped]
    return "signals=(" + ",".join(repr(signal) for signal in kept) + ")"


def _parts_without(*dropped: str) -> tuple[str, ...]:
    """BM25+'s parts but `dropped`."""
    return tuple(p for p in LEXICAL_PARTS if p not in dropped)


#: Every kind of query weighed alike, as before the route of Lean code.
_UNROUTED = "styles.lean.dense=1.0"
#: ... and number words that count things ("two even numbers") in the lexical query, as before
#: they were left out: every step before the one that leaves them out.
_BEFORE_COUNTS = (_UNROUTED, "lexical_counts=True")
_BEFORE_TITLES = (_without_signals("title", "spelled", "types"), "exact_name.signals=('exact',)", *_BEFORE_COUNTS)
_BEFORE_TYPES = (_without_signals("types"), *_BEFORE_COUNTS)
_BEFORE_INFORMAL = _parts_without("informal", "fields", "sentence")
_DENSE_ONLY = ("signals=('dense',)", _UNROUTED)
#: The index built with the adapted embedding model (search/index/adapt.py).
ADAPTED = "adapted"
#: The index whose records have a second dense vector, their sentence (search/text/views.py).
SENTENCES = "sentences"
#: The index embedded with all-mpnet-base-v2 (search/index/embed.py, PACKAGED_MODELS).
MPNET = "mpnet"
#: Other indexes a step may run on: name (its `python -m eval steps` option) -> how it is built.
OTHER_INDEXES = {
    ADAPTED: "an index built with `python -m search build --model DIR`, DIR being the output of "
             "`python -m search adapt`",
    SENTENCES: "an index built with `python -m search build --views text,sentence`: a second vector per record, "
               "the informaliser's sentence",
    MPNET: "an index built with `python -m search build --model all-mpnet-base-v2`",
}


@dataclass(frozen=True)
class Step:
    """`default` with `settings` applied and BM25+ reading only `lexical` (all parts when empty),
    compared with the step `versus` (the one before it when None)."""

    key: str
    label: str
    settings: tuple[str, ...] = ()
    lexical: tuple[str, ...] = ()
    versus: str | None = None
    #: The index it runs on: "" for `--index`, else a name of OTHER_INDEXES.
    index: str = ""

    def arguments(self) -> list[str]:
        """The `python -m eval retrieval` arguments that measure this step alone."""
        out = ["--variants", variants.DEFAULT]
        for setting in self.settings:
            out += ["--set", setting]
        if self.lexical:
            out += ["--lexical", ",".join(self.lexical)]
        return out


STEPS = (
    Step("start", "`default` before famous titles and informal text",
         _BEFORE_TITLES, _BEFORE_INFORMAL),
    Step("titles", "+ famous titles and spelled-out names as signals, titles first",
         _BEFORE_TYPES, _BEFORE_INFORMAL),
    Step("informal", "+ informal text (module docs, structure and definition docstrings) in BM25+",
         _BEFORE_TYPES, _parts_without("fields", "sentence")),
    Step("fields", "+ a structure's fields in BM25+", _BEFORE_TYPES, _parts_without("sentence")),
    Step("types", "+ types found by their own name spelled in words", _BEFORE_COUNTS, _parts_without("sentence")),
    Step("sentence", "+ Lean statements said in words by the informaliser, in BM25+", _BEFORE_COUNTS),
    Step("counts", "+ number words that count things (\"two even numbers\") left out of the lexical query",
         (_UNROUTED,)),
    Step(variants.DEFAULT, "+ the dense signal at half weight for queries in Lean code (= `default`)"),
    Step("no-dependents", "`default` without the dependents prior", ("dependents.weight=0.0",),
         versus=variants.DEFAULT),
    Step("no-pagerank", "`default` without the PageRank tie-breaker", ("pagerank.weight=0.0",),
         versus=variants.DEFAULT),
    Step("dense", "`default` fusing the dense signal only, MiniLM as shipped", _DENSE_ONLY, versus=variants.DEFAULT),
    Step("adapted-dense", "`default` fusing the dense signal only, MiniLM adapted on pairs from the corpus",
         _DENSE_ONLY, versus="dense", index=ADAPTED),
    Step("adapted", "`default` over the index embedded with the adapted MiniLM", versus=variants.DEFAULT,
         index=ADAPTED),
    Step("sentences-dense", "`default` fusing the dense signal only, the text and the sentence each a vector",
         _DENSE_ONLY, versus="dense", index=SENTENCES),
    Step("sentences", "`default` over the index with the sentence as a second vector", versus=variants.DEFAULT,
         index=SENTENCES),
    Step("mpnet-dense", "`default` fusing the dense signal only, all-mpnet-base-v2", _DENSE_ONLY, versus="dense",
         index=MPNET),
    Step("mpnet", "`default` over the index embedded with all-mpnet-base-v2", versus=variants.DEFAULT, index=MPNET),
)


def _estimate(estimate: Estimate) -> dict[str, float]:
    return {"mean": estimate.mean, "low": estimate.low, "high": estimate.high}


def run_steps(index_dir: Path, queries: Sequence[LabelledQuery], steps: Sequence[Step] = STEPS,
              others: Mapping[str, Path] | None = None) -> dict:
    """Every step's figures, intervals and paired test against the step before (or its `versus`);
    a step on another index (OTHER_INDEXES) only when `others` gives that index."""
    from search.engine.engine import Engine
    from search.index.build import lexical_documents
    from search.index.lexical import LexicalIndex
    from search.index.store import Index

    index = Index.load(index_dir)
    others = others or {}
    directories = {"": index_dir, **others}
    indexes = {"": index, **{name: _same_records(Index.load(path), index) for name, path in others.items()}}
    built = index.lexical
    records = list(index.records)
    lexical_by_parts = {LEXICAL_PARTS: built}
    rows: list[dict] = []
    runs = {}
    for step in steps:
        if step.index not in indexes:
            continue
        parts = step.lexical or LEXICAL_PARTS
        if parts not in lexical_by_parts:
            lexical_by_parts[parts] = LexicalIndex.build(lexical_documents(records, parts))
        index.lexical = lexical_by_parts[parts]
        ranking = variants.get(variants.DEFAULT).with_settings(step.settings)
        run = run_retrieval(Engine(indexes[step.index]), queries, {step.key: ranking})
        result = run.variants[step.key]
        summary = result.summary[OVERALL]
        row = {
            "key": step.key,
            "label": step.label,
            "command": "python -m eval retrieval " + shlex.join(
                ["--index", str(directories[step.index])] + step.arguments()),
            "metrics": {m: _estimate(summary[m]) for m in METRICS},
            "median_ms": float(np.median(result.seconds) * 1000),
        }
        baseline = step.versus or (rows[-1]["key"] if rows else None)
        if baseline is not None:
            test = paired_test(runs[baseline].scores[PRIMARY], result.scores[PRIMARY],
                               baseline=baseline, variant=step.key)
            row["versus"] = {"step": baseline, "diff": _estimate(test.diff), "p_value": test.p_value}
        rows.append(row)
        runs[step.key] = result
    index.lexical = built
    return {"index": str(index_dir), "others": {name: str(path) for name, path in others.items()},
            "queries": len(queries), "metric": PRIMARY, "steps": rows}


def _same_records(other: "Index", index: "Index") -> "Index":
    """`other`, checked to hold the records of `index` in the same order (an index that differs
    only by its dense vectors), so that the two are compared query by query."""
    if other.records.column("id") != index.records.column("id"):
        raise ValueError(f"{other.directory} holds other records than {index.directory}: build both from the same "
                         "corpora and code, with only --model or --views changed")
    return other


def _steps(args: argparse.Namespace) -> int:
    from eval.querysets import load_queries

    queries = load_queries(Path(args.queries))
    try:
        others = {name: Path(getattr(args, name)) for name in OTHER_INDEXES if getattr(args, name)}
        report = run_steps(Path(args.index), queries, others=others)
    except ValueError as error:
        print(f"python -m eval steps: {error}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "steps.json"
    path.write_text(json.dumps(report, indent=1), encoding="utf-8")
    for row in report["steps"]:
        m = row["metrics"][PRIMARY]
        versus = row.get("versus")
        change = (f"  {versus['diff']['mean']:+.3f} [{versus['diff']['low']:+.3f}, {versus['diff']['high']:+.3f}] "
                  f"p={versus['p_value']:.3f} vs {versus['step']}") if versus else ""
        print(f"{row['key']:14} {PRIMARY} {m['mean']:.3f} [{m['low']:.3f}, {m['high']:.3f}]"
              f"  R@10 {row['metrics']['R@10']['mean']:.3f}  {row['median_ms']:.0f} ms{change}")
    print(f"\nwritten: {path}")
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    steps = commands.add_parser(
        "steps", help="each change that made `default`, measured with a paired test against the one before",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    steps.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR))
    steps.add_argument("--queries", default=str(config.QUERIES_DIR / "mathlibqr_dev.json"))
    for name, built in OTHER_INDEXES.items():
        steps.add_argument(f"--{name}", metavar="INDEX", help=f"{built}: adds the steps over it")
    steps.add_argument("--out", required=True, help="directory of steps.json")
    steps.set_defaults(run=_steps)
