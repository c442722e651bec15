import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

import search.record
from search.record import RecordTable, Statement, read_records, write_records


def test_records_round_trip_keeps_every_field(tmp_path: Path) -> None:
    original = Statement(
        id="stacks:056U", source="stacks", kind="lemma", name="056U", statement=r"$k$ is <b>",
        language="latex",
        doc="text", informal="what the file says of it", module="varieties", line=3, end_line=9, url="https://x", package="Varieties",
        group="stacks:056U", deps=["stacks:0001"], links=["mathlib:Foo"], aliases=["A"],
        attributes=["simp"], meta={"chapter": "Varieties", "tag": "056U", "number": 2},
    )
    write_records([original], tmp_path / "r.arrow")
    [loaded] = read_records(tmp_path / "r.arrow")
    assert loaded == original
    assert not loaded.formal
    assert Statement(id="mathlib:x", source="mathlib", kind="def", name="x", statement="", language="lean").formal


STATEMENTS = [
    Statement("mathlib:a", "mathlib", "theorem", "a", "a = a", "lean", deps=["mathlib:b"], meta={"namespace": ""}),
    Statement("mathlib:b", "mathlib", "def", "b", "def b", "lean", group="mathlib:a", meta={"namespace": "N"}),
    Statement("stacks:0001", "stacks", "lemma", "0001", "$x$", language="latex",
              meta={"chapter": "Schemes", "section": "Affine"}),
    Statement("stacks:0002", "stacks", "lemma", "0002", "$y$", language="latex", links=["mathlib:a"],
              meta={"chapter": "Schemes", "section": "Open"}),
    Statement("mathlib:c", "mathlib", "theorem", "c", "c", "lean", attributes=["simp"],
              meta={"namespace": "", "modifiers": ["protected"]}),
]


@pytest.fixture
def records(tmp_path: Path) -> RecordTable:
    write_records(STATEMENTS, tmp_path / "r.arrow")
    return read_records(tmp_path / "r.arrow")


def test_a_record_table_reads_as_the_sequence_of_its_statements(
    records: RecordTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search.record, "BATCH_ROWS", 2)
    assert len(records) == 5
    assert list(records) == STATEMENTS
    assert records[1] == STATEMENTS[1] and records[-1] == STATEMENTS[-1]
    assert records[1:4] == STATEMENTS[1:4] and records[::-2] == STATEMENTS[::-2]
    with pytest.raises(IndexError):
        records[5]
    assert records.take([4, 0, 4]) == [STATEMENTS[4], STATEMENTS[0], STATEMENTS[4]]
    assert records.take(np.array([2])) == [STATEMENTS[2]] and records.take([]) == []


def test_fields_of_every_record_or_some_without_statements(records: RecordTable) -> None:
    assert records.column("id") == [s.id for s in STATEMENTS]
    assert records.column("meta", [3, 0]) == [STATEMENTS[3].meta, STATEMENTS[0].meta]
    assert records.column("deps", np.array([0, 1])) == [["mathlib:b"], []]
    assert records.column("name", []) == []
    for name in ("kind", "meta"):
        values, codes = records.encode(name)
        assert len(values) == len({str(getattr(s, name)) for s in STATEMENTS})
        assert [values[c] for c in codes] == [getattr(s, name) for s in STATEMENTS]


def test_each_metadata_key_is_encoded_over_every_record(records: RecordTable) -> None:
    assert records.meta_keys == ["namespace", "chapter", "section", "modifiers"]
    for key in records.meta_keys:
        values, codes = records.encode_meta(key)
        assert [values[c] if c >= 0 else "absent" for c in codes] == [s.meta.get(key, "absent") for s in STATEMENTS]
        assert len(values) == len({json.dumps(s.meta[key]) for s in STATEMENTS if key in s.meta})
    assert records.encode_meta("year")[0] == [] and records.encode_meta("year")[1].tolist() == [-1] * 5


def test_a_table_in_several_chunks_is_read_as_one(tmp_path: Path) -> None:
    write_records(STATEMENTS, tmp_path / "r.arrow")
    table = read_records(tmp_path / "r.arrow").table
    records = RecordTable(pa.concat_tables([table.slice(0, 2), table.slice(2)]))
    assert all(column.num_chunks == 1 for column in records.table.columns)
    assert records.take([3, 1]) == [STATEMENTS[3], STATEMENTS[1]]


def test_records_are_mapped_from_their_file_not_decoded(tmp_path: Path) -> None:
    write_records(STATEMENTS * 100, tmp_path / "r.arrow")
    allocated = pa.total_allocated_bytes()
    records = read_records(tmp_path / "r.arrow")
    assert pa.total_allocated_bytes() == allocated
    assert all(column.num_chunks == 1 for column in records.table.columns)
    assert records[499] == STATEMENTS[4] and records.column("id")[:5] == [s.id for s in STATEMENTS]
