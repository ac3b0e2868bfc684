"""The fixture projects of tests/roots/, built with sphinx-build and the project's extensions (-W)."""

import subprocess
import sys
from pathlib import Path

from conftest import ROOT

ROOTS = ROOT / "tests" / "roots"
SPHINX_BUILD = [sys.executable, "-m", "sphinx"]
SPHINX_TIMEOUT = 300  # seconds; a fixture project builds in seconds; past this it is stuck


def build(root: str, builder: str, out: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([*SPHINX_BUILD, "-b", builder, "-W", "--keep-going", "-q", *options,
                           str(ROOTS / root), str(out / builder)], capture_output=True, text=True,
                          timeout=SPHINX_TIMEOUT)
