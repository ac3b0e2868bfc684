"""Doctests pass in every language, with a non-zero total and equal per-page counts."""

import pytest
from conftest import BUILDDIR, LANGUAGES
from doctest_report import compare, parse


@pytest.mark.parametrize("language", LANGUAGES)
def test_doctest_build_succeeds(doctest_runs, language):
    run = doctest_runs[language]
    failures = [line for line in run.output.splitlines() if line.startswith(("File ", "Failed", "Expected", "Got"))]
    assert run.returncode == 0, f"{run.command} failed:\n" + "\n".join(failures or run.output.splitlines()[-40:])


def test_counts_agree_and_are_not_zero(doctest_runs):
    reports = {lang: (BUILDDIR / "doctest" / lang / "output.txt").read_text(encoding="utf-8") for lang in LANGUAGES}
    assert compare(reports) == []
    tests, _, _ = parse(reports[LANGUAGES[0]])
    assert sum(tests.values()) > 0
