"""The translation dictionaries kept here are those of the Mathlib the shared corpus pins: a tree
that is not Mathlib (a user's project) is read with them."""

from __future__ import annotations

from pathlib import Path

import pytest

from search.corpus.lean.guess_name import END_CAPITAL_NAMES, read_dictionary, read_end_capitals
from search.corpus.lean.project import open_lean_project
from search.corpus.lean.syntax import lex
from search.corpus.lean.to_additive import ADDITIVE
from search.corpus.lean.to_dual import DUAL

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def translate_sources(shared_dir: Path) -> dict[str, str]:
    project = open_lean_project(shared_dir / "corpora" / "lean" / "src" / "mathlib.tar.gz")
    wanted = {f"Mathlib/Tactic/Translate/{name}.lean" for name in ("ToAdditive", "ToDual", "GuessName")}
    return {path.rsplit("/", 1)[1]: lex(text).code for path, text in project.modules() if path in wanted}


@pytest.mark.parametrize(("file", "kept"), [("ToAdditive.lean", ADDITIVE), ("ToDual.lean", DUAL)])
def test_kept_dictionaries_are_mathlibs(translate_sources: dict[str, str], file: str, kept) -> None:
    read = read_dictionary(translate_sources[file], kept)
    assert read.words == kept.words and read.abbreviations == kept.abbreviations
    assert read is not kept  # read from the source, not the copy handed in


def test_end_capital_names_are_mathlibs(translate_sources: dict[str, str]) -> None:
    assert read_end_capitals(translate_sources["GuessName.lean"]) == END_CAPITAL_NAMES
