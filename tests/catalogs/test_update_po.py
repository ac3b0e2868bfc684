"""make update-po never loses a translation, and its catalogs do not churn.

On a copy of the fixture project (tests/fixture_project.py): one paragraph is
edited, one moved, one deleted, and a catalog is saved by a "PO editor" with
other line wrapping; then ``make update-po`` runs, twice, with different BUILDDIRs.
"""

import polib
import pytest
from fixture_project import FIXTURE, MAKE_TIMEOUT, catalogs, make, make_project

CHANGED_OLD = "第一段：这一段会被修改。"
CHANGED_NEW = "第一段：这一段已经被修改过了。"
MOVED = "第二段：这一段会被移到页尾。"
DELETED = "第三段：这一段会被删除。"
INDEX = "locale/en/LC_MESSAGES/index.po"
PAGE = "locale/en/LC_MESSAGES/chapter/page.po"


@pytest.fixture(scope="module")
def updated(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("update-po"))
    index = project / "docs" / "index.md"
    text = index.read_text(encoding="utf-8")
    text = text.replace(CHANGED_OLD, CHANGED_NEW).replace(MOVED + "\n\n", "").replace(DELETED + "\n\n", "")
    index.write_text(text + "\n" + MOVED + "\n", encoding="utf-8")
    rewrapped = polib.pofile(str(project / PAGE), wrapwidth=0)  # a PO editor that never wraps
    rewrapped.save(str(project / PAGE))
    before = polib.pofile(str(FIXTURE / INDEX))
    make(project, "update-po")
    first = catalogs(project)
    make(project, "update-po", "BUILDDIR=_build/a/deeper/folder")
    make(project, "update-po", f"BUILDDIR={tmp_path_factory.mktemp('builddir-outside-the-checkout')}")
    return project, before, first


def test_changed_paragraph_becomes_fuzzy_with_previous_source(updated):
    project, before, _ = updated
    after = polib.pofile(str(project / INDEX))
    changed = after.find(CHANGED_NEW)
    assert changed is not None and changed.fuzzy
    assert changed.msgstr == before.find(CHANGED_OLD).msgstr, "the old translation was lost"
    assert changed.previous_msgid == CHANGED_OLD, "the previous source text is not recorded (#| msgid)"
    assert after.find(CHANGED_OLD) is None
    assert f'#| msgid "{CHANGED_OLD}"' in (project / INDEX).read_text(encoding="utf-8")


def test_moved_paragraph_keeps_its_translation(updated):
    project, before, _ = updated
    moved = polib.pofile(str(project / INDEX)).find(MOVED)
    assert moved is not None and not moved.fuzzy and moved.msgstr == before.find(MOVED).msgstr


def test_deleted_paragraph_is_removed_not_kept_as_obsolete(updated):
    project, _, _ = updated
    text = (project / INDEX).read_text(encoding="utf-8")
    assert DELETED not in text and "#~" not in text


def test_unchanged_entries_are_untouched(updated):
    project, before, _ = updated
    after = {e.msgid: e.msgstr for e in polib.pofile(str(project / INDEX))}
    for entry in before:
        if entry.msgid not in (CHANGED_OLD, DELETED):
            assert after[entry.msgid] == entry.msgstr


def test_wrapping_and_locations_are_normalised(updated):
    project, _, _ = updated
    assert (project / PAGE).read_bytes() == (FIXTURE / PAGE).read_bytes(), "the PO editor's wrapping stayed"
    for path, data in catalogs(project).items():
        for line in data.decode("utf-8").splitlines():
            assert len(line) <= 79 or not line.startswith('"'), f"{path}: unwrapped line {line!r}"
            if line.startswith("#: "):
                assert line == "#: " + " ".join(f"docs/{p.split('docs/', 1)[1]}" for p in line[3:].split()), line
                assert not any(part.rsplit(":", 1)[-1].isdigit() for part in line[3:].split()), "line numbers"


def test_a_second_run_changes_nothing_whatever_the_builddir(updated):
    project, _, first = updated
    assert catalogs(project) == first


def snapshot(project):
    """(mtime, bytes) of every file the build and the translators work with (not _build/)."""
    return {p.relative_to(project): (p.stat().st_mtime_ns, p.read_bytes()) for p in project.rglob("*")
            if p.is_file() and "_build" not in p.parts and ".venv" not in p.parts and "__pycache__" not in p.parts}


def test_a_no_op_update_touches_no_file_and_the_next_build_reads_no_page(tmp_path):
    import subprocess
    project = make_project(tmp_path)
    make(project, "update-po")
    make(project, "html-en")
    before = snapshot(project)
    make(project, "update-po")
    after = snapshot(project)
    changed = sorted(str(name) for name in before.keys() | after.keys() if before.get(name) != after.get(name))
    assert changed == [], f"a no-op update-po changed files: {changed}"
    rebuild = subprocess.run(["make", "--no-print-directory", "html-en", "SPHINXOPTS=-W"], cwd=project,
                             capture_output=True, text=True, timeout=MAKE_TIMEOUT)
    assert rebuild.returncode == 0, rebuild.stdout + rebuild.stderr
    assert "0 added, 0 changed, 0 removed" in rebuild.stdout, rebuild.stdout


def test_editing_one_page_touches_only_its_catalog(tmp_path):
    project = make_project(tmp_path)
    make(project, "update-po")
    before = snapshot(project)
    index = project / "docs" / "index.md"
    index.write_text(index.read_text(encoding="utf-8").replace(CHANGED_OLD, CHANGED_NEW), encoding="utf-8")
    make(project, "update-po")
    after = snapshot(project)
    changed = sorted(str(name) for name in before if before[name] != after.get(name))
    assert changed == ["docs/index.md", INDEX], changed


def test_an_update_changes_only_the_entries_not_the_header(updated):
    """msgmerge takes the template's POT-Creation-Date: a line of diff noise in every catalog it writes.
    The catalog keeps its own, and its PO-Revision-Date (the translators' field) stays too."""
    project, _, _ = updated
    header = [line for line in (FIXTURE / INDEX).read_text(encoding="utf-8").splitlines()[:15] if "-Date:" in line]
    after = [line for line in (project / INDEX).read_text(encoding="utf-8").splitlines()[:15] if "-Date:" in line]
    assert len(header) == 2 and after == header, (header, after)


def test_update_po_only_reads_the_pages_it_merges(tmp_path):
    """ONLY= extracts the messages of those pages (and the root page Sphinx cannot do without), not all."""
    project = make_project(tmp_path)
    page = project / "docs" / "chapter" / "page.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n新加的一段。\n", encoding="utf-8")
    out = make(project, "update-po", "ONLY=chapter/")
    pots = sorted(p.relative_to(project / "_build" / "gettext-pages").as_posix()
                  for p in (project / "_build" / "gettext-pages").rglob("*.pot"))
    assert pots == ["chapter/page.pot", "index.pot"], pots
    assert not (project / "_build" / "gettext").exists(), "the whole site was extracted"
    assert polib.pofile(str(project / PAGE)).find("新加的一段。") is not None, out
