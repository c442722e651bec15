"""Run one benchmark function in this (child) process: `python -m eval.bench.worker MODULE:FUNCTION JSON`.

The function is called with the JSON object's keys as keyword arguments; its JSON result is
the last line of stdout, so that progress logged on stderr or printed before it does not
matter. The parent (`measure.call_in_child`) reads the child's peak memory from the kernel.
"""

from __future__ import annotations

import importlib
import json
import logging
import sys

RESULT_PREFIX = "BENCH-RESULT "


def main(argv: list[str]) -> int:
    if len(argv) != 2 or ":" not in argv[0]:
        print("usage: python -m eval.bench.worker MODULE:FUNCTION JSON_KWARGS", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    module, _, name = argv[0].partition(":")
    function = getattr(importlib.import_module(module), name)
    result = function(**json.loads(argv[1]))
    sys.stdout.flush()
    print(RESULT_PREFIX + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
