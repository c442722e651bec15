"""LaTeX text outside math as a card shows it: what the markup means, never the markup.

A LaTeX body's prose is full of TeX: `{\\it ...}` and `\\textbf{...}` (whose groups may hold
math, so they span several prose pieces), `\\footnote{...}`, references, accents (`{\\v C}ech`),
lists, spacing and environments. `latex_prose` reads the whole body at once, its math spans
standing as placeholders (`\\x00N\\x00`, put back by the caller), so that a group opened before
a formula closes after it:

- emphasis and bold (`\\emph`, `\\textit`, `\\textbf`, `{\\it ...}`, `{\\bf ...}`) become `<em>` and
  `<strong>`; a footnote or margin note stands in parentheses where it is called;
- `\\ref`-like commands link to the record their label names (else `[label]`), `\\cite` is
  `[keys, note]`, `\\href` links to an http(s) URL with its text, `\\url` is its URL;
- `\\item` starts a bullet line, list environments a line; other environments show their
  content; `\\label`, `\\index`, colours, spacing and pictures' file names are dropped;
- accents are composed (`\\v C` = Č), TeX's symbols and ligatures (`\\S`, `\\dots`, `--`,
  ``` `` ```) are their characters, braces group and show nothing;
- a math symbol written in prose (`\\times`, `\\to`) is its character, from pylatexenc's table;
- any other command (an author's macro the corpus left unexpanded) is left out and named in
  `unread`, so that `python -m search.ui.math_check` counts it; its arguments' text stays.

Everything shown is literal text (search/ui/cards.py `literal`): no markup in the corpus can
make HTML, Markdown or math of its own.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from search.ui.katex.groups import group_end

#: The placeholder a math span stands as in the text given to `latex_prose`.
MATH_SLOT = re.compile("\x00(\\d+)\x00")
_TOKEN = re.compile(r"\\([A-Za-z@]+)\*?|\\(.)|([{}])", re.S)
_SPACES = re.compile(r"\s*")

#: Commands whose one argument is shown in an HTML element ("" = shown as it is).
_ARGUMENT_TAGS = {
    "emph": "em", "textit": "em", "textsl": "em", "textbf": "strong", "textsc": "", "textrm": "",
    "textsf": "", "texttt": "", "textup": "", "textmd": "", "textnormal": "", "text": "", "mbox": "",
    "underline": "", "uline": "", "hbox": "", "fbox": "", "mathrm": "", "hypertarget": "", "caption": "",
    "mathbf": "", "mathcal": "", "mathsf": "", "mathit": "", "mathbb": "", "mathfrak": "", "mathop": "",
    "operatorname": "",
}
#: Font switches, in force to the end of their group.
_SWITCH_TAGS = {
    "it": "em", "em": "em", "sl": "em", "itshape": "em", "slshape": "em", "bf": "strong", "bfseries": "strong",
    "rm": "", "sf": "", "tt": "", "sc": "", "normalfont": "", "upshape": "", "scshape": "", "mdseries": "",
    "rmfamily": "", "sffamily": "", "ttfamily": "", "small": "", "footnotesize": "", "scriptsize": "",
    "large": "", "Large": "", "LARGE": "", "normalsize": "", "tiny": "", "huge": "", "Huge": "",
}
_NOTES = ("footnote", "marginpar", "thanks", "marginnote")
_REFERENCES = ("ref", "eqref", "cref", "Cref", "autoref", "olref", "Olref", "rref", "pageref", "nameref")
#: Commands dropped with their arguments: how many braced arguments each takes.
_DROPPED = {
    "label": 1, "index": 1, "ollabel": 1, "color": 1, "vspace": 1, "hspace": 1, "includegraphics": 1,
    "setcounter": 2, "addtocounter": 2, "pagestyle": 1, "thispagestyle": 1, "input": 1, "include": 1,
    "phantom": 1, "hphantom": 1, "vphantom": 1, "addcontentsline": 3, "nocite": 1, "bibliography": 1,
    "hyperlink": 1, "settowidth": 2, "setlength": 2, "addvspace": 1, "enlargethispage": 1,
}
#: Commands that show nothing.
_NOTHING = {
    "noindent", "medskip", "smallskip", "bigskip", "xspace", "relax", "newpage", "clearpage", "centering",
    "hfill", "vfill", "indent", "protect", "nobreak", "allowbreak", "leavevmode", "maketitle", "raggedright",
    "raggedleft", "null", "strut", "displaystyle", "textstyle", "sloppy", "fussy", "break", "pagebreak",
    "nolinebreak", "nopagebreak", "unskip", "ignorespaces", "hline", "toprule", "midrule", "bottomrule",
    "vskip", "hskip", "filbreak", "goodbreak", "nolimits", "limits", "qedhere", "romannumeral", "value",
    "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "left", "right",
}
_LINE_BREAKS = {"newline", "par", "linebreak", "cr"}
_SPACE_WORDS = {"quad", "qquad", "enspace", "thinspace", "space", "nobreakspace", "enskip", "hfil"}
_SYMBOLS = {
    "dots": "…", "ldots": "…", "cdots": "⋯", "textellipsis": "…", "S": "§", "P": "¶", "ss": "ß", "o": "ø",
    "O": "Ø", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å", "l": "ł", "L": "Ł", "i": "ı",
    "j": "ȷ", "LaTeX": "LaTeX", "TeX": "TeX", "copyright": "©", "dag": "†", "ddag": "‡", "textendash": "–",
    "textemdash": "—", "textquoteleft": "‘", "textquoteright": "’", "textquotedblleft": "“",
    "textquotedblright": "”", "textbullet": "•", "textdagger": "†", "textsection": "§", "pounds": "£",
    "euro": "€", "textdegree": "°", "checkmark": "✓", "textbar": "|", "textless": "<", "textgreater": ">",
    "textasciitilde": "~", "textasciicircum": "^", "textunderscore": "_", "textbackslash": "\u29f5",
    "slash": "/", "textregistered": "®", "texttrademark": "™", "qed": "∎", "qedsymbol": "∎", "ie": "i.e.",
    "eg": "e.g.", "etc": "etc.", "neg": "¬", "bot": "⊥", "top": "⊤", "wedge": "∧", "vee": "∨", "land": "∧",
    "lor": "∨", "lnot": "¬", "Diamond": "◇", "Box": "□", "vcentcolon": ":",
}
#: Accents: TeX's command and the Unicode combining mark it puts on the next letter.
_ACCENTS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304", ".": "\u0307",
    "v": "\u030c", "u": "\u0306", "H": "\u030b", "c": "\u0327", "k": "\u0328", "r": "\u030a", "d": "\u0323",
    "b": "\u0331", "t": "\u0361",
}
_LISTS = {"enumerate", "itemize", "description", "list", "compactenum", "compactitem", "inparaenum"}
#: Environments whose first braced argument is a setting, not text.
_ENVIRONMENT_SETTINGS = {"minipage": 1, "tabular": 1, "tabularx": 2, "multicols": 1, "wrapfigure": 2, "array": 1}
_TEXT_REPLACEMENTS = (("---", "—"), ("--", "–"), ("``", "“"), ("''", "”"), ("`", "‘"), ("~", "\u00a0"))


@dataclass
class Prose:
    """What `latex_prose` made: the HTML, the commands it could not read (left out), and the
    math placeholders inside what TeX itself does not print (`\\index`, `\\label`)."""

    html: str
    unread: list[str] = field(default_factory=list)
    unprinted: set[int] = field(default_factory=set)


def latex_prose(
    text: str, literal: Callable[[str], str], link: Callable[[str], str | None], url: Callable[[str], str | None]
) -> Prose:
    """The HTML of LaTeX prose (see the module's doc). `literal` makes text safe to show;
    `link(label)` is the HTML of a link to the record a `\\ref` label names, or None; `url(u)`
    the URL as an attribute value when it may be linked to, else None."""
    return _Reader(text, literal, link, url).read()


@lru_cache(maxsize=None)
def _math_symbol(name: str) -> str:
    """The character pylatexenc's LaTeX-to-text table gives a symbol command, or ""."""
    spec = _symbols().get_macro_spec(name)
    found = getattr(spec, "simplify_repl", None)
    return found if isinstance(found, str) and not getattr(spec, "macroname", "").startswith("@") and "%" not in found else ""


@lru_cache(maxsize=1)
def _symbols() -> Any:
    from pylatexenc.latex2text import get_default_latex_context_db

    return get_default_latex_context_db()


class _Reader:
    def __init__(self, text: str, literal: Callable[[str], str], link: Callable[[str], str | None],
                 url: Callable[[str], str | None]) -> None:
        self.text = re.sub(r"\n[ \t]+", "\n", text)
        self.literal = literal
        self.link = link
        self.link_url = url
        self.out: list[str] = []
        #: What closes each open group ("" for a plain one).
        self.closers: list[str] = []
        self.unread: list[str] = []
        self.unprinted: set[int] = set()

    def read(self) -> Prose:
        at = 0
        for match in _TOKEN.finditer(self.text):
            if match.start() < at:
                continue
            self.plain(self.text[at:match.start()])
            at = self.token(match)
        self.plain(self.text[at:])
        self.out.extend(reversed(self.closers))
        return Prose("".join(self.out), self.unread, self.unprinted)

    def nested(self, text: str) -> str:
        """The HTML of a piece of prose read apart (an item's tag, a citation's note)."""
        prose = _Reader(text, self.literal, self.link, self.link_url).read()
        self.unread += prose.unread
        self.unprinted |= prose.unprinted
        return prose.html

    def plain(self, text: str) -> None:
        for written, shown in _TEXT_REPLACEMENTS:
            text = text.replace(written, shown)
        self.out.append(self.literal(text))

    def token(self, match: re.Match[str]) -> int:
        """Show one command, symbol or brace; where reading goes on."""
        at = match.end()
        if match.group(3) == "{":
            self.closers.append("")
        elif match.group(3) == "}":
            if self.closers:
                self.out.append(self.closers.pop())
        elif match.group(2) is not None:
            return self.symbol(match.group(2), at)
        else:  # TeX skips the spaces after a control word
            return self.command(match.group(1), re.compile(r"[ \t]*\n?[ \t]*").match(self.text, at).end())
        return at

    def symbol(self, char: str, at: int) -> int:
        if char in _ACCENTS:
            return self.accent(char, at)
        if char == "\\":
            self.out.append("<br>")
            return self.optional(at)[1]
        if char in "$%&_#{}":
            self.out.append(self.literal(char))
        elif char in " ,;:>!":
            self.out.append(" " if char in " ,;:>" else "")
        return at

    def command(self, name: str, at: int) -> int:
        if name in _ACCENTS:
            return self.accent(name, at)
        if name in _ARGUMENT_TAGS:
            if name == "hypertarget":
                at = self.argument(at)[1]
            return self.open_argument(at, _ARGUMENT_TAGS[name])
        if name in _SWITCH_TAGS:
            self.switch(_SWITCH_TAGS[name])
        elif name in _NOTES:
            at = self.optional(at)[1]
            self.out.append(" (")
            return self.open_argument(at, "", ")")
        elif name in _REFERENCES:
            return self.reference(at)
        elif name in ("cite", "citep", "citet", "citeyear", "citeauthor"):
            note, at = self.optional(at)
            keys, at = self.argument(at)
            self.out.append(f"&#91;{self.literal(keys)}{', ' + self.nested(note) if note else ''}&#93;")
        elif name == "href":
            url, at = self.argument(at)
            target = self.link_url(url)
            if target is None:
                return self.open_argument(at, "")
            self.out.append(f'<a href="{target}" target="_blank" rel="noopener noreferrer">')
            return self.open_argument(at, "", "</a>")
        elif name == "url":
            url, at = self.argument(at)
            self.out.append(self.literal(url))
        elif name == "hyperref":
            return self.open_argument(self.optional(at)[1], "")
        elif name in _DROPPED:
            start = at
            at = self.optional(at)[1]
            for _ in range(_DROPPED[name]):
                at = self.argument(at)[1]
            self.unprinted |= {int(n) for n in MATH_SLOT.findall(self.text[start:at])}
        elif name == "item":
            tag, at = self.optional(at)
            self.out.append("<br>• " + (self.nested(tag) + " " if tag else ""))
        elif name == "tagitem":  # Open Logic's list item: a tag, then the text around its symbol
            self.out.append("<br>• ")
            return self.argument(at)[1]
        elif name in ("begin", "end"):
            return self.environment(name, at)
        elif name in _LINE_BREAKS:
            self.out.append("<br>")
        elif name in _SPACE_WORDS:
            self.out.append(" ")
        elif name in _SYMBOLS:
            self.out.append(self.literal(_SYMBOLS[name]))
        elif _math_symbol(name):
            self.out.append(self.literal(_math_symbol(name)))
        elif name not in _NOTHING:
            self.unread.append(name)
        return at

    def environment(self, name: str, at: int) -> int:
        environment, at = self.argument(at)
        environment = environment.strip().rstrip("*")
        if name == "begin":
            note, at = self.optional(at)
            if note and environment not in _LISTS:  # a statement's own note, as in its heading
                self.out.append(f" ({self.nested(note)}) ")
            for _ in range(_ENVIRONMENT_SETTINGS.get(environment, 0)):
                at = self.argument(at)[1]
        if environment in _LISTS or environment in ("center", "quote", "quotation", "flushleft", "flushright"):
            self.out.append("\n")
        return at

    def reference(self, at: int) -> int:
        while True:
            note, after = self.optional(at)
            if after == at:
                break
            at = after
        label, at = self.argument(at)
        shown = self.link(label)
        self.out.append(shown if shown is not None else f"&#91;{self.literal(label)}&#93;")
        return at

    def accent(self, accent: str, at: int) -> int:
        """An accent on the next letter (`\\v C`, `\\v{C}`, `\\'{\\i}`)."""
        base, at = self.argument(at, single=True)
        base = {"\\i": "ı", "\\j": "ȷ"}.get(base.strip(), base.strip())
        if len(base) == 1 and base.isalpha():
            base = "i" if base == "ı" else base
            self.out.append(self.literal(unicodedata.normalize("NFC", base + _ACCENTS[accent])))
        else:
            self.plain(base)
        return at

    def switch(self, tag: str) -> None:
        if not tag:
            return
        self.out.append(f"<{tag}>")
        if self.closers:
            self.closers[-1] = f"</{tag}>" + self.closers[-1]
        else:
            self.closers.insert(0, f"</{tag}>")

    def open_argument(self, at: int, tag: str, after: str = "") -> int:
        """The braced argument at `at` is read on as a group that `tag` wraps and `after`
        follows; without a brace there, only `after` is shown."""
        brace = _SPACES.match(self.text, at).end()
        if not self.text.startswith("{", brace):
            self.out.append(after)
            return at
        self.out.append(f"<{tag}>" if tag else "")
        self.closers.append((f"</{tag}>" if tag else "") + after)
        return brace + 1

    def argument(self, at: int, single: bool = False) -> tuple[str, int]:
        """A braced argument's text (or with `single`, one character or command) and where it ends."""
        start = _SPACES.match(self.text, at).end()
        if self.text.startswith("{", start):
            end = group_end(self.text, start)
            if end is not None:
                return self.text[start + 1:end - 1], end
        if single and start < len(self.text):
            command = re.match(r"\\[A-Za-z]+|.", self.text[start:], re.S)
            assert command is not None
            return command.group(0), start + command.end()
        return "", at

    def optional(self, at: int) -> tuple[str, int]:
        """An optional `[...]` argument at `at`, if there is one."""
        start = _SPACES.match(self.text, at).end()
        if self.text.startswith("[", start):
            end = self.text.find("]", start)
            if end != -1 and "\n\n" not in self.text[start:end]:
                return self.text[start + 1:end], end + 1
        return "", at
