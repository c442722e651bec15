"""The ranking variants, by name: the one registry that the CLI, the app, the APIs, the MCP
tools, the evaluation and the tests read.

A new variant is one `register` call (docs/ranking.md, "Adding a ranking variant", shows one):

    from search.engine.ranking import Fusion, Ranking
    from search.engine.variants import register
    register("names_heavy", Ranking(Fusion.RRF, signals=("dense", "bm25", "names"),
                                    weights={"names": 1.0}, rrf_k=10))

Every door lists the variants when it is asked (the page's ranking choice when the page is
made; the native API and the CLI on every request), so a variant registered before the
server starts is offered everywhere.
"""

from __future__ import annotations

from search.engine.ranking import Fusion, Ranking
from search.engine.stages import DependentsPrior, ExactName, PagerankPrior

#: The variant used when none is asked for.
DEFAULT = "default"

VARIANTS: dict[str, Ranking] = {}


class UnknownVariant(ValueError):
    """A variant name the registry does not hold."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown ranking variant {name!r}; choose one of {', '.join(names())}")
        self.name = name


def register(name: str, ranking: Ranking) -> Ranking:
    """Add (or replace) a named variant."""
    if not name or not name.replace("_", "").replace("-", "").isalnum():
        raise ValueError(f"a variant name is letters, digits, '_' and '-'; got {name!r}")
    VARIANTS[name] = ranking
    return ranking


def get(name: str) -> Ranking:
    if name not in VARIANTS:
        raise UnknownVariant(name)
    return VARIANTS[name]


def names() -> tuple[str, ...]:
    return tuple(VARIANTS)


register("dense", Ranking(
    Fusion.SINGLE, signals=("dense",),
    description="dense only: embedding similarity of the query and each record's views",
))
register("bm25", Ranking(
    Fusion.SINGLE, signals=("bm25",),
    description="BM25+ only, over name, statement, docstring, aliases and module words",
))
register("leanexplore", Ranking(
    Fusion.LEANEXPLORE, signals=("dense", "bm25"),
    weights={"dense": 1.0, "bm25": 1.0, "pagerank": 0.2}, dense_threshold=0.525,
    description="the LeanExplore paper's formula (dense > 0.525, then min-max dense + BM25+ + 0.2 PageRank)",
))
register("rrf", Ranking(
    Fusion.RRF, signals=("dense", "bm25"), rrf_k=60,
    description="reciprocal rank fusion of dense and BM25+, k = 60",
))
#: Weighted RRF over every signal with a small k, so that a record near the top of one signal
#: counts; the dense signal at half weight for a query in Lean code, which the embedding model,
#: trained on English, reads poorly; its lexical signals reading a plain statement's nouns, not
#: the number words that count them (`Ranking.lexical_counts`); exact names first; priors for the
#: statements others build on. Chosen on MathlibQR's dev half (docs/ranking.md, "How `default`
#: got there", has a command per row of that choice).
register(DEFAULT, Ranking(
    Fusion.RRF,
    signals=("dense", "bm25", "names", "exact", "substring", "prefix", "fuzzy", "title", "spelled", "types"),
    weights={"dense": 1.0, "bm25": 1.0, "names": 0.3, "exact": 1.0, "substring": 1.0, "prefix": 0.5, "fuzzy": 0.5,
             "title": 1.0, "spelled": 1.0, "types": 1.0},
    styles={"lean": {"dense": 0.5}},
    rrf_k=10,
    lexical_counts=False,
    stages=(ExactName(boost=1.0, signals=("exact", "title")), PagerankPrior(weight=1e-3),
            DependentsPrior(weight=0.15, saturation=20_000)),
    description="weighted RRF of every signal (k = 10), dense at half weight for Lean code, words that count "
    "(\"two\") left out of the lexical query, exact names and famous titles first, PageRank and dependents priors",
))
