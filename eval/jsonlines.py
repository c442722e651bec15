"""JSON-lines files of objects, read with errors that name the file and line.

Query sets, cached engine answers, judge exports and verdicts are all JSON lines: one reader,
so that a damaged line is reported the same way everywhere.
"""

from __future__ import annotations

import json
from typing import Any, Iterator


def json_objects(text: str, source: object, error: type[Exception] = ValueError
                 ) -> Iterator[tuple[int, dict[str, Any]]]:
    """`(line number, object)` for each non-empty line; raises `error` naming `source:line`
    when a line is not a JSON object."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{source}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as failure:
            raise error(f"{where}: invalid JSON ({failure.msg})") from failure
        if not isinstance(row, dict):
            raise error(f"{where}: expected a JSON object")
        yield number, row
