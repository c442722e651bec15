"""The server start's heap handling (search/api/startup.py)."""

import gc
import weakref

from search.api.startup import long_lived


class Node:
    def __init__(self) -> None:
        self.other: "Node | None" = None


def _cycle() -> weakref.ref:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_long_lived_makes_the_block_without_collections_and_freezes_it() -> None:
    gc.enable()
    frozen = gc.get_freeze_count()
    collections = gc.get_stats()[0]["collections"]
    try:
        with long_lived():
            assert not gc.isenabled()
            kept = [Node() for _ in range(50_000)]  # enough to trigger collections if enabled
        assert gc.isenabled()
        assert gc.get_stats()[0]["collections"] == collections
        assert gc.get_freeze_count() >= frozen + len(kept)
    finally:
        gc.unfreeze()


def test_long_lived_dropping_collects_the_garbage_before_freezing() -> None:
    try:
        with long_lived(dropping=True):
            garbage = _cycle()
        assert garbage() is None
        with long_lived():
            frozen_garbage = _cycle()
        assert frozen_garbage() is not None  # frozen, as the module's doc says
    finally:
        gc.unfreeze()
        gc.collect()


def test_long_lived_restores_a_disabled_collector() -> None:
    gc.disable()
    try:
        with long_lived():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()
