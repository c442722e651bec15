"""The LaTeX adapter on hand-written books (tests/fixtures/latex) and on the real archives."""

import re
import json
import tarfile
from collections import Counter
from pathlib import Path

import pytest

from search.corpus import _tex2text
from search.corpus._tex import (
    collect_macros,
    expand_macros,
    read_group,
    read_optional,
    strip_comments,
)
from search.corpus.latex import parse_latex, parse_latex_to_jsonl, source_name
from search.record import Statement

BOOK_URL = "https://github.com/example/book/blob/0123456789abcdef0123456789abcdef01234567/"


def _by_id(statements: list[Statement]) -> dict[str, Statement]:
    return {s.id: s for s in statements}


def _tar(folder: Path, archive: Path) -> Path:
    """Pack `folder` as `<name>/...`, the way the shared archives wrap their text."""
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(folder, arcname=archive.name.removesuffix(".tar.gz"))
    return archive


@pytest.fixture(scope="module")
def book(fixtures_dir: Path) -> dict[str, Statement]:
    return _by_id(parse_latex(fixtures_dir / "latex" / "book"))


# --------------------------------------------------------------------------------------------
# Reading helpers


def test_comments_go_but_escaped_percent_and_lines_stay() -> None:
    text = "a % note\nb \\% c % d\n\\\\% after a line break\n%whole line\ne"
    assert strip_comments(text) == "a \nb \\% c \n\\\\\n\ne"


def test_groups_and_optionals_are_balanced_or_none() -> None:
    assert read_group(r"{a {b} \} c}d", 0) == (r"a {b} \} c", 12)
    assert read_group("{never closed", 0) is None
    assert read_optional("[x {]} [y]] z", 0) == ("x {]} [y]", 11)
    assert read_optional("no bracket", 0) is None


def test_author_macros_expand_boundedly() -> None:
    macros = collect_macros([
        r"\newcommand{\R}{\mathbb{R}} \newcommand\norm[1]{|#1|} \newcommand{\pair}[2][x]{(#1,#2)}"
        r"\def\sq#1{#1^2} \DeclareMathOperator*{\lim}{lim} \let\RR\R \newcommand{\loop}{\loop x}"
        r"\newcommand{\R}{\text{second definitions lose}}"
    ])  # fmt: skip
    expanded = expand_macros(r"\norm{\RR} \pair{y} \pair[z]{w} \sq t \lim \loop \Rx", macros)
    assert expanded == r"|\mathbb{R}| (x,y) (z,w) t^2 \operatorname*{lim} \loop x x x x \Rx"


# --------------------------------------------------------------------------------------------
# A small book with its own declarations


def test_environments_as_the_book_declares_them(book: dict[str, Statement]) -> None:
    assert [(i, s.kind) for i, s in book.items()] == [
        ("book:thm:triangle", "theorem"),
        ("book:analysis/lemma-1", "lemma"),
        ("book:defn:ball", "definition"),
        ("book:analysis/exercise-1", "exercise"),  # \newenvironment{tagged} wraps ex
        ("book:analysis/exercise-2", "exercise"),
        ("book:prop:inner", "proposition"),  # declared through the \defthm macro
        ("book:thm:triangle~2", "corollary"),  # \declaretheorem
        ("book:analysis/remark-1", "remark"),  # \newtheorem*{rmks}{Remarks}
        ("book:lem:later", "lemma"),
        ("book:broken/lemma-2", "lemma"),
        ("book:broken/theorem-1", "theorem"),
    ]


def test_a_labelled_theorem_field_by_field(book: dict[str, Statement]) -> None:
    thm = book["book:thm:triangle"]
    assert thm.name == "thm:triangle" and thm.group == thm.id and thm.source == "book"
    assert thm.statement == (
        r"For $x, y \in \mathbb{R}^n$ we have "
        r"$\lVert x + y \rVert \le \lVert x \rVert + \lVert y \rVert$."
    )
    assert thm.doc == "For x, y ∈ ℝ^n we have ‖ x + y ‖≤‖ x ‖ + ‖ y ‖."
    assert (thm.path, thm.line, thm.end_line) == ("analysis.tex", 6, 8)
    assert thm.url == BOOK_URL + "analysis.tex#L6"
    assert (thm.module, thm.package) == ("analysis", "Analysis")
    assert thm.meta == {
        "chapter": "Analysis",
        "section": "Norms",
        "label": "thm:triangle",
        "note": "Triangle inequality",
        "file": "analysis.tex",
        "environment": "thm",
    }


def test_macros_percent_references_and_notes(book: dict[str, Statement]) -> None:
    lemma = book["book:analysis/lemma-1"]
    assert lemma.statement == (
        r"Costs rose by 5\% in $\mathop{\mathrm{Spec}}(\mathbb{R})$; "
        r"see Theorem~\ref{thm:triangle} and \cite{Rudin}."
    )
    assert lemma.doc == "Costs rose by 5% in Spec(ℝ); see Theorem thm:triangle and [Rudin]."
    assert lemma.deps == ["book:thm:triangle"] and lemma.meta["label"] == ""
    ball = book["book:defn:ball"]
    assert ball.meta["note"] == "Ball [closed] of radius r"
    assert ball.statement == (
        r"The set $\{ y : \lVert y - x \rVert \le r \}$ with $(x, y)$ and $(z, w)$ and ${t}^2$."
    )


def test_wrapper_arguments_and_runaway_macros(book: dict[str, Statement]) -> None:
    tagged = book["book:analysis/exercise-1"]
    assert tagged.statement.startswith(r"Show that $\operatorname{Hom}(A, B)$ is a set")
    assert tagged.statement.count(r"\again") == 16  # 4 doubling passes, then it stops
    assert tagged.meta["environment"] == "tagged" and tagged.meta["section"] == "Maps"


def test_nested_statements_and_their_references(book: dict[str, Statement]) -> None:
    outer, inner = book["book:analysis/exercise-2"], book["book:prop:inner"]
    assert r"\begin{prop}\label{prop:inner}" in outer.statement
    assert outer.deps == ["book:prop:inner", "book:lem:later"]
    assert (inner.statement, inner.line, inner.end_line) == ("Every map is a map.", 35, 37)


def test_duplicates_comments_and_verbatim(book: dict[str, Statement]) -> None:
    duplicate = book["book:thm:triangle~2"]
    assert duplicate.name == "thm:triangle~2"
    assert duplicate.meta["duplicate_of"] == "book:thm:triangle"
    assert sum("duplicate_of" in s.meta for s in book.values()) == 1
    assert not any("inside" in s.statement or "commented" in s.statement for s in book.values())


def test_unbalanced_and_unterminated_bodies(book: dict[str, Statement]) -> None:
    stray = book["book:lem:later"]
    assert stray.statement == r"An unbalanced body: $\{ x$ with a stray } brace."
    assert stray.package == "Broken things" and "unterminated" not in stray.meta
    endless = book["book:broken/lemma-2"]
    assert endless.statement == r"This lemma never ends, and \undefined{ has an open brace."
    assert endless.meta["unterminated"] is True and endless.end_line == 11
    after = book["book:broken/theorem-1"]
    assert (after.meta["section"], after.line) == ("After", 13)


def test_jsonl_rows_carry_meta_as_objects(fixtures_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out" / "book.jsonl"
    assert parse_latex_to_jsonl(fixtures_dir / "latex" / "book", out) == 11
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0]["id"] == "book:thm:triangle" and rows[0]["meta"]["note"] == "Triangle inequality"
    assert Statement(**rows[0]).id == rows[0]["id"]


# --------------------------------------------------------------------------------------------
# Stacks-like layout: tags, per-chapter labels, numbering


def _check_stacks_like(statements: list[Statement], source: str) -> None:
    found = _by_id(statements)
    assert list(found) == [f"{source}:0002", f"{source}:0003", f"{source}:alpha-remarks-untagged",
                           f"{source}:00A1", f"{source}:00A2"]  # fmt: skip
    lemma = found[f"{source}:0003"]
    assert (lemma.name, lemma.kind, lemma.module) == ("0003", "lemma", "alpha")
    assert lemma.package == "Alpha Things"
    assert lemma.url == "https://stacks.math.columbia.edu/tag/0003"
    assert lemma.aliases == ["alpha-lemma-one"]
    assert lemma.statement == (
        "Let $R$ be a ring. Then $\\mathop{\\mathrm{Spec}}(R)$ is quasi-compact, see\n"
        "Definition \\ref{definition-ring}."
    )
    assert lemma.meta == {
        "chapter": "Alpha Things", "section": "Lemmas", "label": "alpha-lemma-one",
        "note": "Key lemma", "file": "alpha.tex", "environment": "lemma",
        "reference": r"\cite[Lemma 3]{Book}", "number": "1.2.2", "tag": "0003",
    }  # fmt: skip
    assert lemma.deps == [f"{source}:0002"]
    assert found[f"{source}:00A2"].deps == [f"{source}:0003", f"{source}:00A1"]
    assert found[f"{source}:0002"].meta["number"] == "1.1.1"
    untagged = found[f"{source}:alpha-remarks-untagged"]
    assert (untagged.kind, untagged.meta["number"], untagged.url) == ("remark", "1.2.3", "")
    assert "tag" not in untagged.meta


def test_stacks_layout_from_a_folder(fixtures_dir: Path) -> None:
    _check_stacks_like(parse_latex(fixtures_dir / "latex" / "stackslike"), "stackslike")


def test_stacks_layout_from_an_archive(fixtures_dir: Path, tmp_path: Path) -> None:
    archive = _tar(fixtures_dir / "latex" / "stackslike", tmp_path / "stacks.tar.gz")
    assert source_name(archive) == "stacks"
    _check_stacks_like(parse_latex(archive), "stacks")


def test_archive_reads_manifest_beside_it(fixtures_dir: Path, tmp_path: Path) -> None:
    archive = _tar(fixtures_dir / "latex" / "book", tmp_path / "mybook.tar.gz")
    (tmp_path / "manifest.json").write_text(
        json.dumps({"mybook": {"upstream": "https://github.com/o/r", "commit": "c0ffee"}})
    )
    first = parse_latex(archive)[0]
    assert first.id == "mybook:thm:triangle"
    assert first.url == "https://github.com/o/r/blob/c0ffee/analysis.tex#L6"
    assert parse_latex(archive, source="other")[0].url == ""


# --------------------------------------------------------------------------------------------
# Open Logic conventions


def test_open_logic_labels_references_and_tokens(fixtures_dir: Path) -> None:
    found = _by_id(parse_latex(fixtures_dir / "latex" / "ollike"))
    assert list(found) == [
        "ollike:fol:syn:frm:defn:formula",
        "ollike:fol:syn:frm:prop:finite",
        "ollike:content/syntax/formulas/problem-1",
    ]
    definition = found["ollike:fol:syn:frm:defn:formula"]
    assert definition.statement == "A formula is built from atoms; formulas are finite."
    assert (definition.kind, definition.module) == ("definition", "syntax")
    assert definition.package == "Syntax of Formulas"
    assert definition.meta["section"] == "Formulas"
    assert definition.url == (
        "https://github.com/example/ollike/blob/fedcba9876543210fedcba9876543210fedcba98/"
        "content/syntax/formulas.tex#L12"
    )
    assert found["ollike:fol:syn:frm:prop:finite"].deps == ["ollike:fol:syn:frm:defn:formula"]
    problem = found["ollike:content/syntax/formulas/problem-1"]
    assert problem.kind == "problem" and problem.deps == ["ollike:fol:syn:frm:prop:finite"]


# --------------------------------------------------------------------------------------------
# Robustness


def test_odd_input_never_crashes(tmp_path: Path) -> None:
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "a.tex").write_text(
        "\\newcommand{\\x}\n\\def\\y#1#2{\n\\begin{theorem}[unclosed note\n{{{{ \\end{theorem}\n"
        "\\begin{lemma}\\label{}\\end{lemma}\\begin{lemma}\\section{\n\\begin{definition}$x^{$"
    )
    (odd / "b.tex").write_bytes(b"\\begin{lemma}\xff\xfe bad bytes\\end{lemma}")
    statements = parse_latex(odd)
    assert [s.kind for s in statements] == ["theorem", "lemma", "lemma", "definition", "lemma"]
    unterminated = [s.meta.get("unterminated", False) for s in statements]
    assert unterminated == [False, False, True, True, False]


def test_rendering_falls_back_to_the_latex(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(latex: str, depth: int) -> str:
        raise ValueError("parser failure")

    monkeypatch.setattr(_tex2text, "_render", broken)
    assert _tex2text.latex_to_text("Some  $x$\n\n\n\nand \\emph{y}") == "Some $x$\n\nand \\emph{y}"


# --------------------------------------------------------------------------------------------
# The real archives (../shared)

#: Measured on the shared archives (manifest commits); a new corpus commit may shift a few.
MEASURED = {
    "stacks": {"lemma": 12587, "definition": 1721, "remark": 1048, "example": 449, "exercise": 386,
               "proposition": 330, "theorem": 214, "situation": 124},
    "openlogic": {"definition": 447, "problem": 438, "proposition": 391, "theorem": 190,
                  "example": 165, "lemma": 137, "corollary": 69, "axiom": 10, "remark": 6,
                  "convention": 1},
    "hott": {"lemma": 181, "exercise": 177, "theorem": 141, "definition": 102, "corollary": 60,
             "example": 46, "remark": 37, "axiom": 3},
    "napkin": {"example": 573, "definition": 468, "problem": 369, "theorem": 268, "question": 240,
               "exercise": 192, "remark": 181, "proposition": 96, "abuse of notation": 70,
               "lemma": 59, "corollary": 33, "step": 8, "claim": 7, "fact": 5},
    "cring": {"proposition": 292, "definition": 246, "example": 245, "exercise": 131,
              "theorem": 116, "lemma": 111, "corollary": 79, "remark": 55, "question": 4,
              "sublemma": 1},
}  # fmt: skip


def _close(counts: Counter, expected: dict[str, int]) -> bool:
    return set(counts) == set(expected) and all(
        abs(counts[kind] - n) <= max(2, n // 100) for kind, n in expected.items()
    )


@pytest.fixture(scope="module")
def stacks(shared_dir: Path) -> dict[str, Statement]:
    return _by_id(parse_latex(shared_dir / "corpora" / "latex" / "stacks.tar.gz"))


@pytest.mark.integration
def test_stacks_tag_056U(stacks: dict[str, Statement]) -> None:
    lemma = stacks["stacks:056U"]
    assert (lemma.name, lemma.kind, lemma.module) == ("056U", "lemma", "varieties")
    assert lemma.url == "https://stacks.math.columbia.edu/tag/056U"
    assert lemma.meta["label"] == "varieties-lemma-smooth-separable-closed-points-dense"
    assert lemma.meta["number"] == "33.25.6"
    assert "is smooth over $\\mathop{\\mathrm{Spec}}(k)$" in lemma.statement
    assert "finite separable" in lemma.doc and "dense in X" in lemma.doc
    assert stacks["stacks:00DV"].meta["note"] == "Nakayama's lemma"
    assert stacks["stacks:00DV"].meta["number"] == "10.20.1"


@pytest.mark.integration
def test_stacks_counts_and_ids(stacks: dict[str, Statement]) -> None:
    assert _close(Counter(s.kind for s in stacks.values()), MEASURED["stacks"])
    assert all(s.meta.get("tag") == s.name for s in stacks.values())
    assert sum(bool(s.deps) for s in stacks.values()) > 3000


@pytest.mark.integration
@pytest.mark.parametrize("source", ["openlogic", "hott", "napkin", "cring"])
def test_other_archives(shared_dir: Path, source: str) -> None:
    statements = parse_latex(shared_dir / "corpora" / "latex" / f"{source}.tar.gz")
    assert _close(Counter(s.kind for s in statements), MEASURED[source])
    assert len({s.id for s in statements}) == len(statements)
    assert all(s.url.startswith("https://github.com/") and s.package for s in statements[:50])


def test_headings_and_notes_are_text_with_macros_expanded_and_no_math_lost(tmp_path: Path) -> None:
    """A chapter title holding an author's macro in math, a section holding a command nothing
    defines, a note with a link: each as its words, no formula dropped."""
    folder = tmp_path / "headings"
    folder.mkdir()
    (folder / "ring.tex").write_text(
        "\\newcommand{\\Spec}{\\operatorname{Spec}}\n\\newtheorem{theorem}{Theorem}\n"
        "\\chapter{The $\\Spec$ of a ring}\n\\section{On $\\undefinedthing$ and {\\v C}ech rings}\n"
        "\\begin{theorem}[Mentioned in \\href{https://x.org/a}{MathOverflow}]\nA body.\n\\end{theorem}\n")
    (theorem,) = parse_latex(folder)
    assert theorem.meta["chapter"] == theorem.package == "The Spec of a ring"
    assert theorem.meta["section"] == "On undefinedthing and Čech rings"
    assert theorem.meta["note"] == "Mentioned in MathOverflow"


@pytest.mark.integration
def test_no_heading_or_note_of_the_shared_texts_holds_tex(shared_dir: Path) -> None:
    """cring's chapter `The $\\spec$ of a ring` (a macro its archive does not define) keeps its
    word, napkin's notes with `\\href` their text; no heading, section or note holds TeX."""
    shown = {}
    for source in ("cring", "napkin", "hott", "openlogic"):
        for s in parse_latex(shared_dir / "corpora" / "latex" / f"{source}.tar.gz"):
            shown[s.id] = s
    assert shown["cring:primenoetherian"].meta["chapter"] == "The spec of a ring"
    assert shown["napkin:tex/calculus/p-adic/problem-3"].meta["note"] == "Mentioned in MathOverflow"
    tex = re.compile(r"\\[A-Za-z]+|\$")
    assert [s.id for s in shown.values() if any(tex.search(str(s.meta.get(k) or "")) for k in
                                                ("chapter", "section", "note"))] == []
