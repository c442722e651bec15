from pathlib import Path

import pytest

from search import config
from search.corpus.sources import resolve_source


def test_shared_names_user_paths_and_theoremsearch() -> None:
    assert resolve_source("mathlib").path == config.LEAN_CORPUS_DIR / "mathlib.jsonl.gz"
    assert resolve_source("stacks").format == "latex"
    mine = resolve_source("mine=./decls.jsonl")
    assert (mine.name, mine.path, mine.format) == ("mine", Path("decls.jsonl"), "lean")
    assert resolve_source("notes=./tex").format == "latex"
    arxiv = resolve_source("arxiv")
    assert (arxiv.format, str(arxiv.path)) == ("theoremsearch", "uw-math-ai/theorem-search-dataset")


def test_unknown_source_and_missing_path_say_so(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown source 'mathlibb'"):
        resolve_source("mathlibb")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        resolve_source(f"x={tmp_path / 'none.jsonl'}").load()
