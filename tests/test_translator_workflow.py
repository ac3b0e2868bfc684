"""make add-language, make todo and the translation status page, on a copy of the fixture project."""

import re
import shutil
import subprocess
import sys

import polib
import pytest
from bs4 import BeautifulSoup
from fixture_project import catalogs, make, make_project


def status_rows(html_file) -> dict[str, list[str]]:
    """{language: ['page translated fuzzy untranslated done', ...]} from a built status table."""
    soup = BeautifulSoup(html_file.read_text(encoding="utf-8"), "html.parser")
    found = {}
    for block in soup.select("div.translation-status"):
        language = block.p.get_text().split(":")[0].split("：")[0]
        found[language] = [" ".join(td.get_text(strip=True) for td in tr.find_all("td"))
                           for tr in block.select("tbody tr")]
    return found


@pytest.fixture(scope="module")
def with_japanese(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("add-language"))
    conf_before = (project / "conf.py").read_text(encoding="utf-8")
    output = make(project, "add-language", "L=ja")
    return project, conf_before, output


def test_add_language_creates_every_catalog_untranslated(with_japanese):
    project, _, _ = with_japanese
    created = sorted(p.relative_to(project / "locale" / "ja" / "LC_MESSAGES").as_posix()
                     for p in (project / "locale" / "ja" / "LC_MESSAGES").rglob("*.po"))
    assert created == ["chapter/page.po", "index.po"]
    for name in created:
        catalog = polib.pofile(str(project / "locale" / "ja" / "LC_MESSAGES" / name))
        assert catalog.metadata["Language"] == "ja" and len(catalog) and not catalog.translated_entries()


def test_add_language_gives_the_language_its_conf_entries(with_japanese):
    project, before, _ = with_japanese
    namespace = {"__file__": str(project / "conf.py")}
    exec((project / "conf.py").read_text(encoding="utf-8"), namespace)
    assert namespace["language_overrides"]["ja"] == {"html_title": "Fixture project"}
    assert namespace["site_languages"]["ja"] == {"hreflang": "ja", "label": "日本語"}
    assert (project / "conf.py").read_text(encoding="utf-8").startswith(before.split("language_overrides")[0])


def test_the_build_and_the_tests_pick_the_language_up(with_japanese):
    project, _, _ = with_japanese
    listed = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, 'tools'); "
                             "from project import translations; print(translations())"],
                            cwd=project, capture_output=True, text=True, check=True).stdout
    assert listed.strip() == "['en', 'ja']", "tests/conftest.py LANGUAGES comes from translations()"
    make(project, "html")
    for language in ("zh_CN", "en", "ja"):
        assert (project / "_build" / "html" / language / "index.html").is_file()
    page = (project / "_build" / "html" / "ja" / "index.html").read_text(encoding="utf-8")
    assert "<title>" in page and 'lang="ja"' in page
    assert (project / "_build" / "html" / "ja" / "fixture-ja.epub").is_file(), "make html puts each book in its site"


def test_adding_an_existing_or_malformed_language_changes_nothing(with_japanese):
    project, _, _ = with_japanese
    before, conf = catalogs(project), (project / "conf.py").read_bytes()
    for code in ("ja", "en", "zh_CN", "JA", "ja-JP"):
        result = subprocess.run(["make", "--no-print-directory", "add-language", f"L={code}", "SPHINXOPTS=-q"],
                                cwd=project, capture_output=True, text=True)
        assert result.returncode != 0, code
    result = subprocess.run(["make", "--no-print-directory", "add-language", "SPHINXOPTS=-q"], cwd=project,
                            capture_output=True, text=True)
    assert result.returncode != 0 and "usage: make add-language L=" in result.stdout
    assert catalogs(project) == before and (project / "conf.py").read_bytes() == conf


def test_status_page_counts_per_chapter_and_page_at_build_time(with_japanese):
    project, _, _ = with_japanese
    rows = status_rows(project / "_build" / "html" / "en" / "index.html")
    assert rows["en"] == ["index 6 0 0 100.0%", "chapter/ 2 0 0 100.0%", "chapter/page 2 0 0 100.0%"]
    assert rows["ja"] == ["index 0 0 6 0.0%", "chapter/ 0 0 2 0.0%", "chapter/page 0 0 2 0.0%"]
    # A fuzzy entry is not translated, and the page follows the catalogs without -E.
    po = project / "locale" / "en" / "LC_MESSAGES" / "chapter" / "page.po"
    catalog = polib.pofile(str(po))
    catalog[0].flags.append("fuzzy")
    catalog.save(str(po))
    make(project, "html-en")
    rows = status_rows(project / "_build" / "html" / "en" / "index.html")
    assert rows["en"][1:] == ["chapter/ 1 1 0 50.0%", "chapter/page 1 1 0 50.0%"]
    zh = status_rows(project / "_build" / "html" / "zh_CN" / "index.html")
    assert set(zh) == {"en", "ja"}, "the Chinese site shows the same tables"
    link = BeautifulSoup((project / "_build" / "html" / "en" / "index.html").read_text(encoding="utf-8"),
                         "html.parser").select_one("div.translation-status a[href*='chapter/page']")
    assert link is not None and link.get_text() == "chapter/page"


def test_status_table_is_not_offered_for_translation(with_japanese):
    project, _, _ = with_japanese
    pot = (project / "_build" / "gettext" / "index.pot").read_text(encoding="utf-8")
    assert "100.0%" not in pot and "chapter/page" not in pot and "Translated" not in pot


def git(project, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=project,
                   check=True, capture_output=True)


def test_todo_lists_what_is_left_most_urgent_first_and_per_branch(tmp_path):
    project = make_project(tmp_path)
    for name, fuzzy, empty in [("index.po", 1, 2), ("chapter/page.po", 1, 0)]:
        po = project / "locale" / "en" / "LC_MESSAGES" / name
        catalog = polib.pofile(str(po))
        entries = [e for e in catalog if e.msgid]
        for entry in entries[:fuzzy]:
            entry.flags.append("fuzzy")
        for entry in entries[fuzzy:fuzzy + empty]:
            entry.msgstr = ""
        catalog.save(str(po))
    out = make(project, "todo")
    lines = out.splitlines()
    assert lines[0] == "[en] 4 entries left in 2 pages, most urgent first:"
    assert re.match(r"^\s+index\s+2\s+1\s+50%\s+locale/en/LC_MESSAGES/index\.po$", lines[2]), lines[2]
    assert re.match(r"^\s+chapter/page\s+0\s+1\s+50%\s+locale/en/LC_MESSAGES/chapter/page\.po$", lines[3]), lines[3]
    # BRANCH=1: only the pages changed since the branch left main (committed, uncommitted or new).
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "base")
    git(project, "checkout", "-q", "-b", "topic")
    assert "[en] nothing left to translate (pages changed on this branch)" in make(project, "todo", "BRANCH=1")
    page = project / "docs" / "chapter" / "page.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n新的一段。\n", encoding="utf-8")
    git(project, "commit", "-q", "-am", "edit")
    out = make(project, "todo", "BRANCH=1")
    assert "chapter/page" in out and "index" not in out.replace("index.po", "")


def test_status_page_follows_a_catalog_set_that_changes_without_a_fresh_build(tmp_path):
    project = make_project(tmp_path)
    make(project, "html-en")
    status = project / "_build" / "html" / "en" / "index.html"
    catalogs_dir = project / "locale" / "en" / "LC_MESSAGES" / "chapter"
    shutil.copy(catalogs_dir / "page.po", catalogs_dir / "extra.po")
    make(project, "html-en")  # incremental: no page, catalog or setting changed; a catalog was added
    assert "chapter/extra 2 0 0 100.0%" in status_rows(status)["en"]
    (catalogs_dir / "extra.po").unlink()
    make(project, "html-en")
    assert not any(row.startswith("chapter/extra") for row in status_rows(status)["en"])
