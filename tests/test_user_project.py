"""A user's own Lean project and LaTeX notes, parsed and indexed end to end, no toolchain."""

from pathlib import Path

from search.__main__ import main
from search.engine.engine import Engine
from search.index.store import Index

LEAN = """
namespace MyLib

/-- The ring of a local thing has one maximal ideal. -/
@[stacks 0003, simp]
theorem one_maximal (R : Type) : True := trivial

@[to_additive]
theorem mul_self_eq (a : Nat) : a * 1 = a := Nat.mul_one a

end MyLib
"""


def test_parse_build_query_and_cross_links(tmp_path: Path, fixtures_dir: Path, capsys) -> None:
    project = tmp_path / "proj" / "MyLib"
    project.mkdir(parents=True)
    (project / "Basic.lean").write_text(LEAN)
    decls = tmp_path / "decls.jsonl"
    assert main(["parse-lean", str(tmp_path / "proj"), "--out", str(decls), "--source", "mylib"]) == 0
    stacks = fixtures_dir / "latex" / "stackslike"
    out = tmp_path / "index"
    assert main(["build", "--out", str(out), "--quiet", "--sources", f"mylib={decls}", f"stacks={stacks}"]) == 0

    index = Index.load(out)
    formal = index.get("mylib:MyLib.one_maximal")
    assert formal is not None and formal.links == ["stacks:0003"]
    assert index.get("stacks:0003").links == ["mylib:MyLib.one_maximal"]
    assert index.get("mylib:MyLib.add_self_eq") is not None  # the @[to_additive] twin, once

    engine = Engine(index)
    assert engine.search("MyLib.mul_self_eq", k=1)[0].statement.id == "mylib:MyLib.mul_self_eq"
    capsys.readouterr()
    assert main(["query", "--index", str(out), "--json", "-k", "2", "maximal ideal"]) == 0
    assert '"id": "mylib:MyLib.one_maximal"' in capsys.readouterr().out


def test_query_on_a_missing_index_is_a_clear_error(tmp_path: Path, capsys) -> None:
    assert main(["query", "--index", str(tmp_path / "none"), "x"]) == 2
    assert "no index at" in capsys.readouterr().err
