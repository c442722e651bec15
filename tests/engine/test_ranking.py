"""Rankings as values: the registry, settings, round trips through JSON, the stages."""

import json
from types import SimpleNamespace

import numpy as np
import pytest

from search.engine import variants
from search.engine.query import parse_query
from search.engine.ranking import Fusion, Ranking
from search.engine.stages import STAGES, DependentsPrior, ExactName, PagerankPrior, StageContext


def test_every_registered_variant_round_trips_through_json() -> None:
    for name, ranking in variants.VARIANTS.items():
        again = Ranking.from_dict(json.loads(json.dumps(ranking.to_dict())))
        assert again == ranking, name


def test_settings_change_a_copy_field_weight_and_stage() -> None:
    default = variants.get("default")
    changed = default.with_settings(["rrf_k=5", "weights.names=0.6", "dependents.saturation=100", "latex_as_text=False"])
    assert (changed.rrf_k, changed.weights["names"], changed.stage("dependents").saturation) == (5, 0.6, 100)
    assert changed.latex_as_text is False and changed.stages[0] == default.stages[0]
    assert (default.rrf_k, default.weights["names"], default.stage("dependents").saturation) == (10, 0.3, 20_000)


def test_a_style_setting_weighs_one_kind_of_query() -> None:
    changed = variants.get("default").with_settings(["styles.lean.dense=0.25", "styles.lean.bm25=2"])
    assert (changed.weight("dense", "lean"), changed.weight("bm25", "lean")) == (0.25, 2.0)
    assert changed.weight("dense", "natural") == changed.weight("dense") == 1.0
    assert Ranking.from_dict(json.loads(json.dumps(changed.to_dict()))) == changed
    with pytest.raises(ValueError, match="no query is of kind 'prose'"):
        variants.get("default").with_settings(["styles.prose.dense=0.5"])


@pytest.mark.parametrize("setting", ["rrf_k", "rrf_k=", "rrf_k=ten", "nope=1", "pagerank.weigth=1", "stages=()",
                                     "styles.lean=1"])
def test_bad_settings_are_refused_with_what_exists(setting: str) -> None:
    with pytest.raises(ValueError, match="setting"):
        variants.get("default").with_settings([setting])


def test_a_ranking_is_checked_when_made() -> None:
    with pytest.raises(ValueError, match="one signal"):
        Ranking(Fusion.SINGLE, signals=("dense", "bm25"))
    with pytest.raises(ValueError, match="at least one signal"):
        Ranking(Fusion.RRF, signals=())
    with pytest.raises(ValueError, match="each stage once"):
        Ranking(Fusion.RRF, signals=("bm25",), stages=(PagerankPrior(), PagerankPrior(0.5)))
    with pytest.raises(ValueError):
        Ranking("borda", signals=("bm25",))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown ranking stage 'rerank'"):
        Ranking.from_dict({"fusion": "rrf", "signals": ["bm25"], "stages": [{"name": "rerank"}]})


def test_registry_refuses_unknown_names_and_odd_ones() -> None:
    with pytest.raises(variants.UnknownVariant, match="choose one of dense, bm25"):
        variants.get("best")
    with pytest.raises(ValueError, match="letters, digits"):
        variants.register("two words", variants.get("bm25"))


def _context(exact: list[int], pagerank: list[float], dependents: list[int]) -> StageContext:
    index = SimpleNamespace(pagerank=np.array(pagerank), pagerank_max=max(pagerank),
                            dependents=np.array(dependents))
    signals = {"exact": (np.array(exact, dtype=np.int64), np.ones(len(exact)))} if exact else {}
    return StageContext(parse_query("x"), signals, index, np.zeros(len(pagerank)).__getitem__)  # type: ignore[arg-type]


def test_stages_add_their_boost_or_prior() -> None:
    context = _context(exact=[2], pagerank=[0.5, 1.0, 0.0], dependents=[0, 99, 9])
    assert ExactName(boost=1.0).apply({0: 0.1}, context) == {0: 0.1, 2: 1.0}
    assert PagerankPrior(weight=0.1).apply({0: 0.0, 1: 0.0}, context) == pytest.approx({0: 0.05, 1: 0.1})
    # log(1 + 9) / log(1 + 99) = 0.5; 99 dependents reach the saturation: the full weight.
    assert DependentsPrior(weight=0.2, saturation=99).apply({1: 0.0, 2: 0.0}, context) == pytest.approx({1: 0.2, 2: 0.1})
    assert set(STAGES) >= {"exact_name", "pagerank", "dependents"}
