"""The README is a landing page and the documentation site holds the rest: the README stays short,
every figure it shows is on the page it links to, its links resolve, and `mkdocs build --strict`
(which checks every link and anchor of `docs/`) passes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from markdown.extensions.toc import slugify

from search import config

README = config.REPO_DIR / "README.md"
DOCS = config.REPO_DIR / "docs"
#: A measured figure as the README writes one: a decimal, a number with thousands separators,
#: or a duration.
FIGURE = re.compile(r"\d+ min \d+ s|\d[\d,]*\.\d+|\d{1,3}(?:,\d{3})+")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _body() -> str:
    """The README after the Space's front matter."""
    text = README.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return text.split("\n---\n", 1)[1]


def _blocks(text: str) -> list[str]:
    """Paragraphs and table rows outside code fences: the unit a figure and its link share."""
    blocks, current, fenced = [], [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.startswith("|"):
            blocks.append(line)
        elif line.strip():
            current.append(line)
            continue
        if current:
            blocks.append(" ".join(current))
            current = []
    return blocks + ([" ".join(current)] if current else [])


def _anchors(page: Path) -> set[str]:
    return {slugify(re.sub(r"[`*]", "", heading), "-")
            for heading in re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M)}


def test_the_readme_is_at_most_200_lines_after_its_front_matter() -> None:
    assert len(_body().strip("\n").split("\n")) <= 200


def test_every_figure_in_the_readme_is_on_the_page_it_links_to() -> None:
    checked = 0
    for block in _blocks(_body()):
        figures = FIGURE.findall(re.sub(r"`[^`]*`|<[^>]*>|\]\([^)]*\)", "", block))  # not in code or addresses
        if not figures:
            continue
        pages = [config.REPO_DIR / target.split("#")[0] for target in LINK.findall(block)
                 if target.startswith("docs/")]
        assert pages, f"figures {figures} with no link to the page holding them: {block[:120]}"
        text = "".join(page.read_text(encoding="utf-8") for page in pages)
        assert [f for f in figures if f not in text] == [], f"not on {[p.name for p in pages]}: {block[:120]}"
        checked += len(figures)
    assert checked >= 10


def test_the_readme_links_resolve_to_files_and_headings() -> None:
    targets = [t for t in LINK.findall(_body()) if not t.startswith(("http://", "https://"))]
    assert any(t.startswith("docs/") for t in targets) and any(t.startswith("figures/") for t in targets)
    for target in targets:
        path, _, anchor = target.partition("#")
        assert (config.REPO_DIR / path).is_file(), target
        if anchor:
            assert anchor in _anchors(config.REPO_DIR / path), target


def test_every_docs_page_is_in_the_site_navigation() -> None:
    nav = (config.REPO_DIR / "mkdocs.yml").read_text(encoding="utf-8")
    assert sorted(p.name for p in DOCS.glob("*.md")) == sorted(re.findall(r":\s+(\S+\.md)$", nav, re.M))


def test_the_documentation_site_builds_strictly(tmp_path: Path) -> None:
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=config.REPO_DIR, capture_output=True, text=True, timeout=300,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    assert build.returncode == 0, build.stderr
    assert (tmp_path / "site" / "ranking" / "index.html").is_file()


def test_the_figures_page_lists_every_condition_with_the_page_that_shows_it() -> None:
    from eval.check import CONDITIONS, load_conditions, pages_by_condition

    listing = (DOCS / "figures.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z0-9.-]+)` \| .* \| \[[^\]]+\]\(([^)]+)\) \|$", listing, re.M))
    where = pages_by_condition()
    expected = {c.name: str(where[c.name].relative_to(DOCS)) for c in load_conditions(CONDITIONS)}
    assert rows == expected, "docs/figures.md, 'Every condition and the page that shows it', is not up to date"


def test_every_route_of_the_readme_interfaces_is_served(small_index: Path, tmp_path: Path) -> None:
    """The interfaces table names routes the server has (its OpenAPI description, MCP, the page)."""
    from search.api.http import make_api
    from search.engine.engine import Engine
    from search.feedback.store import FeedbackStore
    from search.index.store import Index

    api = make_api(Engine(Index.load(small_index)), FeedbackStore(tmp_path / "votes.sqlite"), rate_limit=0)
    served = {*api.openapi()["paths"], "/mcp", "/"}
    section = _body().split("## Interfaces", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^\| [^|]+ \| `(?:GET`/`POST |POST |GET )?(/[^`? ]*)", section, re.M))
    assert {"/search", "/json", "/api/search", "/leanfinder", "/hammer/retrieve", "/leanexplore/api/v2/search"} <= named
    assert named - served == set()
