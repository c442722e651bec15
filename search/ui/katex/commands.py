"""What the KaTeX of the page knows, read from the copy that the installed gradio
package serves (the `auto-render` module among its frontend assets)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import gradio

#: Gradio's Markdown imports KaTeX's auto-render (with KaTeX inside) from this folder.
GRADIO_ASSETS = Path(gradio.__file__).parent / "templates" / "frontend" / "assets"
#: Commands that the rewrites (spans.py and the modules it calls) produce or keep for KaTeX, whatever the scan finds.
_WRITTEN = frozenset({"text", "textdollar", "textrm", "dfrac", "quad", "vdots", "begin", "end", "scriptstyle"})


def auto_render_script() -> Path:
    """The auto-render module of the installed gradio package (the KaTeX the page uses)."""
    found = sorted(GRADIO_ASSETS.glob("auto-render-*.js"))
    if len(found) != 1:
        raise FileNotFoundError(f"expected one auto-render-*.js in {GRADIO_ASSETS}, found {len(found)}")
    return found[0]


@lru_cache(maxsize=1)
def colour_commands() -> frozenset[str]:
    """KaTeX's colour macros (`\\red{x}` is `\\textcolor{##df0030}{x}`): an author who writes
    `\\red` alone means a macro of their own (Open Logic's reduction arrow)."""
    source = auto_render_script().read_text(encoding="utf-8")
    return frozenset(re.findall(r"\(`\\\\([A-Za-z]+)`,`\\\\textcolor\{##", source))


@lru_cache(maxsize=1)
def known_commands() -> frozenset[str]:
    """Names of the commands KaTeX defines: every `\\\\name` string in its source that is not
    an object's key (symbols, functions and macros are defined by such strings; keys name
    commands in tables of spacing, some of which KaTeX does not define)."""
    source = auto_render_script().read_text(encoding="utf-8")
    return frozenset(re.findall(r"[`\"']\\\\([A-Za-z]+)[`\"'](?!:)", source)) | _WRITTEN


@lru_cache(maxsize=1)
def text_symbols() -> frozenset[str]:
    """Symbols KaTeX defines for text mode only (`\\ss`, `\\ae`, `\\textbackslash`): in math
    it draws them in red where TeX prints them, so a card sets them in `\\text`. KaTeX's symbol
    table is calls `define(mode, font, group, character, name)`, whose mode is a variable
    holding "math" or "text"; accents (group "accent-token") take an argument and are left
    out."""
    source = auto_render_script().read_text(encoding="utf-8")
    values = dict(re.findall(r"([\w$]+)=`(math|text|accent-token)`", source))
    calls = re.findall(r"[\w$]+\(([\w$]+),[\w$]+,([\w$]+),`(?:[^`\\]|\\.)*`,`\\\\([A-Za-z]+)`", source)
    modes: dict[str, set[str]] = {}
    for mode, group, name in calls:
        if values.get(group) != "accent-token":
            modes.setdefault(name, set()).add(values.get(mode, ""))
    return frozenset(name for name, found in modes.items() if found == {"text"})
