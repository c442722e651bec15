"""The app in a real browser (Debian's Chromium driven by Playwright) over a small index:
search, filter, vote (checked in SQLite), share by URL, explore a record's links, and corpus
text, names and queries holding script, HTML, `javascript:` links and math rendered as plain
text."""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator
from urllib.parse import quote

import pytest

from tests.browser.conftest import CHROMIUM, TIMEOUT
from tests.ui.fixture_index import HOSTILE_NAME

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)"),
]


def _votes(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT query, result_id, rank, vote, filters, session FROM votes").fetchall()


def test_search_filter_vote_and_share(page, server) -> None:  # type: ignore[no-untyped-def]
    base, db = server
    page.goto(base)
    box = page.locator("#query").get_by_role("textbox")
    box.fill("multiplication is commutative")
    box.press("Enter")
    page.wait_for_selector("#card-1")
    assert "mul_comm" in page.inner_text("#card-1")
    assert "results for “multiplication is commutative”" in page.inner_text("#results-heading")

    page.click("#filter-source input[role=combobox]")
    page.click("[role=option][aria-label='mathlib']")
    page.keyboard.press("Escape")
    page.wait_for_function("document.querySelector('#share textarea, #share input').value.includes('source=mathlib')")
    assert "source=mathlib" in page.url  # the address bar holds the shareable search
    page.wait_for_function(  # the cards are drawn again, from Mathlib only
        "[...document.querySelectorAll('.ts-card .ts-tag')].every(t => t.innerText.trim() != 'stacks')"
    )
    assert page.locator(".ts-card").count() >= 3
    shown = page.locator("#card-1 .ts-name").inner_text()

    page.click("#card-1 .ts-up")
    page.wait_for_function("document.querySelector('#status').innerText.includes('saved')")
    assert _votes(db) == [("multiplication is commutative", f"mathlib:{shown}", 1, 1, '{"source": ["mathlib"]}', _votes(db)[0][5])]
    page.click("#card-1 .ts-down")  # a second click changes the vote
    page.wait_for_function("document.querySelector('#status').innerText.includes('👎 saved')")
    assert [(row[1], row[3]) for row in _votes(db)] == [(f"mathlib:{shown}", -1)]

    page.goto(page.url)  # the shared URL reruns the search, filters set, this session's vote shown
    page.wait_for_selector("#card-1")
    assert page.locator("#card-1 .ts-name").inner_text() == shown
    assert "mathlib" in page.inner_text("#filter-source")
    assert "primary" in (page.locator("#card-1 .ts-down").get_attribute("class") or "")


def test_corpus_html_and_script_render_as_text(page, server) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    page.goto(base + "?q=xss+probe&k=20")
    # The heading names this search once its cards are drawn (the previous test's cards do not).
    page.wait_for_selector("#results-heading:has-text('xss probe')")
    page.wait_for_selector("#card-1")
    text = page.inner_text("#gradio-app") if page.locator("#gradio-app").count() else page.inner_text("body")
    for literal in ('<script>window.__xss = 7</script>', '<img src=x onerror="window.__xss = 8">',
                    '[click me](javascript:window.__xss=9)', '<script>window.__xss = 1</script>',
                    '<img src=x onerror=alert(2)>'.replace("alert(2)", '"window.__xss = 4"')):
        assert literal in text
    assert page.locator(".ts-card script, .ts-card img, .ts-card iframe").count() == 0
    assert page.locator("a[href^='javascript'], a[href^='JAVASCRIPT']").count() == 0
    assert page.locator(".ts-card .katex").count() >= 2  # the math ($a<b$, $$\sum$$) is typeset
    # A docstring's code block is code: its dollars pair into no math, its script stays text.
    assert "#eval f '$' '$' <script>window.__xss = 15</script>" in page.inner_text(".ts-doc pre code")
    assert page.locator(".ts-card .katex-error").count() == 0
    page.wait_for_timeout(500)
    assert page.evaluate("window.__xss") is None and page.dialogs == []


def test_record_links_explore_dependents(page, server) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    page.goto(base + "?id=stacks:0003")
    page.wait_for_selector("#card-0")
    assert "Record stacks:0003" in page.inner_text("#results-heading")
    page.locator("#card-0 summary", has_text="Used by").click()
    with page.expect_popup() as opened:  # Gradio opens Markdown links in a new tab
        page.locator("#card-0 details a", has_text="00A2").click()
    record = opened.value
    record.set_default_timeout(TIMEOUT)
    record.wait_for_selector("#card-0")
    assert record.url.endswith("?id=stacks%3A00A2")
    assert "Record stacks:00A2" in record.inner_text("#results-heading") and "Uses (2)" in record.inner_text("#card-0")


HOSTILE_QUERY = (
    '<img src=x onerror="window.__xss = 20"> [q](javascript:window.__xss=21) '
    "$\\href{javascript:window.__xss=22}{q}$ <script>window.__xss = 23</script> named probe"
)


def _nothing_ran_and_nothing_links_out(page) -> None:  # type: ignore[no-untyped-def]
    shown = "#status, #results-heading, .ts-card"
    assert page.locator(", ".join(f"{where} {tag}" for where in shown.split(", ") for tag in ("img", "script"))).count() == 0
    assert page.locator("#status a, #results-heading a").count() == 0
    hrefs = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
    assert hrefs and all(h.startswith(("http://", "https://")) for h in hrefs), hrefs
    page.wait_for_timeout(500)
    assert page.evaluate("window.__xss") is None and page.dialogs == []


def test_hostile_queries_and_names_show_as_text(page, server) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    page.goto(base)
    box = page.locator("#query").get_by_role("textbox")
    box.fill(HOSTILE_QUERY)
    box.press("Enter")
    page.wait_for_selector("#card-1")
    assert f"for “{HOSTILE_QUERY}”" in page.inner_text("#results-heading")  # the query, character for character
    name = HOSTILE_NAME.removeprefix("evil:")
    card = page.locator("[id^=card-]", has=page.locator(".ts-name", has_text="[named](javascript:")).first
    assert card.locator(".ts-name").inner_text() == name  # found, and shown as written
    assert page.locator("#status .katex, #results-heading .katex, .ts-card .ts-name .katex").count() == 0  # no `$...$` typeset there
    source = card.locator(".ts-links a", has_text="source")  # the quote in its URL ends no attribute
    assert source.get_attribute("href") == 'https://example.org/x"><script>window.__xss=14</script>'
    _nothing_ran_and_nothing_links_out(page)

    page.goto(base + "?id=" + quote(HOSTILE_NAME, safe=""))  # the record's own page, from its link
    page.wait_for_selector("#card-0")
    assert page.inner_text("#card-0 .ts-name") == name and name in page.inner_text("#results-heading")
    _nothing_ran_and_nothing_links_out(page)


def test_the_page_links_its_apis_and_each_card_id_names_one_element(page, server) -> None:  # type: ignore[no-untyped-def]
    """Gradio's "Use via API" (which lists the page's private events, "No API routes found") is
    gone; the page's footer links the OpenAPI description of the real routes, which opens; every
    element id, a card's included, is on one element."""
    base, _ = server
    page.goto(base + "?q=mul_comm")
    page.wait_for_selector("#card-1")
    assert page.get_by_text("Use via API").count() == 0 and page.locator("button.show-api").count() == 0
    ids = page.eval_on_selector_all("[id]", "elements => elements.map(e => e.id).filter(id => id)")
    assert [i for i in set(ids) if ids.count(i) > 1] == []
    assert page.locator("#card-1").count() == 1 and page.locator("#card-1 .ts-up").count() == 1
    link = page.locator("#api-links a", has_text="HTTP APIs")
    assert "documentation" in page.inner_text("#api-links") and "/mcp" in page.inner_text("#api-links")
    with page.context.expect_page() if link.get_attribute("target") == "_blank" else _same_page(page) as opened:
        link.click()
    reference = opened.value
    # Swagger UI, served by the app itself (no CDN): it draws one block per operation.
    reference.wait_for_selector(".opblock-summary-path", timeout=TIMEOUT)
    paths = set(reference.locator(".opblock-summary-path").all_inner_texts())
    assert {"/search", "/json", "/api/search", "/api/v1/search", "/mcp"} <= {p.replace("\u200b", "") for p in paths}


@contextmanager
def _same_page(page) -> Iterator[SimpleNamespace]:  # type: ignore[no-untyped-def]
    """What `expect_page` gives for a link that opens in the same tab: the page, once navigated."""
    with page.expect_navigation():
        yield SimpleNamespace(value=page)
