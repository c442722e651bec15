"""Every math span the cards hand to KaTeX is typeset by the KaTeX Gradio ships, in Chromium
(`python -m search.ui.math_check`): the check finds what fails, and the cleaned spans of the
fixture index, which hold `\\label`, `\\xymatrix` and an author's macro, do not fail."""

from pathlib import Path

import pytest

from search.record import Statement, read_records
from search.ui.cards import card_math, math_spans
from search.ui.math_check import check, main, typeset_errors
from tests.browser.conftest import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)"),
]


def test_the_check_finds_errors_unknown_commands_and_untypeset_spans() -> None:
    errors = typeset_errors(["$x^2$", "$a^^b$", "\\begin{equation}\\label{eq}a\\end{equation}", "$\\frac{a$",
                             "$\\colim_k F$"])
    assert errors[0] == ""
    assert errors[1].startswith("ParseError: KaTeX parse error: Expected group after '^'")
    assert errors[2] == "undefined command \\label" and errors[4] == "undefined command \\colim"
    assert errors[3] == "not typeset"  # KaTeX's auto-render finds no end: the reader sees the source


def test_the_fixture_books_math_fails_as_written_and_renders_cleaned(ui_index_dir: Path, capsys) -> None:
    records = read_records(ui_index_dir / "records.arrow")
    book = next(s for s in records if s.id == "books:lem:right-exact")
    written = [  # spans of tests/fixtures/ui/books/book.tex as the corpus holds them
        "\\begin{equation}\n\\label{equation-tensor}\nM_1\\otimes N \\to M_2\\otimes N \\to M_3\\otimes N \\to 0\n\\end{equation}",
        "$$\n\\xymatrix{\nM_1 \\ar[r]^f \\ar[d]_\\alpha & M_2 \\ar[d]^\\beta \\\\\nN_1 \\ar[r]_g & N_2\n}\n$$",
        "$A \\lif B$",
    ]
    assert all(span in book.statement for span in written)
    assert all(typeset_errors(written))  # KaTeX cannot take \label, \xymatrix or \lif as written
    report = check(records)
    assert report["records"] == len(records) and report["math_spans"] > 10
    assert report["failing"] == 0 and report["examples"] == [], report["examples"]
    assert report["text"]["records_with_tex"] == 0 and report["text"]["records_losing_math"] == 0, report["text"]
    assert len(card_math(book)) == 5
    assert main(["--index", str(ui_index_dir)]) == 0
    assert '"failing": 0' in capsys.readouterr().out



def test_the_check_counts_tex_shown_outside_math_and_commands_left_out() -> None:
    def record(n: int, statement: str, **meta: str) -> Statement:
        return Statement(id=f"b:{n}", source="b", kind="lemma", name=str(n), statement=statement,
                         language="latex", meta=meta)

    report = check([record(1, "Fine $x$, costs $5."), record(2, "Fine.", chapter="The \\spec of a ring"),
                    record(3, "An \\unknown{word}.", note="a \\ref{x}")])["text"]
    assert report["records_with_tex"] == 2
    assert report["by_field"] == {"chapter": 1, "place": 1, "title": 2, "note": 1}
    assert report["records_with_unread_commands"] == 1 and report["unread_commands"] == {"unknown": 1}


def test_spans_katex_refuses_as_written_are_typeset_as_cards_hand_them_over() -> None:
    written = [
        # Open Logic's conditional row in an align (its default build prints the row)
        "\\begin{align*}\n  \\tag{\\Ax{K}} & \\Box p,\n  \\iftag{prvDiamond}{\\\\\n  \\tag{\\Dual} & \\Diamond p}{}\n"
        "\\end{align*}",
        "\\[ 2^{x}\\raisebox{1ex}{\\bigg\\rbrace}\n\\raisebox{1ex}{\\text {$y$ $2$'s}}\\]",  # a raised delimiter
        "$A \\to colim_n \\ss A_n$",  # text-only symbols in math
        "$\\text{Stra\\ss e} \\ae$",
    ]
    cleaned = [math_spans(span, 1000) for span in written]
    assert all(len(spans) == 1 for spans in cleaned)
    errors = typeset_errors(written + [spans[0] for spans in cleaned])
    assert all(errors[:len(written)]), errors
    assert errors[len(written):] == [""] * len(written), list(zip(cleaned, errors[len(written):]))


def test_dollars_in_a_docstrings_code_make_no_math() -> None:
    doc = "Compares.\n\n```\n#eval f '$' '$' -- true\n```\nand `q($x + $y)`."
    assert math_spans(doc, 1000) == ["$' '$", "$x + $"]  # read as LaTeX, the code would be math
    assert typeset_errors(["$' '$"])[0]  # KaTeX refuses that one
    assert math_spans(doc, 1000, markdown=True) == []  # as a card reads a Lean docstring: code


def test_the_page_shows_no_tex_outside_math(page, server) -> None:  # type: ignore[no-untyped-def]
    """tests/fixtures/ui/books/spec.tex: a chapter titled `The $\\spec$ of a ring` (an author's
    macro), a section with `{\\v C}ech`, an example with no name whose body holds `{\\it ...}`
    around a formula, a footnote with math and bold, a proof tree and `\\ensuremath` in prose.
    In the page: its title names its section, its place and the chapter filter's choices read
    as words, and no text outside typeset math holds a backslash or a dollar."""
    base, _ = server
    page.goto(base)
    box = page.locator("#query").get_by_role("textbox")
    box.fill("closed points maximal ideals")
    box.press("Enter")
    card = page.locator(".ts-card", has=page.locator(".ts-name", has_text="Example in Closed points")).last
    card.wait_for()
    assert card.locator(".ts-name").inner_text() == "Example in Closed points of the Čech site"
    assert card.locator(".ts-where").inner_text() == "The Spec of a ring › Closed points of the Čech site"
    assert card.locator(".ts-latex .katex").count() == 4  # every formula typeset, the proof tree too
    words = card.evaluate(
        """(card) => { const copy = card.cloneNode(true);
             copy.querySelectorAll('.katex').forEach((math) => math.remove());
             return copy.innerText; }""")
    assert "\\" not in words and "$" not in words, words
    assert "(See" in words and "Zorn's lemma" in words and "points of" in words
    assert card.locator(".ts-latex em").count() >= 1 and card.locator(".ts-latex strong").count() >= 1
    page.click("#filter-chapter input[role=combobox]")
    page.wait_for_selector("[role=option]")
    choices = page.locator("[role=option]").all_inner_texts()
    assert "The Spec of a ring" in [c.strip() for c in choices]
    assert not [c for c in choices if "\\" in c or "$" in c]
