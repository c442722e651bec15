"""bm25s's BM25+ checked against the reference implementation, rank_bm25.BM25Plus."""

import numpy as np
from rank_bm25 import BM25Plus

from search.index.lexical import PARAMS, LexicalIndex, Vocabulary, bm25plus

CORPUS = [
    "multiplication is commutative in a commutative monoid",
    "addition is commutative",
    "the successor function is monotone on natural numbers",
    "a finite set has positive cardinality iff it is nonempty",
    "commutative ring commutative ring commutative",
    "prime numbers are infinite",
]


def test_bm25plus_matches_rank_bm25() -> None:
    docs = [text.split() for text in CORPUS]
    ours = LexicalIndex.build(docs)
    reference = BM25Plus(docs, k1=PARAMS["k1"], b=PARAMS["b"], delta=PARAMS["delta"])
    for query in (["commutative"], ["natural", "numbers", "successor"], ["ring", "prime"]):
        expected = reference.get_scores(query)
        got = ours.scores(query)
        # The formula difference, documented in LexicalIndex.scores: rank_bm25 also adds
        # delta * idf(t) for query terms absent from a document; BM25+ as published (and ours)
        # adds it only for present terms. Where a document holds every query term they agree.
        idf = {t: np.log((len(docs) + 1) / sum(t in d for d in docs)) for t in query}
        missing = np.array([sum(PARAMS["delta"] * idf[t] for t in query if t not in d) for d in docs])
        np.testing.assert_allclose(got, expected - missing, rtol=1e-5, atol=1e-5)


def test_unknown_tokens_score_zero_and_round_trip(tmp_path) -> None:
    docs = [text.split() for text in CORPUS]
    index = LexicalIndex.build(docs)
    assert not index.scores(["zzz"]).any()
    LexicalIndex.write(docs, tmp_path / "bm25")
    loaded = LexicalIndex.load(tmp_path / "bm25")
    np.testing.assert_allclose(loaded.scores(["prime"]), index.scores(["prime"]))
    assert int(np.argmax(loaded.scores(["prime"]))) == 5
    np.testing.assert_allclose(loaded.scores(["ring", "commutative", "zzz"]),
                               index.scores(["ring", "commutative", "zzz"]))


def test_empty_token_is_skipped() -> None:
    index = LexicalIndex.build([text.split() for text in CORPUS] + [[]])
    assert not index.scores([""]).any()
    np.testing.assert_allclose(index.scores(["prime", ""]), index.scores(["prime"]))


def test_one_documents_bm25plus_equals_the_postings_scores() -> None:
    """`bm25plus` from a document's tokens and the corpus statistics gives what the postings
    give, an empty document (length 1 to bm25s) included."""
    docs = [text.split() for text in CORPUS] + [[]]
    index = LexicalIndex.build(docs)
    average = float(np.mean([len(d) or 1 for d in docs]))
    for query in (["commutative"], ["natural", "numbers", "successor"], ["ring", "prime", "zzz"]):
        want = index.scores(query)
        got = [bm25plus([(d.count(t), sum(t in e for e in docs)) for t in query], len(d), len(docs), average)
               for d in docs]
        np.testing.assert_allclose(got, want, rtol=1e-5)
        assert want.any()


def test_the_vocabulary_gives_each_term_its_number_saved_or_not(tmp_path) -> None:
    numbered = {"": 3, "nat.succ": 0, "loc\nmodule": 4, "∑": 1, "succ": 2}  # any string is a term
    built = Vocabulary.of(numbered)
    built.save(tmp_path)
    for vocabulary in (built, Vocabulary.load(tmp_path)):
        assert {term: vocabulary.get(term) for term in numbered} == numbered and len(vocabulary) == 5
        assert vocabulary.get("nat") is None and vocabulary.get("succ ") is None
