"""The README's front matter, read as the Hub reads a Space's configuration (huggingface_hub's
SpaceCard), agrees with the pins and files of this repository."""

from __future__ import annotations

import re
import tomllib

from search import config


def test_readme_front_matter_is_a_gradio_space_of_this_repository() -> None:
    from huggingface_hub import SpaceCard

    card = SpaceCard((config.REPO_DIR / "README.md").read_text(encoding="utf-8"))
    data = card.data.to_dict()
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", (config.REPO_DIR / "requirements.txt").read_text(), re.M))
    project = tomllib.loads((config.REPO_DIR / "pyproject.toml").read_text())["project"]
    assert data["sdk"] == "gradio" and data["sdk_version"] == pins["gradio"]
    assert (config.REPO_DIR / data["app_file"]).is_file() and data["app_file"] == "app.py"
    assert isinstance(data["python_version"], str)  # "3.11", not the YAML float 3.11 (which reads 3.1 for 3.10)
    assert tuple(map(int, data["python_version"].split("."))) >= tuple(
        map(int, project["requires-python"].removeprefix(">=").split(".")))
    assert data["license"] == project["license"].lower()
    assert data["title"] and data["emoji"]
    assert 0 < len(data["short_description"]) <= 60  # the Hub's limit
    # The landing page links the deployment steps, which name the index a Space serves.
    assert "(docs/deploying.md)" in card.text
    assert "INDEX_DIR=hf://datasets/" in (config.REPO_DIR / "docs" / "deploying.md").read_text(encoding="utf-8")
