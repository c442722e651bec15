"""The index manifest: what an index was built from, and the checksums that guard it.

Loading compares every file with its recorded size and SHA-256 and refuses a mismatch with a
message that says which file and what to do, instead of failing later in an obscure way.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from search import config

#: 2: records in an Arrow IPC file, their metadata as numbers, BM25+ postings as arrays and
#: vocabularies as tries, all mapped rather than decoded at load (search/record.py
#: `write_records`, search/index/meta.py, search/index/lexical.py `save`); 1 had the records in
#: Parquet and BM25+ in bm25s's files. The dense index is the same in both. (A format 2 index
#: written before records had `informal_statement` reads with it empty: search/record.py.)
FORMAT_VERSION = 2
MANIFEST = "manifest.json"
#: The records, one row per statement (search/record.py).
RECORDS = "records.arrow"
#: The lexicon the Lean statements were said in words with (search/corpus/lean/lexicon.py), to read.
LEXICON = "lexicon.tsv"
#: The folder of an index that carries its embedding model (search/index/build.py `carry_model`).
MODEL_DIR = "model"


class IndexLoadError(Exception):
    """An index directory that cannot be used as it is (missing, damaged or mismatched)."""


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def code_version() -> str:
    """The git commit of this checkout (with `-dirty` when it has local changes), if any."""
    try:
        described = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=12"],
            cwd=config.REPO_DIR, capture_output=True, text=True, timeout=10, check=True,
        )
        return described.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def write_manifest(directory: Path, info: dict[str, Any]) -> dict[str, Any]:
    """Write `manifest.json` with `info` plus checksums of every file under `directory`."""
    files = {
        str(p.relative_to(directory)): {"bytes": p.stat().st_size, "sha256": sha256(p)}
        for p in sorted(directory.rglob("*"))
        if p.is_file() and p.name != MANIFEST
    }
    manifest = {
        "format_version": FORMAT_VERSION,
        "build_date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "code_version": code_version(),
        **info,
        "files": files,
    }
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=False) + "\n")
    return manifest


#: The files and folders an index is made of: every file under them must be in the manifest
#: (other files, such as a Hugging Face repository's README, are not the index's business).
INDEX_PARTS = frozenset({
    RECORDS, "meta", "pagerank.npy", "dependents.npy", "dense", "bm25_main", "bm25_names", "patterns", MODEL_DIR,
})


def read_manifest(directory: Path, verify: bool = True, older: bool = False) -> dict[str, Any]:
    """The manifest of an index directory, after checking that its files match it; with
    `older`, of an index in an earlier format too (whose vectors a build may reuse)."""
    path = directory / MANIFEST
    hint = _rebuild_hint(directory)
    if not directory.is_dir():
        raise IndexLoadError(f"no index at {directory}; {hint}")
    if not path.is_file():
        raise IndexLoadError(f"{directory} has no {MANIFEST}, so it is not a complete index; {hint}")
    try:
        manifest = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise IndexLoadError(f"{path} is damaged ({error}); {hint}") from error
    found = manifest.get("format_version")
    if not (found == FORMAT_VERSION or older and isinstance(found, int) and found < FORMAT_VERSION):
        raise IndexLoadError(
            f"{directory} has index format {found!r}, this code reads format {FORMAT_VERSION}; {hint} "
            f"(with --reuse {directory}, its vectors are reused rather than embedded again)"
        )
    if verify:
        verify_files(directory, manifest)
    return manifest


def verify_files(directory: Path, manifest: dict[str, Any]) -> None:
    """Check that the index parts under `directory` are the files `manifest` lists, byte for
    byte (size and SHA-256); raises IndexLoadError naming the first that is not.

    hashlib releases the GIL while hashing, so `Index.load` runs this on a thread beside the
    loading itself and the ~1 s of hashing a full index costs little of its start."""
    hint = _rebuild_hint(directory)
    listed = manifest.get("files", {})
    for file in sorted(directory.rglob("*")):
        name = file.relative_to(directory).as_posix()
        if file.is_file() and name.split("/")[0] in INDEX_PARTS and name not in listed:
            raise IndexLoadError(f"{directory}: {name} is not in the manifest (not from this build); {hint}")
    for name, expected in listed.items():
        file = directory / name
        if not file.is_file():
            raise IndexLoadError(f"{directory}: {name} is missing; {hint}")
        if file.stat().st_size != expected["bytes"] or sha256(file) != expected["sha256"]:
            raise IndexLoadError(f"{directory}: {name} does not match the manifest (changed or damaged); {hint}")


def _rebuild_hint(directory: Path) -> str:
    return f"rebuild it with: python -m search build --out {directory}"
