"""`app.py`: where the index comes from (a directory or a Hugging Face repository), a clear
message when it is missing, and one server for the APIs and the page."""

from pathlib import Path

import pytest

import app
from search.index.manifest import IndexLoadError


def test_missing_index_is_a_message_not_a_traceback(tmp_path: Path, capsys) -> None:
    assert app.main(["--index", str(tmp_path / "none"), "--feedback-db", str(tmp_path / "f.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no index at") and "python -m search build --out" in err


def test_hub_index_is_fetched_by_snapshot_download(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls = []

    def snapshot_download(repo_id: str, repo_type: str, revision: str | None) -> str:
        calls.append((repo_id, repo_type, revision))
        return str(tmp_path)

    monkeypatch.setattr("huggingface_hub.snapshot_download", snapshot_download)
    assert app.locate_index("hf://datasets/owner/theorem-index@v1") == tmp_path
    assert app.locate_index("hf://owner/theorem-index") == tmp_path
    assert app.locate_index("hf://spaces/owner/demo/") == tmp_path
    assert calls == [("owner/theorem-index", "dataset", "v1"), ("owner/theorem-index", "model", None),
                     ("owner/demo", "space", None)]
    assert app.locate_index("some/dir") == Path("some/dir")
    for bad in ("hf://owner", "hf://buckets/owner/name", "hf://a/b/c/d", "hf://datasets//name"):
        with pytest.raises(IndexLoadError, match="expected hf://"):
            app.locate_index(bad)


def test_hub_failure_is_a_message(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys) -> None:
    from huggingface_hub.errors import LocalEntryNotFoundError

    def offline(*args, **kwargs):  # what the hub client raises offline with nothing cached
        raise LocalEntryNotFoundError("cannot reach the Hub and no cached snapshot")

    monkeypatch.setattr("huggingface_hub.snapshot_download", offline)
    assert app.main(["--index", "hf://datasets/owner/index", "--feedback-db", str(tmp_path / "f.sqlite")]) == 2
    assert "could not be fetched from the Hugging Face Hub (cannot reach the Hub" in capsys.readouterr().err


def test_one_server_answers_the_apis_and_the_page(ui_index_dir: Path, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    with TestClient(app.make_app(str(ui_index_dir), tmp_path / "f.sqlite")) as client:
        page = client.get("/")
        assert page.status_code == 200 and "Theorem search" in page.text
        loogle = client.get("/json", params={"q": "mul_comm"})
        assert loogle.status_code == 200 and loogle.json()["hits"][0]["name"] == "mul_comm"
