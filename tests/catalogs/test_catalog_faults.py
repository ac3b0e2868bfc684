"""Issue 31, item 1: one reader of catalogs for every tool; no page is published from a malformed one.

tests/roots/test-catalog-faults/ is a page, the status page and the bilingual view; broken/
holds five malformed versions of its English catalog (the first line of each says what is
wrong, and where): a msgstr without its closing quote (Babel read it as "Adam and Adam" and
the build published that), a msgstr without its msgid, a header charset that is not UTF-8, a
UTF-8 byte order mark, a file cut off in the middle of a character. Each must stop the build of
either language before a page is written, and be named by every tool that reads catalogs
(stats, the status page, the bilingual view, the lint, todo, update-po) at the same line, with
the same cause, and never with a traceback.
"""

import hashlib
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT

FIXTURE = ROOT / "tests" / "roots" / "test-catalog-faults"
BROKEN = {  # name: (line, rule, words of the cause)
    "unterminated": (12, "syntax", "unterminated string"),
    "orphan": (11, "syntax", "msgstr without a msgid"),
    "charset": (8, "charset", "header declares ISO-8859-1"),
    "bom": (1, "charset", "byte order mark"),
    "cut-off": (14, "charset", "cut off"),
}
SPHINX_TIMEOUT = 300  # seconds; the fixture builds in a few; past this it is stuck
TOOL_TIMEOUT = 120
CRASH_REPORT = ("Traceback", "open an issue", "report this")


def project(tmp_path: Path, broken: str | None = None) -> Path:
    """The fixture's pages and catalogs (its conf.py stays where it is: builds pass -c)."""
    src = tmp_path / "src"
    shutil.copytree(FIXTURE, src, ignore=shutil.ignore_patterns("broken", "conf.py"))
    if broken:
        shutil.copy(FIXTURE / "broken" / f"{broken}.po", src / "locale" / "en" / "LC_MESSAGES" / "index.po")
    return src


def build(src: Path, out: Path, language: str, builder: str = "html") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sphinx", "-b", builder, "-W", "--keep-going", "-q", "-c", str(FIXTURE),
                           "-D", f"language={language}", "-d", str(out / "doctrees"), str(src), str(out / builder)],
                          capture_output=True, text=True, timeout=SPHINX_TIMEOUT, cwd=src.parent)


def test_the_sound_fixture_builds_in_both_languages_with_its_counterparts(tmp_path):
    src = project(tmp_path)
    english = build(src, tmp_path / "en", "en")
    assert english.returncode == 0, english.stderr
    assert "<h1>Adam and AdamW" in (tmp_path / "en" / "html" / "index.html").read_text(encoding="utf-8")
    chinese = build(src, tmp_path / "zh", "zh_CN")
    assert chinese.returncode == 0, chinese.stderr
    page = (tmp_path / "zh" / "html" / "index.html").read_text(encoding="utf-8")
    assert 'lang="en">Adam and AdamW' in page, "the bilingual view read the English catalog"


@pytest.mark.parametrize("name", BROKEN)
@pytest.mark.parametrize("language, builder", [("en", "html"), ("zh_CN", "html"), ("zh_CN", "gettext")])
def test_no_build_publishes_a_page_from_a_malformed_catalog(tmp_path, name, language, builder):
    """The English catalog is broken: the English build, the Chinese one (its bilingual view and its status
    page read that catalog) and the gettext build of make update-po all stop, naming it."""
    line, rule, cause = BROKEN[name]
    src = project(tmp_path, name)
    result = build(src, tmp_path / "out", language, builder)
    assert result.returncode != 0, f"built from a malformed catalog:\n{result.stderr}"
    assert f"src/locale/en/LC_MESSAGES/index.po:{line}: ERROR: [{rule}] " in result.stderr, result.stderr
    assert cause in result.stderr
    assert not any(word in result.stderr for word in CRASH_REPORT), result.stderr
    written = [p for p in (tmp_path / "out" / builder).rglob("*") if p.suffix in (".html", ".pot")]
    assert not written, f"pages written from a malformed catalog: {written}"


def digest(folder: Path) -> dict[Path, str]:
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", BROKEN)
def test_every_tool_names_the_same_line_and_cause(tmp_path, name):
    from tools.catalogs import catalog_file
    from tools.catalogs.catalog_file import CatalogError
    from tools.lint.lint_po import catalog_file_errors
    from i18n.parallel_view import read_catalog
    from tools.catalogs.po_stats import language_stats
    from tools.catalogs.update_po import update

    line, rule, cause = BROKEN[name]
    locale = project(tmp_path, name) / "locale"
    po = locale / "en" / "LC_MESSAGES" / "index.po"
    expected = f"{po}:{line}: [{rule}] "

    with pytest.raises(CatalogError) as reader:  # the reader itself
        catalog_file.read(po)
    assert str(reader.value).startswith(expected) and cause in str(reader.value)
    with pytest.raises(CatalogError) as status:  # the status page counts with make stats' code
        language_stats(locale, "en")
    assert str(status.value).startswith(expected)
    with pytest.raises(CatalogError) as view:  # the bilingual view of the Chinese build
        read_catalog(po)
    assert str(view.value).startswith(expected)
    lint = catalog_file_errors(po)  # make lint-po
    assert lint and lint[0].startswith(expected) and cause in lint[0], lint

    for tool in ("po_stats.py", "po_todo.py"):  # make stats, make todo: exit 1, the line, no traceback
        result = subprocess.run([sys.executable, str(ROOT / "tools" / "catalogs" / tool), str(locale), "en"],
                                capture_output=True, text=True, timeout=TOOL_TIMEOUT)
        assert result.returncode == 1 and expected in result.stderr, f"{tool}: {result.stderr}"
        assert not any(word in result.stderr for word in CRASH_REPORT), result.stderr

    pot_dir = tmp_path / "pot"  # make update-po: refuses, changes nothing
    pot_dir.mkdir()
    (pot_dir / "index.pot").write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                                       'msgid "一段文字。"\nmsgstr ""\n', encoding="utf-8")
    before = digest(tmp_path)
    with pytest.raises(SystemExit) as merge:
        update(pot_dir, locale, ["en"])
    assert expected in str(merge.value) and "nothing was changed" in str(merge.value)
    assert digest(tmp_path) == before


def test_a_cut_off_compiled_catalog_is_compiled_again_not_silently_dropped(tmp_path):
    """A .mo cut off by an interrupted build is newer than its .po: Sphinx would keep it, gettext would
    drop it without a word, and the English page would show the Chinese source."""
    src = project(tmp_path)
    assert build(src, tmp_path / "first", "en").returncode == 0
    mo = src / "locale" / "en" / "LC_MESSAGES" / "index.mo"
    data = mo.read_bytes()
    mo.write_bytes(data[: len(data) // 2])  # as a full disk or a kill leaves it; newer than index.po
    result = build(src, tmp_path / "second", "en")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "second" / "html" / "index.html").read_text(encoding="utf-8")
    assert "<h1>Adam and AdamW" in page and "Adam 与 AdamW</h1>" not in page
    # Byte for byte: the fixture's catalogs carry a POT-Creation-Date, which Babel otherwise stamps with the
    # current minute (two compilations a minute apart differed: seen in a full run)
    assert mo.read_bytes() == data, "compiled again from the catalog"


def test_the_project_catalogs_are_sound():
    from tools.catalogs import catalog_file

    folders = [ROOT / "locale", ROOT / "docs" / "_locale"]
    assert len(catalog_file.catalogs_under(folders)) > 100
    errors = catalog_file.check_all(folders)
    assert not errors, "\n".join(map(str, errors))


def test_msgfmts_words_are_given_the_line_to_edit_and_the_cause(tmp_path):
    """msgfmt puts "end-of-line within string" at the line after the string (here 8 and 12 for 7 and 11)
    and calls an orphan msgstr a "syntax error"; the reader says where and what."""
    from tools.catalogs import catalog_file

    po = tmp_path / "index.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgid "a"\nmsgstr ""\n"b\n"c"\n\nmsgid "x"\nmsgstr "y\n\n'
                  'msgid "z"\nmsgstr "w"\nmsgstr "v"\n\nmsgid "z"\nmsgstr "w"\n', encoding="utf-8")
    found = [(p.line, p.message.split(":")[0]) for p in catalog_file.problems(po)]
    assert found == [(7, "unterminated string"), (11, "unterminated string"), (15, "msgstr without a msgid"),
                     (17, "duplicate message definition")], found


def test_a_rebuild_checks_only_the_catalogs_changed_since(tmp_path):
    """msgfmt runs for each catalog once, then again only for one changed since the last build, in the check
    and in the extensions that read the catalogs after it (the bilingual view, the status page)."""
    src = project(tmp_path)
    out = tmp_path / "out"

    def checked() -> tuple[str, str]:
        result = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-v", "-c", str(FIXTURE), "-D",
                                 "language=en", "-d", str(out / "doctrees"), str(src), str(out / "html")],
                                capture_output=True, text=True, timeout=SPHINX_TIMEOUT)
        assert result.returncode == 0, result.stderr
        check, whole_build = [line for line in result.stdout.splitlines() if "catalog_check:" in line]
        return check, whole_build

    assert "2 catalogs, 2 checked" in checked()[0]
    check, whole_build = checked()
    assert "2 catalogs, 0 checked" in check and whole_build.endswith(": 0")
    po = src / "locale" / "en" / "LC_MESSAGES" / "index.po"
    po.write_text(po.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    check, whole_build = checked()
    assert "2 catalogs, 1 checked" in check and whole_build.endswith(": 1")
    record = out / "doctrees" / "catalog-check.json"  # as if checked with another reader or msgfmt
    record.write_text(record.read_text(encoding="utf-8").replace('"checker": "', '"checker": "x'), encoding="utf-8")
    assert "2 catalogs, 2 checked" in checked()[0]


def test_a_catalog_taken_as_sound_is_known_by_any_name_of_its_path(tmp_path):
    """The status page reads docs/../locale/...; catalog_check recorded the resolved path."""
    from tools.catalogs import catalog_file

    src = project(tmp_path)
    po = src / "locale" / "en" / "LC_MESSAGES" / "index.po"
    status = po.stat()
    catalog_file.trust(po, (status.st_mtime_ns, status.st_size))
    runs = catalog_file.MSGFMT_RUNS[0]
    catalog_file.read(src / "locale" / ".." / "locale" / "en" / "LC_MESSAGES" / "index.po")
    assert catalog_file.MSGFMT_RUNS[0] == runs
