"""Which corpora an index is built from, and the records they make together.

A source spec is the name of a shared corpus (`mathlib`, `stacks`, ...), `NAME=PATH` for a
user's own data in a format recognised from its content (`search.corpus.formats`), or
`NAME:FORMAT=PATH` naming the format; `arxiv` / `arxiv=DIR_OR_HUB_NAME` is the TheoremSearch
dataset. `load_records` reads every source and adds the links between them.
"""

from __future__ import annotations

import logging
import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Sequence

from search import config
from search.corpus.crosslinks import link_stacks
from search.corpus.formats import FORMATS, CorpusFormat
from search.corpus.lean.informaliser import informalise
from search.corpus.lean.lexicon import Lexicon, build_lexicon
from search.corpus.theoremsearch import DATASET
from search.record import Statement

log = logging.getLogger(__name__)
#: The source name of the TheoremSearch dataset (arXiv statements).
ARXIV = "arxiv"


@dataclass(frozen=True)
class Source:
    """A named corpus at a location, in one registered format."""

    name: str
    path: Path
    format: str

    @property
    def reader(self) -> CorpusFormat:
        return FORMATS[self.format]

    def load(self) -> list[Statement]:
        return self.reader.load(self)

    def commit(self) -> str:
        """The upstream commit the corpus was read at ("" when unknown, e.g. a user's data)."""
        return self.reader.commit(self)

    def licence(self) -> str:
        """The data's licence as its provider states it ("" when unknown)."""
        return self.reader.licence(self)


def resolve_source(spec: str) -> Source:
    """`mathlib` -> the shared Mathlib source tree; `mine=./MyProject` -> a user's corpus in the
    format its content shows; `mine:latex=./notes` -> a user's corpus in a named format."""
    if spec == ARXIV or spec.startswith(ARXIV + "="):
        return Source(ARXIV, Path(spec.partition("=")[2] or DATASET), "theoremsearch")
    if "=" in spec:
        head, _, raw = spec.partition("=")
        name, colon, format_name = head.partition(":")
        if not name:
            raise ValueError(f"source {spec!r}: write NAME=PATH or NAME:FORMAT=PATH")
        path = Path(raw).expanduser()
        if colon:
            if format_name not in FORMATS:
                raise ValueError(f"source {spec!r}: unknown format {format_name!r}; "
                                 f"formats: {', '.join(FORMATS)}")
            return Source(name, path, format_name)
        if not path.exists():
            raise FileNotFoundError(f"source {name!r}: {path} does not exist")
        return Source(name, path, _recognised(name, path))
    if spec in config.LEAN_SOURCES:
        return Source(spec, config.LEAN_SOURCE_DIR / f"{spec}.tar.gz", "lean-source")
    if spec in config.LATEX_SOURCES:
        return Source(spec, config.LATEX_CORPUS_DIR / f"{spec}.tar.gz", "latex")
    known = ", ".join(config.DEFAULT_SOURCES)
    raise ValueError(f"unknown source {spec!r}: use one of {known}, or NAME=PATH, or NAME:FORMAT=PATH")


def _recognised(name: str, path: Path) -> str:
    """The one format that recognises `path`'s content."""
    formats = [format_name for format_name, reader in FORMATS.items() if reader.recognises(path)]
    if len(formats) != 1:
        found = f"it could be {' or '.join(formats)}" if formats else "no format recognises it"
        raise ValueError(f"source {name!r}: {path}: {found}; name one as {name}:FORMAT={path} "
                         f"(formats: {', '.join(FORMATS)})")
    return formats[0]


@dataclass(frozen=True)
class Corpus:
    """The records of several sources, linked to one another, and where each came from, with
    the lexicon their Lean statements were said in words with."""

    statements: list[Statement]
    #: Source name -> {"format", "commit", "licence"}, as the index manifest records it.
    sources: dict[str, dict[str, str]]
    lexicon: Lexicon | None = None

    @property
    def informalised(self) -> dict[str, Any]:
        """How many Lean records the informaliser said in words, per kind, and how many
        constants its lexicon knows, per source of their phrases (the manifest's record)."""
        said: dict[str, list[int]] = {}
        for s in self.statements:
            if s.formal:
                counts = said.setdefault(s.kind, [0, 0])
                counts[0] += bool(s.informal_statement)
                counts[1] += 1
        return {
            "said": sum(c[0] for c in said.values()), "lean_records": sum(c[1] for c in said.values()),
            "by_kind": {kind: {"said": c[0], "records": c[1]} for kind, c in sorted(said.items())},
            "lexicon": self.lexicon.counts() if self.lexicon else {},
        }

    def counts(self) -> dict[str, dict[str, int]]:
        """Records per source and kind (kinds sorted), as the index manifest records them."""
        counts: dict[str, Counter[str]] = {}
        for statement in self.statements:
            counts.setdefault(statement.source, Counter())[statement.kind] += 1
        return {source: dict(sorted(kinds.items())) for source, kinds in counts.items()}


def default_sources(elan_home: Path | None = None) -> tuple[str, ...]:
    """The corpora a build reads when none are named: every shared one, and Lean's core library
    when elan installed a toolchain (`lean=<toolchain>/src/lean`, the newest)."""
    from search.corpus.lean.toolchain import core_sources

    core = core_sources(elan_home)
    return config.DEFAULT_SOURCES + ((f"{config.LEAN_CORE_SOURCE}={core.path}",) if core else ())


def _size(path: Path) -> int:
    """Bytes on disk of a file or of a folder's files (0 for what is not on disk, e.g. a dataset
    named on the hub)."""
    if path.is_file():
        return path.stat().st_size
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else 0


def _read_in_turn(sources: Sequence[Source]) -> list[list[Statement]]:
    return [source.load() for source in sources]


def _start_background(level: int) -> None:
    """Log like the caller, and yield the processor to it (and to the processes it starts)."""
    logging.basicConfig(level=level, format=config.LOG_FORMAT, datefmt=config.LOG_DATE_FORMAT)
    os.nice(config.BACKGROUND_NICENESS)


def _read_sources(resolved: Sequence[Source]) -> list[list[Statement]]:
    """Each source's statements, in the order named. The largest source is read here while one
    background process reads the others in turn, when they are large enough to pay for the
    process (config.BACKGROUND_SOURCES_FROM): Mathlib's tree leaves a core idle once its files
    are read, and the LaTeX corpora fill it."""
    sizes = [_size(source.path) for source in resolved]
    if len(sizes) < 2 or sum(sizes) - max(sizes) < config.BACKGROUND_SOURCES_FROM:
        return _read_in_turn(resolved)
    largest = sizes.index(max(sizes))
    others = [source for k, source in enumerate(resolved) if k != largest]
    with ProcessPoolExecutor(1, mp_context=get_context("spawn"), initializer=_start_background,
                             initargs=(logging.getLogger().getEffectiveLevel(),)) as pool:
        background = pool.submit(_read_in_turn, others)
        here = resolved[largest].load()
        read = iter(background.result())
    return [here if k == largest else next(read) for k in range(len(resolved))]


def load_records(specs: Sequence[str], sentences: bool = True) -> Corpus:
    """Records of every source, then what needs all of them: the links between sources
    (Mathlib's `@[stacks]`), and every Lean statement said in words with a lexicon of every Lean
    source's constants (PhysLean's statements use Mathlib's), unless `sentences` is False: the
    records as parsed, sooner, for what counts them."""
    statements: list[Statement] = []
    sources: dict[str, dict[str, str]] = {}
    resolved = [resolve_source(spec) for spec in specs]
    missing = [s.name for s in resolved if s.name in config.DEFAULT_SOURCES and not s.path.exists()]
    if missing:
        from search.corpus.fetch import CorporaMissing, missing_message

        raise CorporaMissing(missing_message(missing))
    for source in resolved:
        if source.name in sources:
            raise ValueError(f"source {source.name!r} is named twice")
        sources[source.name] = {"format": source.format, "commit": source.commit(), "licence": source.licence()}
    for read in _read_sources(resolved):
        statements.extend(read)
    link_stacks(statements)
    lean = [s for s in statements if s.formal]
    lexicon = build_lexicon(lean) if lean and sentences else None
    if lexicon is not None:
        said = informalise(lean, lexicon, config.PARSE_WORKERS)
        log.info("informaliser: %d of %d Lean records said in words; lexicon of %d constants (%s)", said, len(lean),
                 len(lexicon.phrases), ", ".join(f"{source} {n}" for source, n in lexicon.counts().items()))
    return Corpus(statements, sources, lexicon)
