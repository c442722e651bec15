"""`python -m eval patterns` on the index of Loogle's fixture declarations: patterns cut from
the statements find them, the brute-force matcher agrees with the fast one, and says so when
it does not."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from eval import pattern_reference
from eval.__main__ import main
from eval.patterns import writable_constant
from search.engine.patterns import Matcher, parse_pattern
from search.index.build import BuildOptions, build_index
from search.index.store import Index


@pytest.fixture(scope="module")
def pattern_index(tmp_path_factory: pytest.TempPathFactory, fixtures_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("eval_patterns") / "index"
    build_index(out, BuildOptions(sources=[f"mathlib={fixtures_dir / 'api' / 'lean_patterns.jsonl'}"],
                                  backend="torch", progress=False))
    return out


def _tree(index: Index, name: str) -> tuple:
    position = index.records.column("name").index(name)
    patterns = index.patterns
    return pattern_reference.tree_of(np.asarray(patterns.nodes[patterns.offsets[position]:patterns.offsets[position + 1]]))


def test_the_reference_reads_loogle_rules(pattern_index: Path) -> None:
    index = Index.load(pattern_index)
    commutes = parse_pattern("?a * ?b = ?b * ?a")
    assert pattern_reference.matches(commutes, _tree(index, "mul_comm"), index.patterns)
    assert not pattern_reference.matches(commutes, _tree(index, "mul_left_comm"), index.patterns)
    # Hypotheses in any order, the conclusion at the root only.
    strict = parse_pattern("_ < _ → tsum _ < tsum _", conclusion=True)
    assert pattern_reference.matches(strict, _tree(index, "tsum_lt_tsum"), index.patterns)
    assert not pattern_reference.matches(strict, _tree(index, "tsum_le_tsum"), index.patterns)


def test_generated_patterns_find_their_theorem(pattern_index: Path, tmp_path: Path, capsys) -> None:
    code = main(["patterns", "--index", str(pattern_index), "--count", "12", "--reference-patterns", "12",
                 "--reference-records", "30", "--out", str(tmp_path)])
    report = json.loads((tmp_path / "patterns.json").read_text(encoding="utf-8"))
    assert code == 0 and report["reference"]["disagreements"] == 0
    assert report["patterns"] == 12 and report["recall"]["mean"] == 1.0
    assert all(row["found"] for row in report["rows"])
    assert {e["pattern"]: e["first"][0] for e in report["examples"]}["?a * ?b = ?b * ?a"] == "mul_comm"
    assert "Brute-force reference: 12 patterns" in capsys.readouterr().out


def test_a_generated_pattern_names_only_constants_a_pattern_can_write() -> None:
    # `x.F` of a statement is the constant `F` to its reading, which a pattern reads as a variable
    assert [writable_constant(name) for name in ("Nat.ModEq", "toLinearMap", "F", "ι")] == [True, True, False, False]


def test_a_matcher_that_drops_hits_is_caught(pattern_index: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    matching = Matcher.matching
    monkeypatch.setattr(Matcher, "matching", lambda self, pattern, records: matching(self, pattern, records)[1:])
    code = main(["patterns", "--index", str(pattern_index), "--count", "8", "--reference-patterns", "8",
                 "--reference-records", "30", "--out", str(tmp_path)])
    report = json.loads((tmp_path / "patterns.json").read_text(encoding="utf-8"))
    assert code == 1 and report["reference"]["disagreements"] > 0 and report["recall"]["mean"] < 1.0
