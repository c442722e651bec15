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
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable
from pathlib import Path

import gradio

#: Gradio's Markdown imports KaTeX's auto-render (with KaTeX inside) from this folder.
GRADIO_ASSETS = Path(gradio.__file__).parent / "templates" / "frontend" / "assets"
#: Stands for an escaped dollar `\\$` while math is found (`prepare`).
DOLLAR = "\x01"
#: A text group in math that holds math of its own (a `$` before any inner brace).
_TEXT_GROUP = re.compile(r"\\(?:text|mbox|textrm)\s*(?=\{[^{}]*(?<!\\)\$)")
_SPACED_BREAK = re.compile(r"(?<!\\)\\\\\[\s*-?[0-9.]+\s*(?:ex|em|pt|mm|cm|in|pc|mu)\s*\]")
#: Commands that the rewrites below produce or keep for KaTeX, whatever the scan finds.
_WRITTEN = frozenset({"text", "textdollar", "textrm", "dfrac", "quad", "vdots", "begin", "end", "scriptstyle"})

_COMMAND = re.compile(r"\\([A-Za-z]+)|\\.", re.S)
_REF = re.compile(r"\\(?:ref|eqref|cref|Cref|autoref|cite|citep|citet)\*?(?:\[[^\]{}]*\])?\{([^{}]*)\}")
_LABEL = re.compile(r"\\label\s*\{[^{}]*\}\s*")
#: `\\href{url}{text}`: KaTeX, not trusted, draws it in red without a link; the text stays.
_HREF = re.compile(r"\\href\s*\{[^{}]*\}\s*\{")
_XYMATRIX = re.compile(r"\\xymatrix(?:@[^{]*)?\s*(?=\{)")
#: Pictures KaTeX cannot draw (TikZ, xy-pic circuits): a note in their place.
_PICTURE = re.compile(r"\\begin\{(tikzpicture|tikzcd|tabular)\}[\s\S]*?(?:\\end\{\1\}|$)")
_CIRCUIT = re.compile(r"\\Qcircuit(?![A-Za-z])[^{]*(?=\{)")
#: `\overline\mathbb Z`: TeX gives the accent the font command and its letter, KaTeX only
#: the command; braces make the argument explicit.
_FONT_ARGUMENT = re.compile(
    r"\\(overline|underline|bar|dot|ddot|hat|tilde|vec|widehat|widetilde|mathbb|mathcal|mathfrak|mathrm|mathbf)"
    r"\s*(\\(?:mathbb|mathcal|mathfrak|mathrm|mathbf|mathsf|mathit)\s*(?:[A-Za-z0-9]|\{[^{}]*\}))"
)
#: `\\raisebox{1ex}{\\bigg\\}}` in math: the box's body is text, where TeX's sized delimiters
#: make math of their own and KaTeX's cannot stand; such a body is typeset as math, unraised.
_RAISEBOX = re.compile(r"\\raisebox\s*\{[^{}]*\}\s*(?:\[[^\[\]{}]*\]\s*){0,2}(?=\{)")
_SIZED_DELIMITER = re.compile(r"\\[bB]igg?[lrm]?(?![A-Za-z])")
#: A super- or subscript with nothing after it (`a ^ $`).
_EMPTY_SCRIPT = re.compile(r"(?<!\\)([\^_])\s*(?=\$|\\\]|\\\)|\}|$)")
#: Equation tags: KaTeX takes one per display and reads it as text; several (one per row of
#: an `align`), or one holding math, are written as `\\qquad(...)` beside their row.
_TAG = re.compile(r"\\tag\*?\s*(?=\{)")
#: Column spacing `@{...}` in an array's column spec, which KaTeX does not read.
_ARRAY_SPACING = re.compile(r"(?<=[lcr|])@\{(?:[^{}]|\{[^{}]*\})*\}")
#: Italic correction, `\xspace` (a space TeX decides on after a macro), and `\(re)newcommand`
#: of something that is no command name (the corpus expanded it already).
_DROPPED = re.compile(r"\\/|\\xspace(?![A-Za-z])|\\(?:re)?newcommand\s*\{(?!\\)[^{}]*\}\s*\{[^{}]*\}")
_PROOF_COMMAND = re.compile(
    r"\\(AxiomC|Axiom|UnaryInfC|UnaryInf|BinaryInfC|BinaryInf|TrinaryInfC|TrinaryInf|"
    r"QuaternaryInfC|QuinaryInfC|DeduceC|Deduce|RightLabel|LeftLabel|DisplayProof|fCenter|"
    r"insertBetweenHyps|LeftSubproofLabel|RightSubproofLabel|doubleLine|singleLine|noLine|dottedLine)(?![A-Za-z])"
)
_PREMISES = {"Axiom": 0, "Unary": 1, "Binary": 2, "Trinary": 3, "Quaternary": 4, "Quinary": 5, "Deduce": 1}
#: Open Logic's selective typesetting, `\\iftag{tags}{text if a tag is on}{text if none is}`
#: (its sty/open-logic-selective.sty, after the `tagging` package): a card shows the text its
#: default build prints, with the tags that open-logic-config.sty turns on and off. `notX` is
#: on when `X` is off; a tag neither list names is off.
_IFTAG = re.compile(r"\\iftag(?![A-Za-z])")
_TAGS_ON = frozenset({
    "prvNot", "prvOr", "prvAnd", "prvIf", "prvIff", "prvTrue", "prvFalse", "prvEx", "prvAll", "prvBox",
    "prvDiamond", "limitClause", "tagTrue", "TMs", "lambda", "prfSC", "prfND", "prfAX", "prfTab", "FOL",
    "cmplCCS", "cmplMCS", "novice", "math", "compsci", "phil",
})
_TAGS_OFF = frozenset(
    prefix + operator
    for prefix in ("def", "prob")
    for operator in ("Not", "Or", "And", "If", "Iff", "True", "False", "Ex", "All", "Box", "Diamond")
)


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


def prepare(text: str) -> str:
    """Text with math, made ready for its math to be found as Gradio finds it (the first `$`
    after a `$` closes a span): Open Logic's `\\iftag` conditionals become the branch its
    default build prints (`tags_resolved`), whose math alone is then found; an escaped
    dollar `\\$` becomes `DOLLAR`, which is no delimiter (`clean_math` and the cards' prose
    put it back), and `\\mathchoice{display}{text}{script}{scriptscript}` its display form,
    in which a `\\raisebox{...}{$x$}` is `{x}`; a line break's spacing (`\\\\[1ex]`), which Gradio would
    read as the `\\[` opening display math, is dropped; math inside text inside math
    (`$\\{x : \\text{$x$ is odd}\\}$`), whose inner `$` would close the outer span, is taken
    out of the text (`\\text{}x\\text{ is odd}`)."""
    text = tags_resolved(text)
    text = re.sub(r"(?<!\\)((?:\\\\)*)\\\$", lambda m: m.group(1) + DOLLAR, text)
    text = _SPACED_BREAK.sub(r"\\\\", text)
    text = _replace_groups(text, _TEXT_GROUP, _math_out_of_text)
    out, at = [], 0
    for match in re.finditer(r"\\mathchoice(?![A-Za-z])", text):
        if match.start() < at:
            continue
        display, end = _argument(text, match.end())
        for _ in range(3):
            _, end = _argument(text, end)
        out.append(text[at:match.start()])
        out.append("{" + re.sub(r"\\raisebox\s*\{[^{}]*\}\s*\{\$([^$]*)\$\}", r"{\1}", display) + "}")
        at = end
    return "".join(out) + text[at:]


def tags_resolved(text: str) -> str:
    """Each `\\iftag{tags}{then}{else}` replaced by the branch Open Logic's default build
    prints (`_TAGS_ON`): `then` when one of its comma-separated tags is on, else `else`;
    a branch's own `\\iftag`s are resolved in turn."""
    at = 0
    while (match := _IFTAG.search(text, at)) is not None:
        tags, end = _argument(text, match.end())
        then, end = _argument(text, end)
        otherwise, end = _argument(text, end)
        on = any(_tag_on(tag.strip()) for tag in tags.split(","))
        text = text[:match.start()] + (then if on else otherwise) + text[end:]
        at = match.start()
    return text


def _tag_on(tag: str) -> bool:
    return tag in _TAGS_ON or (tag.startswith("not") and tag[3:] in _TAGS_OFF)


def _math_out_of_text(body: str) -> str:
    """`\\text{A $x$ B}` as `\\text{A }x\\text{ B}` (dollars that do not pair are dropped)."""
    pieces = re.split(r"(?<!\\)\$", body)
    if len(pieces) % 2 == 0:
        pieces[-2:] = ["".join(pieces[-2:])]
    return "".join(piece if i % 2 else r"\text{" + piece + "}" for i, piece in enumerate(pieces))


def clean_math(span: str) -> str:
    """A math span, delimiters included, rewritten into what KaTeX can typeset."""
    text = _LABEL.sub("", span).replace(DOLLAR, r"\text{\textdollar}")
    text = _PICTURE.sub(lambda m: r"\text{[" + m.group(1) + " picture: see the source]}", text)
    text = _replace_groups(text, _CIRCUIT, lambda _: r"\text{[Qcircuit picture: see the source]}")
    text = _FONT_ARGUMENT.sub(r"\\\1{\2}", text)
    text = _delimiters_unboxed(text)
    text = _EMPTY_SCRIPT.sub(r"\1{}", text)
    text = _ARRAY_SPACING.sub("", text)
    text = _DROPPED.sub("", text)
    text = _REF.sub(lambda m: r"\text{[" + _plain(m.group(1)) + "]}", text)
    text = _HREF.sub("{", text)
    text = _replace_groups(text, re.compile(r"\\ensuremath\s*(?=\{)"), lambda body: "{" + body + "}")
    text = _replace_groups(text, re.compile(r"\\mbox\s*(?=\{)"), lambda body: r"\text{" + body + "}")
    text = _replace_groups(text, re.compile(r"\\intertext\s*(?=\{)"), lambda body: r"\\ \text{" + body + r"} \\")
    text = _replace_groups(text, _XYMATRIX, xymatrix_array)
    if len(_TAG.findall(text)) > 1 or any(re.search(r"[_^\\]", body) for body in _tag_bodies(text)):
        text = _replace_groups(text, _TAG, _tag_beside)
    if _PROOF_COMMAND.search(text):
        text = proof_tree(text)
    text = _COMMAND.sub(_known_or_named, text)
    return _balanced(text if text.startswith("$") else _bare_dollars_dropped(text))


def _delimiters_unboxed(text: str) -> str:
    """Each `\\raisebox{...}{body}` whose body holds a sized delimiter (`\\bigg\\rbrace`) and no
    `$` replaced by `{body}`: math, as TeX sets the delimiter, without the small raise (a `$`
    put around it instead would end a `$...$` span early in Gradio's Markdown)."""
    out, at = [], 0
    for match in _RAISEBOX.finditer(text):
        end = _group_end(text, match.end())
        if match.start() < at or end is None:
            continue
        body = text[match.end() + 1:end - 1]
        if _SIZED_DELIMITER.search(body) and "$" not in body:
            out.append(text[at:match.start()] + "{" + body + "}")
            at = end
    return "".join(out) + text[at:]


def _tag_beside(body: str) -> str:
    """A tag as `\\qquad(...)`: its text as text when it switches to math with `$`, else as math."""
    return r"\qquad(\text{" + body + "})" if re.search(r"(?<!\\)\$", body) else r"\qquad(" + body + ")"


def _tag_bodies(text: str) -> list[str]:
    """The arguments of the `\\tag`s of a span."""
    ends = ((match.end(), _group_end(text, match.end())) for match in _TAG.finditer(text))
    return [text[start + 1:end - 1] for start, end in ends if end is not None]


def _plain(key: str) -> str:
    """A label or citation key as text KaTeX's `\\text` shows as it is."""
    return re.sub(r"[^A-Za-z0-9 :.,'/-]", "", key)


def _known_or_named(match: re.Match[str]) -> str:
    name = match.group(1)
    if name is None:
        return match.group(0)
    bare_colour = name in colour_commands() and not re.match(r"\s*\{", match.string[match.end():])
    if name in text_symbols() and not match.string.endswith("\\text{", 0, match.start()):
        return r"\text{" + match.group(0) + "}"
    if name in known_commands() and not bare_colour:
        return match.group(0)
    return r"\textrm{" + name + "}"


def _group_end(text: str, start: int) -> int | None:
    """The index just after the `}` closing the `{` at `start`, or None when it is not closed."""
    depth = 0
    at = start
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return at + 1
        at += 1
    return None


def _replace_groups(text: str, command: re.Pattern[str], rewrite: Callable[[str], str]) -> str:
    """Each `command{body}` (the pattern ends before the brace) replaced by `rewrite(body)`."""
    out, at = [], 0
    for match in command.finditer(text):
        if match.start() < at:
            continue
        end = _group_end(text, match.end())
        if end is None:
            continue
        out.append(text[at:match.start()])
        out.append(rewrite(text[match.end() + 1:end - 1]))
        at = end
    return "".join(out) + text[at:]


def _split_top(text: str, separator: str) -> list[str]:
    """`text` split at `separator` where it is outside every brace group."""
    parts, depth, start, at = [], 0, 0, 0
    while at < len(text):
        if text.startswith(separator, at) and depth == 0:
            parts.append(text[start:at])
            at += len(separator)
            start = at
            continue
        char = text[at]
        if char == "\\" and not text.startswith(separator, at):
            at += 2
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        at += 1
    return [*parts, text[start:]]


def _argument(text: str, at: int) -> tuple[str, int]:
    """One TeX argument at `at` (spaces skipped): a brace group's inside, a command or a
    character; ("", at) at the end."""
    while at < len(text) and text[at].isspace():
        at += 1
    if at >= len(text):
        return "", at
    if text[at] == "{":
        end = _group_end(text, at) or len(text)
        return text[at + 1:end - 1], end
    command = _COMMAND.match(text, at)
    if command:
        return command.group(0), command.end()
    return text[at], at + 1


_ARROW = re.compile(r"\\ar(?![A-Za-z])")


def _arrow(text: str, at: int) -> tuple[dict[str, object], int]:
    """One `\\ar` of xy-pic from `at` (just after `\\ar`): its style, direction and labels."""
    style = ""
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if text.startswith("@", at):
            at += 1
            if at < len(text) and text[at] in "{<(/":
                closing = {"{": "}", "<": ">", "(": ")", "/": "/"}[text[at]]
                if text[at] == "{":
                    end = _group_end(text, at) or len(text)
                    style += text[at + 1:end - 1]
                    at = end
                else:
                    end = text.find(closing, at + 1)
                    at = len(text) if end < 0 else end + 1
            elif at < len(text) and text[at] in "^_":
                _, at = _argument(text, at + 1)
            else:
                at += 1
            continue
        break
    down = right = 0
    if text.startswith("[", at):
        end = text.find("]", at)
        end = len(text) if end < 0 else end
        letters = text[at + 1:end].split("|")[0]
        down = letters.count("d") - letters.count("u")
        right = letters.count("r") - letters.count("l")
        at = end + 1
    labels: dict[str, str] = {}
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at < len(text) and text[at] in "^_|":
            side = text[at]
            at += 1
            while at < len(text) and text[at] in "<>-(":
                at += 1
            label, at = _argument(text, at)
            labels[side] = label
            continue
        break
    return {"style": style, "down": down, "right": right, "labels": labels}, at


def _symbol(arrow: dict[str, object]) -> str:
    """The KaTeX for one arrow, its labels beside it."""
    style = str(arrow["style"])
    labels: dict[str, str] = arrow["labels"]  # type: ignore[assignment]
    down, right = int(arrow["down"]), int(arrow["right"])  # type: ignore[call-overload]
    above, below = labels.get("^", ""), labels.get("_", "") or labels.get("|", "")
    if down == 0:
        side = "right" if right >= 0 else "left"
        if ".." in style or "--" in style:
            core = r"\dash" + side + "arrow"
            return rf"\overset{{{above}}}{{\underset{{{below}}}{{{core}}}}}" if above or below else core
        kind = {"^{(}": "hook", "(": "hook", ">>": "twohead", "=": "equal"}
        name = next((v for k, v in kind.items() if k in style), "")
        command = {"hook": rf"\xhook{side}arrow", "twohead": rf"\xtwohead{side}arrow",
                   "equal": r"\xlongequal"}.get(name, rf"\x{side}arrow")
        return rf"{command}[{below}]{{{above}}}"
    if right == 0:
        core = (r"\Big\Vert" if "=" in style else r"\Big\downarrow") if down > 0 else r"\Big\uparrow"
        left, right_label = (below, above) if down > 0 else (above, below)
        return rf"{{\scriptstyle {left}}}{core}{{\scriptstyle {right_label}}}"
    core = {(True, True): r"\searrow", (True, False): r"\swarrow", (False, True): r"\nearrow",
            (False, False): r"\nwarrow"}[(down > 0, right > 0)]
    return rf"{core}{{\scriptstyle {above or below}}}"


def xymatrix_array(body: str) -> str:
    """An xy-pic `\\xymatrix{...}` diagram as a KaTeX `array`: objects on the even rows and
    columns, each arrow in the cell between its source and the next object its way."""
    rows = [_split_top(row, "&") for row in _split_top(body, r"\\")]
    if rows and not "".join(rows[-1]).strip():
        rows.pop()
    height, width = max(len(rows), 1), max((len(r) for r in rows), default=1)
    grid = [["" for _ in range(2 * width - 1)] for _ in range(2 * height - 1)]
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            objects, at = [], 0
            for match in _ARROW.finditer(cell):
                if match.start() < at:
                    continue
                objects.append(cell[at:match.start()])
                arrow, at = _arrow(cell, match.end())
                down, right = int(arrow["down"]), int(arrow["right"])  # type: ignore[call-overload]
                r = min(max(2 * i + (down > 0) - (down < 0), 0), len(grid) - 1)
                c = min(max(2 * j + (right > 0) - (right < 0), 0), len(grid[0]) - 1)
                grid[r][c] = (grid[r][c] + " " + _symbol(arrow)).strip()
            objects.append(cell[at:])
            grid[2 * i][2 * j] = " ".join(o.strip() for o in objects if o.strip())
    keep_rows = [r for r in range(len(grid)) if r % 2 == 0 or any(grid[r])]
    keep_cols = [c for c in range(len(grid[0])) if c % 2 == 0 or any(grid[r][c] for r in range(len(grid)))]
    lines = [" & ".join(grid[r][c] for c in keep_cols) for r in keep_rows]
    return r"\begin{array}{" + "c" * len(keep_cols) + "}" + r" \\ ".join(lines) + r"\end{array}"


def proof_tree(text: str) -> str:
    """`bussproofs` proof trees as nested fractions: each inference rule a fraction over its
    premises, `\\RightLabel`/`\\LeftLabel` beside its line; text outside the trees is kept."""
    out, stack, at = [], [], 0
    labels = {"RightLabel": "", "LeftLabel": ""}
    for match in _PROOF_COMMAND.finditer(text):
        if match.start() < at:
            continue
        if not stack:
            out.append(text[at:match.start()])
        command = match.group(1)
        at = match.end()
        if command in ("DisplayProof",):
            out.append(r" \quad ".join(stack))
            stack = []
            continue
        if command in ("fCenter", "doubleLine", "singleLine", "noLine", "dottedLine"):
            continue
        if command.endswith("C") or command in ("RightLabel", "LeftLabel", "insertBetweenHyps",
                                                "LeftSubproofLabel", "RightSubproofLabel"):
            argument, at = _argument(text, at)
        else:  # \Axiom$...$, \UnaryInf$...$: the argument is delimited by dollars
            start = text.find("$", at)
            end = text.find("$", start + 1) if start >= 0 else -1
            argument, at = (text[start + 1:end], end + 1) if end >= 0 else ("", at)
        argument = re.sub(r"(?<!\\)\$", " ", argument.replace(r"\fCenter", " ")).strip()
        if command in labels:
            labels[command] = r"{\scriptstyle " + argument + "}" if argument else ""
            continue
        if command in ("insertBetweenHyps", "LeftSubproofLabel", "RightSubproofLabel"):
            continue
        kind = next((k for k in _PREMISES if command.startswith(k)), "Axiom")
        count = _PREMISES[kind]
        premises = stack[len(stack) - count:] if count else []
        del stack[len(stack) - len(premises):]
        if kind == "Axiom":
            stack.append(argument)
        elif kind == "Deduce":
            stack.append(r"\begin{matrix}" + " ".join(premises) + r" \\ \vdots \\ " + argument + r"\end{matrix}")
        else:
            line = r"\dfrac{" + r" \quad ".join(premises) + "}{" + argument + "}"
            stack.append(labels["LeftLabel"] + r"\," + line + r"\," + labels["RightLabel"])
        labels = {"RightLabel": "", "LeftLabel": ""}
    out.append(r" \quad ".join(stack) + text[at:])
    return "".join(out)


def _bare_dollars_dropped(text: str) -> str:
    """A display span without the `$` written outside any group (`\\begin{cases} $1$ & ...`):
    TeX's math mode ignores them there, KaTeX refuses them; a `$` inside a group (`\\fbox{$x$}`,
    text with math of its own) stays."""
    out, depth, at = [], 0, 0
    while at < len(text):
        char = text[at]
        if char == "\\":
            out.append(text[at:at + 2])
            at += 2
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        if not (char == "$" and depth <= 0):
            out.append(char)
        at += 1
    return "".join(out)


def _balanced(text: str) -> str:
    """Braces balanced: a `}` that closes nothing is dropped, groups left open are closed
    before the closing delimiter."""
    out, depth, at = [], 0, 0
    while at < len(text):
        char = text[at]
        if char == "\\":
            out.append(text[at:at + 2])
            at += 2
            continue
        if char == "}":
            if depth == 0:
                at += 1
                continue
            depth -= 1
        elif char == "{":
            depth += 1
        out.append(char)
        at += 1
    if not depth:
        return "".join(out)
    joined = "".join(out)
    for right in ("$$", r"\]", r"\)", "$"):
        if joined.endswith(right) and len(joined) > len(right):
            return joined[: -len(right)] + "}" * depth + right
    end = re.search(r"\\end\{[^{}]*\}$", joined)
    if end:
        return joined[: end.start()] + "}" * depth + end.group(0)
    return joined + "}" * depth
