"""Lean's core library from an elan toolchain, read as the source `lean` (on a small tree in
core's layout that the test writes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from search import config
from search.corpus.lean.toolchain import core_sources, release_of
from search.corpus.sources import default_sources, load_records

PRELUDE = """/-! # The prelude -/
namespace Nat
/-- Successor is monotone. -/
theorem succ_le_succ {n m : Nat} (h : n ≤ m) : succ n ≤ succ m := sorry
end Nat
"""
LIST = "namespace List\n/-- Map a function over a list. -/\ndef map (f : α → β) : List α → List β := sorry\nend List\n"


def _toolchain(elan: Path, name: str) -> Path:
    src = elan / "toolchains" / name / "src" / "lean"
    for relative, text in (("Init/Prelude.lean", PRELUDE), ("Init/Data/List/Basic.lean", LIST),
                           ("Lean/Elab.lean", "def Lean.elabIt : Nat := 0\n"), ("lake/Lake.lean", "def lake : Nat := 0\n")):
        (src / relative).parent.mkdir(parents=True, exist_ok=True)
        (src / relative).write_text(text, encoding="utf-8")
    return src


def test_the_newest_toolchain_is_found_and_named_by_its_release(tmp_path: Path) -> None:
    assert core_sources(tmp_path) is None and default_sources(tmp_path) == config.DEFAULT_SOURCES
    _toolchain(tmp_path, "leanprover--lean4---v4.9.0")
    newest = _toolchain(tmp_path, "leanprover--lean4---v4.29.1")
    found = core_sources(tmp_path)
    assert found is not None and (found.path, found.release) == (newest, "v4.29.1")
    assert release_of(newest) == "v4.29.1" and release_of(tmp_path) == ""
    assert default_sources(tmp_path) == (*config.DEFAULT_SOURCES, f"lean={newest}")


def test_core_records_link_to_their_release(tmp_path: Path) -> None:
    src = _toolchain(tmp_path, "leanprover--lean4---v4.29.1")
    corpus = load_records([f"lean={src}"])
    by_name = {s.name: s for s in corpus.statements}
    assert set(by_name) == {"Nat.succ_le_succ", "List.map", "Lean.elabIt"}  # Init, Std, Lean only
    assert corpus.sources["lean"] == {"format": "lean-source", "commit": "v4.29.1", "licence": "Apache-2.0"}
    succ = by_name["Nat.succ_le_succ"]
    assert succ.url == "https://github.com/leanprover/lean4/blob/v4.29.1/src/Init/Prelude.lean#L3-L4"
    assert succ.doc_url.endswith("/Init/Prelude.html#Nat.succ_le_succ")
    assert succ.informal == "" and succ.doc == "Successor is monotone."


def test_build_finds_core_by_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from search.__main__ import main
    from search.index.store import Index

    _toolchain(tmp_path / "elan", "leanprover--lean4---v4.29.1")
    monkeypatch.setattr(config, "ELAN_HOME", tmp_path / "elan")
    monkeypatch.setattr(config, "DEFAULT_SOURCES", ())
    assert main(["build", "--out", str(tmp_path / "index"), "--quiet", "--backend", "torch"]) == 0
    index = Index.load(tmp_path / "index")
    assert index.manifest["sources"]["lean"]["commit"] == "v4.29.1"
    assert index.get("lean:Nat.succ_le_succ") is not None and index.get("lean:List.map") is not None
