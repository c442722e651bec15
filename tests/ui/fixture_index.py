"""A small index for the app's tests: Mathlib and Stacks-like fixtures, hostile records
(Lean declarations and a LaTeX theorem whose text, name and link hold script, HTML, Markdown
`javascript:` links and math that Gradio would typeset), and a book whose math holds what
KaTeX cannot take as written (`\\label`, `\\xymatrix`, an author's macro), and a Lean
declaration whose docstring links to the Stacks Project in Markdown.

Built once per test session (a few seconds) and shared by tests/ui and tests/browser.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from search.index.build import BuildOptions, build_index

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
#: Ids of the hostile records.
HOSTILE_LEAN = "evil:Evil.xss_probe"
#: A declaration whose *name* (and upstream URL) is hostile.
HOSTILE_NAME = (
    'evil:Evil.«<img src=x onerror="window.__xss = 11">[named](javascript:window.__xss=12) '
    '$\\href{javascript:window.__xss=13}{n}$ **bold**»'
)
HOSTILE_LATEX = "hostile:thm:probe"


def ui_index(factory: pytest.TempPathFactory) -> Path:
    """The index directory, built on first use in this session."""
    out = factory.getbasetemp() / "ui-index"
    if not (out / "manifest.json").is_file():
        sources = [
            f"mathlib={FIXTURES / 'jsonl' / 'mathlib_small.jsonl'}",
            f"stacks={FIXTURES / 'latex' / 'stackslike'}",
            f"evil={FIXTURES / 'ui' / 'hostile.jsonl'}",
            f"hostile={FIXTURES / 'ui' / 'hostile_tex'}",
            f"books={FIXTURES / 'ui' / 'books'}",
            f"links={FIXTURES / 'ui' / 'links.jsonl'}",
        ]
        build_index(out, BuildOptions(sources=sources, views=("name", "text"), progress=False))
    return out
