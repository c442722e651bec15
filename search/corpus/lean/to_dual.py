"""`@[to_dual]`: the order-dual declaration Mathlib generates (`le_sup_left` -> `inf_le_left`).

`to_dual` shares `to_additive`'s machinery (`Mathlib.Tactic.Translate`): names are guessed
with its own dictionaries (`top` <-> `bot`, `sup` <-> `inf`, `limit` <-> `colimit`, ...), and
the statement is the original read in the opposite order. Lean translates the elaborated term,
where `LE.le` is its own dual with its arguments swapped; on text, `a ≤ b` becomes `a ≥ b` (the
same proposition as Lean's `b ≤ a`), the lattice symbols and every identifier are translated
through the dictionary.
"""

from __future__ import annotations

from search.corpus.lean.guess_name import NameDictionary
from search.corpus.lean.syntax import render_tokens, term_tokens

#: `ToDual.nameDict` and `abbreviationDict` of the Mathlib this project's shared corpus pins
#: (a tree holding `Mathlib/Tactic/Translate/ToDual.lean` is read with its own).
DUAL = NameDictionary(
    words={
        **{a: (b.capitalize(),) for a, b in (
            ("top", "bot"), ("bot", "top"), ("inf", "sup"), ("sup", "inf"), ("min", "max"), ("max", "min"),
            ("untop", "unbot"), ("unbot", "untop"), ("minimal", "maximal"), ("maximal", "minimal"),
            ("lower", "upper"), ("upper", "lower"), ("below", "above"), ("above", "below"),
            ("least", "greatest"), ("greatest", "least"), ("cofinal", "coinitial"), ("coinitial", "cofinal"),
            ("succ", "pred"), ("pred", "succ"), ("disjoint", "codisjoint"), ("codisjoint", "disjoint"),
            ("atom", "coatom"), ("coatom", "atom"), ("lfp", "gfp"), ("gfp", "lfp"), ("ioi", "iio"),
            ("iio", "ioi"), ("ici", "iic"), ("iic", "ici"), ("ioc", "ico"), ("ico", "ioc"), ("next", "prev"),
            ("prev", "next"), ("heyting", "coheyting"), ("coheyting", "heyting"), ("frame", "coframe"),
            ("coframe", "frame"), ("epigraph", "hypograph"), ("hypograph", "epigraph"), ("epi", "mono"),
            ("terminal", "initial"), ("initial", "terminal"), ("precompose", "postcompose"),
            ("postcompose", "precompose"), ("cone", "cocone"), ("cocone", "cone"), ("cones", "cocones"),
            ("cocones", "cones"), ("fan", "cofan"), ("cofan", "fan"), ("limit", "colimit"), ("colimit", "limit"),
            ("lim", "colim"), ("colim", "lim"), ("limits", "colimits"), ("colimits", "limits"),
            ("product", "coproduct"), ("coproduct", "product"), ("products", "coproducts"),
            ("coproducts", "products"), ("pushout", "pullback"), ("pullback", "pushout"),
            ("pushouts", "pullbacks"), ("pullbacks", "pushouts"), ("span", "cospan"), ("cospan", "span"),
            ("kernel", "cokernel"), ("cokernel", "kernel"), ("kernels", "cokernels"), ("cokernels", "kernels"),
            ("unit", "counit"), ("counit", "unit"), ("monad", "comonad"), ("comonad", "monad"),
            ("monadic", "comonadic"), ("comonadic", "monadic"), ("section", "retraction"),
            ("retraction", "section"),
        )},
        "inf₂": ("Sup₂",), "sup₂": ("Inf₂",), "sinf": ("SSup",), "ssup": ("SInf",),
        "glb": ("LUB",), "lub": ("GLB",),
    },
    abbreviations={
        "wellFoundedLT": "WellFoundedGT", "wellFoundedGT": "WellFoundedLT", "nhdsLT": "NhdsGT",
        "nhdsGT": "NhdsLT", "nhdsLE": "NhdsGE", "nhdsGE": "NhdsLE", "relIsoLT": "RelIsoGT",
        "relIsoGT": "RelIsoLT", "succColimit": "SuccLimit", "predColimit": "PredLimit",
        "codirectedOrder": "DirectedOrder", "directedOrder": "CodirectedOrder",
        "galoisInsertion": "GaloisCoinsertion", "galoisCoinsertion": "GaloisInsertion",
        "leftOrdContinuous": "RightOrdContinuous", "rightOrdContinuous": "LeftOrdContinuous",
        "neTop": "NeBot", "decidableSucc": "DecidablePred", "ofSucc": "OfPred",
    },
)
#: The module that defines them in Mathlib.
DEFINED_IN = "Mathlib.Tactic.Translate.ToDual"

#: Symbols read in the opposite order.
_DUAL_SYMBOLS = {
    "≤": "≥", "≥": "≤", "<": ">", ">": "<", "⊤": "⊥", "⊥": "⊤", "⊔": "⊓", "⊓": "⊔", "⨆": "⨅", "⨅": "⨆",
    "⋖": "⋗", "⋗": "⋖",
}


def dual_signature(signature: str, dictionary: NameDictionary = DUAL) -> str:
    """Best-effort dual statement: order relations reversed (`a ≤ b` -> `a ≥ b`), `⊤`/`⊥`,
    `⊔`/`⊓`, `⨆`/`⨅` exchanged, identifiers through the dictionary (`IsLUB` -> `IsGLB`,
    `atTop` -> `atBot`, `Finset.sup` -> `Finset.inf`). Comments are dropped and whitespace is
    normalised, as for `to_additive`."""
    out = []
    for t in term_tokens(signature):
        if t.kind == "ident":
            out.append(t._replace(text=dictionary.identifier(t.text)))
        elif t.text in _DUAL_SYMBOLS:
            out.append(t._replace(text=_DUAL_SYMBOLS[t.text]))
        else:
            out.append(t)
    return render_tokens(out)
