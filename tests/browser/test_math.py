"""Every math span the cards hand to KaTeX is typeset by the KaTeX Gradio ships, in Chromium
(`python -m search.ui.math_check`): the check finds what fails, and the cleaned spans of the
fixture index, which hold `\\label`, `\\xymatrix` and an author's macro, do not fail."""

from pathlib import Path

import pytest

from search.record import read_records
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
    assert len(card_math(book)) == 5
    assert main(["--index", str(ui_index_dir)]) == 0
    assert '"failing": 0' in capsys.readouterr().out



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
