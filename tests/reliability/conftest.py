from pathlib import Path
from typing import Iterator

import pytest

from tests.live_server import AppProcess, ONE_ADDRESS, app_process
from tests.ui.fixture_index import ui_index


@pytest.fixture(scope="package")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    """`python app.py` over the small UI index, shared by the load and raw-HTTP tests; without a
    rate limit, since fifty loopback clients are one address (test_guard.py tests the limit)."""
    work: Path = tmp_path_factory.mktemp("app")
    with app_process(ui_index(tmp_path_factory), work / "votes.sqlite", work / "app.log",
                     ONE_ADDRESS) as running:
        yield running
