"""PCA and UMAP of the index's statement embeddings, coloured by area (`python -m eval embeddings`).

After the TheoremSearch paper's embedding plots: a balanced random sample of
statements from the most common areas (up to 10,000: 1,000 from each of 10 areas), projected to
two dimensions. An area is a Mathlib record's top-level folder (`Statement.package`: Algebra,
Topology, ...) and, for every other corpus, its source (stacks, batteries, ...). The PCA figure
also shows, like the paper's PCA figure, a few chosen areas alone: two that are far apart in
mathematics (algebraic geometry, probability), two that are close (probability, measure theory),
and the Stacks Project (algebraic geometry written in LaTeX), to see whether formal and informal
statements of one subject meet. The vectors are the index's own (its first stored vector per
record, read back from FAISS), so the plot shows the space that dense search uses; one figure
pair per index, named after its embedding model. Seeds are fixed.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
from matplotlib.figure import Figure

from search import config
from search.record import Statement

from eval.paths import FIGURES_DIR

if TYPE_CHECKING:
    from search.index.store import Index

SAMPLE = 10_000
AREAS = 10
#: The PCA figure's second panel: subjects far apart and close together.
FOCUS = ("AlgebraicGeometry", "stacks", "Probability", "MeasureTheory")
#: Colours of areas beyond the ten of `tab10` (focus areas outside the main sample).
EXTRA_COLOURS = ("black", "lime", "navy", "gold", "maroon", "teal")
SEED = 0

log = logging.getLogger(__name__)


def area(statement: Statement) -> str:
    """Mathlib's top-level folder, or the source for every other corpus."""
    if statement.source == "mathlib":
        return statement.package or "Mathlib"
    return statement.source


def first_vectors(rows: np.ndarray, records: int) -> np.ndarray:
    """For each record, the row of its first stored vector (-1 when it has none)."""
    first = np.full(records, -1, dtype=np.int64)
    order = np.argsort(rows, kind="stable")
    present, at = np.unique(rows[order], return_index=True)
    first[present] = order[at]
    return first


def balanced_sample(labels: Sequence[str], eligible: np.ndarray, areas: Sequence[str], per_area: int,
                    seed: int = SEED) -> np.ndarray:
    """Up to `per_area` random eligible positions of each area, in area order."""
    rng = np.random.default_rng(seed)
    labels_array = np.asarray(labels)
    picked = []
    for name in areas:
        pool = np.flatnonzero((labels_array == name) & eligible)
        picked.append(np.sort(rng.choice(pool, size=min(per_area, len(pool)), replace=False)))
    return np.concatenate(picked) if picked else np.zeros(0, dtype=np.int64)


def pca(vectors: np.ndarray, seed: int = SEED) -> np.ndarray:
    from sklearn.decomposition import PCA

    return PCA(n_components=2, random_state=seed).fit_transform(vectors)


def umap(vectors: np.ndarray, seed: int = SEED) -> np.ndarray:
    import umap as umap_learn

    neighbours = max(2, min(15, len(vectors) - 1))
    return umap_learn.UMAP(n_neighbors=neighbours, min_dist=0.1, metric="cosine", random_state=seed,
                           n_jobs=1).fit_transform(vectors)


def palette(names: Sequence[str]) -> dict[str, Any]:
    """A colour per area, in order of first appearance: one area keeps its colour in every panel."""
    from matplotlib import colormaps

    colours = [colormaps["tab10"](i) for i in range(10)] + list(EXTRA_COLOURS)
    return {name: colours[i % len(colours)] for i, name in enumerate(dict.fromkeys(names))}


def scatter(axes: Any, points: np.ndarray, labels: Sequence[str], title: str,
            colours: dict[str, Any] | None = None) -> None:
    """One colour per area, with a legend."""
    colours = colours or palette(labels)
    labels_array = np.asarray(labels)
    for name in dict.fromkeys(labels):
        mask = labels_array == name
        axes.scatter(points[mask, 0], points[mask, 1], s=2, alpha=0.5, color=colours[name],
                     label=f"{name} ({mask.sum()})", rasterized=True)
    axes.set_title(title, fontsize="medium")
    axes.set_xticks([])
    axes.set_yticks([])
    axes.legend(fontsize="x-small", markerscale=4, loc="best", frameon=True)


@dataclass
class EmbeddingSample:
    """The plotted statements of one index: vectors and areas of the main and the focus sample."""

    model: str  # model (backend), for titles
    slug: str  # for file names
    areas: int
    vectors: np.ndarray
    labels: list[str]
    focus_vectors: np.ndarray
    focus_labels: list[str]


def sample_index(index: Index, sample: int = SAMPLE, areas: int = AREAS, focus: Sequence[str] = FOCUS,
                 seed: int = SEED) -> EmbeddingSample:
    """A balanced sample of the `areas` most common areas (at most `sample` statements), and
    one of the `focus` areas present, with their stored vectors."""
    labels = [area(s) for s in index.records]
    first = first_vectors(index.dense.rows, len(index.records))
    eligible = first >= 0
    counts = Counter(label for label, ok in zip(labels, eligible) if ok)
    top = [name for name, _ in counts.most_common(areas)]
    per_area = max(1, sample // max(1, len(top)))
    chosen = balanced_sample(labels, eligible, top, per_area, seed)
    focused = balanced_sample(labels, eligible, [a for a in focus if counts[a]], per_area, seed)
    model = str(index.manifest.get("model", "model"))
    backend = index.manifest.get("embedding", {}).get("backend", "")
    log.info("%s: %d statements from %d areas", model, len(chosen), len(top))
    return EmbeddingSample(
        model=model + (f" ({backend})" if backend else ""),
        slug=re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(model).name),
        areas=len(top),
        vectors=index.dense.reconstruct(first[chosen]),
        labels=[labels[i] for i in chosen],
        focus_vectors=index.dense.reconstruct(first[focused]) if len(focused) else np.zeros((0, 1)),
        focus_labels=[labels[i] for i in focused],
    )


def plot_pca(sample: EmbeddingSample, figures_dir: Path, seed: int = SEED) -> Path:
    """`embeddings_pca_<model>.png`: all sampled areas, and the focus areas alone."""
    colours = palette(sample.labels + sample.focus_labels)
    figure = Figure(figsize=(13, 6), layout="constrained")
    left, right = figure.subplots(1, 2)
    scatter(left, pca(sample.vectors, seed), sample.labels,
            f"{len(sample.labels):,} statements, {sample.areas} most common areas", colours)
    if sample.focus_labels:
        scatter(right, pca(sample.focus_vectors, seed), sample.focus_labels,
                f"{len(sample.focus_labels):,} statements of {len(set(sample.focus_labels))} chosen areas", colours)
    figure.suptitle(f"PCA of statement embeddings: {sample.model}")
    return _save(figure, figures_dir / f"embeddings_pca_{sample.slug}.png")


def plot_umap(sample: EmbeddingSample, figures_dir: Path, seed: int = SEED) -> Path:
    """`embeddings_umap_<model>.png`: all sampled areas."""
    figure = Figure(figsize=(8, 7), layout="constrained")
    scatter(figure.add_subplot(), umap(sample.vectors, seed), sample.labels,
            f"{len(sample.labels):,} statements, {sample.areas} most common areas",
            palette(sample.labels + sample.focus_labels))
    figure.suptitle(f"UMAP of statement embeddings: {sample.model}")
    return _save(figure, figures_dir / f"embeddings_umap_{sample.slug}.png")


def _save(figure: Figure, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    return path


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("embeddings", help="PCA and UMAP plots of statement embeddings by area",
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--index", action="append", default=[],
                        help=f"index directory, one figure pair per index (default: {config.DEFAULT_INDEX_DIR})")
    parser.add_argument("--figures", default=str(FIGURES_DIR), help="directory of the PNGs")
    parser.add_argument("--sample", type=int, default=SAMPLE, help="statements plotted at most")
    parser.add_argument("--areas", type=int, default=AREAS, help="most common areas sampled")
    parser.add_argument("--seed", type=int, default=SEED, help="seed of the sample, PCA and UMAP")
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from search.index.manifest import IndexLoadError
    from search.index.store import Index

    written = []
    for directory in args.index or [str(config.DEFAULT_INDEX_DIR)]:
        if not (Path(directory) / "manifest.json").is_file():
            print(f"embeddings: skipped {directory}, no index there (build one with "
                  f"`python -m search build --out {directory}`)")
            continue
        try:
            index = Index.load(directory)
        except IndexLoadError as error:
            print(f"python -m eval embeddings: {error}", file=sys.stderr)
            return 1
        sample = sample_index(index, args.sample, args.areas, seed=args.seed)
        del index  # the sample holds what the plots need; free the index before UMAP
        written += [plot_pca(sample, Path(args.figures), args.seed), plot_umap(sample, Path(args.figures), args.seed)]
    if written:
        print("written: " + ", ".join(str(p) for p in written))
    return 0
