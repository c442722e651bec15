"""Where each default corpus comes from: its upstream repository and the commit an index is built
at, as a GitHub source archive (`https://github.com/OWNER/REPO/archive/COMMIT.tar.gz`), and
where `python -m search corpora fetch` puts it, in the layout `../shared/corpora` has.

A GitHub archive holds the repository at that commit under one folder, `REPO-COMMIT/`; the
readers take that as it is (search/corpus/latex.py drops the one top folder; the Lean source
reader, search/corpus/lean/project.py, finds the project under it, its commit in the archive's
header and Mathlib's lists of named theorems in its `docs/*.yaml`).

`sha256` and `bytes` are those of the archive as GitHub served it, once someone measured them:
this project's own machines cannot reach GitHub, so for an entry whose `sha256` is None the
first download is trusted and its SHA-256 pinned in the fetched folder's lock file
(`corpora/fetched.json`), against which every later download or resumed one is checked; `fetch`
prints the values to record here. `shared_bytes` is measured: the size of the same corpus as
../shared packs it (only the files this project reads), a guide to the download's size, which is
larger (a whole repository).
"""

from __future__ import annotations

from dataclasses import dataclass

from search import config


@dataclass(frozen=True)
class Upstream:
    """One default corpus as its upstream publishes it."""

    source: str
    #: OWNER/REPO on GitHub.
    repository: str
    commit: str
    licence: str
    #: Where it goes under the corpora folder (`corpora/` of ../shared or of the fetched folder).
    target: str
    shared_bytes: int
    sha256: str | None = None
    bytes: int | None = None

    def url(self, base: str) -> str:
        """The archive's address under `base` (`https://github.com`, or a test's server)."""
        return f"{base.rstrip('/')}/{self.repository}/archive/{self.commit}.tar.gz"

    @property
    def folder(self) -> str:
        """The one top folder of the archive: `REPO-COMMIT`."""
        return f"{self.repository.split('/')[1]}-{self.commit}"


UPSTREAMS: tuple[Upstream, ...] = (
    *(Upstream(source, config.LEAN_UPSTREAMS[source], commit, config.LEAN_LICENCES[source],
               f"lean/src/{source}.tar.gz", shared_bytes=size) for source, commit, size in (
        ("mathlib", "93594942ef3b93fae5272d7bf368676ff40f8eb1", 22_234_845),
        ("batteries", "45f65c8b8292f98a70a0eccb706f89bb3e69feab", 292_435),
        ("physlean", "23b65a34db5286172926ac02d81bdde50ccbb55c", 837_406))),
    Upstream("stacks", "stacks/stacks-project", "4ac4815d5a00dc2eacab7824cf4e4baafe2773ac",
             "GFDL-1.2", "latex/stacks.tar.gz", shared_bytes=6_307_548),
    Upstream("openlogic", "OpenLogicProject/OpenLogic", "9620cc73f9c8e0ad003c514a5d3748f29611c4c0",
             "CC-BY-4.0", "latex/openlogic.tar.gz", shared_bytes=791_206),
    Upstream("hott", "HoTT/book", "578b85cc8d586b1677ec4335148adeb443057d24",
             "CC-BY-SA-3.0", "latex/hott.tar.gz", shared_bytes=480_713),
    Upstream("napkin", "vEnhance/napkin", "3b108731587d71f0a3887b0b004a8814c423a003",
             "CC-BY-SA-4.0 (text)", "latex/napkin.tar.gz", shared_bytes=727_184),
    Upstream("cring", "aisejohan/cring", "51dc6d921e2b61c91114068255fd29cdc2c01f94",
             "GFDL-1.2", "latex/cring.tar.gz", shared_bytes=373_315),
)


def upstream(source: str) -> Upstream:
    for entry in UPSTREAMS:
        if entry.source == source:
            return entry
    raise KeyError(f"no upstream for {source!r}; default corpora: {', '.join(u.source for u in UPSTREAMS)}")
