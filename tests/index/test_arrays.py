from pathlib import Path

import numpy as np

from search.index.arrays import load_array


def test_a_mapped_array_is_a_plain_ndarray_over_its_file(tmp_path: Path) -> None:
    np.save(tmp_path / "a.npy", np.arange(10, dtype=np.int32))
    mapped = load_array(tmp_path / "a.npy", mapped=True)
    assert type(mapped) is np.ndarray and type(mapped[2:5]) is np.ndarray
    assert isinstance(mapped.base, np.memmap) and not mapped.flags.writeable
    assert mapped[2:5].tolist() == [2, 3, 4]
    read = load_array(tmp_path / "a.npy", mapped=False)
    assert type(read) is np.ndarray and not isinstance(read.base, np.memmap) and read.tolist() == list(range(10))
