"""A ranking as one frozen value: how the signals' candidate lists become one ordered list.

`Engine.search` takes a `Ranking` (or the name of one in `search.engine.variants`): the fusion
method with its parameters, how deep each signal's candidate list goes, how the query reaches
the lexical signals, and the stages that re-score the fused list in order (the exact name
first, structural priors, a reranker). A ranking is plain data: `to_dict` and `from_dict`
round-trip it, so an evaluation report records the exact ranking behind each of its rows, and
`with_settings(["dependents.weight=0.2"])` makes a changed copy for a tuning run instead of
patching module constants.
"""

from __future__ import annotations

import ast
import dataclasses
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from search.engine.query import KINDS
from search.engine.stages import STAGES, Stage


class Fusion(str, Enum):
    """How per-signal candidate lists are combined (`search.engine.fusion` implements each)."""

    #: One signal alone, by its own score.
    SINGLE = "single"
    #: Weighted reciprocal rank fusion: the sum over signals of weight / (k + rank).
    RRF = "rrf"
    #: The LeanExplore paper's formula: dense candidates above a similarity threshold, then
    #: min-max normalised dense, BM25+ and PageRank, weighted.
    LEANEXPLORE = "leanexplore"


@dataclass(frozen=True)
class Ranking:
    """Everything that decides the order of results besides the index and the query."""

    fusion: Fusion
    #: The signals fused, in the order their contributions are summed.
    signals: tuple[str, ...]
    #: Weight per signal (RRF) or per term (LeanExplore: dense, bm25, pagerank); 1.0 if absent.
    weights: Mapping[str, float] = field(default_factory=dict)
    #: Per kind of query (`search.engine.query.KINDS`: "lean", "latex", ...), weights that
    #: replace those of `weights` for the queries of that kind.
    styles: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    #: RRF's constant k (ignored by the other fusions).
    rrf_k: int = 60
    #: LeanExplore's least dense similarity for a candidate (ignored by the other fusions).
    dense_threshold: float = 0.0
    #: How deep each signal's candidate list goes before fusion (at least 4·k).
    candidates: int = 200
    #: LaTeX in a query reaches BM25+ and the names index as Unicode text; the dense signal
    #: always reads the query as typed.
    latex_as_text: bool = True
    #: A number word that counts the things after it ("the sum of two even numbers") is a word
    #: of the lexical query; when False it is left out there, as a statement names its things
    #: and does not count them, while names count numbers (`even_add_two`, `two_mul`).
    lexical_counts: bool = True
    #: A misspelt name still matches when its similarity ratio (0-100) reaches this.
    fuzzy_cutoff: float = 85
    #: A query names a famous title when its similarity ratio (0-100) with it reaches this.
    title_cutoff: float = 90
    #: Applied in order to the fused scores.
    stages: tuple[Stage, ...] = ()
    #: One line for people (the CLI's help, the app, `/api/v1/index`).
    description: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "fusion", Fusion(self.fusion))
        object.__setattr__(self, "signals", tuple(self.signals))
        object.__setattr__(self, "weights", MappingProxyType(dict(self.weights)))
        unknown = sorted(set(self.styles) - set(KINDS))
        if unknown:
            raise ValueError(
                f"no query is of kind {', '.join(map(repr, unknown))}; the kinds are {', '.join(KINDS)}")
        object.__setattr__(self, "styles", MappingProxyType(
            {kind: MappingProxyType(dict(weights)) for kind, weights in self.styles.items()}))
        object.__setattr__(self, "stages", tuple(self.stages))
        if not self.signals:
            raise ValueError("a ranking fuses at least one signal")
        if self.fusion is Fusion.SINGLE and len(self.signals) != 1:
            raise ValueError(f"a single-signal ranking names one signal, not {list(self.signals)}")
        names = [stage.name for stage in self.stages]
        if len(set(names)) != len(names):
            raise ValueError(f"a ranking holds each stage once; got {names}")

    def weight(self, signal: str, kind: str = "") -> float:
        """The weight of `signal` for a query of `kind` (its style's, else the ranking's)."""
        return self.styles.get(kind, {}).get(signal, self.weights.get(signal, 1.0))

    def stage(self, name: str) -> Stage | None:
        return next((s for s in self.stages if s.name == name), None)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values; `from_dict` reads them back."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["fusion"] = self.fusion.value
        out["signals"] = list(self.signals)
        out["weights"] = dict(self.weights)
        out["styles"] = {kind: dict(weights) for kind, weights in self.styles.items()}
        out["stages"] = [{"name": s.name, **dataclasses.asdict(s)} for s in self.stages]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Ranking":
        data = dict(data)
        stages = []
        for item in data.pop("stages", []):
            settings = dict(item)
            name = settings.pop("name")
            if name not in STAGES:
                raise ValueError(f"unknown ranking stage {name!r}; known: {', '.join(STAGES)}")
            stages.append(STAGES[name](**settings))
        return cls(**data, stages=tuple(stages))

    def with_settings(self, settings: Iterable[str]) -> "Ranking":
        """A copy with `NAME=VALUE` settings applied, VALUE a Python literal. NAME is a field
        (`rrf_k`, `candidates`, `latex_as_text`, ...), `weights.SIGNAL`, `styles.KIND.SIGNAL` (a
        signal's weight for the queries of one kind), or `STAGE.FIELD` for a stage this ranking
        has (`dependents.weight`, `dependents.saturation`)."""
        ranking = self
        for setting in settings:
            ranking = ranking._with_setting(setting)
        return ranking

    def _with_setting(self, setting: str) -> "Ranking":
        name, equals, text = setting.partition("=")
        head, _, tail = name.strip().partition(".")
        if not equals or not head or not text.strip():
            raise ValueError(f"setting {setting!r}: expected NAME=VALUE")
        try:
            value = ast.literal_eval(text.strip())
        except (ValueError, SyntaxError):
            raise ValueError(f"setting {setting!r}: {text!r} is not a Python literal") from None
        if head == "weights" and tail:
            return dataclasses.replace(self, weights={**self.weights, tail: float(value)})
        kind, _, signal = tail.partition(".")
        if head == "styles" and kind and signal:
            style = {**self.styles.get(kind, {}), signal: float(value)}
            return dataclasses.replace(self, styles={**self.styles, kind: style})
        fields = {f.name for f in dataclasses.fields(self)} - {"stages", "weights", "styles", "description"}
        if head in fields and not tail:
            return dataclasses.replace(self, **{head: value})
        stage = self.stage(head)
        if stage is not None and tail in {f.name for f in dataclasses.fields(stage)}:
            changed = dataclasses.replace(stage, **{tail: value})
            return dataclasses.replace(self, stages=tuple(changed if s is stage else s for s in self.stages))
        known = sorted(fields) + ["weights.SIGNAL", "styles.KIND.SIGNAL"] + [
            f"{s.name}.{f.name}" for s in self.stages for f in dataclasses.fields(s)
        ]
        raise ValueError(f"setting {setting!r}: this ranking has no {name!r}; it has {', '.join(known)}")
