"""make add-language, make todo and the translation status page, on a copy of the fixture project."""

import contextlib
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import polib
import pytest
from bs4 import BeautifulSoup
from fixture_project import MAKE_TIMEOUT, catalogs, make, make_project
from tools.catalogs.po_lines import CatalogLines


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
    assert namespace["site_languages"]["ja"] == {"hreflang": "ja", "label": "日本語", "draft": True}
    assert (project / "conf.py").read_text(encoding="utf-8").startswith(before.split("language_overrides")[0])


def test_new_catalogs_have_a_real_header_and_the_english_pivot(with_japanese):
    project, _, output = with_japanese
    for po in (project / "locale" / "ja" / "LC_MESSAGES").rglob("*.po"):
        text = po.read_text(encoding="utf-8")
        for placeholder in ("YEAR-MO-DA", "FIRST AUTHOR", "SOME DESCRIPTIVE TITLE", "LL@li.org", "EMAIL@ADDRESS"):
            assert placeholder not in text, f"{po}: gettext's placeholder {placeholder!r} left in the header"
        catalog = polib.pofile(str(po))
        assert not catalog.metadata_is_fuzzy and catalog.metadata["Language-Team"] == "ja"
        english = polib.pofile(str(project / "locale" / "en" / "LC_MESSAGES" / po.relative_to(
            project / "locale" / "ja" / "LC_MESSAGES")))
        for entry in catalog:
            assert entry.comment == "en: " + english.find(entry.msgid).msgstr, (po, entry.msgid)
    assert "search: Japanese: Sphinx splits words with its built-in TinySegmenter" in output


def test_the_english_pivot_follows_the_english_translation(tmp_path):
    project = make_project(tmp_path)
    make(project, "add-language", "L=ja")
    english = project / "locale" / "en" / "LC_MESSAGES" / "chapter" / "page.po"
    catalog = polib.pofile(str(english))
    catalog[0].msgstr = "A better English sentence."
    catalog.save(str(english))
    make(project, "update-po")
    japanese = polib.pofile(str(project / "locale" / "ja" / "LC_MESSAGES" / "chapter" / "page.po"))
    assert japanese.find(catalog[0].msgid).comment == "en: A better English sentence."
    make(project, "update-po")  # a second run changes nothing
    assert polib.pofile(str(english)).find(catalog[0].msgid).comment == "", "the pivot is not put into English"


def test_add_language_creates_the_theme_and_site_strings(with_japanese):
    project, _, _ = with_japanese
    ui = polib.pofile(str(project / "docs" / "_locale" / "ja" / "LC_MESSAGES" / "sphinx.po"))
    source = polib.pofile(str(project / "docs" / "_locale" / "zh_CN" / "LC_MESSAGES" / "sphinx.po"))
    assert [e.msgid for e in ui] == [e.msgid for e in source]
    assert ui.find("Search").msgstr == "検索", "Sphinx's own Japanese catalog fills what it knows"
    assert ui.find("Bilingual view").msgstr == "", "the project's own strings are left to the translator"
    assert "YEAR-MO-DA" not in (project / "docs" / "_locale" / "ja" / "LC_MESSAGES" / "sphinx.po").read_text()


def test_the_build_and_the_tests_pick_the_language_up(with_japanese):
    project, _, _ = with_japanese
    listed = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, '.'); "
                             "from tools.project import translations; print(translations())"],
                            cwd=project, capture_output=True, text=True, check=True, timeout=300).stdout
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
                                cwd=project, capture_output=True, text=True, timeout=MAKE_TIMEOUT)
        assert result.returncode != 0, code
    result = subprocess.run(["make", "--no-print-directory", "add-language", "SPHINXOPTS=-q"], cwd=project,
                            capture_output=True, text=True, timeout=MAKE_TIMEOUT)
    assert result.returncode != 0 and "usage: make add-language L=" in result.stdout
    assert catalogs(project) == before and (project / "conf.py").read_bytes() == conf


def test_status_page_counts_per_chapter_and_page_at_build_time(with_japanese):
    project, _, _ = with_japanese
    rows = status_rows(project / "_build" / "html" / "en" / "index.html")
    assert rows["en"] == ["index 6 0 0 100.0%", "chapter/ 2 0 0 100.0%", "chapter/page 2 0 0 100.0%"]
    assert rows["ja"] == ["index 0 0 6 0.0%", "chapter/ 0 0 2 0.0%", "chapter/page 0 0 2 0.0%"]
    soup = BeautifulSoup((project / "_build" / "html" / "en" / "index.html").read_text(encoding="utf-8"), "html.parser")
    drafts = [p.get_text() for p in soup.select("div.translation-status p")]
    assert any(t.startswith("ja is a draft") for t in drafts) and not any(t.startswith("en is a draft") for t in drafts)
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
                   check=True, capture_output=True, timeout=60)


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
    # Each entry with the line of its msgstr, the line the lint and the build name too.
    page_po = project / "locale" / "en" / "LC_MESSAGES" / "chapter" / "page.po"
    fuzzy = next(e for e in polib.pofile(str(page_po)) if e.fuzzy)
    msgstr_line = CatalogLines(page_po).entry(fuzzy).line("msgstr")
    assert any(line.startswith(f"  locale/en/LC_MESSAGES/chapter/page.po:{msgstr_line}: fuzzy: ") for line in lines), lines
    assert sum(": untranslated: " in line for line in lines) == 2 and sum(": fuzzy: " in line for line in lines) == 2
    one = make(project, "todo", "ONLY=chapter/")
    assert one.splitlines()[0] == "[en] 1 entry left in 1 page (under chapter/), most urgent first:", one
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


@contextlib.contextmanager
def serving(project, language="en"):
    """make serve's server on a free port (its command, as the Makefile gives it): yields fetch(path)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "tools/web/serve.py", "-c", ".", "-d", f"_build/doctrees/{language}/tree",
                               "-D", f"language={language}", "-q", "--host", "127.0.0.1", "--port", str(port),
                               "--watch", "locale", "--re-ignore", r".*\.mo$", "docs", f"_build/html/{language}"],
                              cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                              start_new_session=True)

    def fetch(path: str) -> str | bytes:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}", timeout=5) as response:
            assert response.status == 200, path
            body = response.read()
            return body.decode() if path.endswith(".html") else body

    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                fetch(f"{language}/index.html")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "serve did not start in 90 s"
                time.sleep(1)
        yield fetch
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)


def wait_until(condition, what: str, seconds: float = 90):
    """Poll ``condition``; a page read while the preview rewrites it (cut short, or refused) counts as not yet."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if condition():
                return
        except (OSError, http.client.HTTPException):
            pass
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        time.sleep(1)


def test_serve_previews_one_language_with_its_sibling_editions_and_books(with_japanese):
    """make serve's server: the page being edited links to the other editions and books without a 404."""
    project, _, _ = with_japanese
    make(project, "html")  # what make serve does first (nothing to do if an earlier test built it)
    with serving(project) as fetch:
        assert "<title>" in fetch("en/index.html") and "serve-build-report" not in fetch("en/index.html")
        # Where the switcher and the book links of an English page lead (../zh_CN/..., ../ja/..., books).
        for target in ("zh_CN/index.html", "ja/index.html", "zh_CN/fixture-zh-CN.epub", "en/fixture-en.epub"):
            fetch(target)


def test_serve_shows_a_broken_entry_on_every_page_until_it_is_mended(with_japanese):
    """A translator who saves a translation that breaks the page (here a reference to a label that does not
    exist) sees it at the top of the page, as Sphinx reports it, not only as a line scrolling past in the
    terminal; once mended, the banner goes."""
    project, _, _ = with_japanese
    make(project, "html")
    po = project / "locale" / "en" / "LC_MESSAGES" / "index.po"
    good = po.read_text(encoding="utf-8")
    with serving(project) as fetch:
        assert "serve-build-report" not in fetch("en/index.html")
        catalog = polib.pofile(str(po))
        entry = next(e for e in catalog if e.msgid and e.msgstr and "`" not in e.msgid and "{" not in e.msgid)
        entry.msgstr = "See {ref}`no-such-label`."
        catalog.save(str(po))
        wait_until(lambda: "serve-build-report" in fetch("en/index.html"), "the banner of the broken entry")
        page = fetch("en/index.html")
        assert "WARNING: undefined label: &#x27;no-such-label&#x27;" in page, page[-3000:]
        assert "serve-build-report" in fetch("en/chapter/page.html"), "every page carries the banner"
        po.write_text(good, encoding="utf-8")
        wait_until(lambda: "serve-build-report" not in fetch("en/index.html"), "the banner going once mended")
