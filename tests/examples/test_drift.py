"""make drift's own logic, on a fixture: no torch is installed for it.

tests/roots/test-drift documents fakelib version 1; version 2 changes one output, one
signature and one warning. The tool must report exactly those three, with the diff, file and
line, and exit 1; two identical environments must give an empty report and exit 0.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

FIXTURE = ROOT / "tests" / "roots" / "test-drift"
SPHINX_TIMEOUT = 300  # seconds; the fixture project builds in seconds; past this it is stuck


@pytest.fixture(scope="module")
def doctrees(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("drift-build")
    result = subprocess.run([sys.executable, "-m", "sphinx", "-b", "dummy", "-q", "-c", str(FIXTURE),
                             "-d", str(out / "doctrees"), str(FIXTURE / "docs"), str(out / "dummy")],
                            capture_output=True, text=True, timeout=SPHINX_TIMEOUT)
    assert result.returncode == 0, result.stderr
    return out / "doctrees"


def drift(doctrees: Path, report: Path, other: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "examples" / "drift.py"),
                           "--reference-python", sys.executable, "--reference-path", str(FIXTURE / "version-1"),
                           "--other-python", sys.executable, "--other-path", str(FIXTURE / other),
                           "--reference-label", "fakelib 1", "--other-label", f"fakelib {other[-1]}",
                           "--docs", str(FIXTURE / "docs"), "--conf", str(FIXTURE), "--out", str(report),
                           str(doctrees)], capture_output=True, text=True, timeout=120)


def test_a_changed_output_signature_and_warning_are_each_reported(doctrees, tmp_path):
    result = drift(doctrees, tmp_path / "report.txt", "version-2")
    assert result.returncode == 1, result.stdout + result.stderr
    report = (tmp_path / "report.txt").read_text(encoding="utf-8")
    assert "## index" in report
    assert ">>> fakelib.scale(3)" in report and "-6\n" in report and "+9\n" in report, report
    assert "expected on the page: held with fakelib 1, failed with fakelib 2" in report, report
    assert ">>> fakelib.name()" not in report and ">>> fakelib.legacy()" not in report, "an unchanged example"
    assert "Signature differs with fakelib 2: " in report and "docs/index.md:3: fakelib.scale(x, factor=2)" in report
    assert "fakelib.name()" not in report.split("Signature differs")[1], "an unchanged signature"
    assert "Warning new with fakelib 2: DeprecationWarning: legacy() is deprecated" in report, report
    summary = ("drift fakelib 2 against fakelib 1: 1 example(s) changed, 1 signature(s) differ, "
               "1 warning(s) new, 0 gone, on 1 page(s)")
    assert report.rstrip().endswith(summary) and summary in result.stdout


def test_the_same_environment_twice_reports_nothing_and_exits_0(doctrees, tmp_path):
    result = drift(doctrees, tmp_path / "report.txt", "version-1")
    assert result.returncode == 0, result.stdout + result.stderr
    report = (tmp_path / "report.txt").read_text(encoding="utf-8")
    assert "##" not in report
    assert "0 example(s) changed, 0 signature(s) differ, 0 warning(s) new, 0 gone, on 0 page(s)" in report


def test_an_environment_that_cannot_run_the_examples_fails_with_exit_2(doctrees, tmp_path):
    result = drift(doctrees, tmp_path / "report.txt", "no-such-version")  # fakelib does not import there
    assert result.returncode == 2, result.stdout + result.stderr
    assert "could not run the examples" in result.stderr and "ModuleNotFoundError" in result.stderr


def test_a_package_index_that_cannot_be_reached_is_named_not_a_package(tmp_path):
    """Without network pip says 'no matching distribution found for numpy==...' (or pillow, whichever comes
    first): the report must say that the index could not be reached. The index here refuses connections."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), PIP_CONFIG_FILE=os.devnull, PIP_RETRIES="0",
               PIP_INDEX_URL="http://127.0.0.1:9/simple", PIP_DISABLE_PIP_VERSION_CHECK="1")
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "examples" / "drift.py"), "--torch", "9.9.9",
                             "--python", sys.executable, "--out", str(tmp_path / "report.txt"), str(tmp_path)],
                            capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 2, result.stdout + result.stderr
    assert ("drift: the package index cannot be reached, so pip could not look for numpy==" in result.stderr
            and "http://127.0.0.1:9/simple: [Errno 111] Connection refused" in result.stderr), result.stderr
