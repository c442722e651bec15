"""`python -m eval patterns`: Loogle patterns made from the corpus, answered over the index.

A query set nobody has to write: for a seeded sample of Lean theorems and lemmas, a pattern is
cut from the statement's own tree (the pattern index's nodes) and printed as Loogle text:

- `subterm`: a random subterm with a constant, some of its subterms abstracted into `_`, each
  variable of the statement into a named hole `?x0`, `?x1`, ... (the same variable, the same
  hole), numerals kept;
- `conclusion`: `⊢` and the whole statement abstracted the same way, hypotheses included,
  which `⊢` matches in any order.

The pattern is read by the server's own parser (`GET /json`'s path, `LoogleSearch.search`),
so an unreadable print is counted, not hidden. The theorem the pattern was cut from must be
among the hits: recall is the share of patterns for which it is (with a bootstrap interval),
beside how many declarations match (the hit counts) and where the theorem ranks in Loogle's
order. A brute-force matcher (`eval/pattern_reference.py`) then judges, on a sample of
patterns, a sample of records (the hits, the candidates that mention the pattern's constants,
and random records) one by one; the fast matcher must find the same hits there. Latency is
the time of `LoogleSearch.search` (what `GET /json` calls) per pattern, over the whole index,
for the generated patterns and for the examples of docs/loogle.md, whose first hits are listed too: the
wall time, and the process's CPU time, which other jobs on a shared machine do not inflate.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from search import config
from search.corpus.lean.expr import const, parse_term
from search.corpus.lean.syntax import term_tokens
from search.index.patterns import APP, FIRST_SYMBOL, PI, VAR_CODE

from eval.paths import RESULTS_DIR
from eval.report import json_number, markdown_table
from eval.stats import bootstrap

#: The example patterns of docs/loogle.md, in its order.
EXAMPLES = (
    "_ * (_ ^ _)", "?a * ?b = ?b * ?a", "(?a → ?b) → List ?a → List ?b", "Real.sqrt ?a * Real.sqrt ?a",
    "⊢ tsum _ = _ * tsum _", "|- _ < _ → tsum _ < tsum _", 'Real.sin, "two"', "Finset.card (_ ∪ _)",
)
THEOREM_KINDS = ("theorem", "lemma")
#: Nodes a subterm pattern is cut with, at least and at most.
SUBTERM_NODES = (5, 40)
#: Nodes of a statement a conclusion pattern is made from, at most.
CONCLUSION_NODES = 60
#: The chance that a subterm (not the pattern's root) is printed as `_`.
ABSTRACT = 0.25


@dataclass(frozen=True)
class GeneratedPattern:
    kind: str  # "subterm" or "conclusion"
    text: str
    position: int  # of the theorem in the index
    name: str


class _Printer:
    """Loogle text for a subtree of the flat nodes (module docstring)."""

    def __init__(self, nodes: np.ndarray, ends: np.ndarray, symbols: list[str], rng: random.Random) -> None:
        self.nodes, self.ends, self.symbols, self.rng = nodes, ends, symbols, rng
        self.constants = 0

    def print(self, at: int, root: bool = True) -> str | None:
        """The text, or None when it would hold no constant (Loogle needs one to search)."""
        self.constants = 0
        text = self._term(at, root)
        return text if self.constants else None

    def _term(self, at: int, root: bool) -> str:
        code = int(self.nodes[at])
        if not root and self.rng.random() < ABSTRACT:
            return "_"
        if code < 0:
            return f"?x{-code - 1}"
        if code == VAR_CODE:
            return "_"
        if code >= FIRST_SYMBOL:
            return self._symbol(self.symbols[code - FIRST_SYMBOL])
        left, right = at + 1, int(self.ends[at + 1])
        if code == PI:
            return f"({self._term(left, False)} → {self._term(right, False)})"
        numeral = self._numeral(at)
        if numeral is not None:
            return numeral
        return f"({self._term(left, False)} {self._term(right, False)})"

    def _numeral(self, at: int) -> str | None:
        """`OfNat.ofNat 2` is printed `2`, as a statement writes it."""
        function, argument = at + 1, int(self.ends[at + 1])
        if self.nodes[function] >= FIRST_SYMBOL and self.nodes[argument] >= FIRST_SYMBOL:
            head = self.symbols[int(self.nodes[function]) - FIRST_SYMBOL]
            value = self.symbols[int(self.nodes[argument]) - FIRST_SYMBOL]
            if head == "c:OfNat.ofNat" and value.startswith("n:"):
                return value[2:]
        return None

    def _symbol(self, symbol: str) -> str:
        kind, _, name = symbol.partition(":")
        if kind == "c" and writable_constant(name):
            self.constants += 1
            return name
        return "Prop" if symbol == "s:Prop" else "_"


def writable_constant(name: str) -> bool:
    """Whether a pattern can name the constant as written: not one that reads as a variable (`F`
    of field notation `x.F`, whose type's namespace a statement's reading does not know)."""
    return parse_term(term_tokens(name)) == const(name)


def generate(index: Any, count: int, seed: int) -> list[GeneratedPattern]:
    """`count` patterns (half subterm, half conclusion) from theorems drawn with `seed`."""
    patterns = index.patterns
    nodes, ends, offsets = np.asarray(patterns.nodes), np.asarray(patterns.ends), np.asarray(patterns.offsets)
    kinds = np.asarray(index.records.column("kind"), dtype=object)
    sizes = offsets[1:] - offsets[:-1]
    eligible = np.flatnonzero(np.isin(kinds, THEOREM_KINDS) & (sizes > 0) & (patterns.constants > 0))
    rng = random.Random(seed)
    printer = _Printer(nodes, ends, patterns.symbols, rng)
    names = index.records.column("name")
    made: list[GeneratedPattern] = []
    for position in rng.sample(eligible.tolist(), len(eligible)):
        if len(made) >= count:
            break
        start, stop = int(offsets[position]), int(offsets[position + 1])
        kind = "subterm" if len(made) % 2 == 0 else "conclusion"
        if kind == "subterm":
            places = [p for p in range(start, stop)
                      if nodes[p] == APP and SUBTERM_NODES[0] <= ends[p] - p <= SUBTERM_NODES[1]]
            if not places:
                continue
            text = printer.print(rng.choice(places))
        else:
            if stop - start > CONCLUSION_NODES:
                continue
            body = printer.print(start)
            text = None if body is None else f"⊢ {body}"
        if text is not None:
            made.append(GeneratedPattern(kind, text, position, names[position]))
    return made


def _percentiles(values: list[float], ps: tuple[int, ...] = (50, 90, 95, 99)) -> dict[str, float]:
    if not values:
        return {}
    return {f"p{p}": float(np.percentile(values, p)) for p in ps} | {"max": float(max(values)), "mean": float(np.mean(values))}


def run(index_dir: Path, count: int, seed: int, reference_patterns: int, reference_records: int) -> dict[str, Any]:
    from search.api.service import SearchService
    from search.engine.engine import Engine
    from search.engine.loogle import LoogleSearch, QueryError
    from search.engine.patterns import parse_pattern
    from search.index.store import Index

    from eval import pattern_reference

    index = Index.load(index_dir)
    if index.patterns is None:
        raise SystemExit(f"python -m eval patterns: {index_dir} has no patterns/ (build it with python -m search build)")
    service = SearchService.from_engine(Engine(index))
    loogle = LoogleSearch(service.engine, service.graph, service.lean_sources)
    generated = generate(index, count, seed)
    rows: list[dict[str, Any]] = []
    for g in generated:
        began, cpu = time.perf_counter(), time.process_time()
        try:
            ordered, _ = loogle.search(g.text)
        except QueryError as error:
            rows.append({"kind": g.kind, "pattern": g.text, "theorem": g.name, "error": error.message})
            continue
        seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - cpu
        where = np.flatnonzero(ordered == g.position)
        rows.append({"kind": g.kind, "pattern": g.text, "theorem": g.name, "hits": int(len(ordered)),
                     "found": bool(len(where)), "rank": int(where[0]) + 1 if len(where) else None,
                     "seconds": seconds, "cpu_seconds": cpu_seconds})

    # The brute-force reference on a sample of the answered patterns.
    rng = random.Random(seed + 1)
    answered = [(g, r) for g, r in zip(generated, rows) if "hits" in r]
    checked = rng.sample(answered, min(reference_patterns, len(answered)))
    lean = np.flatnonzero(loogle.lean & (np.asarray(index.patterns.offsets[1:]) > np.asarray(index.patterns.offsets[:-1])))
    nodes, offsets = index.patterns.nodes, index.patterns.offsets
    disagreements: list[dict[str, Any]] = []
    judged = 0
    for g, _ in checked:
        ordered, _ = loogle.search(g.text)
        pattern = parse_pattern(g.text.removeprefix("⊢ "), conclusion=g.text.startswith("⊢"))
        candidates = loogle.matcher.candidates(pattern.constants) if pattern.constants else np.zeros(0, np.int64)
        sample = set(ordered[:reference_records].tolist())
        sample |= set(rng.sample(candidates.tolist(), min(reference_records, len(candidates))))
        sample |= set(rng.sample(lean.tolist(), min(reference_records, len(lean))))
        fast = set(ordered.tolist()) & sample
        slow = {p for p in sample if pattern_reference.matches(
            pattern, pattern_reference.tree_of(np.asarray(nodes[offsets[p]:offsets[p + 1]])), index.patterns)}
        judged += len(sample)
        if fast != slow:
            disagreements.append({"pattern": g.text, "only_fast": sorted(index.records.column("name", sorted(fast - slow))),
                                  "only_reference": sorted(index.records.column("name", sorted(slow - fast)))})

    examples = []
    for text in EXAMPLES:
        began, cpu = time.perf_counter(), time.process_time()
        try:
            result = loogle.find(text, 3)
            first = [s.name for s in result.statements]
            examples.append({"pattern": text, "count": result.count, "first": first,
                             "seconds": time.perf_counter() - began, "cpu_seconds": time.process_time() - cpu})
        except QueryError as error:
            examples.append({"pattern": text, "error": error.message})

    answered_rows = [r for r in rows if "hits" in r]
    found = np.array([[r.get("found", False)] for r in rows], dtype=float)
    recall = bootstrap(found)[0]
    by_kind = {}
    for kind in ("subterm", "conclusion"):
        kind_rows = [r for r in rows if r["kind"] == kind]
        estimate = bootstrap(np.array([[r.get("found", False)] for r in kind_rows], dtype=float))[0]
        by_kind[kind] = {"patterns": len(kind_rows), "recall": _estimate(estimate),
                         "errors": sum("error" in r for r in kind_rows)}
    latencies = [r["seconds"] * 1000 for r in answered_rows] + [e["seconds"] * 1000 for e in examples if "seconds" in e]
    cpu = [r["cpu_seconds"] * 1000 for r in answered_rows] + [e["cpu_seconds"] * 1000 for e in examples if "seconds" in e]
    return {
        "command": None,
        "index": str(index_dir),
        "records": len(index.pagerank),
        "seed": seed,
        "patterns": len(rows),
        "errors": sum("error" in r for r in rows),
        "recall": _estimate(recall),
        "by_kind": by_kind,
        "hits": _percentiles([r["hits"] for r in answered_rows]),
        "rank": _percentiles([r["rank"] for r in answered_rows if r["rank"] is not None]),
        "latency_ms": _percentiles(latencies),
        #: The process's CPU time per pattern: what the wall time is on a machine not shared.
        "cpu_ms": _percentiles(cpu),
        "reference": {"patterns": len(checked), "records_judged": judged, "disagreements": len(disagreements),
                      "agreement": 1 - len(disagreements) / len(checked) if checked else None,
                      "examples": disagreements[:10]},
        "examples": examples,
        "rows": rows,
    }


def _estimate(e: Any) -> dict[str, Any]:
    return {"mean": json_number(e.mean), "low": json_number(e.low), "high": json_number(e.high), "n": e.n}


def to_markdown(report: dict[str, Any]) -> str:
    r, ref, lat, cpu = report["recall"], report["reference"], report["latency_ms"], report["cpu_ms"]
    lines = [
        "# Loogle patterns made from the corpus", "",
        f"`{report['command']}` over `{report['index']}` ({report['records']:,} records), seed {report['seed']}.", "",
        markdown_table(["patterns", "recall (theorem among the hits)", "errors", "hits p50 / p90 / max",
                        "rank p50 / p90", "latency p50 / p95 / max (ms)", "CPU p50 / p95 / max (ms)"],
                       [[str(report["patterns"]), f"{r['mean']:.3f} [{r['low']:.3f}, {r['high']:.3f}]",
                         str(report["errors"]),
                         " / ".join(f"{report['hits'][k]:,.0f}" for k in ("p50", "p90", "max")),
                         " / ".join(f"{report['rank'][k]:,.0f}" for k in ("p50", "p90")),
                         " / ".join(f"{lat[k]:.0f}" for k in ("p50", "p95", "max")),
                         " / ".join(f"{cpu[k]:.0f}" for k in ("p50", "p95", "max"))]]),
        "",
        markdown_table(["kind", "patterns", "recall", "errors"],
                       [[k, str(v["patterns"]), f"{v['recall']['mean']:.3f}", str(v["errors"])]
                        for k, v in report["by_kind"].items()]),
        "",
        f"Brute-force reference: {ref['patterns']} patterns, {ref['records_judged']:,} (pattern, record) pairs "
        f"judged one by one, {ref['disagreements']} patterns with different hits.", "",
        markdown_table(["pattern", "count", "first hits", "ms"],
                       [[f"`{e['pattern']}`", str(e.get("count", "error")),
                         ", ".join(e.get("first", [])) or e.get("error", ""), f"{e.get('seconds', 0) * 1000:.0f}"]
                        for e in report["examples"]]),
        "",
        "Patterns whose theorem is not among the hits (first 20):", "",
        *[f"- `{x['theorem']}`: `{x['pattern']}` ({x.get('error') or 'not found'})"
          for x in [row for row in report["rows"] if not row.get("found")][:20]],
    ]
    return "\n".join(lines) + "\n"


def _command(args: argparse.Namespace) -> int:
    report = run(Path(args.index), args.count, args.seed, args.reference_patterns, args.reference_records)
    report["command"] = args.command_line
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "patterns.json").write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (out / "patterns.md").write_text(to_markdown(report), encoding="utf-8")
    print(to_markdown(report).split("\nPatterns whose")[0])
    print(f"written: {out / 'patterns.json'}, {out / 'patterns.md'}")
    return 0 if report["reference"]["disagreements"] == 0 else 1


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("patterns", help="Loogle patterns made from the corpus: recall, hits, "
                                                  "a brute-force check, latency",
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter, description=__doc__)
    parser.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR), help="index directory")
    parser.add_argument("--count", type=int, default=400, help="patterns to generate")
    parser.add_argument("--seed", type=int, default=17, help="sampling seed")
    parser.add_argument("--reference-patterns", type=int, default=60,
                        help="patterns the brute-force matcher checks")
    parser.add_argument("--reference-records", type=int, default=200,
                        help="records of each kind (hits, candidates, random) it judges per pattern")
    parser.add_argument("--out", default=str(RESULTS_DIR), help="directory of patterns.json and patterns.md")
    parser.set_defaults(run=_command)
