"""The Lean source parser on a small fake Lake project (tests/fixtures/lean)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from search.corpus.lean.commands import command_starts
from search.corpus.lean.derived import members
from search.corpus.lean.lexicon import build_lexicon
from search.corpus.lean.records import head_statement
from search.corpus.lean.syntax import DOC_MARK, lex, tokenize
from search.corpus.lean.project import open_lean_project
from search.corpus.lean.tree import RECORD_FIELDS, parse_lean_to_jsonl, parse_lean_tree

URL = "https://example.org/fake/blob/abc123/"


@pytest.fixture(scope="module")
def records(fixtures_dir: Path) -> list[dict]:
    return parse_lean_tree(fixtures_dir / "lean", source="fake", url_base=URL).records


@pytest.fixture(scope="module")
def by_name(records: list[dict]) -> dict[str, dict]:
    return {r["name"]: r for r in records}


def _parse_text(tmp_path: Path, text: str) -> list[dict]:
    (tmp_path / "M.lean").write_text(text, encoding="utf-8")
    return parse_lean_tree(tmp_path).records


def test_lexer_masks_nested_comments_strings_and_chars() -> None:
    text = 'a /- x /- y -/ theorem t -/ b "-- s" \'"\' c -- d\n/-- doc -/ e'
    lexed = lex(text)
    assert len(lexed.masked) == len(text)
    assert lexed.masked.split() == ["a", "b", "c", DOC_MARK, "e"]
    assert '"-- s"' in lexed.code and "theorem" not in lexed.code
    assert lexed.docs == {text.index("/--"): "doc"}


def test_command_starts_at_column_zero_and_mutual_indentation() -> None:
    text = ("theorem a : p :=\n  b\nmutual\n  def f : N := g\n  def g : N := f\nend\n"
            "@[simp] lemma c : q := d\n")
    tokens = tokenize(lex(text))
    starts = [tokens[i].text for i in command_starts(tokens)]
    assert starts == ["theorem", "mutual", "def", "def", "end", "@["]


def test_lean_files_skip_hidden_directories_and_lakefile(fixtures_dir: Path, tmp_path: Path) -> None:
    root = fixtures_dir / "lean"
    assert [path for path, _ in open_lean_project(root).modules()] == [
        "FakeLib.lean", "FakeLib/Algebra.lean", "FakeLib/Basic.lean", "FakeLib/Generated.lean",
        "FakeLib/Order.lean"]
    (tmp_path / ".lake" / "packages").mkdir(parents=True)
    (tmp_path / ".lake" / "packages" / "Dep.lean").write_text("def dep : Nat := 0\n")
    (tmp_path / "A.lean").write_text("def a : Nat := 0\n")
    (tmp_path / "lakefile.lean").write_text("import Lake\n")
    assert [path for path, _ in open_lean_project(tmp_path).modules()] == ["A.lean"]


def test_record_fields_and_names(records: list[dict]) -> None:
    assert all(list(r) == list(RECORD_FIELDS) for r in records)
    assert [r["name"] for r in records if r["path"] != "FakeLib/Generated.lean"] == [
        # FakeLib/Algebra.lean
        "FakeLib.MyAddMonoid", "FakeLib.MyMonoid", "FakeLib.MyMonoid.mul_one",
        "FakeLib.MyAddMonoid.add_zero", "FakeLib.MyMonoid.mul_twice", "FakeLib.MyAddMonoid.add_twice",
        "FakeLib.MyMonoid.one_mul",
        "FakeLib.MyMonoid.mul_one_iff", "FakeLib.MyMonoid.eq_of_mul_one", "FakeLib.instMyMonoidNat",
        "FakeLib.instInhabitedPointOfDecidableEq", "FakeLib.instInhabitedListNat_fakeLib",
        "FakeLib.instInhabitedListNat_fakeLib_1", "FakeLib.instMonoidColor", "FakeLib.tagged",
        "FakeLib.oldOrigin", "rootAlias", "FakeLib.Even'", "FakeLib.Odd'", "FakeLib.uses_open",
        "FakeLib.after_set_option",
        # FakeLib/Basic.lean
        "FakeLib.Point", "FakeLib.Point.origin", "FakeLib.Point.origin_x", "FakeLib.helper",
        "FakeLib.Point.ext", "FakeLib.Color", "FakeLib.greeting", "FakeLib.quoteChar", "FakeLib.weird name",
        "rootLevel", "FakeLib.universePoly", "FakeLib.uses_helper",
        # FakeLib/Order.lean
        "LabelledPoint", "Decides", "point_eq", "sees_alias", "cannot_see_private", "MyNat", "secret",
        "choice_like", "fixedValue", "fixedValue_def", "local_shadow",
    ]


def test_comments_strings_guarded_and_examples_give_no_record(by_name: dict) -> None:
    for absent in ("FakeLib.hidden_in_comment", "not_a_record", "in_a_string", "FakeLib.guarded"):
        assert absent not in by_name


def test_module_path_line_and_url(by_name: dict) -> None:
    point = by_name["FakeLib.Point"]
    assert (point["module"], point["path"], point["line"], point["end_line"]) == (
        "FakeLib.Basic", "FakeLib/Basic.lean", 19, 25)
    assert point["url"] == URL + "FakeLib/Basic.lean#L19-L25"
    assert (point["source"], point["commit"]) == ("fake", "")
    # attributes start the range; a preceding `set_option .. in` line does not
    for name, lines in [("FakeLib.Point.origin_x", (39, 40)), ("FakeLib.after_set_option", (74, 75)),
                        ("FakeLib.Point.ext", (45, 47)), ("FakeLib.Even'", (61, 64))]:
        assert (by_name[name]["line"], by_name[name]["end_line"]) == lines, name


def test_signature_docstring_and_namespaces(by_name: dict) -> None:
    ext = by_name["FakeLib.Point.ext"]
    assert ext["signature"] == (
        "theorem Point.ext {p q : Point α} (hx : p.x = q.x) (hy : p.y = q.y) :\n    p = q")
    assert ext["namespace"] == "FakeLib" and ext["modifiers"] == ["protected"]
    assert by_name["FakeLib.helper"]["modifiers"] == ["private"]
    assert by_name["FakeLib.Point.origin"]["docstring"] == "The origin."
    assert by_name["FakeLib.MyMonoid.mul_one"]["namespace"] == "FakeLib.MyMonoid"
    assert by_name["LabelledPoint"]["namespace"] == ""
    assert by_name["secret"]["signature"] == "opaque secret : Nat"
    assert by_name["fixedValue"]["kind"] == "irreducible_def"


def test_quoted_root_and_universe_names(by_name: dict) -> None:
    assert by_name["FakeLib.weird name"]["signature"] == "def «weird name» : Nat"
    assert by_name["rootLevel"]["namespace"] == "FakeLib"
    assert by_name["FakeLib.universePoly"]["signature"].startswith("def universePoly.{w} (β : Sort w)")


def test_structure_fields_and_constructors(by_name: dict) -> None:
    assert by_name["FakeLib.Point"]["fields"] == [
        {"name": "x", "type": "α"},
        {"name": "y", "type": "α"},
        {"name": "swap_ok", "type": "y = x", "binders": "(h : x = y)"},
    ]
    assert by_name["FakeLib.Point"]["signature"] == "structure Point (α : Type u)"
    assert by_name["LabelledPoint"]["fields"] == [{"name": "label", "type": "String"}]
    assert by_name["FakeLib.Color"]["constructors"] == ["red", "green", "blue"]
    assert by_name["Decides"]["kind"] == "class inductive"
    assert by_name["Decides"]["constructors"] == ["yes", "no"]


def test_attributes_with_arguments(by_name: dict) -> None:
    tagged = by_name["FakeLib.tagged"]
    assert tagged["attributes"] == ["stacks", "simp"]
    assert tagged["attribute_args"] == ['stacks 0ABC "A comment"', "simp"]
    assert by_name["FakeLib.MyMonoid.one_mul"]["attribute_args"] == ["simp", "to_additive existing"]


def test_unnamed_instances(by_name: dict) -> None:
    inst = by_name["FakeLib.instInhabitedPointOfDecidableEq"]
    assert inst["signature"] == (
        "instance (priority := 100) {α : Type*} [DecidableEq α] : Inhabited (Point α)")
    assert by_name["FakeLib.instMyMonoidNat"]["refs"] == ["FakeLib.MyMonoid"]
    assert by_name["FakeLib.instMonoidColor"]["refs"] == ["FakeLib.Color", "FakeLib.MyMonoid"]


def test_to_additive_twins(by_name: dict) -> None:
    twin = by_name["FakeLib.MyAddMonoid.add_zero"]
    assert twin["derived_from"] == "FakeLib.MyMonoid.mul_one"
    assert twin["signature"] == (
        "theorem FakeLib.MyAddMonoid.add_zero (a : M) : MyAddMonoid.add a MyAddMonoid.zero = a")
    assert (twin["attributes"], twin["docstring"]) == (["simp"], "Adding zero does nothing.")
    assert (twin["line"], twin["end_line"]) == (24, 25)
    assert by_name["FakeLib.MyAddMonoid.add_twice"]["derived_from"] == "FakeLib.MyMonoid.mul_twice"
    assert by_name["FakeLib.MyMonoid.mul_one"]["derived_from"] is None
    # `existing` and structures/classes make no twin
    assert "FakeLib.MyAddMonoid.zero_add" not in by_name
    assert [r["name"] for r in by_name.values() if r["derived_from"] == "FakeLib.MyMonoid"] == []


def test_aliases(by_name: dict) -> None:
    mp = by_name["FakeLib.MyMonoid.eq_of_mul_one"]
    assert (mp["kind"], mp["derived_from"], mp["refs"]) == (
        "theorem", "FakeLib.MyMonoid.mul_one_iff", ["FakeLib.MyMonoid.mul_one_iff"])
    assert mp["signature"] == "theorem eq_of_mul_one (a b : M) : MyMonoid.mul a MyMonoid.one = b → a = b"
    old = by_name["FakeLib.oldOrigin"]
    assert (old["kind"], old["derived_from"], old["attributes"]) == (
        "def", "FakeLib.Point.origin", ["deprecated"])
    assert old["signature"] == "def oldOrigin {α : Type u} [Zero α] : Point α"
    assert by_name["rootAlias"]["derived_from"] == "FakeLib.tagged"


def test_opens(by_name: dict) -> None:
    assert by_name["FakeLib.uses_open"]["opens"] == ["FakeLib", "FakeLib.MyMonoid"]
    assert by_name["FakeLib.tagged"]["opens"] == ["FakeLib"]
    assert by_name["FakeLib.Point"]["opens"] == []


def test_refs_within_and_across_files(by_name: dict) -> None:
    assert by_name["FakeLib.Even'"]["refs"] == ["FakeLib.Odd'"]  # later in the same mutual block
    assert by_name["FakeLib.Odd'"]["refs"] == ["FakeLib.Even'"]
    assert by_name["FakeLib.uses_open"]["refs"] == ["FakeLib.MyMonoid.mul_one"]
    assert by_name["FakeLib.MyMonoid.mul_one_iff"]["refs"] == ["FakeLib.MyMonoid.mul_one"]
    assert by_name["FakeLib.uses_helper"]["refs"] == ["FakeLib.helper"]
    assert by_name["FakeLib.Point.origin_x"]["refs"] == ["FakeLib.Point", "FakeLib.Point.origin"]
    # imported files, opened namespace, protected name written with its prefix
    assert by_name["point_eq"]["refs"] == ["FakeLib.Point", "FakeLib.Point.ext"]
    assert by_name["sees_alias"]["refs"] == ["rootAlias"]
    assert by_name["cannot_see_private"]["refs"] == []  # `helper` is private to Basic
    assert by_name["local_shadow"]["refs"] == ["FakeLib.uses_helper"]  # the binder is local
    assert by_name["FakeLib.Point"]["refs"] == []  # nothing from a file Basic does not import


def test_inline_prefixes_and_to_additive_forms(tmp_path: Path) -> None:
    records = _parse_text(tmp_path, """namespace N

def base : Nat := 0

open N in theorem inline_open : base = base := rfl

set_option autoImplicit true in @[simp] theorem inline_option : True := trivial

@[simp,
  to_additive (attr := norm_cast) add_all "All the arguments."]
theorem mul_all : True := trivial

@[simp, to_additive]
theorem mul_plain (a : Nat) : a * 1 = a := Nat.mul_one a

@[to_additive (attr := to_additive VAdd_lemma, simp) SMul_lemma]
lemma Pow_lemma : True := trivial

end N
""")
    by_name = {r["name"]: r for r in records}
    assert list(by_name) == ["N.base", "N.inline_open", "N.inline_option", "N.mul_all", "N.add_all",
                             "N.mul_plain", "N.add_plain", "N.Pow_lemma", "N.SMul_lemma", "N.VAdd_lemma"]
    assert by_name["N.inline_open"]["opens"] == ["N"] and by_name["N.inline_open"]["line"] == 5
    assert by_name["N.inline_option"]["attributes"] == ["simp"]
    mul_all, add_all = by_name["N.mul_all"], by_name["N.add_all"]
    assert (mul_all["line"], mul_all["end_line"], mul_all["attributes"]) == (9, 11, ["simp", "to_additive"])
    assert mul_all["attribute_args"] == [
        "simp", 'to_additive (attr := norm_cast) add_all "All the arguments."']
    assert (add_all["attributes"], add_all["docstring"], add_all["derived_from"]) == (
        ["norm_cast"], "All the arguments.", "N.mul_all")
    assert by_name["N.add_plain"]["signature"] == "theorem add_plain (a : Nat) : a + 0 = a"
    assert by_name["N.SMul_lemma"]["attributes"] == ["to_additive", "simp"]
    assert by_name["N.VAdd_lemma"]["derived_from"] == "N.SMul_lemma"


def test_parse_lean_to_jsonl(fixtures_dir: Path, tmp_path: Path, records: list[dict]) -> None:
    out = tmp_path / "out" / "lean.jsonl"
    count = parse_lean_to_jsonl(fixtures_dir / "lean", out, source="fake")
    lines = out.read_text(encoding="utf-8").splitlines()
    assert count == len(lines) == len(records)
    first = json.loads(lines[0])
    assert first["name"] == "FakeLib.MyAddMonoid" and first["url"] == "" and first["source"] == "fake"


def test_files_read_in_several_processes_give_the_same_records(fixtures_dir: Path) -> None:
    from search.corpus.lean.tree import parse_sources, to_record

    modules = list(open_lean_project(fixtures_dir / "lean").modules())

    def records(workers: int) -> list[dict]:
        files, decls, tree = parse_sources(modules, workers)
        return [to_record(d, files[d.file], tree, "fake", URL) for d in decls]

    assert records(2) == records(1)


def test_a_protected_field_is_protected_for_the_lexicon(tmp_path: Path) -> None:
    rows = _parse_text(tmp_path, "class Space (X : Type) where\n  /-- open sets -/\n  protected IsOpen : Set X → Prop\n"
                                 "  univ_open : IsOpen Set.univ\n")
    (row,) = rows
    assert row["fields"] == [{"name": "IsOpen", "type": "Set X → Prop", "modifiers": ["protected"]},
                             {"name": "univ_open", "type": "IsOpen Set.univ"}]
    head = head_statement(row, "fake", row["name"])
    fields = {s.name: s for s in members(row, head)}
    assert fields["Space.IsOpen"].meta["modifiers"] == ["protected"]
    assert "modifiers" not in fields["Space.univ_open"].meta
    lexicon = build_lexicon([head, *fields.values()], corrections={})
    assert "Space.IsOpen" in lexicon.protected and "Space.univ_open" not in lexicon.protected
