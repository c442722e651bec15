"""`python -m search corpora fetch`: the default corpora downloaded as GitHub archives from a
local server speaking GitHub's archive paths (tests/corpus/upstream_server.py), put in the layout
the build reads, each checked against its SHA-256 (pinned, or recorded by its first download);
a cut download resumed with a Range request; a corrupted one refused and removed; and a build
with no corpora anywhere told which command gets them."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from search import config
from search.corpus.fetch import LOCK, CorporaMissing, FetchError, fetch_corpora, fetch_one, missing_message
from search.corpus.latex import parse_latex
from search.corpus.upstreams import UPSTREAMS, upstream
from tests.corpus.upstream_server import UpstreamServer, github_archive
from tests.live_server import live_server

BOOK = rb"""\chapter{Basics}
\begin{theorem}\label{thm:one}
Every set is a set.
\end{theorem}
"""
HOTT = upstream("hott")
MATHLIB = upstream("mathlib")


@pytest.fixture()
def server() -> Iterator[tuple[UpstreamServer, str]]:
    upstreams = UpstreamServer()
    # A figure that does not compress, so that the archive is long enough to cut (300 kB).
    figure = random.Random(0).randbytes(300_000)
    upstreams.serve(HOTT, github_archive(HOTT, {"basics.tex": BOOK, "README.md": b"not read", "cover.png": figure}))
    upstreams.serve(MATHLIB, github_archive(MATHLIB, {
        "Mathlib/Logic/Basic.lean": b"theorem t : True := trivial\n", "lean-toolchain": b"leanprover/lean4:v4.28.0\n",
        "docs/100.yaml": b"1:\n  title: The Irrationality of the Square Root of 2\n  decl: irrational_sqrt_two\n",
        "docs/templates/x.yaml": b"not a list of named theorems\n",
    }))
    with live_server(upstreams.app()) as url:
        yield upstreams, url


def _say() -> list[str]:
    return []


def test_the_archives_land_in_the_shared_layout_with_their_manifests(server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    upstreams, url = server
    said: list[str] = []
    fetched = fetch_corpora(tmp_path, ["hott", "mathlib"], base=url, say=said.append)
    corpora = tmp_path / "corpora"
    assert [f.path for f in fetched] == [corpora / "latex" / "hott.tar.gz", corpora / "lean" / "src" / "mathlib.tar.gz"]
    for item in fetched:
        assert item.checked == "first" and item.sha256 == hashlib.sha256(item.path.read_bytes()).hexdigest()
    lock = json.loads((corpora / LOCK).read_text())
    assert lock["hott"]["commit"] == HOTT.commit and lock["hott"]["sha256"] == fetched[0].sha256
    latex_manifest = json.loads((corpora / "latex" / "manifest.json").read_text())["hott"]
    assert latex_manifest["upstream"] == "https://github.com/HoTT/book" and latex_manifest["commit"] == HOTT.commit
    assert json.loads((corpora / "lean" / "src" / "manifest.json").read_text())["mathlib"]["root"] == MATHLIB.folder
    assert any("sha256=" in line for line in said)  # the values to pin, printed
    # The LaTeX reader takes the GitHub layout as it is: ids and links as from ../shared's.
    (record,) = parse_latex(corpora / "latex" / "hott.tar.gz")
    assert record.id == "hott:thm:one" and f"/blob/{HOTT.commit}/basics.tex" in record.url
    # and the Lean source reader, the commit from the archive's header and the named lists from docs/.
    from search.corpus.sources import resolve_source

    lean = resolve_source(f"mathlib:lean-source={corpora / 'lean' / 'src' / 'mathlib.tar.gz'}")
    assert lean.commit() == MATHLIB.commit and "mathlib:t" in {r.id for r in lean.load()}

    requests = len(upstreams.requests)
    again = fetch_corpora(tmp_path, ["hott", "mathlib"], base=url, say=said.append)
    assert len(upstreams.requests) == requests  # nothing downloaded again
    assert [(a.checked, a.downloaded) for a in again] == [("recorded", False)] * 2


def test_a_cut_download_is_resumed_where_it_stopped(server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    upstreams, url = server
    path = f"/{HOTT.repository}/archive/{HOTT.commit}.tar.gz"
    size = len(upstreams.archives[path])
    upstreams.cut_after[path] = size // 2
    (item,) = fetch_corpora(tmp_path, ["hott"], base=url, say=_say().append)
    first, resumed = [r for p, r in upstreams.requests if p == path]
    assert first == "" and 0 < int(resumed.removeprefix("bytes=").rstrip("-")) <= size // 2  # from where it stopped
    assert item.path.read_bytes() == upstreams.archives[path]


def test_an_interrupted_run_is_resumed_by_the_next(server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    upstreams, url = server
    path = f"/{HOTT.repository}/archive/{HOTT.commit}.tar.gz"
    partial = tmp_path / "corpora" / "latex" / "hott.tar.gz.partial"
    partial.parent.mkdir(parents=True)
    partial.write_bytes(upstreams.archives[path][:1000])  # what a killed run left
    (item,) = fetch_corpora(tmp_path, ["hott"], base=url, say=_say().append)
    assert upstreams.requests == [(path, "bytes=1000-")]
    assert item.path.read_bytes() == upstreams.archives[path] and not partial.exists()


def test_a_download_that_fails_its_pinned_sha256_is_removed(server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    upstreams, url = server
    path = f"/{HOTT.repository}/archive/{HOTT.commit}.tar.gz"
    good = upstreams.archives[path]
    pinned = replace(HOTT, sha256=hashlib.sha256(good).hexdigest(), bytes=len(good))
    upstreams.archives[path] = good[:-10] + bytes(10)  # corrupted on the way
    corpora = tmp_path / "corpora"
    with pytest.raises(FetchError, match="not the .* recorded in search/corpus/upstreams.py; the file was removed"):
        fetch_one(pinned, corpora, {}, httpx.Client(), url, say=_say().append)
    assert list((corpora / "latex").iterdir()) == []
    upstreams.archives[path] = good
    assert fetch_one(pinned, corpora, {}, httpx.Client(), url, say=_say().append).checked == "pinned"


def test_a_later_download_is_checked_against_the_first(server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    upstreams, url = server
    path = f"/{HOTT.repository}/archive/{HOTT.commit}.tar.gz"
    (first,) = fetch_corpora(tmp_path, ["hott"], base=url, say=_say().append)
    first.path.unlink()
    upstreams.archives[path] = upstreams.archives[path][::-1]
    with pytest.raises(FetchError, match=r"1 of 1 corpora not fetched: hott: .* \(its first download\)"):
        fetch_corpora(tmp_path, ["hott"], base=url, say=_say().append)
    assert not first.path.exists() and not first.path.with_name("hott.tar.gz.partial").exists()


def test_a_resumed_file_that_fails_is_downloaded_whole_once_more(server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    upstreams, url = server
    path = f"/{HOTT.repository}/archive/{HOTT.commit}.tar.gz"
    good = upstreams.archives[path]
    partial = tmp_path / "corpora" / "latex" / "hott.tar.gz.partial"
    partial.parent.mkdir(parents=True)
    partial.write_bytes(bytes(1000))  # a kept part that is wrong
    pinned = replace(HOTT, sha256=hashlib.sha256(good).hexdigest())
    item = fetch_one(pinned, tmp_path / "corpora", {}, httpx.Client(), url, say=_say().append)
    assert item.path.read_bytes() == good and [r for _, r in upstreams.requests] == ["bytes=1000-", ""]


def test_the_command_line_fetches_from_the_configured_address(server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, url = server
    run = subprocess.run([sys.executable, "-m", "search", "corpora", "fetch", "--into", str(tmp_path),
                          "--sources", "hott"], cwd=config.REPO_DIR, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "THEOREM_SEARCH_ARCHIVES_URL": url})
    assert run.returncode == 0, run.stderr
    assert "1 corpora in" in run.stdout and (tmp_path / "corpora" / "latex" / "hott.tar.gz").is_file()
    missing = subprocess.run([sys.executable, "-m", "search", "corpora", "fetch", "--into", str(tmp_path),
                              "--sources", "cring"], cwd=config.REPO_DIR, capture_output=True, text=True,
                             timeout=120, env={**os.environ, "THEOREM_SEARCH_ARCHIVES_URL": url})
    assert missing.returncode == 1 and "HTTP 404" in missing.stderr and "Traceback" not in missing.stderr


def test_if_absent_fetches_nothing_where_a_build_finds_the_corpora(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    for entry in UPSTREAMS:
        (shared / "corpora" / entry.target).parent.mkdir(parents=True, exist_ok=True)
        (shared / "corpora" / entry.target).write_bytes(b"")
    run = subprocess.run([sys.executable, "-m", "search", "corpora", "fetch", "--if-absent", "--into", str(tmp_path / "x")],
                         cwd=config.REPO_DIR, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "THEOREM_SEARCH_SHARED": str(shared),
                              "THEOREM_SEARCH_ARCHIVES_URL": "http://127.0.0.1:9"})  # nothing listens there
    assert run.returncode == 0 and f"the corpora are in {shared / 'corpora'}: nothing to fetch" in run.stdout
    assert not (tmp_path / "x").exists()


def test_a_build_with_no_corpora_says_which_command_fetches_them(tmp_path: Path) -> None:
    # A checkout of its own, with no ../shared beside it (the real checkout may have one).
    checkout = tmp_path / "checkout"
    shutil.copytree(config.REPO_DIR / "search", checkout / "search", ignore=shutil.ignore_patterns("__pycache__"))
    env = {key: value for key, value in os.environ.items() if key not in ("THEOREM_SEARCH_SHARED", "XDG_DATA_HOME")}
    env.update(HOME=str(tmp_path), THEOREM_SEARCH_SHARED=str(tmp_path / "nowhere"))
    run = subprocess.run([sys.executable, "-m", "search", "records", "--sources", "mathlib", "stacks"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env={**env, "PYTHONPATH": str(checkout)})
    assert run.returncode == 2 and "Errno" not in run.stderr and "Traceback" not in run.stderr
    assert "the corpora mathlib, stacks are not here" in run.stderr
    assert "`python -m search corpora fetch`" in run.stderr and "mathlib4 > 22.2 MB" in run.stderr


def test_the_message_gives_pinned_sizes(monkeypatch: pytest.MonkeyPatch) -> None:
    import search.corpus.fetch as fetch

    monkeypatch.setattr(fetch, "UPSTREAMS", (replace(HOTT, bytes=2_500_000),))
    assert "book 2.5 MB." in missing_message(["hott"]) and "exceeds" not in missing_message(["hott"])
    assert issubclass(CorporaMissing, FileNotFoundError)


def test_the_upstreams_are_the_default_corpora_at_the_shared_commits(shared_dir: Path) -> None:
    assert [u.source for u in UPSTREAMS] == list(config.DEFAULT_SOURCES)
    latex = json.loads((shared_dir / "corpora" / "latex" / "manifest.json").read_text())
    lean_readme = (shared_dir / "corpora" / "lean" / "README.md").read_text()
    for entry in UPSTREAMS:
        if entry.source in latex:
            shared = latex[entry.source]
            assert (entry.commit, entry.licence) == (shared["commit"], shared["licence"])
            assert shared["upstream"] == f"https://github.com/{entry.repository}"
        else:
            assert f"[{entry.repository.lower()}](https://github.com/{entry.repository})".lower() in lean_readme.lower()
            assert f"`{entry.commit}`" in lean_readme and entry.licence == config.LEAN_LICENCES[entry.source]
        assert (shared_dir / "corpora" / entry.target).stat().st_size == entry.shared_bytes
