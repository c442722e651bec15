"""Session ids the server signs, and the bounded record of result lists it served."""

import os
import stat
from pathlib import Path

import pytest

from search.feedback.served import ServedResults, search_key
from search.feedback.sessions import SessionSigner


def test_issued_sessions_check_and_others_do_not(tmp_path: Path) -> None:
    signer = SessionSigner.beside(tmp_path / "votes.sqlite")
    issued = signer.issue()
    assert signer.valid(issued) and issued != signer.issue() and len(issued) == 45
    nonce, mac = issued.split(".")
    assert not signer.valid(f"{nonce}.{mac[:-1]}{'A' if mac[-1] != 'A' else 'B'}")  # one character changed
    assert not signer.valid(f"{'x' * 22}.{mac}") and not signer.valid("s-1") and not signer.valid(None)
    assert not SessionSigner(b"another secret, 16+ bytes").valid(issued)


def test_the_secret_is_kept_beside_the_database_readable_by_its_owner_only(tmp_path: Path) -> None:
    db = tmp_path / "votes.sqlite"
    issued = SessionSigner.beside(db).issue()
    secret = db.with_name("votes.sqlite.secret")
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600
    assert SessionSigner.beside(db).valid(issued)  # a restart keeps the sessions
    assert not SessionSigner.beside(db, secret="from FEEDBACK_SECRET").valid(issued)
    assert SessionSigner.beside(db, secret="from FEEDBACK_SECRET").valid(
        SessionSigner(b"from FEEDBACK_SECRET").issue())
    with pytest.raises(ValueError):
        SessionSigner(b"short")


def test_addresses_are_kept_as_keyed_hashes(tmp_path: Path) -> None:
    signer = SessionSigner(b"a secret of some length")
    assert signer.address_key("10.0.0.1") == signer.address_key("10.0.0.1") != signer.address_key("10.0.0.2")
    assert "10.0.0.1" not in signer.address_key("10.0.0.1")
    assert SessionSigner(b"another secret of length").address_key("10.0.0.1") != signer.address_key("10.0.0.1")


def test_served_lists_answer_ranks_for_the_same_search_only(tmp_path: Path) -> None:
    served = ServedResults(tmp_path / "served", max_age=60, max_lists=100)
    key = search_key("ring", {"source": ["stacks", "cring"]}, "default")
    assert key == search_key("ring", {"source": ["cring", "stacks"], "kind": []}, "default")
    served.record("s", key, [("stacks:0001", 1), ("cring:x", 2)], now=1000)
    assert served.rank("s", key, "cring:x", now=1010) == 2
    assert served.rank("s", key, "stacks:9999", now=1010) is None
    assert served.rank("t", key, "cring:x", now=1010) is None
    assert served.rank("s", search_key("ring", {}, "default"), "cring:x", now=1010) is None
    assert served.rank("s", key, "cring:x", now=1061) is None  # older than max_age
    served.record("s", key, [("cring:x", 1)], now=1100)  # the same search again: the new list
    assert served.rank("s", key, "cring:x", now=1101) == 1 and len(served) == 1


def test_the_record_of_served_lists_stays_bounded_by_count_and_age(tmp_path: Path) -> None:
    served = ServedResults(tmp_path / "served", max_age=1000, max_lists=50)
    for n in range(500):
        served.record(f"s{n}", "k", [("m:x", 1)], now=float(n))
        assert len(served) <= 55  # pruned every max_lists / 10 lists
    assert served.rank("s499", "k", "m:x", now=500) == 1 and served.rank("s0", "k", "m:x", now=500) is None
    served.prune(now=2000)  # everything is older than max_age
    assert len(served) == 0


def test_a_list_served_again_outlives_older_ones_when_the_record_is_pruned(tmp_path: Path) -> None:
    served = ServedResults(tmp_path / "served", max_age=1000, max_lists=3)
    for n in range(3):
        served.record(f"s{n}", "k", [("m:x", 1)], now=float(n))
    served.record("s0", "k", [("m:y", 1)], now=3.0)  # s0's search again: now the newest list
    served.record("s3", "k", [("m:x", 1)], now=4.0)
    served.prune(now=5.0)
    assert len(served) == 3 and served.rank("s1", "k", "m:x", now=5.0) is None
    assert served.rank("s0", "k", "m:y", now=5.0) == 1 and served.rank("s3", "k", "m:x", now=5.0) == 1
