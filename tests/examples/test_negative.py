"""Each check goes red on bad input, and says where.

Small fixture projects under tests/roots/ each contain one kind of defect;
they are built with the project's own extensions and tools.
"""

import re
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT
from fixture_builds import ROOTS, SPHINX_BUILD, SPHINX_TIMEOUT, build
from tools.catalogs.check_catalogs import check
from tools.examples.doctest_report import compare
from tools.web.html_lang import chinese_outside_marked_elements


def test_wrong_expected_output_fails_the_doctest(tmp_path):
    result = build("test-wrong-output", "doctest", tmp_path)
    assert result.returncode != 0
    report = (tmp_path / "doctest" / "output.txt").read_text(encoding="utf-8")
    assert 'File "index.md", line 4' in report and "Expected:\n    3\nGot:\n    2" in report, report
    assert compare({"zh_CN": report}) == ["zh_CN: index: 1 failed example(s)"]


def test_zero_doctests_fail_the_report(tmp_path):
    build("test-zero-tests", "doctest", tmp_path)
    report = (tmp_path / "doctest" / "output.txt").read_text(encoding="utf-8")
    assert compare({"zh_CN": report}) == ["zh_CN: zero doctests ran"]


def test_differing_counts_between_languages_fail_the_report():
    def report(tests: int) -> str:
        return f"Document: page\n------\n{tests} tests in 1 items.\n{tests} passed and 0 failed.\n"
    assert compare({"zh_CN": report(3), "en": report(2)}) == ["page: 3 tests in zh_CN but 2 in en"]


def test_untested_python_fence_and_bare_prompt_are_reported(tmp_path):
    result = build("test-untested-fence", "html", tmp_path)
    assert result.returncode != 0
    assert "index.md:4: WARNING: untested Python code block" in result.stderr, result.stderr
    assert "index.md:9: WARNING: '>>>' outside a code block is never tested" in result.stderr, result.stderr


def test_broken_catalog_is_reported_with_file_and_line():
    root = ROOTS / "test-broken-catalog"
    errors = check(["en"], docs_dir=root, locale_dir=root / "locale")
    po = root / "locale" / "en" / "LC_MESSAGES" / "index.po"
    assert any(e.startswith(f"{po}:10:") for e in errors), errors  # the msgstr without its closing quote


def test_hard_wrapped_paragraph_is_reported_and_its_translation_goes_missing(tmp_path):
    root = ROOTS / "test-hardwrap"
    result = build("test-hardwrap", "html", tmp_path)
    assert "index.md:4: WARNING: hard-wrapped Chinese paragraph" in result.stderr, result.stderr
    # The translation exists for the one-line paragraph only: the catalog check
    # against fresh templates and the English HTML both show the gap.
    subprocess.run([*SPHINX_BUILD, "-b", "gettext", "-q", str(root), str(tmp_path / "pot")], check=True,
                   timeout=SPHINX_TIMEOUT)
    errors = check(["en"], docs_dir=root, locale_dir=root / "locale", pot_dir=tmp_path / "pot")
    assert any("no entry for the current source text" in e for e in errors), errors
    subprocess.run([*SPHINX_BUILD, "-b", "html", "-q", "-D", "language=en", str(root), str(tmp_path / "en")],
                   check=True, timeout=SPHINX_TIMEOUT)
    html = (tmp_path / "en" / "index.html").read_text(encoding="utf-8")
    assert any("硬换行" in text for _, text in chinese_outside_marked_elements(html))


# -- doctest runs that cannot lie or hang (examples/doctest_guard.py, tools/examples/doctest_report.py) -----

def doctest_report(*outputs: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "examples" / "doctest_report.py"), *map(str, outputs)],
                          capture_output=True, text=True, timeout=60)


def test_a_run_that_ends_early_fails_naming_the_page_and_the_example(tmp_path):
    """b.md: a failed example, then one that ends the process with os._exit(0), then one more; c.md after it.

    The builder exits 0 and output.txt shows a.md whole and b.md cut off: fewer pages and tests, the same in
    every language, and 'doctest OK' used to be the report's word for it."""
    result = build("test-early-exit", "doctest", tmp_path)
    assert result.returncode == 0, result.stderr  # os._exit(0): nothing in the process can tell
    out = tmp_path / "doctest"
    report = doctest_report(out / "output.txt", out / "output.txt")  # two languages that stopped alike
    assert report.returncode == 1, report.stdout
    first_code_line = line_of(ROOTS / "test-early-exit" / "b.md", "import os")
    assert f"test-early-exit/b.md:{first_code_line} (an example that ends the process" in report.stderr, report.stderr
    # b's report is cut off or lost with the process (how much of it reached the disk depends on buffering)
    assert re.search(r": b: (0 of 3 examples ran|no report of its 3 examples)\n", report.stderr), report.stderr
    assert f"{out / 'output.txt'}: c: no report of its 1 examples\n" in report.stderr, report.stderr
    assert ": a:" not in report.stderr  # the page that ran whole is not blamed


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


HANG_TIMEOUT = 60  # seconds; each hang fixture ends in under 10 s with its limit; past this the limit did not work


def test_a_hanging_example_fails_at_its_time_limit_naming_file_and_line(tmp_path):
    """loop.md: `while True: pass` (inside `try: ... except Exception`), between two examples that pass."""
    root = ROOTS / "test-hang"
    started = time.monotonic()
    result = subprocess.run([*SPHINX_BUILD, "-b", "doctest", "-W", "--keep-going", "-q", "-D", "doctest_time_limit=2",
                             str(root), str(tmp_path / "doctest"), str(root / "loop.md"), str(root / "later.md")],
                            capture_output=True, text=True, timeout=HANG_TIMEOUT)
    assert result.returncode == 1, result.stderr
    assert time.monotonic() - started < HANG_TIMEOUT
    output = (tmp_path / "doctest" / "output.txt").read_text(encoding="utf-8")
    where = f"test-hang/loop.md:{line_of(root / 'loop.md', 'try:')}"
    assert f"{where}: still running after 2 s, the time limit of one example" in output, output
    assert "3 tests in 1 items.\n2 passed and 1 failed." in output, output  # the example after it ran
    report = doctest_report(tmp_path / "doctest" / "output.txt")
    assert report.returncode == 1
    errors = report.stderr.split("\n\n")[0]  # the summary above the failed examples' reports
    assert f"{where}: still running after 2 s" in errors and ": loop: 1 failed example(s)" in errors, report.stderr
    assert "examples ran" not in errors and "no report" not in errors and "ended before" not in errors, \
        report.stderr  # the run finished, every example ran


def test_a_hang_inside_one_c_call_ends_the_run_and_names_the_example(tmp_path):
    """in-c.md: deque(repeat(0), maxlen=0) never returns to the interpreter, so the timer's handler never runs:
    the backstop (faulthandler) ends the process doctest_time_limit_grace seconds after the limit."""
    root = ROOTS / "test-hang"
    result = subprocess.run([*SPHINX_BUILD, "-b", "doctest", "-W", "--keep-going", "-q", "-D", "doctest_time_limit=1",
                             "-D", "doctest_time_limit_grace=2", str(root), str(tmp_path / "doctest"),
                             str(root / "in-c.md"), str(root / "later.md")],
                            capture_output=True, text=True, timeout=HANG_TIMEOUT)
    assert result.returncode == 1
    assert "Timeout (0:00:03)!" in result.stderr and 'File "<doctest default[1]>", line 1' in result.stderr, \
        result.stderr
    report = doctest_report(tmp_path / "doctest" / "output.txt")
    assert report.returncode == 1
    where = f"test-hang/in-c.md:{line_of(root / 'in-c.md', 'collections.deque')}"
    assert "the doctest run ended before it finished, in the example at " in report.stderr, report.stderr
    assert f"{where} (an example that ends the process" in report.stderr, report.stderr
    assert ": later: no report of its 1 examples" in report.stderr, report.stderr


def test_a_run_is_checked_against_its_own_record_only(tmp_path):
    """A scoped run (make check, FILES=) records and is checked on its own pages; a record from an
    earlier run is never read."""
    root = ROOTS / "test-early-exit"
    out = tmp_path / "doctest"
    build("test-early-exit", "doctest", tmp_path)  # the whole fixture: its record names a, b and c
    result = subprocess.run([*SPHINX_BUILD, "-b", "doctest", "-W", "--keep-going", "-q", str(root), str(out),
                             str(root / "a.md"), str(root / "c.md")], capture_output=True, text=True,
                            timeout=SPHINX_TIMEOUT)
    assert result.returncode == 0, result.stderr
    report = doctest_report(out / "output.txt")
    assert report.returncode == 0, report.stderr
    assert report.stdout.startswith("doctest OK: 2 tests on 2 pages, as the build recorded them, same counts in "
                                    "1 languages; slowest example "), report.stdout
    assert report.stdout.endswith("; limit 300 s\n"), report.stdout  # the default when conf.py sets none
    (out / "examples.json").unlink()
    report = doctest_report(out / "output.txt")
    assert report.returncode == 1 and "no examples.json beside it" in report.stderr, report.stderr


# -- a listing cut short by a moved marker (docs/_ext/examples/snippet_regions.py) ----------------------------------

def test_a_listing_cut_short_by_a_moved_end_marker_fails_the_build(tmp_path):
    """program.py: '# [/data]' one line too high, above 'y = 2 * x + 1'. The program still runs; the page
    showed the 'data' listing without its last line, and the build passed."""
    result = build("test-cut-region", "html", tmp_path)
    assert result.returncode != 0
    page_line = line_of(ROOTS / "test-cut-region" / "index.md", "literalinclude")
    marker_line = line_of(ROOTS / "test-cut-region" / "snippets" / "program.py", "# [/data]")
    assert f"index.md:{page_line}: WARNING: " in result.stderr, result.stderr
    assert (f"test-cut-region/snippets/program.py:{marker_line}: the region ends at '# [/data]' in the middle of a "
            f"run of code: line {marker_line + 1} ('y = 2 * x + 1') follows it") in result.stderr, result.stderr
    assert result.stderr.count("WARNING") == 1, result.stderr  # the 'fit' region of the same program is whole
