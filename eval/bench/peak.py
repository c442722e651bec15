"""Run a command and write its peak RSS (kB) to a file: `python -m eval.bench.peak FILE COMMAND...`.

Why a launcher: Linux carries a process's peak RSS across `exec` from the process it was forked
from, so a command started directly by the benchmark (hundreds of MB, with numpy and the rest
loaded) would report at least the benchmark's own size. Started from this small process, the
command's peak is its own (plus this launcher's ~10 MB at most). The launcher ignores SIGINT,
so that interrupting the process group stops the command and the launcher still reports.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: python -m eval.bench.peak FILE COMMAND...", file=sys.stderr)
        return 2
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    process = subprocess.Popen(argv[1:], preexec_fn=_default_sigint)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    with open(argv[0], "w", encoding="utf-8") as out:
        out.write(f"{usage.ru_maxrss}\n")
    return process.returncode if process.returncode >= 0 else 128 - process.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
