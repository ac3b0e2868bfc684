"""A third language, as a new translator starts it: make add-language in a copy of the project.

The copy gets Japanese with ``make add-language L=ja`` (Korean where the checkout has a Japanese
draft already), one page translated (its title in that language, the rest from the English pivot), and then the builds a translator runs. The checks
are the ones that hold for any language, and the draft rule: the Japanese pages link to the
published editions, the published English edition does not link to the draft.
"""

import re
import shutil
import subprocess
from dataclasses import dataclass

import polib
import pytest
from bs4 import BeautifulSoup

from bounded_run import run_bounded
from conftest import BUILDDIR as SESSION_BUILDDIR
from conftest import ROOT, html_dir
from tools.examples.doctest_report import parse
from tools.project import site_languages

pytestmark = pytest.mark.long  # conftest.py schedules it early

PAGE = "serialization/index"
SOURCE_TITLE = "序列化：保存与加载"


@dataclass(frozen=True)
class NewLanguage:
    code: str
    title: str  # the page title, as its translator writes it
    search_note: str  # what add-language says about search in this language
    field_names: frozenset  # (Sphinx's word for a field name in this language, the source's word)


# Japanese is the field test's language; where the checkout has a Japanese draft of its own
# already (a translator's work in progress), Korean takes its place.
CANDIDATES = [
    NewLanguage("ja", "シリアライズ：保存と読み込み", "search: Japanese",
                frozenset({("パラメータ", "参数"), ("戻り値", "返回")})),
    NewLanguage("ko", "직렬화: 저장과 불러오기", "search: Sphinx has no search language 'ko'",
                frozenset({("매개변수", "参数"), ("반환", "返回")})),
]
NEW = next(c for c in CANDIDATES if c.code not in site_languages())
TIMEOUT = 1200  # the copy builds two languages from nothing: minutes on 2 cores
ENGLISH_SAMPLE = ["index.md", "translation-status.md", "serialization/**", "tensors/where.md", "nn/linear.md"]


def run(project, *args: str) -> str:
    command = ["make", "--no-print-directory", *args]
    result = run_bounded(command, cwd=project, timeout=TIMEOUT, stderr=subprocess.STDOUT)
    assert result.returncode == 0, f"make {' '.join(args)} failed:\n{result.stdout[-4000:]}"
    return result.stdout


def copy_of_the_project(target):
    """The checkout as git sees it (tracked and new files, not the ignored build output)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True, timeout=60).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    (target / ".venv").symlink_to(ROOT / ".venv")
    return target


@pytest.fixture(scope="module")
def new_language(tmp_path_factory, doctest_runs, gettext_templates):
    project = copy_of_the_project(tmp_path_factory.mktemp("third-language"))
    # The copy's sources are the checkout's, so its templates are the session's: add-language starts from those
    # (TEMPLATES) instead of extracting them again (42 s of processor time). They go as deep into the copy as they
    # lie in the checkout, so that their locations (relative to their folder) name the copy's pages; only those of
    # pages the copy has (Sphinx leaves the template of a page removed since an earlier run in its folder).
    templates = project / gettext_templates.relative_to(ROOT)
    for template in gettext_templates.rglob("*.pot"):
        page = template.relative_to(gettext_templates).with_suffix("")
        if any((project / "docs").glob(f"{page}.*")):
            (templates / page).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(template, templates / template.relative_to(gettext_templates))
    added = run(project, "add-language", f"L={NEW.code}", f"TEMPLATES={templates.relative_to(project)}")
    po_path = project / "locale" / NEW.code / "LC_MESSAGES" / f"{PAGE}.po"
    catalog = polib.pofile(str(po_path))
    for entry in catalog:  # what a translator working from the pivot writes
        entry.msgstr = NEW.title if entry.msgid == SOURCE_TITLE else entry.comment.removeprefix("en: ")
    catalog.save(str(po_path))
    builds = run(project, f"html-lang-{NEW.code}")
    run(project, f"doctest-lang-{NEW.code}")
    # The published English edition, as the copy (which has the draft) builds it: for what its pages link
    # to, a few pages do (one template writes the switcher, the hreflang links and the book links of every
    # page), not the whole site; its warnings are not this test's (the other pages are left out).
    run(project, "html-lang-en", "SPHINXOPTS=-q", f"O=-D include_patterns={','.join(ENGLISH_SAMPLE)}")
    doctest = (project / "_build" / "doctest" / NEW.code / "output.txt").read_text(encoding="utf-8")
    return project, added, builds, doctest


def test_add_language_makes_a_draft_with_its_pivot_and_ui_strings(new_language):
    project, added, _, _ = new_language
    assert '"draft": True' in (project / "conf.py").read_text(encoding="utf-8")
    assert (project / "docs" / "_locale" / NEW.code / "LC_MESSAGES" / "sphinx.po").is_file()
    catalog = polib.pofile(str(project / "locale" / NEW.code / "LC_MESSAGES" / "tensors" / "broadcasting.po"))
    assert all(e.comment.startswith("en: ") for e in catalog), "an entry without its English pivot"
    assert NEW.search_note in added


def test_the_draft_builds_without_warnings_and_runs_every_example(new_language):
    _, _, builds, doctest = new_language
    warnings = [line for line in builds.splitlines() if "WARNING" in line or "ERROR" in line]
    assert not warnings, "\n".join(warnings[:20])
    tests, failures, setup = parse(doctest)
    source, _, _ = parse((SESSION_BUILDDIR / "doctest" / "zh_CN" / "output.txt").read_text(encoding="utf-8"))
    assert not any(failures.values()) and not setup
    assert tests == source, "the draft runs another set of examples than the Chinese edition"


def test_the_translated_page_shows_the_translation(new_language):
    project, _, _, _ = new_language
    page = BeautifulSoup((project / "_build" / "html" / NEW.code / f"{PAGE}.html").read_text(encoding="utf-8"),
                         "html.parser")
    assert page.html["lang"] == NEW.code and page.h1.get_text().startswith(NEW.title)
    for counterpart in page.select(".parallel-counterpart"):  # the bilingual view's source text, hidden
        counterpart.decompose()
    assert "训练得到的权重" not in page.get_text(), "an entry translated from the pivot still shows the Chinese"


def test_field_names_of_the_draft_show_the_source_s_words_beside_sphinx_s_own(new_language):
    """Sphinx writes "Parameters" as パラメータ in a Japanese build; its counterpart is the source's 参数."""
    project, _, _, _ = new_language
    page = BeautifulSoup((project / "_build" / "html" / NEW.code / "tensors" / "where.html").read_text(encoding="utf-8"),
                         "html.parser")
    names = page.select("dl.field-list > dt")
    pairs = {(dt.find(string=True, recursive=False).strip(), dt.select_one(".parallel-counterpart").get_text())
             for dt in names if dt.select_one(".parallel-counterpart")}
    assert len(names) > 5 and NEW.field_names <= pairs, pairs
    assert all(dt.select_one(".parallel-counterpart") for dt in names), "a field name without its counterpart"


def test_the_draft_links_to_the_published_editions_and_they_do_not_link_to_it(new_language):
    project, _, _, _ = new_language
    html = project / "_build" / "html"
    draft = BeautifulSoup((html / NEW.code / f"{PAGE}.html").read_text(encoding="utf-8"), "html.parser")
    assert {a["hreflang"] for a in draft.select("a.language-switcher-link")} == {"zh-CN", "en"}
    problems = []
    english = sorted((html / "en").rglob("*.html"))
    assert len(english) >= 8, "the sample of English pages was not built"
    for page in english:
        text = page.read_text(encoding="utf-8")
        if re.search(rf'hreflang="{NEW.code}"|href="[^"]*\b{NEW.code}/|torch-notes-{NEW.code}\.epub', text):
            problems.append(str(page.relative_to(html)))
    assert not problems, f"published pages link to the draft: {problems[:10]}"


def test_the_status_page_shows_the_draft_and_its_progress(new_language):
    project, _, _, _ = new_language
    status = BeautifulSoup((project / "_build" / "html" / "en" / "translation-status.html").read_text(
        encoding="utf-8"), "html.parser")
    lines = [p.get_text() for p in status.select("div.translation-status > p")]
    assert any(line.startswith(f"{NEW.code}: ") and "done" in line for line in lines), lines
    assert any(line.startswith(f"{NEW.code} is a draft") for line in lines), lines


def test_the_translator_commands_take_the_language_and_a_page(new_language):
    project, _, _, _ = new_language
    lint = run(project, "lint-po", f"L={NEW.code}", f"ONLY={PAGE}")
    assert "1 catalogs OK" in lint, lint
    whole = run_bounded(["make", "--no-print-directory", "lint-po", f"L={NEW.code}"], cwd=project, timeout=TIMEOUT,
                        stderr=subprocess.STDOUT)
    assert whole.returncode == 0 and f"{NEW.code} is a draft: " in whole.stdout, whole.stdout[-2000:]
    stats = run(project, "stats", f"L={NEW.code}", "ONLY=serialization/")
    assert re.search(rf"{PAGE}\s+11\s+0\s+0\s+100\.0%", stats), stats
    assert "[en]" not in stats and "tensors/" not in stats
    todo = run(project, "todo", f"L={NEW.code}", "ONLY=serialization/")
    assert "serialization/save-load" in todo and PAGE + " " not in todo


def test_the_draft_keeps_the_markup_of_every_field_list(new_language):
    from test_field_markup import CODE, FIELD_LIST, without_counterparts

    project, _, _, _ = new_language

    def counts(root):
        return {page.relative_to(root).as_posix(): sum(len(CODE.findall(without_counterparts(f)))
                                                       for f in FIELD_LIST.findall(page.read_text(encoding="utf-8")))
                for page in root.rglob("*.html")}
    english = counts(html_dir("en"))  # the suite's own English build: every page
    new_pages = counts(project / "_build" / "html" / NEW.code)
    assert sum(english.values()) > 250
    assert {p: (n, new_pages.get(p)) for p, n in english.items() if new_pages.get(p) != n} == {}
