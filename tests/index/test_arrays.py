from pathlib import Path

import numpy as np

from search.index.arrays import load_array, load_arrays, save_arrays


def test_a_mapped_array_is_a_plain_ndarray_over_its_file(tmp_path: Path) -> None:
    np.save(tmp_path / "a.npy", np.arange(10, dtype=np.int32))
    mapped = load_array(tmp_path / "a.npy", mapped=True)
    assert type(mapped) is np.ndarray and type(mapped[2:5]) is np.ndarray
    assert isinstance(mapped.base, np.memmap) and not mapped.flags.writeable
    assert mapped[2:5].tolist() == [2, 3, 4]
    read = load_array(tmp_path / "a.npy", mapped=False)
    assert type(read) is np.ndarray and not isinstance(read.base, np.memmap) and read.tolist() == list(range(10))


def test_named_arrays_are_saved_one_file_each_and_read_back(tmp_path: Path) -> None:
    save_arrays(tmp_path / "part", {"codes": np.arange(3), "numbers": np.eye(2, dtype=np.int32)})
    assert sorted(p.name for p in (tmp_path / "part").iterdir()) == ["codes.npy", "numbers.npy"]
    loaded = load_arrays(tmp_path / "part", ("numbers", "codes"), mapped=True)
    assert list(loaded) == ["numbers", "codes"] and loaded["numbers"].tolist() == [[1, 0], [0, 1]]
