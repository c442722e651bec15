"""A Lean project's files: a folder, or an archive of one (`git archive`, or a GitHub archive
whose single top folder `<repo>-<sha>/` holds the Lake project).

The build reads Mathlib's tree exactly as it reads a user's Lake project: this module only
finds the project's root (the folder with its `lakefile`, else the top) and hands over the
texts the parser reads, `.lean` modules in path order and Mathlib's `docs/*.yaml` lists of
named theorems. An archive is read into memory (its compressed size is a few tens of MB for
Mathlib), never unpacked onto disk; the commit it was made at is the one `git archive` writes
into its header.
"""

from __future__ import annotations

import os
import tarfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Iterator, Sequence

#: Files that mark the root of a Lake project.
PROJECT_MARKERS = ("lakefile.lean", "lakefile.toml", "lean-toolchain")
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar")


def is_archive(path: Path) -> bool:
    return path.is_file() and path.name.endswith(ARCHIVE_SUFFIXES)


def is_module(relative: str, libraries: Sequence[str] = ()) -> bool:
    """Whether a file of the project is one of its modules: a `.lean` file outside hidden folders
    (`.lake`, `.git`) other than the top `lakefile.lean`; with `libraries` (`Mathlib`), only the
    files of those libraries (their folders and root modules, `Mathlib.lean`), not a
    repository's tests, scripts or archives."""
    parts = PurePosixPath(relative).parts
    if not relative.endswith(".lean") or relative == "lakefile.lean" or any(p.startswith(".") for p in parts):
        return False
    return not libraries or parts[0] in libraries or relative.removesuffix(".lean") in libraries


def _is_docs_list(relative: str) -> bool:
    return relative.startswith("docs/") and relative.endswith(".yaml") and relative.count("/") == 1


@dataclass
class LeanProject:
    """The files of a project the parser reads, as (path from the project's root, text)."""

    #: `.lean` files by path; for an archive the bytes are held, decoded when read.
    files: dict[str, Path | bytes] = field(default_factory=dict)
    #: The commit the project is at ("" when unknown).
    commit: str = ""

    def modules(self, libraries: Sequence[str] = ()) -> Iterator[tuple[str, str]]:
        """(path, text) of the project's modules, sorted by path."""
        for relative in sorted(self.files):
            if is_module(relative, libraries):
                yield relative, self._text(relative)

    def docs_lists(self) -> list[str]:
        """The texts of the project's `docs/*.yaml` (Mathlib's lists of named theorems)."""
        return [self._text(relative) for relative in sorted(self.files) if _is_docs_list(relative)]

    def _text(self, relative: str) -> str:
        data = self.files[relative]
        return data.read_text(encoding="utf-8") if isinstance(data, Path) else data.decode("utf-8")


def archive_commit(path: Path) -> str:
    """The commit `git archive` recorded in an archive's header ("" when it has none)."""
    try:
        with tarfile.open(path) as archive:
            archive.next()
            return str(archive.pax_headers.get("comment", ""))
    except (OSError, tarfile.TarError):
        return ""


def holds(path: Path, suffix: str) -> bool:
    """Whether a folder or an archive holds a file ending in `suffix` (read up to the first)."""
    if path.is_dir():
        return next(path.rglob(f"*{suffix}"), None) is not None
    if not is_archive(path):
        return False
    try:
        with tarfile.open(path) as archive:
            return any(member.name.endswith(suffix) for member in archive)
    except (OSError, tarfile.TarError):
        return False


def _wrapper(names: Sequence[str]) -> str:
    """The single top folder of a project's files when it holds the project's marker files (a
    GitHub archive's `<repo>-<sha>/`), else ""."""
    tops = {PurePosixPath(n).parts[0] for n in names if PurePosixPath(n).parts}
    if len(tops) != 1:
        return ""
    top = next(iter(tops))
    return top if any(f"{top}/{marker}" in names for marker in PROJECT_MARKERS) else ""


def _walk(root: Path) -> Iterator[Path]:
    """Every file under `root`, not descending into hidden folders (`.lake` holds a project's
    dependencies, `.git` its history)."""
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [d for d in subfolders if not d.startswith(".")]
        yield from (Path(folder) / name for name in names)


def open_lean_project(path: Path) -> LeanProject:
    """The Lean project at `path`: a folder (read from disk as the parser goes), or an archive."""
    path = Path(path)
    if path.is_dir():
        tops = [p.name for p in path.iterdir() if not p.name.startswith(".")]
        inner = tops[0] if len(tops) == 1 and any((path / tops[0] / m).exists() for m in PROJECT_MARKERS) else ""
        root = path / inner
        return LeanProject({p.relative_to(root).as_posix(): p for p in _walk(root)
                            if p.suffix == ".lean" or _is_docs_list(p.relative_to(root).as_posix())})
    if not is_archive(path):
        raise FileNotFoundError(f"{path}: not a folder or a .tar.gz of Lean sources")
    read: dict[str, bytes] = {}
    names: list[str] = []
    with tarfile.open(path) as archive:
        commit = str(archive.pax_headers.get("comment", ""))
        for member in archive:  # in order, once: a compressed stream is not read backwards
            names.append(member.name)
            if member.isfile() and (member.name.endswith(".lean") or member.name.endswith(".yaml")):
                handle = archive.extractfile(member)
                if handle is not None:
                    read[member.name] = handle.read()
    prefix = _wrapper(names)
    prefix = f"{prefix}/" if prefix else ""
    files: dict[str, Path | bytes] = {}
    for name, data in read.items():
        relative = name.removeprefix(prefix)
        if name.startswith(prefix) and (relative.endswith(".lean") or _is_docs_list(relative)):
            files[relative] = data
    return LeanProject(files, commit)
