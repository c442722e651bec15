"""`app.py`: where the index comes from (a directory or a Hugging Face repository), a clear
message when it is missing, and one server for the APIs and the page."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import app
from search import config
from search.api.indexes import DEFAULT_NAME
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


def _search_event(base: str, data: list) -> dict:  # type: ignore[type-arg]
    """Send the page's search event as its JavaScript does (queue/join, then the event stream)
    and return the completion message."""
    import httpx

    config = httpx.get(f"{base}/config").json()
    event = next(d for d in config["dependencies"] if d.get("backend_fn") and len(d["inputs"]) == len(data))
    session = f"test-{abs(hash(str(data))) % 10**8}"
    joined = httpx.post(f"{base}/gradio_api/queue/join",
                        json={"data": data, "fn_index": event["id"], "session_hash": session})
    assert joined.status_code == 200, joined.text
    with httpx.stream("GET", f"{base}/gradio_api/queue/data", params={"session_hash": session}, timeout=60) as stream:
        for line in stream.iter_lines():
            if line.startswith("data:") and json.loads(line[5:]).get("msg") == "process_completed":
                return json.loads(line[5:])
    raise AssertionError("the event never completed")


def test_the_query_box_event_answers_bad_input_with_a_message(ui_index_dir: Path, tmp_path: Path) -> None:
    """What the page's search event does with input its widgets would never send: a status line
    (from the page) or Gradio's own one-line error, never a traceback."""
    from tests.live_server import live_server

    with live_server(app.make_app(str(ui_index_dir), tmp_path / "f.sqlite")) as base:
        filters = [[]] * 5  # source and the four facet dropdowns
        for query, expected in (
            ("x" * 100_000, "the query has 100000 characters"),
            ("a\x00b", "the query contains the control character"),
            ("  ", "Type a query"),
        ):
            done = _search_event(base, [None, query, DEFAULT_NAME, *filters, 10, "default"])
            assert done["success"] and expected in done["output"]["data"][1], done
        for data in ([None, "ring", DEFAULT_NAME, *filters, "many", "default"],
                     [None, 5, DEFAULT_NAME, [5], *filters[1:], 10, "default"]):
            done = _search_event(base, data)
            assert not done["success"] and done["output"]["error"] and "Traceback" not in json.dumps(done)


def test_the_page_configuration_carries_no_filter_values_but_the_sources(ui_index_dir: Path, tmp_path: Path) -> None:
    """Each page load sends the configuration (in `/` and at `/config`): the lists of filter
    values come when a list is opened, for the sources chosen then."""
    from fastapi.testclient import TestClient

    with TestClient(app.make_app(str(ui_index_dir), tmp_path / "f.sqlite")) as client:
        config = client.get("/config").json()
        lists = {c["props"].get("elem_id"): c["props"] for c in config["components"] if c["type"] == "dropdown"}
        assert lists["filter-source"]["choices"]  # a handful of sources, needed to narrow the rest
        assert lists["index"]["visible"] is False  # one index: nothing to choose
        others = {key: props["choices"] for key, props in lists.items() if key not in ("filter-source", "index")}
        assert set(others) >= {"filter-kind", "filter-section"} and all(c == [] for c in others.values()), others
        assert "Tensor products" not in client.get("/").text  # a section of the fixture book


def test_a_server_with_several_indexes_offers_them_on_the_page(ui_index_dir: Path, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    with TestClient(app.make_app([f"v1={ui_index_dir}", f"v2={ui_index_dir}"], tmp_path / "f.sqlite")) as client:
        config = client.get("/config").json()
        (index,) = (c["props"] for c in config["components"] if c["props"].get("elem_id") == "index")
        assert index["visible"] is True and [c[1] for c in index["choices"]] == ["v1", "v2"] and index["value"] == "v1"


def test_the_footer_links_the_documentation_a_space_serves() -> None:
    """On a Space (SPACE_ID set) the page's footer links the Space's own docs/; DOCS_URL overrides."""
    from search.ui.blocks import api_links

    assert "[documentation](https://example.org/docs)" in api_links("https://example.org/docs")
    assert "`docs/` in the repository" in api_links(None) and "(./docs)" in api_links(None)
    read = "from search import config; print(config.DOCS_URL)"
    for env, expected in (({"SPACE_ID": "me/ts"}, "https://huggingface.co/spaces/me/ts/blob/main/docs/index.md"),
                          ({"SPACE_ID": "me/ts", "DOCS_URL": "https://x.org/"}, "https://x.org/"), ({}, "None")):
        clean = {k: v for k, v in os.environ.items() if k not in ("SPACE_ID", "DOCS_URL")}
        out = subprocess.run([sys.executable, "-c", read], env={**clean, **env}, cwd=config.REPO_DIR,
                             capture_output=True, text=True, check=True).stdout.strip()
        assert out == expected
