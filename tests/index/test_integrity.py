"""A real index whose files do not match its manifest is refused at load with a message naming
the file, and the app then does not start at all: no server, no vote database, no half-loaded
state."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

import app
from search.index.manifest import IndexLoadError, write_manifest
from search.index.store import Index
from tests.ui.fixture_index import ui_index


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ui_index(tmp_path_factory)


@pytest.fixture()
def copy(built: Path, tmp_path: Path) -> Path:
    target = tmp_path / "index"
    shutil.copytree(built, target)
    return target


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def other_build_manifest(index: Path) -> None:
    """Put the manifest of another build (same code, other PageRank) beside these files."""
    other = index.parent / "other"
    shutil.copytree(index, other)
    manifest = json.loads((other / "manifest.json").read_text())
    np.save(other / "pagerank.npy", np.load(other / "pagerank.npy")[::-1].copy())
    (other / "manifest.json").unlink()
    write_manifest(other, {k: v for k, v in manifest.items() if k not in ("files", "format_version", "build_date")})
    shutil.copy(other / "manifest.json", index / "manifest.json")


DAMAGES: list[tuple[str, Callable[[Path], None], str]] = [
    ("truncated records", lambda d: truncate(d / "records.arrow"), "records.arrow does not match the manifest"),
    ("truncated vectors", lambda d: truncate(d / "dense" / "vectors.faiss"), "dense/vectors.faiss does not match"),
    ("altered byte", lambda d: flip_a_byte(d / "bm25_main" / "scores.npy"), "bm25_main/scores.npy does not match"),
    ("missing file", lambda d: (d / "bm25_names" / "vocabulary.marisa").unlink(), "bm25_names/vocabulary.marisa is missing"),
    ("other build", other_build_manifest, "pagerank.npy does not match the manifest"),
    ("no manifest", lambda d: (d / "manifest.json").unlink(), "has no manifest.json"),
    ("damaged manifest", lambda d: (d / "manifest.json").write_text('{"format_version": 2, "files": '), "manifest.json is damaged"),
]


@pytest.mark.parametrize("damage, message", [(d, m) for _, d, m in DAMAGES], ids=[name for name, _, _ in DAMAGES])
def test_damaged_index_is_refused_naming_the_file(copy: Path, damage: Callable[[Path], None], message: str) -> None:
    damage(copy)
    with pytest.raises(IndexLoadError, match=message.replace(".", r"\.")):
        Index.load(copy)


@pytest.mark.parametrize("damage, message", [(d, m) for _, d, m in DAMAGES[:5]], ids=[name for name, _, _ in DAMAGES[:5]])
def test_the_app_does_not_start_on_a_damaged_index(
    copy: Path, tmp_path: Path, damage: Callable[[Path], None], message: str,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    served = []
    monkeypatch.setattr("uvicorn.run", lambda *args, **kwargs: served.append(args))
    damage(copy)
    votes = tmp_path / "votes.sqlite"
    assert app.main(["--index", str(copy), "--feedback-db", str(votes)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "python -m search build --out" in err
    assert "Traceback" not in err and served == [] and not votes.exists()


def test_the_undamaged_copy_loads(copy: Path, built: Path) -> None:
    """The damage, not the copying, is what the tests above catch."""
    assert len(Index.load(copy).records) == len(Index.load(built).records)


def test_a_file_the_manifest_does_not_list_is_refused(copy: Path) -> None:
    manifest = json.loads((copy / "manifest.json").read_text())
    del manifest["files"]["pagerank.npy"]
    (copy / "manifest.json").write_text(json.dumps(manifest))
    np.save(copy / "pagerank.npy", np.ones(len(np.load(copy / "pagerank.npy"))))
    with pytest.raises(IndexLoadError, match="pagerank.npy"):
        Index.load(copy)


def test_work_done_while_the_files_are_checked_is_refused_with_them(copy: Path) -> None:
    """`Index.loading` runs the block while the files are hashed: a damaged file the loader
    reads without error (PageRank values) is refused at the block's end, and a failure inside
    the block on a damaged index is reported as the damage."""
    other_build_manifest(copy)
    ran = []
    with pytest.raises(IndexLoadError, match=r"pagerank\.npy does not match the manifest"):
        with Index.loading(copy) as index:
            ran.append(len(index.records))
    assert ran and ran[0] > 0
    with pytest.raises(IndexLoadError, match=r"pagerank\.npy does not match the manifest"):
        with Index.loading(copy):
            raise RuntimeError("a failure caused by the damage")
    with Index.loading(copy, verify=False) as index:
        assert len(index.records) == ran[0]
