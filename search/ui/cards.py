"""Result cards as the Markdown that one `gr.Markdown(latex_delimiters=LATEX_DELIMITERS)` shows.

Corpus text is untrusted: a docstring or a LaTeX body may hold HTML, script, Markdown links to
`javascript:` URLs or images. Only math is left for KaTeX to read; everything else reaches the
page as literal text:
- outside math, every character that means something to Markdown or HTML is written as a
  numeric character reference (`<` -> `&#60;`, `[` -> `&#91;`, ...), so no tag, link, image,
  emphasis, heading or list can form, and no math delimiter appears that Gradio would pair;
- math spans are found exactly as Gradio's Markdown finds them (each delimiter in turn, the
  shortest span, before Markdown runs), and HTML-escaped; KaTeX renders them without `trust`,
  so `\\href{javascript:...}` stays inert;
- Lean code, and a docstring's code blocks and spans, go in `<pre><code>` or `<code>`, which
  KaTeX skips; a `$` in a docstring's code is code, as doc-gen4 shows it, not a delimiter;
- links point only to http(s) URLs or to this app's own `?id=` pages.

Everything here is a pure function of a `Card`, so it is tested without a browser.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any, Mapping
from urllib.parse import quote, urlsplit

from search.record import Statement
from search.ui.katex import DOLLAR, clean_math, prepare
from search.ui.latex_prose import MATH_SLOT, latex_prose

#: Math delimiters, in the order Gradio and KaTeX try them: containers before what they may
#: hold (`$$` before `$`; environments, whose text mode may hold `$`, before `$`).
LATEX_DELIMITERS: list[dict[str, Any]] = [
    {"left": "$$", "right": "$$", "display": True},
    *(
        {"left": f"\\begin{{{env}}}", "right": f"\\end{{{env}}}", "display": True}
        for env in ("equation", "equation*", "align", "align*", "gather", "gather*")
    ),
    {"left": "\\[", "right": "\\]", "display": True},
    {"left": "\\(", "right": "\\)", "display": False},
    {"left": "$", "right": "$", "display": False},
]
#: Longest statement and docstring shown on a card (the upstream link has the rest).
STATEMENT_CHARS = 3000
DOC_CHARS = 1500
#: A statement longer than this, or of more lines, is folded to its first lines ("show all").
FOLD_CHARS = 600
FOLD_LINES = 8
#: Related records (dependencies, dependents, group members) listed per card.
RELATED_SHOWN = 24

_MATH = [re.compile(re.escape(d["left"]) + r"([\s\S]+?)" + re.escape(d["right"])) for d in LATEX_DELIMITERS]
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")
#: Characters with a meaning in Markdown, HTML, Gradio's math pass or entity syntax.
_SPECIAL = re.compile(r"[\\`*_{}\[\]()#+\-.!|~<>&=:\"'^%@$]")
#: References a LaTeX statement makes (`\\ref{lemma-x}`), to link to the records they name.
REF = re.compile(r"\\(?:ref|eqref|cref|Cref|autoref)\{([^{}]*)\}")
#: LaTeX text-mode markup shown as what it means (lists, emphasis, references, escapes);
#: only brace groups without nested braces are read, anything else stays literal.
_LATEX_PROSE = re.compile(
    r"(?P<item>\\item\b(?:\s*\[(?P<tag>[^\]\n]*)\])?\s*)"
    r"|(?P<env>\s*\\(?:begin|end)\{(?:enumerate|itemize|description)\}(?:\[[^\]\n]*\])?\s*)"
    r"|\{\\(?:it|em|sl)\s+(?P<it1>[^{}]*)\}|\\(?:emph|textit|textsl)\{(?P<it2>[^{}]*)\}"
    r"|\{\\bf\s+(?P<bf1>[^{}]*)\}|\\textbf\{(?P<bf2>[^{}]*)\}"
    r"|\\(?:ref|eqref|cref|Cref|autoref)\{(?P<ref>[^{}]*)\}"
    r"|\\cite(?:\[(?P<note>[^\]\n]*)\])?\{(?P<cite>[^{}]*)\}"
    r"|\\footnote\{(?P<footnote>[^{}]*)\}"
    r"|(?P<newline>\\\\(?:\[[^\]\n]*\])?|\\newline\b|\\par\b)"
    r"|\\(?P<escaped>[$%&_#{}])"
    r"|(?P<dropped>\s*\\(?:label|index|color|vspace\*?|hspace\*?)\{[^{}]*\}"
    r"|\\(?:medskip|smallskip|bigskip|noindent)\b\s*)"
)
#: Code in a Lean docstring: a fenced block (from a line opening with ``` to one closing it)
#: or a code span. Markdown reads code before anything else and doc-gen4's math skips it, so a
#: `$` in it is code (Lean's `q($x + $y)`, `'$'` in an example), never a math delimiter.
_DOC_CODE = re.compile(r"^[ \t]*```[^\n]*\n(?P<block>[\s\S]*?)(?:^[ \t]*```[ \t]*$|\Z)|`(?P<span>[^`\n]+)`", re.M)
#: Markdown links, bold and emphasis in Lean docstrings (code is taken out first: `_DOC_CODE`).
_DOC_MARKUP = re.compile(
    r"\[(?P<link>[^\]\n]+)\]\((?P<url>[^()\s]+)\)"
    r"|\*\*(?P<bf1>[^*\n]+)\*\*|(?<![\w*])\*(?P<it1>[^*\n]+)\*(?![\w*])"
)
_INDENT = re.compile(r"\n[ \t]+")


@dataclass(frozen=True)
class Related:
    """Another record a card points to (a dependency, dependent, group member or link)."""

    id: str
    name: str
    source: str


@dataclass
class Card:
    """What one result card shows. `rank` and `score` are None when a record is shown alone."""

    statement: Statement
    rank: int | None = None
    score: float | None = None
    signals: dict[str, dict[str, float]] = field(default_factory=dict)
    members: list[Related] = field(default_factory=list)
    members_total: int = 0
    deps: list[Related] = field(default_factory=list)
    deps_total: int = 0
    dependents: list[Related] = field(default_factory=list)
    dependents_total: int = 0
    links: list[Related] = field(default_factory=list)
    #: The records that the statement's `\ref{label}`s name, by label as written.
    refs: dict[str, Related] = field(default_factory=dict)


def _encode(text: str) -> str:
    return _SPECIAL.sub(lambda m: f"&#{ord(m.group())};", text)


def literal(text: str) -> str:
    """`text` as Markdown or HTML content that shows exactly `text`, whatever it holds."""
    # A `$` alone in its own element: KaTeX reads each text node apart, so it cannot pair.
    return _encode(text).replace("&#36;", "<span>&#36;</span>")


def attribute(text: str) -> str:
    """`text` for an HTML attribute or a one-line label: encoded, no line break, no `$`."""
    return _encode(" ".join(text.splitlines()))


def safe_url(url: str) -> str | None:
    """The URL if it is an absolute http(s) URL, else None (never `javascript:` or `data:`)."""
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme.lower() in ("http", "https") and parts.netloc and not any(c in url for c in "\x00\n\r\t "):
        return url
    return None


def record_href(record_id: str) -> str:
    """This app's page for one record."""
    return "?id=" + quote(record_id, safe="")


def math_markdown(
    text: str, limit: int, markdown: bool = False, refs: Mapping[str, Related] | None = None
) -> str:
    """Markdown for text with LaTeX math: math kept for KaTeX, the rest literal.

    `markdown` says the text is Markdown (Lean docstrings): code blocks, `` `x` ``,
    `[text](https://...)`, `**x**` and `*x*` are read; otherwise it is LaTeX, whose own markup is
    read (and backticks are quotes), a `\\ref` to a label of `refs` becoming a link to that
    record. Text beyond `limit` characters is cut at a segment boundary.
    """
    if not markdown:
        return _latex_markdown(text, limit, refs or {}).html
    out = []
    for kind, piece in _pieces(text, limit, markdown):
        if kind == "math":
            out.append(html.escape(piece, quote=False))
        elif kind == "prose":
            out.append(_prose(piece, markdown, refs or {}))
        elif kind == "code":
            out.append(_code(piece))
        else:
            out.append(" …")
    return "".join(out).strip()


def _latex_markdown(text: str, limit: int, refs: Mapping[str, Related]) -> LatexShown:
    """LaTeX as a card shows it: its prose read as one text (search/ui/latex_prose.py), with
    its math spans standing as placeholders, so that a group opened before a formula closes
    after it; then the spans, HTML-escaped, in their places."""
    held, spans = [], []
    for kind, piece in _pieces(text, limit):
        if kind == "math":
            held.append(f"\x00{len(spans)}\x00")
            spans.append(piece)
        else:
            held.append(piece if kind == "prose" else " …")

    def link(label: str) -> str | None:
        target = refs.get(label)
        if target is None:
            return None
        return f'<a href="{attribute(record_href(target.id))}" title="{attribute(target.id)}">{attribute(target.name)}</a>'

    def url(address: str) -> str | None:
        target = safe_url(address)
        return attribute(target) if target else None

    prose = latex_prose("".join(held), literal, link, url)
    kept = {int(n) for n in MATH_SLOT.findall(prose.html)}
    shown = MATH_SLOT.sub(lambda m: html.escape(spans[int(m.group(1))], quote=False), prose.html).strip()
    words = html.unescape(re.sub(r"<[^>]*>", "", MATH_SLOT.sub(" ", prose.html)))
    return LatexShown(shown, words, prose.unread, len(spans) - len(kept | prose.unprinted))


@dataclass
class LatexShown:
    """A LaTeX text as shown: its HTML; its words outside math, as they read on the page; the
    commands left out; how many math spans were left out (inside what was dropped)."""

    html: str
    words: str
    unread: list[str]
    math_lost: int


def math_spans(text: str, limit: int, markdown: bool = False) -> list[str]:
    """The math spans of `text` that `math_markdown` leaves for KaTeX, delimiters included
    (cleaned: search/ui/katex/)."""
    return [piece for kind, piece in _pieces(text, limit, markdown) if kind == "math"]


def _pieces(text: str, limit: int, markdown: bool = False) -> list[tuple[str, str]]:
    """`text` as ("math", span), ("prose", text) and, in Markdown, ("code", code) pieces, in
    order, found as Gradio finds them, up to `limit` characters; a last ("cut", "") when the
    rest is left out. Math is looked for only outside code."""
    text = text.replace("\x00", "").replace(DOLLAR, "")
    found: list[tuple[str, str]] = []
    at = 0
    for code in _DOC_CODE.finditer(text) if markdown else ():
        found += _math_and_prose(text[at:code.start()])
        found.append(("code", code.group(0)))
        at = code.end()
    found += _math_and_prose(text[at:])
    pieces: list[tuple[str, str]] = []
    used = 0
    for kind, piece in found:
        if kind == "prose" and used + len(piece) > limit:
            return [*pieces, ("prose", piece[: max(0, limit - used)].replace(DOLLAR, "\\$")), ("cut", "")]
        if used + len(piece) > limit:
            return [*pieces, ("cut", "")]
        used += len(piece)
        if kind == "math":
            piece = clean_math(piece)
        elif kind == "prose":
            piece = piece.replace(DOLLAR, "\\$")
        pieces.append((kind, piece))
    return pieces


def _math_and_prose(text: str) -> list[tuple[str, str]]:
    """`text` (no code in it) as ("math", span as written) and ("prose", text) pieces: spans
    found as Gradio finds them, each delimiter in turn, after `prepare`."""
    spans: list[str] = []

    def hold(match: re.Match[str]) -> str:
        spans.append(match.group(0))
        return f"\x00{len(spans) - 1}\x00"

    held = prepare(text)
    for pattern in _MATH:
        held = pattern.sub(hold, held)
    return [("math", _restore(spans[int(piece)], spans)) if i % 2 else ("prose", piece)
            for i, piece in enumerate(_PLACEHOLDER.split(held)) if i % 2 or piece]


def _code(code: str) -> str:
    """A docstring's code block or code span as HTML code, its text literal."""
    block = _DOC_CODE.fullmatch(code)
    if block is not None and block.group("block") is not None:
        return f"\n\n<pre><code>{literal(block.group('block'))}</code></pre>\n\n"
    return f"<code>{literal(code[1:-1])}</code>"


def _restore(math: str, spans: list[str]) -> str:
    """A math span with any span it swallowed put back (Gradio leaves those as placeholders)."""
    return _PLACEHOLDER.sub(lambda m: _restore(spans[int(m.group(1))], spans), math)


def _prose(text: str, markdown: bool, refs: Mapping[str, Related]) -> str:
    """Non-math text: Markdown code, links, bold and emphasis (Lean docstrings) or LaTeX
    markup (LaTeX) read, the rest literal. A `\\ref` to a label in `refs` links to its record."""
    text = _INDENT.sub("\n", text)
    pattern = _DOC_MARKUP if markdown else _LATEX_PROSE
    pieces, at = [], 0
    for match in pattern.finditer(text):
        pieces.append(literal(text[at:match.start()]))
        pieces.append(_markup(match, refs))
        at = match.end()
    pieces.append(literal(text[at:]))
    return "".join(pieces)


def _markup(match: re.Match[str], refs: Mapping[str, Related]) -> str:
    """The HTML for one piece of markup; its text is literal, its links http(s) or ours."""
    found = {k: v for k, v in match.groupdict().items() if v is not None}
    if "link" in found:
        target = safe_url(found["url"])
        if target is None:
            return literal(match.group(0))
        return f'<a href="{attribute(target)}" target="_blank" rel="noopener noreferrer">{literal(found["link"])}</a>'
    if "item" in found:
        return "<br>• " + (literal(found["tag"]) + " " if found.get("tag") else "")
    if "env" in found:
        return "\n"
    if "newline" in found:
        return "<br>"
    if "dropped" in found:
        return " " if found["dropped"].endswith((" ", "\n")) else ""
    for key, tag in (("it1", "em"), ("it2", "em"), ("bf1", "strong"), ("bf2", "strong")):
        if key in found:
            return f"<{tag}>{literal(found[key])}</{tag}>"
    if "ref" in found:
        target = refs.get(found["ref"])
        if target is None:
            return f"&#91;{literal(found['ref'])}&#93;"
        return f'<a href="{attribute(record_href(target.id))}" title="{attribute(target.id)}">{attribute(target.name)}</a>'
    if "cite" in found:
        note = f", {literal(found['note'])}" if found.get("note") else ""
        return f"&#91;{literal(found['cite'])}{note}&#93;"
    if "footnote" in found:
        return f" ({literal(found['footnote'])})"
    return literal(found["escaped"])


def lean_block(code: str, limit: int = STATEMENT_CHARS) -> str:
    """Lean source as a code block (an HTML block: Markdown and KaTeX leave it alone)."""
    shown = code if len(code) <= limit else code[:limit] + " …"
    return f'<pre class="ts-lean"><code>{_encode(shown)}</code></pre>'


def _link(related: Related) -> str:
    return (
        f'<a href="{attribute(record_href(related.id))}" title="{attribute(related.id)}">'
        f"{attribute(related.name)}</a> <small>{attribute(related.source)}</small>"
    )


def _related(title: str, items: list[Related], total: int) -> str:
    if not total:
        return ""
    more = f" · and {total - len(items)} more" if total > len(items) else ""
    body = " · ".join(_link(r) for r in items) + attribute(more)
    return f'<details class="ts-related"><summary>{attribute(title)} ({total})</summary>{body}</details>'


def card_markdown(card: Card) -> str:
    """The whole card: header, statement, doc, links, and related records to explore."""
    s = card.statement
    head = ['<div class="ts-head">']
    if card.rank is not None:
        head.append(f'<span class="ts-rank">{card.rank}.</span> ')
    head.append(f'<a class="ts-name" href="{attribute(record_href(s.id))}">{attribute(title(s))}</a> ')
    head.append(f'<span class="ts-tag">{attribute(s.kind)}</span> <span class="ts-tag">{attribute(s.source)}</span> ')
    where = _where(s)
    if where:
        head.append(f'<span class="ts-where">{attribute(where)}</span> ')
    if card.score is not None:
        head.append(f'<span class="ts-score">score {card.score:.4f}</span>')
    head.append("</div>")
    blocks = ["".join(head)]
    if s.formal:
        blocks.append(_copy_line(s))
        statement = lean_block(s.statement)
    else:
        statement = f'<div class="ts-latex">\n\n{math_markdown(s.statement, STATEMENT_CHARS, refs=card.refs)}\n\n</div>'
    blocks.append(_folded(statement) if _long(s.statement) else statement)
    if s.deprecation:
        blocks.append(f'<div class="ts-deprecated">{attribute(s.deprecation)}</div>')
    if _doc_shown(s):
        blocks.append(f'<div class="ts-doc">\n\n{math_markdown(s.doc, DOC_CHARS, markdown=s.formal)}\n\n</div>')
    if s.informal_statement:
        blocks.append(f'<div class="ts-said" title="made from the statement by the informaliser, not written by '
                      f'its authors"><span class="ts-said-label">In words (generated):</span> '
                      f'{literal(s.informal_statement)}</div>')
    blocks.append(_links_line(card))
    if card.signals:
        found = " · ".join(f"{name} #{int(v['rank'])}" for name, v in card.signals.items() if "rank" in v)
        blocks.append(f'<div class="ts-signals">found by {attribute(found)}</div>')
    related = [
        _related("Uses", card.deps, card.deps_total),
        _related("Used by", card.dependents, card.dependents_total),
        _related("Same group", card.members, card.members_total),
    ]
    blocks.extend(r for r in related if r)
    return "\n\n".join(b for b in blocks if b)


def _long(text: str) -> bool:
    """Whether a statement is folded to its first lines on the card."""
    return len(text) > FOLD_CHARS or text.count("\n") >= FOLD_LINES


def _folded(block: str) -> str:
    """A statement shown to its first lines, with a "show all" that unfolds it (CSS in
    search/ui/blocks.py: an open `.ts-more` lifts the height of the `.ts-fold` before it)."""
    return (f'<div class="ts-fold">\n\n{block}\n\n</div>\n\n<details class="ts-more"><summary>'
            '<span class="ts-show">show all</span><span class="ts-hide">show less</span></summary></details>')


def _copy_line(s: Statement) -> str:
    """Buttons that copy what a Lean user pastes into the editor: the name, `#check` of it, and
    the import of its module. A listener in search/ui/blocks.py copies a button's `title`, the
    text itself (Gradio's sanitizer keeps `title` and drops `data-` and `aria-` attributes)."""
    texts = [("name", s.name), ("#check", f"#check {s.name}")]
    if s.module:
        texts.append(("import", f"import {s.module}"))
    buttons = (
        f'<button type="button" class="ts-copy" title="{attribute(text)}">{attribute(label)}</button>'
        for label, text in texts
    )
    return f'<div class="ts-copies">copy: {" ".join(buttons)}</div>'


def title(s: Statement) -> str:
    """What a card is headed by: a Lean declaration's name; for a statement from a text, its
    kind and number with its note or its label's words ("Lemma 10.3.4 (Nakayama)",
    "Definition (bisimulation)"), or without either the section or chapter it stands in
    ("Example in Prime ideals"), and its tag where it has one, rather than the file path
    its id may be made of."""
    if s.formal:
        return s.name
    number = str(s.meta.get("number") or "")
    note = str(s.meta.get("note") or "") or _label_words(s)
    head = " ".join(p for p in (s.kind.capitalize(), number) if p) + (f" ({note})" if note else "")
    place = str(s.meta.get("section") or s.meta.get("chapter") or "")
    if head and not note and place:
        head += f" in {place}"
    tag = str(s.meta.get("tag") or "")
    return head + (f" · {tag}" if tag else "") if head else s.name


def _label_words(s: Statement) -> str:
    """The words of a statement's LaTeX label (`lem:right-exact` -> "right exact"), without the
    file and kind that labels in the Stacks Project begin with."""
    words = str(s.meta.get("label") or "").rsplit(":", 1)[-1]
    stem = str(s.meta.get("file") or "").rsplit("/", 1)[-1].removesuffix(".tex")
    for prefix in (stem, str(s.meta.get("environment") or ""), s.kind):
        if prefix and words.startswith(prefix + "-"):
            words = words[len(prefix) + 1:]
    return " ".join(re.split(r"[-_]+", words)).strip()


def shown_texts(s: Statement) -> tuple[dict[str, str], LatexShown | None]:
    """Every text the page shows of `s` outside math and code, as it reads there: the card's
    title and place, the record's fields the filter lists offer (its note, chapter, section,
    package, kind), and a LaTeX statement's words (with what reading them left out)
    (`python -m search.ui.math_check` looks for TeX in them)."""
    texts = {"title": title(s), "place": _where(s), "package": s.package, "kind": s.kind}
    texts.update({key: str(s.meta.get(key) or "") for key in ("note", "chapter", "section")})
    if s.formal:
        return texts, None
    shown = _latex_markdown(s.statement, STATEMENT_CHARS, {})
    texts["statement"] = shown.words
    return texts, shown


def card_math(s: Statement) -> list[str]:
    """Every math span the card of `s` leaves for KaTeX, as KaTeX gets it
    (`python -m search.ui.math_check` renders them all)."""
    spans = [] if s.formal else math_spans(s.statement, STATEMENT_CHARS)
    return spans + (math_spans(s.doc, DOC_CHARS, markdown=s.formal) if _doc_shown(s) else [])


def _doc_shown(s: Statement) -> bool:
    """A LaTeX record's doc is the plain text of its body (for search), which the rendered body
    already shows; TheoremSearch records carry a slogan there instead, worth showing."""
    return bool(s.doc) and (s.formal or "slogans" in s.meta)


def _where(s: Statement) -> str:
    """Where a statement sits: a Lean module, or a text's chapter and section."""
    if s.formal:
        return s.module or s.package
    parts = [str(s.meta.get(key) or "") for key in ("chapter", "section")]
    return " › ".join(p for p in parts if p)


def _links_line(card: Card) -> str:
    s = card.statement
    parts = []
    for label, url in (("source", s.url), ("docs", s.doc_url)):
        target = safe_url(url)
        if target:
            parts.append(f'<a href="{attribute(target)}" target="_blank" rel="noopener noreferrer">{label} ↗</a>')
    for linked in card.links:
        parts.append(f"↔ {_link(linked)}")
    return f'<div class="ts-links">{" · ".join(parts)}</div>' if parts else ""
