"""Doctests pass in every language, with a non-zero total and equal per-page counts.

A failed example is reported here as completely as `make doctest` reports it: file
and line, the example's source, and the expected and actual output (or the
exception), read from the builder's output.txt.
"""

import subprocess
import sys

import pytest
from conftest import BUILDDIR, LANGUAGES, Run
from tools.examples.doctest_report import compare, failures, load_record, parse


def report_path(language: str):
    return BUILDDIR / "doctest" / language / "output.txt"


def failure_message(run: Run, report: str | None) -> str:
    """What a failed doctest build says: every failed example whole, then the build's other warnings."""
    found = failures(report) if report is not None else []
    # The builder also logs each failed example as a warning whose first line is doctest's row of stars.
    warnings = [line for line in run.warnings() if not line.rstrip().endswith("*" * 70)]
    details = found + warnings or run.output.splitlines()[-40:]
    return f"{run.command} failed (exit status {run.returncode}):\n" + "\n\n".join(details)


@pytest.mark.parametrize("language", LANGUAGES)
def test_doctest_build_succeeds(doctest_runs, language):
    run = doctest_runs[language]
    report = report_path(language).read_text(encoding="utf-8") if report_path(language).exists() else None
    assert run.returncode == 0, failure_message(run, report)


def test_counts_agree_and_are_not_zero(doctest_runs):
    """Every page ran every example the build recorded for it (doctest_guard's examples.json), in every
    language, with the same counts."""
    reports = {lang: report_path(lang).read_text(encoding="utf-8") for lang in LANGUAGES}
    records = {lang: load_record(report_path(lang)) for lang in LANGUAGES}
    errors = compare(reports, records)
    assert errors == [], "\n".join(errors + [f"{lang}: {f}" for lang, text in reports.items() for f in failures(text)])
    tests, _, _ = parse(reports[LANGUAGES[0]])
    assert sum(tests.values()) > 0
    assert tests == records[LANGUAGES[0]]["pages"]


FAILING_PAGE = """\
(index)=
# Failing examples

```{doctest}
>>> 1 + 1
3
```

```{testcode}
print("a")
print("b")
```

```{testoutput}
a
c
```
"""


def test_a_failed_example_shows_its_source_expected_and_actual_output(tmp_path):
    """The message of test_doctest_build_succeeds, for a build like the Makefile's (no -q) with two failures."""
    source = tmp_path / "docs"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["myst_parser", "sphinx.ext.doctest"]\n')
    (source / "index.md").write_text(FAILING_PAGE)
    command = [sys.executable, "-m", "sphinx", "-b", "doctest", "-W", "--keep-going", "-n",
               str(source), str(tmp_path / "out")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    run = Run(" ".join(command), result.returncode, result.stdout + result.stderr)
    assert run.returncode != 0
    message = failure_message(run, (tmp_path / "out" / "output.txt").read_text(encoding="utf-8"))
    first = 'File "index.md", line 4, in default\nFailed example:\n    1 + 1\nExpected:\n    3\nGot:\n    2'
    second = 'Failed example:\n    print("a")\n    print("b")\nExpected:\n    a\n    c\nGot:\n    a\n    b'
    assert first in message and second in message, message
