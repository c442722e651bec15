"""The Gradio layout of the search page: query box, filter sidebar, result cards with thumbs.

Searches are shareable: the page reads `?q=...&source=...` (or `?id=...`) when it loads, and
after each search the address bar and the "Link to this search" box show the URL that
reproduces it. Each browser gets an anonymous session id that the server issues and signs
(search/feedback/sessions.py), kept in its local storage, that votes are filed under.
"""

from __future__ import annotations

from typing import Any, Callable

import gradio as gr

from search import config
from search.engine import variants
from search.ui.cards import LATEX_DELIMITERS, literal
from search.ui.facets import LABELS
from search.ui.page import HINT, SearchPage
from search.ui.share import SearchRequest, from_pairs

CSS = """
.ts-card { padding: 0.6em 0.9em; margin-bottom: 0.6em; }
.ts-head { font-size: 1.05em; }
.ts-name { font-weight: 600; font-family: var(--font-mono); }
.ts-tag { font-size: 0.8em; padding: 0 0.45em; border-radius: 0.6em; background: var(--block-label-background-fill); margin-left: 0.2em; }
.ts-where, .ts-score, .ts-signals, .ts-related summary { color: var(--body-text-color-subdued); font-size: 0.85em; }
.ts-lean { white-space: pre-wrap; font-size: 0.9em; }
.ts-doc { font-style: italic; }
.ts-votes { gap: 0.3em; justify-content: flex-end; }
.ts-votes button { max-width: 3.2em; }
"""
#: Copies the search's query string into the address bar and shows the full URL.
_SHOW_URL = """(qs) => {
  if (!qs) return "";
  const url = new URL(qs, window.location.href);
  window.history.replaceState(null, "", url.toString());
  return url.toString();
}"""


def make_blocks(page: SearchPage) -> gr.Blocks:
    """The search page over `page` (its index, engine and vote store)."""
    facets = page.facets
    with gr.Blocks(title="Theorem search") as blocks:
        session = gr.BrowserState(None, storage_key="theorem-search-session")
        shown = gr.State(None)
        with gr.Sidebar(open=True, width=340):
            gr.Markdown("### Filters")
            source = gr.Dropdown(facets.sources, value=[], multiselect=True, label=LABELS["source"], elem_id="filter-source")
            dropdowns = {
                key: gr.Dropdown(
                    facets.choices(key), value=[], multiselect=True, label=LABELS.get(key, key.capitalize()),
                    elem_id=f"filter-{key}",
                )
                for key in facets.keys
            }
            k = gr.Slider(1, config.APP_MAX_RESULTS, value=10, step=1, label="Results", elem_id="results-count")
            variant = gr.Radio(list(variants.names()), value=variants.DEFAULT, label="Ranking", elem_id="ranking")
            gr.Markdown(page.version_markdown(), elem_id="index-version")
        gr.Markdown("# Theorem search\nLean declarations (Mathlib, Batteries, PhysLean) and LaTeX statements "
                    "(the Stacks Project, textbooks) in one index.")
        with gr.Row(equal_height=True):
            query = gr.Textbox(label="Query", placeholder="fundamental theorem of calculus", scale=6,
                               max_length=config.API_MAX_QUERY_CHARS, elem_id="query")
            go = gr.Button("Search", variant="primary", scale=1, elem_id="search")
        status = gr.Markdown(HINT, elem_id="status")
        share = gr.Textbox(label="Link to this search", interactive=False, buttons=["copy"], elem_id="share")

        widgets = [query, source, *dropdowns.values(), k, variant]

        def request_of(values: tuple[Any, ...]) -> SearchRequest:
            text, sources, *rest = values
            chosen = dict(zip(dropdowns, rest[: len(dropdowns)]))
            filters = {key: list(v) for key, v in {"source": sources, **chosen}.items() if v}
            return SearchRequest(query=text or "", filters=filters, k=int(rest[-2]), variant=rest[-1])

        def on_search(session_id: str | None, *values: Any) -> tuple[Any, ...]:
            request, notes = page.check(request_of(values))
            result, line = page.run(request, session_id)
            return result, _status(line, notes), result["url"] if result else ""

        def on_sources(sources: list[str], *chosen: list[str]) -> list[Any]:
            updates = []
            for key, values in zip(dropdowns, chosen):
                kept, _ = facets.split(key, values or [], sources or [])
                updates.append(gr.update(choices=facets.choices(key, sources or []), value=kept))
            return updates

        def on_load(session_id: str | None, request: gr.Request) -> list[Any]:
            session_id = page.ballot.session(session_id)
            pairs = request.query_params.multi_items()
            if not pairs:  # nothing to restore: leave alone what the user may have typed already
                return [session_id, *(gr.update() for _ in widgets), gr.update(), gr.update(), gr.update()]
            asked, notes = from_pairs(pairs, page.filter_keys)
            asked, more = page.check(asked)
            result, line = page.run(asked, session_id)
            sources = asked.filters.get("source", [])
            return [
                session_id, asked.query, sources,
                *(gr.update(choices=facets.choices(key, sources), value=asked.filters.get(key, [])) for key in dropdowns),
                asked.k, asked.variant, result, _status(line, notes + more), result["url"] if result else "",
            ]

        outputs = [shown, status, share]
        search_args = dict(fn=on_search, inputs=[session, *widgets], outputs=outputs, api_visibility="private")
        gr.on(
            [query.submit, go.click, *(d.input for d in dropdowns.values()), k.release, variant.input],
            **search_args,
        ).then(None, share, share, js=_SHOW_URL)
        source.input(on_sources, [source, *dropdowns.values()], list(dropdowns.values()), api_visibility="private").then(
            **search_args
        ).then(None, share, share, js=_SHOW_URL)
        blocks.load(
            on_load, inputs=[session], outputs=[session, *widgets, *outputs], api_visibility="private"
        ).then(None, share, share, js=_SHOW_URL)

        @gr.render(inputs=[shown])
        def cards(result: dict[str, Any] | None) -> None:
            for item in (result or {}).get("cards", []):
                with gr.Group(elem_classes=["ts-card"], elem_id=f"card-{item['rank']}"):
                    gr.Markdown(item["markdown"], latex_delimiters=LATEX_DELIMITERS, elem_classes=["ts-body"])
                    if not result["query"]:
                        continue
                    with gr.Row(elem_classes=["ts-votes"]):
                        up = gr.Button("👍", size="sm", variant=_variant(item["vote"] > 0), scale=0,
                                       min_width=40, elem_classes=["ts-up"])
                        down = gr.Button("👎", size="sm", variant=_variant(item["vote"] < 0), scale=0,
                                         min_width=40, elem_classes=["ts-down"])
                    for button, value in ((up, 1), (down, -1)):
                        button.click(
                            _voter(page, item["id"], value), inputs=[shown, session],
                            outputs=[up, down, status], api_visibility="private",
                        )
    return blocks


def _voter(page: SearchPage, result_id: str, value: int) -> Callable[..., tuple[Any, Any, str]]:
    """The click handler of one thumb (a function of its own, not a partial, so that Gradio
    sees the `gr.Request` it asks for: the client's address, for the vote's checks)."""

    def on_vote(shown: dict[str, Any] | None, session_id: str | None, request: gr.Request) -> tuple[Any, Any, str]:
        address = request.client.host if request.client else ""
        saved, line = page.vote(shown, session_id, result_id, value, address)
        if not saved:  # the buttons stay as they were
            return gr.update(), gr.update(), line
        return gr.update(variant=_variant(value > 0)), gr.update(variant=_variant(value < 0)), line

    return on_vote


def _variant(on: bool) -> str:
    return "primary" if on else "secondary"


def _status(line: str, notes: list[str]) -> str:
    return line + "".join(f"\n\n⚠️ {literal(note)}" for note in notes)
