"""`NamePositions`: lowercased names to the positions of the records so named, as a dict of
lists would give them, for names held once and names held several times."""

from __future__ import annotations

import pytest

from search.index.store import NamePositions


def test_names_map_to_their_positions_in_order_case_folded() -> None:
    names = ["Nat.add_comm", "LieAlgebra", "nat.add_comm", "Foo", "NAT.ADD_COMM", "foo"]
    table = NamePositions([name.lower() for name in names])  # as Index.by_name folds them
    assert table["nat.add_comm"] == [0, 2, 4]
    assert table["foo"] == [3, 5]
    assert table["liealgebra"] == [1]
    assert list(table) == ["nat.add_comm", "liealgebra", "foo"] and len(table) == 3
    assert "liealgebra" in table and "LieAlgebra" not in table
    assert table.get("missing", []) == [] and dict(table) == {
        "nat.add_comm": [0, 2, 4], "liealgebra": [1], "foo": [3, 5]}


def test_a_returned_list_is_the_callers_own() -> None:
    table = NamePositions(["a", "a"])
    table["a"].append(99)
    assert table["a"] == [0, 1]
    with pytest.raises(KeyError):
        table["b"]


def test_names_with_their_own_positions_keep_them() -> None:
    """As Loogle's exact-name table gives them: the Lean records' names at their positions."""
    table = NamePositions(["Nat.succ", "Nat.succ", "Real.pi"], [4, 9, 12])
    assert table["Nat.succ"] == [4, 9] and table["Real.pi"] == [12] and "nat.succ" not in table
