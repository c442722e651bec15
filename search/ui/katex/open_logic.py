"""Open Logic's connectives and selective typesetting. Its sty/open-logic-config.sty, which the
corpus archive leaves out, names the logical symbols (`\\lif` for the conditional, `\\lforall`,
...); `connectives_named` writes them as TeX's own, for KaTeX in math and as their characters
in prose. Its selective typesetting, `\\iftag{tags}{text if a tag is on}{text if none is}`
(its sty/open-logic-selective.sty, after the `tagging` package): a card shows the text its
default build prints, with the tags that open-logic-config.sty turns on and off. `notX` is
on when `X` is off; a tag neither list names is off."""

from __future__ import annotations

import re

from search.ui.katex.groups import next_argument

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


#: Open Logic's connectives and quantifiers, as TeX's own commands.
CONNECTIVES = {
    "lnot": "neg", "land": "wedge", "lor": "vee", "lif": "rightarrow", "liff": "leftrightarrow",
    "lforall": "forall", "lexists": "exists", "lfalse": "bot", "ltrue": "top",
}
_CONNECTIVE = re.compile(r"\\(" + "|".join(CONNECTIVES) + r")(?![A-Za-z])")


def connectives_named(text: str) -> str:
    """Open Logic's connective commands (`CONNECTIVES`) as TeX's."""
    return _CONNECTIVE.sub(lambda m: "\\" + CONNECTIVES[m.group(1)], text)


def tags_resolved(text: str) -> str:
    """Each `\\iftag{tags}{then}{else}` replaced by the branch Open Logic's default build
    prints (`_TAGS_ON`): `then` when one of its comma-separated tags is on, else `else`;
    a branch's own `\\iftag`s are resolved in turn."""
    at = 0
    while (match := _IFTAG.search(text, at)) is not None:
        tags, end = next_argument(text, match.end())
        then, end = next_argument(text, end)
        otherwise, end = next_argument(text, end)
        on = any(_tag_on(tag.strip()) for tag in tags.split(","))
        text = text[:match.start()] + (then if on else otherwise) + text[end:]
        at = match.start()
    return text


def _tag_on(tag: str) -> bool:
    return tag in _TAGS_ON or (tag.startswith("not") and tag[3:] in _TAGS_OFF)
