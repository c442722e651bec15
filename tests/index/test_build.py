"""A small index built end to end from fixture corpora (`small_index`), its manifest and files."""

from pathlib import Path

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
    assert "records.parquet" in manifest["files"] and "dense/vectors.faiss" in manifest["files"]


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
        "text_chars": 100, "max_length": 40, "heads_only": True,
    }
    index = Index.load(tmp_path / "fast")
    heads = {i for i, s in enumerate(index.records) if s.group == s.id}
    assert set(index.dense.rows.tolist()) == heads != set(range(len(index.records)))
