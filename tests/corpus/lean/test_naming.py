"""Lean naming rules on source text: unnamed instances, `to_additive` names and statements."""

from __future__ import annotations

import gzip
import json

import pytest

from search.corpus.lean.instance_names import instance_name
from search.corpus.lean.syntax import clean_name, split_name
from search.corpus.lean.guess_name import split_case
from search.corpus.lean.to_additive import ADDITIVE, additive_name, additive_signature
from search.corpus.lean.to_dual import DUAL, dual_signature


def test_names_unquote_and_drop_universes() -> None:
    assert split_name("Foo.«bar.baz».qux") == ["Foo", "bar.baz", "qux"]
    assert clean_name("Foo.«weird name».{u, v}") == "Foo.weird name"
    assert split_name("") == []


@pytest.mark.parametrize(
    ("signature", "namespace", "expected"),
    [
        ("instance [DecidableEq V] : Fintype (SimpleGraph V)", "", "instFintypeSimpleGraphOfDecidableEq"),
        # binders the conclusion depends on, and repeated subterms, say nothing
        ("instance {V : Type u} [Fintype V] [DecidableEq V] : Fintype (SimpleGraph V)", "",
         "instFintypeSimpleGraphOfDecidableEq"),
        ("instance : PseudoMetricSpace (Hamming β)", "Hamming", "Hamming.instPseudoMetricSpace"),
        ("instance : Algebra R (CliffordAlgebra Q)", "", "instAlgebraCliffordAlgebra"),
        ("instance : IsDedekindDomain (𝓞 K)", "NumberField.RingOfIntegers",
         "NumberField.RingOfIntegers.instIsDedekindDomain"),
        ("instance : FunLike (PMF α) α ℝ≥0∞", "PMF", "PMF.instFunLikeENNReal"),
        ("instance [Monoid α] [Monoid β] : Monoid (α × β)", "", "instMonoidProd"),
        ("instance (n : ℕ) [NeZero n] : CommRing (Fin n)", "", "instCommRingFinOfNeZero"),
        ("instance : Module R (M →ₗ[R] N)", "", "instModuleLinearMapId"),
        ("instance : CoeFun (α ≃ β) fun _ => α → β", "", "instCoeFunEquivForall"),
        ("instance (priority := 100) [Ring R] : Module R R", "", "instModuleOfRing"),
        # a written name is not part of the generated one
        ("instance instCeilDiv : CeilDiv ℕ ℕ", "Nat", "Nat.instCeilDiv"),
        # generalized field notation on a term, unknown glued notation (`R≥0`)
        ("instance [NeZero N] : (Gamma1 N).FiniteIndex", "", "instFiniteIndexGamma1OfNeZero"),
        ("instance : IsScalarTower R≥0 S M", "Nonneg", "Nonneg.instIsScalarTower"),
        ("instance : Foo.{u} (Bar.{v} α)", "", "instFooBar"),
        # `Category* C` gives no `OfCategory`, as in Lean's name for this instance
        ("instance {J C : Type*} [Category* J] [Category* C] [HasColimitsOfShape J C] [Preadditive C] :\n"
         "    (colim (J := J) (C := C)).Additive", "", "instAdditiveColimOfHasColimitsOfShapeOfPreadditive"),
    ],
)
def test_instance_name(signature: str, namespace: str, expected: str) -> None:
    assert instance_name(signature, namespace) == expected


def test_instance_name_project_suffix() -> None:
    """Lean appends `_<project>` when the name mentions no constant of the project."""
    project = {"Point", "FakeLib.Point"}
    assert instance_name("instance : Inhabited (List Nat)", "", project, "FakeLib") == (
        "instInhabitedListNat_fakeLib")
    assert instance_name("instance : Inhabited (Point Nat)", "FakeLib", project, "FakeLib") == \
        "FakeLib.instInhabitedPointNat"


def test_split_case_follows_mathlib_example() -> None:
    assert split_case("InvHMulLEConjugate₂SMul_ne_top") == [
        "Inv", "HMul", "LE", "Conjugate₂", "SMul", "_", "ne", "_", "top"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("mul_comm", "add_comm"),
        ("mul_inv_cancel'", "add_neg_cancel'"),
        ("prod_mul_distrib", "sum_add_distrib"),
        ("CommMonoid", "AddCommMonoid"),
        ("IsUnit.mul", "IsAddUnit.add"),
        ("isSquare_iff", "even_iff"),
        ("one_le_two", "nonneg_two"),
        ("pow_succ", "nsmul_succ"),
        ("zpow_natCast", "zsmul_natCast"),
        ("smul_comm", "vadd_comm"),
        ("Subgroup.mul_mem", "AddSubgroup.add_mem"),
        ("Prod.fst_mul", "Prod.fst_add"),
    ],
)
def test_additive_name(name: str, expected: str) -> None:
    assert additive_name(name) == expected


def test_additive_name_prefers_known_translations() -> None:
    assert ADDITIVE.component("DivInvMonoid") == "SubNegAddMonoid"
    assert additive_name("DivInvMonoid.mul_inv", {"DivInvMonoid": "SubNegMonoid"}) == "SubNegMonoid.add_neg"


def test_explicit_additive_name_is_relative_to_the_translated_namespace() -> None:
    table = {"Subgroup": "AddSubgroup"}
    assert ADDITIVE.explicit("Subgroup.foo", "add_foo", table) == "AddSubgroup.add_foo"
    assert ADDITIVE.explicit("Subgroup.foo", "AddSubgroup.bar", table) == "AddSubgroup.bar"
    assert ADDITIVE.explicit("Subgroup.foo", "_root_.bar", table) == "bar"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("le_sup_left", "le_inf_left"),
        ("IsLUB.unique", "IsGLB.unique"),
        ("Set.Ioi_subset_Ici", "Set.Iio_subset_Iic"),
        ("tendsto_atTop", "tendsto_atBot"),
        ("Order.succ_le_iff", "Order.pred_le_iff"),
        ("wellFoundedLT_iff", "wellFoundedGT_iff"),
        ("isColimit_cocone", "isLimit_cone"),
    ],
)
def test_dual_name(name: str, expected: str) -> None:
    assert DUAL.guess(name) == expected


def test_dual_name_hints_translate_both_ways() -> None:
    hinted = DUAL.with_hints([("Left", "Right")])
    assert hinted.guess("Set.iUnion_Ioc_right") == "Set.iUnion_Ico_left"
    assert hinted.guess("foo_left") == "foo_right"
    assert DUAL.guess("Set.iUnion_Ioc_right") == "Set.iUnion_Ico_right"


def test_dual_signature_reverses_the_order() -> None:
    assert dual_signature(" (a b : α) : a ⊓ b ≤ a ∧ IsLUB s ⊤") == " (a b : α) : a ⊔ b ≥ a ∧ IsGLB s ⊥"


@pytest.mark.parametrize(
    ("signature", "expected"),
    [
        ("theorem mul_comm [CommMonoid M] (a b : M) : a * b = b * a",
         "theorem add_comm [AddCommMonoid M] (a b : M) : a + b = b + a"),
        ("theorem mul_inv_cancel (a : G) : a * a⁻¹ = 1", "theorem add_neg_cancel (a : G) : a + -a = 0"),
        ("lemma pow_two (a : M) : a ^ 2 = a * a", "lemma nsmul_two (a : M) : 2 • a = a + a"),
        ("theorem foo (h : f x⁻¹ = 1) : Fintype.card G = 1",
         "theorem foo (h : f (-x) = 0) : Fintype.card G = 1"),
        ("theorem orderOf_eq_one_iff : orderOf x = 1 ↔ x = 1",
         "theorem addOrderOf_eq_zero_iff : addOrderOf x = 1 ↔ x = 0"),
        ("theorem one_add_one : (1 : ℕ) + 1 = 2", "theorem zero_add_zero : (1 : ℕ) + 1 = 2"),
        ("theorem prod_pow (s : Finset ι) : ∏ i ∈ s, f i ^ n = (∏ i ∈ s, f i) ^ n",
         "theorem sum_nsmul (s : Finset ι) : ∑ i ∈ s, n • f i = n • (∑ i ∈ s, f i)"),
        ("theorem mul_self {G : Type*} {H : Sort*} (a : G) : a * a = a ^ 2",
         "theorem add_self {G : Type*} {H : Sort*} (a : G) : a + a = 2 • a"),
        # `//`, `⁻¹'` and `∏ᶠ` are one token each: no `--` comment, no `-f'`, `∑ᶠ` for `∏ᶠ`
        ("theorem prod_subtype {s : Finset {x // p x}} : ∏ᶠ i, f i = f a",
         "theorem sum_subtype {s : Finset {x // p x}} : ∑ᶠ i, f i = f a"),
        ("theorem preimage_smul (a : α) (t : Set β) : (fun x ↦ a • x) ⁻¹' t = a⁻¹ • t",
         "theorem preimage_vadd (a : α) (t : Set β) : (fun x ↦ a +ᵥ x) ⁻¹' t = -a +ᵥ t"),
        # `|a|ₘ`, `a⁺ᵐ` and `a⁻ᵐ` lose their multiplicative mark; a power of `|a|ₘ` is a multiple of `|a|`
        ("lemma mabs_mul_le (a b : α) : |a * b|ₘ ≤ |a|ₘ * |b|ₘ", "lemma abs_add_le (a b : α) : |a + b| ≤ |a| + |b|"),
        ("theorem mk_le_mk : mk a ≤ mk b ↔ ∃ n, |b|ₘ ≤ |a|ₘ ^ n", "theorem mk_le_mk : mk a ≤ mk b ↔ ∃ n, |b| ≤ n • |a|"),
        ("theorem oneLePart_of_le_one : a ≤ 1 → a⁺ᵐ = 1", "theorem posPart_of_nonpos : a ≤ 0 → a⁺ = 0"),
        # `·` is an operand; `f^[n]` is `f` iterated, no power
        ("theorem mem_closure : x = a.prod (f · ^ ·)", "theorem mem_closure : x = a.sum (· • f ·)"),
        ("lemma pow_iterate (k : ℕ) (n : ℕ) : (fun x : M ↦ x ^ k)^[n] = (· ^ (k ^ n))",
         "lemma nsmul_iterate (k : ℕ) (n : ℕ) : (fun x : M ↦ k • x)^[n] = ((k ^ n) • ·)"),
    ],
)
def test_additive_signature(signature: str, expected: str) -> None:
    assert additive_signature(signature) == expected


def _shared_records(shared_dir, source: str) -> list[dict]:
    with gzip.open(shared_dir / "corpora" / "lean" / f"{source}.jsonl.gz", "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


@pytest.mark.integration
def test_naming_on_shared_mathlib(shared_dir) -> None:
    """Two checks against real declarations.

    * Named instances called `inst...` (written without dots): how often does the generated
      name equal the written one?  Authors often pick shorter names than Lean would, so the
      rate is a floor for the heuristic, not its accuracy (measured: 55.4%).
    * Classes and structures tagged `@[to_additive]` have hand-written additive versions:
      how often is `additive_name` one of the dataset's names (measured: 95.5%)?
    """
    rows = _shared_records(shared_dir, "mathlib")
    names = {r["name"] for r in rows if r["name"]}
    project = {".".join(n.split(".")[k:]) for n in names for k in range(n.count(".") + 1)}
    checked = same = 0
    for r in rows:
        written = r["name"] or ""
        prefix = r["namespace"] + "." if r["namespace"] else ""
        short = written[len(prefix):] if written.startswith(prefix) else written
        if r["kind"] != "instance" or "." in short or not short.startswith("inst"):
            continue
        checked += 1
        same += instance_name(r["signature"], r["namespace"], project, "Mathlib") == written
    rate = same / checked
    print(f"instance_name reproduces {same}/{checked} written inst* names ({rate:.1%})")
    assert checked > 2500 and rate >= 0.53

    tagged = [r for r in rows if r["kind"] in ("class", "structure") and "to_additive" in r["attributes"]]
    found = sum(additive_name(r["name"]) in names for r in tagged)
    rate = found / len(tagged)
    print(f"additive_name finds {found}/{len(tagged)} hand-written additive classes ({rate:.1%})")
    assert len(tagged) > 150 and rate >= 0.93
    assert additive_name("Monoid") in names
    assert additive_name("Submonoid.one_mem") == "AddSubmonoid.zero_mem"
