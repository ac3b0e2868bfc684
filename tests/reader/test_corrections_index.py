"""The corrections index lists every erratum admonition, in both languages, and never goes stale.

tests/roots/test-corrections-index/ is a tiny bilingual project: two chapters (listed
b before a in the root toctree), four errata (one at the top of a page, one with a code
span in its title, one titled "勘误与版本说明…", one on another page), an admonition that
is not an erratum but whose translation starts with "Erratum", and an erratum whose
translation does not. Each test builds a fresh copy of it with docs/_ext/ on the path.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

FIXTURE = ROOT / "tests" / "roots" / "test-corrections-index"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "docs" / "_ext")}
SPHINX_TIMEOUT = 300  # seconds; a fixture project builds in seconds; past this it is stuck

ZH = [
    ("乙章", "乙页", [("b/page.html#b-page-only", "勘误：乙页的勘误")]),
    ("甲章", "甲页", [("a/page.html#a-page", "勘误：页首的勘误"),
                   ("a/page.html#a-page-first", "勘误：<code>x.data()</code> 不是方法"),
                   ("a/page.html#a-page-second", "勘误与版本说明：第二处")]),
]
EN = [
    ("Chapter B", "Page B", [("b/page.html#b-page-only", "Erratum: the one on page B")]),
    ("Chapter A", "Page A", [("a/page.html#a-page", "Erratum: at the top of the page"),
                             ("a/page.html#a-page-first", "Correction: <code>x.data()</code> is not a method"),
                             ("a/page.html#a-page-second", "Erratum and version note: the second one")]),
]


def project(tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(FIXTURE, copy)
    return copy


def build(root: Path, language: str = "zh_CN", *options: str) -> Path:
    out = root / "_build" / language
    result = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "-q", "-D", f"language={language}",
                             "-d", str(root / "_build" / f"doctrees-{language}"), *options, str(root), str(out)],
                            capture_output=True, text=True, env=ENV, timeout=SPHINX_TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def code(html: str) -> str:
    """An entry's text with code spans reduced to <code>…</code>."""
    return re.sub(r'<code class="[^"]*"><span class="pre">([^<]*)</span></code>', r"<code>\1</code>", html)


def listed(out: Path) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(chapter heading, page title, [(href, text), ...]) for each page, as the corrections page shows them."""
    html = (out / "corrections.html").read_text(encoding="utf-8")
    found = []
    for chapter in html.split('<section class="corrections-chapter"')[1:]:
        heading = re.search(r"<h2>([^<]*)<", chapter).group(1)
        for page in re.split(r"<li><p><a [^>]*>(?=[^<]*</a></p>\n<ul>)", chapter)[1:]:
            title = page.split("</a>")[0]
            entries = re.findall(r'<li><p><a class="reference internal" href="([^"]*)">(.*?)</a></p></li>', page)
            found.append((heading, title, [(href, code(text)) for href, text in entries]))
    return found


def test_errata_are_listed_by_chapter_and_page_in_toctree_order(tmp_path):
    assert listed(build(project(tmp_path))) == ZH


def test_the_translation_lists_the_errata_of_the_source_with_translated_titles(tmp_path):
    # "Correction: …" is listed and "Erratum-like version note …" is not: the test is made on the Chinese title.
    assert listed(build(project(tmp_path), "en")) == EN


def test_a_parallel_build_lists_the_same_errata(tmp_path):
    assert listed(build(project(tmp_path), "zh_CN", "-j", "2")) == ZH


@pytest.mark.parametrize("edit, expected", [
    (lambda text: text + "\n:::{admonition} 勘误：新加的一处\n:class: note\n\n正文。\n:::\n",
     [("b/page.html#b-page-only", "勘误：乙页的勘误"), ("b/page.html#b-page-only", "勘误：新加的一处")]),
    (lambda text: text.replace("勘误：乙页的勘误", "说明：不再是勘误"), None),
])
def test_an_incremental_build_follows_edits_on_other_pages(tmp_path, edit, expected):
    root = project(tmp_path)
    build(root)
    page = root / "b" / "page.md"
    page.write_text(edit(page.read_text(encoding="utf-8")), encoding="utf-8")
    want = [ZH[0][:2] + (expected,)] + ZH[1:] if expected else ZH[1:]
    assert listed(build(root)) == want
