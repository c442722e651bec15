"""A Lean project read from a folder or from an archive, as the build reads Mathlib's tree."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from search.corpus.formats import FORMATS
from search.corpus.lean.project import open_lean_project
from search.corpus.lean.tree import parse_lean_tree
from search.corpus.sources import Source, resolve_source

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _archive(folder: Path, out: Path, wrapper: str = "", extra: dict[str, str] | None = None) -> Path:
    """A `git archive`-like tarball of `folder` (the commit in its pax header), optionally under
    one wrapper folder as GitHub's archives are."""
    with tarfile.open(out, "w:gz", format=tarfile.PAX_FORMAT, pax_headers={"comment": COMMIT}) as tar:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                tar.add(path, arcname=f"{wrapper}{path.relative_to(folder).as_posix()}")
        for name, text in (extra or {}).items():
            data = text.encode()
            info = tarfile.TarInfo(f"{wrapper}{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out


def test_an_archive_reads_as_its_folder(fixtures_dir: Path, tmp_path: Path) -> None:
    folder = parse_lean_tree(fixtures_dir / "lean", "fake")
    archive = _archive(fixtures_dir / "lean", tmp_path / "fake.tar.gz")
    packed = parse_lean_tree(archive, "fake")
    assert all(r["commit"] == COMMIT for r in packed.records)
    assert [{**r, "commit": ""} for r in packed.records] == folder.records
    assert packed.module_docs == folder.module_docs


def test_a_github_archive_is_read_from_its_wrapper_folder(fixtures_dir: Path, tmp_path: Path) -> None:
    """GitHub's archive holds the repository under `<repo>-<sha>/`, with its lakefile, tests and
    Mathlib's `docs/*.yaml`; only the library's modules are read when the library is named."""
    extra = {"lakefile.lean": "import Lake\n", "FakeLibTest/Check.lean": "theorem check : True := trivial\n",
             "docs/100.yaml": "1:\n  title: Fake theorem\n  decl: FakeLib.tagged\n"}
    archive = _archive(fixtures_dir / "lean", tmp_path / "repo.tar.gz", "repo-0123/", extra)
    project = open_lean_project(archive)
    assert [path for path, _ in project.modules(("FakeLib",))][:2] == ["FakeLib.lean", "FakeLib/Algebra.lean"]
    assert "FakeLibTest/Check.lean" in dict(project.modules())
    assert "FakeLibTest/Check.lean" not in dict(project.modules(("FakeLib",)))
    assert project.docs_lists() == [extra["docs/100.yaml"]]
    statements = FORMATS["lean-source"].load(Source("fake", archive, "lean-source"))
    tagged = next(s for s in statements if s.name == "FakeLib.tagged")
    assert tagged.aliases == ["Fake theorem"]


def test_a_folder_with_dependencies_reads_only_the_project(tmp_path: Path) -> None:
    (tmp_path / ".lake" / "packages" / "dep").mkdir(parents=True)
    (tmp_path / ".lake" / "packages" / "dep" / "Dep.lean").write_text("def dep : Nat := 0\n")
    (tmp_path / "Mine.lean").write_text("/-! # Mine -/\ndef mine : Nat := 0\n")
    tree = parse_lean_tree(tmp_path, "mine")
    assert [r["name"] for r in tree.records] == ["mine"] and tree.module_docs == {"Mine": ["# Mine"]}
    assert resolve_source(f"mine={tmp_path}").format == "lean-source"


def test_not_a_project_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no Lean here")
    with pytest.raises(FileNotFoundError, match="not a folder or a .tar.gz of Lean sources"):
        open_lean_project(tmp_path / "notes.txt")
