"""The pattern index: statements as flat trees, names resolved as Lean would, postings."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from search.index.patterns import APP, PI, PatternIndex, Resolver, statement_term, terms
from search.record import Statement


def lean(name: str, statement: str, namespace: str = "", deps: tuple[str, ...] = (),
         opens: tuple[str, ...] = ()) -> Statement:
    meta = {"namespace": namespace, **({"opens": list(opens)} if opens else {})}
    return Statement(id=f"m:{name}", source="m", kind="theorem", name=name, statement=statement,
                     language="lean", deps=[f"m:{d}" for d in deps], meta=meta)


STATEMENTS = [
    lean("Real.exp", "def exp (x : ℝ) : ℝ", "Real"),
    lean("Real.exp_pos", "theorem exp_pos (x : ℝ) : 0 < exp x", "Real"),
    lean("Real.add_pow_le_pow_mul_pow_of_sq_le_sq", "theorem foo : √x * √x = x ^ 2", "Real"),
    Statement(id="book:lemma-1", source="book", kind="lemma", name="Lemma 1", statement="$x$", language="latex"),
    lean("List.map_id'", "theorem map_id' (l : List α) : map id l = l", "List"),
    lean("List.length_map", "theorem length_map (l : List α) : (List.map f l).length = l.length", "List"),
    lean("inj_comp", "theorem inj_comp (h : Injective f) : Injective (f ∘ f)", opens=("Function",)),
    lean("Function.Injective", "def Injective (f : α → β) : Prop", "Function"),
    lean("card_le", "theorem card_le : card s ≤ 1", deps=("Finset.card",)),
    lean("Finset.card", "def card (s : Finset α) : ℕ", "Finset"),
]


def built() -> PatternIndex:
    return PatternIndex.build(STATEMENTS)


def test_names_are_resolved_as_lean_would() -> None:
    index = built()
    trees = dict(zip((s.name for s in STATEMENTS), terms(index, range(len(STATEMENTS)))))
    assert "('c', 'Real.exp')" in str(trees["Real.exp_pos"])  # the namespace
    assert "('c', 'List.map')" in str(trees["List.map_id'"])  # written in full elsewhere: known
    assert "('c', 'Function.Injective')" in str(trees["inj_comp"])  # an opened namespace
    assert "('c', 'Finset.card')" in str(trees["card_le"])  # the corpus's own resolution (deps)
    assert trees["Lemma 1"] is None
    resolver = Resolver(frozenset({"Real.exp"}))
    assert resolver.resolve("HMul.hMul", "Real.foo", frozenset()) == "HMul.hMul"  # notation: absolute
    assert resolver.resolve("_root_.exp", "Real.foo", frozenset()) == "exp"


def test_a_category_with_a_fresh_universe_is_an_instance_of_category() -> None:
    """`[Category* C]` is `[Category.{v} C]`, not a product `Category * C`."""
    term = statement_term("theorem foo {C : Type*} [Category* C] (X : C) : X = X")
    assert term[2][1] == ("a", ("c", "Category"), ("l", "C"))


def test_flat_trees_postings_and_occurrences_agree(tmp_path: Path) -> None:
    index = built()
    index.save(tmp_path / "patterns")
    loaded = PatternIndex.load(tmp_path / "patterns")
    assert terms(loaded, range(len(STATEMENTS))) == terms(index, range(len(STATEMENTS)))
    for position in range(len(STATEMENTS)):
        start, stop = loaded.offsets[position], loaded.offsets[position + 1]
        if start < stop:
            assert loaded.ends[start] == stop  # the root spans the statement
    binary = np.flatnonzero((loaded.nodes == APP) | (loaded.nodes == PI))
    assert np.all(loaded.ends[binary] == loaded.ends[loaded.ends[binary + 1]])
    sqrt = loaded.mentioning("c:Real.sqrt").tolist()
    assert sqrt == [2]
    assert set(loaded.mentioning("c:HMul.hMul").tolist()) == {2}
    occurrences = loaded.occurring(loaded.code["c:Real.sqrt"])
    assert len(occurrences) == 2 and np.all(loaded.nodes[occurrences] == loaded.code["c:Real.sqrt"])
    # Real.exp_pos mentions LT.lt, OfNat.ofNat, Real.exp and Real (the binder's type).
    assert loaded.constants[1] == 4
    assert loaded.sizes(np.array([3])).tolist() == [0]
