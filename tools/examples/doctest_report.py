"""Check the doctest builder's results across languages.

    python tools/examples/doctest_report.py OUTPUT_TXT [OUTPUT_TXT ...]

Each argument is a doctest builder ``output.txt`` (one per language, the
source language first). Fails when any example failed, when a language ran
zero tests (the builder itself exits 0 then), or when a page ran a different
number of tests in two languages (a block lost in translation). A failed
example is shown as the builder reports it: file and line, the source, and the
expected and actual output (or the exception).

Beside each ``output.txt`` the builder (``docs/_ext/examples/doctest_guard.py``) leaves
``examples.json``: the pages it was about to test and how many examples each
has, written before any example ran. A page whose examples did not all run
fails, by name, and so does a run that did not finish (an example that ends
the process with ``os._exit(0)`` leaves a shorter ``output.txt``, the same in
every language, and an exit status of 0); ``running.txt`` then names the
example it ended in. The pages and tests of the OK line are the record's,
checked against what ran. A scoped run (``make check``, ``FILES=``) records
only its own pages.
"""

import json
import re
import sys
from pathlib import Path

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.project import DOCS  # noqa: E402

DOCUMENT = re.compile(r"^Document: (?P<page>\S+)$", re.MULTILINE)
TRIES = re.compile(r"^(?P<tries>\d+) tests? in \d+ items?\.$", re.MULTILINE)
FAILED = re.compile(r"^(?P<passed>\d+) passed and (?P<failed>\d+) failed\.$", re.MULTILINE)
SETUP_FAILURE = re.compile(r"^\s*(?P<n>\d+) failures? in (setup|cleanup) code$", re.MULTILINE)
SEPARATOR = re.compile(r"^\*{70}$", re.MULTILINE)  # doctest's line between two reports
SUMMARY_TESTS = re.compile(r"^Doctest summary\n=+\n\s*(?P<tests>\d+) tests?$", re.MULTILINE)
TIME_LIMIT = re.compile(r"^\s*examples\.doctest_guard\.ExampleTimeLimit: (?P<where>.*)$", re.MULTILINE)  # a hang, stopped
RECORD = "examples.json"  # written by docs/_ext/examples/doctest_guard.py before the run
RUNNING = "running.txt"  # the example running now; left behind by a run that did not finish
SHOWN_PAGES = 10  # pages named one by one when a run fell short; the rest are counted


def parse(output: str) -> tuple[dict[str, int], dict[str, int], int]:
    """Return (tests per page, failures per page, setup/cleanup failures)."""
    tests, failures = {}, {}
    sections = DOCUMENT.split(output)
    # split() with one group yields [preamble, page, body, page, body, ...]
    for page, body in zip(sections[1::2], sections[2::2]):
        body = body.split("Doctest summary")[0]
        tests[page] = sum(int(m["tries"]) for m in TRIES.finditer(body))
        failures[page] = sum(int(m["failed"]) for m in FAILED.finditer(body))
    setup_failures = sum(int(m["n"]) for m in SETUP_FAILURE.finditer(output))
    return tests, failures, setup_failures


def failures(output: str) -> list[str]:
    """Every failed example's report, whole: 'File "page.md", line N, in group', the example,
    then 'Expected:' and 'Got:' with their lines, or 'Exception raised:' and the traceback."""
    blocks = (block.strip("\n") for block in SEPARATOR.split(output))
    return [block for block in blocks if block.startswith('File "')]


FAILURE_AT = re.compile(r'^File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<group>.+)$', re.M)
FAILED_EXAMPLE = re.compile(r"^Failed example:\n\s+(?P<first>.*)$", re.M)


def located(block: str, docs_dir: Path) -> str:
    """The report of a failed example with the line of the example itself, as ``docs/page.md:LINE``.

    Sphinx counts an example's line from the line of its block's fence, one above the first
    ``>>>``; a reader's editor wants the example's own line. A testcode block is worse: Sphinx
    gives its fence line (less one) as both the test's and the example's line, and doctest adds
    them, so the report says ``2 * (fence - 1) + 1``. Only rewritten when that line of the page
    really holds the failed example.
    """
    where, example = FAILURE_AT.search(block), FAILED_EXAMPLE.search(block)
    if not where or not example:
        return block
    source = docs_dir / where["file"]
    try:
        lines = source.read_text(encoding="utf-8").splitlines()
    except OSError:
        return block
    reported, first = int(where["line"]), example["first"].strip()
    candidates = [(reported + 1, ">>> " + first)]  # a doctest block's example
    if reported % 2:  # a testcode block: its first line of code
        candidates.append(((reported - 1) // 2 + 2, first))
    for line, text in candidates:
        if line <= len(lines) and lines[line - 1].strip() == text:
            shown = source.relative_to(docs_dir.parent) if source.is_relative_to(docs_dir.parent) else source
            return block.replace(where.group(), f"{shown}:{line}: failed example (group {where['group']})", 1)
    return block


def load_record(output_txt: Path) -> dict | None:
    """The builder's record beside an output.txt, with "running" (the example the run was in when
    it ended) when the run left running.txt behind; None when there is no record."""
    folder = Path(output_txt).parent
    try:
        record = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    try:
        record["running"] = (folder / RUNNING).read_text(encoding="utf-8").strip()
    except OSError:
        pass
    return record


def record_errors(name: str, output: str, tests: dict[str, int], record: dict | None) -> list[str]:
    """What ran against what the build recorded before running: every page, every example."""
    if record is None:
        return [f"{name}: no {RECORD} beside it: the doctest build did not record the examples it was to run "
                "(it stopped before running any, or docs/_ext/examples/doctest_guard.py is not among the extensions)"]
    errors = []
    expected: dict[str, int] = record.get("pages", {})
    summary = SUMMARY_TESTS.search(output)
    if not record.get("finished") or summary is None:
        running = record.get("running")
        errors.append(f"{name}: the doctest run ended before it finished"
                      + (f", in the example at {running}" if running else "")
                      + " (an example that ends the process, a crash, a kill, or a hang past the time limit)")
    short = [f"{name}: {page}: {tests[page]} of {count} examples ran" if page in tests else
             f"{name}: {page}: no report of its {count} examples"
             for page, count in expected.items() if tests.get(page, 0) != count]
    if len(short) > SHOWN_PAGES:
        short[SHOWN_PAGES:] = [f"{name}: ... and {len(short) - SHOWN_PAGES} more pages whose examples did not all run"]
    errors += short
    errors += [f"{name}: {page}: {count} examples ran, but the build recorded none for this page"
               for page, count in tests.items() if page not in expected and count]
    if summary is not None and int(summary["tests"]) != sum(expected.values()):
        errors.append(f"{name}: the summary counts {summary['tests']} tests, the build recorded "
                      f"{sum(expected.values())} on {len(expected)} pages")
    return errors


def compare(reports: dict[str, str], records: dict[str, dict | None] | None = None) -> list[str]:
    """Every problem of the runs, one line each. ``records``: each run's record (load_record); when
    given, each page's count is checked against it as well."""
    errors = []
    counts = {}
    for name, text in reports.items():
        tests, failures, setup_failures = parse(text)
        counts[name] = tests
        if sum(tests.values()) == 0:
            errors.append(f"{name}: zero doctests ran")
        errors += [f"{name}: {page}: {n} failed example(s)" for page, n in failures.items() if n]
        errors += [f"{name}: {m['where']}" for m in TIME_LIMIT.finditer(text)]
        if setup_failures:
            errors.append(f"{name}: {setup_failures} failure(s) in setup or cleanup code")
        if records is not None:
            errors += record_errors(name, text, tests, records.get(name))
    names = list(counts)
    reference = names[0]
    for other in names[1:]:
        for page in sorted(set(counts[reference]) | set(counts[other])):
            a, b = counts[reference].get(page, 0), counts[other].get(page, 0)
            if a != b:
                errors.append(f"{page}: {a} tests in {reference} but {b} in {other}")
    return errors


def slowest(records) -> str:
    """The slowest example and group of all the runs, beside the time limit (the margin to watch)."""
    found = []
    for what in ("examples", "groups"):
        times = [entry for record in records for entry in record.get(f"slowest_{what}", [])]
        if times:
            top = max(times, key=lambda entry: entry["seconds"])
            found.append(f"{what[:-1]} {top['seconds']:.1f} s ({top['at']})")
    limits = {record.get("time_limit") for record in records}
    return f"; slowest {', '.join(found)}; limit {max(limits):g} s" if found and None not in limits else ""


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit(__doc__)
    reports, records = {}, {}
    for path in argv:
        if not Path(path).exists():
            sys.exit(f"{path}: no doctest output (did the doctest build run?)")
        reports[path] = Path(path).read_text(encoding="utf-8")
        records[path] = load_record(Path(path))
    errors = compare(reports, records)
    if errors:
        details = [f"{path}:\n{located(report, DOCS)}" for path, text in reports.items() for report in failures(text)]
        sys.exit("\n\n".join(["doctest check failed:\n" + "\n".join(errors), *details]))
    pages = records[argv[0]]["pages"]  # what ran, checked page by page against this record above
    print(f"doctest OK: {sum(pages.values())} tests on {len(pages)} pages, as the build recorded them, "
          f"same counts in {len(argv)} languages" + slowest(records.values()))


if __name__ == "__main__":
    main(sys.argv[1:])
