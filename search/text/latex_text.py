"""LaTeX statements as plain text.

Corpus LaTeX is untrusted and often unbalanced (a body cut out of a larger file), so the
conversion never raises: on a parser failure it falls back to the raw text.
"""

from __future__ import annotations

import logging

from pylatexenc.latex2text import LatexNodes2Text


_CONVERTER = LatexNodes2Text(math_mode="text", strict_latex_spaces=True)
logging.getLogger("pylatexenc").setLevel(logging.ERROR)


def latex_to_text(latex: str) -> str:
    """Readable Unicode text (`\\mathbb{R}` -> ℝ, `\\leq` -> ≤); raw text if parsing fails."""
    try:
        return " ".join(_CONVERTER.latex_to_text(latex).split())
    except Exception:  # pylatexenc raises assorted errors on malformed input
        return " ".join(latex.split())

