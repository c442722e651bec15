"""`python -m search build`: sources -> records -> every index file -> manifest.

The build writes into a temporary sibling directory and renames it into place at the end,
so an interrupted build never leaves a half-written index where a good one was.
"""

from __future__ import annotations

import json
import logging
import shutil
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from search import config
from search.corpus.sources import load_records
from search.index.adapt import REPORT_FILE
from search.index.dense import DenseIndex, stored_vectors, text_keys
from search.index.embed import Embedder, check_model
from search.index.graph import structure_scores
from search.index.lexical import PARAMS, LexicalIndex
from search.index.manifest import LEXICON, MODEL_DIR, RECORDS, read_manifest, write_manifest
from search.index.meta import DIRECTORY as META, save_meta
from search.index.patterns import DIRECTORY as PATTERNS, PatternIndex
from search.record import Statement, read_records, write_records
from search.text.tokenize import name_tokens, tokenize
from search.text.views import DENSE_VIEWS, LEXICAL_PARTS, fields_by_head, lexical_text, view_texts

log = logging.getLogger(__name__)


#: Embedding profiles: `quality` embeds every record's text view at 120 characters / 48
#: tokens; `fast` cuts it to 100 / 40 and embeds group heads only, trading retrieval quality
#: for build time (docs/index-and-corpora.md, "Build time and memory", gives both with their commands).
PROFILES = {
    "quality": {"text_chars": 120, "max_length": 48, "heads_only": False},
    "fast": {"text_chars": 100, "max_length": 40, "heads_only": True},
}


@dataclass
class BuildOptions:
    """Everything a build depends on besides the corpora; recorded in the manifest."""

    sources: Sequence[str] = config.DEFAULT_SOURCES
    model: str = config.DEFAULT_MODEL
    backend: str = "onnx-int8"
    views: Sequence[str] = ("text",)
    profile: str = "quality"
    progress: bool = True
    #: An index whose vectors are reused for texts it embedded the same way (same model,
    #: backend and token limit), so that a rebuild embeds only new or changed texts.
    reuse: Path | None = None
    timings: dict[str, float] = field(default_factory=dict)
    #: The command line that asked for this build, kept in the manifest so that a published
    #: index says how to rebuild it ("" when built from Python).
    command: str = ""
    #: Vectors taken from `reuse` by the last build.
    reused: int = 0

    @property
    def settings(self) -> dict[str, Any]:
        return PROFILES[self.profile]

    def __post_init__(self) -> None:
        if self.profile not in PROFILES:
            raise ValueError(f"unknown profile {self.profile!r}; choose one of {', '.join(PROFILES)}")
        unknown = [v for v in self.views if v not in DENSE_VIEWS]
        if unknown or not self.views:
            raise ValueError(f"dense views must be some of {', '.join(DENSE_VIEWS)}; got {list(self.views)}")
        check_model(self.model)


def embed_views(
    statements: Sequence[Statement], options: BuildOptions, known: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[DenseIndex, np.ndarray]:
    """Embed each configured view of every record that has it (group heads only if the
    profile says so: results are groups, and a head's vectors speak for its members).

    The seconds of its three steps go to `options.timings` as `dense.views`, `dense.embed`
    (model loading included) and `dense.faiss`, for the benchmark (`python -m eval bench build`).
    A text whose key is among `known` (keys and vectors, `_reusable_vectors`) takes that
    vector instead of being embedded. Returns the index and the text key of each of its vectors."""
    settings = options.settings
    texts: list[str] = []
    rows: list[int] = []
    with timed(options.timings, "dense.views"):
        for position, statement in enumerate(statements):
            if settings["heads_only"] and statement.group not in ("", statement.id):
                continue
            views = view_texts(statement, settings["text_chars"])
            for view in options.views:
                if views[view]:
                    texts.append(views[view])
                    rows.append(position)
    keys = text_keys(texts)
    with timed(options.timings, "dense.embed"):
        embedder = Embedder(options.model, options.backend, settings["max_length"])
        vectors = np.zeros((len(texts), embedder.dimension), dtype=np.float32)
        found = np.zeros(len(texts), dtype=bool)
        if known is not None and len(known[0]):
            order = np.argsort(known[0])
            at = np.minimum(np.searchsorted(known[0], keys, sorter=order), len(order) - 1)
            found = known[0][order[at]] == keys
            vectors[found] = known[1][order[at[found]]]
        new = np.flatnonzero(~found)
        options.reused = int(found.sum())
        if len(new):
            vectors[new] = embedder.encode([texts[i] for i in new], progress=options.progress, desc="embed views")
    with timed(options.timings, "dense.faiss"):
        return DenseIndex.build(vectors, np.asarray(rows)), keys


def _reusable_vectors(options: BuildOptions) -> tuple[np.ndarray, np.ndarray] | None:
    """The text keys and vectors of `options.reuse`, when it was embedded the same way."""
    if options.reuse is None:
        return None
    manifest = read_manifest(options.reuse, verify=False, older=True)
    wanted = {"model": options.model, "backend": options.backend, "max_length": options.settings["max_length"]}
    found = {"model": manifest.get("model"), **{k: manifest.get("embedding", {}).get(k) for k in ("backend", "max_length")}}
    if found != wanted:
        raise ValueError(f"--reuse {options.reuse}: embedded with {found}, this build embeds with {wanted}")
    known = stored_vectors(options.reuse / "dense")
    if known is None:
        raise ValueError(f"--reuse {options.reuse}: its dense index keeps no text keys (built before they were kept)")
    return known


def lexical_documents(statements: Sequence[Statement], parts: Sequence[str] = LEXICAL_PARTS) -> list[list[str]]:
    """The token lists of the main BM25+ index, one per record (`parts`: search/text/views.py)."""
    fields = fields_by_head(statements)
    return [tokenize(lexical_text(s, fields.get(s.id, ()), parts)) for s in statements]


def name_documents(statements: Sequence[Statement]) -> list[list[str]]:
    """The token lists of the names BM25+ index: each name's tokens and its aliases' words."""
    return [name_tokens(s.name) + [t for a in s.aliases for t in tokenize(a)] for s in statements]


def build_index(out: Path, options: BuildOptions) -> dict:
    """Build a complete index directory at `out` and return its manifest."""
    out = out.resolve()
    known = _reusable_vectors(options)
    staging = out.with_name(out.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)

    with timed(options.timings, "records"):
        corpus = load_records(options.sources)
        statements = corpus.statements
        write_records(statements, staging / RECORDS)
        save_meta(read_records(staging / RECORDS).meta_columns, staging / META)
        if corpus.lexicon is not None:
            corpus.lexicon.write(staging / LEXICON)
    with timed(options.timings, "lexical"):
        LexicalIndex.write(lexical_documents(statements), staging / "bm25_main")
        LexicalIndex.write(name_documents(statements), staging / "bm25_names")
    with timed(options.timings, "structure"):
        pagerank, dependents = structure_scores(statements)
        np.save(staging / "pagerank.npy", pagerank)
        np.save(staging / "dependents.npy", dependents)
    with timed(options.timings, "patterns"):
        PatternIndex.build(statements).save(staging / PATTERNS)
    with timed(options.timings, "dense"):
        dense, keys = embed_views(statements, options, known)
        dense.save(staging / "dense", keys)
    model = carry_model(options.model, staging)

    manifest = write_manifest(
        staging,
        {
            "sources": corpus.sources,
            "counts": corpus.counts(),
            "total": len(statements),
            "model": options.model,
            **model,
            "embedding": {
                "backend": options.backend,
                "views": list(options.views),
                "profile": options.profile,
                **options.settings,
                "reused_from": str(options.reuse) if options.reuse else None,
                "vectors_reused": options.reused,
            },
            "bm25": {"method": "bm25+", **PARAMS},
            "informaliser": corpus.informalised,
            "timings_seconds": {k: round(v, 1) for k, v in options.timings.items()},
            "build_command": options.command,
        },
    )
    if out.exists():
        shutil.rmtree(out)
    staging.rename(out)
    return manifest


def carry_model(model: str, staging: Path) -> dict[str, Any]:
    """Copy a model given as a local directory (`python -m search adapt`'s output) into the
    index, so that the index embeds queries with the model that embedded it wherever it is
    opened; the manifest's fields that name it (`model_dir`, and how it was made)."""
    source = Path(model)
    if not source.is_dir():
        return {}
    shutil.copytree(source, staging / MODEL_DIR)
    report = source / REPORT_FILE
    made = {"adaptation": json.loads(report.read_text(encoding="utf-8"))} if report.is_file() else {}
    return {"model_dir": MODEL_DIR, **made}


@contextmanager
def timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    """Time a stage (of a build, of a load into PostgreSQL) into `timings` and log it."""
    start = time.perf_counter()
    log.info("stage %s ...", stage)
    yield
    timings[stage] = time.perf_counter() - start
    log.info("stage %s: %.1f s", stage, timings[stage])
