"""Where the evaluation writes by default, and where a run told `--out DIR` writes instead.

Reports go to eval/results/ and charts to figures/, the files the documentation shows. A run
given another `--out` writes everything it makes under that directory, so that a trial run never
touches the repository's committed results.
"""

from __future__ import annotations

from pathlib import Path

from search import config

RESULTS_DIR = config.REPO_DIR / "eval" / "results"
FIGURES_DIR = config.REPO_DIR / "figures"


def figures_dir(out: Path | str, figures: Path | str | None = None) -> Path:
    """`figures` when given; else figures/ for a run that writes to eval/results/, else `out`."""
    if figures:
        return Path(figures)
    return FIGURES_DIR if Path(out).resolve() == RESULTS_DIR.resolve() else Path(out)
