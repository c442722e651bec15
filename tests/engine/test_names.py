"""Name lookups agree with the brute-force loops they replace."""

import random

from rapidfuzz import fuzz, process

import numpy as np

import pyarrow as pa

from search.engine.names import NameTable, TitleTable, TypeNames, character_counts, spelled_names, title_key

NAMES = [
    "nat.succ_le_succ", "nat.succ_le", "succ_le_iff", "mul_comm", "nat.mul_comm", "a",
    "«term_∘_»", "set.mem_diff", "finset.sum_comm", "real.sin_le_one", "nat.succ_le_succ_iff",
]


def test_prefix_matches_whole_names_and_dotted_components() -> None:
    table = NameTable(NAMES)
    assert table.with_prefix("succ_le") == ["nat.succ_le", "nat.succ_le_succ", "nat.succ_le_succ_iff", "succ_le_iff"]
    assert table.with_prefix("nat.succ_le_succ") == ["nat.succ_le_succ", "nat.succ_le_succ_iff"]
    assert table.with_prefix("«term") == ["«term_∘_»"]
    assert table.with_prefix("le_succ") == []  # inside a component, not a prefix
    assert table.with_prefix("") == []


def test_substrings_must_all_occur() -> None:
    table = NameTable(NAMES)
    assert table.containing(["comm"]) == ["finset.sum_comm", "mul_comm", "nat.mul_comm"]
    assert table.containing(["succ", "iff"]) == ["nat.succ_le_succ_iff", "succ_le_iff"]
    assert table.containing(["∘"]) == ["«term_∘_»"]
    assert table.containing(["zzz"]) == []


def test_similar_names_equal_a_full_scan() -> None:
    rng = random.Random(0)
    alphabet = "abcdefghij._"
    names = ["".join(rng.choice(alphabet) for _ in range(rng.randint(2, 30))) for _ in range(3000)]
    table = NameTable(names)
    for _ in range(50):
        query = rng.choice(names)
        query = query[: rng.randint(1, len(query))] + rng.choice(alphabet)
        full = process.extract(query, sorted(set(names)), scorer=fuzz.ratio, score_cutoff=85, limit=None)
        assert set(table.similar(query, 85, 10_000)) == {name for name, _, _ in full}


def test_titles_match_as_a_full_scan_in_the_titles_order() -> None:
    """Titles are scored only within the lengths that can reach the cutoff; what comes back,
    and its order (best first, ties in the order the titles were given), is a full scan's."""
    rng = random.Random(1)
    words = ["lemma", "theorem", "prime", "ring", "ideal", "fermat", "little", "basis", "hilbert", "euler"]
    titles = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 5))) for _ in range(2000)]
    table = TitleTable(enumerate([[t] for t in titles]))
    for _ in range(60):
        query = rng.choice(titles)
        query = query[: rng.randint(1, len(query))] + rng.choice(["", "s", " ring"])
        full = process.extract(title_key(query), list(table.positions), scorer=fuzz.ratio, score_cutoff=80, limit=None)
        found: dict[int, float] = {}
        for title, score, _ in full[:20]:
            for position in table.positions[title]:
                found[position] = max(found.get(position, 0.0), float(score))
        assert table.match(query, 80) == sorted(found.items(), key=lambda item: -item[1])


def test_titles_with_any_characters_are_matched() -> None:
    odd = TitleTable([(0, ["Théorème ∘ des\ud800 idéaux"]), (1, ["prime ideal"])])
    assert odd.match("theoreme ∘ des\ud800 ideaux", 90) == [(0, 100.0)]
    assert odd.match("prime ideals\ud800", 80) == [(1, 100 * (1 - 1 / 23))]  # one insertion in 23 characters


def test_character_counts_bound_the_indel_distance() -> None:
    """The L1 distance between two strings' counts is at most their indel distance, whatever
    their characters (accents, symbols, a lone surrogate counted as `other`)."""
    from rapidfuzz.distance import Indel

    rng = random.Random(2)
    alphabet = "ab z9é∘\ud800"
    strings = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(400)]
    counts = character_counts(strings, np.array([len(s) for s in strings]))
    for _ in range(400):
        i, j = rng.randrange(len(strings)), rng.randrange(len(strings))
        assert np.abs(counts[i] - counts[j]).sum() <= Indel.distance(strings[i], strings[j])


def test_a_short_query_spells_names_run_together_or_joined_by_underscores() -> None:
    assert spelled_names("Lie algebra") == ["liealgebra", "lie_algebra"]
    assert spelled_names("prepartition") == []  # one word is the exact name's job
    assert spelled_names("a b c d e") == [] and spelled_names("x^2 = 1") == []


def test_types_are_found_by_their_own_name_without_the_namespace() -> None:
    names = pa.chunked_array([[
        "MeasureTheory.VectorMeasure", "MeasureTheory.VectorMeasure.restrict", "Finset.sum_comm",
        "Group", "BoxIntegral.Prepartition", "Foo.Prepartition", "SSet.Λ",
        "IsNoetherianRing", "MeasureTheory.IsSetSemiring", "isCompact_iff", "Island",
    ]])
    types = TypeNames(names)
    assert types.spelled("vector measure") == [0] and types.spelled("Vector Measure") == [0]
    assert types.spelled("prepartition") == [4, 5]
    assert types.spelled("sum comm") == []  # a lemma's name is not a type's
    assert types.spelled("group") == []  # not namespaced: the exact name finds it
    assert types.spelled("λ") == [6]
    assert types.spelled("vector measure space of functions") == [] and types.spelled("") == []
    assert types.spelled("Noetherian ring") == [7] and types.spelled("set semiring") == [8]
    assert types.spelled("compact iff") == [] and types.spelled("land") == []
