from pathlib import Path

import pytest

from tests.ui.fixture_index import ui_index


@pytest.fixture(scope="session")
def ui_index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ui_index(tmp_path_factory)
