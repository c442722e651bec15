"""`python -m search publish`: against huggingface_hub's real client pointed at a local fake Hub
(tests/hub/fake_hub.py), never with the client replaced."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from search.__main__ import main
from search.hub.card import NOT_RECORDED, build_command, dataset_card, source_licence
from search.hub.publish import publish
from search.index.manifest import IndexLoadError, read_manifest
from tests.hub.conftest import LocalHub


def test_publish_uploads_the_index_and_its_card_in_one_commit(small_index: Path, local_hub: LocalHub) -> None:
    done = publish(small_index, "hf://datasets/me/theorems", api=local_hub.api())
    repo = local_hub.hub.repos[("dataset", "me/theorems")]
    assert [c.message for c in repo.commits][1:] == [repo.head.message]  # created, then one commit
    assert done.commit == repo.head.sha
    manifest = read_manifest(small_index)
    files = local_hub.hub.files("dataset", "me/theorems")
    assert set(files) == {".gitattributes", "README.md", "manifest.json", *manifest["files"]}
    for name in manifest["files"]:
        assert files[name] == (small_index / name).read_bytes()
    card = files["README.md"].decode()
    assert card.startswith("---\nlicense: ")
    assert "| mathlib | lean-jsonl | `abc123` |" in card  # source, format, the fixture's commit
    assert manifest["model"] in card and manifest["build_date"] in card
    assert "theorem 6" in card  # counts per kind
    assert "INDEX_DIR=hf://datasets/me/theorems" in card


def test_publish_refuses_an_index_that_fails_its_manifest_check(small_index: Path, local_hub: LocalHub,
                                                                 tmp_path: Path) -> None:
    damaged = tmp_path / "damaged"
    shutil.copytree(small_index, damaged)
    with (damaged / "pagerank.npy").open("ab") as handle:
        handle.write(b"\0")
    with pytest.raises(IndexLoadError, match="pagerank.npy does not match the manifest"):
        publish(damaged, "hf://datasets/me/theorems", api=local_hub.api())
    assert local_hub.hub.repos == {}  # refused before anything was created
    assert not any(r.startswith("POST") for r in local_hub.hub.requests)


def test_republishing_deletes_files_of_the_old_index_and_keeps_extra_local_files_local(
        small_index: Path, local_hub: LocalHub, tmp_path: Path) -> None:
    api = local_hub.api()
    api.create_repo("me/theorems", repo_type="dataset")
    api.upload_file(path_or_fileobj=b"old", path_in_repo="dense/old_view.faiss", repo_id="me/theorems",
                    repo_type="dataset")
    copy = tmp_path / "index"
    shutil.copytree(small_index, copy)
    (copy / "notes.txt").write_text("my own notes")  # not part of the index: not sent
    done = publish(copy, "hf://datasets/me/theorems", api=api)
    files = local_hub.hub.files("dataset", "me/theorems")
    assert done.deleted == 1 and "dense/old_view.faiss" not in files and "notes.txt" not in files


def test_published_tag_is_a_revision_the_app_can_fetch(small_index: Path, local_hub: LocalHub) -> None:
    import app

    done = publish(small_index, "hf://datasets/me/theorems", api=local_hub.api(), tag="v4.28")
    fetched = app.locate_index("hf://datasets/me/theorems@v4.28")
    assert done.tag == "v4.28" and fetched.name == done.commit  # the snapshot of the tagged commit
    assert read_manifest(fetched)["files"] == read_manifest(small_index)["files"]


def test_publish_command_line(small_index: Path, local_hub: LocalHub, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["publish", str(small_index), "hf://datasets/me/theorems"]) == 0
    assert "published" in capsys.readouterr().out
    assert main(["publish", str(small_index), "hf://me/theorems"]) == 2  # a model repository
    assert "dataset repository" in capsys.readouterr().err
    assert main(["publish", str(small_index), "hf://datasets/me/theorems@v1"]) == 2
    assert "--tag" in capsys.readouterr().err
    assert main(["publish", str(small_index.parent / "nothing"), "hf://datasets/me/other"]) == 2
    assert "no index at" in capsys.readouterr().err
    assert ("dataset", "me/other") not in local_hub.hub.repos


def test_publish_without_a_token_is_a_message(small_index: Path, local_hub: LocalHub,
                                              monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    from huggingface_hub import constants

    monkeypatch.delenv("HF_TOKEN")
    monkeypatch.setattr(constants, "HF_TOKEN_PATH", str(tmp_path / "no-token"))
    monkeypatch.setattr(constants, "HF_STORED_TOKENS_PATH", str(tmp_path / "no-tokens"))
    assert main(["publish", str(small_index), "hf://datasets/me/theorems"]) == 2
    assert "the Hub refused the upload" in capsys.readouterr().err


def test_card_lists_each_corpus_licence_and_the_build_command() -> None:
    manifest = {
        "sources": {"mathlib": {"format": "lean-jsonl", "commit": "c1", "licence": "Apache-2.0"},
                    "stacks": {"format": "latex", "commit": "c2", "licence": "GFDL-1.2"},
                    "mine": {"format": "statements-jsonl", "commit": "", "licence": ""}},
        "counts": {"mathlib": {"theorem": 3}, "stacks": {"lemma": 2}, "mine": {"lemma": 1}},
        "total": 6, "model": "m", "build_date": "2026-01-01T00:00:00+00:00", "code_version": "abc",
        "build_command": "python -m search build --out index --sources mathlib stacks mine=m.jsonl",
        "files": {"records.arrow": {"bytes": 10, "sha256": "0"}},
    }
    card = dataset_card(manifest, "hf://datasets/o/n")
    assert "license: other" in card  # several licences
    assert "| mathlib | lean-jsonl | `c1` | Apache-2.0 | 3 |" in card
    assert "| stacks | latex | `c2` | GFDL-1.2 | 2 |" in card
    assert f"| mine | statements-jsonl | {NOT_RECORDED} | {NOT_RECORDED} | 1 |" in card
    assert manifest["build_command"] in card
    one = {**manifest, "sources": {"mathlib": manifest["sources"]["mathlib"]}}
    assert dataset_card(one, "hf://datasets/o/n").startswith("---\nlicense: apache-2.0\n")


def test_build_command_is_reconstructed_for_an_older_manifest() -> None:
    manifest = {"sources": {"mathlib": {}, "stacks": {}}, "model": "m",
                "embedding": {"backend": "onnx-int8", "profile": "quality", "views": ["text"]}}
    assert build_command(manifest).startswith(
        "python -m search build --out index --sources mathlib stacks --model m --backend onnx-int8 "
        "--profile quality --views text")
    assert "reconstructed" in build_command(manifest)


def test_build_records_its_licences_and_command(tmp_path: Path, fixtures_dir: Path) -> None:
    out = tmp_path / "index"
    source = f"mine={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}"
    assert main(["build", "--out", str(out), "--sources", source, "--quiet"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["build_command"] == f"python -m search build --out {out} --sources {source} --quiet"
    assert manifest["sources"]["mine"]["licence"] == ""  # a user's file states none


@pytest.mark.integration
def test_shared_corpora_licences(shared_dir: Path) -> None:
    from search.corpus.sources import resolve_source

    assert resolve_source("mathlib").licence() == "Apache-2.0"  # ../shared/corpora/lean/README.md
    assert resolve_source("stacks").licence() == "GFDL-1.2"  # ../shared/corpora/latex/manifest.json
    commit = resolve_source("hott").commit()
    assert source_licence("hott", {"commit": commit}) == "CC-BY-SA-3.0"  # a manifest from before licences
    assert source_licence("hott", {"commit": "0" * 40}) == NOT_RECORDED  # not the shared corpus's commit
