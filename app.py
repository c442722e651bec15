"""The Gradio app over a prebuilt index: `python app.py [--index DIR]`.

A first version: query box, filters (source, kind, number of results) and result cards that
link upstream. The index directory comes from `--index`, else `INDEX_DIR`, else `./index`.
Corpus text is untrusted, so every field is HTML-escaped before it reaches the page.
"""

from __future__ import annotations

import argparse
import html
import sys
from pathlib import Path

from search import config
from search.engine.engine import Engine, Result
from search.index.manifest import IndexLoadError
from search.index.store import Index


def render(results: list[Result]) -> str:
    """Result cards as HTML; every corpus string is escaped."""
    if not results:
        return "<p>No results.</p>"
    cards = []
    for r in results:
        s = r.statement
        link = f'<a href="{html.escape(s.url, quote=True)}" target="_blank" rel="noopener">source</a>' if s.url else ""
        doc = f"<p>{html.escape(s.doc[:600])}</p>" if s.doc else ""
        cards.append(
            f"<div class='card'><b>{r.rank}. {html.escape(s.name)}</b> "
            f"<i>{html.escape(s.kind)} · {html.escape(s.source)}</i> · score {r.score:.4f} {link}"
            f"<pre>{html.escape(s.statement[:1500])}</pre>{doc}</div>"
        )
    return "\n".join(cards)


def make_app(engine: Engine):  # type: ignore[no-untyped-def]
    import gradio as gr

    sources = sorted(engine.index.manifest["counts"])
    kinds = sorted({k for counts in engine.index.manifest["counts"].values() for k in counts})

    def run(query: str, source: list[str], kind: list[str], k: int) -> str:
        if not query.strip():
            return "<p>Type a query: words, LaTeX, Lean notation or a Lean name.</p>"
        filters = {"source": source, "kind": kind}
        return render(engine.search(query[:1000], k=int(k), filters=filters))

    with gr.Blocks(title="Theorem search") as app:
        gr.Markdown(f"# Theorem search\nIndex {html.escape(engine.index.version)}")
        with gr.Row():
            with gr.Column(scale=1):
                source = gr.Dropdown(sources, multiselect=True, label="Source")
                kind = gr.Dropdown(kinds, multiselect=True, label="Kind")
                k = gr.Slider(1, 50, value=10, step=1, label="Results")
            with gr.Column(scale=4):
                query = gr.Textbox(label="Query", placeholder="fundamental theorem of calculus")
                out = gr.HTML()
        query.submit(run, [query, source, kind, k], out)
    return app


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR))
    parser.add_argument("--port", type=int, default=7860)
    args = parser.parse_args(argv)
    try:
        engine = Engine(Index.load(Path(args.index)))
    except IndexLoadError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    make_app(engine).launch(server_name="127.0.0.1", server_port=args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
