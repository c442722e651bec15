"""Math from books made into math that KaTeX, as Gradio ships it, can typeset.

The LaTeX of the Stacks Project and the textbooks is written for TeX with the authors' own
packages and macros; KaTeX draws what it does not know in red (`\\label` in a display, an
author's `\\lif`) or gives up on the whole span (an `\\xymatrix` diagram, a proof tree). Before
a card hands a span to KaTeX, `clean_math` rewrites what KaTeX cannot take:

- `\\label{...}` is dropped; `\\ref`, `\\eqref` and `\\cite` become their key as text;
  `\\href{url}{text}` its text (KaTeX would not link it: the page does not trust it);
- `\\ensuremath{x}` is `{x}`, `\\mbox` is `\\text`, `\\intertext{...}` a row of text;
- an `\\xymatrix` commutative diagram becomes an `array` with its arrows (`xymatrix_array`);
- a `bussproofs` proof tree (`\\AxiomC`, `\\UnaryInfC`, ...) becomes nested fractions;
- a TikZ picture, a `tabular` or a `\\Qcircuit` becomes a note to see the source;
- a `\\raisebox` around a sized delimiter (`\\bigg\\}`, which KaTeX has in math only) is
  its body as math;
- several equation tags in one display sit beside their rows as `\\qquad(...)`;
- a symbol KaTeX has for text only (`\\ss`, `\\ae`; TeX prints them in math too) is set in
  `\\text`;
- any other command that KaTeX does not know (an author's macro the corpus left unexpanded),
  or a KaTeX colour command without its argument, is written as its name in roman type, and
  unbalanced braces are balanced.

`prepare` runs first, on the whole text, so that Gradio finds the spans the author meant:
escaped dollars, `\\\\[1ex]`, `\\mathchoice` and math inside `\\text` inside math would
otherwise open or close spans. Open Logic's conditional text (`\\iftag{FOL}{A}{B}`, in prose
and in math alike) is resolved there too, to the branch its default build prints.

Which commands KaTeX knows is read from the KaTeX that the page loads: the `auto-render`
module among the installed gradio package's frontend assets (`python -m search.ui.math_check`
typesets every card's math with that same file, to count what still fails).

One module a job: `spans` (the two functions above), `commands` (what KaTeX knows),
`groups` (TeX's brace groups and arguments), `open_logic`, `xymatrix`, `proof_tree`.
"""

from __future__ import annotations

from search.ui.katex.commands import (
    auto_render_script,
    colour_commands,
    known_commands,
    text_symbols,
)
from search.ui.katex.open_logic import tags_resolved
from search.ui.katex.proof_tree import proof_tree
from search.ui.katex.spans import DOLLAR, clean_math, prepare
from search.ui.katex.xymatrix import xymatrix_array

__all__ = [
    "DOLLAR", "auto_render_script", "clean_math", "colour_commands", "known_commands", "prepare",
    "proof_tree", "tags_resolved", "text_symbols", "xymatrix_array",
]
