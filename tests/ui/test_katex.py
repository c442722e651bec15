"""Math from the books rewritten into what the KaTeX that Gradio ships can typeset
(search/ui/katex/); that KaTeX itself typesets the results in tests/browser/test_math.py."""

import pytest

from search.ui.cards import card_math, math_markdown, math_spans
from search.record import Statement
from search.ui.katex import (
    DOLLAR, clean_math, known_commands, prepare, proof_tree, tags_resolved, text_symbols,
    xymatrix_array,
)


def test_the_commands_katex_knows_are_read_from_gradios_copy() -> None:
    known = known_commands()
    assert {"frac", "mathbb", "xrightarrow", "operatorname", "text", "begin"} <= known
    assert not {"label", "xymatrix", "ensuremath", "lif", "Relbar", "intertext"} & known


def test_labels_refs_and_citations_leave_the_math() -> None:
    span = "\\begin{equation}\n\\label{equation-2ndex}\nM \\otimes N \\to 0 \\quad \\eqref{eq-1} \\cite[2.1]{Mat}\n\\end{equation}"
    out = clean_math(span)
    assert "\\label" not in out and "equation-2ndex" not in out
    assert "\\text{[eq-1]}" in out and "\\text{[Mat]}" in out
    assert out.startswith("\\begin{equation}") and out.endswith("\\end{equation}")


def test_unknown_commands_show_their_name_and_known_ones_stay() -> None:
    assert clean_math("$A \\lif \\Proves B \\to \\mathbb{Z}$") == "$A \\textrm{lif} \\textrm{Proves} B \\to \\mathbb{Z}$"
    assert clean_math("\\[\\ensuremath{x}\\xspace + \\mbox{if $y$}\\]") == "\\[{x} + \\text{if $y$}\\]"
    assert clean_math("$\\href{javascript:alert(1)}{z}$") == "${z}$"


def test_fonts_given_as_bare_arguments_get_braces_and_braces_are_balanced() -> None:
    assert clean_math("$\\overline\\mathbb Z$") == "$\\overline{\\mathbb Z}$"
    assert clean_math("$\\sum (i=0}^{q-1} x$") == "$\\sum (i=0^{q-1} x$"
    assert clean_math("$\\lim_{x\\to\\infty |x|$") == "$\\lim_{x\\to\\infty |x|}$"
    assert clean_math("\\[ a ^ \\]") == "\\[ a ^{}\\]"


def test_an_xymatrix_becomes_an_array_with_its_arrows() -> None:
    out = clean_math("$$\\xymatrix{A \\ar[r]^f \\ar[d]_g & B \\ar[d]^h \\\\ C \\ar[r]_k & D}$$")
    assert out == (
        "$$\\begin{array}{ccc}A & \\xrightarrow[]{f} & B \\\\ "
        "{\\scriptstyle g}\\Big\\downarrow{\\scriptstyle } &  & {\\scriptstyle }\\Big\\downarrow{\\scriptstyle h} \\\\ "
        "C & \\xrightarrow[k]{} & D\\end{array}$$"
    )
    diagonal = xymatrix_array("A \\ar@{-->}[rr] \\ar[dr]_{u} & & B \\\\ & C \\ar@{^{(}->}[ur]")
    assert "\\dashrightarrow" in diagonal and "\\searrow{\\scriptstyle u}" in diagonal
    assert "\\nearrow" in diagonal and "\\ar" not in diagonal


def test_a_proof_tree_becomes_fractions() -> None:
    tree = "\\AxiomC{$A$}\\AxiomC{$B$}\\RightLabel{$\\land$I}\\BinaryInfC{$A \\land B$}\\UnaryInfC{$C$}\\DisplayProof"
    assert proof_tree(tree) == "\\,\\dfrac{\\,\\dfrac{A \\quad B}{A \\land B}\\,{\\scriptstyle \\land I}}{C}\\,"


def test_escaped_dollars_are_no_delimiters() -> None:
    text = "You win \\$10 or lose \\$5 when $x > 0$."
    assert prepare(text) == f"You win {DOLLAR}10 or lose {DOLLAR}5 when $x > 0$."
    assert math_spans(text, 1000) == ["$x > 0$"]
    out = math_markdown(text, 1000)
    assert out.count("<span>&#36;</span>") == 2 and "$x &gt; 0$" in out
    assert math_spans("$\\$5 + x$", 100) == ["$\\text{\\textdollar}5 + x$"]
    assert prepare("a \\\\[2pt] b") == "a \\\\ b"


def test_mathchoice_takes_its_display_form_without_inner_dollars() -> None:
    ct = ("\\mathchoice{\\mathbin{\\raisebox{0.5ex}{$\\displaystyle\\centerdot$}}}"
          "{\\mathbin{\\raisebox{0.5ex}{$\\centerdot$}}}{x}{y}")
    assert prepare(f"$p {ct} q$") == "$p {\\mathbin{{\\displaystyle\\centerdot}}} q$"


@pytest.mark.parametrize("picture", ["\\begin{tikzpicture} \\node (A) {$1$}; \\end{tikzpicture}",
                                     "\\Qcircuit @C=1em {x & \\qw}"])
def test_pictures_katex_cannot_draw_leave_a_note(picture: str) -> None:
    out = clean_math(f"\\[ {picture} \\]")
    assert "picture: see the source]}" in out and out.endswith("\\]") and "node" not in out and "qw" not in out


def test_cards_hand_katex_the_cleaned_spans() -> None:
    latex = Statement(id="s:1", source="s", kind="lemma", name="1", language="latex",
                      statement="Let $a \\lif b \\red c$.\n\\begin{equation}\\label{x}a\\end{equation}", doc="plain")
    lean = Statement(id="m:x", source="m", kind="theorem", name="x", statement="theorem x : $a$ := rfl", language="lean",
                     doc="About $\\overline\\mathbb Q$.")
    # Open Logic's connective is TeX's; a command KaTeX does not know is its name in roman
    assert card_math(latex) == ["$a \\rightarrow b \\textrm{red} c$", "\\begin{equation}a\\end{equation}"]
    assert card_math(lean) == ["$\\overline{\\mathbb Q}$"]  # Lean code is no math; its docstring is


def test_math_inside_text_inside_math_leaves_the_text() -> None:
    text = "The set $\\{x : \\text{$x$ is odd}\\}$ is infinite."
    assert prepare(text) == "The set $\\{x : \\text{}x\\text{ is odd}\\}$ is infinite."
    assert math_spans(text, 1000) == ["$\\{x : \\text{}x\\text{ is odd}\\}$"]
    assert prepare("$\\text{plain}$ and \\textrm{prose}") == "$\\text{plain}$ and \\textrm{prose}"


def test_several_tags_sit_beside_their_rows_and_a_bare_colour_command_is_a_name() -> None:
    out = clean_math("\\begin{align}\\tag{K} a & b \\\\ \\tag{T_1} c & d\\end{align}")
    assert out == "\\begin{align}\\qquad(K) a & b \\\\ \\qquad(T_1) c & d\\end{align}"
    assert clean_math("\\begin{equation}\\tag{1} a\\end{equation}") == "\\begin{equation}\\tag{1} a\\end{equation}"
    assert clean_math("$M \\red N$") == "$M \\textrm{red} N$"
    assert clean_math("$\\red{N}$") == "$\\red{N}$"  # KaTeX's own colour, with its argument
    assert clean_math("\\begin{align}a \\tag{by $x$} \\\\ b \\tag{2}\\end{align}") == (
        "\\begin{align}a \\qquad(\\text{by $x$}) \\\\ b \\qquad(2)\\end{align}")


def test_dollars_outside_any_group_of_a_display_are_dropped() -> None:
    span = "\\begin{align*}f(x) & = \\begin{cases} $1$ & \\text{if $x$} \\\\ \\fbox{$0$} & \\text{else}\\end{cases}\\end{align*}"
    assert clean_math(span) == span.replace("$1$", "1")
    assert clean_math("$a$") == "$a$"


def test_open_logic_conditional_text_is_what_its_default_build_prints() -> None:
    # FOL and prvDiamond are on in open-logic-config.sty, defEx and probOr off; notX is not X.
    assert tags_resolved("every \\iftag{FOL}{structure $\\Struct{M}$}{valuation $v$} satisfies") == (
        "every structure $\\Struct{M}$ satisfies")
    assert tags_resolved("$\\iftag{FOL}{\\Sat{M}}{\\pSat{v}}{\\Gamma}$") == "$\\Sat{M}{\\Gamma}$"
    assert tags_resolved("\\iftag{defEx,probOr}{a}{b} \\iftag{notprvBox,notprvDiamond}{It}{They} "
                         "\\iftag{notdefEx}{c}{d} \\iftag{unheardOf}{e}{f}") == "b They c f"
    nested = "\\iftag{notprobOr}{\\iftag{prvBox}{$\\Box$}{$\\Diamond$} case}{exercise}"
    assert tags_resolved(nested) == "$\\Box$ case"
    row = ("\\begin{align*}\n  \\tag{K} & \\Box p,\n  \\iftag{prvDiamond}{\\\\\n  \\tag{Dual} & \\Diamond p}{}\n"
           "\\end{align*}")
    span = math_spans(row, 1000)[0]  # the row is in the align, not in a group where `&` cannot stand
    assert "iftag" not in span and "prvDiamond" not in span and "\\qquad(Dual) & \\Diamond p" in span


def test_text_only_symbols_in_math_are_set_as_text() -> None:
    symbols = text_symbols()  # read from the KaTeX Gradio ships
    assert {"ss", "ae", "o", "i", "textbackslash", "textellipsis"} <= symbols
    assert not {"alpha", "rbrack", "dots", "c", "v", "text"} & symbols  # math too, or accents taking an argument
    assert clean_math("$A \\to colim_n \\ss A_n$") == "$A \\to colim_n \\text{\\ss} A_n$"
    assert clean_math("$\\text{\\ae} \\text{Stra\\ss e}$") == "$\\text{\\ae} \\text{Stra\\text{\\ss} e}$"
    assert math_spans("$\\$5$", 100) == ["$\\text{\\textdollar}5$"]  # what the cleaning writes stays as it is


def test_a_raised_sized_delimiter_is_math_and_other_raised_text_stays() -> None:
    span = "\\[ 2^{x}\\raisebox{1ex}{\\bigg\\rbrace}\n\\raisebox{1ex}{\\text{}y\\text{ }2\\text{'s}} \\]"
    assert clean_math(span) == "\\[ 2^{x}{\\bigg\\rbrace}\n\\raisebox{1ex}{\\text{}y\\text{ }2\\text{'s}} \\]"
    assert clean_math("$a \\raisebox{1ex}[0pt][0pt]{\\Bigl(} b$") == "$a {\\Bigl(} b$"
    assert clean_math("\\[\\raisebox{2pt}{$\\big($} \\raisebox{1ex}{big}\\]") == (
        "\\[\\raisebox{2pt}{$\\big($} \\raisebox{1ex}{big}\\]")  # math already, or no delimiter
