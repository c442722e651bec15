"""Arrays of an index directory, each in its own `.npy` file named after it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

from search import config


def load_array(path: Path, mapped: bool | None = None) -> np.ndarray:
    """The array saved at `path`, mapped from its file when `mapped` (read in otherwise;
    `config.INDEX_MMAP` when not given).

    A mapped array is returned as a plain ndarray over the mapping, not as `np.memmap`: every
    slice or view of a memmap runs its Python `__array_finalize__`, which a query slicing the
    postings of each of its terms paid for each (3.6% of a search's samples under 16 clients,
    py-spy)."""
    array = np.load(path, mmap_mode="r" if (config.INDEX_MMAP if mapped is None else mapped) else None)
    return np.asarray(array)


def save_arrays(directory: Path, arrays: Mapping[str, np.ndarray]) -> None:
    """Each array as `directory/NAME.npy`, for `load_arrays`."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, array in arrays.items():
        np.save(directory / f"{name}.npy", array)


def load_arrays(directory: Path, names: Iterable[str], mapped: bool | None = None) -> dict[str, np.ndarray]:
    """The arrays `save_arrays` wrote under these names (`load_array` each)."""
    return {name: load_array(directory / f"{name}.npy", mapped) for name in names}
