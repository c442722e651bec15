"""Plain-text renderings of LaTeX bodies with pylatexenc's LatexNodes2Text, made fast enough.

pylatexenc reads one token per character, which costs about a minute for the Stacks Project's
8 MB of statement bodies. Two changes keep its output but cut the work several-fold:
runs of plain characters (letters, digits, spaces, basic punctuation) render as themselves, so
each run is swapped for one private-use placeholder character before parsing and restored
afterwards; and only the specials that change text (`~`, dashes, quotes) are looked for at
every position. Large batches are also spread over processes.
"""

from __future__ import annotations

import os
import re
from concurrent.futures import ProcessPoolExecutor
from functools import cache, lru_cache

from pylatexenc import latexwalker, macrospec
from pylatexenc.latex2text import (
    LatexNodes2Text,
    MacroTextSpec,
    SpecialsTextSpec,
    get_default_latex_context_db,
)

_PLACEHOLDER_BASE = 0xE000
_PLACEHOLDER_COUNT = 0x1800
_PLACEHOLDER = re.compile("[\ue000-\uf7ff]")
_TOKEN = re.compile(
    r"\\(?:begin|end)\s*\{[^{}]*\}"
    r"|(?P<math>\$\$.+?\$\$|\$(?:\\.|[^$\\])+\$|\\\[.+?\\\]|\\\(.+?\\\))"
    r"|\\[A-Za-z]+|\\."
    r"|(?P<run>[A-Za-z0-9 ,.;:()!?\n]{2,})",
    re.S,
)
_KEPT_SPECIALS = ("~", "--", "---", "``", "''")
#: Reference commands render as the label they point to, citations as their keys.
_REFERENCES = {"ref": "{", "eqref": "{", "cref": "*{", "Cref": "*{", "autoref": "{",
               "olref": "[[[{", "Olref": "[[[{", "hyperref": "[{"}  # fmt: skip
_DROPPED = {"index": "{", "color": "[{", "label": "{"}

#: Below this many bodies a process pool costs more than it saves.
PARALLEL_MIN = 3000


def _last_argument(n, l2tobj) -> str:
    arguments = [a for a in (n.nodeargd.argnlist if n.nodeargd else []) if a is not None]
    return l2tobj.nodelist_to_text([arguments[-1]]) if arguments else ""


def _citation(n, l2tobj) -> str:
    return f"[{_last_argument(n, l2tobj)}]"


def _walker_context() -> macrospec.LatexContextDb:
    default = latexwalker.get_default_latex_context_db()
    context = macrospec.LatexContextDb()
    for category in default.category_list:
        tables = default.d[category]
        context.add_context_category(
            category,
            macros=list(tables["macros"].values()),
            environments=list(tables["environments"].values()),
            specials=[s for chars, s in tables["specials"].items() if chars in _KEPT_SPECIALS],
        )
    specs = {**_REFERENCES, **_DROPPED}
    context.add_context_category(
        "search-corpus",
        macros=[macrospec.MacroSpec(name, spec) for name, spec in specs.items()],
        prepend=True,
    )
    return context


def _text_context():
    context = get_default_latex_context_db()
    macros = [MacroTextSpec(name, simplify_repl=_last_argument) for name in _REFERENCES]
    macros += [MacroTextSpec(name, discard=True) for name in _DROPPED]
    macros.append(MacroTextSpec("cite", simplify_repl=_citation))
    specials = [SpecialsTextSpec("~", " ")]
    context.add_context_category("search-corpus", macros=macros, specials=specials, prepend=True)
    return context


@cache
def _converters() -> tuple[macrospec.LatexContextDb, LatexNodes2Text]:
    return _walker_context(), LatexNodes2Text(latex_context=_text_context())


def _hide(latex: str, math: bool) -> tuple[str, list[str]]:
    """Swap plain runs (and, when `math`, whole formulas) for placeholders: (text, values)."""
    values: list[str] = []

    def hide(match: re.Match) -> str:
        if match.group("run") is not None:
            value = match.group("run")
        elif math and match.group("math") is not None:
            value = _formula_text(match.group("math"))
        else:
            return match.group()
        if len(values) >= _PLACEHOLDER_COUNT:
            return match.group()
        values.append(value)
        return chr(_PLACEHOLDER_BASE + len(values) - 1)

    return _TOKEN.sub(hide, latex), values


def _render(latex: str, math: bool) -> str:
    walker_context, converter = _converters()
    hidden, values = _hide(_PLACEHOLDER.sub("", latex), math)
    walker = latexwalker.LatexWalker(hidden, latex_context=walker_context, tolerant_parsing=True)
    text = converter.nodelist_to_text(walker.get_latex_nodes()[0])
    return _PLACEHOLDER.sub(lambda m: values[ord(m.group()) - _PLACEHOLDER_BASE], text)


@lru_cache(maxsize=1 << 16)
def _formula_text(formula: str) -> str:
    """A formula renders the same wherever it stands, and formulas repeat a lot: cache them."""
    try:
        text = _render(formula, math=False).strip()
    except Exception:  # pylatexenc raises many types (and RecursionError) on odd input
        return formula
    return f"\n{text}\n" if formula.startswith(("$$", "\\[")) else text


def _tidy(text: str) -> str:
    lines = (" ".join(line.split()) for line in text.splitlines())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def latex_to_text(latex: str) -> str:
    """Render LaTeX as plain text; on any parser failure return the LaTeX itself, tidied."""
    try:
        return _tidy(_render(latex, math=True))
    except Exception:  # pylatexenc raises many types (and RecursionError) on odd input
        return _tidy(latex)


def _render_chunk(bodies: list[str]) -> list[str]:
    return [latex_to_text(body) for body in bodies]


def latex_to_text_many(bodies: list[str], workers: int | None = None) -> list[str]:
    """Render many bodies, in parallel when the batch is large and several CPUs exist."""
    workers = workers or min(os.cpu_count() or 1, 8)
    if workers < 2 or len(bodies) < PARALLEL_MIN:
        return _render_chunk(bodies)
    size = -(-len(bodies) // (workers * 4))
    chunks = [bodies[i : i + size] for i in range(0, len(bodies), size)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [text for chunk in pool.map(_render_chunk, chunks) for text in chunk]
