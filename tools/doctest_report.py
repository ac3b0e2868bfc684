"""Check the doctest builder's results across languages.

    python tools/doctest_report.py OUTPUT_TXT [OUTPUT_TXT ...]

Each argument is a doctest builder ``output.txt`` (one per language, the
source language first). Fails when any example failed, when a language ran
zero tests (the builder itself exits 0 then), or when a page ran a different
number of tests in two languages (a block lost in translation). A failed
example is shown as the builder reports it: file and line, the source, and the
expected and actual output (or the exception).
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from project import DOCS  # noqa: E402

DOCUMENT = re.compile(r"^Document: (?P<page>\S+)$", re.MULTILINE)
TRIES = re.compile(r"^(?P<tries>\d+) tests? in \d+ items?\.$", re.MULTILINE)
FAILED = re.compile(r"^(?P<passed>\d+) passed and (?P<failed>\d+) failed\.$", re.MULTILINE)
SETUP_FAILURE = re.compile(r"^\s*(?P<n>\d+) failures? in (setup|cleanup) code$", re.MULTILINE)
SEPARATOR = re.compile(r"^\*{70}$", re.MULTILINE)  # doctest's line between two reports


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
    ``>>>``; a reader's editor wants the example's own line. Only rewritten when that line of the
    page really holds the failed example.
    """
    where, example = FAILURE_AT.search(block), FAILED_EXAMPLE.search(block)
    if not where or not example:
        return block
    source = docs_dir / where["file"]
    try:
        lines = source.read_text(encoding="utf-8").splitlines()
    except OSError:
        return block
    line = int(where["line"]) + 1
    if line <= len(lines) and lines[line - 1].strip() == ">>> " + example["first"].strip():
        shown = source.relative_to(docs_dir.parent) if source.is_relative_to(docs_dir.parent) else source
        return block.replace(where.group(), f"{shown}:{line}: failed example (group {where['group']})", 1)
    return block


def compare(reports: dict[str, str]) -> list[str]:
    errors = []
    counts = {}
    for name, text in reports.items():
        tests, failures, setup_failures = parse(text)
        counts[name] = tests
        if sum(tests.values()) == 0:
            errors.append(f"{name}: zero doctests ran")
        errors += [f"{name}: {page}: {n} failed example(s)" for page, n in failures.items() if n]
        if setup_failures:
            errors.append(f"{name}: {setup_failures} failure(s) in setup or cleanup code")
    names = list(counts)
    reference = names[0]
    for other in names[1:]:
        for page in sorted(set(counts[reference]) | set(counts[other])):
            a, b = counts[reference].get(page, 0), counts[other].get(page, 0)
            if a != b:
                errors.append(f"{page}: {a} tests in {reference} but {b} in {other}")
    return errors


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit(__doc__)
    reports = {}
    for path in argv:
        if not Path(path).exists():
            sys.exit(f"{path}: no doctest output (did the doctest build run?)")
        reports[path] = Path(path).read_text(encoding="utf-8")
    errors = compare(reports)
    if errors:
        details = [f"{path}:\n{located(report, DOCS)}" for path, text in reports.items() for report in failures(text)]
        sys.exit("\n\n".join(["doctest check failed:\n" + "\n".join(errors), *details]))
    tests, _, _ = parse(reports[argv[0]])
    print(f"doctest OK: {sum(tests.values())} tests on {len(tests)} pages, same counts in {len(argv)} languages")


if __name__ == "__main__":
    main(sys.argv[1:])
