"""How many records' math KaTeX cannot typeset, and how many show TeX outside math:
`python -m search.ui.math_check --index DIR` (or `--records FILE.jsonl`, as
`python -m search records --out` writes them).

Every math span that a result card leaves for KaTeX (`card_math` in search/ui/cards.py) is
typeset in headless Chromium (Debian's, driven by Playwright) by the KaTeX that Gradio's
Markdown itself loads: the `auto-render` module among the installed gradio package's frontend
assets, called as the page calls it (the cards' delimiters, `throwOnError: false`). A span fails
when KaTeX draws an error in its red (the whole span, or a command it does not know inside
it), or leaves the span untypeset. Nothing is
downloaded. Prints one JSON object:

    {"records": N, "records_with_math": R, "math_spans": M, "distinct_spans": D,
     "failing": K, "failing_spans": S, "examples": [{"id", "span", "error"}, ...]}

where `failing` counts records with at least one failing span, and under `"text"`:

    {"records_with_tex": T, "by_field": {...}, "records_losing_math": L,
     "records_with_unread_commands": U, "unread_commands": {name: records}, "examples": [...]}

Every text the page shows of a record from a text outside math (search/ui/cards.py
`shown_texts`: the card's title and place, the note, chapter, section, package and kind that
the filter lists offer, the statement's words) is searched for a TeX control word (`\\name`);
`records_losing_math` counts LaTeX statements with a math span that the
card leaves out (inside a command TeX prints, so not `\\index` or `\\label`);
`unread_commands` names the commands a statement's prose holds that nothing defines (an
author's macro missing from the corpus), left out of the card.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from search.index.manifest import RECORDS
from search.record import Statement, read_records
from search.ui.cards import LATEX_DELIMITERS, card_math, shown_texts
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


#: TeX that text outside math must not show: a control word (a lone `$` is text: "costs $5").
TEX_SHOWN = re.compile(r"\\[A-Za-z@]+")


@dataclass
class TextCounts:
    """What `shown_texts` found over the records (see the module's doc)."""

    records_with_tex: int = 0
    by_field: Counter[str] = field(default_factory=Counter)
    records_losing_math: int = 0
    unread: Counter[str] = field(default_factory=Counter)
    records_with_unread_commands: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)

    def add(self, statement: Statement, examples: int) -> None:
        if statement.formal:  # a Lean name or module is code, shown as written
            return
        texts, shown = shown_texts(statement)
        fields = [key for key, text in texts.items() if TEX_SHOWN.search(text)]
        if fields:
            self.records_with_tex += 1
            self.by_field.update(fields)
            if len(self.examples) < examples:
                self.examples.append({"id": statement.id, "field": fields[0], "text": texts[fields[0]][:300]})
        if shown is not None:
            self.records_losing_math += bool(shown.math_lost)
            self.records_with_unread_commands += bool(shown.unread)
            self.unread.update(set(shown.unread))

    def report(self) -> dict[str, Any]:
        return {
            "records_with_tex": self.records_with_tex, "by_field": dict(self.by_field),
            "records_losing_math": self.records_losing_math,
            "records_with_unread_commands": self.records_with_unread_commands,
            "unread_commands": dict(self.unread.most_common(30)), "examples": self.examples,
        }


def check(statements: Iterable[Statement], examples: int = 10) -> dict[str, Any]:
    """Typeset the math of every record's card and read its other texts; the counts, and a
    few failures to read."""
    records = 0
    by_span: dict[str, list[str]] = defaultdict(list)
    spans = 0
    text = TextCounts()
    for statement in statements:
        records += 1
        text.add(statement, examples)
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
        "text": text.report(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--index", type=Path, help=f"index directory (its {RECORDS} is read)")
    given.add_argument("--records", type=Path, help="records as JSON lines (`python -m search records --out`)")
    parser.add_argument("--examples", type=int, default=10, help="failing spans and texts to show (default 10)")
    args = parser.parse_args(argv)
    statements = read_records(args.index / RECORDS) if args.index else _read_jsonl(args.records)
    report = check(statements, args.examples)
    json.dump(report, sys.stdout, ensure_ascii=False, indent=1)
    print()
    return 0


def _read_jsonl(path: Path) -> Iterator[Statement]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield Statement(**json.loads(line))


if __name__ == "__main__":
    sys.exit(main())
