"""`python -m search query`: bad input is a one-line message and exit status 2, checked as the
APIs check it, never a traceback or a quiet odd answer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from search.__main__ import main
from tests.ui.fixture_index import ui_index


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(ui_index(tmp_path_factory))


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["   "], "the query is empty"),
        (["a\x00b"], "control character U+0000"),
        (["x" * 100_000], "the query has 100000 characters; at most 2000"),
        (["ring", "-k", "0"], "k must be a whole number from 1 to 100; got 0"),
        (["ring", "-k", "-5"], "got -5"),
        (["ring", "-k", "1000000"], "got 1000000"),
        (["ring", "--source", "stack"], "no record has source = 'stack' (did you mean: stacks"),
        (["ring", "--kind", "theorm"], "no record has kind = 'theorm'"),
        (["ring", "--variant", "best"], "unknown ranking variant 'best'"),
    ],
)
def test_bad_queries_are_a_message_and_status_2(index_dir: str, arguments: list[str], message: str, capsys) -> None:
    assert main(["query", *arguments, "--index", index_dir]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error: ") and message in captured.err and captured.out == ""


def test_odd_but_valid_queries_are_answered(index_dir: str, capsys) -> None:
    for text in ("$\\frac{1}{", "theorem foo : ∀ x : ℕ, (x + ⟨", "<script>alert(1)</script>"):
        assert main(["query", text, "--index", index_dir, "-k", "2", "--json"]) == 0
        assert capsys.readouterr().out.startswith("[")


def test_argument_bytes_that_are_not_utf8_are_refused(index_dir: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "search", "query", b"ring\xff", "--index", index_dir],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1], timeout=300,
    )
    assert done.returncode == 2 and "error: the query contains U+DCFF" in done.stderr
    assert "Traceback" not in done.stderr
