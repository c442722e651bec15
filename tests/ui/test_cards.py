"""Result cards: corpus text reaches the page as text, math is left for KaTeX, links are safe."""

import html
import re

import pytest

from search.record import Statement
from search.ui.cards import (
    Card, Related, card_markdown, card_math, lean_block, literal, math_markdown, math_spans, record_href, safe_url,
    shown_texts, title,
)

HOSTILE = (
    "<script>alert(1)</script> <img src=x onerror=alert(2)> [x](javascript:alert(3)) "
    "![y](javascript:alert(4)) <javascript:alert(5)> **bold** # heading\n    indented `code`"
)
#: Tags a card may contain; anything else would have come from corpus text.
OUR_TAGS = {"div", "span", "pre", "code", "a", "details", "summary", "br", "em", "strong", "small", "button"}


def _shown(markdown: str) -> str:
    """The text a reader sees of literal output (our isolating spans dropped, references decoded)."""
    return html.unescape(re.sub(r"</?span>", "", markdown))


def _tags(markdown: str) -> set[str]:
    return {t.lower() for t in re.findall(r"<\s*/?\s*([A-Za-z][\w-]*)", markdown)}


def _statement(**fields) -> Statement:
    values = dict(id="hostile:thm:probe", source="hostile", kind="theorem", name="thm:probe",
                  statement="", language="latex")
    return Statement(**{**values, **fields})


def test_literal_shows_exactly_the_text_and_nothing_markdown_or_html_can_read() -> None:
    out = literal(HOSTILE + " costs $5 and 100% \\(")
    assert _shown(out) == HOSTILE + " costs $5 and 100% \\("
    assert _tags(out) <= {"span"}
    for dangerous in ("<script", "<img", "javascript:", "](", "**", "`", "\\(", "%"):
        assert dangerous not in out
    assert "$" not in out.replace("&#36;", "")  # no delimiter left for Gradio to pair


def test_latex_statement_keeps_math_and_neutralises_the_rest() -> None:
    text = "Let $a<b$ and $$\\sum_{i<n} i$$ hold. " + HOSTILE + " \\[x > y\\] $\\href{javascript:alert(6)}{z}$"
    out = math_markdown(text, limit=10_000)
    assert "$a&lt;b$" in out and "$$\\sum_{i&lt;n} i$$" in out and "\\[x &gt; y\\]" in out
    # \href keeps only its text: no URL reaches KaTeX, let alone a link.
    assert "${z}$" in out
    assert "javascript:" not in out and "<script" not in out and "<img" not in out
    assert "](" not in out and _tags(out) <= OUR_TAGS


def test_latex_markup_is_read_and_stray_dollars_stay_text() -> None:
    out = math_markdown("A {\\it ring} costs \\$5, see \\ref{lemma-x}.\n\\begin{enumerate}\n\\item \\label{i} one\n\\end{enumerate}", 1000)
    assert "<em>ring</em>" in out and re.search(r"<br>•\s+one", out) and "&#91;lemma&#45;x&#93;" in out
    assert "<span>&#36;</span>5" in out and "enumerate" not in out and "label" not in out
    unbalanced = math_markdown("price $5 and $$x", 1000)
    assert _shown(unbalanced) == "price $5 and $$x"


def test_lean_docstrings_keep_markdown_as_code() -> None:
    out = math_markdown("Use `a <b> c` when $x$ holds [x](javascript:alert(1)).", 1000, markdown=True)
    assert "<code>a &#60;b&#62; c</code>" in out and "$x$" in out and "javascript:" not in out


def test_long_text_is_cut_between_pieces_never_inside_math() -> None:
    out = math_markdown("word " * 50 + "$" + "x+" * 100 + "x$ tail", limit=300)
    assert out.endswith("…") and "$" not in out.replace("&#36;", "")
    assert len(math_markdown("a" * 5000, limit=100)) < 200


def test_code_in_a_docstring_is_code_not_math() -> None:
    doc = ("Compares chars.\n\n```\n#eval f '$' '$' <b>x</b>\n\n#eval f 'a' 'b'\n```\n"
           "Quote `q($x + $y)` of type `Q($α)`, where $x < y$.")
    assert math_spans(doc, 1000, markdown=True) == ["$x < y$"]
    out = math_markdown(doc, 1000, markdown=True)
    assert "\n\n<pre><code>&#35;eval f &#39;<span>&#36;</span>&#39; &#39;<span>&#36;</span>&#39; &#60;b&#62;x" in out
    assert "&#39;b&#39;\n</code></pre>\n\n" in out  # the blank line stays inside the block
    assert "<code>q&#40;<span>&#36;</span>x &#43; <span>&#36;</span>y&#41;</code>" in out and "$x &lt; y$" in out
    assert _tags(out) <= OUR_TAGS
    assert math_spans("`$a$` is $b$", 1000) == ["$a$", "$b$"]  # LaTeX text has no Markdown code
    assert math_spans("```\nno end $a$", 1000, markdown=True) == []  # an unclosed block runs to the end


def test_lean_code_is_a_literal_code_block() -> None:
    out = lean_block("theorem t : <script>x</script> = $ 1\n  := rfl")
    assert out.startswith('<pre class="ts-lean"><code>') and out.endswith("</code></pre>")
    assert "<script" not in out and "$" not in out and "\n  &#58;&#61; rfl" in out
    assert lean_block("x" * 50, limit=10).endswith("x …</code></pre>")


@pytest.mark.parametrize(
    "url, safe",
    [("https://stacks.math.columbia.edu/tag/0001", True), ("http://x.org/a?b=c#d", True),
     ("javascript:alert(1)", False), ("JaVaScRiPt:alert(1)", False), (" javascript:alert(1)", False),
     ("data:text/html,<script>alert(1)</script>", False), ("//evil.org/x", False),
     ("https://x.org/a b", False), ("", False), ("vbscript:msgbox", False)],
)
def test_only_http_urls_are_linked(url: str, safe: bool) -> None:
    assert (safe_url(url) is not None) is safe


def test_card_shows_fields_links_and_related_records() -> None:
    statement = Statement(
        id="mathlib:Finset.card_pos", source="mathlib", kind="theorem", name="Finset.card_pos",
        statement="theorem card_pos : 0 < s.card ↔ s.Nonempty", language="lean", doc="The `card` is positive $0 < n$.",
        module="Mathlib.Data.Finset.Card", url="https://github.com/x#L1", doc_url="javascript:alert(1)",
    )
    card = Card(
        statement, rank=2, score=0.5, signals={"bm25": {"rank": 3, "score": 1.0}},
        deps=[Related("mathlib:Finset", "Finset", "mathlib")], deps_total=1,
        dependents=[Related(f"mathlib:u{i}", f"u{i}", "mathlib") for i in range(3)], dependents_total=40,
        links=[Related("stacks:056U", "056U", "stacks")],
        members=[Related("mathlib:Finset.card_pos.mk", "<b>odd</b>", "mathlib")], members_total=1,
    )
    out = card_markdown(card)
    assert "2." in out and "Finset&#46;card&#95;pos" in out and "score 0.5000" in out
    hrefs = {html.unescape(h) for h in re.findall(r'href="([^"]*)"', out)}
    assert hrefs == {
        "https://github.com/x#L1", "?id=mathlib%3AFinset.card_pos", "?id=mathlib%3AFinset",
        "?id=stacks%3A056U", "?id=mathlib%3AFinset.card_pos.mk", *(f"?id=mathlib%3Au{i}" for i in range(3)),
    }  # the javascript: doc_url is not linked
    assert "docs ↗" not in out and record_href("stacks:056U") == "?id=stacks%3A056U"
    assert "Uses (1)" in out and "Used by (40)" in out and "and 37 more" in out
    assert "&#60;b&#62;odd&#60;/b&#62;" in out and "<b>" not in out
    assert "bm25 &#35;3" in out and "<code>card</code>" in out and "$0 &lt; n$" in out
    assert _tags(out) <= OUR_TAGS


def test_latex_card_shows_its_place_and_no_duplicate_plain_text() -> None:
    statement = _statement(statement="Let $R$ be a ring.", doc="Let R be a ring.",
                           meta={"chapter": "Algebra", "section": "Rings", "number": "10.3.4", "note": "Key"})
    out = card_markdown(Card(statement))
    assert ">Theorem 10&#46;3&#46;4 &#40;Key&#41;</a>" in out and ">Algebra › Rings</span>" in out
    assert "Let R be a ring" not in out and "$R$" in out
    assert "ts-rank" not in out and "score" not in out  # a record shown alone


@pytest.mark.parametrize(
    "meta, kind, expected",
    [
        ({"number": "10.12.10", "note": "", "tag": "00DF", "label": "algebra-lemma-tensor-exact", "file": "algebra.tex"},
         "lemma", "Lemma 10.12.10 (tensor exact) · 00DF"),
        ({"note": "Bisimulation", "label": ""}, "definition", "Definition (Bisimulation)"),
        ({"label": "lem:right-exact"}, "lemma", "Lemma (right exact)"),
        ({"label": "mod:mar:mdq:ex:model-K-of-Q", "environment": "ex"}, "example", "Example (model K of Q)"),
        ({"label": "adequate-definition-module-valued-functor", "file": "adequate.tex", "environment": "definition"},
         "definition", "Definition (module valued functor)"),
        ({}, "theorem", "Theorem"),
    ],
)
def test_text_statements_are_titled_by_kind_number_and_name_not_a_path(meta: dict, kind: str, expected: str) -> None:
    statement = _statement(name="content/logic/bisimulations/definition-1", kind=kind, meta=meta)
    assert title(statement) == expected
    assert title(Statement(id="m:x", source="m", kind="theorem", name="Nat.succ_le", statement="", language="lean")) == "Nat.succ_le"


def test_docstring_links_are_links_when_http_and_text_otherwise() -> None:
    out = math_markdown("See [Stacks 00DV](https://stacks.math.columbia.edu/tag/00DV) and "
                        "[x](javascript:alert(1)) and [y](data:text/html,z).", 1000, markdown=True)
    assert re.findall(r'href="([^"]*)"', out) == ["https&#58;//stacks&#46;math&#46;columbia&#46;edu/tag/00DV"]
    assert ">Stacks 00DV</a>" in out and 'rel="noopener noreferrer"' in out
    assert "javascript:" not in out and "&#91;x&#93;&#40;javascript&#58;alert&#40;1&#41;&#41;" in out
    assert _tags(out) <= OUR_TAGS


def test_refs_link_to_the_records_they_name_and_latex_prose_markup_is_read() -> None:
    text = ("By Lemma \\ref{lemma-a} and \\ref{lemma-b} \\cite[Ch. 2]{Mat} we get\\\\ this\\footnote{Really.}"
            "\\index{ring} \\medskip\\noindent done.")
    out = math_markdown(text, 1000, refs={"lemma-a": Related("stacks:00A1", "Lemma 1.2 · 00A1", "stacks")})
    assert '<a href="?id&#61;stacks&#37;3A00A1" title="stacks&#58;00A1">Lemma 1&#46;2 · 00A1</a>' in out
    assert "&#91;lemma&#45;b&#93;" in out and "&#91;Mat, Ch&#46; 2&#93;" in out
    assert "get<br> this (Really&#46;)" in out and "index" not in out and "noindent" not in out
    assert _shown(out).endswith("done.")


def test_lean_cards_offer_the_name_check_and_import_to_copy() -> None:
    statement = Statement(id="mathlib:Nat.succ_le", source="mathlib", kind="theorem", name="Nat.succ_le",
                          statement="theorem succ_le : n < m ↔ n + 1 ≤ m", language="lean", module="Mathlib.Order.Basic")
    out = card_markdown(Card(statement))
    copies = [html.unescape(c) for c in re.findall(r'class="ts-copy" title="([^"]*)"', out)]
    assert copies == ["Nat.succ_le", "#check Nat.succ_le", "import Mathlib.Order.Basic"]
    assert 'title="&#35;check Nat&#46;succ&#95;le">&#35;check</button>' in out
    hostile = card_markdown(Card(Statement(id="e:x", source="e", kind="theorem", name='x"><img src=y onerror=z>',
                                           statement="", language="lean")))
    assert "<img" not in hostile and _tags(hostile) <= OUR_TAGS
    assert html.unescape(re.findall(r'class="ts-copy" title="([^"]*)"', hostile)[0]) == 'x"><img src=y onerror=z>'  # one attribute
    assert "ts-copy" not in card_markdown(Card(_statement(statement="Let $R$ be a ring.")))


def test_long_statements_fold_with_show_all() -> None:
    short = card_markdown(Card(_statement(statement="Let $R$ be a ring.")))
    assert "ts-fold" not in short and "show all" not in short
    for text in ("word " * 200, "line\n" * 9):
        out = card_markdown(Card(_statement(statement=text)))
        assert '<div class="ts-fold">' in out and '<details class="ts-more">' in out and "show all" in out
        assert out.index("ts-fold") < out.index("ts-latex") < out.index("ts-more")


def test_a_deprecated_declaration_says_what_replaces_it() -> None:
    old = Statement(id="m:old", source="m", kind="theorem", name="old", statement="theorem old : True",
                    language="lean", meta={"deprecated": {"since": "2025-01-01", "use": "new_name"}})
    markdown = card_markdown(Card(old))
    assert 'class="ts-deprecated"' in markdown
    assert literal("Deprecated since 2025-01-01: use new_name instead.") in markdown
    assert 'class="ts-deprecated"' not in card_markdown(Card(Statement(
        id="m:new_name", source="m", kind="theorem", name="new_name", statement="theorem new_name : True",
        language="lean")))


def test_latex_prose_shows_what_its_markup_means_and_never_tex() -> None:
    """Groups that span a formula, footnotes holding math, accents, references, links,
    lists, math written in prose: read, with every formula kept and no TeX in the words."""
    body = ("A {\\it module-valued $F$ functor} is\\footnote{See $X$ and {\\bf this}.} the {\\v C}ech one, "
            "\\olref[a][b]{fig:x}, \\href{https://x.org}{MO}, \\href{javascript:alert(1)}{bad}, "
            "\\cite[p.~3, $n$]{K}, ``quoted'' -- \\S 3\\index{$z$}. \\begin{itemize}\\item[(i)] one\\end{itemize}"
            "\\ensuremath{\\mathcal{U}}\\xspace and \\mystery{kept} words.")
    s = Statement(id="b:1", source="b", kind="example", name="1", statement=body, language="latex")
    texts, shown = shown_texts(s)
    assert shown is not None
    assert "<em>module&#45;valued $F$ functor</em>" in shown.html  # emphasis around the formula
    assert " (See $X$ and <strong>this</strong>&#46;)" in shown.html  # the footnote where it is called
    assert '<a href="https&#58;//x&#46;org" target="_blank" rel="noopener noreferrer">MO</a>' in shown.html
    assert "javascript" not in shown.html and "bad" in shown.html
    assert "\\(\\mathcal{U}\\)" in shown.html  # math written in prose is math
    words = texts["statement"]
    assert "Čech" in words and "[fig:x]" in words and "“quoted” – §3" in words and "• (i)" in words
    assert "[K, p.\u00a03, " in words and "kept words" in words  # TeX's tie is a no-break space
    assert "\\" not in words and "$" not in words
    assert shown.unread == ["mystery"] and shown.math_lost == 0  # $z$ is in \index: TeX prints none of it


def test_a_proof_tree_written_in_prose_is_typeset_as_math() -> None:
    s = Statement(id="b:2", source="b", kind="example", name="2", language="latex",
                  statement="Here:\n\\begin{prooftree}\\AxiomC{$A$}\\UnaryInfC{$A \\lor B$}\\end{prooftree}\nends.")
    (tree,) = card_math(s)
    assert tree.startswith("\\[") and "\\dfrac{A}{A \\vee B}" in tree and "prooftree" not in tree
    assert "AxiomC" not in shown_texts(s)[0]["statement"]


def test_a_statement_without_a_name_is_titled_by_its_section_or_chapter() -> None:
    def titled(meta: dict) -> str:
        return title(Statement(id="b:3", source="b", kind="example", name="3", statement="x", language="latex",
                               meta=meta))

    assert titled({"section": "Prime ideals", "chapter": "Rings"}) == "Example in Prime ideals"
    assert titled({"chapter": "Rings"}) == "Example in Rings"
    assert titled({"chapter": "Rings", "note": "Cohen"}) == "Example (Cohen)"
    assert titled({}) == "Example"
