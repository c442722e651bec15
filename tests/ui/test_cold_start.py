"""`python -m search.ui.cold_start`: a real app started over a small index, its first answer,
peak memory and page sizes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from search.ui import cold_start


@pytest.mark.skipif(not shutil.which(cold_start.TIME), reason=f"{cold_start.TIME} is not installed")
def test_cold_start_measures_the_first_answer_memory_and_page(ui_index_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "cold.json"
    assert cold_start.main(["--index", str(ui_index_dir), "--runs", "1", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    median = figures["median"]
    assert len(figures["runs"]) == 1 and median["first_answer_s"] > 0 and median["peak_rss_gb"] > 0.05
    # The page inlines its configuration, so it is larger than /config alone.
    assert median["page_bytes"] > median["config_bytes"] > 1000
