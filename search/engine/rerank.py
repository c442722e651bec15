"""A learned second stage: the fused top candidates re-scored by a gradient-boosted ranking
model over their features (`search.engine.features`).

The model is trained on queries made from the corpus itself (`python -m search learn
reranker`, `search/learn/reranker.py`), never on MathlibQR, and lives with the index it was
trained on (`reranker.txt`, LightGBM's text format: read without running any code from the
file, unlike a pickle, so that a prebuilt index fetched from elsewhere is safe to load).
Candidates past `depth` keep their fused order below the re-scored ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from search.engine.features import FEATURES, rows
from search.engine.stages import StageContext, stage

if TYPE_CHECKING:
    import lightgbm

#: The model's file in an index directory.
MODEL_FILE = "reranker.txt"


@stage
@dataclass(frozen=True)
class LearnedRerank:
    """Re-score the best `depth` fused candidates with the index's reranker; the fused score
    stays a feature, so the model can keep what fusion got right."""

    name: ClassVar[str] = "rerank"
    depth: int = 50

    def apply(self, scores: dict[int, float], context: StageContext) -> dict[int, float]:
        if not scores or context.engine is None:
            return scores
        ranked = sorted(scores.items(), key=lambda item: -item[1])
        head = ranked[: self.depth]
        positions = np.fromiter((p for p, _ in head), dtype=np.int64, count=len(head))
        fused = np.fromiter((s for _, s in head), dtype=np.float32, count=len(head))
        predicted = context.engine.reranker.predict(rows(context, context.engine.record_arrays, positions, fused))
        # The model's scores, mapped into [1, 2], above the rest, which keeps its order below 1.
        low, span = float(predicted.min()), float(predicted.max() - predicted.min()) or 1.0
        out = {int(p): 1.0 + (float(v) - low) / span for p, v in zip(positions, predicted)}
        for i, (position, _) in enumerate(ranked[self.depth:], 1):
            out[position] = 1.0 / (1.0 + i)
        return out


def load_model(directory: Path) -> "lightgbm.Booster":
    """The reranker an index directory holds; ValueError saying how to train one."""
    path = Path(directory) / MODEL_FILE
    if not path.is_file():
        raise ValueError(f"{directory} has no {MODEL_FILE}: train one with "
                         f"`python -m search learn reranker --index {directory}`")
    import lightgbm

    booster = lightgbm.Booster(model_file=str(path))
    if booster.feature_name() != list(FEATURES):
        raise ValueError(f"{path} was trained on other features than search/engine/features.py's; train it again")
    return booster
