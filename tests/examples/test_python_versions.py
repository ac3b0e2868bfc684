"""The Python chapter says, on every page, which Pythons its examples ran on (tests/data/python-versions.tsv).

The table records each run (page, version, examples run, passed, notes); every page of the
chapter has a row for 3.11 (the project's) and for each other version run, and names each
of those versions in both languages. Rerun a version with
the method of the table's header (block by block; ``make drift TORCH=none`` skips whole groups, so it
cannot give these counts; MAINTAINING.md "Other Pythons") and update the table.
"""

import csv

import polib
import pytest
from conftest import ROOT
from tools.project import pages

TABLE = ROOT / "tests" / "data" / "python-versions.tsv"
CHAPTER = [page for page in pages() if page.startswith("python/") and page != "python/index"]


def runs() -> dict[str, dict[str, tuple[int, int]]]:
    found: dict[str, dict[str, tuple[int, int]]] = {}
    lines = [line for line in TABLE.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    for row in csv.reader(lines, delimiter="\t"):
        page, version, run, passed = row[:4]
        assert int(passed) <= int(run), f"{TABLE}: {page} {version}: more passed than run"
        found.setdefault(page, {})[version] = (int(run), int(passed))
    return found


def test_every_page_of_the_chapter_has_its_runs_recorded():
    recorded = runs()
    versions = {v for page in recorded.values() for v in page}
    assert {"3.12.1", "3.13.0"} <= versions and any(v.startswith("3.11") for v in versions)
    for page in CHAPTER:
        assert page in recorded, f"{TABLE}: no run of {page}"
        assert set(recorded[page]) == versions, f"{page}: runs on {sorted(recorded[page])}, not {sorted(versions)}"


@pytest.mark.parametrize("page", CHAPTER)
def test_the_page_names_the_versions_it_was_run_on(page):
    source = (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")
    english = " ".join(e.msgstr for e in polib.pofile(str(ROOT / "locale" / "en" / "LC_MESSAGES" / f"{page}.po")))
    for version in runs()[page]:
        if not version.startswith("3.11"):
            assert version in source, f"docs/{page}.md does not say it was run on {version}"
            assert version in english, f"the English {page} does not say it was run on {version}"
