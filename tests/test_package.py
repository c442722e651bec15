"""`pip install .` gives the `theorem-search` command (the same CLI as `python -m search`), and
`search` exposes its public API."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import search
from search import config


def test_public_api_is_importable_from_the_package() -> None:
    from search.engine.engine import Engine
    from search.index.build import build_index
    from search.index.store import Index

    assert (search.Engine, search.Index, search.build_index) == (Engine, Index, build_index)
    assert {"Engine", "Index", "build_index", "BuildOptions", "Ranking", "Statement"} <= set(search.__all__)


def test_pip_install_gives_the_theorem_search_command(tmp_path: Path) -> None:
    source, target = tmp_path / "source", tmp_path / "site"
    # A copy of what a distribution is made of: setuptools writes build files beside it.
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "requirements.txt"):
        shutil.copy(config.REPO_DIR / name, source / name)
    shutil.copytree(config.REPO_DIR / "search", source / "search", ignore=shutil.ignore_patterns("__pycache__"))
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(source)],
        capture_output=True, text=True, timeout=300,
    )
    assert install.returncode == 0, install.stderr
    command = target / "bin" / "theorem-search"
    assert command.is_file()
    assert (target / "search" / "engine" / "variants.py").is_file() and not (target / "tests").exists()
    run = subprocess.run([sys.executable, str(command), "query", "--help"], capture_output=True, text=True,
                         env={"PYTHONPATH": str(target)}, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("usage: theorem-search query"), run.stderr
