"""The records' metadata as numbers, kept in the index (search/index/meta.py)."""

from pathlib import Path

from search.index.meta import load_meta, save_meta
from search.record import Statement, read_records, write_records

STATEMENTS = [
    Statement("a:1", "a", "lemma", "1", "x", "latex", meta={"number": "1", "chapter": "Schemes"}),
    Statement("a:2", "a", "lemma", "2", "y", "latex", meta={"number": 1, "flag": True, "tags": ["p", "q"]}),
    Statement("a:3", "a", "lemma", "3", "z", "latex", meta={"number": 1.0, "flag": 1, "chapter": "Schemes"}),
    Statement("a:4", "a", "lemma", "4", "w", "latex"),
]


def test_the_kept_numbers_encode_every_key_as_the_records_do(tmp_path: Path) -> None:
    write_records(STATEMENTS, tmp_path / "r.arrow")
    made = read_records(tmp_path / "r.arrow")
    save_meta(made.meta_columns, tmp_path / "meta")
    kept = read_records(tmp_path / "r.arrow", load_meta(tmp_path / "meta"))
    assert kept.meta_keys == made.meta_keys == ["chapter", "number", "flag", "tags"]  # each meta's keys sorted
    for key in [*made.meta_keys, "absent"]:
        values, codes = kept.encode_meta(key)
        assert (values, codes.tolist()) == (made.encode_meta(key)[0], made.encode_meta(key)[1].tolist())
        assert [values[c] if c >= 0 else None for c in codes] == [s.meta.get(key) for s in STATEMENTS]
    # JSON keeps apart what the records keep apart: "1", 1 and 1.0; True and 1.
    assert [type(v) for v in kept.encode_meta("number")[0]] == [str, int, float]
    assert [type(v) for v in kept.encode_meta("flag")[0]] == [bool, int]


def test_no_records_have_no_metadata_keys(tmp_path: Path) -> None:
    write_records([], tmp_path / "r.arrow")
    save_meta(read_records(tmp_path / "r.arrow").meta_columns, tmp_path / "meta")
    empty = read_records(tmp_path / "r.arrow", load_meta(tmp_path / "meta"))
    assert empty.meta_keys == [] and empty.encode_meta("number")[1].tolist() == []
