"""The TheoremSearch loader on small Parquet tables with the dataset's schema."""

from pathlib import Path

import pandas as pd
import pytest

from search.corpus import theoremsearch
from search.corpus.theoremsearch import (
    TheoremQuery,
    TheoremSearchUnavailable,
    load_theoremsearch,
    load_theoremsearch_queries,
)

THEOREMS = [
    {"theorem_id": 11, "paper_id": "p1", "name": "Theorem 1.2", "body": r"Every $x$ is $y$.",
     "label": "thm:main", "link": "https://arxiv.org/abs/2101.00001v2#thm1.2"},
    {"theorem_id": 12, "paper_id": "p1", "name": "Lemma 3", "body": r"$a \le b$.",
     "label": None, "link": None},
    {"theorem_id": 13, "paper_id": "p2", "name": "Main result", "body": "No slogan here.",
     "label": "", "link": "https://arxiv.org/abs/math/0601001"},
]  # fmt: skip
SLOGANS = [
    {"slogan_id": 2, "theorem_id": 11, "model": "qwen", "slogan": "All x are y."},
    {"slogan_id": 1, "theorem_id": 11, "model": "deepseek", "slogan": "Each x equals y."},
    {"slogan_id": 3, "theorem_id": 12, "model": "qwen", "slogan": "a is at most b."},
    {"slogan_id": 4, "theorem_id": 99, "model": "qwen", "slogan": "Not a loaded theorem."},
]
PAPERS = [
    {"paper_id": "p1", "title": "On x and y", "link": "https://arxiv.org/abs/2101.00001",
     "citations": 7, "primary_category": "math.AG", "license": "CC BY 4.0"},
    {"paper_id": "p2", "title": "Old paper", "link": "https://arxiv.org/abs/math/0601001",
     "citations": None, "primary_category": "math.NT", "license": "arXiv"},
]  # fmt: skip
QUERIES = [
    {"query": "are all x equal to y", "theorem number": "Theorem 1.2", "paper title": "On x and y",
     "link": "https://arxiv.org/abs/2101.00001"},
    {"query": "an old result", "theorem number": "Theorem 4", "paper title": "Old paper",
     "link": "https://arxiv.org/abs/math/0601001v1"},
]  # fmt: skip


def _write(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_parquet(path, index=False)


@pytest.fixture()
def hub_layout(tmp_path: Path) -> Path:
    """The files as the hub repository names them."""
    _write(tmp_path / "theorem.parquet", THEOREMS)
    _write(tmp_path / "theorem_slogan.parquet", SLOGANS)
    _write(tmp_path / "paper.parquet", PAPERS)
    _write(tmp_path / "theorems-test.parquet", QUERIES)
    return tmp_path


@pytest.fixture()
def config_layout(tmp_path: Path) -> Path:
    """One folder per config, the theorem table split in two files."""
    _write(tmp_path / "theorem" / "part-0.parquet", THEOREMS[:2])
    _write(tmp_path / "theorem" / "part-1.parquet", THEOREMS[2:])
    _write(tmp_path / "theorem_slogan" / "0.parquet", SLOGANS)
    _write(tmp_path / "paper" / "0.parquet", PAPERS)
    return tmp_path


def test_theorem_joined_with_slogans_and_paper(hub_layout: Path) -> None:
    first = load_theoremsearch(str(hub_layout))[0]
    assert first.id == "arxiv:11" and first.group == "arxiv:11"
    assert first.source == "arxiv"
    assert first.kind == "theorem"
    assert first.name == "Theorem 1.2"
    assert first.statement == r"Every $x$ is $y$."
    assert first.doc == "Each x equals y."  # alphabetically first model: deepseek
    assert first.module == "p1"
    assert first.package == "math.AG"
    assert first.url == "https://arxiv.org/abs/2101.00001v2#thm1.2"
    assert first.meta == {
        "paper_id": "p1",
        "label": "thm:main",
        "paper_title": "On x and y",
        "paper_link": "https://arxiv.org/abs/2101.00001",
        "category": "math.AG",
        "citations": 7,
        "license": "CC BY 4.0",
        "slogans": {"deepseek": "Each x equals y.", "qwen": "All x are y."},
    }
    assert first.formal is False


def test_kind_link_fallback_and_missing_slogan(hub_layout: Path) -> None:
    _, lemma, plain = load_theoremsearch(str(hub_layout))
    assert (lemma.kind, lemma.name, lemma.doc) == ("lemma", "Lemma 3", "a is at most b.")
    assert lemma.url == "https://arxiv.org/abs/2101.00001"  # no theorem link: the paper's
    assert lemma.meta["label"] == ""
    assert (plain.kind, plain.doc, plain.package) == ("theorem", "", "math.NT")
    assert plain.meta["citations"] is None and "slogans" not in plain.meta


def test_slogan_model_choice_and_limit(hub_layout: Path) -> None:
    chosen = load_theoremsearch(str(hub_layout), limit=1, slogan_model="qwen")
    assert [s.id for s in chosen] == ["arxiv:11"]
    assert chosen[0].doc == "All x are y."


def test_config_folders_read_like_the_hub_files(hub_layout: Path, config_layout: Path) -> None:
    assert load_theoremsearch(str(config_layout)) == load_theoremsearch(str(hub_layout))
    limited = load_theoremsearch(str(config_layout), limit=2)
    assert [s.id for s in limited] == ["arxiv:11", "arxiv:12"]


def test_queries_resolve_to_loaded_theorems(hub_layout: Path) -> None:
    statements = load_theoremsearch(str(hub_layout))
    found, unknown = load_theoremsearch_queries(str(hub_layout), statements)
    assert found == TheoremQuery(
        query="are all x equal to y",
        relevant="arxiv:11",
        link="https://arxiv.org/abs/2101.00001",
        theorem="Theorem 1.2",
        paper_title="On x and y",
    )
    assert unknown.relevant == "https://arxiv.org/abs/math/0601001v1"
    assert [q.relevant for q in load_theoremsearch_queries(str(hub_layout))] == [
        "https://arxiv.org/abs/2101.00001",
        "https://arxiv.org/abs/math/0601001v1",
    ]


def test_snake_case_test_columns(tmp_path: Path) -> None:
    renamed = [{k.replace(" ", "_"): v for k, v in row.items()} for row in QUERIES]
    _write(tmp_path / "theorem-test" / "0.parquet", renamed)
    queries = load_theoremsearch_queries(str(tmp_path))
    assert [q.theorem for q in queries] == ["Theorem 1.2", "Theorem 4"]


def test_missing_table_is_a_clear_error(tmp_path: Path) -> None:
    _write(tmp_path / "theorem.parquet", THEOREMS)
    with pytest.raises(TheoremSearchUnavailable, match="no 'theorem_slogan' table"):
        load_theoremsearch(str(tmp_path))


def test_hub_names_go_through_datasets(monkeypatch: pytest.MonkeyPatch) -> None:
    import datasets

    tables = {"theorem": THEOREMS, "theorem_slogan": SLOGANS, "paper": PAPERS}
    calls = []

    def fake_load(name: str, config: str, split: str) -> datasets.Dataset:
        calls.append((name, config, split))
        return datasets.Dataset.from_list(tables[config])

    monkeypatch.setattr(datasets, "load_dataset", fake_load)
    loaded = load_theoremsearch(limit=2)
    assert [s.id for s in loaded] == ["arxiv:11", "arxiv:12"]
    assert calls[0] == (theoremsearch.DATASET, "theorem", "train")


def test_unreachable_hub_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import datasets

    def offline(*args: object, **kwargs: object) -> None:
        raise ConnectionError("no network")

    monkeypatch.setattr(datasets, "load_dataset", offline)
    with pytest.raises(TheoremSearchUnavailable, match="cannot load .* no network. Download"):
        load_theoremsearch("someone/missing")
