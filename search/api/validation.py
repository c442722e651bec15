"""The checks every API shape and MCP tool applies to a request, and the error they answer with.

The numbers live in `search.config` (docs/api.md); they are applied here, so
that a query or a ranking variant is checked the same way whichever door it came in by.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any

from pydantic import AfterValidator

from search import config
from search.engine import variants

MAX_RESULTS = config.API_MAX_RESULTS
MAX_QUERY_CHARS = config.API_MAX_QUERY_CHARS
MAX_QUERIES = config.API_MAX_QUERIES


class ApiError(Exception):
    """A request the API refuses: an HTTP status, a message for people, extra JSON fields."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def clean_query(text: str, what: str = "query") -> str:
    """The query without surrounding space; refused when empty, too long, or holding control
    characters (tabs and line breaks are kept: a goal state has several lines) or lone UTF-16
    surrogates (a browser's JSON can carry them; they are no text and no encoder takes them)."""
    text = text.strip()
    if not text:
        raise ApiError(400, f"the {what} is empty: give words, LaTeX, Lean notation or a Lean name")
    if len(text) > MAX_QUERY_CHARS:
        raise ApiError(
            400, f"the {what} has {len(text)} characters; at most {MAX_QUERY_CHARS} are accepted"
        )
    for char in text:
        category = unicodedata.category(char)
        if category == "Cc" and char not in "\t\n\r":
            raise ApiError(400, f"the {what} contains the control character U+{ord(char):04X}")
        if category == "Cs":
            raise ApiError(400, f"the {what} contains U+{ord(char):04X}, half of a surrogate pair, not a character")
    return text


def check_count(k: int, what: str, most: int = MAX_RESULTS) -> int:
    """A result count from 1 to `most` (booleans are not numbers here)."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= most:
        raise ApiError(400, f"{what} must be a whole number from 1 to {most}; got {k!r}")
    return k


def numeric_string(value: Any) -> Any:
    """`"5"` as 5, for a count in a request body: the servers the API shapes imitate (FastAPI,
    an `int` field) read a numeric string as its number, and clients send one (lean-lsp-mcp's
    LeanSearch call). Anything else is left to the field's strict check (no floats, no booleans)."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return value


def check_variant(variant: str) -> str:
    """A name in the variant registry (read at each request, so that every registered variant
    is accepted)."""
    if variant not in variants.VARIANTS:
        raise ApiError(400, str(variants.UnknownVariant(variant)), suggestions=list(variants.names()))
    return variant


def _known_variant(variant: str) -> str:
    if variant not in variants.VARIANTS:
        raise ValueError(str(variants.UnknownVariant(variant)))
    return variant


#: A ranking variant in a request model or parameter: refused with a 422 naming the choices.
Variant = Annotated[str, AfterValidator(_known_variant)]
