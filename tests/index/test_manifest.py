import json
from pathlib import Path

import pytest

from search.index.manifest import FORMAT_VERSION, IndexLoadError, read_manifest, write_manifest


def make_index(directory: Path) -> None:
    directory.mkdir()
    (directory / "records.arrow").write_bytes(b"records")
    (directory / "dense").mkdir()
    (directory / "dense" / "rows.npy").write_bytes(b"rows")
    write_manifest(directory, {"total": 1})


def test_manifest_lists_checksums_and_reads_back(tmp_path: Path) -> None:
    make_index(tmp_path / "idx")
    manifest = read_manifest(tmp_path / "idx")
    assert set(manifest["files"]) == {"records.arrow", "dense/rows.npy"}
    assert manifest["files"]["records.arrow"]["bytes"] == 7
    assert manifest["total"] == 1 and manifest["build_date"]


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda d: (d / "records.arrow").write_bytes(b"recordz"), "does not match the manifest"),
        (lambda d: (d / "dense" / "rows.npy").unlink(), "dense/rows.npy is missing"),
        (lambda d: (d / "manifest.json").write_text("{"), "is damaged"),
        (lambda d: (d / "manifest.json").unlink(), "has no manifest.json"),
        (
            lambda d: (d / "manifest.json").write_text(json.dumps({"format_version": 99})),
            f"this code reads format {FORMAT_VERSION}",
        ),
    ],
)
def test_damaged_index_is_refused_with_a_clear_message(tmp_path: Path, damage, message) -> None:
    make_index(tmp_path / "idx")
    damage(tmp_path / "idx")
    with pytest.raises(IndexLoadError, match=message):
        read_manifest(tmp_path / "idx")


def test_missing_index_says_how_to_build(tmp_path: Path) -> None:
    with pytest.raises(IndexLoadError, match="python -m search build --out"):
        read_manifest(tmp_path / "nowhere")


def test_an_older_format_is_read_only_when_asked_for(tmp_path: Path) -> None:
    """A build may reuse the vectors of an index in an earlier format (`--reuse`); serving
    refuses it, saying how to rebuild it with its vectors."""
    make_index(tmp_path / "idx")
    path = tmp_path / "idx" / "manifest.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "format_version": FORMAT_VERSION - 1}))
    with pytest.raises(IndexLoadError, match=f"--reuse {tmp_path / 'idx'}"):
        read_manifest(tmp_path / "idx")
    assert read_manifest(tmp_path / "idx", older=True)["format_version"] == FORMAT_VERSION - 1
    path.write_text(json.dumps({**json.loads(path.read_text()), "format_version": FORMAT_VERSION + 1}))
    with pytest.raises(IndexLoadError, match="this code reads format"):
        read_manifest(tmp_path / "idx", older=True)
