"""`python -m search corpora fetch [--into DIR]`: the default corpora from their upstreams.

Each corpus of search/corpus/upstreams.py is downloaded as the GitHub archive of the commit
this version pins, into `DIR/corpora/<target>` (the layout of ../shared/corpora, so that a
build finds them there: search/config.py `CORPORA_PLACES`; DIR is the data folder by default).
A download goes to `<target>.partial` and is resumed where it stopped (an HTTP Range request,
on a cut connection within the run, or on the next run); the whole file is then checked
against its SHA-256, the one pinned in upstreams.py or, where none is pinned yet, the one
recorded by the first download in `DIR/corpora/fetched.json` (trust on first use), and only a
file that passes is put in place. A file that fails is removed and the command says so.

Beside the archives it writes `manifest.json` (upstream, commit, licence, size and SHA-256 of each
archive) in `corpora/latex/`, where the LaTeX reader takes the commit from, and in
`corpora/lean/src/` (the Lean source reader reads the commit from the archive's own header).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, Sequence

import httpx

from search import config
from search.corpus.upstreams import UPSTREAMS, Upstream, upstream

#: The lock file under the corpora folder: per source, the commit, address, size and SHA-256 of
#: the archive put in place.
LOCK = "fetched.json"
#: Attempts per archive when the connection is cut; each resumes where the last one stopped.
ATTEMPTS = 5
CHUNK = 1 << 20


class FetchError(Exception):
    """A corpus that could not be fetched or did not pass its check; the message says why."""


class CorporaMissing(FileNotFoundError):
    """Default corpora that no place holds (search/config.py `CORPORA_PLACES`)."""


@dataclass(frozen=True)
class Fetched:
    """One archive in place: where, its size and SHA-256, and what it was checked against."""

    source: str
    path: Path
    bytes: int
    sha256: str
    #: "pinned" (upstreams.py), "recorded" (the lock file) or "first" (nothing to check against yet).
    checked: str
    downloaded: bool


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def _write_json(path: Path, data: dict) -> None:
    """Write `path` whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(partial, path)


def _read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _expected(entry: Upstream, lock: dict) -> tuple[str | None, str]:
    """The SHA-256 an archive must have, and where it comes from."""
    if entry.sha256:
        return entry.sha256, "pinned"
    recorded = lock.get(entry.source, {})
    if recorded.get("commit") == entry.commit and recorded.get("sha256"):
        return recorded["sha256"], "recorded"
    return None, "first"


def _download(client: httpx.Client, url: str, partial: Path, say: Callable[[str], None]) -> None:
    """`url` into `partial`, resuming what `partial` already holds; retried on a cut connection."""
    for attempt in range(1, ATTEMPTS + 1):
        have = partial.stat().st_size if partial.exists() else 0
        headers = {"Range": f"bytes={have}-"} if have else {}
        try:
            with client.stream("GET", url, headers=headers) as response:
                if response.status_code == 416 and have:  # nothing after what is here: complete
                    return
                if response.status_code == 206 and response.headers.get("content-range", "").startswith(f"bytes {have}-"):
                    mode = "ab"
                    say(f"  resuming at {have:,} bytes")
                elif response.status_code == 200:
                    mode = "wb"
                else:
                    raise FetchError(f"{url}: HTTP {response.status_code} {response.reason_phrase}")
                with partial.open(mode) as file:
                    for chunk in response.iter_bytes():  # as received: a cut loses no buffered bytes
                        file.write(chunk)
            return
        except httpx.HTTPError as error:
            held = partial.stat().st_size if partial.exists() else 0
            if attempt == ATTEMPTS:
                raise FetchError(f"{url}: the download stopped at {held:,} bytes ({error}); run the command "
                                 f"again to resume from there") from error
            say(f"  cut at {held:,} bytes ({type(error).__name__}); resuming")


def fetch_one(entry: Upstream, corpora: Path, lock: dict, client: httpx.Client, base: str,
              say: Callable[[str], None] = print) -> Fetched:
    """Put `entry`'s archive in place under `corpora` (checked), or say why it is not."""
    target = corpora / entry.target
    expected, against = _expected(entry, lock)
    if target.is_file() and expected:
        digest = _sha256(target)
        if digest == expected:
            return Fetched(entry.source, target, target.stat().st_size, digest, against, downloaded=False)
        say(f"  {target} does not have the SHA-256 {against} for it; downloading again")
    url = entry.url(base)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    resumed = partial.exists() and partial.stat().st_size > 0
    _download(client, url, partial, say)
    digest = _sha256(partial)
    if expected and digest != expected and resumed:
        # The part kept from an earlier run may be what is wrong: once more, from the start.
        say("  the resumed file fails its check; downloading it whole")
        partial.unlink()
        _download(client, url, partial, say)
        digest = _sha256(partial)
    if expected and digest != expected:
        size = partial.stat().st_size
        partial.unlink()
        where = "search/corpus/upstreams.py" if against == "pinned" else f"{corpora / LOCK} (its first download)"
        raise FetchError(f"{entry.source}: {url} gave {size:,} bytes with SHA-256 {digest}, not the {expected} "
                         f"recorded in {where}; the file was removed. Run the command again; if upstream now "
                         f"serves other bytes for the same commit, check them and remove the entry from {where}.")
    size = partial.stat().st_size
    if entry.bytes is not None and size != entry.bytes and against == "pinned":
        partial.unlink()
        raise FetchError(f"{entry.source}: {url} gave {size:,} bytes, not {entry.bytes:,}; the file was removed")
    os.replace(partial, target)
    return Fetched(entry.source, target, size, digest, against, downloaded=True)


def _manifests(fetched: Sequence[Fetched], base: str) -> None:
    """manifest.json beside the archives, as ../shared/corpora/latex has one."""
    for item in fetched:
        entry = upstream(item.source)
        manifest_path = item.path.parent / "manifest.json"
        manifest = _read_json(manifest_path)
        manifest[entry.source] = {
            "upstream": f"https://github.com/{entry.repository}", "commit": entry.commit, "licence": entry.licence,
            "archive": item.path.name, "bytes": item.bytes, "sha256": item.sha256, "fetched_from": entry.url(base),
            "root": entry.folder,
        }
        _write_json(manifest_path, manifest)


def fetch_corpora(into: Path, sources: Iterable[str] | None = None, base: str = config.ARCHIVES_URL,
                  client: httpx.Client | None = None, say: Callable[[str], None] = print) -> list[Fetched]:
    """Fetch the default corpora (or `sources`) into `into/corpora`; FetchError names the first
    that failed after the others were tried."""
    entries = [upstream(name) for name in sources] if sources else list(UPSTREAMS)
    corpora = into / "corpora"
    lock_path = corpora / LOCK
    lock = _read_json(lock_path)
    own = client is None
    client = client or httpx.Client(follow_redirects=True, timeout=httpx.Timeout(60.0, connect=30.0))
    fetched, failures = [], []
    try:
        for entry in entries:
            say(f"{entry.source}: {entry.repository} at {entry.commit[:12]}")
            try:
                item = fetch_one(entry, corpora, lock, client, base, say)
            except FetchError as error:
                failures.append(str(error))
                say(f"  FAILED: {error}")
                continue
            fetched.append(item)
            lock[entry.source] = {"commit": entry.commit, "url": entry.url(base), "bytes": item.bytes,
                                  "sha256": item.sha256,
                                  "fetched": datetime.now(timezone.utc).isoformat(timespec="seconds")}
            _write_json(lock_path, lock)
            state = {"pinned": "SHA-256 as pinned", "recorded": "SHA-256 as recorded at its first download",
                     "first": "first download: its SHA-256 is now recorded in " + str(lock_path)}[item.checked]
            say(f"  {'downloaded' if item.downloaded else 'already here'}: {item.path} "
                f"({item.bytes:,} bytes, {state})")
    finally:
        if own:
            client.close()
    _manifests(fetched, base)
    first = [item for item in fetched if item.checked == "first"]
    if first:
        say("Not pinned in this version (no SHA-256 in search/corpus/upstreams.py yet); to pin them, record:")
        for item in first:
            say(f"  {item.source}: sha256={item.sha256!r}, bytes={item.bytes}")
    if failures:
        raise FetchError(f"{len(failures)} of {len(entries)} corpora not fetched: " + " | ".join(failures))
    return fetched


def absent(sources: Iterable[str] | None = None) -> list[Upstream]:
    """The default corpora (or `sources`) that the place a build reads from lacks."""
    entries = [upstream(name) for name in sources] if sources else list(UPSTREAMS)
    return [entry for entry in entries if not (config.CORPORA_DIR / entry.target).exists()]


def missing_message(names: Sequence[str]) -> str:
    """What a build says when default corpora are nowhere: where it looked, and the command that
    gets them, with their sizes (pinned, or else more than the files read from each)."""
    places = ", ".join(str(place / "corpora") for place in config.CORPORA_PLACES)
    entries = [entry for entry in UPSTREAMS if entry.source in names]
    sizes = ", ".join(f"{entry.repository.split('/')[1]} "
                      + (f"{entry.bytes / 1e6:.1f} MB" if entry.bytes else f"> {entry.shared_bytes / 1e6:.1f} MB")
                      for entry in entries)
    unpinned = " (a size not pinned yet is that of the files read from the archive, which the whole "\
               "repository's archive exceeds)" if any(not entry.bytes for entry in entries) else ""
    return (f"the corpora {', '.join(names)} are not here (looked in {places}). "
            f"`python -m search corpora fetch` downloads them from their upstreams at the commits this version "
            f"pins, into {config.DATA_DIR / 'corpora'}, where a build finds them: GitHub archives of {sizes}"
            f"{unpinned}. Or set THEOREM_SEARCH_SHARED to a folder holding corpora/.")
