"""docs/_ext/i18n/untranslated_warnings.py: a fuzzy or untranslated entry is a build warning of the translated site.

tests/roots/test-untranslated-warnings/ is a tiny project whose page.po has one fuzzy and one
untranslated entry. Each test builds a fresh copy of it; the builds run with -W as the Makefile's do.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib

from conftest import ROOT

FIXTURE = ROOT / "tests" / "roots" / "test-untranslated-warnings"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "docs" / "_ext")}
SPHINX_TIMEOUT = 300  # seconds; the fixture project builds in seconds; past this it is stuck
WARNING = re.compile(r"^(?P<path>\S+?):(?P<line>\d+): WARNING: (?P<message>.*) \[catalog\.(?P<kind>\w+)\]$")


def project(tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(FIXTURE, copy)
    return copy


def build(root: Path, language: str = "en") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q",
                           "-D", f"language={language}", "-d", str(root / "_build" / f"doctrees-{language}"),
                           str(root), str(root / "_build" / language)],
                          capture_output=True, text=True, env=ENV, cwd=root, timeout=SPHINX_TIMEOUT)


def warnings(result: subprocess.CompletedProcess) -> list[dict]:
    return [m.groupdict() for m in map(WARNING.match, result.stderr.splitlines()) if m]


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if text in line)


def test_each_unfinished_entry_fails_the_english_build_naming_the_page_and_the_catalog_line(tmp_path):
    root = project(tmp_path)
    catalog = root / "locale" / "en" / "LC_MESSAGES" / "page.po"
    result = build(root)
    assert result.returncode != 0
    found = warnings(result)
    assert [(w["kind"], Path(w["path"]), int(w["line"])) for w in found] == [
        ("fuzzy", catalog, line_of(catalog, "msgstr \"The second paragraph.\"")),  # its msgstr
        ("untranslated", catalog, len(catalog.read_text(encoding="utf-8").splitlines())),  # its msgstr, the last line
    ], result.stderr
    assert all("page.md shows the source text here" in w["message"] for w in found), found
    assert "第二段改过" in found[0]["message"] and "第三段还没有翻译" in found[1]["message"]


def test_the_warning_comes_back_on_a_build_that_reads_nothing(tmp_path):
    root = project(tmp_path)
    build(root)
    again = build(root)
    assert again.returncode != 0 and [w["kind"] for w in warnings(again)] == ["fuzzy", "untranslated"], again.stderr


def test_a_finished_catalog_and_the_source_language_build_without_warnings(tmp_path):
    root = project(tmp_path)
    assert build(root, "zh_CN").returncode == 0, "the source language has no catalogs"
    catalog = root / "locale" / "en" / "LC_MESSAGES" / "page.po"
    po = polib.pofile(str(catalog))
    for entry in po:
        if entry.fuzzy:
            entry.flags.remove("fuzzy")
            entry.previous_msgid = None
            entry.msgstr = "The second paragraph was changed; so was its translation."
        elif entry.msgid and not entry.msgstr:
            entry.msgstr = "The third paragraph is translated now."
    po.save(str(catalog))
    result = build(root)
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr


def test_a_page_without_a_catalog_is_named(tmp_path):
    root = project(tmp_path)
    (root / "locale" / "en" / "LC_MESSAGES" / "index.po").unlink()
    missing = [line for line in build(root).stderr.splitlines() if "[catalog.missing]" in line]
    assert len(missing) == 1 and "index.md has no catalog" in missing[0], missing
