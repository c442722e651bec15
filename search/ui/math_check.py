"""How many records' math KaTeX cannot typeset: `python -m search.ui.math_check --index DIR`.

Every math span that a result card leaves for KaTeX (`card_math` in search/ui/cards.py) is
typeset in headless Chromium (Debian's, driven by Playwright) by the KaTeX that Gradio's
Markdown itself loads: the `auto-render` module among the installed gradio package's frontend
assets, called as the page calls it (the cards' delimiters, `throwOnError: false`). A span fails
when KaTeX draws an error in its red (the whole span, or a command it does not know inside
it), or leaves the span untypeset. Nothing is
downloaded. Prints one JSON object:

    {"records": N, "records_with_math": R, "math_spans": M, "distinct_spans": D,
     "failing": K, "failing_spans": S, "examples": [{"id", "span", "error"}, ...]}

where `failing` counts records with at least one failing span.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

from search.index.manifest import RECORDS
from search.record import Statement, read_records
from search.ui.cards import LATEX_DELIMITERS, card_math
from search.ui.katex import auto_render_script

CHROMIUM = "/usr/bin/chromium"
#: Spans typeset per call into the page.
BATCH = 2000
#: The page that loads auto-render is served from this made-up origin by Playwright itself.
_ORIGIN = "http://math-check.invalid"
#: KaTeX draws what it cannot read in its error colour: a span it cannot parse as a whole
#: (`.katex-error`), an undefined command inside a span it typesets (`\\label` in red). The
#: check gives that colour a value no math asks for, to find both.
ERROR_COLOUR = "#c0ffee"
_TYPESET = """([spans, delimiters, errorColor]) => spans.map((span) => {
  const box = document.createElement("div");
  box.textContent = span;
  window.renderMathInElement(box, {delimiters, throwOnError: false, errorColor});
  const error = box.querySelector(".katex-error");
  if (error) return error.getAttribute("title") || "KaTeX error";
  const red = box.querySelector(`[mathcolor="${errorColor}"]`);
  if (red) return "undefined command " + red.textContent;
  return box.querySelector(".katex") ? "" : "not typeset";
})"""


def typeset_errors(spans: list[str]) -> list[str]:
    """For each span, KaTeX's error message when it cannot typeset it, else ""."""
    from playwright.sync_api import Route, sync_playwright

    script = auto_render_script().read_bytes()

    def serve(route: Route) -> None:
        if route.request.url.endswith(".js"):
            route.fulfill(body=script, content_type="text/javascript")
        else:
            route.fulfill(body="<!doctype html><html><body></body></html>", content_type="text/html")

    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        try:
            page = browser.new_page()
            page.route(f"{_ORIGIN}/**", serve)
            page.goto(f"{_ORIGIN}/")
            page.evaluate("import('/auto-render.js').then((m) => { window.renderMathInElement = m.default; })")
            for start in range(0, len(spans), BATCH):
                errors += page.evaluate(_TYPESET, [spans[start:start + BATCH], LATEX_DELIMITERS, ERROR_COLOUR])
        finally:
            browser.close()
    return errors


def check(statements: Iterable[Statement], examples: int = 10) -> dict[str, Any]:
    """Typeset the math of every record's card; the counts, and a few failures to read."""
    records = 0
    by_span: dict[str, list[str]] = defaultdict(list)
    spans = 0
    for statement in statements:
        records += 1
        for span in card_math(statement):
            by_span[span].append(statement.id)
            spans += 1
    distinct = list(by_span)
    errors = typeset_errors(distinct)
    failing_records: set[str] = set()
    failing_spans = 0
    shown = []
    for span, error in zip(distinct, errors):
        if not error:
            continue
        failing_records.update(by_span[span])
        failing_spans += len(by_span[span])
        if len(shown) < examples:
            shown.append({"id": by_span[span][0], "span": span[:300], "error": error[:300]})
    return {
        "records": records,
        "records_with_math": len({record for ids in by_span.values() for record in ids}),
        "math_spans": spans,
        "distinct_spans": len(distinct),
        "failing": len(failing_records),
        "failing_spans": failing_spans,
        "examples": shown,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", type=Path, required=True, help=f"index directory (its {RECORDS} is read)")
    parser.add_argument("--examples", type=int, default=10, help="failing spans to show (default 10)")
    args = parser.parse_args(argv)
    report = check(read_records(args.index / RECORDS), args.examples)
    json.dump(report, sys.stdout, ensure_ascii=False, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
