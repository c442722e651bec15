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
- Lean code goes in `<pre><code>`, which KaTeX skips;
- links point only to http(s) URLs or to this app's own `?id=` pages.

Everything here is a pure function of a `Card`, so it is tested without a browser.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

from search.record import Statement

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
#: Related records (dependencies, dependents, group members) listed per card.
RELATED_SHOWN = 24

_MATH = [re.compile(re.escape(d["left"]) + r"([\s\S]+?)" + re.escape(d["right"])) for d in LATEX_DELIMITERS]
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")
#: Characters with a meaning in Markdown, HTML, Gradio's math pass or entity syntax.
_SPECIAL = re.compile(r"[\\`*_{}\[\]()#+\-.!|~<>&=:\"'^%@$]")
#: LaTeX text-mode markup shown as what it means (lists, emphasis, references, escapes);
#: only brace groups without nested braces are read, anything else stays literal.
_LATEX_PROSE = re.compile(
    r"(?P<item>\\item\b(?:\s*\[(?P<tag>[^\]\n]*)\])?\s*)"
    r"|(?P<env>\s*\\(?:begin|end)\{(?:enumerate|itemize|description)\}(?:\[[^\]\n]*\])?\s*)"
    r"|\{\\(?:it|em|sl)\s+(?P<it1>[^{}]*)\}|\\(?:emph|textit|textsl)\{(?P<it2>[^{}]*)\}"
    r"|\{\\bf\s+(?P<bf1>[^{}]*)\}|\\textbf\{(?P<bf2>[^{}]*)\}"
    r"|\\(?:ref|eqref|cite)(?:\[[^\]\n]*\])?\{(?P<ref>[^{}]*)\}"
    r"|\\(?P<escaped>[$%&_#{}])"
    r"|(?P<label>\s*\\label\{[^{}]*\})"
)
#: Markdown code spans, bold and emphasis in Lean docstrings.
_DOC_MARKUP = re.compile(
    r"`(?P<code>[^`\n]+)`|\*\*(?P<bf1>[^*\n]+)\*\*|(?<![\w*])\*(?P<it1>[^*\n]+)\*(?![\w*])"
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


def math_markdown(text: str, limit: int, markdown: bool = False) -> str:
    """Markdown for text with LaTeX math: math kept for KaTeX, the rest literal.

    `markdown` says the text is Markdown (Lean docstrings): `` `x` ``, `**x**` and `*x*` are
    read; otherwise it is LaTeX, whose own markup is read (and backticks are quotes). Text
    beyond `limit` characters is cut at a segment boundary.
    """
    spans: list[str] = []

    def hold(match: re.Match[str]) -> str:
        spans.append(match.group(0))
        return f"\x00{len(spans) - 1}\x00"

    held = text.replace("\x00", "")
    for pattern in _MATH:
        held = pattern.sub(hold, held)
    out: list[str] = []
    used = 0
    for i, piece in enumerate(_PLACEHOLDER.split(held)):
        if i % 2:
            math = _restore(spans[int(piece)], spans)
            if used + len(math) > limit:
                out.append(" …")
                break
            out.append(html.escape(math, quote=False))
            used += len(math)
            continue
        if used + len(piece) > limit:
            out.append(_prose(piece[: max(0, limit - used)], markdown) + " …")
            break
        out.append(_prose(piece, markdown))
        used += len(piece)
    return "".join(out).strip()


def _restore(math: str, spans: list[str]) -> str:
    """A math span with any span it swallowed put back (Gradio leaves those as placeholders)."""
    return _PLACEHOLDER.sub(lambda m: _restore(spans[int(m.group(1))], spans), math)


def _prose(text: str, markdown: bool) -> str:
    """Non-math text: Markdown code, bold and emphasis (Lean docstrings) or LaTeX markup
    (LaTeX) read, the rest literal."""
    text = _INDENT.sub("\n", text)
    pattern = _DOC_MARKUP if markdown else _LATEX_PROSE
    pieces, at = [], 0
    for match in pattern.finditer(text):
        pieces.append(literal(text[at:match.start()]))
        pieces.append(_markup(match))
        at = match.end()
    pieces.append(literal(text[at:]))
    return "".join(pieces)


def _markup(match: re.Match[str]) -> str:
    """The HTML for one piece of markup; its text is literal."""
    found = {k: v for k, v in match.groupdict().items() if v is not None}
    if "code" in found:
        return f"<code>{literal(found['code'])}</code>"
    if "item" in found:
        return "<br>• " + (literal(found["tag"]) + " " if found.get("tag") else "")
    if "env" in found or "label" in found:
        return "\n" if "env" in found else ""
    for key, tag in (("it1", "em"), ("it2", "em"), ("bf1", "strong"), ("bf2", "strong")):
        if key in found:
            return f"<{tag}>{literal(found[key])}</{tag}>"
    if "ref" in found:
        return f"&#91;{literal(found['ref'])}&#93;"
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
    head.append(f'<a class="ts-name" href="{attribute(record_href(s.id))}">{attribute(s.name)}</a> ')
    note = str(s.meta.get("note") or "")
    if note:
        head.append(f'<span class="ts-note">({attribute(note)})</span> ')
    head.append(f'<span class="ts-tag">{attribute(s.kind)}</span> <span class="ts-tag">{attribute(s.source)}</span> ')
    where = _where(s)
    if where:
        head.append(f'<span class="ts-where">{attribute(where)}</span> ')
    if card.score is not None:
        head.append(f'<span class="ts-score">score {card.score:.4f}</span>')
    head.append("</div>")
    blocks = ["".join(head)]
    if s.formal:
        blocks.append(lean_block(s.statement))
    else:
        blocks.append(f'<div class="ts-latex">\n\n{math_markdown(s.statement, STATEMENT_CHARS)}\n\n</div>')
    # A LaTeX record's doc is the plain text of its body (for search), which the rendered body
    # already shows; TheoremSearch records carry a slogan there instead, worth showing.
    if s.doc and (s.formal or "slogans" in s.meta):
        blocks.append(f'<div class="ts-doc">\n\n{math_markdown(s.doc, DOC_CHARS, markdown=s.formal)}\n\n</div>')
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


def _where(s: Statement) -> str:
    """Where a statement sits: a Lean module, or a text's chapter, section and number."""
    if s.formal:
        return s.module or s.package
    parts = [str(s.meta.get(key) or "") for key in ("chapter", "section")]
    number = str(s.meta.get("number") or "")
    return " › ".join(p for p in parts if p) + (f" · {number}" if number else "")


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
