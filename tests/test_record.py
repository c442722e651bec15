from pathlib import Path

from search.record import Statement, read_parquet, write_parquet


def test_parquet_round_trip_keeps_every_field(tmp_path: Path) -> None:
    original = Statement(
        id="stacks:056U", source="stacks", kind="lemma", name="056U", statement=r"$k$ is <b>",
        language="latex",
        doc="text", module="varieties", line=3, end_line=9, url="https://x", package="Varieties",
        group="stacks:056U", deps=["stacks:0001"], links=["mathlib:Foo"], aliases=["A"],
        attributes=["simp"], meta={"chapter": "Varieties", "tag": "056U", "number": 2},
    )
    write_parquet([original], tmp_path / "r.parquet")
    [loaded] = read_parquet(tmp_path / "r.parquet")
    assert loaded == original
    assert not loaded.formal
    assert Statement(id="mathlib:x", source="mathlib", kind="def", name="x", statement="").formal
