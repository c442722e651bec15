"""The records' metadata as numbers (search/record.py `MetaColumns`), kept in the index so that
a server reads them instead of parsing every distinct `meta` object as it starts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import orjson

from search.index.arrays import load_array
from search.record import MetaColumns

#: The index part: each record's number among the distinct `meta` objects, each key's number
#: of its value in each of them (one row per key), and each key's distinct values (JSON).
DIRECTORY = "meta"
CODES, NUMBERS, VALUES = "codes.npy", "numbers.npy", "values.json"


def save_meta(columns: MetaColumns, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    np.save(directory / CODES, columns.codes)
    np.save(directory / NUMBERS, columns.numbers)
    (directory / VALUES).write_bytes(orjson.dumps(columns.values))


def load_meta(directory: Path) -> MetaColumns:
    """What `save_meta` wrote; JSON keeps what the values are (1, 1.0, True and "1" apart)."""
    return MetaColumns(load_array(directory / CODES), orjson.loads((directory / VALUES).read_bytes()),
                       load_array(directory / NUMBERS))
