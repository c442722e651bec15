import json
from pathlib import Path

import pytest

from search import config
from search.corpus.formats import FORMATS
from search.corpus.latex import parse_latex_to_jsonl
from search.corpus.lean import parse_lean_to_jsonl
from search.corpus.sources import load_records, resolve_source
from search.index.build import BuildOptions, build_index
from search.index.store import Index


def test_shared_names_user_paths_and_theoremsearch(fixtures_dir: Path) -> None:
    assert resolve_source("mathlib").path == config.LEAN_SOURCE_DIR / "mathlib.tar.gz"
    assert resolve_source("mathlib").format == "lean-source"
    assert resolve_source("stacks").format == "latex"
    mine = resolve_source(f"mine={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}")
    assert (mine.name, mine.format) == ("mine", "lean-jsonl")
    assert resolve_source(f"notes={fixtures_dir / 'latex' / 'book'}").format == "latex"
    assert resolve_source("named:latex=./anything").format == "latex"
    arxiv = resolve_source("arxiv")
    assert (arxiv.format, str(arxiv.path)) == ("theoremsearch", "uw-math-ai/theorem-search-dataset")
    assert resolve_source(f"proj={fixtures_dir / 'lean'}").format == "lean-source"
    assert set(FORMATS) == {"lean-source", "lean-jsonl", "statements-jsonl", "latex", "theoremsearch"}


def test_unknown_source_format_and_missing_path_say_so(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown source 'mathlibb'"):
        resolve_source("mathlibb")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        resolve_source(f"x={tmp_path / 'none.jsonl'}").load()
    with pytest.raises(ValueError, match="unknown format 'lean'; formats: lean-source, lean-jsonl"):
        resolve_source(f"x:lean={tmp_path}")
    odd = tmp_path / "odd.jsonl"
    odd.write_text(json.dumps({"title": "no statement"}) + "\n")
    with pytest.raises(ValueError, match="no format recognises it; name one as x:FORMAT="):
        resolve_source(f"x={odd}")


def test_a_source_named_twice_is_refused(fixtures_dir: Path) -> None:
    path = fixtures_dir / "jsonl" / "mathlib_small.jsonl"
    with pytest.raises(ValueError, match="named twice"):
        load_records([f"a={path}", f"a={path}"])


def test_sources_read_beside_the_largest_come_back_in_the_order_named(fixtures_dir: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The sources other than the largest are read in a background process (here whatever their
    size); the records, their order and the links between sources are those of a read in turn."""
    specs = [f"small={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}", f"fakelib={fixtures_dir / 'lean'}",
             f"book={fixtures_dir / 'latex' / 'book'}", f"stackslike={fixtures_dir / 'latex' / 'stackslike'}"]
    monkeypatch.setattr(config, "BACKGROUND_SOURCES_FROM", 10**12)
    in_turn = load_records(specs, sentences=False)
    monkeypatch.setattr(config, "BACKGROUND_SOURCES_FROM", 0)
    beside = load_records(specs, sentences=False)
    assert beside.statements == in_turn.statements and beside.sources == in_turn.sources
    assert [*dict.fromkeys(s.source for s in beside.statements)] == ["small", "fakelib", "book", "stackslike"]


def test_both_parsers_outputs_build_an_index(fixtures_dir: Path, tmp_path: Path) -> None:
    """`python -m search build --sources mine=out.jsonl` reads what `parse-lean` and
    `parse-latex` write, each in its own format, under the name it is given."""
    lean_out, latex_out = tmp_path / "lean.jsonl", tmp_path / "latex.jsonl"
    parse_lean_to_jsonl(fixtures_dir / "lean", lean_out, source="fakelib")
    parse_latex_to_jsonl(fixtures_dir / "latex" / "book", latex_out, source="book")
    assert resolve_source(f"formal={lean_out}").format == "lean-jsonl"
    assert resolve_source(f"informal={latex_out}").format == "statements-jsonl"

    out = tmp_path / "index"
    build_index(out, BuildOptions(sources=[f"formal={lean_out}", f"informal={latex_out}"], backend="torch",
                                  progress=False))
    index = Index.load(out)
    assert {name: s["format"] for name, s in index.manifest["sources"].items()} == {
        "formal": "lean-jsonl", "informal": "statements-jsonl"}
    languages = {(s.source, s.language) for s in index.records}
    assert languages == {("formal", "lean"), ("informal", "latex")}
    informal = [s for s in index.records if s.source == "informal"]
    assert informal and all(s.id.startswith("informal:") for s in informal)
    assert all(d.startswith("informal:") for s in informal for d in s.deps + [s.group] if d)
    direct = load_records([f"book={fixtures_dir / 'latex' / 'book'}"]).statements
    assert [s.name for s in informal] == [s.name for s in direct]


def test_records_without_sentences_are_the_same_records_unsaid(fixtures_dir: Path, tmp_path: Path) -> None:
    """`python -m search records --no-sentences`: the records as parsed, counted alike, with no
    sentence and no informaliser's counts."""
    from search.__main__ import main

    source = f"mine={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}"
    said, unsaid = tmp_path / "said.json", tmp_path / "unsaid.json"
    assert main(["records", "--sources", source, "--counts", str(said)]) == 0
    assert main(["records", "--sources", source, "--no-sentences", "--counts", str(unsaid)]) == 0
    said_counts, unsaid_counts = (json.loads(p.read_text(encoding="utf-8")) for p in (said, unsaid))
    assert said_counts["counts"] == unsaid_counts["counts"] and said_counts["total"] == unsaid_counts["total"] > 0
    assert said_counts["informaliser"]["said"] == said_counts["texts"]["mine"]["informal_statement"] > 0
    assert "informaliser" not in unsaid_counts and unsaid_counts["texts"]["mine"]["informal_statement"] == 0
    assert not any(s.informal_statement for s in load_records([source], sentences=False).statements)
