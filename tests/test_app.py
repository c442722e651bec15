"""The first app: result cards escape untrusted corpus text; the Blocks app assembles."""

from search.engine.engine import Result
from search.record import Statement

import app


def test_cards_render_corpus_text_as_text() -> None:
    hostile = Statement(
        id="stacks:0000", source="stacks", kind="lemma", name="<img src=x onerror=alert(1)>",
        statement="<script>alert(1)</script>", language="latex", doc="a < b & c",
        url='https://x/"><script>',
    )
    page = app.render([Result(hostile, 1.0, 1)])
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "a &lt; b &amp; c" in page
    assert app.render([]) == "<p>No results.</p>"


def test_missing_index_is_a_message_not_a_traceback(tmp_path, capsys) -> None:
    assert app.main(["--index", str(tmp_path / "none")]) == 2
    assert "python -m search build" in capsys.readouterr().err
