"""What a query is: a Lean name, a quoted name substring, or natural language.

Routing decides which signals lead: a name that exists is answered first; a quoted
`"substring"` searches names only; everything else (prose, LaTeX, Lean notation) goes through
every signal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_IDENT = re.compile(r"^[^\s\"'(),:]+$")


@dataclass(frozen=True)
class ParsedQuery:
    text: str
    kind: str  # "name", "substring" or "text"
    substrings: tuple[str, ...] = ()


def parse_query(text: str) -> ParsedQuery:
    """Classify a query; a name-shaped query may still be text if no record bears the name."""
    text = " ".join(text.split())
    quoted = re.findall(r'"([^"]+)"', text)
    if quoted and not re.sub(r'"[^"]+"|,', "", text).strip():
        return ParsedQuery(text, "substring", tuple(q.lower() for q in quoted))
    if _IDENT.match(text) and ("." in text or "_" in text or re.search(r"[a-z][A-Z]", text)):
        return ParsedQuery(text, "name")
    return ParsedQuery(text, "text")
