"""Plain-text renderings of LaTeX bodies with pylatexenc's LatexNodes2Text, made fast enough.

pylatexenc reads one token per character, which costs about a minute for the Stacks Project's
8 MB of statement bodies. These changes keep its output but cut the work about four-fold:
- runs of plain characters (letters, digits, spaces, basic punctuation) render as themselves,
  so each run is swapped for one private-use placeholder character before parsing and
  restored afterwards;
- a formula (`$...$`, `$$...$$`, `\\[...\\]`) or a macro call with braced arguments renders
  the same wherever it stands, and they repeat a lot, so each is rendered once and cached;
- the parsing context is one merged category holding only the specials that change text
  (`~`, dashes, quotes), since pylatexenc tests every category at every character;
- large batches are spread over processes.
"""

from __future__ import annotations

import logging
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

# Partial formulas (`\frac` missing an argument) make pylatexenc log a line each; the rendering
# still succeeds, so only its errors are worth showing.
logging.getLogger("pylatexenc").setLevel(logging.ERROR)

_PLACEHOLDER_BASE = 0xE000
_PLACEHOLDER_COUNT = 0x1800
_PLACEHOLDER = re.compile("[\ue000-\uf7ff]")
_ENVIRONMENT = r"\\(?:begin|end)\s*\{[^{}]*\}"
_FORMULA = r"(?P<math>\$\$.+?\$\$|\$(?:\\.|[^$\\])+\$|\\\[.+?\\\]|\\\(.+?\\\))"
_CALL = r"(?P<call>\\[A-Za-z]+(?:\{(?:[^{}]|\{[^{}]*\})*\})+)"
_REST = r"\\[A-Za-z]+|\\.|(?P<run>[A-Za-z0-9 ,.;:()!?\n]{2,})"
#: What `_hide` swaps at each depth: 2 = a body, 1 = a formula, 0 = a macro call.
_TOKENS = {
    2: re.compile("|".join((_ENVIRONMENT, _FORMULA, _CALL, _REST)), re.S),
    1: re.compile("|".join((_ENVIRONMENT, _CALL, _REST)), re.S),
    0: re.compile("|".join((_ENVIRONMENT, _REST)), re.S),
}
_KEPT_SPECIALS = ("~", "--", "---", "``", "''")
#: Reference commands render as the label they point to, citations as their keys.
_REFERENCES = {"ref": "{", "eqref": "{", "cref": "*{", "Cref": "*{", "autoref": "{",
               "olref": "[[[{", "Olref": "[[[{", "hyperref": "[{", "href": "{{", "url": "{"}  # fmt: skip
_DROPPED = {"index": "{", "color": "[{", "label": "{"}

#: Below this many bodies a process pool costs more than it saves.
PARALLEL_MIN = 3000


# pylatexenc hands the converter to these callbacks only under the parameter name `l2tobj`.
def _last_argument(n: latexwalker.LatexMacroNode, l2tobj: LatexNodes2Text) -> str:
    arguments = [a for a in (n.nodeargd.argnlist if n.nodeargd else []) if a is not None]
    return l2tobj.nodelist_to_text([arguments[-1]]) if arguments else ""


def _citation(n: latexwalker.LatexMacroNode, l2tobj: LatexNodes2Text) -> str:
    return f"[{_last_argument(n, l2tobj)}]"


def _merged(
    default: macrospec.LatexContextDb, macros: list, specials: list
) -> macrospec.LatexContextDb:
    """`default` with our specs first, in one category (pylatexenc walks every category for
    every character) and with only the text-changing specials."""
    tables = {
        "macros": {spec.macroname: spec for spec in macros},
        "environments": {},
        "specials": {spec.specials_chars: spec for spec in specials},
    }
    for category in default.category_list:
        for kind, table in tables.items():
            for key, spec in default.d[category][kind].items():
                if kind != "specials" or key in _KEPT_SPECIALS:
                    table.setdefault(key, spec)
    context = macrospec.LatexContextDb()
    lists = {kind: list(table.values()) for kind, table in tables.items()}
    context.add_context_category("search-corpus", **lists)
    context.set_unknown_macro_spec(default.unknown_macro_spec)
    context.set_unknown_environment_spec(default.unknown_environment_spec)
    context.set_unknown_specials_spec(default.unknown_specials_spec)
    return context


def _walker_context() -> macrospec.LatexContextDb:
    specs = {**_REFERENCES, **_DROPPED}
    macros = [macrospec.MacroSpec(name, spec) for name, spec in specs.items()]
    return _merged(latexwalker.get_default_latex_context_db(), macros, [])


def _text_context() -> macrospec.LatexContextDb:
    macros = [MacroTextSpec(name, simplify_repl=_last_argument) for name in _REFERENCES]
    macros += [MacroTextSpec(name, discard=True) for name in _DROPPED]
    macros.append(MacroTextSpec("cite", simplify_repl=_citation))
    return _merged(get_default_latex_context_db(), macros, [SpecialsTextSpec("~", " ")])


@cache
def _converters() -> tuple[macrospec.LatexContextDb, LatexNodes2Text]:
    return _walker_context(), LatexNodes2Text(latex_context=_text_context())


def _hide(latex: str, depth: int) -> tuple[str, list[str]]:
    """Swap what renders on its own for placeholders: (text, what each placeholder stands for).

    Plain runs stand for themselves at every depth; in a body (depth 2) formulas and macro
    calls become their cached renderings; in a formula (1) macro calls do; in a call (0)
    only runs are swapped, so each level renders the level below it exactly once.
    """
    values: list[str] = []

    def hide(match: re.Match) -> str:
        groups = match.groupdict()
        if groups.get("run") is not None:
            value = groups["run"]
        elif groups.get("math") is not None:
            value = _formula_text(groups["math"])
        elif groups.get("call") is not None:
            value = _call_text(groups["call"])
        else:
            return match.group()
        if len(values) >= _PLACEHOLDER_COUNT:
            return match.group()
        values.append(value)
        return chr(_PLACEHOLDER_BASE + len(values) - 1)

    return _TOKENS[depth].sub(hide, latex), values


def _render(latex: str, depth: int) -> str:
    walker_context, converter = _converters()
    hidden, values = _hide(_PLACEHOLDER.sub("", latex), depth)
    walker = latexwalker.LatexWalker(hidden, latex_context=walker_context, tolerant_parsing=True)
    text = converter.nodelist_to_text(walker.get_latex_nodes()[0])
    return _PLACEHOLDER.sub(lambda m: values[ord(m.group()) - _PLACEHOLDER_BASE], text)


def _render_or_keep(latex: str, depth: int) -> str:
    try:
        return _render(latex, depth)
    except Exception:  # pylatexenc raises many types (and RecursionError) on odd input
        return latex


@lru_cache(maxsize=1 << 16)
def _formula_text(formula: str) -> str:
    text = _render_or_keep(formula, depth=1).strip()
    return f"\n{text}\n" if formula.startswith(("$$", "\\[")) else text


@lru_cache(maxsize=1 << 16)
def _call_text(call: str) -> str:
    return _render_or_keep(call, depth=0)


def _tidy(text: str) -> str:
    lines = (" ".join(line.split()) for line in text.splitlines())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def latex_to_text(latex: str) -> str:
    """Render LaTeX as plain text; on any parser failure return the LaTeX itself, tidied."""
    try:
        return _tidy(_render(latex, depth=2))
    except Exception:  # pylatexenc raises many types (and RecursionError) on odd input
        return _tidy(latex)


def _render_chunk(bodies: list[str]) -> list[str]:
    return [latex_to_text(body) for body in bodies]


def latex_to_text_many(bodies: list[str]) -> list[str]:
    """Render many bodies, in parallel when the batch is large and several CPUs exist."""
    workers = min(os.cpu_count() or 1, 8)
    if workers < 2 or len(bodies) < PARALLEL_MIN:
        return _render_chunk(bodies)
    size = -(-len(bodies) // workers)  # contiguous shares: a chapter's formulas stay together
    chunks = [bodies[i : i + size] for i in range(0, len(bodies), size)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [text for chunk in pool.map(_render_chunk, chunks) for text in chunk]
