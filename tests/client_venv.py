"""Client packages others wrote, each installed unmodified into a virtual environment of its own
(their pins clash with ours: lean-lsp-mcp pins `mcp==2.2.0`, lean-explore `mcp<2`), kept under
pytest's cache directory by name and version, so that it is made once per checkout (CI's clean
clone makes each once: `python -m venv` and `pip install`, tens of seconds each)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: Seconds a `pip install` may take before the test is skipped as unable to install.
INSTALL_TIMEOUT = 600
#: Written last into a virtual environment whose install succeeded.
COMPLETE = ".installed"


def client_venv(config: pytest.Config, requirement: str) -> Path:
    """The virtual environment holding `requirement` (`name==version`), made when missing; the
    test is skipped, saying why, when the package cannot be installed."""
    root = config.cache.mkdir("client-venvs") if config.cache is not None else Path(".pytest_cache") / "client-venvs"
    venv = Path(root) / requirement.replace("==", "-")
    python = venv / "bin" / "python"
    if (venv / COMPLETE).exists() and python.exists():
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    started = time.monotonic()
    steps = [[sys.executable, "-m", "venv", str(venv)],
             [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", requirement]]
    for step in steps:
        try:
            done = subprocess.run(step, capture_output=True, text=True, timeout=INSTALL_TIMEOUT,
                                  env={**os.environ, "PIP_NO_INPUT": "1"})
        except subprocess.TimeoutExpired:
            pytest.skip(f"{requirement} could not be installed: `{' '.join(step[-2:])}` took over {INSTALL_TIMEOUT} s")
        if done.returncode != 0:
            shutil.rmtree(venv, ignore_errors=True)
            pytest.skip(f"{requirement} could not be installed into its own virtual environment: "
                        f"{(done.stderr or done.stdout).strip()[-600:]}")
    (venv / COMPLETE).write_text(f"{time.monotonic() - started:.1f} s\n")
    return venv
