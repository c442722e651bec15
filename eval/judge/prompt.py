"""What the judge reads: instructions, then the query and each engine's results under a blind label.

Written in our own words after the LeanExplore paper's judging prompt: the judge compares the three
result lists for accuracy with respect to the query, may tie engines, reasons first and ends with
a single ranking line. Every result shows the same fields whatever the engine (name, code,
docstring, informal description), `N/A` for a field the engine does not have, so that the
judge compares results, not formats.
"""

from __future__ import annotations

from typing import Mapping

from eval.engines.base import Answer, Hit

LETTERS = ("A", "B", "C")
MISSING = "N/A"

SYSTEM = """\
You judge search engines for mathematics: Lean 4 libraries such as Mathlib, and mathematical \
texts. For one search query you get the top results of three engines, called Engine A, \
Engine B and Engine C; you are not told which engine is which. Rank the three engines by how \
accurately their results answer the query: a good engine returns the statements or definitions \
that the person who typed the query is looking for, and puts them near the top. Two or three \
engines of about the same quality may share a rank.

Give your reasoning first. Then end your answer with one final line that contains the ranking \
and nothing else: the three names Engine A, Engine B and Engine C, each exactly once, best \
first, with ", " (a comma and a space) between different ranks and " = " (an equals sign with \
a space on each side) between engines that share a rank. Examples of final lines:
Engine C, Engine A, Engine B
Engine B = Engine C, Engine A
Engine A, Engine B = Engine C
Engine A = Engine B = Engine C"""

CLOSING = """\
Explain how well each engine's results answer the query, then give your ranking on a last \
line of its own: only Engine A, Engine B and Engine C, best first, ", " between ranks and \
" = " between engines that share a rank."""


def user_message(query: str, blocks: Mapping[str, Answer]) -> str:
    """The query and each engine's results, in label order (`blocks`: letter -> answer)."""
    parts = [f'Query: "{query}"', "", "Search results:"]
    for letter in sorted(blocks):
        parts += ["", f"===== Engine {letter} =====", "", format_answer(blocks[letter])]
    parts += ["", CLOSING]
    return "\n".join(parts)


def messages(query: str, blocks: Mapping[str, Answer]) -> list[dict[str, str]]:
    """Chat messages in the OpenAI format, ready to send."""
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user_message(query, blocks)}]


def format_answer(answer: Answer) -> str:
    """Every hit of the answer (an export asks each engine for its top k, the paper's 5)."""
    if answer.status == "rejected":
        return f"The engine returned no results; it answered with an error: {answer.error}"
    if answer.status == "failed":
        raise ValueError(f"{answer.engine} gave no answer for {answer.query!r}; such queries are not judged")
    if not answer.hits:
        return "The engine returned no results."
    return "\n\n".join(format_hit(i, hit) for i, hit in enumerate(answer.hits, 1))


def format_hit(number: int, hit: Hit) -> str:
    name = hit.name + (f" ({hit.kind})" if hit.kind else "")
    return "\n".join([
        f"RESULT {number}",
        f"Name: {name}",
        "Code:", _field(hit.code),
        "Docstring:", _field(hit.docstring),
        "Informal description:", _field(hit.informal),
    ])


def _field(value: str) -> str:
    return value.strip() or MISSING

