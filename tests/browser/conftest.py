"""The app served over the small UI index, and Debian's Chromium driven by Playwright."""

from pathlib import Path
from typing import Iterator

import pytest

from tests.live_server import live_server
from tests.ui.fixture_index import ui_index

CHROMIUM = Path("/usr/bin/chromium")
TIMEOUT = 60_000  # ms: generous, the machine running the tests may be busy


@pytest.fixture(scope="session")
def ui_index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ui_index(tmp_path_factory)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives the app in Chromium (skipped when /usr/bin/chromium is absent)")


@pytest.fixture(scope="module")
def server(ui_index_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The real app (`app.make_app`) served by uvicorn on a free port, in a thread."""
    import app

    db = tmp_path_factory.mktemp("feedback") / "votes.sqlite"
    with live_server(app.make_app(str(ui_index_dir), db)) as url:
        yield url + "/", db


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser, server):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.dialogs = []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    yield page
    context.close()
