"""`python -m search corpora fetch` over the real corpora: the files of ../shared repacked as
GitHub serves its source archives (one `REPO-COMMIT/` folder; Mathlib's named-theorem lists in
its `docs/`), served by a local server that cuts the Mathlib download once, fetched by the
command line into an empty folder, then read back: the readers see the same files as in
../shared; and a corrupted archive is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from search import config
from search.corpus.latex import manifest_entry, parse_latex, read_text_files
from search.corpus.upstreams import UPSTREAMS, upstream
from tests.corpus.upstream_server import UpstreamServer, files_of, github_archive
from tests.live_server import live_server

pytestmark = pytest.mark.integration


def _fetch(url: str, into: Path, *sources: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "search", "corpora", "fetch", "--into", str(into)]
    return subprocess.run(command + (["--sources", *sources] if sources else []), cwd=config.REPO_DIR,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "THEOREM_SEARCH_ARCHIVES_URL": url})


def test_the_shared_corpora_fetched_from_their_upstream_layout(shared_dir: Path, tmp_path: Path) -> None:
    corpora = shared_dir / "corpora"
    upstreams = UpstreamServer()
    for entry in UPSTREAMS:
        files = files_of(corpora / entry.target, drop_top=entry.target.startswith("latex/"))
        if entry.source in config.LEAN_SOURCES:  # the repository's marker file and, for Mathlib, its docs/
            files["lean-toolchain"] = b"leanprover/lean4:v4.28.0\n"
            if entry.source == "mathlib":
                files.update({f"docs/{p.name}": p.read_bytes()
                              for p in (corpora / "lean" / "mathlib_docs").glob("*.yaml")})
        upstreams.serve(entry, github_archive(entry, files))
    mathlib = f"/{upstream('mathlib').repository}/archive/{upstream('mathlib').commit}.tar.gz"
    upstreams.cut_after[mathlib] = len(upstreams.archives[mathlib]) * 2 // 5
    into = tmp_path / "fetched"
    with live_server(upstreams.app()) as url:
        run = _fetch(url, into)
        assert run.returncode == 0, run.stderr + run.stdout
        assert "8 corpora in" in run.stdout and "resuming" in run.stdout
        assert [r for p, r in upstreams.requests if p == mathlib][1].startswith("bytes=")

        fetched = into / "corpora"
        for entry in UPSTREAMS:
            assert (fetched / entry.target).read_bytes() == upstreams.archives[entry.url("")], entry.source
        for entry in UPSTREAMS[3:]:  # LaTeX: the reader sees the files and commit ../shared gives it
            assert read_text_files(fetched / entry.target) == read_text_files(corpora / entry.target), entry.source
            ours, shared = manifest_entry(fetched / entry.target, entry.source), manifest_entry(corpora / entry.target, entry.source)
            assert {k: ours[k] for k in ("upstream", "commit", "licence")} == {k: shared[k] for k in ("upstream", "commit", "licence")}
        assert [(r.id, r.url, r.statement) for r in parse_latex(fetched / "latex" / "hott.tar.gz")] == [
            (r.id, r.url, r.statement) for r in parse_latex(corpora / "latex" / "hott.tar.gz")]
        for entry in UPSTREAMS[:3]:  # Lean: the source tree under the archive's one folder
            got = files_of(fetched / entry.target, drop_top=True)
            assert {p: d for p, d in got.items() if not p.startswith("docs/") and p != "lean-toolchain"} == files_of(
                corpora / entry.target, drop_top=False)
        # The Lean source reader gives the same records from the fetched archive as from ../shared's (as
        # parsed: the sentences are made from them alike).
        run = subprocess.run([sys.executable, "-m", "search", "records", "--sources", "batteries", "physlean",
                              "--no-sentences", "--out", str(tmp_path / "fetched.jsonl")], cwd=config.REPO_DIR,
                             capture_output=True, text=True, timeout=600,
                             env={**os.environ, "THEOREM_SEARCH_SHARED": str(into)})
        assert run.returncode == 0, run.stderr
        mine = [json.loads(line) for line in (tmp_path / "fetched.jsonl").read_text().splitlines()]
        from search.corpus.sources import load_records

        shared_records = load_records(["batteries", "physlean"], sentences=False).statements
        assert [(r["id"], r["statement"], r["url"]) for r in mine] == [(s.id, s.statement, s.url) for s in shared_records]
        lock = json.loads((fetched / "fetched.json").read_text())
        assert sorted(lock) == sorted(u.source for u in UPSTREAMS)

        # The same archive, corrupted on a later download: refused, removed, the others untouched.
        napkin = upstream("napkin")
        (fetched / napkin.target).unlink()
        good = upstreams.archives[napkin.url("")]
        upstreams.archives[napkin.url("")] = good[:1000] + bytes([good[1000] ^ 1]) + good[1001:]
        bad = _fetch(url, into, "napkin", "cring")
        assert bad.returncode == 1 and "napkin" in bad.stderr and "the file was removed" in bad.stderr
        assert not (fetched / napkin.target).exists() and (fetched / "latex" / "cring.tar.gz").is_file()
        assert "Traceback" not in bad.stderr
