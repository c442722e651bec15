"""A small index built end to end from fixture corpora (`small_index`), its manifest and files."""

from pathlib import Path

import numpy as np

import pytest

from search.index.build import BuildOptions, build_index
from search.index.manifest import IndexLoadError
from search.index.store import Index


def test_manifest_counts_and_settings(small_index: Path) -> None:
    index = Index.load(small_index)
    manifest = index.manifest
    assert manifest["counts"]["mathlib"]["theorem"] == 6  # 4 written + 2 additive twins
    assert manifest["counts"]["mathlib"]["field"] == 1
    assert manifest["total"] == len(index.records)
    assert manifest["embedding"]["views"] == ["name", "text"]
    assert len(index.dense.rows) == 2 * len(index.records)
    assert manifest["embedding"]["profile"] == "quality"
    assert "records.arrow" in manifest["files"] and "dense/vectors.faiss" in manifest["files"]


def test_tampered_index_is_refused(small_index: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(small_index, copy)
    (copy / "pagerank.npy").write_bytes(b"0")
    with pytest.raises(IndexLoadError, match="pagerank.npy does not match"):
        Index.load(copy)


def test_fast_profile_embeds_group_heads_only(tmp_path: Path, fixtures_dir: Path) -> None:
    sources = [f"mathlib={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}"]
    manifest = build_index(tmp_path / "fast", BuildOptions(sources=sources, profile="fast", progress=False))
    assert manifest["embedding"] == {
        "backend": "onnx-int8", "views": ["text"], "profile": "fast",
        "text_chars": 100, "max_length": 40, "heads_only": True, "reused_from": None, "vectors_reused": 0,
    }
    index = Index.load(tmp_path / "fast")
    heads = {i for i, s in enumerate(index.records) if s.group == s.id}
    assert set(index.dense.rows.tolist()) == heads != set(range(len(index.records)))


def test_a_rebuild_reuses_the_vectors_of_texts_already_embedded(
    tmp_path: Path, small_index: Path, fixtures_dir: Path
) -> None:
    from search.index.dense import DenseIndex

    sources = [f"mathlib={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}"]
    again = build_index(tmp_path / "again", BuildOptions(sources=sources, views=("name", "text"), progress=False,
                                                         reuse=small_index))
    first = DenseIndex.load(small_index / "dense")
    second = DenseIndex.load(tmp_path / "again" / "dense")
    rows = np.arange(len(first.rows))
    assert again["embedding"]["vectors_reused"] == len(first.rows) > 0
    assert np.array_equal(first.reconstruct(rows), second.reconstruct(rows))

    # A different token limit embeds differently: nothing is reused, and the build says why.
    with pytest.raises(ValueError, match="embedded with"):
        build_index(tmp_path / "fast", BuildOptions(sources=sources, profile="fast", progress=False, reuse=small_index))
    assert not (tmp_path / "fast").exists() and not (tmp_path / "fast.partial").exists()


def test_the_sentence_view_adds_a_vector_per_record_said_in_words(tmp_path: Path, small_index: Path,
                                                                   fixtures_dir: Path) -> None:
    sources = [f"mathlib={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}"]
    manifest = build_index(tmp_path / "sentences", BuildOptions(sources=sources, views=("text", "sentence"),
                                                                progress=False, reuse=small_index))
    index = Index.load(tmp_path / "sentences")
    said = [i for i, s in enumerate(index.records) if s.informal_statement]
    assert said and manifest["embedding"]["views"] == ["text", "sentence"]
    assert sorted(index.dense.rows.tolist()) == sorted([*range(len(index.records)), *said])
    # The text views were embedded by the index it reuses; only the sentences are new.
    assert manifest["embedding"]["vectors_reused"] == len(index.records)


def test_reuse_embeds_only_the_texts_that_changed(tmp_path: Path, small_index: Path, fixtures_dir: Path) -> None:
    import json

    lines = (fixtures_dir / "jsonl" / "mathlib_small.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["docstring"] = "A semigroup: a type whose multiplication is associative."
    changed = tmp_path / "mathlib.jsonl"
    changed.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    manifest = build_index(tmp_path / "changed", BuildOptions(sources=[f"mathlib={changed}"], views=("name", "text"),
                                                              progress=False, reuse=small_index))
    vectors = len(np.load(tmp_path / "changed" / "dense" / "rows.npy"))
    assert manifest["embedding"]["vectors_reused"] == vectors - 1
