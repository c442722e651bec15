"""`python -m search adapt`: pairs made from records, their batches, and a trained model that
an index built with it carries (search/index/adapt.py, search/index/build.py `carry_model`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from search.corpus.crosslinks import link_half
from search.index.adapt import REPORT_FILE, AdaptOptions, Pair, adapt_model, batches, training_pairs
from search.index.build import BuildOptions, build_index
from search.index.embed import INT8_FILE, Embedder
from search.index.manifest import IndexLoadError
from search.index.store import Index
from search.record import Statement


def _lean(name: str, statement: str = "a = a", module: str = "Mathlib.A", **fields: object) -> Statement:
    return Statement(f"mathlib:{name}", "mathlib", "theorem", name, statement, "lean", module=module, **fields)  # type: ignore[arg-type]


def _tags(half: str, count: int) -> list[str]:
    found = [tag for tag in (f"{n:04X}" for n in range(1000)) if link_half(tag) == half]
    return found[:count]


def test_each_kind_of_author_text_makes_its_pair() -> None:
    train, test = _tags("train", 1)[0], _tags("test", 1)[0]
    statements = [
        _lean("foo_comm", "∀ a b : ℕ, foo a b = foo b a", doc="The foo operation is commutative in both arguments."),
        _lean("bar", informal="bar: The bar of a finite group, as the module doc describes it."),
        _lean("baz", aliases=["Baz's theorem"]),
        _lean("linked", meta={"stacks_tags": [train]}),
        _lean("held_out", meta={"stacks_tags": [test]}),
        _lean("silent"),
        Statement(f"stacks:{train}", "stacks", "lemma", train, "Every finite group has a Sylow subgroup.", "latex"),
        Statement(f"stacks:{test}", "stacks", "lemma", test, "A held-out statement of the Stacks Project.", "latex"),
    ]
    found = training_pairs(statements, AdaptOptions())
    pairs = {p.origin: p for p in found}
    assert len(found) == len(pairs) == 4
    assert {origin: p.passage.split(":")[0] for origin, p in pairs.items()} == {
        "doc": "foo comm commutative", "informal": "bar", "title": "baz", "stacks": "linked",
    }
    # The docstring is the query, so the passage is the view without it: the verbalised type.
    assert pairs["doc"].query.startswith("The foo operation")
    assert "operation" not in pairs["doc"].passage and "foo a b" in pairs["doc"].passage
    # A description opening with the declaration's name loses the name.
    assert pairs["informal"].query == "The bar of a finite group, as the module doc describes it."
    assert pairs["stacks"].query == "Every finite group has a Sylow subgroup."


def test_the_sample_keeps_every_rare_pair_and_is_seeded() -> None:
    statements = [_lean(f"d{i}", doc=f"Docstring number {i} of the fixture corpus.") for i in range(50)]
    statements += [_lean(f"t{i}", aliases=[f"Title {i}"]) for i in range(5)]
    first = training_pairs(statements, AdaptOptions(pairs=20, seed=1))
    options = AdaptOptions(pairs=20, seed=1)
    assert training_pairs(statements, options) == first
    assert options.counts == {"doc": 15, "informal": 0, "title": 5, "stacks": 0}
    assert training_pairs(statements, AdaptOptions(pairs=20, seed=2)) != first


def test_batches_hold_every_pair_once_in_a_seeded_order() -> None:
    pairs = [Pair(f"q{i}", f"p{i}", "doc") for i in range(9)]
    cut = batches(pairs, 4, seed=0)
    assert [len(batch) for batch in cut] == [4, 4]  # the last batch of one has no negative
    assert len({p.query for batch in cut for p in batch}) == 8
    assert batches(pairs, 4, seed=0) == cut and batches(pairs, 4, seed=1) != cut


def _commuting_operations() -> list[Statement]:
    operations = ["addition", "multiplication", "union", "intersection", "composition", "meet", "join", "product"]
    return [
        _lean(f"op{i}_comm", f"∀ a b : T, op{i} a b = op{i} b a", doc=f"The {operation} of two elements commutes.")
        for i, operation in enumerate(operations)
    ]


@pytest.fixture(scope="module")
def adapted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A model trained for one epoch on eight pairs, in batches of four."""
    out = tmp_path_factory.mktemp("adapted") / "model"
    report = adapt_model(_commuting_operations(), out, AdaptOptions(batch_size=4, learning_rate=1e-4, progress=False))
    return out, report


def test_training_is_reproducible(adapted: tuple[Path, dict], tmp_path: Path) -> None:
    again = tmp_path / "again"
    adapt_model(_commuting_operations(), again, AdaptOptions(batch_size=4, learning_rate=1e-4, progress=False))
    weights = "model.safetensors"
    assert (again / weights).read_bytes() == (adapted[0] / weights).read_bytes()


def test_adapted_model_is_saved_with_its_int8_export_and_report(adapted: tuple[Path, dict]) -> None:
    out, report = adapted
    assert (out / INT8_FILE).is_file() and (out / "model.safetensors").is_file()
    assert json.loads((out / REPORT_FILE).read_text()) == report
    assert report["steps"] == 2 and report["pairs"] == {"doc": 8, "informal": 0, "title": 0, "stacks": 0}
    assert report["options"]["seed"] == 0 and "progress" not in report["options"]


def test_adapted_model_embeds_differently_from_its_base(adapted: tuple[Path, dict]) -> None:
    texts = ["A semigroup is a type with an associative multiplication.", "mul comm: a * b = b * a"]
    base = Embedder(backend="onnx-int8").encode(texts)
    mine = Embedder(str(adapted[0]), backend="onnx-int8").encode(texts)
    assert mine.shape == base.shape
    assert not np.allclose(mine, base, atol=1e-3)


def test_an_index_built_with_it_carries_it(adapted: tuple[Path, dict], tmp_path: Path, fixtures_dir: Path) -> None:
    model = tmp_path / "elsewhere"
    shutil.copytree(adapted[0], model)
    sources = [f"mathlib={fixtures_dir / 'jsonl' / 'mathlib_small.jsonl'}"]
    manifest = build_index(tmp_path / "index", BuildOptions(sources=sources, model=str(model), progress=False))
    assert manifest["model"] == str(model) and manifest["model_dir"] == "model"
    assert manifest["adaptation"] == adapted[1]
    assert f"model/{INT8_FILE}" in manifest["files"]
    # The model travels with the index: the source directory is gone, queries still embed.
    shutil.rmtree(model)
    moved = tmp_path / "moved"
    (tmp_path / "index").rename(moved)
    index = Index.load(moved)
    assert index.model == str(moved / "model")
    query = index.embedder.encode(["an associative operation"])
    expected = Embedder(str(moved / "model"), backend="onnx-int8", max_length=48).encode(["an associative operation"])
    assert np.allclose(query, expected)
    (moved / "model" / INT8_FILE).write_bytes(b"changed")
    with pytest.raises(IndexLoadError, match=f"model/{INT8_FILE} does not match"):
        Index.load(moved)


def test_an_index_of_a_named_model_carries_none(small_index: Path) -> None:
    index = Index.load(small_index)
    assert "model_dir" not in index.manifest and not (small_index / "model").exists()
    assert index.model == index.manifest["model"]


def test_sources_without_lean_text_are_refused_by_the_command(tmp_path: Path, fixtures_dir: Path, capsys) -> None:
    from search.__main__ import main

    out = tmp_path / "model"
    assert main(["adapt", "--out", str(out), "--sources", f"book={fixtures_dir / 'latex' / 'book'}", "--quiet"]) == 2
    assert "the sources give no training pairs" in capsys.readouterr().err
    assert not out.exists()
