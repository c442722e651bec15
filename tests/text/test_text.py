from search.record import Statement
from search.text.latex_text import latex_to_text
from search.text.lean_text import binder_classes, decode_name, signature_type, split_identifier, verbalise_lean
from search.text.tokenize import name_tokens, tokenize
from search.text.views import lexical_text, name_view, text_view


def test_split_identifier_follows_lean_name_shapes() -> None:
    assert split_identifier("Nat.succ_le_succ") == ["nat", "succ", "le", "succ"]
    assert split_identifier("IsOpen.inter") == ["is", "open", "inter"]
    assert split_identifier("HasDerivAt") == ["has", "deriv", "at"]
    assert split_identifier("«term_∣_»") == ["term"]


def test_decode_name_keeps_raw_and_decoded_words() -> None:
    assert decode_name("mul_comm") == "mul multiplication comm commutative"
    assert decode_name("Nat.succ_le_succ") == (
        "nat natural number succ successor le less than or equal succ successor"
    )


def test_verbalise_lean_spells_out_notation() -> None:
    assert verbalise_lean("∀ n : ℕ, n ≤ n ^ 2") == "for all n natural numbers n less than or equal n power 2"
    assert verbalise_lean("a ≠ b ↔ ¬a = b") == "a not equal b if and only if not a equals b"


def test_signature_type_splits_at_the_top_level_colon() -> None:
    binders, conclusion = signature_type("theorem foo {a b : ℕ} (h : a ≤ b) : a < b + 1")
    assert (binders, conclusion) == ("{a b : ℕ} (h : a ≤ b)", "a < b + 1")
    assert signature_type("def x := 1") == ("def x := 1", "")
    # an anonymous instance has no name to drop: its first binder stays
    assert signature_type("instance [∀ i, Ring (R i)] [Finite ι] : Ring (∀ i, R i)") == \
        ("[∀ i, Ring (R i)] [Finite ι]", "Ring (∀ i, R i)")
    assert binder_classes("{G : Type*} [Group G] [inst : Fintype G]") == ["Group", "Fintype"]


def test_latex_text_never_raises_and_reads_math() -> None:
    assert latex_to_text(r"$x \in \mathbb{R}$ and $a \leq b$") == "x ∈ℝ and a ≤b"
    assert "real numbers" in verbalise_lean(latex_to_text(r"$\mathbb{R}$"))
    assert latex_to_text(r"unbalanced {$x$ \begin{foo}") == "unbalanced x"


def test_tokenize_stems_and_meets_notation() -> None:
    assert tokenize("Commutativity of multiplication") == ["commut", "multipl"]
    assert "divid" in tokenize("a ∣ b")
    assert name_tokens("Nat.succ_le_succ")[:2] == ["nat.succ_le_succ", "succ_le_succ"]


def test_views_of_formal_and_informal_records() -> None:
    lean = Statement(
        id="mathlib:mul_comm", source="mathlib", kind="theorem", name="mul_comm",
        statement="theorem mul_comm [CommMagma G] (a b : G) : a * b = b * a", language="lean",
        aliases=["commutativity"], module="Mathlib.Algebra.Group.Defs",
    )
    assert name_view(lean) == "mul multiplication comm commutative; commutativity"
    assert text_view(lean) == "mul multiplication comm commutative: comm magma a times b equals b times a"
    assert "algebra group" in lexical_text(lean)
    stacks = Statement(
        id="stacks:056U", source="stacks", kind="lemma", name="056U", language="latex",
        statement=r"If $k$ is separably closed then $X(k)$ is dense.",
        doc="If k is separably closed then X(k) is dense.", meta={"section": "Varieties"},
    )
    assert name_view(stacks) == "lemma (Varieties)"
    assert text_view(stacks) == "If k is separably closed then X(k) is dense."


def test_doc_view_only_where_an_author_wrote_text() -> None:
    from search.text.views import doc_view

    bare = Statement(id="m:x", source="m", kind="theorem", name="x", statement="theorem x : True", language="lean")
    assert doc_view(bare) == ""
    bare.doc = "Truth holds."
    assert doc_view(bare) == "x: Truth holds."
    latex = Statement(id="s:1", source="s", kind="lemma", name="1", statement="$a$", language="latex")
    assert doc_view(latex) == text_view(latex) != ""


def test_sentence_view_only_for_records_said_in_words() -> None:
    from search.text.views import SENTENCE_CHARS, sentence_view, view_texts

    record = Statement(id="m:two_le", source="m", kind="theorem", name="Nat.Prime.two_le",
                       statement="theorem Prime.two_le : ∀ {p : ℕ}, Prime p → 2 ≤ p", language="lean")
    assert sentence_view(record) == "" and view_texts(record)["sentence"] == ""
    record.informal_statement = "For every natural number p, if p is a prime number, then 2 is at most p. " * 5
    said = sentence_view(record)
    name = "nat natural number prime two le less than or equal: "
    assert said.startswith(name + "For every natural number p, if p is a prime number")
    assert len(said) == len(name) + SENTENCE_CHARS
    assert view_texts(record)["sentence"] == said


def test_backslash_is_set_difference_only_outside_latex_control_words() -> None:
    assert "set differ" in " ".join(tokenize("s \\ t ⊆ s"))
    words = tokenize("the measure of $\\emptyset$ in $\\mathbb{R}$")
    assert "set" not in words and "differ" not in words
    assert "mathbb" in words and "emptyset" in words


def test_a_hyphen_between_letters_joins_words_and_is_no_subtraction() -> None:
    assert tokenize("a Noetherian R-module") == ["noetherian", "r", "modul"]
    assert tokenize("a two-sided inverse") == ["two", "side", "invers"]
    assert tokenize("x - y") == tokenize("x-1")[:2] + ["y"] == ["x", "minus", "y"]
    assert tokenize("-x") == ["minus", "x"]


def test_deriv_is_the_derivative_only_where_no_english_word_goes_on() -> None:
    assert tokenize("deriv_mul fderiv derivWithin") == ["deriv", "mul", "f", "deriv", "deriv", "within"]
    # the stemmer gives one stem to these; the derivative's words must not add a second ("ativ", "ation")
    assert tokenize("derivative derivation derived") == ["deriv", "deriv", "deriv"]
