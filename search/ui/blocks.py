"""The Gradio layout of the search page: query box, filter sidebar, result cards with thumbs.

Searches are shareable: the page reads `?q=...&source=...` (or `?id=...`) when it loads, and
after each search the address bar and the "Link to this search" box show the URL that
reproduces it. Each browser gets an anonymous session id that the server issues and signs
(search/feedback/sessions.py), kept in its local storage, that votes are filed under.
"""

from __future__ import annotations

import itertools
from functools import partial
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
/* Gradio's footer keeps the divider after the "Use via API" link that app.py leaves out. */
footer .show-api-divider { display: none; }
#api-links { text-align: center; font-size: 0.85em; }
.ts-head { font-size: 1.05em; }
.ts-name { font-weight: 600; font-family: var(--font-mono); }
.ts-tag { font-size: 0.8em; padding: 0 0.45em; border-radius: 0.6em; background: var(--block-label-background-fill); margin-left: 0.2em; }
.ts-where, .ts-score, .ts-signals, .ts-related summary, .ts-copies { color: #4b5563; font-size: 0.85em; }
.dark .ts-where, .dark .ts-score, .dark .ts-signals, .dark .ts-related summary, .dark .ts-copies { color: #d1d5db; }
.ts-lean { white-space: pre-wrap; font-size: 0.9em; }
.ts-doc { font-style: italic; }
.ts-deprecated { color: #9a3412; font-size: 0.9em; }
.ts-said { font-size: 0.9em; }
.ts-said-label { color: #4b5563; font-size: 0.9em; }
.dark .ts-said-label { color: #d1d5db; }
.dark .ts-deprecated { color: #fdba74; }
.ts-fold { max-height: 6em; overflow: hidden; mask-image: linear-gradient(to bottom, black 70%, transparent); }
.ts-body:has(.ts-more[open]) .ts-fold { max-height: none; mask-image: none; }
.ts-more summary { cursor: pointer; font-size: 0.85em; color: var(--link-text-color); }
.ts-more[open] .ts-show, .ts-more:not([open]) .ts-hide { display: none; }
.ts-copy { font-family: var(--font-mono); font-size: 0.95em; padding: 0 0.5em; margin-left: 0.25em; border: 1px solid var(--border-color-primary); border-radius: 0.4em; background: var(--button-secondary-background-fill); color: var(--body-text-color); cursor: pointer; }
.ts-copy.ts-copied::after { content: " ✓"; }
.ts-searching .ts-card, .ts-searching #results-heading { opacity: 0.4; transition: opacity 0.15s; }
.ts-searching #status::after { content: "Searching…"; }
.ts-votes { gap: 0.3em; justify-content: flex-end; }
.ts-votes button { white-space: nowrap; flex: none !important; width: auto !important; min-width: max-content !important; }
"""
#: Runs once the page is loaded (`gr.mount_gradio_app(..., js=JS)` in app.py). The filter
#: sidebar starts closed (on a phone it would cover the page) and is opened when the window is
#: wide enough to show it beside the results. A
#: card's copy buttons (`.ts-copy`, search/ui/cards.py) put their `title` on the clipboard:
#: one listener for the page, since the cards' HTML may hold no script of its own.
JS = """() => {
  if (window.matchMedia("(min-width: 1024px)").matches) {
    const open = () => {
      const sidebar = document.querySelector(".sidebar");
      if (!sidebar) return requestAnimationFrame(open);
      if (!sidebar.classList.contains("open")) sidebar.querySelector(".toggle-button")?.click();
    };
    open();
  }
  const copy = async (text) => {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    const area = Object.assign(document.createElement("textarea"), {value: text});
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  };
  document.addEventListener("click", async (event) => {
    const button = event.target.closest(".ts-copy");
    if (!button) return;
    await copy(button.title);
    button.classList.add("ts-copied");
    setTimeout(() => button.classList.remove("ts-copied"), 1500);
  });
}"""
#: Runs in the browser as a search starts, before it is sent (its inputs pass through): the
#: results on the page are dimmed until the answer is drawn. The answer's heading and cards come
#: in one render, but Gradio typesets each Markdown in turn: the dimming ends once the heading
#: is of the new answer (its `ts-drawn-N` class) and the page has not changed for two frames,
#: or at once when the answer has no results to draw (`_SHOW_URL`).
_MARK_STALE = """(...values) => {
  window.tsEndSearching?.();
  const drawn = () => document.querySelector("#results-heading")?.className.match(/ts-drawn-\\d+/)?.[0] ?? "";
  const before = drawn();
  let frame = 0;
  const end = () => {
    observer.disconnect();
    cancelAnimationFrame(frame);
    clearTimeout(limit);
    document.body.classList.remove("ts-searching");
    if (window.tsEndSearching === end) window.tsEndSearching = undefined;
  };
  const observer = new MutationObserver(() => {
    if (drawn() === before) return;
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => { frame = requestAnimationFrame(end); });
  });
  const limit = setTimeout(end, 30000);
  window.tsEndSearching = end;
  document.body.classList.add("ts-searching");
  observer.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
  return values;
}"""
#: A filter list closes once a value is picked, instead of staying open over the next one.
_CLOSE_LIST = "() => { document.activeElement?.blur(); }"
#: Copies the search's query string into the address bar and shows the full URL.
_SHOW_URL = """(qs) => {
  if (!qs) {
    window.tsEndSearching?.();
    return "";
  }
  const url = new URL(qs, window.location.href);
  window.history.replaceState(null, "", url.toString());
  return url.toString();
}"""


def make_blocks(page: SearchPage) -> gr.Blocks:
    """The search page over `page` (its index, engine and vote store)."""
    with gr.Blocks(title="Theorem search") as blocks:
        session = gr.BrowserState(None, storage_key="theorem-search-session")
        shown = gr.State(None)
        with gr.Sidebar(open=False, width=340):
            # A server with several indexes (Mathlib versions, say) lets the page pick one.
            index = gr.Dropdown(page.names, value=page.default, label="Index", visible=len(page.names) > 1,
                                elem_id="index")
            gr.Markdown("### Filters")
            source = gr.Dropdown(page.sources, value=[], multiselect=True, label=LABELS["source"], elem_id="filter-source")
            # Choices are sent when a list is opened, for the sources chosen then: every value
            # of every list in the page's configuration made each page load grow with the index
            # (`python -m search.ui.cold_start --json FILE` measures the page's bytes).
            dropdowns = {
                key: gr.Dropdown([], value=[], multiselect=True, label=LABELS.get(key, key.capitalize()),
                                 elem_id=f"filter-{key}")
                for key in page.facets.keys
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

        widgets = [query, index, source, *dropdowns.values(), k, variant]
        drawn = itertools.count()  # numbers each answer drawn, for the page's script to tell them apart

        def request_of(values: tuple[Any, ...]) -> SearchRequest:
            text, name, sources, *rest = values
            chosen = dict(zip(dropdowns, rest[: len(dropdowns)]))
            filters = {key: list(v) for key, v in {"source": sources, **chosen}.items() if v}
            return SearchRequest(query=text or "", filters=filters, k=int(rest[-2]), variant=rest[-1],
                                 index=name or "")

        def shown_and_status(result: dict[str, Any] | None, line: str, notes: list[str]) -> tuple[Any, str, str]:
            """The page's state, its message line and its URL: the results' heading goes with the
            cards (drawn together), the message line keeps hints, errors and notes."""
            if result is None:
                return None, _status(line, notes), ""
            return {**result, "heading": line, "drawn": next(drawn)}, _status("", notes), result["url"]

        def on_search(session_id: str | None, *values: Any) -> tuple[Any, ...]:
            request, notes = page.check(request_of(values))
            return shown_and_status(*page.run(request, session_id), notes)

        def on_sources(name: str, sources: list[str], *chosen: list[str]) -> list[Any]:
            """The other lists keep the values the chosen index and sources have (their choices
            come when they are opened)."""
            shown_facets = page.view(name).facets
            kept = (shown_facets.split(key, values or [], sources or [])[0] for key, values in zip(dropdowns, chosen))
            return [gr.update(choices=values, value=values) for values in kept]

        def on_load(session_id: str | None, request: gr.Request) -> list[Any]:
            session_id = page.ballot.session(session_id)
            pairs = request.query_params.multi_items()
            if not pairs:  # nothing to restore: leave alone what the user may have typed already
                return [session_id, *(gr.update() for _ in widgets), gr.update(), gr.update(), gr.update()]
            asked, notes = from_pairs(pairs, page.filter_keys)
            asked, more = page.check(asked)
            values = [asked.filters.get(key, []) for key in dropdowns]
            return [
                session_id, asked.query, asked.index or page.default, asked.filters.get("source", []),
                *(gr.update(choices=chosen, value=chosen) for chosen in values),
                asked.k, asked.variant, *shown_and_status(*page.run(asked, session_id), notes + more),
            ]

        for key, dropdown in dropdowns.items():
            dropdown.focus(partial(_choices, page, key), [index, source], [dropdown], api_visibility="private",
                           show_progress="hidden")
        for dropdown in (index, source, *dropdowns.values()):
            dropdown.select(None, js=_CLOSE_LIST)
        outputs = [shown, status, share]
        search_args = dict(fn=on_search, inputs=[session, *widgets], outputs=outputs, api_visibility="private",
                           js=_MARK_STALE)
        gr.on(
            [query.submit, go.click, *(d.input for d in dropdowns.values()), k.release, variant.input],
            **search_args,
        ).then(None, share, share, js=_SHOW_URL)
        for changed in (index, source):
            changed.input(on_sources, [index, source, *dropdowns.values()], list(dropdowns.values()),
                          api_visibility="private").then(**search_args).then(None, share, share, js=_SHOW_URL)
        blocks.load(
            on_load, inputs=[session], outputs=[session, *widgets, *outputs], api_visibility="private"
        ).then(None, share, share, js=_SHOW_URL)

        @gr.render(inputs=[shown])
        def cards(result: dict[str, Any] | None) -> None:
            if not result:
                return
            gr.Markdown(result["heading"], elem_id="results-heading", elem_classes=[f"ts-drawn-{result['drawn']}"])
            for item in result["cards"]:
                # The id on a Column: Gradio draws a Group as two nested elements that both
                # carry its id and classes, and an id must name one element.
                with gr.Column(elem_id=f"card-{item['rank']}"), gr.Group(elem_classes=["ts-card"]):
                    gr.Markdown(item["markdown"], latex_delimiters=LATEX_DELIMITERS, elem_classes=["ts-body"])
                    if not result["query"]:
                        continue
                    with gr.Row(elem_classes=["ts-votes"]):
                        up = gr.Button("👍 Relevant", size="sm", variant=_variant(item["vote"] > 0), scale=0,
                                       min_width=40, elem_classes=["ts-up"])
                        down = gr.Button("👎 Not relevant", size="sm", variant=_variant(item["vote"] < 0), scale=0,
                                         min_width=40, elem_classes=["ts-down"])
                    for button, value in ((up, 1), (down, -1)):
                        button.click(
                            _voter(page, item["id"], value), inputs=[shown, session],
                            outputs=[up, down, status], api_visibility="private",
                        )

        gr.Markdown(api_links(), elem_id="api-links")
    return blocks


def api_links(docs_url: str | None = config.DOCS_URL) -> str:
    """The page's own footer line: where programs talk to this server, in place of Gradio's "Use via
    API" (switched off in app.py: it describes the page's internal events, which are private)."""
    docs = f"[documentation]({docs_url})" if docs_url else "documentation: `docs/` in the repository"
    return ("For programs: [the HTTP APIs, every route with its OpenAPI description](./docs) · "
            "MCP tools at `/mcp` · " + docs)


def _choices(page: SearchPage, key: str, name: str, sources: list[str] | None) -> Any:
    """The values a filter list offers, for the chosen index and sources (all when none is chosen)."""
    return gr.update(choices=page.view(name).facets.choices(key, sources or []))


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
