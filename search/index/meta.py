"""The records' metadata as numbers (search/record.py `MetaColumns`), kept in the index so that
a server reads them instead of parsing every distinct `meta` object as it starts."""

from __future__ import annotations

from pathlib import Path

import orjson

from search.index.arrays import load_arrays, save_arrays
from search.record import MetaColumns

#: The index part: each record's number among the distinct `meta` objects (`codes.npy`), each
#: key's number of its value in each of them (`numbers.npy`, one row per key), and each key's
#: distinct values (JSON).
DIRECTORY = "meta"
VALUES = "values.json"


def save_meta(columns: MetaColumns, directory: Path) -> None:
    save_arrays(directory, {"codes": columns.codes, "numbers": columns.numbers})
    (directory / VALUES).write_bytes(orjson.dumps(columns.values))


def load_meta(directory: Path) -> MetaColumns:
    """What `save_meta` wrote; JSON keeps what the values are (1, 1.0, True and "1" apart)."""
    arrays = load_arrays(directory, ("codes", "numbers"))
    return MetaColumns(arrays["codes"], orjson.loads((directory / VALUES).read_bytes()), arrays["numbers"])
