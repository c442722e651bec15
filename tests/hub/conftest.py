"""A fake Hugging Face Hub served on a local port (tests/hub/fake_hub.py), and the settings that
point huggingface_hub at it: `hub_env` for child processes (HF_ENDPOINT, a token, a cache of
their own), and the same values patched into huggingface_hub's constants for this process."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from tests.hub.fake_hub import FakeHub
from tests.live_server import live_server


@dataclass
class LocalHub:
    hub: FakeHub
    url: str
    env: dict[str, str]

    def api(self):  # noqa: ANN201 - huggingface_hub.HfApi, imported late
        from huggingface_hub import HfApi

        return HfApi(endpoint=self.url, token="hf_test_token")


@pytest.fixture
def local_hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalHub]:
    from huggingface_hub import constants

    hub = FakeHub()
    with live_server(hub.app) as url:
        env = {"HF_ENDPOINT": url, "HF_TOKEN": "hf_test_token", "HF_HUB_CACHE": str(tmp_path / "hf-cache"),
               "HF_HUB_DISABLE_TELEMETRY": "1", "HF_HUB_OFFLINE": "0", "HF_XET_CACHE": str(tmp_path / "xet")}
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setattr(constants, "ENDPOINT", url)
        monkeypatch.setattr(constants, "HUGGINGFACE_CO_URL_TEMPLATE", url + "/{repo_id}/resolve/{revision}/{filename}")
        monkeypatch.setattr(constants, "HF_HUB_CACHE", env["HF_HUB_CACHE"])
        monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
        yield LocalHub(hub, url, env)
