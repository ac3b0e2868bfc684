"""Shared fixtures: one fresh build of the whole site per test session.

The site is built through the Makefile (the single place that knows how to
build it) into ``_build/test`` with a fresh environment, so warnings from
every page are seen on every run. Both languages build in parallel.
"""

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from browser import Chromium, SiteServer  # noqa: E402
from project import SOURCE_LANGUAGE, translations  # noqa: E402

BUILDDIR = ROOT / "_build" / "test"
LANGUAGES = [SOURCE_LANGUAGE] + translations()


@dataclass
class Run:
    """One finished command: what it was, its exit code and its output."""

    command: str
    returncode: int
    output: str

    def warnings(self) -> list[str]:
        return [line for line in self.output.splitlines() if "WARNING" in line or "ERROR" in line]


def run_parallel(commands: dict[str, list[str]]) -> dict[str, Run]:
    procs = {key: subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for key, cmd in commands.items()}
    return {key: Run(" ".join(commands[key]), p.wait(), p.stdout.read()) for key, p in procs.items()}


def make(target: str, *extra: str) -> list[str]:
    return ["make", "--no-print-directory", target, f"BUILDDIR={BUILDDIR}", *extra]


@pytest.fixture(scope="session")
def html_builds() -> dict[str, Run]:
    """Fresh HTML builds, one per language (-E: read every page again)."""
    return run_parallel({lang: make(f"html-lang-{lang}", "O=-E") for lang in LANGUAGES})


@pytest.fixture(scope="session")
def doctest_runs(html_builds) -> dict[str, Run]:
    """Doctest builds, reusing the doctrees of the HTML builds."""
    return run_parallel({lang: make(f"doctest-lang-{lang}") for lang in LANGUAGES})


@pytest.fixture(scope="session")
def gettext_templates() -> Path:
    result = subprocess.run(make("gettext"), cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return BUILDDIR / "gettext"


def html_dir(language: str) -> Path:
    return BUILDDIR / "html" / language


# The browser tests (test_browser.py, test_parallel_view.py): one local server and one headless
# chromium per module, over the fresh builds of html_builds.
@pytest.fixture(scope="module")
def site(html_builds):
    with SiteServer(BUILDDIR / "html") as server:
        yield server.url


@pytest.fixture(scope="module")
def browser(site):
    chromium = Chromium()
    yield chromium
    chromium.close()
