"""Math spans rewritten for KaTeX (`clean_math`), and text made ready for its spans to be
found as the author meant (`prepare`)."""

from __future__ import annotations

import re

from search.ui.katex.commands import colour_commands, known_commands, text_symbols
from search.ui.katex.groups import COMMAND, PIECE, group_end, next_argument, replace_groups
from search.ui.katex.open_logic import connectives_named, tags_resolved
from search.ui.katex.proof_tree import proof_tree
from search.ui.katex.xymatrix import XYMATRIX, xymatrix_array

#: Stands for an escaped dollar `\\$` while math is found (`prepare`).
DOLLAR = "\x01"
#: A text group in math that holds math of its own (a `$` before any inner brace).
_TEXT_GROUP = re.compile(r"\\(?:text|mbox|textrm)\s*(?=\{[^{}]*(?<!\\)\$)")
_SPACED_BREAK = re.compile(r"(?<!\\)\\\\\[\s*-?[0-9.]+\s*(?:ex|em|pt|mm|cm|in|pc|mu)\s*\]")


def prepare(text: str) -> str:
    """Text with math, made ready for its math to be found as Gradio finds it (the first `$`
    after a `$` closes a span): Open Logic's `\\iftag` conditionals become the branch its
    default build prints (`tags_resolved`), whose math alone is then found, and its
    connectives TeX's (`connectives_named`); environments of math written in prose are put in
    display math (`_displayed_in_prose`); an escaped
    dollar `\\$` becomes `DOLLAR`, which is no delimiter (`clean_math` and the cards' prose
    put it back), and `\\mathchoice{display}{text}{script}{scriptscript}` its display form,
    in which a `\\raisebox{...}{$x$}` is `{x}`; a line break's spacing (`\\\\[1ex]`), which Gradio would
    read as the `\\[` opening display math, is dropped; math inside text inside math
    (`$\\{x : \\text{$x$ is odd}\\}$`), whose inner `$` would close the outer span, is taken
    out of the text (`\\text{}x\\text{ is odd}`)."""
    text = connectives_named(tags_resolved(text))
    text = re.sub(r"(?<!\\)((?:\\\\)*)\\\$", lambda m: m.group(1) + DOLLAR, text)
    text = _displayed_in_prose(text)
    text = _SPACED_BREAK.sub(r"\\\\", text)
    text = replace_groups(text, _TEXT_GROUP, _math_out_of_text)
    out, at = [], 0
    for match in re.finditer(r"\\mathchoice(?![A-Za-z])", text):
        if match.start() < at:
            continue
        display, end = next_argument(text, match.end())
        for _ in range(3):
            _, end = next_argument(text, end)
        out.append(text[at:match.start()])
        out.append("{" + re.sub(r"\\raisebox\s*\{[^{}]*\}\s*\{\$([^$]*)\$\}", r"{\1}", display) + "}")
        at = end
    return "".join(out) + text[at:]



#: Environments that are math (or pictures made of math) but that authors write in prose, as
#: TeX needs no delimiters around them: a proof tree, a commutative diagram, a tableau.
_DISPLAYED = re.compile(r"\\begin\{(prooftree|tikzcd|tikzpicture|xy|tableau|oltableau|forest)\}[\s\S]*?\\end\{\1\}")
#: What stands in prose when `\ensuremath{x}` is written there: the math `x`.
_ENSUREMATH = re.compile(r"\\ensuremath\s*(?=\{)")


def _displayed_in_prose(text: str) -> str:
    """The environments of `_DISPLAYED` that stand in prose put in display math `\\[...\\]`,
    and `\\ensuremath{x}` in prose made `\\(x\\)`, so that their math is found and typeset
    (`clean_math` makes a proof tree fractions, a picture a note to see the source). In prose
    means: after as many `$$` and `$` as open spans close, and as many `\\[` as `\\]`."""
    out, at = [], 0
    pattern = re.compile(_DISPLAYED.pattern + "|" + _ENSUREMATH.pattern)
    for match in pattern.finditer(text):
        if match.start() < at or not _in_prose(text[:match.start()]):
            continue
        out.append(text[at:match.start()])
        if match.group(1) == "prooftree":  # `proof_tree` reads the tree's commands alone
            out.append("\\[" + match.group(0)[len("\\begin{prooftree}"):-len("\\end{prooftree}")] + "\\]")
            at = match.end()
            continue
        if match.group(1):
            out.append("\\[" + match.group(0) + "\\]")
            at = match.end()
            continue
        end = group_end(text, match.end())
        if end is None:
            out.append(match.group(0))
            at = match.end()
            continue
        out.append("\\(" + text[match.end() + 1:end - 1] + "\\)")
        at = end
    return "".join(out) + text[at:]


_MATH_ENVIRONMENT = r"\{(?:equation|align|gather|multline|eqnarray|displaymath|math|alignat|flalign)\*?\}"


def _in_prose(before: str) -> bool:
    unescaped = re.sub(r"\\.", "", before)
    displays = unescaped.count("$$")
    return (displays % 2 == 0 and unescaped.replace("$$", "").count("$") % 2 == 0
            and before.count("\\[") <= before.count("\\]") and before.count("\\(") <= before.count("\\)")
            and len(re.findall(r"\\begin" + _MATH_ENVIRONMENT, before))
            <= len(re.findall(r"\\end" + _MATH_ENVIRONMENT, before)))


def _math_out_of_text(body: str) -> str:
    """`\\text{A $x$ B}` as `\\text{A }x\\text{ B}` (dollars that do not pair are dropped)."""
    pieces = re.split(r"(?<!\\)\$", body)
    if len(pieces) % 2 == 0:
        pieces[-2:] = ["".join(pieces[-2:])]
    return "".join(piece if i % 2 else r"\text{" + piece + "}" for i, piece in enumerate(pieces))


_LABEL = re.compile(r"\\label\s*\{[^{}]*\}\s*")
#: Pictures KaTeX cannot draw (TikZ, xy-pic circuits): a note in their place.
_PICTURE = re.compile(r"\\begin\{(tikzpicture|tikzcd|tabular|xy|tableau|oltableau|forest)\}[\s\S]*?(?:\\end\{\1\}|$)")
_CIRCUIT = re.compile(r"\\Qcircuit(?![A-Za-z])[^{]*(?=\{)")
#: `\overline\mathbb Z`: TeX gives the accent the font command and its letter, KaTeX only
#: the command; braces make the argument explicit.
_FONT_ARGUMENT = re.compile(
    r"\\(overline|underline|bar|dot|ddot|hat|tilde|vec|widehat|widetilde|mathbb|mathcal|mathfrak|mathrm|mathbf)"
    r"\s*(\\(?:mathbb|mathcal|mathfrak|mathrm|mathbf|mathsf|mathit)\s*(?:[A-Za-z0-9]|\{[^{}]*\}))"
)
#: A super- or subscript with nothing after it (`a ^ $`).
_EMPTY_SCRIPT = re.compile(r"(?<!\\)([\^_])\s*(?=\$|\\\]|\\\)|\}|$)")
#: Column spacing `@{...}` in an array's column spec, which KaTeX does not read.
_ARRAY_SPACING = re.compile(r"(?<=[lcr|])@\{(?:[^{}]|\{[^{}]*\})*\}")
#: Italic correction, `\xspace` (a space TeX decides on after a macro), and `\(re)newcommand`
#: of something that is no command name (the corpus expanded it already).
_DROPPED = re.compile(r"\\/|\\xspace(?![A-Za-z])|\\(?:re)?newcommand\s*\{(?!\\)[^{}]*\}\s*\{[^{}]*\}")
_REF = re.compile(r"\\(?:ref|eqref|cref|Cref|autoref|cite|citep|citet)\*?(?:\[[^\]{}]*\])?\{([^{}]*)\}")
#: `\\href{url}{text}`: KaTeX, not trusted, draws it in red without a link; the text stays.
_HREF = re.compile(r"\\href\s*\{[^{}]*\}\s*\{")


def clean_math(span: str) -> str:
    """A math span, delimiters included, rewritten into what KaTeX can typeset."""
    text = _LABEL.sub("", span).replace(DOLLAR, r"\text{\textdollar}")
    text = _PICTURE.sub(lambda m: r"\text{[" + m.group(1) + " picture: see the source]}", text)
    text = replace_groups(text, _CIRCUIT, lambda _: r"\text{[Qcircuit picture: see the source]}")
    text = _FONT_ARGUMENT.sub(r"\\\1{\2}", text)
    text = _delimiters_unboxed(text)
    text = _EMPTY_SCRIPT.sub(r"\1{}", text)
    text = _ARRAY_SPACING.sub("", text)
    text = _DROPPED.sub("", text)
    text = _REF.sub(lambda m: r"\text{[" + _plain(m.group(1)) + "]}", text)
    text = _HREF.sub("{", text)
    text = replace_groups(text, re.compile(r"\\ensuremath\s*(?=\{)"), lambda body: "{" + body + "}")
    text = replace_groups(text, re.compile(r"\\mbox\s*(?=\{)"), lambda body: r"\text{" + body + "}")
    text = replace_groups(text, re.compile(r"\\intertext\s*(?=\{)"), lambda body: r"\\ \text{" + body + r"} \\")
    text = replace_groups(text, XYMATRIX, xymatrix_array)
    if len(_TAG.findall(text)) > 1 or any(re.search(r"[_^\\]", body) for body in _tag_bodies(text)):
        text = replace_groups(text, _TAG, _tag_beside)
    text = proof_tree(text)
    text = COMMAND.sub(_known_or_named, text)
    return _balanced(text if text.startswith("$") else _bare_dollars_dropped(text))


#: `\\raisebox{1ex}{\\bigg\\}}` in math: the box's body is text, where TeX's sized delimiters
#: make math of their own and KaTeX's cannot stand; such a body is typeset as math, unraised.
_RAISEBOX = re.compile(r"\\raisebox\s*\{[^{}]*\}\s*(?:\[[^\[\]{}]*\]\s*){0,2}(?=\{)")
_SIZED_DELIMITER = re.compile(r"\\[bB]igg?[lrm]?(?![A-Za-z])")


def _delimiters_unboxed(text: str) -> str:
    """Each `\\raisebox{...}{body}` whose body holds a sized delimiter (`\\bigg\\rbrace`) and no
    `$` replaced by `{body}`: math, as TeX sets the delimiter, without the small raise (a `$`
    put around it instead would end a `$...$` span early in Gradio's Markdown)."""
    out, at = [], 0
    for match in _RAISEBOX.finditer(text):
        end = group_end(text, match.end())
        if match.start() < at or end is None:
            continue
        body = text[match.end() + 1:end - 1]
        if _SIZED_DELIMITER.search(body) and "$" not in body:
            out.append(text[at:match.start()] + "{" + body + "}")
            at = end
    return "".join(out) + text[at:]


#: Equation tags: KaTeX takes one per display and reads it as text; several (one per row of
#: an `align`), or one holding math, are written as `\\qquad(...)` beside their row.
_TAG = re.compile(r"\\tag\*?\s*(?=\{)")


def _tag_beside(body: str) -> str:
    """A tag as `\\qquad(...)`: its text as text when it switches to math with `$`, else as math."""
    return r"\qquad(\text{" + body + "})" if re.search(r"(?<!\\)\$", body) else r"\qquad(" + body + ")"


def _tag_bodies(text: str) -> list[str]:
    """The arguments of the `\\tag`s of a span."""
    ends = ((match.end(), group_end(text, match.end())) for match in _TAG.finditer(text))
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



def _bare_dollars_dropped(text: str) -> str:
    """A display span without the `$` written outside any group (`\\begin{cases} $1$ & ...`):
    TeX's math mode ignores them there, KaTeX refuses them; a `$` inside a group (`\\fbox{$x$}`,
    text with math of its own) stays."""
    out, depth = [], 0
    for piece in PIECE.findall(text):
        depth += {"{": 1, "}": -1}.get(piece, 0)
        if not (piece == "$" and depth <= 0):
            out.append(piece)
    return "".join(out)


def _balanced(text: str) -> str:
    """Braces balanced: a `}` that closes nothing is dropped, groups left open are closed
    before the closing delimiter."""
    out, depth = [], 0
    for piece in PIECE.findall(text):
        if piece == "}" and depth == 0:
            continue
        depth += {"{": 1, "}": -1}.get(piece, 0)
        out.append(piece)
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
